// The new-game form: the "First player" choices show the names as they are typed.
// Each <span data-name-of="input id" data-default="..."> follows its input.
document.addEventListener("input", (event) => {
  const input = event.target;
  if (!input.id) return;
  for (const label of document.querySelectorAll(`[data-name-of="${input.id}"]`)) {
    label.textContent = input.value.trim() || label.dataset.default;
  }
});

// A reloaded page may get the typed names back from the browser: show them at once.
document.addEventListener("DOMContentLoaded", () => {
  for (const label of document.querySelectorAll("[data-name-of]")) {
    const input = document.getElementById(label.dataset.nameOf);
    if (input) label.textContent = input.value.trim() || label.dataset.default;
  }
});
