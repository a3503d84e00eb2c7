// Small progressive enhancements; every action also works without JavaScript.
(function () {
  "use strict";

  // Keep the tablet's screen on during a game, where the browser allows it.
  let lock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
    } catch (e) {
      lock = null; // not allowed (no secure context, battery saver): nothing to do
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);

  // The number pad types into its input.
  document.addEventListener("click", function (event) {
    const key = event.target.closest("[data-key]");
    if (!key) return;
    const pad = key.closest("[data-numpad]");
    const input = pad && pad.querySelector(".numpad-value");
    if (!input) return;
    const k = key.dataset.key;
    let value = input.value === "0" ? "" : input.value;
    if (k === "C") value = "";
    else if (k === "⌫") value = value.slice(0, -1);
    else if (value.length < 3) value += k;
    input.value = value === "" ? "0" : value;
  });
})();
