// The player's side of a puzzle: entries, pencil marks, undo/redo, the timer, and the
// copy kept in localStorage so a reload resumes where the player was.

export class Game {
  constructor(puzzle, key) {
    this.puzzle = puzzle;
    this.key = key;
    const n = puzzle.size;
    this.values = puzzle.givens.slice();
    this.corner = Array.from({ length: n * n }, () => []);
    this.centre = Array.from({ length: n * n }, () => []);
    this.candidates = null; // auto-candidates from the server, when shown
    this.undoStack = [];
    this.redoStack = [];
    this.elapsed = 0; // seconds, before the current run of the clock
    this.startedAt = null;
    this.finished = false;
    this.restore();
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

  setValue(i, v) {
    return this.change(() => {
      if (this.given(i)) return;
      this.values[i] = this.values[i] === v ? 0 : v;
    });
  }

  toggleMark(kind, i, v) {
    return this.change(() => {
      if (this.given(i) || this.values[i]) return;
      const marks = this[kind][i];
      const at = marks.indexOf(v);
      if (at >= 0) marks.splice(at, 1);
      else {
        marks.push(v);
        marks.sort((a, b) => a - b);
      }
    });
  }

  clear(i) {
    return this.change(() => {
      if (this.given(i)) return;
      if (this.values[i]) this.values[i] = 0;
      else {
        this.corner[i] = [];
        this.centre[i] = [];
      }
    });
  }

  fill(solution) {
    return this.change(() => {
      this.values = solution.slice();
    });
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
    if (this.centre[i].length || !this.candidates) return this.centre[i];
    return this.candidates[i] || [];
  }

  showingCandidates(i) {
    return !this.centre[i].length && !!this.candidates;
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
    const data = { grid: this.snapshot(), undo: this.undoStack.slice(-200), elapsed: this.seconds(), finished: this.finished };
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
    } catch {
      data = null;
    }
    if (!data) return;
    this.load(data.grid);
    this.undoStack = data.undo || [];
    this.elapsed = data.elapsed || 0;
    this.finished = !!data.finished;
  }
}

export function clock(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
