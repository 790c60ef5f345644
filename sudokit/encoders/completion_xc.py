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
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import DecodeError, EncodingError
from ..exact_cover import DeferredNames, ExactCover
from ..instances.units import cell_unit_table
from ..problems import problem_kind, user_instance
from ..protocols import Composable
from ..resources import check_fits
from .completion_cnf import candidate_mask
from .deadline import check_deadline
from .size import completion_xc_size

__all__ = ["ExactCoverEncoding", "OwnCover", "XC_ENCODINGS", "completion_to_exact_cover",
           "grid_to_exact_cover", "own_cover", "coloring_to_exact_cover"]

XC_ENCODINGS = ("full", "reduced")
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, eq=False)
class ExactCoverEncoding(Composable):
    """A completion problem as exact cover: a :class:`~sudokit.protocols.CoverReduction`.

    ``option_cells[k]`` and ``option_values[k]`` say which value option ``k`` puts in which cell.
    """

    source: Any
    xc: ExactCover
    encoding: str
    option_cells: np.ndarray
    option_values: np.ndarray
    parsimonious: bool = True

    @property
    def name(self) -> str:
        """The reduction this encoding is: ``sudoku2xc``, ``latin2xc`` or ``coloring2xc``."""
        return f"{self.source.kind}2xc"

    @property
    def target(self) -> ExactCover:
        return self.xc

    def decode(self, selected) -> np.ndarray:
        """The solution (grid or coloring) of a cover given as option indices."""
        selected = np.asarray(selected, dtype=np.int64).reshape(-1)
        values = self.source.flat_givens.copy()
        cells = self.option_cells[selected]
        if np.unique(cells).size != cells.size:
            raise DecodeError("the cover fills a cell twice")
        values[cells] = self.option_values[selected]
        if np.any(values == 0):
            missing = int(np.flatnonzero(values == 0)[0])
            raise DecodeError(f"the cover leaves {self.source.cell_name(missing)} empty")
        return values.astype(np.int32).reshape(self.source.solution_shape)

    def encode(self, solution) -> np.ndarray:
        """The cover (sorted option indices) of a source solution."""
        values = np.asarray(solution).reshape(-1)
        return np.sort(self.option_lookup()[np.arange(values.size), values - 1])

    def option_lookup(self) -> np.ndarray:
        """``(num_cells, num_values)`` option index of each (cell, value), -1 where none
        (built once per encoding and read-only: a shared engine looks up every puzzle's
        givens in it)."""
        return self._lookup_table

    @cached_property
    def _lookup_table(self) -> np.ndarray:
        table = np.full((self.source.num_cells, self.source.num_values), -1, dtype=np.int64)
        table[self.option_cells, self.option_values - 1] = np.arange(len(self.option_cells))
        table.flags.writeable = False
        return table

    def given_options(self, problem) -> np.ndarray:
        """Options that place the givens of ``problem`` (same shape), for preselection."""
        givens = problem.flat_givens
        cells = np.flatnonzero(givens)
        return self.option_lookup()[cells, givens[cells] - 1]

    def explain(self) -> str:
        xc = self.xc
        return (f"{self.name}: one option per allowed (cell, value), {xc.num_options} in all, "
                f"covering {xc.num_items} items: the cell, and (unit, value) for each unit "
                f"through the cell ({xc.num_primary} primary, {xc.num_secondary} secondary).")


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


@dataclass(frozen=True, eq=False)
class _ItemNames:
    """Knuth-style item names of a completion problem's cover (see the module), made when
    the problem is written."""

    graph: bool
    n: int
    item_cells: np.ndarray
    groups: tuple  # (unit kind, unit indices, values) per group, in item order

    def __call__(self) -> tuple[str, ...]:
        names = self._cell_names(self.item_cells)
        for kind, units, values in self.groups:
            names += self._unit_value_names(kind, units, values)
        return tuple(names)

    def _cell_names(self, cells: np.ndarray) -> list[str]:
        if self.graph:
            return _join("v", _symbol(cells, 36), dotted=False)
        n = self.n
        return _join("p", _symbol(cells // n, n), _symbol(cells % n, n), dotted=n > 35)

    def _unit_value_names(self, kind: str, units: np.ndarray, values: np.ndarray) -> list[str]:
        if self.graph:
            return _join("e", _symbol(units, 36), _symbol(values - 1, 36), dotted=True)
        n = self.n
        return _join(_ITEM_LETTERS.get(kind, kind[0]), _symbol(units, n), _symbol(values - 1, n),
                     dotted=n > 35)


#: the item letter of a unit kind whose first letter another kind's items (or the cells',
#: ``p``) already use: a jigsaw's regions (rows are ``r``), Sudoku-DG's positions
_ITEM_LETTERS = {"region": "g", "position": "o"}


def completion_to_exact_cover(problem, encoding: str | None = None,
                              max_bytes: int | None = None) -> ExactCoverEncoding:
    """Encode any completion problem as exact cover (``full`` or ``reduced``; see the module).

    ``max_bytes`` refuses (:class:`~sudokit.errors.ResourceError`) a cover whose estimated
    size exceeds it (default: the available memory).
    """
    problem = user_instance(problem, ("grid", "graph"), "completion_to_exact_cover")
    name = encoding or problem_kind(problem).xc_encoding
    if name not in XC_ENCODINGS:
        raise EncodingError(f"unknown exact cover encoding {name!r}; choose one of "
                            + ", ".join(XC_ENCODINGS))
    check_fits(completion_xc_size(problem, name), f"the {name} exact cover of this instance",
               max_bytes, "a smaller instance (or more memory) is needed")
    cells, k = problem.num_cells, problem.num_values
    givens = problem.flat_givens
    if name == "reduced":
        allowed = candidate_mask(problem)
    else:
        allowed = np.ones((cells, k), dtype=bool)
        given = np.flatnonzero(givens)
        allowed[given] = False
        allowed[given, givens[given] - 1] = True
    check_deadline()
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
    num_items = len(item_cells)
    unit_value_item = {}
    named = []  # (unit kind, units, values) of each group's items, for the names
    num_primary = len(item_cells)
    for g in order:
        check_deadline()
        kind, units, needed, primary = groups[g]
        ids = np.full((len(units), k), -1, dtype=np.int64)
        u, v = np.nonzero(needed)
        ids[u, v] = num_items + np.arange(len(u))
        num_items += len(u)
        named.append((kind, u, v + 1))
        unit_value_item[g] = ids
        num_primary += len(u) if primary else 0
    names = DeferredNames(num_items, _ItemNames(problem_kind(problem).family == "graph",
                                                getattr(problem, "n", 0), item_cells,
                                                tuple(named)))

    # option k covers its cell item, then (unit, value) for each unit through the cell
    columns = [cell_item[option_cells][:, None]]
    for g in range(len(groups)):
        check_deadline()
        units = groups[g][1]
        memberships = cell_unit_table(units, cells)       # (cells, max units per cell)
        unit_of = memberships[option_cells]                # (options, m), -1 padded
        ids = unit_value_item[g][np.maximum(unit_of, 0), (option_values - 1)[:, None]]
        columns.append(np.where(unit_of >= 0, ids, -1))
    check_deadline()
    table = np.concatenate(columns, axis=1)
    present = table >= 0
    starts = np.concatenate([[0], np.cumsum(present.sum(axis=1))]).astype(np.int64)
    check_deadline()
    xc = ExactCover(names, num_primary, starts, table[present].astype(np.int32),
                    validate_on_init=False)
    return ExactCoverEncoding(problem, xc, name, option_cells.astype(np.int64),
                              option_values.astype(np.int32))


def grid_to_exact_cover(puzzle, encoding: str | None = None,
                        max_bytes: int | None = None) -> ExactCoverEncoding:
    """Sudoku (``4n^2`` items) or Latin square (``3n^2`` items) as exact cover; ``puzzle``
    may be text or an array (:func:`~sudokit.interop.convert.as_problem`)."""
    puzzle = user_instance(puzzle, ("grid",), "grid_to_exact_cover")
    return completion_to_exact_cover(puzzle, encoding, max_bytes)


def coloring_to_exact_cover(problem, encoding: str | None = None,
                            max_bytes: int | None = None) -> ExactCoverEncoding:
    """Vertices as primary items, ``(edge, color)`` pairs as secondary items."""
    problem = user_instance(problem, ("graph",), "coloring_to_exact_cover")
    return completion_to_exact_cover(problem, encoding, max_bytes)


@dataclass(frozen=True, eq=False)
class OwnCover(Composable):
    """An exact cover problem as its own encoding: a cover decodes to its option indices."""

    source: ExactCover
    parsimonious: bool = True
    encoding: str = "exact cover"

    name = "xc2xc"

    @property
    def xc(self) -> ExactCover:
        return self.source

    @property
    def target(self) -> ExactCover:
        return self.source

    def decode(self, selected) -> np.ndarray:
        return np.sort(np.asarray(selected, dtype=np.int64).reshape(-1))

    def encode(self, selected) -> np.ndarray:
        return self.decode(selected)

    def given_options(self, problem) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)

    def explain(self) -> str:
        return f"{self.name}: the exact cover problem itself ({self.xc.num_options} options)."


def own_cover(xc: ExactCover, encoding: str | None = None,
              max_bytes: int | None = None) -> OwnCover:
    """The ``xc`` kind's exact cover encoding: the problem itself (the options do not
    apply)."""
    return OwnCover(xc)
