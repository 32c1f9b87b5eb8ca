// The play page: loads a puzzle (address, paste, file, generator), lets the player
// enter digits and pencil marks, and asks the server to check, hint, rate and solve.
// Every answer belongs to the puzzle it was asked for: requests carry that puzzle's
// AbortController, and loading another puzzle aborts them and drops their answers.

import { aborted, call, pack, unpack } from "./api.js";
import { Board, cellName, symbol } from "./board.js";
import { Game, clock } from "./game.js";
import { Menu } from "./menu.js";

// Easy puzzles (Project Euler 96, rated 1.2) for `/` when the generator is not installed.
const EASY = [
  "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
  "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3",
  "......9.7...42.18....7.5.261..9.4....5.....4....5.7..992.1.8....34.59...5.7......",
];
const LAST = "cpsudoku:last";
const SETTINGS = "cpsudoku:settings";
const SHOWN_CONFLICTS = 3; // the status names a few conflicts and counts the rest

const $ = (sel) => document.querySelector(sel);
const action = (name) => document.querySelectorAll(`[data-action="${name}"]`);

const board = new Board($("#board"));
const menu = new Menu({ size: $('[data-role="size"]'), variant: $('[data-role="variant"]'),
  difficulty: $('[data-role="difficulty"]'), symmetry: $('[data-role="symmetry"]') });
let puzzle = null; // /api/parse's description
let game = null;
let cursor = 0; // the cell the keyboard moves from
let selection = new Set([0]);
let mode = "value";
let conflicts = new Set();
let conflictCount = 0;
let wrong = new Set();
let hinted = new Set();
let solution = null;
let hintState = null; // {step, words, stage 1..3} for the grid as it is
let checkSeq = 0;
let backends = [];
let current = { controller: new AbortController() }; // the puzzle on the board

class Stale extends Error {}

// --- settings, kept in localStorage ---

// limit: the seconds Hint, Check and Rating may take (the server allows 1 to 60).
const settings = { highlight: true, autoremove: true, timer: true, limit: 10 };
try {
  Object.assign(settings, JSON.parse(localStorage.getItem(SETTINGS) || "{}"));
} catch {
  // unreadable settings: the defaults
}

function applySettings() {
  for (const box of document.querySelectorAll("[data-setting]")) {
    if (box.type === "checkbox") box.checked = !!settings[box.dataset.setting];
    else box.value = String(settings[box.dataset.setting]);
  }
  $('[data-role="timer-box"]').hidden = !settings.timer;
}

// The setting's limit, kept within what the server takes (it refuses anything else).
function helpLimit() {
  const limit = Number(settings.limit);
  return Number.isFinite(limit) ? Math.min(60, Math.max(1, limit)) : 10;
}

// --- talking to the server ---

function newPuzzle() {
  current.controller.abort();
  current = { controller: new AbortController() };
}

// An answer for the puzzle still on the board, or Stale.
async function ask(path, body) {
  const asked = current;
  const answer = await call(path, body, asked.controller.signal);
  if (asked !== current) throw new Stale();
  return answer;
}

function status(text, kind = "") {
  const line = $('[data-role="status"]');
  line.textContent = text;
  line.className = `status ${kind}`;
}

function failed(err) {
  if (err instanceof Stale || aborted(err)) return; // for a puzzle no longer shown
  status(err.message, "bad");
}

// --- loading ---

async function loadText(text) {
  newPuzzle();
  status("Loading…");
  try {
    await show(await ask("/api/parse", { puzzle: text }));
  } catch (err) {
    failed(err);
  }
}

async function generate(body) {
  newPuzzle();
  status("Generating…");
  try {
    await show(await ask("/api/generate", body));
  } catch (err) {
    failed(err);
  }
}

// The address that reloads a puzzle: a one-line grid as it is, anything else deflated.
async function addressOf(text) {
  const url = new URL(location.href);
  url.search = /^[^\n]{1,700}$/.test(text) ? `?puzzle=${encodeURIComponent(text)}` : `?p=${await pack(text)}`;
  return url.toString();
}

async function show(description) {
  const mine = current;
  puzzle = description;
  const address = await addressOf(puzzle.text);
  if (mine !== current) return;
  history.replaceState(null, "", address);
  try {
    localStorage.setItem(LAST, puzzle.text);
  } catch {
    // storage disabled
  }
  game = new Game(puzzle, `cpsudoku:${puzzle.text}`);
  cursor = puzzle.givens.findIndex((v) => v === 0);
  if (cursor < 0) cursor = 0;
  selection = new Set([cursor]);
  conflicts = new Set();
  conflictCount = 0;
  solution = null;
  action("reveal").forEach((b) => (b.disabled = true));
  $('[data-role="compare"] tbody').replaceChildren();
  $('[data-role="share-link"]').hidden = true;
  board.draw(puzzle);
  fitBoard();
  buildPad(puzzle.size);
  listRules(puzzle);
  clearHelp();
  document.body.classList.remove("paused");
  setPauseLabel();
  if (!game.finished) game.start();
  paint();
  status(game.finished ? (game.revealed ? "Solved earlier, with the solution revealed." : "Solved earlier: well done.")
    : `${puzzle.name || "Puzzle"} loaded: ${puzzle.size}x${puzzle.size}`);
  refreshChecks();
}

function buildPad(n) {
  const pad = $('[data-role="pad"]');
  pad.replaceChildren();
  pad.style.setProperty("--columns", String(n <= 9 ? Math.ceil(n / 2) : Math.ceil(n / 3)));
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
  const base = p.box
    ? { name: "classic", description: "each row, column and box holds every digit once" }
    : { name: "jigsaw", description: "each row, column and outlined region holds every digit once" };
  for (const rule of [base, ...p.rules]) {
    const item = document.createElement("li");
    item.textContent = `${rule.name}: ${rule.description}`;
    list.appendChild(item);
  }
}

// --- drawing the state ---

function peersOf(i) {
  const n = puzzle.size, r = Math.floor(i / n), c = i % n;
  const out = [];
  if (puzzle.houses === false) return out; // a raw grid: digits may repeat anywhere
  for (let j = 0; j < n * n; j++) {
    if (j !== i && (Math.floor(j / n) === r || j % n === c || puzzle.regions[j] === puzzle.regions[i])) out.push(j);
  }
  return out;
}

function paint() {
  if (!game) return;
  const value = game.values[cursor];
  const match = new Set(), peer = new Set();
  if (settings.highlight) {
    if (value) game.values.forEach((v, i) => v === value && match.add(i));
    if (selection.size === 1) peersOf(cursor).forEach((i) => peer.add(i));
  }
  board.paint(game, { selected: selection, peer, match, conflict: conflicts, wrong, hint: hinted }, cursor);
  $('[data-role="timer"]').textContent = clock(game.seconds());
}

function summary(found) {
  const shown = found.slice(0, SHOWN_CONFLICTS).map((c) => c.message).join("; ");
  return found.length > SHOWN_CONFLICTS ? `${shown}; and ${found.length - SHOWN_CONFLICTS} more conflicts` : shown;
}

// Conflicts (and candidates, when shown) come from the server's independent checker;
// a new conflict is said in the status line (a live region), not shown by colour alone.
async function refreshChecks() {
  const seq = ++checkSeq;
  const showCandidates = $('[data-action="candidates"]').checked;
  try {
    const found = await ask("/api/check", { puzzle: puzzle.text, grid: game.values, candidates: showCandidates });
    if (seq !== checkSeq) return; // a newer entry has been made meanwhile
    conflicts = new Set(found.conflicts.flatMap((c) => c.cells.map((name) => index(name))));
    if (found.conflicts.length && found.conflicts.length !== conflictCount) {
      status(`Conflict: ${summary(found.conflicts)}`, "bad");
    } else if (!found.conflicts.length && conflictCount) {
      status("No conflicts.");
    }
    conflictCount = found.conflicts.length;
    game.candidates = showCandidates ? found.candidates : null;
    paint();
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
  const cells = [...selection];
  const changed = how === "value" ? game.setValue(cells, v, settings.autoremove ? peersOf : null)
    : game.toggleMark(how, cells, v);
  if (changed) afterChange();
}

function clearHelp() {
  wrong = new Set();
  hinted = new Set();
  hintState = null;
  board.drawHint();
  $('[data-role="hint"]').hidden = true;
  action("hint")[0].textContent = "Hint";
}

function afterChange() {
  clearHelp();
  paint();
  refreshChecks();
}

function focusCursor() {
  const inBoard = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board");
  if (inBoard) board.element(cursor).focus();
}

function select(i, { extend = false, toggle = false } = {}) {
  const last = puzzle.size * puzzle.size - 1;
  cursor = Math.max(0, Math.min(last, i));
  if (toggle && selection.has(cursor) && selection.size > 1) selection.delete(cursor);
  else if (extend || toggle) selection.add(cursor);
  else selection = new Set([cursor]);
  paint();
  focusCursor();
}

function onKey(e) {
  if (!game || (e.target instanceof Element && e.target.closest("textarea, input, select, summary"))) return;
  const n = puzzle.size;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (e.key in moves) {
    const r = Math.floor(cursor / n), c = cursor % n;
    const [dr, dc] = moves[e.key];
    select(((r + dr + n) % n) * n + ((c + dc + n) % n), { extend: e.shiftKey });
    e.preventDefault();
    return;
  }
  if (e.key === "Escape") {
    selection = new Set(); // the cursor stays: arrows select from it again
    paint();
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
    if (!game.finished && game.clear([...selection])) afterChange();
    e.preventDefault();
    return;
  }
  if (ctrl && e.key.toLowerCase() === "a" && e.target.closest && e.target.closest("#board")) {
    selection = new Set(game.values.map((_, i) => i));
    paint();
    e.preventDefault();
    return;
  }
  // Digits by their key code, so Shift+1 is still 1; letters A.. for 10 and up.
  let v = null;
  const code = /^(?:Digit|Numpad)(\d)$/.exec(e.code || "");
  if (code) v = Number(code[1]);
  else if (!ctrl && /^[a-pA-P]$/.test(e.key)) v = e.key.toUpperCase().charCodeAt(0) - 55;
  if (v === null || v < 1 || v > n) return;
  const how = e.shiftKey ? "corner" : ctrl || e.altKey ? "centre" : mode;
  enter(v, how);
  e.preventDefault();
}

function undo() {
  if (game && !game.finished && game.undo()) afterChange();
}

function redo() {
  if (game && !game.finished && game.redo()) afterChange();
}

function setMode(name) {
  mode = name;
  action("mode").forEach((x) => x.setAttribute("aria-pressed", String(x.dataset.mode === name)));
}

// --- hints, a little at a time: where to look, then why (drawn), then what it changes ---

const candidate = (text) => {
  const m = /^r(\d+)c(\d+)(=|<>)([0-9A-P])$/.exec(text.trim());
  if (!m) return null;
  const d = /\d/.test(m[4]) ? Number(m[4]) : m[4].charCodeAt(0) - 55;
  return [(Number(m[1]) - 1) * puzzle.size + Number(m[2]) - 1, d, m[3] === "="];
};

// A chain's links: the step's own ("chain": branches of links, nested branches too), or,
// without them, read from its sentence "a -> b -> c".
function linksOf(step) {
  const out = [];
  const walk = (branches) => {
    for (const branch of branches || []) {
      for (const [a, b] of branch.links || []) {
        const [x, y] = [candidate(a), candidate(b)];
        if (x && y) out.push([x, y]);
      }
      walk(branch.nested);
    }
  };
  if (Array.isArray(step.chain) && step.chain.length) walk(step.chain);
  else {
    const body = step.text.slice(step.technique.length + 2).split(" => ")[0];
    const seq = body.split(" -> ").map(candidate);
    if (seq.length > 1 && seq.every(Boolean)) for (let k = 1; k < seq.length; k++) out.push([seq[k - 1], seq[k]]);
  }
  return out;
}

function houseCells(group) {
  const n = puzzle.size;
  const m = /^(row|column|box|region) (\d+)$/.exec(group);
  if (!m) return [];
  const k = Number(m[2]) - 1;
  const all = [...Array(n * n).keys()];
  if (m[1] === "row") return all.filter((i) => Math.floor(i / n) === k);
  if (m[1] === "column") return all.filter((i) => i % n === k);
  const ids = [...new Set(puzzle.regions)]; // regions numbered in reading order
  return all.filter((i) => puzzle.regions[i] === ids[k]);
}

async function hint() {
  if (!game) return;
  if (!hintState) {
    status("Looking for a step…");
    try {
      const found = await ask("/api/hint", { puzzle: puzzle.text, grid: game.values, time_limit: helpLimit() });
      wrong = new Set((found.wrong || []).map(index));
      if (wrong.size) {
        paint();
        status(`Wrong entries: ${[...wrong].map((i) => cellName(i, puzzle.size)).join(", ")}`, "bad");
        return;
      }
      if (found.status === "stuck") {
        status(found.message);
        return;
      }
      if (!found.step) {
        status("No further step found.");
        return;
      }
      hintState = { step: found.step, words: found.words, stage: 0 };
    } catch (err) {
      failed(err);
      return;
    }
  }
  hintState.stage = Math.min(3, hintState.stage + 1);
  showHint();
}

function showHint() {
  const { step, words, stage } = hintState;
  const w = words || { title: step.technique, where: step.technique, plain: step.text, result: step.text, digits: [] };
  const cells = step.cells.map(index);
  const houses = step.groups.flatMap(houseCells);
  hinted = new Set(stage === 1 && houses.length ? houses : cells);
  const parse = (list) => list.map(candidate).filter(Boolean).map(([i, d]) => [i, d]);
  board.drawHint(stage < 2 ? {} : {
    cells, digits: w.digits, links: linksOf(step),
    ...(stage >= 3 ? { placements: parse(step.placements), eliminations: parse(step.eliminations) } : {}),
  });
  $('[data-role="hint-title"]').textContent = w.title;
  const list = $('[data-role="hint-text"]');
  list.replaceChildren();
  for (const line of [w.where, w.plain, w.result].slice(0, stage)) {
    const item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  }
  $('[data-role="hint"]').hidden = false;
  action("hint-more")[0].hidden = stage >= 3;
  action("hint-apply")[0].hidden = stage < 3;
  action("hint")[0].textContent = stage < 3 ? "More" : "Hint";
  status(`Hint ${stage} of 3: ${w.title}`);
  paint();
}

function applyHint() {
  if (!hintState || game.finished) return;
  const parse = (list) => list.map(candidate).filter(Boolean).map(([i, d]) => [i, d]);
  const { step } = hintState;
  if (game.apply(parse(step.placements), parse(step.eliminations))) afterChange();
  else clearHelp();
  status(`Applied: ${step.text}`);
}

// --- checking ---

async function check(submit) {
  try {
    const found = await ask("/api/check", { puzzle: puzzle.text, grid: game.values, solution: true,
      time_limit: helpLimit() });
    wrong = new Set((found.wrong || []).map(index));
    conflicts = new Set(found.conflicts.flatMap((c) => c.cells.map(index)));
    conflictCount = found.conflicts.length;
    paint();
    if (found.solved) {
      const first = !game.finished;
      game.finish();
      if (game.revealed) status("Solved, with the solution revealed.");
      else status(first ? `Solved in ${clock(game.seconds())}. Congratulations!` : "Solved earlier: well done.", "good");
    } else if (found.conflicts.length) {
      status(summary(found.conflicts), "bad");
    } else if (wrong.size) {
      status(`Wrong: ${[...wrong].map((i) => cellName(i, puzzle.size)).join(", ")}`, "bad");
    } else if (!found.wrong) {
      status(`No conflicts; whether an entry is wrong was not settled within ${helpLimit()} s.`);
    } else if (submit) {
      if (found.complete) status("The grid breaks a rule.", "bad");
      else status("Not finished yet: no mistakes so far.");
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
    const r = await ask("/api/rate", { puzzle: puzzle.text, time_limit: helpLimit() });
    const techniques = Object.entries(r.techniques || {}).map(([k, v]) => `${k} ×${v}`).join(", ");
    // no ER when no technique finishes the puzzle: say where the logic stopped instead
    if (r.er === null) status(`Rating: ${r.level} (no technique applies after ${r.steps} steps; hardest step ${r.hardest})`);
    else status(`Rating ER ${r.er} / EP ${r.ep} / ED ${r.ed} (${r.level})${techniques ? ": " + techniques : ""}`);
  } catch (err) {
    failed(err);
  }
}

// --- solve and compare ---

function timeLimit() {
  const input = $('[data-role="time-limit"]');
  const limit = Number(input.value);
  const ok = input.value !== "" && limit >= Number(input.min) && limit <= Number(input.max);
  input.setAttribute("aria-invalid", String(!ok));
  if (!ok) {
    status(`The time limit is ${input.min} to ${input.max} seconds.`, "bad");
    input.focus();
  }
  return ok ? limit : null;
}

async function solve() {
  const asked = current;
  const limit = timeLimit();
  if (limit === null) return;
  const chosen = $('[data-role="backend"]').value;
  const names = chosen === "all" ? backends.filter((b) => b.available).map((b) => b.name) : [chosen];
  const body = $('[data-role="compare"] tbody');
  body.replaceChildren();
  status(`Solving with ${names.join(", ")}…`);
  const rows = names.map((name) => {
    const tr = document.createElement("tr");
    tr.dataset.backend = name;
    for (const text of [name, "…", "", ""]) tr.appendChild(document.createElement("td")).textContent = text;
    body.appendChild(tr);
    return tr;
  });
  const results = await Promise.all(names.map(async (name, k) => {
    const cells = rows[k].children;
    try {
      const r = await ask("/api/solve", { puzzle: puzzle.text, backend: name, max_solutions: 2, time_limit: limit });
      cells[1].textContent = r.status;
      cells[1].title = DID[r.status] || r.status;
      cells[2].textContent = (r.time_s * 1000).toFixed(1);
      cells[3].textContent = r.stats.nodes ?? "";
      return r;
    } catch (err) {
      if (!(err instanceof Stale || aborted(err))) cells[1].textContent = err.message;
      return null;
    }
  }));
  if (asked !== current) return; // another puzzle is on the board now
  const found = results.find((r) => r && r.solutions.length);
  if (found) {
    solution = Array.from(found.solutions[0], (ch) => (/\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 55));
    action("reveal").forEach((b) => (b.disabled = false));
  }
  const { text, bad } = verdict(names, results);
  status(text, bad ? "bad" : "");
}

// What a backend's answer to "at most two solutions" shows.
const DID = {
  unique: "proved the solution unique",
  multiple: "found two solutions",
  unsolvable: "proved there is no solution",
  unproven: "found a solution but did not prove it unique in time",
  solved: "found a solution without looking for another",
  timeout: "found nothing in time",
};
const PROOFS = { unique: "unique solution", multiple: "several solutions", unsolvable: "no solution" };

// The verdict counts only the backends that proved it, and agree on the solution when
// they name one; every other backend is named with what it did.
function verdict(names, results) {
  const proved = names.map((name, k) => [name, results[k]]).filter(([, r]) => r && r.status in PROOFS);
  const claims = new Set(proved.map(([, r]) => (r.status === "unique" ? `unique ${r.solutions[0]}` : r.status)));
  const others = names.map((name, k) => [name, results[k]]).filter(([, r]) => !r || !(r.status in PROOFS))
    .map(([name, r]) => `${name} ${r ? DID[r.status] || r.status : "gave no answer"}`);
  const rest = others.length ? `; ${others.join("; ")}` : "";
  if (!proved.length) return { text: `No backend proved anything: ${others.join("; ")}.`, bad: false };
  if (claims.size > 1) {
    const said = proved.map(([name, r]) => `${name}: ${PROOFS[r.status]}`).join(", ");
    return { text: `The backends disagree: ${said}${rest}.`, bad: true };
  }
  const claim = PROOFS[proved[0][1].status];
  return { text: `${proved.length} of ${names.length} backend(s) proved: ${claim} ` +
    `(${proved.map(([name]) => name).join(", ")})${rest}.`, bad: claim === "no solution" };
}

function reveal() {
  if (solution && !game.finished && game.fill(solution)) {
    afterChange();
    status("Solution revealed.");
  }
}

function restart() {
  if (!game) return;
  game.restart();
  conflicts = new Set();
  conflictCount = 0;
  clearHelp();
  document.body.classList.remove("paused");
  setPauseLabel();
  game.start();
  paint();
  status("Restarted: entries, marks and the clock are cleared.");
  refreshChecks();
}

async function share() {
  if (!puzzle) return;
  const link = await addressOf(puzzle.text);
  const field = $('[data-role="share-link"]');
  field.value = link;
  field.hidden = false;
  field.select();
  try {
    await navigator.clipboard.writeText(link);
    status(`Link copied (${link.length} characters).`);
  } catch {
    status(`Link ready to copy (${link.length} characters).`);
  }
}

// --- the first puzzle: the address's, else the last one played, else a new easy one ---

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.get("p")) {
    let text = null;
    try {
      text = await unpack(params.get("p"));
    } catch {
      status("The link's puzzle could not be read (p= is damaged).", "bad");
      return;
    }
    return loadText(text);
  }
  if (params.get("puzzle")) return loadText(params.get("puzzle"));
  if (params.get("load")) return loadText(`https://f-puzzles.com/?load=${params.get("load")}`);
  let last = null;
  try {
    last = localStorage.getItem(LAST);
    const saved = last && JSON.parse(localStorage.getItem(`cpsudoku:${last}`) || "null");
    if (saved && saved.finished) last = null; // done: a new one instead
  } catch {
    last = null;
  }
  if (last) return loadText(last);
  newPuzzle();
  status("Generating…");
  try {
    await show(await ask("/api/generate", { size: 9, difficulty: "easy", symmetry: "rot180", variant: "classic" }));
  } catch (err) {
    if (err instanceof Stale || aborted(err)) return;
    loadText(EASY[Math.floor(Math.random() * EASY.length)]);
  }
}

// --- wiring ---

async function features() {
  try {
    const [have, list, made] = await Promise.all([call("/api/features"), call("/api/backends"), menu.load()]);
    backends = list;
    const choice = $('[data-role="backend"]');
    for (const b of list.filter((x) => x.available)) {
      const option = document.createElement("option");
      option.value = option.textContent = b.name;
      choice.appendChild(option);
    }
    // Buttons whose server package is absent are disabled, with the reason as their title.
    for (const [name, on] of [["hint", have.hint], ["rate", have.rate], ["new", have.generate && made]]) {
      action(name).forEach((b) => {
        b.disabled = !on;
        if (!on) b.title = "not available in this installation";
      });
    }
  } catch (err) {
    failed(err);
  }
}

// A number setting as the server takes it; the field shows what is used.
function helpLimitOf(input) {
  const limit = Math.round(Number(input.value));
  return Number.isFinite(limit) && input.value !== "" ? Math.min(60, Math.max(1, limit)) : 10;
}

// The board scrolls sideways when its cells at their smallest do not fit (a 16x16 on a
// phone): a sideways swipe then scrolls it instead of selecting.
function fitBoard() {
  const wrap = $(".board-wrap");
  wrap.classList.toggle("scrolls", wrap.scrollWidth > wrap.clientWidth + 1);
}

function setPauseLabel() {
  action("pause")[0].textContent = game && !document.body.classList.contains("paused") ? "Pause" : "Resume";
}

function wire() {
  const svg = $("#board");
  let dragging = false;
  svg.addEventListener("pointerdown", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (!cell || !puzzle) return;
    const i = index(cell.dataset.cell);
    select(i, { toggle: e.ctrlKey || e.metaKey, extend: e.shiftKey });
    dragging = true;
    cell.focus();
    e.preventDefault();
  });
  // Dragging adds every cell passed over to the selection.
  svg.addEventListener("pointermove", (e) => {
    if (!dragging) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const cell = under && under.closest("[data-cell]");
    if (cell && !selection.has(index(cell.dataset.cell))) select(index(cell.dataset.cell), { extend: true });
  });
  window.addEventListener("pointerup", () => (dragging = false));
  svg.addEventListener("focusin", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell && index(cell.dataset.cell) !== cursor) select(index(cell.dataset.cell));
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", fitBoard);
  action("mode").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  action("erase")[0].addEventListener("click", () => game && !game.finished && game.clear([...selection]) && afterChange());
  action("undo")[0].addEventListener("click", undo);
  action("redo")[0].addEventListener("click", redo);
  action("candidates")[0].addEventListener("change", refreshChecks);
  action("hint")[0].addEventListener("click", hint);
  action("hint-more")[0].addEventListener("click", hint);
  action("hint-apply")[0].addEventListener("click", applyHint);
  action("hint-close")[0].addEventListener("click", () => {
    clearHelp();
    paint();
  });
  action("check")[0].addEventListener("click", () => check(false));
  action("submit")[0].addEventListener("click", () => check(true));
  action("rate")[0].addEventListener("click", rate);
  action("solve")[0].addEventListener("click", solve);
  action("reveal")[0].addEventListener("click", reveal);
  action("new")[0].addEventListener("click", () => generate(menu.body()));
  action("load")[0].addEventListener("click", () => loadText($('[data-role="paste"]').value));
  action("restart")[0].addEventListener("click", restart);
  action("share")[0].addEventListener("click", share);
  $('[data-role="file"]').addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) loadText(await file.text());
  });
  for (const box of document.querySelectorAll("[data-setting]")) {
    box.addEventListener("change", () => {
      settings[box.dataset.setting] = box.type === "checkbox" ? box.checked : helpLimitOf(box);
      try {
        localStorage.setItem(SETTINGS, JSON.stringify(settings));
      } catch {
        // storage disabled: the setting holds for this visit
      }
      applySettings();
      paint();
    });
  }
  action("pause")[0].addEventListener("click", () => {
    if (!game || game.finished) return;
    if (game.running()) game.pause();
    else game.start();
    document.body.classList.toggle("paused", !game.running());
    setPauseLabel();
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

applySettings();
wire();
features();
start();
