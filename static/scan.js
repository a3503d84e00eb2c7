// The live camera on the purchase page. One frame at a time goes to the server, shrunk
// to at most 960 px wide, and the next only once the previous answer is back, so a slow
// decode never piles up requests. The server answers 204 (nothing new) or the offers
// fragment, and always says where the codes it read are (X-Scan-Codes): a frame is drawn
// around them over the video. A new card beeps and vibrates where the browser allows;
// the server ignores a sticker read again within 5 s, so a copy is never offered twice.
(function () {
  "use strict";
  const page = document.querySelector("[data-scan-url]");
  if (!page) return;
  const start = page.querySelector("[data-camera-start]");
  const video = page.querySelector("[data-camera-video]");
  const note = page.querySelector("[data-camera-note]");
  const token = document.querySelector("meta[name=csrf-token]").content;
  const FRAME_WIDTH = 960;
  const PAUSE_MS = 150; // between an answer and the next frame
  const FRAME_SHOWN_MS = 1200; // how long the frame around a code stays
  const grab = document.createElement("canvas");
  const overlay = document.createElement("canvas");
  overlay.className = "code-frame";
  overlay.setAttribute("aria-hidden", "true");
  let audio = null;
  let clearTimer = 0;

  if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    note.hidden = true;
    start.hidden = false;
  }

  function frameBlob() {
    const scale = Math.min(1, FRAME_WIDTH / video.videoWidth);
    grab.width = Math.round(video.videoWidth * scale);
    grab.height = Math.round(video.videoHeight * scale);
    grab.getContext("2d").drawImage(video, 0, 0, grab.width, grab.height);
    return new Promise((resolve) => grab.toBlob(resolve, "image/jpeg", 0.85));
  }

  function drawCodes(header) {
    let where = null;
    try { where = JSON.parse(header || "null"); } catch (e) { where = null; }
    if (!where || !where.corners || !where.corners.length || !where.size[0]) return;
    overlay.width = video.clientWidth;
    overlay.height = video.clientHeight;
    overlay.style.left = video.offsetLeft + "px";
    overlay.style.top = video.offsetTop + "px";
    // The video is letterboxed inside its box (object-fit: contain).
    const fit = Math.min(overlay.width / where.size[0], overlay.height / where.size[1]);
    const dx = (overlay.width - where.size[0] * fit) / 2;
    const dy = (overlay.height - where.size[1] * fit) / 2;
    const ctx = overlay.getContext("2d");
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    ctx.lineWidth = 4;
    ctx.strokeStyle = "#5fbf6a";
    where.corners.forEach(function (quad) {
      ctx.beginPath();
      quad.forEach(function (p, i) {
        const x = dx + p[0] * fit, y = dy + p[1] * fit;
        if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      });
      ctx.closePath();
      ctx.stroke();
    });
    window.clearTimeout(clearTimer);
    clearTimer = window.setTimeout(function () {
      ctx.clearRect(0, 0, overlay.width, overlay.height);
    }, FRAME_SHOWN_MS);
  }

  function signal() {
    if (navigator.vibrate) navigator.vibrate(80);
    if (!audio) return;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.15;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
  }

  async function sendFrame() {
    const body = new FormData();
    body.append("image", await frameBlob(), "frame.jpg");
    body.append("live", "1");
    body.append("created", page.dataset.created);
    const response = await fetch(page.dataset.scanUrl, {
      method: "POST", body: body, headers: { "X-CSRFToken": token, "HX-Request": "true" },
    });
    drawCodes(response.headers.get("X-Scan-Codes"));
    if (response.status === 200 || response.status === 409) { // 409: a stale page, said so
      const offers = document.getElementById("offers");
      if (!offers) return;
      offers.outerHTML = await response.text();
      const swapped = document.getElementById("offers");
      if (window.htmx && swapped) window.htmx.process(swapped);
      if (document.querySelector("#offers .outcome-ok, #offers .outcome-warn")) signal();
    }
  }

  async function loop() {
    if (video.readyState >= 2 && !document.hidden) {
      try { await sendFrame(); } catch (e) { /* a lost frame: the next one follows */ }
    }
    window.setTimeout(loop, PAUSE_MS);
  }

  start.addEventListener("click", async function () {
    try {
      const AudioContext = window.AudioContext || window.webkitAudioContext;
      if (AudioContext) audio = new AudioContext(); // allowed: this is the user's tap
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "environment", width: { ideal: 1280 }, height: { ideal: 720 } },
      });
      video.srcObject = stream;
      video.hidden = false;
      start.hidden = true;
      video.after(overlay);
      await video.play();
      loop();
    } catch (e) {
      note.hidden = false;
      note.textContent = note.dataset.unavailable + " (" + e.message + ")";
    }
  });
})();
