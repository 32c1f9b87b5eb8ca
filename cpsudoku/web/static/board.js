// The board: one SVG drawn from /api/parse's description, with the conventions of
// f-puzzles and SudokuPad (cages dashed inside the cell borders with the sum top-left,
// thermometer bulbs, arrow circles, kropki dots and XV letters on edges, little-killer
// clues outside the grid). It is an ARIA grid: rows of <g role="gridcell" data-cell="r1c1">
// whose labels say what each cell holds; state shows as classes. Digits and marks are
// drawn in a layer of their own, <g data-for="r1c1">.

const SVG = "http://www.w3.org/2000/svg";
export const CELL = 48;

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
    // Room outside the grid only for clues drawn there (little killers).
    const margin = (e.little_killers || []).length ? CELL : 6;
    this.svg.replaceChildren();
    this.svg.setAttribute("viewBox", `${-margin} ${-margin} ${side + 2 * margin} ${side + 2 * margin}`);
    this.svg.setAttribute("aria-label", `Sudoku grid, ${n} by ${n}`);
    this.svg.setAttribute("aria-rowcount", String(n));
    this.svg.setAttribute("aria-colcount", String(n));
    // Paper, then the variant shapes, then the cells (transparent but for highlights,
    // which tint what is under them), then lines and cages, as SudokuPad layers them.
    const deco = (cls) => el("g", { class: cls, "aria-hidden": "true" }, this.svg);
    el("rect", { x: 0, y: 0, width: side, height: side, class: "paper" }, deco("paper-layer"));
    const under = deco("under");
    const cells = el("g", { class: "cells" }, this.svg);
    const digits = deco("digits");
    const over = deco("over");
    this.hintLayer = deco("hint-layer");
    this.sumCells = new Set((e.cages || []).filter((cage) => cage.sum !== undefined).map((cage) => {
      const [r, c] = cage.cells.map(rowCol).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
      return r * n + c;
    }));
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
        this.cells.push({ g, value, corner, middle, auto, name: cellName(i, n) });
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
      const { g, value, corner, middle, auto, name } = this.cells[i];
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
      for (const [cls, set] of Object.entries(classes)) g.classList.toggle(cls, set.has(i));
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
    // An outline under a light fill: the shape stands out, the digits on it stay legible.
    el("circle", { cx: x, cy: y, r: CELL * 0.38, class: "edge" }, g);
    el("polyline", { points: points(thermo), class: "edge" }, g);
    el("circle", { cx: x, cy: y, r: CELL * 0.34, class: "fill" }, g);
    el("polyline", { points: points(thermo), class: "fill" }, g);
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
    // The tip stops short of the last cell's centre, so a digit there does not hide it.
    const [lx, ly] = pts[pts.length - 1], [qx, qy] = pts[pts.length - 2];
    const back = Math.hypot(lx - qx, ly - qy) || 1;
    pts[pts.length - 1] = [lx - ((lx - qx) / back) * CELL * 0.3, ly - ((ly - qy) / back) * CELL * 0.3];
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
    el("rect", { x: c * CELL + 2, y: r * CELL + 2, width: String(cage.sum).length * 8 + 4, height: 15, class: "sum-bg" }, g);
    el("text", { x: c * CELL + 4, y: r * CELL + 14, class: "sum" }, g).textContent = cage.sum;
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
