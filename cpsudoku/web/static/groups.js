// Clues on groups of cells, as SudokuPad and the Interactive Sudoku Solver draw them:
// clones shaded alike, counting circles, quadruples (a circle on the corner the four cells
// share, its digits inside), given candidates (small digits at a cell's foot), rellik,
// equality, contain and equal-sum groups as cages with their clue, indexing cells tinted,
// chaos construction's arrow and count cells marked, distinct counts as a cage round the
// counted cells with the control cell circled (its digit is the count).
// `kind(key, layer, attrs)` makes each element's <g data-kind>.

import { drawCage } from "./cages.js";
import { CELL, centre, el, rowCol } from "./svg.js";

const letter = (k) => String.fromCharCode(65 + (k % 26)); // 0 -> A
const digits = (values) => values.map((v) => (v <= 9 ? String(v) : String.fromCharCode(55 + v))).join("");

export function drawCellGroups(e, kind, under, over) {
  // A set of clones shares a letter, written in the corner of each of its copies.
  // Same-value sets are drawn as clones: their digits match, in any order.
  const cloned = [...(e.clones || []).map((c) => ["clones", c]), ...(e.same_values || []).map((c) => ["same_values", c])];
  cloned.forEach(([key, copies], k) => {
    const g = kind(key, under, { class: "clone", "data-set": letter(k) });
    for (const copy of copies) {
      for (const name of copy) {
        const [r, c] = rowCol(name);
        el("rect", { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2 }, g);
      }
      const [r, c] = rowCol(copy[0]);
      el("text", { x: (c + 1) * CELL - 5, y: (r + 1) * CELL - 6, class: "clone-letter" }, g).textContent = letter(k);
    }
  });
  (e.indexing || []).forEach((item) => {
    const g = kind("indexing", under, { class: "indexing", "data-index": item.kind });
    for (const name of item.cells) {
      const [r, c] = rowCol(name);
      el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL }, g);
    }
  });
  for (const circles of e.counting_circles || []) {
    const g = kind("counting_circles", under, { class: "counting-circle" });
    for (const name of circles) {
      const [x, y] = centre(rowCol(name));
      el("circle", { cx: x, cy: y, r: CELL * 0.42 }, g);
    }
  }
  const caged = [["rellik_cages", (c) => c.sum], ["equality_cages", () => "="],
    ["contain_at_least", (c) => `${digits(c.values)}+`], ["contain_exact", (c) => `=${digits(c.values)}`],
    ["look_and_say", (c) => c.clue]];
  for (const [key, label] of caged) {
    for (const item of e[key] || []) {
      const cage = Array.isArray(item) ? { cells: item } : item;
      drawCage(cage, kind(key, over, { class: `cage ${key.replace(/_/g, "-")}` }), label(cage));
    }
  }
  // The groups of one equal-sum set are cages labelled alike: =A, =B, ...
  (e.equal_sums || []).forEach((groups, k) => {
    const g = kind("equal_sums", over, { class: "cage equal-sums", "data-set": letter(k) });
    for (const cells of groups) drawCage({ cells }, g, `=${letter(k)}`);
  });
  for (const quad of e.quadruples || []) drawQuadruple(quad, kind("quadruples", over, { class: "quadruple" }));
  // Chaos construction's clues: an arrow cell points four ways along its region's runs,
  // a count cell has a dotted square for the block of cells around it.
  for (const arrow of e.chaos_arrows || []) {
    const [r, c] = rowCol(arrow.cell);
    const g = kind("chaos_arrows", under, { class: "chaos-arrow", "data-cell-of": arrow.cell });
    const [x, y] = centre([r, c]), a = CELL * 0.44, b = CELL * 0.3;
    el("path", { d: `M${x - b} ${y}H${x - a}M${x + b} ${y}H${x + a}M${x} ${y - b}V${y - a}M${x} ${y + b}V${y + a}` }, g);
  }
  for (const count of e.chaos_counts || []) {
    const [r, c] = rowCol(count.cell);
    const g = kind("chaos_counts", under, { class: "chaos-count", "data-cell-of": count.cell });
    el("rect", { x: c * CELL + 3, y: r * CELL + 3, width: CELL - 6, height: CELL - 6 }, g);
  }
  // Same-region groups (chaos): each a cage outline, the cells of one group lettered alike.
  (e.same_regions || []).forEach((cells, k) => {
    drawCage({ cells }, kind("same_regions", over, { class: "cage same-regions", "data-set": letter(k) }),
      `≡${letter(k)}`);
  });
  for (const key of ["distinct_counts", "distinct_region_counts"]) {
    for (const count of e[key] || []) {
      const g = kind(key, over, { class: `cage ${key.replace(/_/g, "-")}`, "data-cell-of": count.cell });
      drawCage({ cells: count.cells }, g, null);
      const [x, y] = centre(rowCol(count.cell));
      el("circle", { cx: x, cy: y, r: CELL * 0.42, class: "control" }, g);
    }
  }
  for (const given of e.given_candidates || []) {
    const [r, c] = rowCol(given.cell);
    const g = kind("given_candidates", over, { class: "given-candidates", "data-cell-of": given.cell });
    el("text", { x: c * CELL + CELL / 2, y: (r + 1) * CELL - 5 }, g).textContent = digits(given.values);
  }
}

// A circle on the corner its four cells share, its digits two by two inside.
function drawQuadruple(quad, g) {
  const cells = quad.cells.map(rowCol);
  const x = Math.max(...cells.map(([, c]) => c)) * CELL, y = Math.max(...cells.map(([r]) => r)) * CELL;
  el("circle", { cx: x, cy: y, r: CELL * 0.27 }, g);
  const text = quad.values.map((v) => digits([v]));
  const rows = [text.slice(0, 2).join(" "), text.slice(2).join(" ")].filter(Boolean);
  rows.forEach((row, k) => {
    const dy = rows.length === 1 ? 0 : (k === 0 ? -5 : 5);
    el("text", { x, y: y + dy + 0.5 }, g).textContent = row;
  });
  g.dataset.values = text.join("");
}
