"""One step of a human solving path: what a technique found, in data and in words.

Examples
--------
>>> step = Step("hidden-single-box", 1.2, placements=((2, 4, 7),), houses=("box 2",),
...             text="r3c5 = 7 (hidden single in box 2)")
>>> step.text, step.to_json()["placements"]
('r3c5 = 7 (hidden single in box 2)', [[2, 4, 7]])
>>> eliminations_text(9, [(40, 4), (42, 4), (3, 8)])
'-4 r5c5 r5c7; -8 r1c4'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import cell_text

__all__ = ["Step", "eliminations_text", "Candidate", "make_step", "elimination_step",
           "placement_text"]

#: (row, column, value): 0-based cell, value 1..n
Candidate = tuple[int, int, int]


@dataclass(frozen=True)
class Step:
    """A step: the technique (its registry name), its rating on Sudoku Explainer's scale,
    the values it places and the candidates it removes (``(row, col, value)``, 0-based
    cells), the candidates it reasons on (``pattern``), the units it names and its text in
    the notation people use (1-based)."""

    technique: str
    rating: float
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    pattern: tuple[Candidate, ...] = ()
    houses: tuple[str, ...] = ()
    text: str = field(default="", compare=False)

    def to_json(self) -> dict:
        """The step as plain JSON data."""
        return {"technique": self.technique, "rating": self.rating,
                "placements": [list(p) for p in self.placements],
                "eliminations": [list(e) for e in self.eliminations],
                "pattern": [list(p) for p in self.pattern],
                "houses": list(self.houses), "text": self.text}


def eliminations_text(n: int, removed) -> str:
    """``-4 r5c5 r5c7; -8 r1c4``: removed ``(cell, value)`` pairs grouped by value, in the
    order the values first appear."""
    by_value: dict[int, list[int]] = {}
    for cell, value in removed:
        by_value.setdefault(value, []).append(cell)
    return "; ".join(f"-{value} " + " ".join(cell_text(n, c) for c in sorted(cells))
                     for value, cells in by_value.items())


def make_step(board, technique: str, rating: float, *, place=(), remove=(), pattern=(),
              houses=(), text: str) -> Step:
    """A :class:`Step` from flat ``(cell, value)`` pairs of ``board`` (what finders build)."""
    n = board.n

    def rcv(pairs):
        return tuple(sorted((c // n, c % n, v) for c, v in set(pairs)))
    return Step(technique, round(rating, 1), rcv(place), rcv(remove), rcv(pattern),
                tuple(houses), text)


def elimination_step(board, technique: str, rating: float, remove, pattern, houses,
                     what: str) -> Step:
    """A step that removes candidates: ``WHAT: -v cells`` as its text."""
    remove = sorted(set(remove))
    return make_step(board, technique, rating, remove=remove, pattern=pattern, houses=houses,
                     text=f"{what}: {eliminations_text(board.n, remove)}")


def placement_text(n: int, cell: int, value: int) -> str:
    return f"{cell_text(n, cell)} = {value}"
