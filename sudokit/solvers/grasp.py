"""GRASP for completion problems (engine ``grasp``): an incomplete method, solve only.

The greedy randomized adaptive search procedure of Takano, de Freitas and Sá for Sudoku,
written on the unit model. Each iteration builds a complete assignment greedily at random and
improves it by hill climbing; the search stops at cost 0 (a solution) or when its budget runs
out, and then the answer is ``unknown``. It never proves that no solution exists (an instance
with a free cell that the givens leave no value is the exception: that is reported as no
solution), so it cannot count: ``count`` with it is refused
(:class:`~sudokit.errors.UnsupportedTaskError`).

Formulation. Some units are *blocks*, kept all-different by construction; the others are
*cost units*, and the cost is the number of repetitions in them (``sum max(0, c - 1)`` over
the number ``c`` of cells holding each value):

- Sudoku (any box shape): blocks are the boxes, each filled with a permutation of the values
  its givens leave; the cost counts repetitions in rows and columns; a move swaps the values
  of two free cells of one box (the paper's formulation).
- Latin squares (no boxes): blocks are the rows; the cost counts repetitions in columns; a
  move swaps two free cells of one row.
- Graphs: every free vertex is its own block, its values the colors no precolored neighbour
  has; the cost counts monochromatic edges; a move recolors one vertex in conflict.

Construction: blocks in order, their free cells in random order; each cell takes a value from
the restricted candidate list (RCL): the candidates whose greedy cost (repetitions the value
would add) is at most ``best + alpha * (worst - best)``, drawn uniformly. ``alpha = 0`` is
pure greedy (random ties), ``alpha = 1`` pure random. Local search: steepest descent over all
moves that touch a cell in conflict, until no move lowers the cost. Each cell's candidates
are the values no given of its units holds (its candidate mask); a value outside them is
placed only when the block has no other left, and a swap that would move one there is not
tried (on Norvig's easy50, 30 puzzles solved in 1 s each instead of 23). The paper evaluates
costs with bit masks per row and column; the kernel keeps a count per unit and value instead
(a move's cost change is then O(1), and grids past 64 values work): the same costs.

Parameters: ``seed`` (default 0) fixes the random stream, so a seed gives the same answer on
every run and machine (and with ``NUMBA_DISABLE_JIT=1``; a time budget can only cut the same
sequence of iterations shorter); ``alpha`` (default :data:`DEFAULT_ALPHA`). Budgets:
``seconds``, and ``nodes`` counted as GRASP iterations. Without either, an instance gets
:data:`DEFAULT_SECONDS` of search, so a run never hangs.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> puzzle = sudoku(np.array([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]))
>>> with GRASPEngine(seed=1) as grasp:
...     puzzle.is_solution(grasp.solve(puzzle))
True
>>> layout = grasp_layout(puzzle)
>>> layout.mode == MODE_PERMUTATION, layout.block_ptr.tolist()   # the four boxes
(True, [0, 3, 6, 9, 12])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..encoders import candidate_mask
from ..errors import BudgetExhausted, UnsupportedTaskError
from ..instances import latin_square
from .budget import UNLIMITED, Budget
from .engine import EngineBase
from .grasp_kernel import MODE_PERMUTATION, MODE_RECOLOR, grasp_slice

__all__ = ["GRASPEngine", "GRASPLayout", "grasp_layout", "seed_state", "DEFAULT_ALPHA",
           "DEFAULT_SECONDS", "MODE_PERMUTATION", "MODE_RECOLOR"]

#: the RCL parameter when none is given
DEFAULT_ALPHA = 0.2
#: seconds of search per instance when the budget sets neither seconds nor nodes
DEFAULT_SECONDS = 10.0


@dataclass(frozen=True)
class GRASPLayout:
    """An instance as the kernel's flat arrays (see :mod:`sudokit.solvers.grasp_kernel`)."""

    mode: int
    values: np.ndarray        # givens, 0 for free cells
    counts: np.ndarray        # (cost units, k + 1): the givens' values in each cost unit
    cell_ptr: np.ndarray
    cell_units: np.ndarray
    block_ptr: np.ndarray
    block_cells: np.ndarray
    block_values: np.ndarray
    dom_ptr: np.ndarray
    dom_values: np.ndarray
    allowed: np.ndarray       # (cells, k + 1): the values no given of the cell's units holds

    @property
    def dead(self) -> bool:
        """A free cell with no value left (recolor mode): no solution exists."""
        return self.mode == MODE_RECOLOR and bool(
            (np.diff(self.dom_ptr)[self.block_cells] == 0).any())


def _csr(groups: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """``(ptr, members)``: for each of ``rows`` rows, the indices of ``groups`` (a 2-D array,
    one group per row of it) whose group holds that row."""
    flat = groups.reshape(-1)
    owner = np.repeat(np.arange(len(groups), dtype=np.int64), groups.shape[1])
    order = np.argsort(flat, kind="stable")
    ptr = np.zeros(rows + 1, dtype=np.int64)
    ptr[1:] = np.cumsum(np.bincount(flat, minlength=rows))
    return ptr, owner[order]


def grasp_layout(instance: Any) -> GRASPLayout:
    """Blocks, cost units and domains of ``instance`` (see the module)."""
    k, cells = int(instance.num_values), int(instance.num_cells)
    givens = np.asarray(instance.flat_givens, dtype=np.int64)
    groups = dict(instance.unit_groups())
    if "edge" in groups:
        mode, cost_units = MODE_RECOLOR, groups["edge"].astype(np.int64)
        free = np.flatnonzero(givens == 0)
        block_ptr = np.arange(len(free) + 1, dtype=np.int64)
        block_cells, block_values = free, np.zeros(len(free), dtype=np.int64)
        mask = candidate_mask(instance)
        dom_ptr = np.zeros(cells + 1, dtype=np.int64)
        dom_ptr[1:] = np.cumsum(mask.sum(axis=1))
        dom_values = (np.nonzero(mask)[1] + 1).astype(np.int64)
    else:
        block_name = "box" if "box" in groups else "row"
        blocks = groups[block_name].astype(np.int64)
        cost_units = np.concatenate([units for name, units in groups.items()
                                     if name != block_name]).astype(np.int64)
        mode = MODE_PERMUTATION
        block_cells_list, block_values_list, sizes = [], [], []
        for block in blocks:
            held = givens[block]
            block_cells_list.append(block[held == 0])
            missing = np.setdiff1d(np.arange(1, k + 1), held[held > 0])
            block_values_list.append(missing)
            sizes.append(len(missing))
        block_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        block_cells = np.concatenate(block_cells_list).astype(np.int64)
        block_values = np.concatenate(block_values_list).astype(np.int64)
        dom_ptr = np.zeros(cells + 1, dtype=np.int64)
        dom_values = np.zeros(0, dtype=np.int64)
    cell_ptr, cell_units = _csr(cost_units, cells)
    counts = np.zeros((len(cost_units), k + 1), dtype=np.int64)
    held = givens[cost_units]
    np.add.at(counts, (np.repeat(np.arange(len(cost_units)), cost_units.shape[1]),
                       held.reshape(-1)), 1)
    counts[:, 0] = 0
    allowed = np.zeros((cells, k + 1), dtype=np.bool_)
    allowed[:, 1:] = candidate_mask(instance)
    return GRASPLayout(mode, givens.copy(), counts, cell_ptr, cell_units, block_ptr,
                       block_cells, block_values, dom_ptr, dom_values, allowed)


def seed_state(seed: int) -> np.ndarray:
    """A nonzero xorshift32 state from any integer seed (a 32-bit multiplicative hash), as
    the GRASP kernel takes it.

    Examples
    --------
    >>> seed_state(0).tolist(), seed_state(0).tolist() == seed_state(2**32).tolist()
    ([2654435769], True)
    """
    state = ((int(seed) & 0xFFFFFFFF) * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF
    return np.array([state or 1], dtype=np.int64)


def _compile() -> None:
    """Compile (or load from numba's cache) the kernel before any budget's clock starts."""
    layout = grasp_layout(_WARM_UP)
    grasp_slice(layout.values.copy(), layout.counts.copy(), layout.cell_ptr, layout.cell_units,
                layout.block_ptr, layout.block_cells, layout.block_values, layout.dom_ptr,
                layout.dom_values, layout.allowed, layout.mode, DEFAULT_ALPHA, 1,
                seed_state(0), np.array([0, -1], dtype=np.int64))


_WARM_UP = latin_square(np.zeros((2, 2), dtype=np.int32))


class GRASPEngine(EngineBase):
    """The engine ``grasp`` (see the module): solve only, with a seed and an RCL ``alpha``.

    ``encoding`` and ``amo`` are accepted for the common engine signature and unused.
    """

    #: seconds aimed at between two readings of the clock
    slice_seconds = 0.05

    def __init__(self, name: str = "grasp", shape: Any = None, encoding: str | None = None,
                 amo: str | None = None, seed: int | None = None, alpha: float | None = None):
        self.name = name
        self.seed = 0 if seed is None else int(seed)
        self.alpha = DEFAULT_ALPHA if alpha is None else float(alpha)
        if not 0.0 <= self.alpha <= 1.0:
            raise UnsupportedTaskError(f"alpha must be between 0 and 1, got {self.alpha}")
        #: GRASP iterations of the last solve, and the lowest cost it reached
        self.iterations = 0
        self.best_cost = -1
        _compile()

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        return False

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        raise UnsupportedTaskError("solver grasp cannot count or prove that no solution "
                                   "exists; it only solves (use dlx or a SAT solver)")

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        """A solution, None when a free cell has no value left, or :class:`BudgetExhausted`
        when the budget (by default :data:`DEFAULT_SECONDS`) runs out first."""
        if budget.seconds is None and budget.nodes is None:
            budget = replace(budget, seconds=DEFAULT_SECONDS)
        meter = budget.start()
        layout = grasp_layout(instance)
        self.iterations, self.best_cost = 0, -1
        if layout.dead:
            return None
        values, counts = layout.values.copy(), layout.counts.copy()
        shape = instance.solution_shape
        if len(layout.block_cells) == 0:
            return values.astype(np.int32).reshape(shape)
        rng = seed_state(self.seed)
        stats = np.array([0, -1], dtype=np.int64)
        chunk = 1
        while True:
            left = meter.nodes_left(int(stats[0]))
            if left is not None and left <= 0 or meter.late():
                self.iterations, self.best_cost = int(stats[0]), int(stats[1])
                raise BudgetExhausted(f"grasp found no solution in {int(stats[0])} "
                                      f"iteration(s) (best cost {int(stats[1])}): unknown")
            run = chunk if left is None else min(chunk, left)
            started = time.perf_counter()
            found = grasp_slice(values, counts, layout.cell_ptr, layout.cell_units,
                                layout.block_ptr, layout.block_cells, layout.block_values,
                                layout.dom_ptr, layout.dom_values, layout.allowed, layout.mode,
                                self.alpha,
                                run, rng, stats)
            if found:
                self.iterations, self.best_cost = int(stats[0]), 0
                return values.astype(np.int32).reshape(shape)
            spent = time.perf_counter() - started
            if spent < self.slice_seconds / 2:
                chunk *= 2
            elif spent > self.slice_seconds * 2 and chunk > 1:
                chunk //= 2
