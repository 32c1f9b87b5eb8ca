// Clues outside the grid (sandwich, x-sum, skyscraper, numbered room, lunchbox, full rank
// ...): the number in the margin beside its row or column, on the side it is read from
// (a full-rank clue: the rank of the number read from there). A lunchbox
// given by its cells writes its number in the first cell's corner.

import { cornerLabel } from "./cages.js";
import { CELL, el, rowCol } from "./svg.js";

export const OUTSIDE_KEYS = ["sandwiches", "x_sums", "skyscrapers", "numbered_rooms", "hidden_skyscrapers", "lunchboxes",
  "full_ranks"];

export function hasOutsideClues(e) {
  return OUTSIDE_KEYS.some((key) => (e[key] || []).some((clue) => !clue.cells));
}

export function drawOutsideClues(e, size, kind, layer) {
  for (const key of OUTSIDE_KEYS) {
    for (const clue of e[key] || []) {
      const g = kind(key, layer, { class: `outside ${key.replace(/_/g, "-")}`, "data-value": String(clue.value) });
      let x, y;
      if (clue.cells) {
        cornerLabel(rowCol(clue.cells[0]), clue.value, g);
        continue;
      }
      const at = (clue.side || "start") === "start" ? -0.5 : size + 0.5;
      if (clue.row !== undefined) [x, y] = [at * CELL, (clue.row - 0.5) * CELL];
      else [x, y] = [(clue.column - 0.5) * CELL, at * CELL];
      el("text", { x, y: y + 1, class: "clue" }, g).textContent = clue.value;
    }
  }
}
