// A screen that follows a game: the live view on a TV or phone, the table screen on a
// second tablet. It asks the server about once a second whether the game has changed
// (an empty answer: no), and when it has, brings the new screen in with htmx.
//
// Set up by <meta name="follow"> in the page's head:
//   data-poll    URL to ask, with ?v=<the version shown>; an empty answer means unchanged
//   data-get     (the table) URL whose htmx answer replaces data-target once it changed;
//                without it (the live view), the poll's answer itself is the new screen
//   data-target  the element shown, which carries data-version
//   data-offline, data-gone  the words shown while the server can't be reached, or once
//                the game is deleted
// When the server can't be reached it keeps asking, waiting longer each time (up to 5 s),
// and clears its message by itself as soon as the server answers again.
(function () {
  "use strict";

  const config = document.querySelector('meta[name="follow"]');
  if (!config || !window.fetch) return;
  const every = Number(config.dataset.every) || 1000;
  const slowest = 5000;
  let failures = 0;

  function shown() {
    return document.querySelector(config.dataset.target);
  }

  // Never swap a screen a player is using: a number pad typed into, a field with the
  // focus, an open dialog, or a tap of this screen still on its way.
  function busy() {
    const active = document.activeElement;
    if (active && active.matches("input, select, textarea") && active.type !== "hidden") return true;
    for (const input of document.querySelectorAll(".numpad-value")) {
      if (input.value !== input.defaultValue) return true;
    }
    return Boolean(document.querySelector("dialog[open], .htmx-request"));
  }

  function status(text) {
    let note = document.getElementById("follow-status");
    if (!text) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = "follow-status";
      note.setAttribute("role", "status");
      document.body.appendChild(note);
    }
    note.textContent = text;
  }

  function reachable() {
    failures = 0;
    status("");
    // app.js's "can't be reached" message, left by a tap or a swap that failed meanwhile
    const toast = document.querySelector("#toast[data-connection]");
    if (toast) toast.remove();
  }

  function follow(answer, asked) {
    if (!answer || busy()) return; // unchanged, or wait until the player is done
    // A tap of this screen may have brought a newer screen in while the poll was on its
    // way: compare with what is shown now, not with the element the poll was asked for
    // (swapping again would wipe that tap's answer, such as Undo's list of changes).
    const target = shown() || asked;
    if (config.dataset.get) {
      if (answer.trim() === target.dataset.version) return; // this screen's own tap
      window.htmx.ajax("GET", config.dataset.get, { target: config.dataset.target, swap: "outerHTML" });
    } else {
      window.htmx.swap(target, answer, { swapStyle: "outerHTML" });
    }
  }

  async function ask() {
    const target = shown();
    if (!target) return every;
    const url = new URL(config.dataset.poll, window.location.href);
    url.searchParams.set("v", target.dataset.version || "");
    let response;
    try {
      response = await fetch(url, { cache: "no-store", headers: { "HX-Request": "true" } });
    } catch (error) {
      response = null; // no network, or the server is down
    }
    if (response && response.status === 404) {
      status(config.dataset.gone);
      return null;
    }
    if (!response || !response.ok) {
      failures += 1;
      status(config.dataset.offline);
      return Math.min(every * 2 ** failures, slowest);
    }
    let answer;
    try {
      answer = await response.text();
    } catch (error) {
      return every; // the connection dropped mid-answer: ask again
    }
    reachable();
    follow(answer, target);
    return every;
  }

  async function loop() {
    const wait = await ask();
    if (wait !== null) window.setTimeout(loop, wait);
  }
  window.setTimeout(loop, every);
})();
