"""A layout's tables and a board's candidates as numpy arrays, for the compiled finders.

:mod:`~sudokit.human.set_kernel` reads the candidates as an ``int64`` array (one mask per
cell, :func:`cands_array`, kept for the step by :meth:`~sudokit.human.board.Board.kept`) and
the shape's units, the units of each cell, which cells each unit holds, the kind of each unit
and which cells see each other (:func:`layout_arrays`, built once per layout).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from .board import Board
>>> board = Board.of(sudoku(np.zeros((4, 4), dtype=int)))
>>> arrays = layout_arrays(board.layout)
>>> arrays.units.shape, arrays.cell_units[0].tolist(), bool(arrays.peer[0, 5])
((12, 4), [0, 4, 8], True)
>>> cands_array(board)[:3].tolist()
[15, 15, 15]
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np

from .board import Board, Layout

__all__ = ["LayoutArrays", "layout_arrays", "cands_array"]


@dataclass(frozen=True, eq=False)
class LayoutArrays:
    """``units`` ``(U, n)``, each unit's cells in order (``-1`` padded were a unit shorter),
    and ``sizes`` ``(U,)`` their counts; ``cell_units`` ``(n*n, k)``, ``-1`` padded, each
    cell's units in index order; ``member[u, c]``: cell ``c`` is in unit ``u``; ``kind[u]``:
    a number per kind of unit (:attr:`~sudokit.human.board.Layout.kind`); ``peer[c, d]``:
    the cells see each other (a cell is not its own peer); ``peers`` ``(n*n, w)``, each
    cell's peers in ``layout.peers`` order, ``-1`` padded, and ``npeers`` their counts."""

    units: np.ndarray
    sizes: np.ndarray
    cell_units: np.ndarray
    member: np.ndarray
    kind: np.ndarray
    peer: np.ndarray
    peers: np.ndarray
    npeers: np.ndarray
    _masks: dict = field(default_factory=dict, repr=False)

    def of_kinds(self, layout: Layout, kinds: tuple[str, ...]) -> np.ndarray:
        """``(U,)`` bool: the units of ``layout`` whose kind is one of ``kinds`` (kept)."""
        found = self._masks.get(kinds)
        if found is None:
            found = self._masks[kinds] = np.array([k in kinds for k in layout.kind],
                                                  dtype=np.bool_)
        return found

    def of_units(self, units: tuple[int, ...]) -> np.ndarray:
        """``(U,)`` bool: the units ``units`` (kept).

        Examples
        --------
        >>> from sudokit.instances import latin_square
        >>> from .board import Board
        >>> board = Board.of(latin_square(np.zeros((2, 2), dtype=int)))
        >>> layout_arrays(board.layout).of_units((1, 2)).tolist()
        [False, True, True, False]
        """
        found = self._masks.get(units)
        if found is None:
            found = self._masks[units] = np.zeros(len(self.units), dtype=np.bool_)
            found[list(units)] = True
        return found


_BUILT: weakref.WeakKeyDictionary[Layout, LayoutArrays] = weakref.WeakKeyDictionary()


def layout_arrays(layout: Layout) -> LayoutArrays:
    """The arrays of ``layout`` (built once per layout)."""
    found = _BUILT.get(layout)
    if found is None:
        cells = layout.n * layout.n
        units, sizes = _padded(layout.units)
        cell_units, _ = _padded(layout.cell_units)
        member = np.zeros((len(layout.units), cells), dtype=np.bool_)
        for index, unit in enumerate(layout.units):
            member[index, list(unit)] = True
        codes = {kind: code for code, kind in enumerate(dict.fromkeys(layout.kind))}
        kind = np.array([codes[k] for k in layout.kind], dtype=np.int64)
        peers, npeers = _padded([list(near) for near in layout.peers])
        peer = np.zeros((cells, cells), dtype=np.bool_)
        for cell, near in enumerate(layout.peers):
            peer[cell, list(near)] = True
        found = _BUILT[layout] = LayoutArrays(units, sizes, cell_units, member, kind, peer,
                                              peers, npeers)
    return found


def _padded(rows) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` (sequences of ints) as one ``int64`` array padded with -1 (at least one
    column), and their lengths."""
    sizes = np.array([len(row) for row in rows], dtype=np.int64)
    table = np.full((len(rows), max(int(sizes.max(initial=0)), 1)), -1, dtype=np.int64)
    for index, row in enumerate(rows):
        table[index, :len(row)] = list(row)
    return table, sizes


def cands_array(board: Board) -> np.ndarray:
    """The board's candidates as ``int64`` masks, cell by cell (use
    ``board.kept(cands_array)``: one array per set of candidates)."""
    return np.array(board.cands, dtype=np.int64)
