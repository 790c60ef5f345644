"""Unit tables shared by the encoders, the reductions, the converters and the grading engine.

A *unit* is a set of cells that must be all-different (a row, a column, a box, an edge of a
graph); instances give theirs as a 2-D array, one unit per row. Two cells sharing a unit are
adjacent in the grid's graph (:func:`unit_graph_edges`: the Sudoku graph, the rook's graph).

Examples
--------
>>> import numpy as np
>>> cell_unit_table(np.array([[0, 1], [1, 2]]), 3).tolist()
[[0, -1], [0, 1], [1, -1]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["cell_unit_table", "unit_graph_edges"]


def cell_unit_table(units: np.ndarray, cells: int) -> np.ndarray:
    """``(cells, m)``: the units through each cell (in unit order), padded with -1."""
    units = np.asarray(units)
    flat_cells = units.reshape(-1)
    flat_units = np.repeat(np.arange(len(units)), units.shape[1] if units.ndim == 2 else 0)
    order = np.argsort(flat_cells, kind="stable")
    counts = np.bincount(flat_cells, minlength=cells)
    width = int(counts.max()) if counts.size else 0
    table = np.full((cells, max(width, 1)), -1, dtype=np.int64)
    rank = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
    table[flat_cells[order], rank] = flat_units[order]
    return table


def unit_graph_edges(units: np.ndarray) -> np.ndarray:
    """All pairs of cells that share a unit, each once, as ``(m, 2)`` with ``u < v``.

    Examples
    --------
    >>> import numpy as np
    >>> unit_graph_edges(np.array([[0, 1, 2], [2, 3, 0]])).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]
    """
    first, second = np.triu_indices(units.shape[1], k=1)
    pairs = np.stack([units[:, first].reshape(-1), units[:, second].reshape(-1)], axis=1)
    return np.unique(np.sort(pairs, axis=1), axis=0)
