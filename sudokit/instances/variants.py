"""Sudoku and Latin square variants: each one a name and the extra units it adds.

DESIGN.md's promise made concrete: a variant is a new unit list, not a new encoder. A grid
with variants has its rows, columns (and boxes), then each variant's units in the order the
variants are named; every encoder and every engine that reads :meth:`GridPuzzle.units` solves
it as it is. Variants combine (``("diagonal", "windoku")``).

- ``diagonal`` (X-Sudoku; for a Latin square, a *diagonal Latin square*): both main diagonals
  all-different.
- ``windoku`` (hyper Sudoku): the boxes' shape again, offset by one cell from the edge and
  from each other (the four extra windows of a 9x9).
- ``dg`` (Sudoku-DG, "colored" Sudoku): the cells at the same position in their boxes.
- ``jigsaw``: irregular regions from a region map (:mod:`~sudokit.instances.jigsaw`) in
  place of the boxes; the grid carries the map (``GridPuzzle.regions``).

Examples
--------
>>> variant_units("diagonal", 4, None).tolist()
[[0, 5, 10, 15], [3, 6, 9, 12]]
>>> variant_units("windoku", 9, (3, 3))[0].tolist()
[10, 11, 12, 19, 20, 21, 28, 29, 30]
>>> variant_units("dg", 4, (2, 2))[0].tolist()
[0, 2, 8, 10]
>>> parse_variants("X, windoku")
('diagonal', 'windoku')
>>> variant_units("jigsaw", 2, None, np.array([[0, 0], [1, 1]])).tolist()
[[0, 1], [2, 3]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import InstanceError

__all__ = ["Variant", "VARIANTS", "ALIASES", "NONE_NAMES", "parse_variants", "variant_units",
           "variant_names"]


@dataclass(frozen=True)
class Variant:
    """One variant: its units for a side ``n`` and box shape (None for a Latin square)."""

    name: str
    description: str
    unit_kind: str                   #: what one of its units is called in messages
    needs_box: bool
    build: Callable[[int, tuple[int, int] | None, np.ndarray | None], np.ndarray]
    needs_regions: bool = False      #: the grid's own region map (jigsaw)


Box = tuple[int, int] | None


def _diagonals(n: int, box: Box, regions: np.ndarray | None) -> np.ndarray:
    k = np.arange(n)
    return np.stack([k * n + k, k * n + (n - 1 - k)])


def _windows(n: int, box: Box, regions: np.ndarray | None) -> np.ndarray:
    assert box is not None
    r, c = box
    tops = range(1, n - r, r + 1)
    lefts = range(1, n - c, c + 1)
    rows, cols = np.indices((r, c))
    units = [((top + rows) * n + left + cols).reshape(-1) for top in tops for left in lefts]
    return np.array(units, dtype=np.int64).reshape(-1, n)


def _positions(n: int, box: Box, regions: np.ndarray | None) -> np.ndarray:
    assert box is not None
    r, c = box
    cells = np.arange(n * n).reshape(n // r, r, n // c, c)   # band, row in box, stack, col
    return cells.transpose(1, 3, 0, 2).reshape(n, n)


def _regions(n: int, box: Box, regions: np.ndarray | None) -> np.ndarray:
    assert regions is not None
    return np.argsort(regions.reshape(-1), kind="stable").reshape(n, n)


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("jigsaw", "Jigsaw: irregular regions from a region map in place of the boxes",
            "region", False, _regions, needs_regions=True),
    Variant("diagonal", "X-Sudoku / diagonal Latin square: both main diagonals all-different",
            "diagonal", False, _diagonals),
    Variant("windoku", "Windoku (hyper): extra box-shaped windows, one cell in from the edges",
            "window", True, _windows),
    Variant("dg", "Sudoku-DG (colored): the cells at one position of every box",
            "position", True, _positions),
)}

#: what a header line says for the classic puzzle (no variant)
NONE_NAMES = ("none", "classic")

#: other names people use
ALIASES = {"x": "diagonal", "x-sudoku": "diagonal", "diagonal-latin": "diagonal",
           "hyper": "windoku", "colored": "dg", "sudoku-dg": "dg", "irregular": "jigsaw"}


def parse_variants(text: str | Iterable[str] | None) -> tuple[str, ...]:
    """Variant names (commas or spaces between them, aliases allowed) in canonical order,
    each once; InstanceError naming the known ones for an unknown name."""
    if text is None:
        return ()
    parts = text.replace(",", " ").split() if isinstance(text, str) else \
        [p for item in text for p in str(item).replace(",", " ").split()]
    names = set()
    for part in parts:
        name = ALIASES.get(part.lower(), part.lower())
        if name in NONE_NAMES:
            continue
        if name not in VARIANTS:
            raise InstanceError(f"unknown variant {part!r}; expected one of "
                                + ", ".join(VARIANTS))
        names.add(name)
    return tuple(name for name in VARIANTS if name in names)


def variant_units(name: str, n: int, box: Box, regions: np.ndarray | None = None
                  ) -> np.ndarray:
    """The units variant ``name`` adds to an ``n x n`` grid with ``box`` (and, for jigsaw,
    the ``(n, n)`` region map ``regions``, region numbers ``0..n-1``), ``(k, n)`` cells."""
    variant = VARIANTS[name]
    if variant.needs_box and box is None:
        what = "a jigsaw has regions instead" if regions is not None else \
            "a Latin square has none"
        raise InstanceError(f"the {name} variant needs boxes; {what}")
    if variant.needs_regions and regions is None:
        raise InstanceError(f"the {name} variant needs a region map (a 'regions:' line or a "
                            "second grid of region symbols after the puzzle)")
    units = variant.build(n, box, regions).astype(np.int64)
    if name == "windoku" and not len(units):
        raise InstanceError(f"boxes {box} leave no room for windoku windows in a "
                            f"{n}x{n} grid")
    return units.reshape(-1, n)


def variant_names() -> list[str]:
    """Every name ``--variant`` takes: the variants and their aliases.

    Examples
    --------
    >>> "x" in variant_names() and "jigsaw" in variant_names()
    True
    """
    return list(VARIANTS) + sorted(ALIASES)
