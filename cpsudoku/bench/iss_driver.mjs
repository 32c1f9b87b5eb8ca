// Times the Interactive Sudoku Solver (ISS) headless in Node, for `python -m cpsudoku.bench.iss`.
//
// Usage: node iss_driver.mjs <path to an ISS checkout>
// Reads one JSON object a line on stdin, {"id": ..., "input": "<ISS constraint string>"},
// and writes one a line on stdout: {"id", "count" (solutions found, at most 2),
// "solution" (the first, row-major values), "ms" (parse + build + search), "error"}.
// ISS's own code stays in the checkout; this file only loads its modules.

import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
if (!root) {
  console.error('usage: node iss_driver.mjs <path to an ISS checkout>');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(root, path)).href + (globalThis.self?.VERSION_PARAM ?? ''));

const env = await import(pathToFileURL(join(root, 'tests/helpers/test_env.js')).href);
env.ensureGlobalEnvironment();
const { SudokuParser } = await load('js/sudoku_parser.js');
const { SudokuBuilder } = await load('js/solver/sudoku_builder.js');
const { LookupTables } = await load('js/solver/lookup_tables.js');

const solve = (input) => {
  const started = performance.now();
  const constraint = SudokuBuilder.resolveConstraint(SudokuParser.parseText(input));
  const internal = SudokuBuilder.build(constraint)._internalSolver;
  let count = 0;
  let first = null;
  internal.run({ maxSolutions: 2 }, (grid) => {
    count++;
    if (first === null) first = grid.slice();
  });
  const ms = performance.now() - started;
  const geometry = internal._geometry;
  const solution = first === null ? null : Array.from(
    { length: geometry.numGridCells },
    (_, cell) => LookupTables.toOffsetValue(first[cell], geometry.valueOffset));
  return { count, solution, ms };
};

console.log(JSON.stringify({ ready: true }));
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, input } = JSON.parse(line);
  let answer;
  try {
    answer = { id, ...solve(input) };
  } catch (err) {
    answer = { id, error: String(err?.message ?? err).split('\n')[0] };
  }
  console.log(JSON.stringify(answer));
}
