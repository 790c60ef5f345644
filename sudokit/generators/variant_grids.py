"""Full grids and region maps for the puzzle variants (X-Sudoku, windoku, DG, jigsaw).

The fill strategies of :mod:`~sudokit.generators.fills` build classic grids from the box
structure; a variant adds units they do not know. A variant grid is made here through the
units instead: a few random cells get random values that no peer holds (a peer: a cell that
shares a unit with it, the variant's units included), an engine that reads the units (takano up
to 16x16, CaDiCaL above) completes them within a search budget (nodes or conflicts, so the
result does not depend on the machine's speed), and a random relabelling of the values (which keeps
every all-different unit all-different) spreads the grids over the whole set. A random start
that cannot be completed is drawn again.

Jigsaw region maps (:func:`random_regions`) start from the boxes (rows for a prime side) and
swap cells between neighbouring regions at random, keeping every region connected and of
``n`` cells; a map whose grid cannot be completed is drawn again by the generator.

Examples
--------
>>> from sudokit.instances import sudoku
>>> rng = np.random.default_rng(3)
>>> template = sudoku(np.zeros((9, 9), dtype=int), variants=["x"])
>>> grid = random_variant_grid(template, rng)
>>> template.is_solution(grid)
True
>>> regions = random_regions(9, rng)
>>> sorted(np.bincount(regions.reshape(-1)).tolist()) == [9] * 9
True
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..errors import BudgetExhausted
from ..instances.grid import GridPuzzle
from ..instances.units import cell_unit_table
from ..solvers.budget import Budget, Meter
from ..solvers.registry import (
    DEFAULT_SOLVER,
    ENGINES,
    FAST_GRID_MAX_SIDE,
    FAST_GRID_SOLVER,
    open_engine,
)

__all__ = ["random_variant_grid", "random_regions", "VARIANT_FILL_ATTEMPTS"]

#: random starts tried before a grid is declared out of reach (the variant or map admits
#: no completion, as a windoku of 4x4 with an X does not)
VARIANT_FILL_ATTEMPTS = 50

#: the search budget of one random start, per cell: search nodes for takano, conflicts for
#: CaDiCaL (a start past it is drawn again: an unlucky start, or a map with no grid at all)
ATTEMPT_WORK_PER_CELL = 200


def _peers(template: GridPuzzle) -> list[np.ndarray]:
    """Each cell's peers: the other cells of its units."""
    units = template.units()
    table = cell_unit_table(units, template.num_cells)
    return [np.setdiff1d(np.unique(units[row[row >= 0]]), [cell])
            for cell, row in enumerate(table)]


def random_variant_grid(template: GridPuzzle, rng: np.random.Generator,
                        meter: Meter | None = None, engine=None,
                        attempts: int = VARIANT_FILL_ATTEMPTS) -> np.ndarray:
    """A random full grid of ``template``'s shape, variants and region map (see the module).

    Parameters
    ----------
    template : GridPuzzle
        The empty grid of the shape.
    rng : numpy.random.Generator
        The only source of randomness.
    meter : Meter, optional
        A running budget; :class:`~sudokit.errors.BudgetExhausted` when it runs out.
    engine : Engine, optional
        An engine opened for the shape (one is opened and closed here otherwise): takano
        or a SAT engine.

    Raises
    ------
    BudgetExhausted
        No start of ``attempts`` could be completed (the variants leave no grid), or the
        budget ran out.
    """
    n = template.n
    peers = _peers(template)
    own = engine is None
    if own:
        name = FAST_GRID_SOLVER if n <= FAST_GRID_MAX_SIDE else DEFAULT_SOLVER
        engine = open_engine(name, shape=template)
    work = ATTEMPT_WORK_PER_CELL * n * n
    field = "conflicts" if "conflicts" in ENGINES[engine.name].budgets and \
        "nodes" not in ENGINES[engine.name].budgets else "nodes"
    try:
        for _ in range(attempts):
            if meter is not None and meter.late():
                raise BudgetExhausted("the budget ran out while filling a variant grid")
            flat = np.zeros(n * n, dtype=np.int32)
            for cell in rng.permutation(n * n)[:n].tolist():
                free = np.setdiff1d(np.arange(1, n + 1), flat[peers[cell]])
                if len(free):
                    flat[cell] = int(rng.choice(free))
            left = None if meter is None else meter.seconds_left()
            seconds = None if left is None else max(left, 1e-3)
            try:
                solution = engine.solve(template.with_givens(flat.reshape(n, n)),
                                        Budget(seconds=seconds, **{field: work}))
            except BudgetExhausted:
                if meter is not None and meter.late():
                    raise
                continue                     # this start takes too long: draw another
            if solution is not None:
                relabel = np.concatenate([[0], rng.permutation(n) + 1]).astype(np.int32)
                return relabel[np.asarray(solution, dtype=np.int64)]
    finally:
        if own:
            engine.close()
    raise BudgetExhausted(f"no {n}x{n} grid with the variants {', '.join(template.variants)} "
                          f"was found from {attempts} random starts")


def _default_partition(n: int) -> np.ndarray:
    """The boxes closest to square (rows for a prime side), as region numbers."""
    shapes = [(r, n // r) for r in range(1, n + 1) if n % r == 0]
    r, c = min(shapes, key=lambda s: (abs(s[0] - s[1]), -s[0]))
    i, j = np.indices((n, n))
    return (i // r) * (n // c) + j // c


def _connected(regions: np.ndarray, region: int) -> bool:
    n = regions.shape[0]
    cells = np.argwhere(regions == region)
    if not len(cells):
        return True
    seen = {tuple(cells[0])}
    queue = deque(seen)
    while queue:
        i, j = queue.popleft()
        for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if 0 <= a < n and 0 <= b < n and (a, b) not in seen and regions[a, b] == region:
                seen.add((a, b))
                queue.append((a, b))
    return len(seen) == len(cells)


def random_regions(n: int, rng: np.random.Generator, swaps: int | None = None) -> np.ndarray:
    """A random map of ``n`` connected regions of ``n`` cells (see the module); ``swaps``
    successful swaps of two neighbouring cells between their regions (default ``2 n^2``).

    Examples
    --------
    >>> regions = random_regions(6, np.random.default_rng(0))
    >>> regions.shape, sorted(set(regions.reshape(-1).tolist()))
    ((6, 6), [0, 1, 2, 3, 4, 5])
    """
    regions = _default_partition(n).astype(np.int64)
    wanted = 2 * n * n if swaps is None else swaps
    done = tries = 0
    while done < wanted and tries < 50 * max(wanted, 1) and n > 1:
        tries += 1
        i, j = (int(v) for v in rng.integers(0, n, size=2))
        di, dj = ((1, 0), (0, 1), (-1, 0), (0, -1))[int(rng.integers(0, 4))]
        a, b = i + di, j + dj
        if not (0 <= a < n and 0 <= b < n) or regions[i, j] == regions[a, b]:
            continue
        # a cell of the other region next to (i, j)'s region, and one next to (a, b)'s:
        # give (a, b) to (i, j)'s region and take back a cell of it that borders the other
        first, second = int(regions[i, j]), int(regions[a, b])
        border = [(x, y) for x, y in np.argwhere(regions == first).tolist()
                  if (x, y) != (i, j) and any(
                      0 <= x + p < n and 0 <= y + q < n and regions[x + p, y + q] == second
                      and (x + p, y + q) != (a, b)
                      for p, q in ((1, 0), (0, 1), (-1, 0), (0, -1)))]
        if not border:
            continue
        x, y = border[int(rng.integers(0, len(border)))]
        regions[a, b], regions[x, y] = first, second
        if _connected(regions, first) and _connected(regions, second):
            done += 1
        else:
            regions[a, b], regions[x, y] = second, first
    _, first_cells = np.unique(regions.reshape(-1), return_index=True)
    order = np.argsort(first_cells)       # number the regions by their first cell
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rank[regions]

