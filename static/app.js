// Small progressive enhancements; every action also works without JavaScript.
(function () {
  "use strict";

  // Keeping the screen on during a game: static/awake.js (game screens only).

  // The page gives the scripts their words in its language (data-msg-* on <body>).
  function words(name) {
    return document.body.dataset[name] || "";
  }

  // A refused htmx request that is not swapped in place (a 400 for an expired page, a
  // 404 for a deleted game, a lost connection) is said out loud instead of doing nothing.
  function toast(text) {
    let box = document.getElementById("toast");
    if (!box) {
      box = document.createElement("div");
      box.id = "toast";
      box.setAttribute("role", "alert");
      document.body.appendChild(box);
    }
    box.textContent = "";
    delete box.dataset.connection;
    const message = document.createElement("p");
    message.textContent = text;
    const reload = document.createElement("button");
    reload.type = "button";
    reload.className = "button primary";
    reload.textContent = words("msgReload");
    reload.addEventListener("click", function () { window.location.reload(); });
    box.append(message, reload);
  }
  document.addEventListener("htmx:responseError", function (event) {
    const holder = document.createElement("div");
    holder.innerHTML = event.detail.xhr.responseText || "";
    toast(holder.textContent.trim() || words("msgRefused"));
  });
  document.addEventListener("htmx:sendError", function () {
    toast(words("msgUnreachable"));
    // a following screen (static/follow.js) takes it away once the server answers again
    document.getElementById("toast").dataset.connection = "";
  });

  // Choosing a photo sends it at once; the Print button prints the sticker sheet.
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-autosubmit]")) event.target.form.requestSubmit();
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });

  // Rules panels open in a dialog over the game (the game page stays as it is).
  document.addEventListener("htmx:afterSettle", function (event) {
    const dialog = document.getElementById("rules-dialog");
    const path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (dialog && !dialog.open && /\/panel(\?|$)/.test(path)) dialog.showModal();
  });

  // A drawer (log, Tech tiles, Rivals...) closes with its Close button, and an open one
  // stays open when htmx swaps in the game's next version (it is drawn closed).
  document.addEventListener("click", function (event) {
    const close = event.target.closest("[data-close-drawer]");
    if (close) close.closest("details").open = false;
  });
  let openDrawer = null;
  document.addEventListener("htmx:beforeSwap", function () {
    const drawer = document.querySelector("details.drawer[open]");
    openDrawer = drawer ? drawer.id : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    const drawer = openDrawer && document.getElementById(openDrawer);
    if (drawer) drawer.open = true;
    openDrawer = null;
  });

  // The answer to a tap of the table screen swaps in only the regions that changed
  // (companion/web/games.py), always the banner, which carries the game's version: #game
  // shows it (static/follow.js compares it), and every form of the game posts it (the
  // forms of the regions left in place were drawn at an earlier version).
  function bannerVersion() {
    const banner = document.getElementById("banner");
    return banner ? banner.dataset.version : undefined;
  }
  document.addEventListener("htmx:afterSwap", function () {
    const game = document.getElementById("game");
    const version = bannerVersion();
    if (game && version !== undefined) game.dataset.version = version;
  });
  document.addEventListener("htmx:configRequest", function (event) {
    const version = bannerVersion();
    const form = event.detail.elt;
    if (version === undefined || !form.closest || !form.closest("#game")) return;
    if (event.detail.parameters.has("version")) event.detail.parameters.version = version;
  });

  // The "what now" column scrolls on its own when it holds more than fits (two Rivals'
  // cards, what else happened): it fades at its foot (static/app.css).
  function markMoreBelow() {
    const column = document.querySelector("#game > .actions");
    if (!column) return;
    const more = column.scrollHeight - column.scrollTop - column.clientHeight > 4;
    column.classList.toggle("more-below", more);
  }
  document.addEventListener("DOMContentLoaded", markMoreBelow);
  document.addEventListener("htmx:afterSettle", markMoreBelow);
  window.addEventListener("resize", markMoreBelow);
  document.addEventListener("scroll", markMoreBelow, true); // a panel's scroll doesn't bubble

  // The number pad types into its input. The value it opens with (0, or the strength
  // already entered this round) is replaced by the first digit, as on a calculator:
  // appended to, a shown 7 and a tapped 9 made 79.
  const typed = new WeakSet(); // pads' inputs typed into since they were shown
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(".numpad-value")) typed.add(event.target);
  });
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
    else if (!typed.has(input)) value = k;
    else if (value.length < 3) value += k;
    typed.add(input);
    input.value = value === "" ? "0" : value;
  });
})();
