// The turn clock on the table screen (templates/games/_clock.html): the player the game
// waits for sees their time tick. The server says how many seconds this turn had run
// when it made the page (not when it started: a tablet's own clock may be wrong), and the
// most one turn counts; this adds the time since the element came in (htmx swaps bring
// new ones) and writes m:ss, or h:mm:ss from an hour on, as the server does.
(function () {
  "use strict";

  const seen = new WeakMap(); // element -> performance.now() when first ticked

  function duration(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, "0");
    return h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
  }

  function tick() {
    const now = performance.now();
    for (const clock of document.querySelectorAll(".turn-clock[data-clock-now]")) {
      if (!seen.has(clock)) seen.set(clock, now);
      const cap = Number(clock.dataset.clockCap);
      const current = Math.min(Number(clock.dataset.clockNow) + (now - seen.get(clock)) / 1000, cap);
      const total = clock.querySelector(".clock-total");
      const running = clock.querySelector(".clock-now time");
      if (total) {
        const seconds = Number(total.dataset.clockBase) + current;
        total.textContent = duration(seconds);
        total.setAttribute("datetime", "PT" + Math.floor(seconds) + "S");
      }
      if (running) running.textContent = duration(current);
    }
  }

  tick();
  setInterval(tick, 1000);
})();
