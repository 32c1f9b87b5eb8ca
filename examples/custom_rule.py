"""A new variant rule in a few lines of Python, solved by every backend.

A rule is any object with a `name` and `constraints(geometry)` yielding
constraints of the shared vocabulary (cpsudoku.grid.constraints); no backend changes.
"""

from cpsudoku import count, is_solution, parse_one, rules, solve
from cpsudoku.formats.write import pretty
from cpsudoku.grid.constraints import Less


class RisingDiagonal:
    """Digits strictly increase along the falling diagonal, r1c1 to r9c9."""

    name = "rising-along-diagonal"

    def describe(self):
        return self.__doc__

    def constraints(self, geometry):
        n = geometry.size
        yield Less(tuple(i * n + i for i in range(n)), label="increasing diagonal")


rules.register(RisingDiagonal())  # now also usable by name, e.g. rules.by_names(...)

GRID = ".7..9......6....3...321.....9.....2.........1....8..7...8...7...1.5.42.....1..5.."
plain = parse_one(GRID)
puzzle = plain.with_rules(rules.by_names("rising-along-diagonal"))

print("without the rule:", count(plain, "native").status.value)
for backend in ("native", "cpsat", "python-constraint"):
    result = solve(puzzle, backend, max_solutions=2, time_limit=60)
    assert result.status.value == "unique" and is_solution(puzzle, result.solution)
    print(f"with the rule, {backend:>17}: {result.status.value}, {result.time_s * 1000:.1f} ms")
print(pretty(result.solution, puzzle.geometry))
