"""Exact cover encodings of completion problems (Sudoku, Latin squares, precoloring extension).

One construction serves every problem, built from its units: an option per allowed
``(cell, value)``, covering the cell's item and one ``(unit, value)`` item for every unit
through the cell. A unit with as many cells as values (a row, a column, a box) must show every
value, so its ``(unit, value)`` items are primary; a smaller unit (an edge of a graph) only
forbids repeats, so they are secondary (Knuth, TAOCP 7.2.2.1).

- Sudoku: ``4n^2`` items (cell, row-value, column-value, box-value), Latin squares ``3n^2``.
  Givens leave their cell a single option (``full``), or, as Knuth's sudoku-dlx does, the
  ``reduced`` form drops every item and option the givens settle.
- Precoloring: vertices are primary items, ``(edge, color)`` pairs secondary.

Item names follow Knuth's sudoku2dlx: ``p`` + row + column for cells, ``r``/``c``/``b`` + unit +
value for unit-values (1-based symbols ``1-9A-Z`` up to n = 35, base-36 numbers joined by ``.``
beyond); graphs use ``v`` + vertex and ``e`` + edge ``.`` color.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.formats import parse_puzzles
>>> p = parse_puzzles("4.....8.5.3..........7......2.....6.....8.4......1......."
...                   "6.3.7.5..2.....1.4......")[0].instance
>>> enc = grid_to_exact_cover(p, "reduced")
>>> enc.xc.num_items, enc.xc.num_options
(256, 301)
>>> grid_to_exact_cover(sudoku(np.zeros((9, 9), int))).xc.num_items
324
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import DecodeError, EncodingError
from ..exact_cover import ExactCover
from .completion_cnf import candidates

__all__ = ["ExactCoverEncoding", "OwnCover", "ReducedCover", "XC_ENCODINGS", "completion_to_exact_cover",
           "grid_to_exact_cover", "precoloring_to_exact_cover"]

XC_ENCODINGS = ("full", "reduced")
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, eq=False)
class ExactCoverEncoding:
    """A completion problem as exact cover, with its way back.

    ``option_cells[k]`` and ``option_values[k]`` say which value option ``k`` puts in which cell.
    """

    problem: object
    xc: ExactCover
    name: str
    option_cells: np.ndarray
    option_values: np.ndarray
    parsimonious: bool = True

    def decode(self, selected) -> np.ndarray:
        """The solution (grid or coloring) of a cover given as option indices."""
        selected = np.asarray(selected, dtype=np.int64).reshape(-1)
        values = self.problem.flat_givens.copy()
        cells = self.option_cells[selected]
        if np.unique(cells).size != cells.size:
            raise DecodeError("the cover fills a cell twice")
        values[cells] = self.option_values[selected]
        if np.any(values == 0):
            missing = int(np.flatnonzero(values == 0)[0])
            raise DecodeError(f"the cover leaves {self.problem.cell_name(missing)} empty")
        return values.astype(np.int32).reshape(self.problem.solution_shape)

    def option_lookup(self) -> np.ndarray:
        """``(num_cells, num_values)`` option index of each (cell, value), -1 where none."""
        table = np.full((self.problem.num_cells, self.problem.num_values), -1, dtype=np.int64)
        table[self.option_cells, self.option_values - 1] = np.arange(len(self.option_cells))
        return table

    def given_options(self, problem) -> np.ndarray:
        """Options that place the givens of ``problem`` (same shape), for preselection."""
        givens = problem.flat_givens
        cells = np.flatnonzero(givens)
        return self.option_lookup()[cells, givens[cells] - 1]


def _symbol(i: np.ndarray, n: int) -> np.ndarray:
    """1-based symbols: one character up to 35, base 36 beyond (joined by '.' by the caller)."""
    if n <= 35:
        return np.array(list(_DIGITS))[i + 1]
    return np.array([np.base_repr(int(x) + 1, 36) for x in i.tolist()], dtype=object)


def _join(prefix: str, *parts, dotted: bool) -> list[str]:
    sep = "." if dotted else ""
    out = parts[0].astype(object)
    for part in parts[1:]:
        out = out + sep + part.astype(object)
    return [prefix + s for s in out.tolist()]


def _cell_names(problem, cells: np.ndarray) -> list[str]:
    if problem.kind == "coloring":
        return _join("v", _symbol(cells, 36), dotted=False)
    n = problem.n
    return _join("p", _symbol(cells // n, n), _symbol(cells % n, n), dotted=n > 35)


def _unit_value_names(problem, kind: str, units: np.ndarray, values: np.ndarray) -> list[str]:
    if problem.kind == "coloring":
        return _join("e", _symbol(units, 36), _symbol(values - 1, 36), dotted=True)
    n = problem.n
    return _join(kind[0], _symbol(units, n), _symbol(values - 1, n), dotted=n > 35)


def completion_to_exact_cover(problem, encoding: str | None = None) -> ExactCoverEncoding:
    """Encode any completion problem as exact cover (``full`` or ``reduced``; see the module)."""
    name = encoding or "full"
    if name not in XC_ENCODINGS:
        raise EncodingError(f"unknown exact cover encoding {name!r}; choose one of "
                            + ", ".join(XC_ENCODINGS))
    cells, k = problem.num_cells, problem.num_values
    givens = problem.flat_givens
    if name == "reduced":
        allowed = candidates(problem)
    else:
        allowed = np.ones((cells, k), dtype=bool)
        given = np.flatnonzero(givens)
        allowed[given] = False
        allowed[given, givens[given] - 1] = True
    option_cells, option_values = np.nonzero(allowed)
    option_values = option_values + 1

    # items: cells, then (unit, value) of each unit group; primary before secondary
    item_cells = np.flatnonzero(givens == 0) if name == "reduced" else np.arange(cells)
    cell_item = np.full(cells, -1, dtype=np.int64)
    cell_item[item_cells] = np.arange(len(item_cells))
    groups = []  # (kind, units, needed (units, k) mask, primary?)
    for kind, units in problem.unit_groups():
        if len(units) == 0:
            continue  # a graph without edges
        needed = np.ones((len(units), k), dtype=bool)
        if name == "reduced":
            held = givens[units]
            rows = np.repeat(np.arange(len(units)), units.shape[1])
            needed[rows[held.reshape(-1) > 0], held.reshape(-1)[held.reshape(-1) > 0] - 1] = False
        groups.append((kind, units, needed, units.shape[1] == k))
    order = sorted(range(len(groups)), key=lambda g: not groups[g][3])  # primary groups first
    names = _cell_names(problem, item_cells)
    unit_value_item = {}
    num_primary = len(item_cells)
    for g in order:
        kind, units, needed, primary = groups[g]
        ids = np.full((len(units), k), -1, dtype=np.int64)
        u, v = np.nonzero(needed)
        ids[u, v] = len(names) + np.arange(len(u))
        names += _unit_value_names(problem, kind, u, v + 1)
        unit_value_item[g] = ids
        num_primary += len(u) if primary else 0

    # option k covers its cell item, then (unit, value) for each unit through the cell
    columns = [cell_item[option_cells][:, None]]
    for g in range(len(groups)):
        units = groups[g][1]
        memberships = _cell_unit_table(units, cells)       # (cells, max units per cell)
        unit_of = memberships[option_cells]                # (options, m), -1 padded
        ids = unit_value_item[g][np.maximum(unit_of, 0), (option_values - 1)[:, None]]
        columns.append(np.where(unit_of >= 0, ids, -1))
    table = np.concatenate(columns, axis=1)
    present = table >= 0
    starts = np.concatenate([[0], np.cumsum(present.sum(axis=1))]).astype(np.int64)
    xc = ExactCover(tuple(names), num_primary, starts, table[present].astype(np.int32))
    return ExactCoverEncoding(problem, xc, name, option_cells.astype(np.int64),
                              option_values.astype(np.int32))


def _cell_unit_table(units: np.ndarray, cells: int) -> np.ndarray:
    """``(cells, m)``: the units through each cell (in unit order), padded with -1."""
    flat_cells = units.reshape(-1)
    flat_units = np.repeat(np.arange(len(units)), units.shape[1])
    order = np.argsort(flat_cells, kind="stable")
    counts = np.bincount(flat_cells, minlength=cells)
    width = int(counts.max()) if counts.size else 0
    table = np.full((cells, max(width, 1)), -1, dtype=np.int64)
    rank = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
    table[flat_cells[order], rank] = flat_units[order]
    return table


def grid_to_exact_cover(puzzle, encoding: str | None = None) -> ExactCoverEncoding:
    """Sudoku (``4n^2`` items) or Latin square (``3n^2`` items) as exact cover."""
    return completion_to_exact_cover(puzzle, encoding)


def precoloring_to_exact_cover(problem, encoding: str | None = None) -> ExactCoverEncoding:
    """Vertices as primary items, ``(edge, color)`` pairs as secondary items."""
    return completion_to_exact_cover(problem, encoding)


@dataclass(frozen=True, eq=False)
class OwnCover:
    """An exact cover problem as its own encoding: a cover decodes to its option indices."""

    problem: object
    name: str = "exact cover"
    parsimonious: bool = True

    @property
    def xc(self):
        return self.problem

    def decode(self, selected) -> np.ndarray:
        return np.sort(np.asarray(selected, dtype=np.int64).reshape(-1))

    def given_options(self, problem) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class ReducedCover:
    """An exact cover reached through a reduction that is not parsimonious (``sat2xc``): a
    cover decodes to a source solution, but several covers may decode to the same one."""

    xc: object
    decode: object
    name: str = "sat2xc"
    parsimonious: bool = False

    def given_options(self, problem) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)
