"""The unit model as flat arrays: what every search kernel of the CP family takes.

Sudoku, Latin square completion and precoloring extension are one problem (Takano et al.,
section 2.1): fill ``C`` cells with values ``1..V`` so that every *unit* is all-different.
:func:`unit_model` turns an instance's units into the index tables the kernels of
:mod:`sudokit.solvers.backtrack`, :mod:`~sudokit.solvers.fcmrv`,
:mod:`~sudokit.solvers.bitset`, :mod:`~sudokit.solvers.norvig` and
:mod:`~sudokit.solvers.takano` read, once per shape (grids of one kind, side and box shape
share one cached model; a graph gets its own):

``peer_starts``, ``peers``
    CSR lists of each cell's peers (the other cells of its units; a graph's neighbours).
``cell_units``
    ``(C, m)`` the units of each cell, ``-1`` padded.
``hidden_units``, ``cell_hidden``
    The *complete* units (as many cells as values, so every value appears in them exactly
    once: rows, columns, boxes; a graph's edges only with two colors) and, per cell, the
    indices of its complete units. Only these support "only choice" (hidden singles).
``segments``, ``segment_units``
    ``(S, 3, w)`` for each pair of complete units sharing at least two cells (a line and a
    box): the shared cells, the first unit's other cells and the second's, ``-1`` padded; and
    ``(S, 2)`` the two units (indices into ``hidden_units``). Locked candidates use them; naked
    pairs work in the complete units of at least three cells.
``unit_bits``
    ``(C, W)`` int64: the complete units of each cell as a bit set (bit ``u % 64`` of word
    ``u // 64`` for complete unit ``u``), so a kernel marks a changed cell's units with one OR
    per word.
``groups``, ``links``
    Locked candidates on OR masks of groups of cells: ``groups`` ``(G, g)`` uint32, one group
    of cells a row (padded by repeating its first cell, which an OR does not mind), the first
    ``S`` the shared cells of the segments; ``links`` ``(S, 2, 2 + k)`` uint32, for each
    segment and each of its two units: the unit, a count ``n`` and ``n`` groups whose cells
    are exactly that unit's other cells (in a grid, the unit's other segments: a row's other
    boxes, a box's other rows or columns). A segment's test reads one OR per group.
``partitions``
    ``(U, p, 1 + k)`` uint32: the ways of cutting each complete unit into groups (a line: its
    segments with the boxes; a box: its row segments, and its column segments), each a count
    ``n`` and ``n`` groups. A value of the unit seen in one group only is locked there.

Values are at most 64 (one ``int64`` candidate mask per cell): every Sudoku up to 64x64,
Latin squares up to order 64, graphs with up to 64 colors. Givens travel as an ``(N, C)``
int32 array (0 = empty).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku, precoloring
>>> m = unit_model(sudoku(np.zeros((4, 4), dtype=int)))
>>> m.num_cells, m.num_values, len(m.hidden_units), len(m.segments)
(16, 4, 12, 16)
>>> m.cell_peers(0).tolist()
[1, 2, 3, 4, 5, 8, 12]
>>> g = unit_model(precoloring(3, [(0, 1), (1, 2)], 3))
>>> g.cell_peers(1).tolist(), len(g.hidden_units), g.full
([0, 2], 0, 7)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedTaskError
from ..instances.grid import grid_shape_key
from ..instances.shapes import GridShape, grid_shape
from ..instances.units import cell_unit_table
from ..problems import PROBLEMS, kinds_where

__all__ = ["MAX_VALUES", "UnitModel", "unit_model", "shape_of", "stack_givens"]

#: Values fit one int64 candidate mask per cell.
MAX_VALUES = 64

#: the kinds whose instances have cells, values and units (the CNF and exact-cover kinds do not)
KINDS = kinds_where(has_cells=True)


@dataclass(frozen=True, eq=False)
class UnitModel:
    """The index tables of one shape (see the module); build with :func:`unit_model`."""

    kind: str
    #: the shape this model serves (kind, side, box); None for a graph (its own model)
    key: tuple | None
    num_cells: int
    num_values: int
    solution_shape: tuple[int, ...]
    units: np.ndarray
    cell_units: np.ndarray
    peer_starts: np.ndarray
    peers: np.ndarray
    hidden_units: np.ndarray
    cell_hidden: np.ndarray
    segments: np.ndarray
    segment_units: np.ndarray
    unit_bits: np.ndarray
    groups: np.ndarray
    links: np.ndarray
    partitions: np.ndarray

    @property
    def full(self) -> int:
        """The mask of every value (int64 bit pattern: -1 for 64 values)."""
        return -1 if self.num_values == 64 else (1 << self.num_values) - 1

    @property
    def words(self) -> int:
        """int64 words in a bit set of cells."""
        return max(1, (self.num_cells + 63) // 64)

    def cell_peers(self, cell: int) -> np.ndarray:
        """The peers of one cell (sorted)."""
        return self.peers[self.peer_starts[cell]:self.peer_starts[cell + 1]]

    def givens_of(self, instances: Any) -> np.ndarray:
        """The ``(N, C)`` int32 givens of instances of this shape."""
        return stack_givens(instances, self.num_cells)


def stack_givens(instances: Any, cells: int) -> np.ndarray:
    """``(N, cells)`` int32 givens of a sequence of instances (0 = empty)."""
    if not len(instances):
        return np.zeros((0, cells), dtype=np.int32)
    return np.stack([np.asarray(p.flat_givens, dtype=np.int32).reshape(-1)
                     for p in instances]).reshape(len(instances), cells)


def unit_model(instance: Any) -> UnitModel:
    """The unit model of ``instance``'s shape (a grid's: kept with its shape model,
    :func:`~sudokit.instances.shapes.grid_shape`; a graph gets its own).

    Raises
    ------
    UnsupportedTaskError
        The instance is not a grid or a graph (a formula, an exact cover), or has more than
        :data:`MAX_VALUES` values.
    """
    kind = getattr(instance, "kind", None)
    if kind not in KINDS:
        raise UnsupportedTaskError(f"the CP solvers take {', '.join(KINDS[:-1])} and "
                                   f"{KINDS[-1]} instances, not {kind}")
    values = int(instance.num_values)
    if values > MAX_VALUES:
        raise UnsupportedTaskError(
            f"the CP solvers keep candidates in one 64-bit mask per cell: at most "
            f"{MAX_VALUES} values, and this {kind} instance has {values}; use dlx or a SAT "
            "solver")
    if shape_of(instance) is None:
        units = np.ascontiguousarray(instance.units(), dtype=np.int32)
        cells = int(instance.num_cells)
        hidden = units if units.shape[1] == values else units[:0]   # two colors: every edge
        return _build(kind, None, cells, values, tuple(instance.solution_shape), units,
                      cell_unit_table(units, cells), hidden,
                      np.full((0, 3, max(units.shape[1], 1)), -1, dtype=np.int32),
                      np.zeros((0, 2), dtype=np.int32))
    return grid_shape(instance).derived(_grid_model)


def shape_of(instance: Any) -> tuple | None:
    """What grids sharing one model have in common (kind, side, box, and variants and a
    jigsaw's region map when there are some); None for a graph."""
    spec = PROBLEMS.get(getattr(instance, "kind", ""))
    if spec is None or spec.family != "grid":
        return None
    return grid_shape_key(instance)


def _grid_model(shape: GridShape) -> UnitModel:
    """A grid's model, of its shape model: every unit complete, and the segments the pairs of
    units meeting in two cells or more (none below 3x3)."""
    n = shape.n
    shared = (shape.pair_cells[:, 0] >= 0).sum(axis=1)
    segment = (shared >= 2) if n >= 3 else np.zeros(len(shared), dtype=bool)
    units = np.ascontiguousarray(shape.units, dtype=np.int32)
    return _build(shape.kind, shape.key, n * n, n, (n, n), units, shape.cell_units, units,
                  shape.pair_cells[segment], shape.pairs[segment])


def _build(kind: str, key: tuple | None, cells: int, values: int, solution_shape: tuple,
           units: np.ndarray, cell_units: np.ndarray, hidden: np.ndarray,
           segments: np.ndarray, pairs: np.ndarray) -> UnitModel:
    """The model of these units (``hidden``: the complete ones) and segments."""
    peer_starts, peers = _peers(units, cells)
    groups, links, partitions = _segment_links(hidden, segments, pairs)
    return UnitModel(kind, key, cells, values, solution_shape, units,
                     cell_units.astype(np.int32), peer_starts, peers, hidden,
                     cell_unit_table(hidden, cells).astype(np.int32), segments, pairs,
                     _unit_bits(hidden, cells), groups, links, partitions)


def _unit_bits(units: np.ndarray, cells: int) -> np.ndarray:
    """``(cells, W)`` int64: bit ``u % 64`` of word ``u // 64`` set for each unit ``u`` of a
    cell."""
    bits = np.zeros((cells, max(1, (len(units) + 63) // 64)), dtype=np.uint64)
    for u, row in enumerate(units):
        bits[row, u // 64] |= np.uint64(1) << np.uint64(u % 64)
    return bits.view(np.int64)


def _peers(units: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR peer lists: every other cell of every unit of a cell, each once, sorted."""
    width = units.shape[1]
    if units.size == 0 or width < 2:
        return np.zeros(cells + 1, dtype=np.int64), np.zeros(0, dtype=np.int32)
    a = np.repeat(units, width, axis=1).reshape(-1)
    b = np.tile(units, (1, width)).reshape(-1)
    keep = a != b
    key = np.sort(a[keep].astype(np.int64) * cells + b[keep])
    key = key[np.concatenate(([True], key[1:] != key[:-1]))]
    owner, peer = np.divmod(key, cells)
    starts = np.zeros(cells + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner, minlength=cells), out=starts[1:])
    return starts, peer.astype(np.int32)


def _segment_links(units: np.ndarray, segments: np.ndarray,
                   pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The groups, links and partitions of locked candidates (see the module)."""
    count = len(segments)
    shared = [[int(c) for c in segments[s, 0] if c >= 0] for s in range(count)]
    groups = [cells for cells in shared]
    of_unit: dict[int, list[int]] = {}
    for s in range(count):
        for u in pairs[s]:
            of_unit.setdefault(int(u), []).append(s)
    sides = []
    splits: dict[int, list[list[int]]] = {}
    for s in range(count):
        for j in range(2):
            unit = int(pairs[s, j])
            rest = {int(c) for c in segments[s, 1 + j] if c >= 0}
            parts: list[int] = []
            covered: set[int] = set()
            for t in of_unit[unit]:
                cells = set(shared[t])
                if t != s and cells <= rest and not cells & covered:
                    parts.append(t)
                    covered |= cells
            if covered != rest:
                parts.append(len(groups))
                groups.append(sorted(rest - covered))
            sides.append([unit, len(parts), *parts])
            split = sorted([s, *parts])
            if split not in splits.setdefault(unit, []):
                splits[unit].append(split)
    width = max((len(cells) for cells in groups), default=1)
    table = np.zeros((len(groups), width), dtype=np.uint32)
    for g, members in enumerate(groups):
        table[g] = members + [members[0]] * (width - len(members))   # repeats: ORs do not mind
    k = max((len(side) for side in sides), default=2)
    links = np.zeros((count, 2, k), dtype=np.uint32)
    for i, side in enumerate(sides):
        links[i // 2, i % 2, :len(side)] = side
    ways = max((len(v) for v in splits.values()), default=1)
    k = max((len(split) for v in splits.values() for split in v), default=0) + 1
    partitions = np.zeros((len(units), ways, k), dtype=np.uint32)
    for unit, found in splits.items():
        for i, split in enumerate(found):
            partitions[unit, i, :len(split) + 1] = [len(split), *split]
    return table, links, partitions
