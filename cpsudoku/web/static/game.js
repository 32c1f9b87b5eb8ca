// The player's side of a puzzle: entries, pencil marks, undo/redo, the timer, and the
// copy kept in localStorage so a reload resumes where the player was.

export class Game {
  constructor(puzzle, key) {
    this.puzzle = puzzle;
    this.key = key;
    this.candidates = null; // auto-candidates from the server, when shown
    this.reset();
    this.restore();
  }

  // A fresh start: no entries, marks, history or time, not finished.
  reset() {
    const n = this.puzzle.size;
    this.values = this.puzzle.givens.slice();
    this.corner = Array.from({ length: n * n }, () => []);
    this.centre = Array.from({ length: n * n }, () => []);
    this.undoStack = [];
    this.redoStack = [];
    this.elapsed = 0; // seconds, before the current run of the clock
    this.startedAt = null;
    this.finished = false;
    this.revealed = false; // the solution was filled in: no congratulations
  }

  restart() {
    this.reset();
    this.save();
  }

  given(i) {
    return this.puzzle.givens[i] !== 0;
  }

  snapshot() {
    return JSON.stringify([this.values, this.corner, this.centre]);
  }

  load(text) {
    [this.values, this.corner, this.centre] = JSON.parse(text);
  }

  // Every change goes through here, so undo/redo and saving see all of them.
  change(fn) {
    const before = this.snapshot();
    fn();
    if (this.snapshot() === before) return false;
    this.undoStack.push(before);
    this.redoStack = [];
    this.save();
    return true;
  }

  // Several selected cells change together, as one step of the history. A digit already
  // in every open cell is taken out again (a toggle), as a single cell's would be.
  setValue(cells, v, peersOf = null) {
    return this.change(() => {
      const open = cells.filter((i) => !this.given(i));
      const off = open.length && open.every((i) => this.values[i] === v);
      for (const i of open) {
        this.values[i] = off ? 0 : v;
        if (!off && peersOf) for (const p of peersOf(i)) this.removeMark(p, v);
      }
    });
  }

  toggleMark(kind, cells, v) {
    return this.change(() => {
      const open = cells.filter((i) => !this.given(i) && !this.values[i]);
      const off = open.length && open.every((i) => this[kind][i].includes(v));
      for (const i of open) {
        const marks = this[kind][i].filter((m) => m !== v);
        if (!off) marks.push(v);
        this[kind][i] = marks.sort((a, b) => a - b);
      }
    });
  }

  removeMark(i, v) {
    this.corner[i] = this.corner[i].filter((m) => m !== v);
    this.centre[i] = this.centre[i].filter((m) => m !== v);
  }

  clear(cells) {
    return this.change(() => {
      for (const i of cells) {
        if (this.given(i)) continue;
        if (this.values[i]) this.values[i] = 0;
        else {
          this.corner[i] = [];
          this.centre[i] = [];
        }
      }
    });
  }

  // A hint applied: its placements entered, its eliminations taken out of the marks.
  apply(placements, eliminations) {
    return this.change(() => {
      for (const [i, v] of placements) if (!this.given(i)) this.values[i] = v;
      for (const [i, v] of eliminations) this.removeMark(i, v);
    });
  }

  fill(solution) {
    const changed = this.change(() => {
      this.values = solution.slice();
    });
    this.revealed = true;
    this.save();
    return changed;
  }

  undo() {
    if (!this.undoStack.length) return false;
    this.redoStack.push(this.snapshot());
    this.load(this.undoStack.pop());
    this.save();
    return true;
  }

  redo() {
    if (!this.redoStack.length) return false;
    this.undoStack.push(this.snapshot());
    this.load(this.redoStack.pop());
    this.save();
    return true;
  }

  cornerOf(i) {
    return this.corner[i];
  }

  centreOf(i) {
    return this.centre[i];
  }

  autoOf(i) {
    if (this.values[i] || this.centre[i].length || this.corner[i].length || !this.candidates) return [];
    return this.candidates[i] || [];
  }

  // --- the clock ---
  seconds() {
    const running = this.startedAt === null ? 0 : (performance.now() - this.startedAt) / 1000;
    return this.elapsed + running;
  }

  running() {
    return this.startedAt !== null;
  }

  start() {
    if (this.startedAt === null && !this.finished) this.startedAt = performance.now();
  }

  pause() {
    if (this.startedAt !== null) {
      this.elapsed = this.seconds();
      this.startedAt = null;
      this.save();
    }
  }

  finish() {
    this.pause();
    this.finished = true;
    this.save();
  }

  // --- kept across reloads ---
  save() {
    const data = {
      grid: this.snapshot(), undo: this.undoStack.slice(-200), elapsed: this.seconds(),
      finished: this.finished, revealed: this.revealed,
    };
    try {
      localStorage.setItem(this.key, JSON.stringify(data));
    } catch {
      // storage full or disabled: the game goes on without it
    }
  }

  restore() {
    let data = null;
    try {
      data = JSON.parse(localStorage.getItem(this.key) || "null");
      if (data) this.load(data.grid);
    } catch {
      data = null;
    }
    if (!data) return;
    this.undoStack = data.undo || [];
    this.elapsed = data.elapsed || 0;
    this.revealed = !!data.revealed;
    // A finished game is a full grid: anything else saved as finished is not.
    this.finished = !!data.finished && this.values.every((v) => v);
  }
}

export function clock(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
