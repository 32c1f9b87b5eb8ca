"""Text output for the logical solver: the candidate grid and one line per step or rating."""

from __future__ import annotations

from ..grid.symbols import ALPHABET
from .state import State, bit_values


def candidate_grid(state: State, region_of) -> str:
    """Every cell as its value (placed) or its candidates, with lines between regions."""
    n = state.size
    sym = (lambda v: ALPHABET[v - 1]) if n <= len(ALPHABET) else str  # noqa: E731
    texts = [sym(v) if v else "".join(sym(x) for x in bit_values(m)) or "-"
             for v, m in zip(state.values, state.cand)]
    width = max(len(t) for t in texts)
    lines = []
    for r in range(n):
        parts = []
        for c in range(n):
            cell = r * n + c
            if c and region_of[cell] != region_of[cell - 1]:
                parts.append("|")
            parts.append(texts[cell].ljust(width))
        line = " ".join(parts)
        if r and any(region_of[r * n + c] != region_of[(r - 1) * n + c] for c in range(n)) \
                and all(region_of[r * n + c] != region_of[(r - 1) * n + c] for c in range(n)):
            lines.append("".join("+" if ch == "|" else "-" for ch in line))
        lines.append(line)
    return "\n".join(lines)

