// Run in the table and live pages by test_score_words.py: every word of the score's headers
// and houses' names, and of the turn's card-effect buttons, on one line
// (Range.getClientRects: one line box, or one column when the headers stand upright), and
// when `whole`, no Chinese or Japanese name cut by its ellipsis. A word: a run of katakana,
// or of kanji, hanzi and kana up to a separator (・ ·), a space, katakana, or up to and with
// the particle 的 ("左手边的|对手"); or a run of other letters between spaces. Returns the
// words seen and the problems, as sentences.
(whole) => {
  const katakana = "\u30a0-\u30fa\u30fc-\u30ff\uff66-\uff9f";
  const hanKana = "\u3005\u3006\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  const han = `(?:(?!的)[${hanKana}])`;
  const other = `[^\\s\u30fb\u00b7\uff65${katakana}${hanKana}]`;
  const word = new RegExp(`[${katakana}]+|${han}*的|${han}+|${other}+`, "gu");
  const cjk = new RegExp(`[${katakana}${hanKana}]`, "u");
  const problems = [];
  const seen = [];
  const score = document.querySelector("#scoreboard table.score");
  const heads = score.querySelectorAll(":scope > thead > tr > th, :scope > tbody > tr > th.house .chip");
  const buttons = document.querySelectorAll("#game .turn .quick:not(.ix-icons) button");
  for (const box of [...heads, ...buttons]) {
    if (!box.checkVisibility()) continue;
    const vertical = getComputedStyle(box).writingMode.startsWith("vertical");
    const nodes = [];
    let text = "";
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push([node, text.length]);
      text += node.data;
    }
    const at = (i) => {  // the text node and offset of the box's i-th character
      let k = nodes.length - 1;
      while (nodes[k][1] > i) k--;
      return [nodes[k][0], i - nodes[k][1]];
    };
    for (const found of text.matchAll(word)) {
      const range = document.createRange();
      range.setStart(...at(found.index));
      const [last, offset] = at(found.index + found[0].length - 1);
      range.setEnd(last, offset + 1);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      const lines = new Set(rects.map((r) => Math.round(vertical ? r.left : r.top)));
      seen.push(found[0]);
      if (lines.size > 1) problems.push(`"${found[0]}" of "${text.trim()}" is on ${lines.size} lines`);
    }
    if (whole && box.matches(".chip") && cjk.test(text) && box.scrollWidth > box.clientWidth)
      problems.push(`the name "${text.trim()}" is cut: ${box.scrollWidth} > ${box.clientWidth} px`);
  }
  return { problems, seen, buttons: buttons.length };
}
