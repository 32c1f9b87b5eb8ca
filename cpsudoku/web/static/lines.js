// The line rules (whispers, renban, ...), drawn from the server's styled lines in
// SudokuPad's conventions: a wide, rounded stroke in the kind's colour under the digits;
// circles at the ends of between lines and double arrows, diamonds at the ends of lockout
// lines, a bulb at the start of a slow thermometer, a dot in the middle of a zipper line,
// dashes for sum lines; a line's parameter (a whisper's difference, a modulus, a total)
// written in a small label in its first cell's corner.

import { CELL, centre, el, polyline, rowCol } from "./svg.js";

// line: {kind, cells, colour, width (a fraction of a cell), ends, dashed, value}; g: its group.
export function drawStyledLine(line, g) {
  const pts = line.cells.map((name) => centre(rowCol(name)));
  const width = line.width * CELL;
  g.dataset.colour = line.colour;
  const path = el("polyline", { points: polyline(pts), class: "path", stroke: line.colour, "stroke-width": width }, g);
  if (line.dashed) path.setAttribute("stroke-dasharray", `${width * 0.8} ${width * 1.8}`);
  const end = ENDS[line.ends];
  if (end) end(pts, line.colour, g);
  if (line.value !== null && line.value !== undefined) label(pts[0], line.value, line.colour, g);
}

const ENDS = {
  circle: (pts, colour, g) => [pts[0], pts[pts.length - 1]].forEach(([x, y]) =>
    el("circle", { cx: x, cy: y, r: CELL * 0.4, class: "end", stroke: colour, "data-end": "circle" }, g)),
  diamond: (pts, colour, g) => [pts[0], pts[pts.length - 1]].forEach(([x, y]) => {
    const h = CELL * 0.36;
    el("polygon", { points: polyline([[x, y - h], [x + h, y], [x, y + h], [x - h, y]]), class: "end",
      stroke: colour, "data-end": "diamond" }, g);
  }),
  bulb: ([[x, y]], colour, g) => el("circle", { cx: x, cy: y, r: CELL * 0.38, class: "bulb", fill: colour,
    "data-end": "bulb" }, g),
  middle: (pts, colour, g) => {
    const [x, y] = middleOf(pts);
    el("circle", { cx: x, cy: y, r: CELL * 0.09, class: "middle", "data-end": "middle" }, g);
  },
};

// The middle of a line counted in cells: its centre cell, or the edge between the two.
function middleOf(pts) {
  const k = (pts.length - 1) / 2;
  const [a, b] = [pts[Math.floor(k)], pts[Math.ceil(k)]];
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

function label([x, y], value, colour, g) {
  const text = String(value);
  // In the start cell's top-left corner, where a cage's sum would be (the corner marks
  // make way for both).
  const [lx, ly] = [x - CELL / 2 + 2, y - CELL / 2 + 2];
  el("rect", { x: lx, y: ly, width: text.length * 7 + 5, height: 14, rx: 2, class: "line-value-bg", stroke: colour }, g);
  el("text", { x: lx + 2.5, y: ly + 11, class: "line-value" }, g).textContent = text;
  g.dataset.value = text;
}

// A line whose rule is given as data (an automaton, a regular expression, a relation, value
// indexing): a thin grey line from a dot at its start, its rule named in a tooltip.
export function drawCustomLine(cells, title, g) {
  const pts = cells.map((name) => centre(rowCol(name)));
  if (pts.length > 1) el("polyline", { points: polyline(pts), class: "custom-path" }, g);
  const [x, y] = pts[0];
  el("circle", { cx: x, cy: y, r: CELL * 0.12, class: "custom-start" }, g);
  if (title) el("title", {}, g).textContent = title;
}
