"""Sudoku grids by bands (Felgenhauer & Jarvis 2005; Pettersen and Russell for rectangular
boxes): fix the first box, list the first band's completions, reduce them to classes, count
one completion per class with the engines.

A grid of ``r x c`` boxes (``n = r c``) has ``c`` bands of ``r`` rows; its transpose is a
grid of ``c x r`` boxes, so both shapes have the same number of grids, and the count runs on
the shape with fewer bands (``r >= c``): a 6x6 grid of 2x3 boxes is counted as one of 3x2
boxes, an 8x8 of 2x4 as one of 4x2 boxes.

1. **First box.** Relabelling the symbols (``n!`` ways) puts ``1 .. n`` in the first box row
   by row, once for every grid: ``#grids = n! x #grids with that first box``.
2. **First band.** Its other boxes are listed with their top rows increasing and the boxes
   ordered by their top-left cell; sorting the columns inside each box and the boxes
   maps ``(c!)^(r-1) (r-1)!`` completions onto each one listed.
3. **Classes.** Permuting the band's rows, the columns inside a box, the boxes, and
   relabelling keep the number of ways to fill the rows below (which see only the set of
   symbols in each column of the band). A completion's class is the least of its
   normalised images (:func:`canonical_keys`: each box put first, its columns in each
   order, the rows in each order, relabelled so that the first box reads ``1 .. n``, the
   other boxes sorted); members of one class have the same number of completions.
4. **Counts.** The grid with the class's least member as its first band is counted by the
   engines (DLX or the CP kernels) and ``#grids = n! x sum(size x completions)``. A grid
   of three bands (9x9) has billions of completions per class; they are counted from a
   table of bands by column sets instead (:mod:`~sudokit.counting.band_tables`), which the
   tests check against the engines on 6x6 grids of 2x3 boxes.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> result = count(sudoku(np.zeros((4, 4), dtype=int)))
>>> result.count, [(c.size, c.completions) for c in result.decomposition.classes]
(288, [(2, 2), (2, 4)])
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from functools import cache
from itertools import permutations, product
from typing import Any

import numpy as np

from ..instances import sudoku
from ..problems import problem_kind
from ..solvers.budget import UNLIMITED, Budget
from .band_tables import COLUMNS, band_table, completions
from .base import CountResult
from .completions import Mapper, Progress, count_completions
from .methods import ClassCount, Decomposition

__all__ = ["BandClasses", "band_classes", "canonical_keys", "column_set_keys", "column_sets",
           "count", "first_bands", "oriented", "refusal", "table_completions", "uses_table"]


def refusal(instance: Any) -> str | None:
    """Why ``bands`` does not count ``instance``: not a plain Sudoku with boxes, not empty."""
    kind = problem_kind(instance)
    if kind.family != "grid" or "box" not in kind.options:
        return "it counts Sudoku grids only"
    if instance.variants or instance.box is None:
        shown = ", ".join(instance.variants) or "boxless"
        return f"it counts plain Sudoku grids with boxes, not {shown} ones"
    if min(instance.box) < 2:
        return "boxes with a side of 1 make it a Latin square: --problem latin counts it"
    if np.count_nonzero(instance.givens):
        return "it counts empty grids only"
    return None


def oriented(box: tuple[int, int]) -> tuple[int, int]:
    """The box shape counted: ``box`` or its transpose, whichever has fewer bands.

    Examples
    --------
    >>> oriented((2, 3)), oriented((3, 2)), oriented((3, 3))
    ((3, 2), (3, 2), (3, 3))
    """
    rows, cols = box
    return (rows, cols) if rows >= cols else (cols, rows)


def first_bands(r: int, c: int) -> np.ndarray:
    """The first band's completions listed (see the module, step 2), as an
    ``(M, r, n)`` int8 array; the first box reads ``1 .. n`` row by row.

    Examples
    --------
    >>> first_bands(2, 2).tolist()
    [[[1, 2, 3, 4], [3, 4, 1, 2]], [[1, 2, 3, 4], [3, 4, 2, 1]]]
    >>> len(first_bands(3, 3))   # Felgenhauer & Jarvis: 2,612,736 / (6^2 x 2)
    36288
    """
    n = r * c
    band = np.zeros((r, n), dtype=np.int8)
    band[:, :c] = np.arange(1, n + 1).reshape(r, c)
    cells = [(i, j) for i in range(r) for j in range(c, n)]
    found: list[np.ndarray] = []
    full = (1 << (n + 1)) - 2
    rows = [full & ~_mask(band[i, :c]) for i in range(r)]
    boxes = [full] * r
    boxes[0] = 0
    _extend(band, cells, 0, rows, boxes, c, found)
    return np.array(found, dtype=np.int8).reshape(-1, r, n)


def _mask(values: Any) -> int:
    return sum(1 << int(v) for v in values)


def _extend(band: np.ndarray, cells: list[tuple[int, int]], at: int, rows: list[int],
            boxes: list[int], c: int, found: list[np.ndarray]) -> None:
    """Fill ``cells[at:]`` every way (rows and boxes all-different, the listed order)."""
    if at == len(cells):
        found.append(band.copy())
        return
    i, j = cells[at]
    b = j // c
    free = rows[i] & boxes[b]
    low = _lower_bound(band, i, j, c)
    while free:
        bit = free & -free
        free ^= bit
        value = bit.bit_length() - 1
        if value <= low:
            continue
        band[i, j] = value
        rows[i] ^= bit
        boxes[b] ^= bit
        _extend(band, cells, at + 1, rows, boxes, c, found)
        rows[i] ^= bit
        boxes[b] ^= bit
    band[i, j] = 0


def _lower_bound(band: np.ndarray, i: int, j: int, c: int) -> int:
    """The value the top row's cell ``j`` must exceed: the cell before it in its box, or
    for a box's first cell the previous box's first cell (0 elsewhere: no bound)."""
    if i:
        return 0
    if j % c:
        return int(band[0, j - 1])
    return int(band[0, j - c]) if j > c else 0


def canonical_keys(bands: np.ndarray, r: int, c: int) -> np.ndarray:
    """The least normalised image of each band (see the module, step 3): ``(M, r, n)``.

    Examples
    --------
    >>> keys = canonical_keys(first_bands(3, 2), 3, 2)
    >>> len(keys), len(np.unique(keys, axis=0))
    (80, 11)
    """
    best: np.ndarray | None = None
    for first in range(r):
        for columns in permutations(range(c)):
            for order in permutations(range(r)):
                image = _normalised(bands, r, c, first, columns, order)
                best = image if best is None else _least(best, image)
    assert best is not None  # r >= 1
    return best


def _normalised(bands: np.ndarray, r: int, c: int, first: int, columns: tuple[int, ...],
                order: tuple[int, ...]) -> np.ndarray:
    """Box ``first`` (its columns in ``columns`` order) moved to the front, the rows in
    ``order``, relabelled so that the first box reads ``1 .. n``, the other boxes' columns
    sorted by their top cell and the boxes by their top-left cell."""
    m, n = len(bands), r * c
    boxes = bands[:, list(order), :].reshape(m, r, r, c)        # [band, row, box, column]
    front = boxes[:, :, first, :][:, :, list(columns)].reshape(m, n)
    relabel = np.zeros((m, n + 1), dtype=np.int8)
    relabel[np.arange(m)[:, None], front] = np.arange(1, n + 1, dtype=np.int8)
    rest = boxes[:, :, [b for b in range(r) if b != first], :]
    rest = relabel[np.arange(m)[:, None, None, None], rest]
    within = np.argsort(rest[:, 0], axis=-1)                      # [band, box, column]
    rest = np.take_along_axis(rest, within[:, None, :, :], axis=3)
    between = np.argsort(rest[:, 0, :, 0], axis=-1)               # [band, box]
    rest = np.take_along_axis(rest, between[:, None, :, None], axis=2)
    image = np.empty((m, r, n), dtype=np.int8)
    image[:, :, :c] = np.arange(1, n + 1, dtype=np.int8).reshape(r, c)
    image[:, :, c:] = rest.reshape(m, r, n - c)
    return image


def _least(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row, the lexicographically lesser of ``a`` and ``b`` (flattened)."""
    fa, fb = a.reshape(len(a), -1), b.reshape(len(b), -1)
    differ = fa != fb
    at = np.argmax(differ, axis=1)
    rows = np.arange(len(a))
    smaller = differ.any(axis=1) & (fb[rows, at] < fa[rows, at])
    out = a.copy()
    out[smaller] = b[smaller]
    return out


class BandClasses:
    """The classes of the first band of ``r x c`` boxes: ``keys`` (``(K, r, n)``: a member
    of each), ``sizes`` (how many completions of the band with its first box fixed fall in
    each class) and ``of_listed`` (the class of each band :func:`first_bands` lists)."""

    def __init__(self, r: int, c: int, keys: np.ndarray, sizes: list[int],
                 of_listed: np.ndarray):
        self.r, self.c, self.keys, self.sizes = r, c, keys, sizes
        self.of_listed = of_listed

    def grids(self) -> Iterator[Any]:
        """Each class's grid to complete: its first band, the rest empty."""
        n = self.r * self.c
        for key in self.keys:
            grid = np.zeros((n, n), dtype=np.int64)
            grid[:self.r] = key
            yield sudoku(grid, (self.r, self.c))


def column_sets(bands: np.ndarray, r: int, c: int) -> np.ndarray:
    """The set of symbols in each column of each band, as bit masks (bit ``v`` for symbol
    ``v``), the columns of each box sorted: ``(M, n)`` int64. The rows below a band see
    only these (step 3).

    Examples
    --------
    >>> column_sets(first_bands(2, 2), 2, 2).tolist()
    [[10, 20, 10, 20], [10, 20, 12, 18]]
    """
    masks = np.bitwise_or.reduce(np.int64(1) << bands.astype(np.int64), axis=1)
    return np.sort(masks.reshape(len(bands), r, c), axis=-1).reshape(len(bands), r * c)


def column_set_keys(columns: np.ndarray, r: int, c: int) -> np.ndarray:
    """The least image of each band's column sets (:func:`column_sets`, ``(M, n)``) under
    relabelling and permuting the columns and the boxes: ``(M, r - 1)``, each other box's
    column sets as one number, after some box's were relabelled onto the first box's
    (every box, every order of its columns, every bijection within each column).
    Bands with one key have the same completions (they see the same column sets up to
    those symmetries).

    Examples
    --------
    >>> bands = first_bands(3, 2)
    >>> len(np.unique(column_set_keys(column_sets(bands, 3, 2), 3, 2), axis=0))
    4
    """
    n = r * c
    stacks = columns.reshape(len(columns), r, c)
    target = np.arange(1, n + 1).reshape(r, c).T                  # [column, row]
    best: np.ndarray | None = None
    within = list(product(*(list(permutations(range(r))) for _ in range(c))))
    for first in range(r):
        rest = [s for s in range(r) if s != first]
        for order in permutations(range(c)):
            symbols = [_symbols(stacks[:, first, j], n, r) for j in order]   # (M, r) each
            for bijection in within:
                relabel = np.zeros((len(columns), n + 1), dtype=np.int64)
                for j, (held, image) in enumerate(zip(symbols, bijection, strict=True)):
                    relabel[np.arange(len(columns))[:, None], held] = target[j][list(image)]
                key = _stack_keys(_relabel_masks(stacks[:, rest], relabel), n)
                best = key if best is None else _least(best, key)
    assert best is not None
    return best


def _symbols(masks: np.ndarray, n: int, r: int) -> np.ndarray:
    """The ``r`` symbols of each mask, in increasing order: ``(M, r)``."""
    bits = (masks[:, None] >> np.arange(n + 1)) & 1
    return np.nonzero(bits)[1].reshape(len(masks), r)


def _relabel_masks(masks: np.ndarray, relabel: np.ndarray) -> np.ndarray:
    """Masks ``(M, ...)`` with symbol ``v`` of row ``m`` replaced by ``relabel[m, v]``."""
    out = np.zeros(masks.shape, dtype=np.int64)
    shape = (len(masks),) + (1,) * (masks.ndim - 1)
    for v in range(1, relabel.shape[1]):
        out |= ((masks >> v) & 1) << relabel[:, v].reshape(shape)
    return out


def _stack_keys(stacks: np.ndarray, n: int) -> np.ndarray:
    """Each stack's column sets (``(M, k, c)`` masks) as one number, the columns in order,
    then the stacks sorted: ``(M, k)``."""
    ordered = np.sort(stacks, axis=-1)
    width = n + 1
    packed = np.zeros(ordered.shape[:2], dtype=np.int64)
    for j in range(ordered.shape[-1]):
        packed = packed << width | ordered[..., j]
    return np.sort(packed, axis=-1)


def band_classes(r: int, c: int) -> BandClasses:
    """The classes of the first band of ``r x c`` boxes (see the module, steps 2 and 3):
    bands with the same column sets (:func:`column_sets`) are counted together, one of
    them canonicalised (:func:`canonical_keys`), and the classes whose members' column sets
    have one key (:func:`column_set_keys`) joined.

    Examples
    --------
    >>> classes = band_classes(2, 2)
    >>> classes.sizes, sum(classes.sizes)      # 2x2 boxes: 4 first-band completions
    ([2, 2], 4)
    """
    listed = first_bands(r, c)
    _, first, group, members = np.unique(column_sets(listed, r, c), axis=0,
                                         return_index=True, return_inverse=True,
                                         return_counts=True)
    keys, which = np.unique(canonical_keys(listed[first], r, c), axis=0, return_inverse=True)
    _, kept, merged = np.unique(column_set_keys(column_sets(keys, r, c), r, c), axis=0,
                                return_index=True, return_inverse=True)
    keys, which = keys[kept], merged.reshape(-1)[which.reshape(-1)]
    counts = np.bincount(which, weights=members, minlength=len(keys))
    each = math.factorial(c) ** (r - 1) * math.factorial(r - 1)
    sizes = [int(k) * each for k in counts.round().astype(np.int64)]
    return BandClasses(r, c, keys, sizes, which.reshape(-1)[group.reshape(-1)])


def count(instance: Any, budget: Budget = UNLIMITED, solver: str | None = None,
          checkpoint: str | None = None, mapper: Mapper | None = None,
          progress: Progress | None = None) -> CountResult:
    """The number of Sudoku grids of the empty ``instance``'s shape (see the module), with
    its :class:`~sudokit.counting.methods.Decomposition`.

    Parameters
    ----------
    budget : Budget
        Its ``seconds`` bound the whole count (past it: ``unknown``).
    solver : str, optional
        The engine that counts each class's completions (default ``takano``; ``dlx`` too);
        three-band shapes up to 9x9 are completed by :mod:`~sudokit.counting.band_tables`.
    checkpoint : str, optional
        A file that keeps each class's completions counted by the engines, read back by a
        count run again (:class:`~sudokit.counting.completions.Checkpoint`).
    mapper : callable, optional
        Counts the classes elsewhere (Dask workers; :data:`~.completions.Mapper`); the
        band table's counts stay here.
    progress : callable, optional
        Told ``(classes done, classes)`` as the engines count the classes (not the band
        table's, which come at once).
    """
    start = time.monotonic()
    r, c = oriented(instance.box)
    classes = band_classes(r, c)
    left = None if budget.seconds is None else budget.seconds - (time.monotonic() - start)
    if uses_table(r, c):
        counts: list[int] | None = table_completions(classes, budget, start)
        engine = "the band table (sudokit.counting.band_tables)"
    else:
        found = count_completions(list(classes.grids()), solver, Budget(seconds=left),
                                  checkpoint, mapper, progress)
        counts, engine = found.counts, found.engine
    seconds = time.monotonic() - start
    if counts is None:
        return CountResult("unknown", None, seconds=seconds)
    rows = tuple(ClassCount(str(i + 1), size, k) for i, (size, k) in enumerate(
        zip(classes.sizes, counts, strict=True)))
    decomposition = Decomposition("bands", _what(instance.box, r, c, classes),
                                  rows, math.factorial(r * c), engine)
    total = decomposition.total
    return CountResult("sat" if total else "unsat", total, seconds=seconds,
                       decomposition=decomposition)


def uses_table(r: int, c: int) -> bool:
    """Whether the grid of ``r x c`` boxes (as counted) is completed by the band table:
    three bands of at most three rows (:mod:`~sudokit.counting.band_tables`)."""
    return c == COLUMNS and r <= 3


def table_completions(classes: BandClasses, budget: Budget = UNLIMITED,
                      start: float | None = None) -> list[int] | None:
    """Each class's completions by the band table (a three-band shape, :func:`uses_table`),
    or None when ``budget.seconds`` (counted from ``start``) runs out first."""
    start = time.monotonic() if start is None else start
    table = _table(classes.r)
    found = []
    for key in classes.keys:
        if budget.seconds is not None and time.monotonic() - start > budget.seconds:
            return None
        found.append(completions(key, classes.r, table))
    return found


@cache
def _table(r: int) -> np.ndarray:
    return band_table(first_bands(r, COLUMNS), r)


def _what(box: tuple[int, int], r: int, c: int, classes: BandClasses) -> str:
    n = r * c
    turned = "" if (r, c) == tuple(box) else f", counted as its transpose ({r}x{c} boxes)"
    return (f"{n}x{n} grids of {box[0]}x{box[1]} boxes{turned} = {n}! x the grids with the "
            f"first box fixed; classes: its {sum(classes.sizes)} first-band completions up "
            "to row, column, box and symbol permutations")
