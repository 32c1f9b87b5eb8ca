"""A step in plain words, as a player reads a hint: where to look, why, what it changes.

Built from the step's data only (technique, houses, cells, placements, eliminations and
its sentence), so the play page's hints and `explain`'s pretty output say the same thing.
"""

from __future__ import annotations

import re

from .step import Step, cell_name

# "6 in ...", "4,8 in ...", "2/3/6 in ...": the digits a technique is about.
_DIGITS = re.compile(r"^([0-9A-P]+(?:[,/][0-9A-P]+)*) in ")
_FISH = ("X-Wing", "Swordfish", "Jellyfish", "Squirmbag", "Whale", "Leviathan")


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _digit(value: int) -> str:
    return str(value) if value <= 9 else chr(55 + value)


def notation(step: Step) -> str:
    """The step's sentence without its technique's name in front (the page shows the name
    once, as a title)."""
    prefix = f"{step.technique}: "
    return step.text[len(prefix):] if step.text.startswith(prefix) else step.text


def digits(step: Step) -> list[int]:
    """The digits the step is about: those it places, else those its sentence names first
    ("4,8 in r3c4,r3c8"), else those it removes."""
    if step.placements:
        return sorted({v for _, v in step.placements})
    found = _DIGITS.match(notation(step))
    if found:
        return sorted({int(t) if t.isdigit() else ord(t) - 55
                       for t in re.split(r"[,/]", found.group(1))})
    return sorted({v for _, v in step.eliminations})


def result(step: Step) -> str:
    """What the step changes: "Place 6 in r6c3." / "Remove 4 from r6c2 and r6c3."."""
    name = lambda c: cell_name(c, step.size)  # noqa: E731
    parts = [f"place {_digit(v)} in {name(c)}" for c, v in step.placements]
    by_value: dict[int, list[int]] = {}
    for cell, value in step.eliminations:
        by_value.setdefault(value, []).append(cell)
    parts += [f"remove {_digit(v)} from {_join([name(c) for c in sorted(cells)])}"
              for v, cells in sorted(by_value.items())]
    if not parts:
        return "Nothing changes."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def where(step: Step) -> str:
    """The first hint: the technique and where to look, giving nothing else away."""
    name = lambda c: cell_name(c, step.size)  # noqa: E731
    chain = notation(step).split(" => ")[0]
    if " -> " in chain:
        return f"{step.technique}: start from {chain.split(' -> ')[0]}."
    if step.groups:
        place = _join(step.groups)
    elif len(step.cells) == 1:
        place = name(step.cells[0])
    elif step.cells:
        place = _join([name(c) for c in step.cells[:4]]) + (" ..." if len(step.cells) > 4 else "")
    else:
        return f"{step.technique}."
    return f"{step.technique}: look at {place}."


def plain(step: Step) -> str:
    """Why the step holds, in a sentence a player can follow without the notation: the
    step's own reason when its technique gives one (the variant rules show their
    evidence), else one built from the step's data."""
    if step.reason:
        return step.reason
    t = step.technique
    name = lambda c: cell_name(c, step.size)  # noqa: E731
    cells = _join([name(c) for c in step.cells])
    ds = _join([_digit(d) for d in digits(step)])
    house = step.groups[0] if step.groups else ""
    other = step.groups[1] if len(step.groups) > 1 else ""
    chain = notation(step).split(" => ")[0]
    then = result(step)[0].lower() + result(step)[1:]
    if t == "Full House" and step.placements:
        cell, value = step.placements[0]
        return f"Look at {house}: only {name(cell)} is still empty, so it takes {_digit(value)}."
    if t == "Hidden Single" and step.placements:
        cell, value = step.placements[0]
        return f"Look at {house}: {_digit(value)} can only go in {name(cell)}."
    if t == "Naked Single" and step.placements:
        cell, value = step.placements[0]
        return (f"Look at {name(cell)}: its row, column and region already hold every other "
                f"digit, so it can only be {_digit(value)}.")
    if t in ("Pointing", "Claiming") and other:
        return (f"Look at {house}: {ds} can only go in {cells}, all in {other}, so {ds} "
                f"cannot go anywhere else in {other}.")
    if t.startswith("Naked ") and house:
        return (f"Look at {house}: {cells} can only hold {ds} between them, so no other "
                f"cell of {house} can hold {ds}.")
    if t.startswith("Hidden ") and house:
        return (f"Look at {house}: {ds} can only go in {cells}, so those cells hold no "
                f"other digit.")
    if t.split(" (")[0] in _FISH and step.groups:
        return (f"Look at {ds} in {_join(step.groups)}: it can only go in {cells}, so it "
                f"cannot go anywhere else in the lines that cross them.")
    if " -> " in chain:
        return f"Follow the chain {chain}: each link forces the next, so {then}"
    if chain.endswith(" leads to a contradiction"):
        return f"Suppose {chain[:-len(' leads to a contradiction')]}: that breaks a rule, so {then}"
    if chain.startswith("each place of "):
        digit, _, house = chain[len("each place of "):].partition(" in ")
        return f"Wherever {digit} goes in {house}, the same follows: {then}"
    if chain.startswith("each candidate of "):
        return f"Whatever {chain[len('each candidate of '):]} holds, the same follows: {then}"
    if chain.endswith(" both"):
        return f"Whether {chain[:-len(' both')].replace(' and ', ' or ')}, the same follows: {then}"
    if cells:
        return f"Look at {cells}: {chain}, so {then}"
    return f"{notation(step)}."


def describe(step: Step) -> dict:
    """Everything a hint shows, stage by stage: the title, where to look, the digits and
    cells involved, why, and what it changes (the page draws the chain's links, when the
    step has them, from the step itself)."""
    return {
        "title": step.technique,
        "where": where(step),
        "digits": digits(step),
        "plain": plain(step),
        "result": result(step),
        "notation": notation(step),
    }
