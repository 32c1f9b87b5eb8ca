"""Runs pencilmark on one puzzle for `cpsudoku.bench.explain`, in whatever Python has
pencilmark installed (cpsudoku does not depend on it, so this file imports nothing of
cpsudoku and is run by path: `PYTHON pencilmark_driver.py < request.json`).

The request is one JSON object: {"fpuzzles": <an f-puzzles puzzle object>,
"max_seconds": <float or null>}. The answer is one JSON line on stdout:
{"read": false, "reason": ...} when pencilmark cannot read the puzzle;
{"read": true, "error": ...} when it reads it and will not rate it (not unique, ...);
else {"read": true, "difficulty", "band", "contains_complete", "steps": [{"code",
"technique", "placement", "eliminations"}], "seconds"}. The seconds count reading and
rating, not starting Python and importing pencilmark.
"""

from __future__ import annotations

import json
import sys
import time


def answer(request: dict) -> dict:
    import pencilmark
    from pencilmark import sources

    started = time.monotonic()
    try:
        # pencilmark's own rate() reads no f-puzzles object: its sources module
        # translates one into pencilmark's puzzle JSON, offline with fetch=False.
        puzzle = sources.load(request["fpuzzles"], fetch=False)
        pencilmark.load(puzzle)
    except Exception as exc:  # any failure to translate is "not read", kept by name
        return {"read": False, "reason": f"{type(exc).__name__}: {exc}"[:300]}
    try:
        card = pencilmark.rate(puzzle, allow_guessing=False, steps=True,
                               max_seconds=request.get("max_seconds"))
    except Exception as exc:  # NotUnique, NoSolution, Undecided, or an engine failure
        return {"read": True, "error": f"{type(exc).__name__}: {exc}"[:300],
                "seconds": time.monotonic() - started}
    seconds = time.monotonic() - started
    steps = [{"code": s.get("code"), "technique": s.get("technique"),
              "placement": s.get("placement"), "eliminations": s.get("eliminations", [])}
             for s in card.get("steps") or []]
    return {"read": True, "difficulty": card.get("difficulty"), "band": card.get("band"),
            "contains_complete": card.get("contains_complete"), "steps": steps,
            "seconds": seconds}


def main() -> int:
    request = json.loads(sys.stdin.read())
    try:
        import pencilmark  # noqa: F401
    except ImportError as exc:
        print(json.dumps({"read": False, "reason": f"pencilmark is not importable: {exc}"}))
        return 0
    print(json.dumps(answer(request)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
