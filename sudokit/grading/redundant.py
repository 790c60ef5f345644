"""The redundant constraints of Simonis (2005), section 5, as propagators on top of HAC.

``S`` -- "same" (HACS)
    A line (row or column) and a box that meet: the line's cells outside the box and the box's
    cells outside the line hold the same *set* of values (both are the complement of the values
    in the shared cells). Propagated by value support: a value no cell of one side can take is
    removed from the other side (this is the pointing / claiming "locked candidates" rule),
    and fewer common values than cells on a side is a failure. Beldiceanu, Katriel and Thiel's
    flow filtering of ``same`` can prune more; together with HAC on the units the value-support
    version is what the row and box all-differents cannot see on their own.
``C`` -- colored matrix (HACC)
    The cardinality matrix of Regin and Gomes (2004) for a Sudoku: for each value, its cells
    form a permutation matrix, so rows x columns "row r holds the value in column c" is a
    perfect matching; edges in no perfect matching are removed (HAC on the value's row ->
    column all-different; in puzzle terms, X-wing, swordfish and every larger fish at once).
``T`` -- per-value line x box matchings (HAC3)
    For each value each row meets it in exactly one box and each box in exactly one row, so
    rows x boxes is a perfect matching (likewise columns x boxes); an edge in no perfect
    matching removes the value from the cells the row shares with the box.

Every rule here is implied by the Sudoku constraints, so none removes a value of a solution.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.grading.domains import grid_tables
>>> t = grid_tables(sudoku(np.zeros((4, 4), dtype=int)))
>>> dom = np.full(16, 0b1111, dtype=np.int64)
>>> dom[[2, 3, 6, 7]] &= ~1          # value 1 cannot be in box 2 (top right) ...
>>> dom[[1, 5]] &= ~1                # ... nor in column 2 of box 1
>>> dirty = np.zeros(2 * 12 + 1, dtype=np.int8)
>>> same_prop(dom, t.same_pairs, t.cell_units, dirty)  # 1 is in column 1 of box 1 -> not below
1
>>> [int(dom[c]) & 1 for c in (8, 12)]
[0, 0]
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .domains import narrow, popcount
from .hac import hac_prune

__all__ = ["same_prop", "colored_prop", "bands_prop"]


@njit
def same_prop(dom, same_pairs, cell_units, dirty):
    """Value support between the two sides of every "same" pair; -1 on failure, else 1/0."""
    changed = 0
    for p in range(same_pairs.shape[0]):
        side_union = np.zeros(2, dtype=np.int64)
        side_size = np.zeros(2, dtype=np.int64)
        for s in range(2):
            for i in range(same_pairs.shape[2]):
                cell = same_pairs[p, s, i]
                if cell < 0:
                    break
                side_union[s] |= dom[cell]
                side_size[s] += 1
        common = side_union[0] & side_union[1]
        if popcount(common) < side_size[0] or popcount(common) < side_size[1]:
            return -1
        for s in range(2):
            if side_union[s] & ~common == 0:
                continue
            for i in range(same_pairs.shape[2]):
                cell = same_pairs[p, s, i]
                if cell < 0:
                    break
                d = dom[cell]
                if d & ~common:
                    if narrow(dom, cell, d & common, cell_units, dirty) < 0:
                        return -1
                    changed = 1
    return changed


@njit
def colored_prop(dom, n, cell_units, dirty):
    """Per value, HAC on the rows -> columns matching; -1 on failure, else 1/0."""
    adj = np.empty(n, dtype=np.int64)
    one = np.int64(1)
    changed = 0
    for v in range(n):
        bit = one << v
        for r in range(n):
            a = np.int64(0)
            for c in range(n):
                if dom[r * n + c] & bit:
                    a |= one << c
            adj[r] = a
        res = hac_prune(adj)
        if res < 0:
            return -1
        if res == 0:
            continue
        for r in range(n):
            for c in range(n):
                cell = r * n + c
                if dom[cell] & bit and not (adj[r] >> c) & 1:
                    if narrow(dom, cell, dom[cell] & ~bit, cell_units, dirty) < 0:
                        return -1
                    changed = 1
    return changed


@njit
def bands_prop(dom, n, seg_cells, num_boxes, cell_units, dirty):
    """Per value, HAC on rows -> boxes and on columns -> boxes; -1 on failure, else 1/0."""
    if num_boxes == 0:
        return 0
    adj = np.empty(n, dtype=np.int64)
    one = np.int64(1)
    changed = 0
    for v in range(n):
        bit = one << v
        for kind in range(2):
            for li in range(n):
                a = np.int64(0)
                row = (kind * n + li) * num_boxes
                for b in range(num_boxes):
                    for i in range(seg_cells.shape[1]):
                        cell = seg_cells[row + b, i]
                        if cell < 0:
                            break
                        if dom[cell] & bit:
                            a |= one << b
                            break
                adj[li] = a
            res = hac_prune(adj)
            if res < 0:
                return -1
            if res == 0:
                continue
            for li in range(n):
                row = (kind * n + li) * num_boxes
                for b in range(num_boxes):
                    if (adj[li] >> b) & 1:
                        continue
                    for i in range(seg_cells.shape[1]):
                        cell = seg_cells[row + b, i]
                        if cell < 0:
                            break
                        if dom[cell] & bit:
                            if narrow(dom, cell, dom[cell] & ~bit, cell_units, dirty) < 0:
                                return -1
                            changed = 1
    return changed
