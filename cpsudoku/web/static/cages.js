// Cages as SudokuPad draws them: dashed lines inset from the cells' outer edges, meeting
// at the corners, with the clue (a sum, or another cage's number or sign) top-left.

import { CELL, el, rowCol } from "./svg.js";

// A cage: dashed lines inset from every outer cell edge, meeting at the corners.
export function drawCage(cage, g, label = cage.sum) {
  const inside = new Set(cage.cells.map((n) => rowCol(n).join(",")));
  const has = (r, c) => inside.has(`${r},${c}`);
  const d = 4, segments = [];
  for (const name of cage.cells) {
    const [r, c] = rowCol(name);
    const x = c * CELL, y = r * CELL, X = x + CELL, Y = y + CELL;
    // For each open side, its two ends: extended through a neighbour in the cage, inset at
    // a convex corner, reaching to the next cell's inset line at a concave one.
    const end = (along, diagonal) => (along ? (diagonal ? -d : 0) : d);
    if (!has(r - 1, c)) segments.push([x + end(has(r, c - 1), has(r - 1, c - 1)), y + d, X - end(has(r, c + 1), has(r - 1, c + 1)), y + d]);
    if (!has(r + 1, c)) segments.push([x + end(has(r, c - 1), has(r + 1, c - 1)), Y - d, X - end(has(r, c + 1), has(r + 1, c + 1)), Y - d]);
    if (!has(r, c - 1)) segments.push([x + d, y + end(has(r - 1, c), has(r - 1, c - 1)), x + d, Y - end(has(r + 1, c), has(r + 1, c - 1))]);
    if (!has(r, c + 1)) segments.push([X - d, y + end(has(r - 1, c), has(r - 1, c + 1)), X - d, Y - end(has(r + 1, c), has(r + 1, c + 1))]);
  }
  for (const [x1, y1, x2, y2] of segments) el("line", { x1, y1, x2, y2 }, g);
  if (label !== undefined && label !== null) {
    // The sum (or a cage's other clue) sits in the top-left cell of the cage.
    const [r, c] = cage.cells.map(rowCol).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
    cornerLabel([r, c], label, g);
  }
}

// A clue in a cell's top-left corner, on paper so that a line under it does not blur it.
export function cornerLabel([r, c], text, g) {
  el("rect", { x: c * CELL + 2, y: r * CELL + 2, width: String(text).length * 8 + 4, height: 15, class: "sum-bg" }, g);
  el("text", { x: c * CELL + 4, y: r * CELL + 14, class: "sum" }, g).textContent = text;
}
