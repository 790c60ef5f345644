"""How the kernels of the engine ``cp`` see an instance: model arrays, scratch and state.

Numpy only (no numba), so the engine sizes and fills everything before a kernel runs. The
kernels (:mod:`sudokit.solvers.hard_propagate`, :mod:`~sudokit.solvers.hard_match`,
:mod:`~sudokit.solvers.hard_choice`, :mod:`~sudokit.solvers.hard_search`) take

``model``: :class:`HardModel`
    the units (``(U, w)`` cells, ``-1`` padded), whether each is *complete* (as many cells as
    values: rows, columns, boxes; AllDifferent by matching runs on those), each cell's units,
    its peers (CSR) and for each peer a unit the two share (the unit a failure is charged
    to, for dom/wdeg), the *segments* (the cells a line and a box share, with the line's
    and the box's other cells) and each unit's segments, and ``log_f``, ``log(r!) / r``
    for ``r = 0..64`` (the Minc-Bregman bound of Zanarini and Pesant's solution densities);
``work``: :class:`HardWork`
    the domains (one ``int64`` bit mask per cell), the trail, the decision levels, the cell
    and unit queues, each unit's last matching (a warm start), the units' failure weights,
    scratch, the branch's refuted values, the nogood store (clauses of ``cell != value``
    literals ``cell * 64 + value``, their two watched literals first, and the watch lists:
    :mod:`~sudokit.solvers.hard_nogood`), the first solution and the ``state`` vector
    (indices ``S_*`` below).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> model = hard_model(latin_square(np.zeros((3, 3), dtype=int)))
>>> model.units.shape, model.complete.tolist(), model.cell_units[4].tolist()
((6, 3), [1, 1, 1, 1, 1, 1], [1, 4])
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .unit_model import UnitModel, unit_model

__all__ = ["HardModel", "HardWork", "hard_model", "new_work", "nogood_capacity", "seed_state",
           "S_DEPTH", "S_PHASE", "S_SOLUTIONS", "S_NODES", "S_FAILS", "S_RESTARTS", "S_RNG",
           "S_LUBY", "S_SINCE", "S_LAST", "S_ROOT", "S_TRAIL", "S_CELLS", "S_UNITS",
           "S_PROPAGATIONS", "S_MATCHINGS", "S_NEGS", "S_NOGOODS", "S_NG_LITS", "S_RECORDED",
           "S_NG_PRUNES", "STATE_SIZE", "RUNNING", "FINISHED"]

# the state vector: depth, phase, solutions found, nodes, failures, restarts, random state,
# the Luby index, failures since the last restart, the last-conflict cell, the trail length
# kept by a restart, the trail length, the cell and unit queue lengths, propagation calls,
# matching runs, the branch's refuted values, the nogoods stored and their literals, the
# nogoods recorded in all, the values removed (and failures found) by nogoods
(S_DEPTH, S_PHASE, S_SOLUTIONS, S_NODES, S_FAILS, S_RESTARTS, S_RNG, S_LUBY, S_SINCE,
 S_LAST, S_ROOT, S_TRAIL, S_CELLS, S_UNITS, S_PROPAGATIONS, S_MATCHINGS, S_NEGS, S_NOGOODS,
 S_NG_LITS, S_RECORDED, S_NG_PRUNES) = range(21)
STATE_SIZE = 21

#: ``state[S_PHASE]``: the search goes on; the search space is exhausted
RUNNING, FINISHED = 0, 1


@dataclass(frozen=True, eq=False)
class HardModel:
    """The read-only arrays of one shape (see the module); build with :func:`hard_model`."""

    num_cells: int
    num_values: int
    solution_shape: tuple[int, ...]
    units: np.ndarray          # (U, w) int32, -1 padded
    complete: np.ndarray       # (U,) int8
    cell_units: np.ndarray     # (C, m) int32, -1 padded
    peer_starts: np.ndarray    # (C + 1,) int64
    peers: np.ndarray          # (P,) int32
    peer_unit: np.ndarray      # (P,) int32
    segments: np.ndarray       # (S, 3, w) int32: shared cells, the line's and box's others
    unit_segs: np.ndarray      # (U, k) int32: the segments of each unit, -1 padded
    log_f: np.ndarray          # (65,) float64

    @property
    def full(self) -> int:
        """Every value's bit (int64 pattern)."""
        return -1 if self.num_values == 64 else (1 << self.num_values) - 1

    def args(self) -> tuple:
        """The arrays in the kernels' order."""
        return (self.units, self.complete, self.cell_units, self.peer_starts, self.peers,
                self.peer_unit, self.segments, self.unit_segs, self.log_f)


@dataclass(frozen=True, eq=False)
class HardWork:
    """The mutable arrays of one search (see the module); make with :func:`new_work`."""

    dom: np.ndarray        # (C,) int64
    trail: np.ndarray      # (T, 2) int64: cell, old mask
    levels: np.ndarray     # (C + 2, 3) int64: trail length, cell, value
    cell_queue: np.ndarray  # (C,) int32
    in_queue: np.ndarray   # (C,) int8
    unit_queue: np.ndarray  # (U,) int32
    dirty: np.ndarray      # (U,) int8
    matches: np.ndarray    # (U, w) int8: the value of each position in the last matching
    weights: np.ndarray    # (U,) float64
    scratch: np.ndarray    # (6, 64) int64
    density: np.ndarray    # (U, 64) float64
    negs: np.ndarray       # (C * V + 1, 3) int32: decisions before, cell, value
    ng_lits: np.ndarray    # (L,) int32: cell * 64 + value, the literal cell != value
    ng_info: np.ndarray    # (N, 3) int64: first literal, length, uses
    watch_head: np.ndarray  # (C * 64,) int32: first watcher (2 * nogood + 0|1), -1 none
    watch_next: np.ndarray  # (2 * N,) int32: the next watcher of the same literal
    first: np.ndarray      # (C,) int32
    state: np.ndarray      # (STATE_SIZE,) int64

    def args(self) -> tuple:
        """The arrays in the kernels' order (``first`` and ``state`` last)."""
        return (self.dom, self.trail, self.levels, self.cell_queue, self.in_queue,
                self.unit_queue, self.dirty, self.matches, self.weights, self.scratch,
                self.density, self.negs, *self.nogood_args(), self.first, self.state)

    def nogood_args(self) -> tuple:
        """The nogood store (``ng_lits, ng_info, watch_head, watch_next``), as
        :func:`~sudokit.solvers.hard_propagate.propagate` takes it."""
        return self.ng_lits, self.ng_info, self.watch_head, self.watch_next


_MODELS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def hard_model(instance: Any) -> HardModel:
    """The arrays of ``instance``'s shape, built once per unit model (a grid's shape shares
    one; a graph has its own).

    Raises
    ------
    UnsupportedTaskError
        As :func:`~sudokit.solvers.unit_model.unit_model`: not a grid or graph, or more than
        64 values.
    """
    base = unit_model(instance)
    found = _MODELS.get(base)
    if found is None:
        found = _build(base)
        _MODELS[base] = found
    return found


def _build(base: UnitModel) -> HardModel:
    cells, values = base.num_cells, base.num_values
    units = np.ascontiguousarray(base.units, dtype=np.int32)
    sizes = (units >= 0).sum(axis=1)
    complete = (sizes == values).astype(np.int8)
    peer_starts = base.peer_starts.astype(np.int64)
    peers = base.peers.astype(np.int32)
    owner = np.repeat(np.arange(cells, dtype=np.int64), np.diff(peer_starts))
    # a unit holding each ordered pair of cells (the last unit listed wins: any one will do)
    width = units.shape[1]
    if units.size and width >= 2:
        a = np.repeat(units, width, axis=1).reshape(-1).astype(np.int64)
        b = np.tile(units, (1, width)).reshape(-1).astype(np.int64)
        which = np.repeat(np.arange(len(units), dtype=np.int64), width * width)
        keep = (a != b) & (a >= 0) & (b >= 0)
        keys, which = a[keep] * cells + b[keep], which[keep]
        order = np.argsort(keys, kind="stable")
        keys, which = keys[order], which[order]
        where = np.searchsorted(keys, owner * cells + peers, side="right") - 1
        peer_unit = which[where].astype(np.int32)
    else:
        peer_unit = np.zeros(len(peers), dtype=np.int32)
    log_f = np.array([0.0] + [math.lgamma(r + 1) / r for r in range(1, 65)])
    segments = np.ascontiguousarray(base.segments, dtype=np.int32)
    if len(segments) and not np.array_equal(base.hidden_units, base.units):
        segments = segments[:0]         # segment_units index the complete units: grids only
    of_unit: list[list[int]] = [[] for _ in range(max(len(units), 1))]
    for s, pair in enumerate(base.segment_units[:len(segments)].tolist()):
        for u in pair:
            of_unit[u].append(s)
    unit_segs = np.full((len(of_unit), max(1, max(map(len, of_unit)))), -1, dtype=np.int32)
    for u, found in enumerate(of_unit):
        unit_segs[u, :len(found)] = found
    if not len(segments):
        segments = np.full((0, 3, max(width, 1)), -1, dtype=np.int32)
    return HardModel(cells, values, tuple(base.solution_shape), units, complete,
                     np.ascontiguousarray(base.cell_units, dtype=np.int32), peer_starts, peers,
                     peer_unit, segments, unit_segs, log_f)


def nogood_capacity(num_cells: int) -> tuple[int, int]:
    """``(nogoods, literals)`` the store of a shape of ``num_cells`` cells holds at most.

    >>> nogood_capacity(900)
    (3600, 230400)
    """
    return (min(max(4 * num_cells, 256), 1 << 15),
            min(max(256 * num_cells, 4096), 1 << 21))


def new_work(model: HardModel) -> HardWork:
    """Fresh scratch for one search of ``model``'s shape (its memory: about ``C * (V + 1)``
    trail entries of 16 bytes and as many refuted values of 12, the nogood store of
    :func:`nogood_capacity`)."""
    cells, values = model.num_cells, model.num_values
    count, width = model.units.shape
    most, room = nogood_capacity(cells)
    return HardWork(np.zeros(cells, dtype=np.int64),
                    np.zeros((cells * (values + 1) + 1, 2), dtype=np.int64),
                    np.zeros((cells + 2, 3), dtype=np.int64),
                    np.zeros(cells, dtype=np.int32), np.zeros(cells, dtype=np.int8),
                    np.zeros(max(count, 1), dtype=np.int32),
                    np.zeros(max(count, 1), dtype=np.int8),
                    np.full((max(count, 1), max(width, 1)), -1, dtype=np.int8),
                    np.ones(max(count, 1), dtype=np.float64),
                    np.zeros((6, 64), dtype=np.int64),
                    np.zeros((max(count, 1), 64), dtype=np.float64),
                    np.zeros((cells * values + 1, 3), dtype=np.int32),
                    np.zeros(room, dtype=np.int32),
                    np.zeros((most, 3), dtype=np.int64),
                    np.full(max(cells, 1) * 64, -1, dtype=np.int32),
                    np.full(2 * most, -1, dtype=np.int32),
                    np.zeros(cells, dtype=np.int32),
                    np.zeros(STATE_SIZE, dtype=np.int64))


def seed_state(seed: int) -> int:
    """A nonzero xorshift64 state from any integer seed (as ``state[S_RNG]`` takes it).

    >>> seed_state(0) == seed_state(0) != seed_state(1)
    True
    """
    x = ((int(seed) & 0xFFFFFFFFFFFFFFFF) * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D)
    x &= 0x7FFFFFFFFFFFFFFF
    return x or 1
