// Either/or groups (at least one alternative of each holds), one <g data-kind="either"> each:
// a given alternative's digit with a question mark in its cell's top-right corner, the cells
// of any other alternative outlined with dots, and the alternatives in words as a tooltip.

import { CELL, el, rowCol } from "./svg.js";

const CELL_NAME = /^r\d+c\d+$/i;

// Every cell an alternative's elements name (as values, or as keys: a nested either's givens).
function cellsIn(value, out = new Set()) {
  if (typeof value === "string") {
    if (CELL_NAME.test(value)) out.add(value.toLowerCase());
  } else if (Array.isArray(value)) {
    for (const v of value) cellsIn(v, out);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      cellsIn(k, out);
      cellsIn(v, out);
    }
  }
  return out;
}

function words(alternative) {
  const parts = Object.entries(alternative.givens || {}).map(([cell, v]) => `${cell}=${v}`);
  for (const key of Object.keys(alternative)) if (key !== "givens") parts.push(key.replace(/_/g, " "));
  return parts.join(" and ");
}

export function drawEither(groups, kind, over) {
  for (const alternatives of groups || []) {
    const g = kind("either", over, { class: "either" });
    const outlined = new Set();
    for (const alternative of alternatives) {
      for (const [name, value] of Object.entries(alternative.givens || {})) {
        const [r, c] = rowCol(name);
        el("text", { x: (c + 1) * CELL - 4, y: r * CELL + 12, class: "either-given" }, g).textContent = `${value}?`;
      }
      const { givens, ...elements } = alternative;
      for (const name of cellsIn(elements)) {
        if (outlined.has(name)) continue;
        outlined.add(name);
        const [r, c] = rowCol(name);
        el("rect", { x: c * CELL + 3, y: r * CELL + 3, width: CELL - 6, height: CELL - 6, class: "either-cell" }, g);
      }
    }
    el("title", {}, g).textContent = `either ${alternatives.map(words).join(" or ")}`;
  }
}
