"""The size of an encoding computed from the instance's shape, before it is built.

Used by the encoders to refuse what cannot fit in memory (:func:`sudokit.resources.check_fits`)
with the size of a smaller choice. The counts are exact for the non-reduced grid encodings with
``pairwise`` and ``seqcounter`` at-most-one constraints and upper bounds otherwise (``reduced``
counts free cells only, not the values the givens rule out; PySAT's encodings are bounded by
``O(w log w)`` per group).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> empty = sudoku(np.zeros((9, 9), dtype=int))
>>> completion_cnf_size(empty, "minimal", "pairwise").clauses   # 81 + 3*81*36
8829
>>> completion_cnf_size(empty, "extended", "pairwise").clauses
11988
"""

from __future__ import annotations

import math

import numpy as np

from ..resources import Size

__all__ = ["amo_size", "completion_cnf_size", "completion_xc_size"]


def amo_size(width: np.ndarray, method: str, times: int = 1) -> Size:
    """Clauses, literals and auxiliary variables of at-most-one over groups of ``width``, each
    group ``times`` times (as ``np.repeat(width, times)``, without building that array)."""
    w = np.asarray(width, dtype=np.int64)
    w = w[w >= 2]
    if method == "pairwise":
        pairs = int((w * (w - 1) // 2).sum()) * times
        return Size(0, pairs, 2 * pairs)
    if method == "seqcounter":
        long = w[w > 2]
        clauses = (int((3 * long - 4).sum()) + int((w == 2).sum())) * times
        return Size(int((long - 1).sum()) * times, clauses, 2 * clauses)
    logs = np.ceil(np.log2(w + 1)).astype(np.int64)
    clauses = int((3 * w * logs).sum()) * times
    return Size(int((w * logs).sum()) * times, clauses, 3 * clauses)


def _alo_size(count: int, width: int) -> Size:
    return Size(0, int(count), int(count) * int(width))


def completion_cnf_size(problem, encoding: str, amo: str) -> Size:
    """The size of ``completion_to_cnf(problem, encoding, amo)``, from shapes only."""
    k = problem.num_values
    free = problem.flat_givens == 0 if encoding == "reduced" else None
    cells = int(free.sum()) if free is not None else problem.num_cells
    size = Size(variables=cells * k) + _alo_size(cells, k)            # cell definedness
    if encoding != "minimal":
        size = size + amo_size(np.full(cells, k), amo)                    # cell uniqueness
    for _kind, units in problem.unit_groups():
        if len(units) == 0:
            continue
        width = (free[units].sum(axis=1) if free is not None
                 else np.full(len(units), units.shape[1]))
        size = size + amo_size(width, amo, times=k)                       # unit uniqueness
        if encoding in ("extended", "reduced") and units.shape[1] == k:   # unit definedness
            size = size + Size(0, len(units) * k, int(width.sum()) * k)
    givens = 0 if encoding == "reduced" else int(np.count_nonzero(problem.flat_givens))
    return size + Size(0, givens, givens)


def completion_xc_size(problem, encoding: str) -> Size:
    """An upper bound on the entries of ``completion_to_exact_cover(problem, encoding)``."""
    k = problem.num_values
    cells = int(np.count_nonzero(problem.flat_givens == 0)) if encoding == "reduced" \
        else problem.num_cells
    per_cell = 1 + sum(units.shape[0] * units.shape[1] for _, units in problem.unit_groups()
                       ) / max(problem.num_cells, 1)
    return Size(entries=math.ceil(cells * k * per_cell))
