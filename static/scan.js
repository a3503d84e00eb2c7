// The live camera on the purchase page: a few frames a second go to the server, which
// answers 204 (nothing new) or the offers fragment for cards it has not just seen.
(function () {
  "use strict";
  const page = document.querySelector("[data-scan-url]");
  if (!page) return;
  const start = page.querySelector("[data-camera-start]");
  const video = page.querySelector("[data-camera-video]");
  const note = page.querySelector("[data-camera-note]");
  const token = document.querySelector("meta[name=csrf-token]").content;
  const canvas = document.createElement("canvas");
  let busy = false;

  if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    note.hidden = true;
    start.hidden = false;
  }

  async function sendFrame() {
    if (busy || video.readyState < 2) return;
    busy = true;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext("2d").drawImage(video, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    const body = new FormData();
    body.append("image", blob, "frame.jpg");
    body.append("live", "1");
    try {
      const response = await fetch(page.dataset.scanUrl, {
        method: "POST", body: body, headers: { "X-CSRFToken": token, "HX-Request": "true" },
      });
      if (response.status === 200) {
        const offers = document.getElementById("offers");
        offers.outerHTML = await response.text();
        if (window.htmx) window.htmx.process(document.getElementById("offers"));
      }
    } finally {
      busy = false;
    }
  }

  start.addEventListener("click", async function () {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "environment", width: { ideal: 1280 }, height: { ideal: 720 } },
      });
      video.srcObject = stream;
      video.hidden = false;
      start.hidden = true;
      await video.play();
      window.setInterval(sendFrame, 400);
    } catch (e) {
      note.hidden = false;
      note.textContent = "The camera is not available: " + e.message + ". Take a photo instead.";
    }
  });
})();
