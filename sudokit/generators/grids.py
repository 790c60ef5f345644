"""Full Sudoku grids: the two polynomial constructions, validity-preserving shuffles, and a
genuinely random fill by randomized search with restarts.

Cells are row-major, values ``1..n``; a box shape ``(r, c)`` has ``r`` rows and ``c`` columns,
so the grid has ``c`` *bands* of ``r`` rows and ``r`` *stacks* of ``c`` columns.

Constructions (Takano et al., section 5.1; both from the circular list ``0, 1, ..., n-1`` of
the symbols, shifted, then ``+1``):

``"bands"``
    Row ``a`` of band ``B`` is the list rotated by ``c*a + B``:
    ``value(i, j) = (c*(i mod r) + i div r + j) mod n``.
``"blocks"``
    The first box holds the list row-major; the box in stack ``S`` of band ``B`` is that box
    with its rows rotated by ``S`` and its columns rotated by ``B``:
    ``value = c*((a + S) mod r) + (b + B) mod c`` for row ``a``, column ``b`` inside the box.

The random fill (:func:`random_grid`) is a depth-first search over cells in a numba kernel:
bitmask candidates, the cell with fewest candidates first (random tie-breaks), values in a
random order per cell, *and* a node budget: when it is spent the search restarts with fresh
random orders and a budget 1.5 times larger. Random fills have a heavy-tailed running time
(why Raggi et al. needed hours for 64x64); the restarts cut the tail off up to 25x25. Larger
Sudoku grids (:func:`sat_fill`) fill all bands but the last two by random matchings
(:mod:`~sudokit.generators.bands`) and let CDCL search complete the rest.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> g = pattern_grid(6, (2, 3), "blocks")
>>> g[0].tolist(), sudoku(g, (2, 3)).is_solution(g)
([1, 2, 3, 4, 5, 6], True)
>>> rng = np.random.default_rng(7)
>>> grid = random_grid(9, (3, 3), rng)
>>> sudoku(grid).is_solution(grid)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .._accel.numba_cache import njit
from ..bitmasks import MAX_VALUES
from ..errors import BudgetExhausted, InstanceError
from ..instances.patterns import PATTERNS, check_shape, pattern_grid

if TYPE_CHECKING:
    from ..solvers.budget import Meter
    from .fills import FillLike

__all__ = ["pattern_grid", "relabel", "shuffle_grid", "random_grid",
           "PATTERNS", "check_shape"]

#: the search kernel keeps candidate sets in 64-bit masks
MAX_SIDE = MAX_VALUES


def relabel(grid, rng: np.random.Generator) -> np.ndarray:
    """The grid with its symbols permuted at random (a bijection of ``1..n``).

    Examples
    --------
    >>> g = relabel(pattern_grid(4, (2, 2)), np.random.default_rng(1))
    >>> sorted(g[0].tolist())
    [1, 2, 3, 4]
    """
    grid = np.asarray(grid)
    symbols = np.concatenate(([0], rng.permutation(grid.shape[0]) + 1))
    return symbols[grid].astype(np.int32)


def _grouped_permutation(groups: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Permute ``groups`` blocks of ``size`` indices, and the indices inside each block."""
    outer = rng.permutation(groups)
    inner = np.array([rng.permutation(size) for _ in range(groups)]).reshape(groups, size)
    return (outer[:, None] * size + inner).reshape(-1)


def shuffle_grid(grid, box: tuple[int, int] | None, rng: np.random.Generator,
                 transpose: bool = True) -> np.ndarray:
    """Apply random validity-preserving transformations to a full grid.

    Relabels the symbols; permutes bands, rows within each band, stacks and columns within
    each stack; transposes with probability 1/2 when the boxes are square (``r == c``) and
    ``transpose`` is true. A Latin square (``box=None``) gets any row, column and symbol
    permutation and a random transpose.

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> g = shuffle_grid(pattern_grid(6, (2, 3)), (2, 3), np.random.default_rng(3))
    >>> sudoku(g, (2, 3)).is_solution(g)
    True
    """
    grid = relabel(grid, rng)
    n = grid.shape[0]
    if box is None:
        rows, cols, square = rng.permutation(n), rng.permutation(n), True
    else:
        r, c = box
        rows = _grouped_permutation(c, r, rng)   # c bands of r rows
        cols = _grouped_permutation(r, c, rng)   # r stacks of c columns
        square = r == c
    grid = grid[rows][:, cols]
    if transpose and square and rng.random() < 0.5:
        grid = grid.T
    return np.ascontiguousarray(grid, dtype=np.int32)


# -- randomized search --------------------------------------------------------------------
@njit
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit
def _fill_setup(grid, n, r, c, has_boxes):
    """The search state of :func:`_fill` for ``grid`` (flat, 0 = empty): the candidate masks
    of its givens, its empty cells, the stacks and ``st = [depth, nodes] = [0, 0]``."""
    one = np.uint64(1)
    rows = np.zeros(n, np.uint64)
    cols = np.zeros(n, np.uint64)
    boxes = np.zeros(n * n, np.uint64)        # a Latin square: one dummy box per cell
    cell_box = np.zeros(n * n, np.int64)
    for cell in range(n * n):
        i, j = cell // n, cell % n
        cell_box[cell] = (i // r) * (n // c) + j // c if has_boxes else cell
        v = grid[cell]
        if v > 0:
            bit = one << np.uint64(v - 1)
            rows[i] |= bit
            cols[j] |= bit
            if has_boxes:
                boxes[cell_box[cell]] |= bit
    empty = np.flatnonzero(grid == 0)
    depth_cell = np.full(len(empty) + 1, -1, np.int64)
    depth_pos = np.zeros(len(empty) + 1, np.int64)   # next index into order[cell]
    st = np.zeros(2, np.int64)
    return rows, cols, boxes, cell_box, empty, depth_cell, depth_pos, st


@njit
def _fill(grid, n, rows, cols, boxes, cell_box, empty, rank, order, depth_cell, depth_pos,
          st, max_nodes, stop_nodes):
    """Complete ``grid`` (flat, 0 = empty) in place by depth-first search, resumably.

    Branches on the empty cell with fewest candidates (lowest ``rank`` on ties) and tries its
    values in the order ``order[cell]``. Returns 1 on success; 0 (grid restored to its givens)
    after ``max_nodes`` placements in all or when there is no completion; -1 when this call
    reached ``stop_nodes`` placements: the search stopped in ``st`` (``[depth, nodes]``),
    ``depth_cell`` and ``depth_pos``, and the next call goes on exactly where it stopped.
    Start from the state :func:`_fill_setup` makes.
    """
    one = np.uint64(1)
    full = (one << np.uint64(n)) - one if n < 64 else ~np.uint64(0)
    depth = st[0]
    nodes = st[1]
    while depth < len(empty):
        cell = depth_cell[depth]
        if cell < 0:                                  # choose a cell at this depth
            best, best_count, best_rank = -1, 65, 1 << 62
            for e in empty:
                if grid[e] != 0:
                    continue
                cand = full & ~(rows[e // n] | cols[e % n] | boxes[cell_box[e]])
                k = _popcount(cand)
                if k < best_count or (k == best_count and rank[e] < best_rank):
                    best, best_count, best_rank = e, k, rank[e]
                    if k == 0:
                        break
            if best_count == 0:
                cell = -1
            else:
                cell = best
                depth_cell[depth] = cell
                depth_pos[depth] = 0
        else:                                         # undo this depth's value, try the next
            v = grid[cell]
            bit = ~(one << np.uint64(v - 1))
            rows[cell // n] &= bit
            cols[cell % n] &= bit
            boxes[cell_box[cell]] &= bit
            grid[cell] = 0
        placed = False
        if cell >= 0:
            cand = full & ~(rows[cell // n] | cols[cell % n] | boxes[cell_box[cell]])
            while depth_pos[depth] < n:
                v = order[cell, depth_pos[depth]]
                depth_pos[depth] += 1
                bit = one << np.uint64(v - 1)
                if cand & bit:
                    grid[cell] = v
                    rows[cell // n] |= bit
                    cols[cell % n] |= bit
                    boxes[cell_box[cell]] |= bit
                    placed = True
                    break
        if placed:
            nodes += 1
            depth += 1
            depth_cell[depth] = -1
            if nodes >= max_nodes:
                break
            if nodes >= stop_nodes and depth < len(empty):
                st[0] = depth
                st[1] = nodes
                return -1
        else:                                         # backtrack
            if cell >= 0:
                depth_cell[depth] = -1
            depth -= 1
            if depth < 0:
                break
    st[0] = depth
    st[1] = nodes
    if depth == len(empty):
        return 1
    for e in empty:                                   # failed: leave the givens only
        grid[e] = 0
    return 0


#: work per :func:`_fill` call (nodes times the cells scanned at each): about 5-40 ms
FILL_SLICE_WORK = 5_000_000


def _search_fill(grid, n, r, c, has_boxes, rank, order, max_nodes, meter=None,
                 progress=None, stats=None) -> bool:
    """:func:`_fill` in slices of :data:`FILL_SLICE_WORK`, reading the clock between them
    (``stats["nodes"]``, if given, grows by the placements made)."""
    rows, cols, boxes, cell_box, empty, depth_cell, depth_pos, st = \
        _fill_setup(grid, n, r, c, has_boxes)
    step = max(1, FILL_SLICE_WORK // max(len(empty), 1))
    try:
        while True:
            result = _fill(grid, n, rows, cols, boxes, cell_box, empty, rank, order,
                           depth_cell, depth_pos, st, max_nodes, st[1] + step)
            if result >= 0:
                return bool(result)
            if progress is not None:
                progress()
            if meter is not None and meter.late():
                grid[empty] = 0
                raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid")
    finally:
        if stats is not None:
            stats["nodes"] = stats.get("nodes", 0) + int(st[1])


def sat_fill(n: int, box: tuple[int, int], rng: np.random.Generator,
             solver: str = "cadical195", conflicts: int = 200_000, max_restarts: int = 20,
             stats: dict | None = None, meter: Meter | None = None) -> np.ndarray:
    """A random full Sudoku grid by randomized search: random matchings, then CDCL.

    All bands but the last two are filled row by row with random perfect matchings
    (:func:`~sudokit.generators.bands.random_bands`); CaDiCaL completes the last two bands from
    the compact ``reduced`` encoding with sequential-counter at-most-one constraints, and a
    random relabelling and validity-preserving shuffle finish the grid. Should the two bands
    not complete within ``conflicts`` conflicts (not seen in testing), the fill restarts with
    new random bands. Measured: 64x64 in 0.4-0.64 s where filling it from random diagonal
    boxes took 14-104 s and Raggi et al. report hours (``benchmarks/generate_rate.py``).

    ``stats``, if given, gets ``restarts`` and the solver's ``conflicts``. ``meter``, a running
    time budget (:meth:`~sudokit.solvers.budget.Budget.start`), bounds the whole fill
    (:class:`~sudokit.errors.BudgetExhausted`); the CDCL search runs in conflict-bounded
    slices, so the clock and Ctrl-C are seen throughout.

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> grid = sat_fill(16, (4, 4), np.random.default_rng(3))
    >>> sudoku(np.zeros((16, 16), dtype=int)).is_solution(grid)
    True
    """
    from ..instances import sudoku
    from ..solvers.budget import Budget
    from ..solvers.registry import open_engine
    from .bands import random_bands

    def late() -> bool:
        return meter is not None and meter.late()

    matched = max(0, box[1] - 2)          # c bands of r rows; leave the last two to CDCL
    with open_engine(solver, encoding="reduced", amo="seqcounter") as engine:
        for restart in range(max_restarts):
            top = random_bands(n, box, matched, rng)
            if late():
                break
            seconds = None if meter is None else meter.seconds_left()
            try:
                grid = engine.solve(sudoku(top, box), Budget(conflicts=conflicts,
                                                             seconds=seconds))
            except BudgetExhausted:
                if late():
                    break
                grid = None
            if stats is not None:
                stats["restarts"] = restart
                stats["conflicts"] = getattr(engine, "conflicts", 0)  # a CDCL engine
            if grid is not None:
                return shuffle_grid(relabel(grid, rng), box, rng)
    if late():
        raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid")
    raise BudgetExhausted(f"no {n}x{n} completion of random bands within {conflicts} "
                          f"conflicts, {max_restarts} times")


#: ``random_grid(method="auto")`` backtracks up to this side and uses :func:`sat_fill` above
SEARCH_MAX_SIDE = 25


def random_grid(n: int, box: tuple[int, int] | None, rng: np.random.Generator,
                givens=None, max_restarts: int | None = None, stats: dict | None = None,
                method: FillLike = "auto", meter: Meter | None = None,
                progress: Callable[[], None] | None = None,
                alpha: float | None = None) -> np.ndarray:
    """A random full grid (Sudoku, or Latin square with ``box=None``) by randomized search.

    ``method`` names a fill strategy of :data:`~sudokit.generators.fills.FILLS` (or is one,
    or a fill function: anything :func:`~sudokit.generators.fills.fill_strategy` takes):
    ``"search"`` always searches (from the empty grid, or from ``givens``); ``"sat"`` fills
    an empty Sudoku by random matchings and CDCL search (:func:`sat_fill`); ``"product"``
    uses the construction :func:`~.fill_product.product_grid`; ``"auto"`` (default) backtracks up to
    :data:`SEARCH_MAX_SIDE` and uses ``"sat"`` beyond, where the backtracking search's heavy
    tail grows too fast; ``"backtrack"``, ``"prune"``, ``"weighted-prune"``, ``"ilp"`` and
    ``"grasp"`` are the seed papers' methods (empty Sudoku grids only). Givens and Latin
    squares are always filled by ``"search"`` (the strategies that allow it) or refused.

    The search runs in slices of :data:`FILL_SLICE_WORK` (tens of milliseconds), so the clock
    is read and Ctrl-C is seen while a large grid is filled; slicing does not change the grid.

    Parameters
    ----------
    n : int
        Side, at most 64.
    box : tuple of int or None
    rng : numpy.random.Generator
        The only source of randomness: the same generator state gives the same grid.
    givens : array_like, optional
        ``(n, n)`` values to extend (0 = empty); they must be completable.
    max_restarts : int, optional
        Give up with :class:`~sudokit.errors.BudgetExhausted` after this many restarts
        (default: the strategy's; 200 for the search).
    stats : dict, optional
        Filled with ``restarts`` (how many restarts the search needed) and ``nodes`` (and,
        for an empty Sudoku, the rest of :func:`~sudokit.generators.fills.fill_grid`'s).
    meter : Meter, optional
        A running time budget (:meth:`~sudokit.solvers.budget.Budget.start`); when it runs
        out, :class:`~sudokit.errors.BudgetExhausted`.
    progress : callable, optional
        Called with no arguments between slices of the search.
    alpha : float, optional
        The parameter of a strategy that takes one.

    Examples
    --------
    >>> g = random_grid(4, None, np.random.default_rng(0))
    >>> sorted(g[:, 0].tolist())
    [1, 2, 3, 4]
    """
    from .fills import fill_grid, fill_strategy

    check_shape(n, box)
    if n > MAX_SIDE:
        raise InstanceError(f"random fills go up to {MAX_SIDE}x{MAX_SIDE}, got {n}x{n}")
    strategy = fill_strategy(method)
    if box is not None and givens is None:
        return fill_grid(strategy, n, box, rng, alpha=alpha, meter=meter, stats=stats,
                         progress=progress, max_restarts=max_restarts)
    if not strategy.extends:
        raise InstanceError(f"fill {strategy.name} makes empty Sudoku grids only; use search to "
                            "extend givens or fill a Latin square")
    return search_fill(n, box, rng, givens=givens, max_restarts=max_restarts, stats=stats,
                       meter=meter, progress=progress)


def search_fill(n: int, box: tuple[int, int] | None, rng: np.random.Generator, *,
                givens=None, max_restarts: int | None = None, stats: dict | None = None,
                meter: Meter | None = None, progress: Callable[[], None] | None = None,
                alpha: float | None = None) -> np.ndarray:
    """The fill strategy ``search`` (see :func:`random_grid`): restarts with fresh random
    orders and a node budget 1.5 times larger, at most ``max_restarts`` (default 200)."""
    r, c = box if box is not None else (1, n)
    start = np.zeros(n * n, np.int32) if givens is None else \
        np.asarray(givens, dtype=np.int32).reshape(-1).copy()
    budget = 4 * n * n + 100
    for restart in range(200 if max_restarts is None else max_restarts):
        if meter is not None and meter.late():
            raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid")
        rank = rng.permutation(n * n).astype(np.int64)
        order = rng.permuted(np.tile(np.arange(1, n + 1, dtype=np.int32), (n * n, 1)), axis=1)
        grid = start.copy()
        ok = _search_fill(grid, n, r, c, box is not None, rank, order, budget, meter, progress,
                          stats)
        if stats is not None:
            stats["restarts"] = restart
        if ok:
            return grid.reshape(n, n)
        budget = int(budget * 1.5)
    raise BudgetExhausted(f"no {n}x{n} grid found after {max_restarts or 200} restarts")


def auto_fill(n: int, box: tuple[int, int], rng: np.random.Generator, **options) -> np.ndarray:
    """The fill strategy ``auto``: ``search`` up to :data:`SEARCH_MAX_SIDE`, ``sat`` above."""
    if n > SEARCH_MAX_SIDE:
        return sat_strategy(n, box, rng, **options)
    return search_fill(n, box, rng, **options)


def sat_strategy(n: int, box: tuple[int, int], rng: np.random.Generator, *,
                 max_restarts: int | None = None, stats: dict | None = None,
                 meter: Meter | None = None, **_) -> np.ndarray:
    """The fill strategy ``sat`` (:func:`sat_fill`; ``nodes`` counts CDCL conflicts)."""
    grid = sat_fill(n, box, rng, max_restarts=20 if max_restarts is None else max_restarts,
                    stats=stats, meter=meter)
    if stats is not None:
        stats["nodes"] = stats.get("conflicts", 0)
    return grid
