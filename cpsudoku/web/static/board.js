// The board: one SVG drawn from /api/parse's description, with the conventions of
// f-puzzles and SudokuPad (cages dashed inside the cell borders with the sum top-left,
// thermometer bulbs, arrow circles, kropki dots and XV letters on edges, little-killer
// clues outside the grid). It is an ARIA grid: rows of <g role="gridcell" data-cell="r1c1">
// whose labels say what each cell holds; state shows as classes. Digits and marks are
// drawn in a layer of their own, <g data-for="r1c1">.

import { hasOutsideClues } from "./outside.js";
import { drawVariants } from "./variants.js";
import { CELL, el, rowCol } from "./svg.js";

export { CELL, rowCol };

const MIN_CELL_PX = 24; // the smallest touch target WCAG 2.5.8 allows

export function symbol(value) {
  return value <= 9 ? String(value) : String.fromCharCode(55 + value); // 10 -> A
}

export function cellName(index, size) {
  return `r${Math.floor(index / size) + 1}c${(index % size) + 1}`;
}

// Where digit d sits in a cell as a candidate: a little grid, 3x3 for 9x9 (SudokuPad's and
// HoDoKu's layout), so seven candidates never overflow and each digit has its place.
function candidateXY(n, d) {
  const cols = Math.ceil(Math.sqrt(n)), rows = Math.ceil(n / cols);
  const k = d - 1;
  return [2 + ((k % cols) + 0.5) * ((CELL - 4) / cols), 2 + (Math.floor(k / cols) + 0.5) * ((CELL - 4) / rows)];
}

// Corner marks: the corners first, then the edges' middles; a cell holding a cage sum
// gives up its top-left corner, which the sum uses.
const CORNERS = [[9, 10], [CELL - 9, 10], [9, CELL - 8], [CELL - 9, CELL - 8], [CELL / 2, 10],
  [CELL / 2, CELL - 8], [9, CELL / 2], [CELL - 9, CELL / 2], [CELL / 2, CELL / 2]];

export class Board {
  constructor(svg) {
    this.svg = svg;
  }

  draw(puzzle) {
    const n = puzzle.size;
    this.size = n;
    this.puzzle = puzzle;
    const side = n * CELL;
    const e = puzzle.elements || {};
    // Room outside the grid only for clues drawn there (little killers, sandwiches, ...).
    const margin = (e.little_killers || []).length || hasOutsideClues(e) ? CELL : 6;
    this.svg.replaceChildren();
    this.svg.setAttribute("viewBox", `${-margin} ${-margin} ${side + 2 * margin} ${side + 2 * margin}`);
    this.svg.setAttribute("aria-label", `Sudoku grid, ${n} by ${n}`);
    this.svg.setAttribute("aria-rowcount", String(n));
    this.svg.setAttribute("aria-colcount", String(n));
    // Each cell at least MIN_CELL_PX wide: a wider board scrolls (style.css).
    this.svg.style.minWidth = `${Math.ceil(((side + 2 * margin) / CELL) * MIN_CELL_PX)}px`;
    // Paper, then the cells' highlights, then the variant shapes (a highlight never hides a
    // line), then the cells themselves (transparent: what the pointer and a screen reader
    // meet), then digits, grid lines and cages, as SudokuPad layers them.
    const deco = (cls) => el("g", { class: cls, "aria-hidden": "true" }, this.svg);
    el("rect", { x: 0, y: 0, width: side, height: side, class: "paper" }, deco("paper-layer"));
    const tints = deco("tints");
    const under = deco("under");
    const cells = el("g", { class: "cells" }, this.svg);
    const digits = deco("digits");
    const over = deco("over");
    this.hintLayer = deco("hint-layer");
    // Cells whose top-left corner holds a cage's sum or a line's parameter.
    const labelled = [
      ...(e.cages || []).filter((cage) => cage.sum !== undefined)
        .map((cage) => cage.cells.map(rowCol).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0]),
      ...(puzzle.styled_lines || []).filter((line) => line.value !== null && line.value !== undefined)
        .map((line) => rowCol(line.cells[0])),
    ];
    this.sumCells = new Set(labelled.map(([r, c]) => r * n + c));
    this.cells = [];
    for (let r = 0; r < n; r++) {
      const row = el("g", { role: "row", "aria-rowindex": String(r + 1) }, cells);
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const g = el("g", {
          class: "cell", role: "gridcell", "data-cell": cellName(i, n), tabindex: "-1",
          "aria-colindex": String(c + 1), "aria-selected": "false",
          transform: `translate(${c * CELL},${r * CELL})`,
        }, row);
        el("rect", { width: CELL, height: CELL, class: "bg" }, g);
        const tint = el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "tint",
          "data-tint": cellName(i, n) }, tints);
        el("rect", { x: 2.5, y: 2.5, width: CELL - 5, height: CELL - 5, rx: 2, class: "ring" }, g);
        // A conflict shows as a shape too, not by colour alone.
        el("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.36, class: "clash" }, g);
        // What the cell shows is drawn in a layer of its own, hidden from assistive
        // technology: the cell's label says it all.
        const shown = el("g", { class: "cell-text", "data-for": cellName(i, n),
          transform: `translate(${c * CELL},${r * CELL})` }, digits);
        const value = el("text", { x: CELL / 2, y: CELL / 2 + 1, class: "value" }, shown);
        const corner = el("g", { class: "corner" }, shown);
        const middle = el("text", { x: CELL / 2, y: CELL / 2 + 1, class: "centre" }, shown);
        const auto = el("g", { class: "auto" }, shown);
        g.dataset.given = puzzle.givens[i] ? "true" : "false";
        if (puzzle.givens[i]) {
          g.classList.add("given");
          shown.classList.add("given");
          value.textContent = symbol(puzzle.givens[i]);
        }
        this.cells.push({ g, tint, value, corner, middle, auto, name: cellName(i, n) });
      }
    }
    drawVariants(puzzle, under, over);
    drawGridLines(puzzle, over);
  }

  element(i) {
    return this.cells[i].g;
  }

  // values, corner and centre marks per cell; classes: {name: Set of cell indices};
  // `cursor` is the one cell in the tab order (a roving tabindex).
  paint(state, classes, cursor) {
    const n = this.size;
    for (let i = 0; i < this.cells.length; i++) {
      const { g, tint, value, corner, middle, auto, name } = this.cells[i];
      const v = state.values[i];
      const given = g.dataset.given === "true";
      if (!given) value.textContent = v ? symbol(v) : "";
      g.dataset.value = v ? String(v) : "";
      const marks = v ? [] : state.cornerOf(i);
      corner.replaceChildren();
      const spots = this.sumCells.has(i) ? CORNERS.slice(1) : CORNERS;
      marks.forEach((m, k) => {
        const [x, y] = spots[k % spots.length];
        el("text", { x, y, class: "mark" }, corner).textContent = symbol(m);
      });
      const centreMarks = v ? [] : state.centreOf(i);
      middle.textContent = centreMarks.map(symbol).join("");
      // Many centre marks are squeezed to the cell's width rather than spill over.
      if (centreMarks.length > 4) {
        middle.setAttribute("textLength", String(CELL - 8));
        middle.setAttribute("lengthAdjust", "spacingAndGlyphs");
      } else {
        middle.removeAttribute("textLength");
      }
      const autos = state.autoOf(i);
      auto.replaceChildren();
      for (const d of autos) {
        const [x, y] = candidateXY(n, d);
        el("text", { x, y: y + 1, class: "cand" }, auto).textContent = symbol(d);
      }
      for (const [cls, set] of Object.entries(classes)) {
        g.classList.toggle(cls, set.has(i));
        tint.classList.toggle(cls, set.has(i));
      }
      const selected = classes.selected.has(i);
      g.setAttribute("aria-selected", String(selected));
      g.setAttribute("tabindex", i === cursor ? "0" : "-1");
      const words = [name, v ? symbol(v) : "empty"];
      if (given) words.push("given");
      if (marks.length) words.push(`corner marks ${marks.map(symbol).join(" ")}`);
      if (centreMarks.length) words.push(`centre marks ${centreMarks.map(symbol).join(" ")}`);
      if (autos.length) words.push(`candidates ${autos.map(symbol).join(" ")}`);
      if (classes.conflict.has(i)) words.push("conflict");
      if (classes.wrong.has(i)) words.push("wrong");
      g.setAttribute("aria-label", words.join(", "));
    }
  }

  // A hint drawn over the board: its candidates (kept green, removed red, placed
  // circled), and a chain's links as arrows from candidate to candidate.
  drawHint({ cells = [], digits = [], placements = [], eliminations = [], links = [] } = {}) {
    const layer = this.hintLayer;
    if (!layer) return;
    layer.replaceChildren();
    const n = this.size;
    const at = (i, d) => {
      const [x, y] = candidateXY(n, d);
      return [(i % n) * CELL + x, Math.floor(i / n) * CELL + y];
    };
    const drawn = new Set();
    const cand = (i, d, cls) => {
      if (drawn.has(`${i}:${d}`)) return;
      drawn.add(`${i}:${d}`);
      const [x, y] = at(i, d);
      const g = el("g", { class: `hint-cand ${cls}` }, layer);
      el("circle", { cx: x, cy: y, r: CELL / 7 }, g);
      el("text", { x, y: y + 1 }, g).textContent = symbol(d);
    };
    for (const [[a, da], [b, db]] of links) {
      const [x1, y1] = at(a, da), [x2, y2] = at(b, db);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const r = CELL / 7, ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      const [sx, sy, ex, ey] = [x1 + ux * r, y1 + uy * r, x2 - ux * r, y2 - uy * r];
      el("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "link" }, layer);
      const h = 6, angle = Math.atan2(ey - sy, ex - sx);
      const head = [[ex - h * Math.cos(angle - 0.5), ey - h * Math.sin(angle - 0.5)], [ex, ey],
        [ex - h * Math.cos(angle + 0.5), ey - h * Math.sin(angle + 0.5)]];
      el("polyline", { points: head.map((p) => p.join(",")).join(" "), class: "link-head" }, layer);
    }
    for (const [i, d] of eliminations) cand(i, d, "remove");
    for (const [i, d] of placements) cand(i, d, "place");
    for (const link of links) for (const [i, d, on] of link) cand(i, d, on ? "on" : "off");
    for (const i of cells) for (const d of digits) cand(i, d, "keep");
  }
}

function drawGridLines(puzzle, layer) {
  const n = puzzle.size, side = n * CELL, region = puzzle.regions;
  const thin = el("g", { class: "thin" }, layer), thick = el("g", { class: "thick" }, layer);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      // A border between different regions is thick: boxes and jigsaw shapes alike.
      if (c + 1 < n) {
        const parent = region[i] !== region[i + 1] ? thick : thin;
        el("line", { x1: (c + 1) * CELL, y1: r * CELL, x2: (c + 1) * CELL, y2: (r + 1) * CELL }, parent);
      }
      if (r + 1 < n) {
        const parent = region[i] !== region[i + n] ? thick : thin;
        el("line", { x1: c * CELL, y1: (r + 1) * CELL, x2: (c + 1) * CELL, y2: (r + 1) * CELL }, parent);
      }
    }
  }
  el("rect", { x: 0, y: 0, width: side, height: side, class: "frame" }, layer);
}
