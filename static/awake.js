// Keeps the screen on during a game, and says in the top bar whether it does.
//
// navigator.wakeLock exists only on secure pages (HTTPS, localhost). Over plain HTTP on
// the LAN it falls back to what NoSleep.js (MIT, static/vendor/nosleep/LICENSE) does: a
// tiny silent video that loops, which phones and tablets keep the screen on for. A
// video may only start from a tap, so the first tap on the page starts it.
// Set up by <meta name="awake">: data-video, data-video-webm, and the words data-on and
// data-off of the indicator.
(function () {
  "use strict";

  const config = document.querySelector('meta[name="awake"]');
  if (!config) return;
  let sentinel = null; // the wake lock, while held
  let video = null; // the fallback, once made
  let indicator = null;

  function awake() {
    return Boolean((sentinel && !sentinel.released) || (video && !video.paused));
  }

  function show() {
    if (!indicator) return;
    const on = awake();
    indicator.classList.toggle("on", on);
    indicator.textContent = on ? config.dataset.on : config.dataset.off;
    indicator.title = indicator.textContent;
  }

  function makeVideo() {
    video = document.createElement("video");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.loop = true;
    video.className = "awake-video";
    for (const [key, type] of [["videoWebm", "video/webm"], ["video", "video/mp4"]]) {
      const source = document.createElement("source");
      source.src = config.dataset[key];
      source.type = type;
      video.appendChild(source);
    }
    ["playing", "pause"].forEach(function (name) { video.addEventListener(name, show); });
    // As NoSleep.js: the one-second WebM loops; the longer MP4 (Safari) jumps back instead.
    video.addEventListener("loadedmetadata", function () {
      if (video.duration > 1) {
        video.loop = false;
        video.addEventListener("timeupdate", function () {
          if (video.currentTime > 0.5) video.currentTime = Math.random();
        });
      }
    });
    // Browsers keep the screen on only for a video that is on the page and in view.
    document.body.appendChild(video);
  }

  async function keepAwake() {
    if (document.visibilityState !== "visible" || awake()) return show();
    if (window.isSecureContext && "wakeLock" in navigator) {
      try {
        sentinel = await navigator.wakeLock.request("screen");
        sentinel.addEventListener("release", show);
        return show();
      } catch (refused) {
        sentinel = null; // battery saver, or a policy: try the video instead
      }
    }
    if (!video) makeVideo();
    try {
      await video.play();
    } catch (refused) {
      // no tap yet (autoplay refused), or no codec: the indicator says so
    }
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const bar = document.querySelector(".topnav");
    if (bar) {
      indicator = document.createElement("button");
      indicator.type = "button";
      indicator.className = "awake-indicator";
      bar.appendChild(indicator);
    }
    show();
    keepAwake();
  });
  // The first tap anywhere, or one on the indicator, may start the video (a click is a
  // user activation on every browser; a touch's pointerdown is not).
  document.addEventListener("click", keepAwake);
  document.addEventListener("visibilitychange", keepAwake);
})();
