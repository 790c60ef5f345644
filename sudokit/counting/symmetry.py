"""Counting modulo symmetry: count the solutions in a canonical order, multiply by the number
of orderings.

**Values.** In a completion problem (a Sudoku or Latin square of any variant, a precoloring)
every constraint is "these cells are all different" or "this cell is given", so the values that
no given uses (the *free* values ``u_1 < ... < u_k``) are interchangeable: permuting them maps
solutions to solutions. Take a *full* unit ``r`` (as many cells as there are values, so every
solution shows every value in it, e.g. a row) and its empty cells ``e_1, e_2, ...`` in order.

**Lines.** In a Latin square (rows and columns only, no boxes or variants) the rows other
than ``r`` that hold no given (``p_1 < ... < p_m``) are interchangeable too, and they show
distinct values in column 1 (if ``r`` is a column: the empty columns, in row 1; with fewer
than two free values, no ``r``: the rows or the columns, whichever has more empty lines).

A solution is *canonical* if ``u_1, ..., u_k`` appear along ``e_1, e_2, ...`` in increasing
order and the lines ``p_1, ..., p_m`` show increasing values in column 1.

**Why the count is exact.** The group of the ``k!`` value permutations times the ``m!`` line
permutations acts on the solutions without fixed points: if ``(s, t)`` fixes a solution,
``t`` leaves ``r`` in place, so ``s`` fixes line ``r``, which shows every free value, and
``s`` is the identity; then ``t`` fixes the solution, whose lines ``p_i`` differ (in
column 1), so ``t`` is the identity. Every orbit thus has exactly ``k! m!`` solutions, and
exactly one of them is canonical: ``s`` is the one permutation that sorts the free values
along ``r`` (``t`` does not move ``r``), then ``t`` the one that sorts column 1 over the
``p_i``. Hence

    #solutions = k! x m! x #canonical solutions.

The canonical ones are what the counter counts: the instance's own CNF plus

- **order**: ``u_{i+1}`` is not in an ``e_b`` before ``u_i``'s ``e_a``
  (``-x(e_a, u_i) | -x(e_b, u_{i+1})`` for ``b <= a``); line ``p_{i+1}`` does not show in
  column 1 a value at most ``p_i``'s;
- **window**: ``u_i`` lies in ``e_i .. e_{|e|-k+i}``, and line ``p_i`` shows a value in
  ``i .. n-m+i`` (unit clauses that the order implies but unit propagation does not see).

On an empty grid this fixes the first row to ``1 2 ... n`` (and a Latin square's first column
to ``1 2 ... n``): the 28,200,960 6x6 (2x3) Sudoku grids are ``6! x 39,168``, the 812,851,200
Latin squares of order 6 ``6! x 5! x 9,408``. A model counter by component caching (Ganak)
does not see the symmetry; without it the empty 6x6 grid takes Ganak tens of minutes.

Examples
--------
>>> import numpy as np
>>> from sudokit.encoders import to_cnf
>>> from sudokit.instances import latin_square, sudoku
>>> encoded = to_cnf(sudoku(np.zeros((4, 4), dtype=int)), "extended")
>>> symmetry = find_symmetry(encoded)
>>> symmetry.values, symmetry.lines, symmetry.factor   # no line symmetry in a Sudoku
((1, 2, 3, 4), (), 24)
>>> order, window = symmetry.blocks(encoded.cell_vars)
>>> order.shape, window.shape   # 3 x 10 order clauses; the window fixes row 1 to 1 2 3 4
((30, 2), (12, 1))
>>> find_symmetry(to_cnf(latin_square(np.zeros((4, 4), dtype=int)), "extended")).factor
144
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..encoders.completion_cnf import CNFEncoding

__all__ = ["Symmetry", "find_symmetry"]


@dataclass(frozen=True)
class Symmetry:
    """The symmetry a count breaks: free values put in order along a full unit, and empty
    lines put in order by their value in one cell each.

    Attributes
    ----------
    values : tuple of int
        The free values ``u_1 < ... < u_k`` (1-based); empty when fewer than two.
    cells : tuple of int
        The empty cells ``e_1, e_2, ...`` of the full unit, in order (flat indices).
    lines : tuple of int
        For each interchangeable line ``p_1, p_2, ...``, in order, its cell in column (or
        row) 1; empty when fewer than two.
    num_values : int
        How many values the problem has.
    """

    values: tuple[int, ...]
    cells: tuple[int, ...]
    lines: tuple[int, ...]
    num_values: int

    @property
    def factor(self) -> int:
        """``k! x m!``: how many solutions each canonical solution stands for."""
        return math.factorial(len(self.values)) * math.factorial(len(self.lines))

    def blocks(self, cell_vars: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The order clauses (a ``(p, 2)`` int32 array) and the window clauses (``(w, 1)``)
        on the ``(cells, values)`` variable ids ``cell_vars`` (0: no variable, the value is
        impossible there, so a clause on it is already satisfied and left out)."""
        order: list[np.ndarray] = []
        window: list[np.ndarray] = []
        if self.values:  # ids[a, i] = x(e_a, u_i): value u_i at the a-th position
            cells = np.asarray(self.cells, dtype=np.int64)
            ids = cell_vars[cells][:, np.asarray(self.values, dtype=np.int64) - 1]
            _chain(ids, order, window)
        if self.lines:  # ids[v, i] = x(p_i's cell, v + 1): line p_i shows value v + 1
            _chain(cell_vars[np.asarray(self.lines, dtype=np.int64)].T, order, window)
        pairs = np.concatenate(order) if order else np.zeros((0, 2), dtype=np.int64)
        units = np.concatenate(window) if window else np.zeros(0, dtype=np.int64)
        pairs = pairs[(pairs > 0).all(axis=1)]
        return (np.ascontiguousarray(-pairs, dtype=np.int32),
                np.ascontiguousarray(-units[units > 0].reshape(-1, 1), dtype=np.int32))


def _chain(ids: np.ndarray, order: list[np.ndarray], window: list[np.ndarray]) -> None:
    """Clauses that make items ``i = 0, 1, ...`` take strictly increasing positions ``a``, where
    ``ids[a, i]`` says "item ``i`` at position ``a``" (each item at exactly one position, two
    items never at one)."""
    m, k = ids.shape
    a, b = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
    before = b <= a
    order.extend(np.stack([ids[a[before], i], ids[b[before], i + 1]], axis=1)
                 for i in range(k - 1))
    positions = np.arange(m)[:, None]
    window.append(ids[(positions < np.arange(k)) | (positions > m - k + np.arange(k))])


def find_symmetry(encoded: Any) -> Symmetry | None:
    """The symmetry of a completion problem's CNF encoding that a count can break, or None
    when there is none (fewer than two free values and lines, no full unit, or not a
    completion problem).

    Parameters
    ----------
    encoded : Any
        An encoded instance (:func:`~sudokit.encoders.to_cnf`); only a completion problem's
        :class:`~sudokit.encoders.completion_cnf.CNFEncoding` has one (a DIMACS formula or an
        exact cover instance has none).
    """
    if not isinstance(encoded, CNFEncoding):
        return None
    source = encoded.source
    k = source.num_values
    units = source.units()
    if units.shape[1] != k or not len(units):  # a full unit shows every value
        return None
    givens = source.flat_givens
    empty = givens[units] == 0
    unit = int(np.argmin(empty.sum(axis=1)))  # the fewest empty cells: the narrowest windows
    free = np.setdiff1d(np.arange(1, k + 1), givens[givens > 0])
    values = tuple(int(v) for v in free) if len(free) >= 2 else ()
    cells = tuple(int(c) for c in units[unit][empty[unit]]) if values else ()
    lines = _lines(source, units, empty, unit if values else -1)
    if not values and not lines:
        return None
    return Symmetry(values, cells, lines, k)


def _lines(source: Any, units: np.ndarray, empty: np.ndarray, unit: int) -> tuple[int, ...]:
    """A Latin square's empty lines parallel to ``unit`` but ``unit`` itself (with no unit:
    the rows or the columns, whichever has more empty lines), as their cells in the first
    perpendicular line; () for other problems."""
    if [kind for kind, _ in source.unit_groups()] != ["row", "column"]:
        return ()
    n = units.shape[1]
    full: np.ndarray = np.asarray(empty.all(axis=1))
    if unit >= 0:
        first = n if unit >= n else 0  # units[first:first + n]: the lines parallel to unit
    else:
        first = n if full[n:].sum() > full[:n].sum() else 0
    parallel = [line for line in range(first, first + n) if line != unit and full[line]]
    if len(parallel) < 2:
        return ()
    return tuple(int(units[line][0]) for line in parallel)
