// Clues outside the grid (sandwich, x-sum, skyscraper, numbered room, lunchbox ...): the
// number in the margin beside its row or column, on the side it is read from. A lunchbox
// given by its cells writes its number in the first cell's corner.

import { CELL, el, rowCol } from "./svg.js";

export const OUTSIDE_KEYS = ["sandwiches", "x_sums", "skyscrapers", "numbered_rooms", "hidden_skyscrapers", "lunchboxes"];

export function hasOutsideClues(e) {
  return OUTSIDE_KEYS.some((key) => (e[key] || []).some((clue) => !clue.cells));
}

export function drawOutsideClues(e, size, kind, layer) {
  for (const key of OUTSIDE_KEYS) {
    for (const clue of e[key] || []) {
      const g = kind(key, layer, { class: `outside ${key.replace(/_/g, "-")}`, "data-value": String(clue.value) });
      let x, y;
      if (clue.cells) {
        const [r, c] = rowCol(clue.cells[0]);
        el("rect", { x: c * CELL + 2, y: r * CELL + 2, width: String(clue.value).length * 8 + 4, height: 15, class: "sum-bg" }, g);
        el("text", { x: c * CELL + 4, y: r * CELL + 14, class: "sum" }, g).textContent = clue.value;
        continue;
      }
      const at = (clue.side || "start") === "start" ? -0.5 : size + 0.5;
      if (clue.row !== undefined) [x, y] = [at * CELL, (clue.row - 0.5) * CELL];
      else [x, y] = [(clue.column - 0.5) * CELL, at * CELL];
      el("text", { x, y: y + 1, class: "clue" }, g).textContent = clue.value;
    }
  }
}
