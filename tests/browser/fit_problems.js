// Run in the table and live pages by test_table_fits.py: what breaks the "one screen" rule, as a
// list of sentences; `needed` are the selectors that must be wholly on the screen. `win`: the
// window checked (a frame's, from its parent page: tests/browser/sweep.py), this one unless said.
(needed, win = window) => {
  const { document, innerWidth, innerHeight } = win;
  const getComputedStyle = (el) => win.getComputedStyle(el);
  const problems = [];
  const root = document.scrollingElement;
  if (root.scrollHeight > innerHeight) problems.push(`page scrolls: ${root.scrollHeight} > ${innerHeight}`);
  if (root.scrollWidth > innerWidth) problems.push(`page scrolls sideways: ${root.scrollWidth}`);
  const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
  // Every element but the inside of a closed <details> (a drawer, a VP ledger; its summary
  // is checked): that is not drawn (checkVisibility() says so), and asking for its box lays
  // the hidden part out on its own, five layouts a check that cost more than the rest of it.
  const closed = "details:not([open]) > :not(summary)";
  const skip = (el) => (el.matches(closed) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT, { acceptNode: skip });
  for (let el = walker.nextNode(); el; el = walker.nextNode()) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    // The cheap measures first (the layout is made once): most elements pass them, and
    // only the others have their visibility and style looked up (checked every step of
    // the golden games in three languages, tests/browser/sweep.py).
    const out = box.left < -0.5 || box.right > innerWidth + 0.5;
    const wider = el.clientWidth && el.scrollWidth > el.clientWidth + 1;
    // Skipped: what is not drawn (a closed drawer's inside), words for screen readers only.
    if ((!out && !wider) || !el.checkVisibility()) continue;
    if (out) problems.push(`${name(el)} sticks out: ${box.left}..${box.right}`);
    if (!wider) continue;
    const style = getComputedStyle(el);
    // A box that scrolls sideways on purpose (a phone's top bar) clips nothing.
    const scrolls = style.overflowX === "auto" || style.overflowX === "scroll";
    if (style.textOverflow !== "ellipsis" && !scrolls)
      problems.push(`${name(el)}'s content is ${el.scrollWidth - el.clientWidth} px wider than it`);
  }
  for (const selector of needed) {
    const el = document.querySelector(selector);
    if (!el) { problems.push(`${selector} is missing`); continue; }
    const box = el.getBoundingClientRect();
    if (box.top < -0.5 || box.left < -0.5 || box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5)
      problems.push(`${selector} is off screen: ${Math.round(box.top)}..${Math.round(box.bottom)}`);
    for (let up = el.parentElement; up; up = up.parentElement) {  // nor cut by a panel's scroll
      if (getComputedStyle(up).overflowY === "visible") continue;
      const frame = up.getBoundingClientRect();
      if (box.top < frame.top - 0.5 || box.bottom > frame.bottom + 0.5)
        problems.push(`${selector} is cut by ${name(up)}: ${Math.round(box.bottom - frame.bottom)} px hidden`);
    }
  }
  return problems;
}
