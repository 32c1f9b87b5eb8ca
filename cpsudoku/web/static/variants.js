// The variant elements a puzzle is drawn with, in the conventions of f-puzzles and
// SudokuPad. Each shape is a <g data-kind="..."> named by its key in the puzzle file
// (cages, thermometers, whispers, ...), so that a player's tools and the tests find it.

import { drawCage } from "./cages.js";
import { drawEither } from "./either.js";
import { drawCellGroups } from "./groups.js";
import { drawCustomLine, drawStyledLine } from "./lines.js";
import { drawOutsideClues } from "./outside.js";
import { CELL, centre, el, points, polyline, rowCol } from "./svg.js";

export function drawVariants(puzzle, under, over) {
  const e = puzzle.elements || {};
  const kind = (key, layer, attrs = {}) => el("g", { "data-kind": key, ...attrs }, layer);
  for (const group of puzzle.shaded || []) shade(group, kind("window", under, { class: "window" }));
  for (const region of e.extra_regions || []) shade(region, kind("extra_regions", under, { class: "extra-region" }));
  for (const line of puzzle.lines || []) {
    // A diagonal runs from the grid's corner to the opposite corner: its end cells'
    // centres pushed half a cell outwards, to their outer corners.
    const [a, b] = [centre(rowCol(line[0])), centre(rowCol(line[line.length - 1]))];
    const [dx, dy] = [Math.sign(b[0] - a[0]) * CELL / 2, Math.sign(b[1] - a[1]) * CELL / 2];
    el("line", { x1: a[0] - dx, y1: a[1] - dy, x2: b[0] + dx, y2: b[1] + dy, class: "diagonal" },
      kind("diagonal", under));
  }
  for (const name of e.odd || []) {
    const [x, y] = centre(rowCol(name));
    el("circle", { cx: x, cy: y, r: CELL * 0.38, class: "odd" }, kind("odd", under));
  }
  for (const name of e.even || []) {
    const [x, y] = centre(rowCol(name));
    el("rect", { x: x - CELL * 0.36, y: y - CELL * 0.36, width: CELL * 0.72, height: CELL * 0.72, class: "even" },
      kind("even", under));
  }
  // Lines under the thermometers and arrows that may cross them, as SudokuPad layers them.
  for (const line of puzzle.styled_lines || []) drawStyledLine(line, kind(line.kind, under, { class: "styled-line" }));
  for (const thermo of e.thermometers || []) {
    const g = kind("thermometers", under, { class: "thermometer" });
    const [x, y] = centre(rowCol(thermo[0]));
    // An outline under a light fill: the shape stands out, the digits on it stay legible.
    el("circle", { cx: x, cy: y, r: CELL * 0.38, class: "edge" }, g);
    el("polyline", { points: points(thermo), class: "edge" }, g);
    el("circle", { cx: x, cy: y, r: CELL * 0.34, class: "fill" }, g);
    el("polyline", { points: points(thermo), class: "fill" }, g);
  }
  for (const arrow of e.arrows || []) drawArrow(arrow, kind("arrows", under, { class: "arrow" }));
  (e.cages || []).forEach((cage, k) => drawCage(cage, kind("cages", over, { class: "cage", "data-cage": String(k + 1) })));
  for (const clue of e.little_killers || []) drawLittleKiller(clue, kind("little_killers", over, { class: "little-killer" }));
  for (const key of ["kropki", "xv"]) {
    for (const [mark, list] of Object.entries(e[key] || {})) {
      if (mark === "negative" || !Array.isArray(list)) continue;
      for (const item of list) {
        const g = kind(key, over, { class: `mark-${mark.toLowerCase()}`, "data-mark": mark });
        drawMark(mark, Array.isArray(item) ? item : item.cells, item.value, g);
      }
    }
  }
  for (const [greater, smaller] of e.greater_than || []) drawGreater(greater, smaller, kind("greater_than", over));
  drawCellGroups(e, kind, under, over);
  drawOutsideClues(e, puzzle.size, kind, over);
  drawEither(e.either, kind, over);
  const custom = [["automata", (x) => x.cells, () => "automaton"], ["regex_lines", (x) => x.cells, (x) => x.pattern],
    ["relations", (x) => x.cells, (x) => x.name || x.expression], ["value_indexing", (x) => x, () => "value indexing"]];
  for (const [key, cellsOf, title] of custom) {
    for (const item of e[key] || []) {
      const cells = cellsOf(item);
      if (cells && cells.length) drawCustomLine(cells, title(item), kind(key, under, { class: "custom-line" }));
    }
  }
}

function shade(names, g) {
  for (const name of names) {
    const [r, c] = rowCol(name);
    el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL }, g);
  }
}

function drawArrow(arrow, g) {
  const circle = arrow.circle.map(rowCol);
  const [x0, y0] = centre(circle[0]);
  if (circle.length === 1) {
    el("circle", { cx: x0, cy: y0, r: CELL * 0.4, class: "bulb" }, g);
  } else {
    const [x1, y1] = centre(circle[circle.length - 1]);
    const w = CELL * 0.8;
    el("rect", {
      x: Math.min(x0, x1) - w / 2, y: Math.min(y0, y1) - w / 2, rx: w / 2,
      width: Math.abs(x1 - x0) + w, height: Math.abs(y1 - y0) + w, class: "bulb",
    }, g);
  }
  for (const line of arrow.lines) {
    // From the edge of the circle nearest the first arrow cell, to the tip with a head.
    const start = circle.reduce((best, rc) => (dist(rc, rowCol(line[0])) < dist(best, rowCol(line[0])) ? rc : best));
    const pts = [centre(start), ...line.map((n) => centre(rowCol(n)))];
    const [sx, sy] = pts[0], [nx, ny] = pts[1];
    const len = Math.hypot(nx - sx, ny - sy);
    pts[0] = [sx + ((nx - sx) / len) * CELL * 0.4, sy + ((ny - sy) / len) * CELL * 0.4];
    // The tip stops short of the last cell's centre, so a digit there does not hide it.
    const [lx, ly] = pts[pts.length - 1], [qx, qy] = pts[pts.length - 2];
    const back = Math.hypot(lx - qx, ly - qy) || 1;
    pts[pts.length - 1] = [lx - ((lx - qx) / back) * CELL * 0.3, ly - ((ly - qy) / back) * CELL * 0.3];
    el("polyline", { points: polyline(pts) }, g);
    const [tx, ty] = pts[pts.length - 1], [px, py] = pts[pts.length - 2];
    const a = Math.atan2(ty - py, tx - px), h = CELL * 0.25;
    const head = [[tx - h * Math.cos(a - 0.5), ty - h * Math.sin(a - 0.5)], [tx, ty], [tx - h * Math.cos(a + 0.5), ty - h * Math.sin(a + 0.5)]];
    el("polyline", { points: polyline(head) }, g);
  }
}

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

function drawLittleKiller(clue, g) {
  let at, dir;
  if (clue.clue) {
    at = rowCol(clue.clue);
    dir = { DR: [1, 1], DL: [1, -1], UR: [-1, 1], UL: [-1, -1] }[clue.direction];
  } else {
    const cells = clue.cells.map(rowCol);
    dir = cells.length > 1 ? [cells[1][0] - cells[0][0], cells[1][1] - cells[0][1]] : [1, 1];
    at = [cells[0][0] - dir[0], cells[0][1] - dir[1]];
  }
  const [x, y] = centre(at);
  el("text", { x, y: y + 1, class: "clue" }, g).textContent = clue.sum;
  const [ax, ay] = [x + dir[1] * CELL * 0.3, y + dir[0] * CELL * 0.3];
  el("line", { x1: ax, y1: ay, x2: ax + dir[1] * 8, y2: ay + dir[0] * 8 }, g);
}

function edgeMidpoint(a, b) {
  const [p, q] = [centre(rowCol(a)), centre(rowCol(b))];
  return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
}

function drawMark(kind, cells, value, g) {
  const [x, y] = edgeMidpoint(cells[0], cells[1]);
  if (kind === "white" || kind === "black") {
    // A dot with a number (a difference or ratio other than 1 and 2) is drawn larger to hold it.
    el("circle", { cx: x, cy: y, r: value === undefined ? 6 : 8, class: `kropki ${kind}` }, g);
    if (value !== undefined) {
      g.dataset.value = String(value);
      el("text", { x, y: y + 0.5, class: "kropki-value" }, g).textContent = value;
    }
  } else {
    el("rect", { x: x - 7, y: y - 8, width: 14, height: 16, class: "xv-bg" }, g);
    el("text", { x, y: y + 1, class: "xv" }, g).textContent = kind.toUpperCase();
  }
}

function drawGreater(greater, smaller, layer) {
  const [x, y] = edgeMidpoint(greater, smaller);
  const [g0, s0] = [centre(rowCol(greater)), centre(rowCol(smaller))];
  const [dx, dy] = [Math.sign(s0[0] - g0[0]), Math.sign(s0[1] - g0[1])];
  // The sign's point faces the smaller digit.
  const w = 5;
  const pts = [[x - dx * w - dy * w, y - dy * w - dx * w], [x + dx * w, y + dy * w], [x - dx * w + dy * w, y - dy * w + dx * w]];
  el("polyline", { points: polyline(pts), class: "greater" }, layer);
}
