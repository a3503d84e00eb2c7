// History and statistics: times in the viewer's own time zone, written in the page's
// language (<html lang>, the language chosen in the menu, not the browser's), and that
// zone's offset sent with the history's date filter. Without JavaScript the times stay in
// UTC, written by the server in the page's language.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const lang = document.documentElement.lang || undefined;
    const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    document.querySelectorAll("time[data-local]").forEach(function (node) {
      const moment = new Date(node.getAttribute("datetime"));
      if (!Number.isNaN(moment.getTime())) node.textContent = format.format(moment);
    });
    document.querySelectorAll("input[name=tz]").forEach(function (input) {
      input.value = String(new Date().getTimezoneOffset());
    });
  });
})();
