"""A chain step's chains as data: the implications from each assumption to its conclusion.

A branch is one chain: `text` reads along its main line (`r8c7=7 -> r8c3<>7 ->
r8c3=4`), `links` are every implication behind the conclusion (a single that needs
several candidates gone has a link from each), and `nested` holds the branches of
the inner chains whose eliminations the chain used, so a nested forcing chain reads
as its outer chain with the inner ones indented below it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .step import cell_name

Lit = tuple[int, int]  # (cell, value)


def literal_text(lit: Lit, is_on: bool, size: int) -> str:
    return f"{cell_name(lit[0], size)}{'=' if is_on else '<>'}{lit[1]}"


@dataclass
class Branch:
    text: str
    links: list[tuple[str, str]]
    nested: list[Branch] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"text": self.text, "links": [list(link) for link in self.links],
                "nested": [b.as_dict() for b in self.nested]}

    def lines(self, indent: str = "") -> list[str]:
        """The branch and its inner chains, one per line, the inner ones indented."""
        out = [indent + self.text]
        for inner in self.nested:
            out += inner.lines(indent + "    ")
        return out


def path_branch(names: list[str]) -> Branch:
    """A chain that is one line of implications, given as its literals' names."""
    return Branch(" -> ".join(names), list(zip(names, names[1:])))


def chain_lines(chain: list[Branch], indent: str = "") -> list[str]:
    return [line for branch in chain for line in branch.lines(indent)]
