// Run in the table page by test_multiplayer_games.py: every control of the question the
// table answers now (the prompt's buttons, fields and number-pad keys; on a player's turn
// their buttons and the board's spaces to tap; at the end the tie-break and Corner the
// Market entries), with Undo and Redo, must be inside the viewport and be the element
// at its own centre: nothing covers it (a "More below" button, a drawer, a panel). A
// list of sentences, one per problem, and how many controls were checked. On a phone
// (`phone`) the board scrolls inside the game's column (a phone shows a column, not the
// board's three): the question's controls, Undo, Redo and a player's Reveal turn (before
// the Rivals' cards there) must be on the first screen, the board's spaces are scrolled to.
// `win`: the window checked (a frame's, from its parent page: tests/browser/sweep.py), this
// one unless said.
(phone, win = window) => {
  const { document, innerWidth, innerHeight } = win;
  const selectors = [
    ".banner button",
    "#prompt button", "#prompt input:not([type=hidden])", "#prompt select",
    "#round-end button", "#board-changes button", "#end button",
    "#end-entry a.button", "#end-entry button", "#end-entry input:not([type=hidden])",
    ...(phone ? ["#game .turn > form:first-child button"]
      : ["#game .turn button", "#game .turn summary", "#game button.space-button"]),
  ];
  const problems = [];
  const controls = [...document.querySelectorAll(selectors.join(", "))];
  const name = (el) => {
    const words = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ");
    const where = el.closest("[id]");
    return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${words.slice(0, 40)}" in #${where ? where.id : ""}`;
  };
  for (const el of controls) {
    // Inside a closed <details> (The Voice's space, a VP ledger): not a control yet.
    if (!el.checkVisibility()) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) { problems.push(`${name(el)} is not drawn`); continue; }
    if (box.top < -0.5 || box.left < -0.5 || box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5) {
      problems.push(`${name(el)} is outside the viewport: ${Math.round(box.left)},${Math.round(box.top)}..${Math.round(box.right)},${Math.round(box.bottom)}`);
      continue;
    }
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      problems.push(`${name(el)} is covered at its centre by ${hit ? name(hit) + "." + [...hit.classList].join(".") : "nothing"}`);
    }
  }
  const root = document.scrollingElement;
  if (root.scrollHeight > innerHeight) problems.push(`page scrolls: ${root.scrollHeight} > ${innerHeight}`);
  if (root.scrollWidth > innerWidth) problems.push(`page scrolls sideways: ${root.scrollWidth} > ${innerWidth}`);
  return { problems, count: controls.length };
}
