// Each visible text in the open menus and dialogs (and the header): its colour against each colour
// behind it (a gradient's stops, or the first opaque background up the tree), opacity blended in.
// Returns the texts below WCAG AA (4.5:1, 3:1 for large text), one line each.
() => {
  const parse = (c) => { const m = c.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?/);
    return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const l = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * l(r) + 0.7152 * l(g) + 0.0722 * l(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const mix = (fg, bg, a) => fg.slice(0, 3).map((v, i) => v * a + bg[i] * (1 - a));
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const stops = (s.backgroundImage.match(/rgba?\([^)]*\)/g) || []).map(parse).filter((c) => c[3] > 0.5);
      if (stops.length) return stops;
      const bg = parse(s.backgroundColor);
      if (bg && bg[3] > 0.5) return [bg];
    }
    return [[255, 255, 255, 1]];
  };
  const out = [];
  const roots = document.querySelectorAll("details[open] > .menu, dialog[open], .top");
  for (const root of roots) {
    for (const el of root.querySelectorAll("*")) {
      const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
      if (!text || el.closest("[disabled], [aria-hidden=true]") || !el.getClientRects().length) continue;
      const s = getComputedStyle(el);
      if (s.visibility === "hidden") continue;
      let opacity = 1;
      for (let e = el; e; e = e.parentElement) opacity *= +getComputedStyle(e).opacity;
      const large = parseFloat(s.fontSize) >= 24 || (parseFloat(s.fontSize) >= 18.66 && +s.fontWeight >= 700);
      const fg = parse(s.color);
      const worst = Math.min(...behind(el).map((bg) => ratio(mix(fg, bg, fg[3] * opacity), bg)));
      if (worst < (large ? 3 : 4.5)) out.push(`${text.slice(0, 30)} (${el.tagName.toLowerCase()}${el.className ? "." + el.className : ""}): ${worst.toFixed(2)}`);
    }
  }
  return out;
}
