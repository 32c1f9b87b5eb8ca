"""The Python API in a few lines: parse, solve on two backends, check, count."""

from cpsudoku import count, is_solution, parse_one, solve
from cpsudoku.formats.write import pretty

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."

puzzle = parse_one(INKALA)
for backend in ("native", "cpsat"):
    result = solve(puzzle, backend=backend, max_solutions=2, time_limit=10)
    assert is_solution(puzzle, result.solution)  # the independent checker
    print(f"{backend:>8}: {result.status.value}, {result.time_s * 1000:.1f} ms, {result.stats}")

print(pretty(result.solution, puzzle.geometry))
print("one clue fewer:", count(INKALA.replace("8", ".", 1), limit=3).status.value)
