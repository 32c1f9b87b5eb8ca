// What every drawing of the board shares: the cell's size in SVG units, cell names to
// rows and columns, and making SVG elements.

const SVG = "http://www.w3.org/2000/svg";
export const CELL = 48;

// "r3c7" (also r0c1 for clues outside the grid) -> [row, col], 0-based.
export function rowCol(name) {
  const m = /^r(-?\d+)c(-?\d+)$/i.exec(name.trim());
  return [Number(m[1]) - 1, Number(m[2]) - 1];
}

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export const centre = ([r, c]) => [c * CELL + CELL / 2, r * CELL + CELL / 2];
export const points = (names) => names.map((n) => centre(rowCol(n)).join(",")).join(" ");
export const polyline = (pts) => pts.map((p) => p.join(",")).join(" ");
