// The board: one SVG drawn from /api/parse's description, with the conventions of
// f-puzzles and SudokuPad (cages dashed inside the cell borders with the sum top-left,
// thermometer bulbs, arrow circles, kropki dots and XV letters on edges, little-killer
// clues outside the grid). Cells are <g data-cell="r1c1">; state shows as classes.

const SVG = "http://www.w3.org/2000/svg";
export const CELL = 48;
const MARGIN = CELL; // room for little-killer clues outside the grid

export function symbol(value) {
  return value <= 9 ? String(value) : String.fromCharCode(55 + value); // 10 -> A
}

export function cellName(index, size) {
  return `r${Math.floor(index / size) + 1}c${(index % size) + 1}`;
}

// "r3c7" (also r0c1 for clues outside the grid) -> [row, col], 0-based.
export function rowCol(name) {
  const m = /^r(-?\d+)c(-?\d+)$/i.exec(name.trim());
  return [Number(m[1]) - 1, Number(m[2]) - 1];
}

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

const centre = ([r, c]) => [c * CELL + CELL / 2, r * CELL + CELL / 2];
const points = (names) => names.map((n) => centre(rowCol(n)).join(",")).join(" ");

export class Board {
  constructor(svg) {
    this.svg = svg;
  }

  draw(puzzle) {
    const n = puzzle.size;
    this.size = n;
    const side = n * CELL;
    this.svg.replaceChildren();
    this.svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${side + 2 * MARGIN} ${side + 2 * MARGIN}`);
    const root = el("g", {}, this.svg);
    // Paper, then the variant shapes, then the cells (transparent but for highlights,
    // which tint what is under them), then lines and cages, as SudokuPad layers them.
    el("rect", { x: 0, y: 0, width: side, height: side, class: "paper" }, root);
    const under = el("g", { class: "under" }, root);
    const cells = el("g", { class: "cells" }, root);
    const over = el("g", { class: "over" }, root);
    this.cells = [];
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n), c = i % n;
      const g = el("g", { class: "cell", "data-cell": cellName(i, n), transform: `translate(${c * CELL},${r * CELL})` }, cells);
      el("rect", { width: CELL, height: CELL, class: "bg" }, g);
      const value = el("text", { x: CELL / 2, y: CELL / 2 + 1, class: "value" }, g);
      const corner = el("g", { class: "corner" }, g);
      const middle = el("text", { x: CELL / 2, y: CELL / 2 + 1, class: "centre" }, g);
      if (puzzle.givens[i]) {
        g.classList.add("given");
        value.textContent = symbol(puzzle.givens[i]);
      }
      this.cells.push({ g, value, corner, middle });
    }
    drawVariants(puzzle, under, over);
    drawGridLines(puzzle, over);
  }

  // values, corner and centre marks per cell; classes: {name: Set of cell indices}.
  paint(state, classes) {
    for (let i = 0; i < this.cells.length; i++) {
      const { g, value, corner, middle } = this.cells[i];
      const v = state.values[i];
      if (!g.classList.contains("given")) value.textContent = v ? symbol(v) : "";
      g.dataset.value = v || "";
      const marks = v ? [] : state.cornerOf(i);
      corner.replaceChildren();
      marks.forEach((m, k) => {
        const x = [8, CELL - 8, 8, CELL - 8, CELL / 2, CELL / 2, 8, CELL - 8, CELL / 2][k % 9];
        const y = [9, 9, CELL - 7, CELL - 7, 9, CELL - 7, CELL / 2, CELL / 2, CELL / 2][k % 9];
        el("text", { x, y, class: "mark" }, corner).textContent = symbol(m);
      });
      middle.textContent = v ? "" : state.centreOf(i).map(symbol).join("");
      middle.classList.toggle("auto", !v && state.showingCandidates(i));
      for (const [name, set] of Object.entries(classes)) g.classList.toggle(name, set.has(i));
    }
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

function drawVariants(puzzle, under, over) {
  const e = puzzle.elements || {};
  for (const group of puzzle.shaded || []) shade(group, under, "window");
  for (const region of e.extra_regions || []) shade(region, under, "extra-region");
  for (const line of puzzle.lines || []) {
    const [a, b] = [centre(rowCol(line[0])), centre(rowCol(line[line.length - 1]))];
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "diagonal" }, under);
  }
  for (const name of e.odd || []) {
    const [x, y] = centre(rowCol(name));
    el("circle", { cx: x, cy: y, r: CELL * 0.38, class: "odd" }, under);
  }
  for (const name of e.even || []) {
    const [x, y] = centre(rowCol(name));
    el("rect", { x: x - CELL * 0.36, y: y - CELL * 0.36, width: CELL * 0.72, height: CELL * 0.72, class: "even" }, under);
  }
  for (const thermo of e.thermometers || []) {
    const g = el("g", { class: "thermometer" }, under);
    const [x, y] = centre(rowCol(thermo[0]));
    el("circle", { cx: x, cy: y, r: CELL * 0.36 }, g);
    el("polyline", { points: points(thermo) }, g);
  }
  for (const arrow of e.arrows || []) drawArrow(arrow, under);
  (e.cages || []).forEach((cage, k) => drawCage(cage, over, k));
  for (const clue of e.little_killers || []) drawLittleKiller(clue, puzzle.size, over);
  const marks = { ...(e.kropki || {}), ...(e.xv || {}) };
  for (const [kind, list] of Object.entries(marks)) {
    if (kind === "negative") continue;
    for (const item of list) drawMark(kind, Array.isArray(item) ? item : item.cells, item.value, over);
  }
  for (const [greater, smaller] of e.greater_than || []) drawGreater(greater, smaller, over);
}

function shade(names, layer, cls) {
  const g = el("g", { class: cls }, layer);
  for (const name of names) {
    const [r, c] = rowCol(name);
    el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL }, g);
  }
}

function drawArrow(arrow, layer) {
  const g = el("g", { class: "arrow" }, layer);
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
    el("polyline", { points: pts.map((p) => p.join(",")).join(" ") }, g);
    const [tx, ty] = pts[pts.length - 1], [px, py] = pts[pts.length - 2];
    const a = Math.atan2(ty - py, tx - px), h = CELL * 0.25;
    const head = [[tx - h * Math.cos(a - 0.5), ty - h * Math.sin(a - 0.5)], [tx, ty], [tx - h * Math.cos(a + 0.5), ty - h * Math.sin(a + 0.5)]];
    el("polyline", { points: head.map((p) => p.join(",")).join(" ") }, g);
  }
}

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

// A cage: dashed lines inset from every outer cell edge, meeting at the corners.
function drawCage(cage, layer, index) {
  const g = el("g", { class: "cage", "data-cage": String(index + 1) }, layer);
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
  if (cage.sum !== undefined) {
    // The sum sits in the top-left cell of the cage.
    const [r, c] = cage.cells.map(rowCol).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
    el("rect", { x: c * CELL + 2, y: r * CELL + 2, width: String(cage.sum).length * 7 + 4, height: 12, class: "sum-bg" }, g);
    el("text", { x: c * CELL + 4, y: r * CELL + 12, class: "sum" }, g).textContent = cage.sum;
  }
}

function drawLittleKiller(clue, size, layer) {
  const g = el("g", { class: "little-killer" }, layer);
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

function drawMark(kind, cells, value, layer) {
  const [x, y] = edgeMidpoint(cells[0], cells[1]);
  const g = el("g", { class: `mark-${kind.toLowerCase()}` }, layer);
  if (kind === "white" || kind === "black") {
    el("circle", { cx: x, cy: y, r: 6, class: `kropki ${kind}` }, g);
    if (value !== undefined) el("text", { x, y: y + 1, class: "kropki-value" }, g).textContent = value;
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
  el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "greater" }, layer);
}
