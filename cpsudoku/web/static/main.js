// The play page: loads a puzzle (address, paste, file, generator), lets the player
// enter digits and pencil marks, and asks the server to check, hint, rate and solve.

import { call } from "./api.js";
import { Board, cellName, symbol } from "./board.js";
import { Game, clock } from "./game.js";

const DEFAULT = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const $ = (sel) => document.querySelector(sel);
const action = (name) => document.querySelectorAll(`[data-action="${name}"]`);

const board = new Board($("#board"));
let puzzle = null; // /api/parse's description
let game = null;
let selected = 0;
let mode = "value";
let conflicts = new Set();
let wrong = new Set();
let hinted = new Set();
let solution = null;
let checkSeq = 0;

function status(text, kind = "") {
  const line = $('[data-role="status"]');
  line.textContent = text;
  line.className = `status ${kind}`;
}

function failed(err) {
  status(err.message, "bad");
}

// --- loading ---

function addressText() {
  const params = new URLSearchParams(location.search);
  if (params.get("puzzle")) return params.get("puzzle");
  if (params.get("load")) return `https://f-puzzles.com/?load=${params.get("load")}`;
  return null;
}

async function loadText(text, { push = true } = {}) {
  status("Loading…");
  try {
    show(await call("/api/parse", { puzzle: text }), push);
  } catch (err) {
    failed(err);
  }
}

function show(description, push) {
  puzzle = description;
  if (push) {
    const url = new URL(location.href);
    url.search = `?puzzle=${encodeURIComponent(puzzle.text)}`;
    history.replaceState(null, "", url);
  }
  game = new Game(puzzle, `cpsudoku:${puzzle.text}`);
  selected = puzzle.givens.findIndex((v) => v === 0);
  if (selected < 0) selected = 0;
  wrong = new Set();
  hinted = new Set();
  solution = null;
  action("reveal").forEach((b) => (b.disabled = true));
  $('[data-role="hint"]').textContent = "";
  $('[data-role="compare"] tbody').replaceChildren();
  board.draw(puzzle);
  buildPad(puzzle.size);
  listRules(puzzle);
  paint();
  document.body.classList.remove("paused");
  if (!game.finished) game.start();
  status(game.finished ? "Solved earlier: well done." : `${puzzle.name || "Puzzle"} loaded: ${puzzle.size}x${puzzle.size}`);
  refreshChecks();
}

function buildPad(n) {
  const pad = $('[data-role="pad"]');
  pad.replaceChildren();
  for (let v = 1; v <= n; v++) {
    const b = document.createElement("button");
    b.textContent = symbol(v);
    b.dataset.digit = String(v);
    b.addEventListener("click", () => enter(v, mode));
    pad.appendChild(b);
  }
}

function listRules(p) {
  const list = $('[data-role="rules"]');
  list.replaceChildren();
  const shown = p.rules.length ? p.rules : [{ name: "classic", description: "each row, column and region holds every digit once" }];
  for (const rule of shown) {
    const item = document.createElement("li");
    item.textContent = `${rule.name}: ${rule.description}`;
    list.appendChild(item);
  }
}

// --- drawing the state ---

function paint() {
  if (!game) return;
  const value = game.values[selected];
  const match = new Set();
  if (value) game.values.forEach((v, i) => v === value && match.add(i));
  board.paint(game, {
    selected: new Set([selected]),
    match,
    conflict: conflicts,
    wrong,
    hint: hinted,
  });
  $('[data-role="timer"]').textContent = clock(game.seconds());
}

// Conflicts (and candidates, when shown) come from the server's independent checker.
async function refreshChecks() {
  const seq = ++checkSeq;
  const showCandidates = $('[data-action="candidates"]').checked;
  try {
    const found = await call("/api/check", { puzzle: puzzle.text, grid: game.values, candidates: showCandidates });
    if (seq !== checkSeq) return; // a newer entry has been made meanwhile
    conflicts = new Set(found.conflicts.flatMap((c) => c.cells.map((name) => index(name))));
    game.candidates = showCandidates ? found.candidates : null;
    paint();
    return found;
  } catch (err) {
    failed(err);
  }
}

function index(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  return (Number(m[1]) - 1) * puzzle.size + Number(m[2]) - 1;
}

// --- entering ---

function enter(v, how) {
  if (!game || game.finished || document.body.classList.contains("paused")) return;
  const changed = how === "value" ? game.setValue(selected, v) : game.toggleMark(how, selected, v);
  if (changed) afterChange();
}

function afterChange() {
  wrong = new Set();
  hinted = new Set();
  paint();
  refreshChecks();
}

function select(i) {
  selected = Math.max(0, Math.min(puzzle.size * puzzle.size - 1, i));
  paint();
}

function onKey(e) {
  if (!game || (e.target instanceof Element && e.target.closest("textarea, input, select"))) return;
  const n = puzzle.size;
  const moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in moves) {
    const r = Math.floor(selected / n), c = selected % n;
    const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    select(((r + dr + n) % n) * n + ((c + dc + n) % n));
    e.preventDefault();
    return;
  }
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && e.key.toLowerCase() === "z") {
    (e.shiftKey ? redo : undo)();
    e.preventDefault();
    return;
  }
  if (ctrl && e.key.toLowerCase() === "y") {
    redo();
    e.preventDefault();
    return;
  }
  if (e.key === "Delete" || e.key === "Backspace") {
    if (game.clear(selected)) afterChange();
    e.preventDefault();
    return;
  }
  // Digits by their key code, so Shift+1 is still 1; letters A.. for 10 and up.
  let v = null;
  const code = /^(?:Digit|Numpad)(\d)$/.exec(e.code || "");
  if (code) v = Number(code[1]);
  else if (/^[a-pA-P]$/.test(e.key)) v = e.key.toUpperCase().charCodeAt(0) - 55;
  if (v === null || v < 1 || v > n) return;
  const how = e.shiftKey ? "corner" : ctrl || e.altKey ? "centre" : mode;
  enter(v, how);
  e.preventDefault();
}

function undo() {
  if (game && game.undo()) afterChange();
}

function redo() {
  if (game && game.redo()) afterChange();
}

// --- help ---

async function hint() {
  try {
    const found = await call("/api/hint", { puzzle: puzzle.text, grid: game.values });
    wrong = new Set((found.wrong || []).map(index));
    const step = found.step;
    hinted = new Set(step ? step.cells.map(index) : []);
    paint();
    if (wrong.size) status(`Wrong entries: ${[...wrong].map((i) => cellName(i, puzzle.size)).join(", ")}`, "bad");
    else if (step) status(`${step.technique}: ${step.text}`);
    else status("No further step found.");
    $('[data-role="hint"]').textContent = step ? step.text : "";
  } catch (err) {
    failed(err);
  }
}

async function check(submit) {
  try {
    const found = await call("/api/check", { puzzle: puzzle.text, grid: game.values, solution: true });
    wrong = new Set((found.wrong || []).map(index));
    conflicts = new Set(found.conflicts.flatMap((c) => c.cells.map(index)));
    paint();
    if (found.solved) {
      game.finish();
      status(`Solved in ${clock(game.seconds())}. Congratulations!`, "good");
    } else if (found.conflicts.length) {
      status(found.conflicts.map((c) => c.message).join("; "), "bad");
    } else if (wrong.size) {
      status(`Wrong: ${[...wrong].map((i) => cellName(i, puzzle.size)).join(", ")}`, "bad");
    } else if (submit) {
      status(found.complete ? "The grid breaks a rule." : "Not finished yet: no mistakes so far.", "bad");
    } else {
      status("No mistakes so far.", "good");
    }
  } catch (err) {
    failed(err);
  }
}

async function rate() {
  status("Rating…");
  try {
    const r = await call("/api/rate", { puzzle: puzzle.text });
    const techniques = Object.entries(r.techniques || {}).map(([k, v]) => `${k} ×${v}`).join(", ");
    status(`Rating ER ${r.er} / EP ${r.ep} / ED ${r.ed} (${r.level})${techniques ? ": " + techniques : ""}`);
  } catch (err) {
    failed(err);
  }
}

// --- solve and compare ---

async function solve() {
  const chosen = $('[data-role="backend"]').value;
  const names = chosen === "all" ? backends.filter((b) => b.available).map((b) => b.name) : [chosen];
  const limit = Number($('[data-role="time-limit"]').value) || 10;
  const body = $('[data-role="compare"] tbody');
  body.replaceChildren();
  status(`Solving with ${names.join(", ")}…`);
  const rows = names.map((name) => {
    const tr = document.createElement("tr");
    tr.dataset.backend = name;
    tr.innerHTML = `<td>${name}</td><td>…</td><td></td><td></td>`;
    body.appendChild(tr);
    return tr;
  });
  const results = await Promise.all(names.map(async (name, k) => {
    const cells = rows[k].children;
    try {
      const r = await call("/api/solve", { puzzle: puzzle.text, backend: name, max_solutions: 2, time_limit: limit });
      cells[1].textContent = r.status;
      cells[2].textContent = (r.time_s * 1000).toFixed(1);
      cells[3].textContent = r.stats.nodes ?? "";
      return r;
    } catch (err) {
      cells[1].textContent = err.message;
      return null;
    }
  }));
  const found = results.find((r) => r && r.solutions.length);
  const statuses = new Set(results.filter(Boolean).map((r) => r.status));
  if (found) {
    solution = Array.from(found.solutions[0], (ch) => (/\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 55));
    action("reveal").forEach((b) => (b.disabled = false));
  }
  const verdict = statuses.has("unique") ? "unique solution" : statuses.has("multiple") ? "several solutions"
    : statuses.has("unsolvable") ? "no solution" : [...statuses].join(", ") || "no answer";
  status(`Solved by ${names.length} backend(s): ${verdict}.`, statuses.has("unsolvable") ? "bad" : "");
}

function reveal() {
  if (solution && game.fill(solution)) afterChange();
}

// --- new puzzles ---

async function generate() {
  const body = {
    size: Number($('[data-role="size"]').value),
    symmetry: $('[data-role="symmetry"]').value,
    difficulty: $('[data-role="difficulty"]').value || null,
    variant: $('[data-role="variant"]').value,
  };
  status("Generating…");
  try {
    show(await call("/api/generate", body), true);
  } catch (err) {
    failed(err);
  }
}

// --- wiring ---

let backends = [];

async function features() {
  try {
    const [have, list] = await Promise.all([call("/api/features"), call("/api/backends")]);
    backends = list;
    const select = $('[data-role="backend"]');
    for (const b of list.filter((x) => x.available)) {
      const option = document.createElement("option");
      option.value = option.textContent = b.name;
      select.appendChild(option);
    }
    // Buttons whose server package is absent are disabled, with the reason as their title.
    for (const [name, on] of [["hint", have.hint], ["rate", have.rate], ["new", have.generate]]) {
      action(name).forEach((b) => {
        b.disabled = !on;
        if (!on) b.title = "not available in this installation";
      });
    }
  } catch (err) {
    failed(err);
  }
}

function wire() {
  const svg = $("#board");
  svg.addEventListener("pointerdown", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell) select(index(cell.dataset.cell));
    svg.focus();
  });
  document.addEventListener("keydown", onKey);
  action("mode").forEach((b) => b.addEventListener("click", () => {
    mode = b.dataset.mode;
    action("mode").forEach((x) => x.classList.toggle("on", x === b));
  }));
  action("erase")[0].addEventListener("click", () => game && game.clear(selected) && afterChange());
  action("undo")[0].addEventListener("click", undo);
  action("redo")[0].addEventListener("click", redo);
  action("candidates")[0].addEventListener("change", refreshChecks);
  action("hint")[0].addEventListener("click", hint);
  action("check")[0].addEventListener("click", () => check(false));
  action("submit")[0].addEventListener("click", () => check(true));
  action("rate")[0].addEventListener("click", rate);
  action("solve")[0].addEventListener("click", solve);
  action("reveal")[0].addEventListener("click", reveal);
  action("new")[0].addEventListener("click", generate);
  action("load")[0].addEventListener("click", () => loadText($('[data-role="paste"]').value));
  action("restart")[0].addEventListener("click", () => {
    if (game && game.change(() => (game.values = puzzle.givens.slice()))) afterChange();
  });
  $('[data-role="file"]').addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) loadText(await file.text());
  });
  action("pause")[0].addEventListener("click", () => {
    if (!game || game.finished) return;
    if (game.running()) game.pause();
    else game.start();
    document.body.classList.toggle("paused", !game.running());
    action("pause")[0].textContent = game.running() ? "Pause" : "Resume";
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && game) game.pause();
    else if (game && !document.body.classList.contains("paused")) game.start();
  });
  window.addEventListener("beforeunload", () => game && game.save());
  setInterval(() => {
    if (game && game.running()) $('[data-role="timer"]').textContent = clock(game.seconds());
  }, 500);
}

wire();
features();
loadText(addressText() || DEFAULT, { push: addressText() === null });
