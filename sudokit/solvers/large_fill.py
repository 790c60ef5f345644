"""Completing a large, sparsely given grid fast: random matchings for most bands, CDCL for the rest.

A 64x64 Sudoku with 1 % to a few % of its cells given defeats the exact paths: its CNF has
~262,000 variables and CaDiCaL has been seen to search it for minutes, like the CP engines.
Yet such a grid has a huge number of completions, and a randomized construction finds one in
about a second. :func:`fill_sparse` does what :func:`~sudokit.generators.grids.sat_fill` does
for the empty grid, around the givens:

1. Band by band, the bands with the most givens first, the rows are filled each by a
   random perfect matching "cell -> value" in the bipartite graph of the values its row,
   column and box still allow, where *every* given of the grid counts as placed (a value given
   lower down a column is never put higher up in it). The matchings are Kuhn's augmenting
   paths, cells and values visited in random order, in one numba kernel; a row without a
   perfect matching restarts its band, and a band that keeps failing keeps the rows its last
   try matched and leaves the others to step 2.
2. CaDiCaL (through PySAT) completes the last ``tail`` rows of that order (a quarter of the
   grid: :func:`default_tail`) and any row left by step 1, from a CNF of what is left: the
   free cells' candidates only (~16,000 variables and ~470,000 clauses on a sparse 64x64,
   where the whole grid has a quarter million variables), exactly one value per cell and one
   place per missing value of each row, column and box, with pairwise at-most-one.
3. Should that part have no completion (or none within a conflict budget), the attempt starts
   again with new random matchings.

The method is sound but incomplete: a grid it returns has passed
:meth:`~sudokit.instances.grid.GridPuzzle.is_solution`, and when it finds none within its
attempts or its deadline it returns None, which says nothing about the instance; the caller
then runs the exact search (:meth:`~sudokit.solvers.sat.SATEngine.solve` does). Unsatisfiable
givens therefore end in None (at once when a cell or a unit's value has no candidate left),
never in a wrong "no solution".

Values are bits ``0..n-1`` of an ``int64`` inside the kernel (``n <= 64``), ``1..n`` outside.
A Latin square is the case of one-row bands and no boxes.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> givens = np.zeros((16, 16), dtype=int)
>>> givens[0, :4] = [1, 2, 3, 4]
>>> puzzle = sudoku(givens)
>>> grid = fill_sparse(puzzle, deadline=None, seed=1)
>>> puzzle.is_solution(grid), grid[0, :4].tolist()
(True, [1, 2, 3, 4])
"""

from __future__ import annotations

import time

import numpy as np

from .._accel.numba_cache import njit
from ..cnf import CNF
from ..errors import BudgetExhausted
from ..problems import problem_kind
from .budget import Budget
from .pysat_solver import load_cnf, open_solver, read_model, run_solver

__all__ = ["fill_sparse", "default_tail", "MAX_SIDE"]

#: the kernel keeps candidate sets in 64-bit masks
MAX_SIDE = 64

#: an attempt whose left-over part would take more clauses than this gives up (loading them
#: into CaDiCaL costs about 2.5 microseconds each: 1.5 M is about 4 s)
MAX_CLAUSES = 1_500_000

#: conflicts of CDCL search between two readings of the clock
_SLICE = 2_000


# -- random matchings (numba) ---------------------------------------------------------------
@njit
def _next(state):
    """xorshift64*: the next pseudo-random ``uint64`` of ``state`` (one cell, updated)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit
def _below(state, bound):
    """A pseudo-random integer in ``0..bound-1`` (``bound`` small: the bias is negligible)."""
    return np.int64((_next(state) >> np.uint64(33)) % np.uint64(bound))


@njit
def _shuffle(values, state):
    """Fisher-Yates, in place."""
    for k in range(len(values) - 1, 0, -1):
        m = _below(state, k + 1)
        values[k], values[m] = values[m], values[k]


@njit
def _augment(root, allowed, order, owner, seen, n, stack, pos, via):
    """Match cell ``root`` along an augmenting path (Kuhn, iterative depth-first search;
    ``order[cell]`` is the order in which the cell tries the values)."""
    depth = 0
    stack[0] = root
    pos[0] = 0
    while depth >= 0:
        cell = stack[depth]
        deeper = False
        while pos[depth] < n:
            v = order[cell, pos[depth]]
            pos[depth] += 1
            if (allowed[cell] >> v) & 1 == 0 or seen[v]:
                continue
            seen[v] = True
            via[depth] = v
            if owner[v] < 0:                     # a free value: flip the path
                for d in range(depth, -1, -1):
                    owner[via[d]] = stack[d]
                return True
            depth += 1
            stack[depth] = owner[v]
            pos[depth] = 0
            deeper = True
            break
        if not deeper:
            depth -= 1
    return False


@njit
def _match_row(allowed, n, state, owner, seen, order, cells, stack, pos, via):
    """A random perfect matching of a row's ``n`` cells to the ``n`` values (``owner``:
    value -> cell), or False when the row has none."""
    for j in range(n):
        for k in range(n):
            order[j, k] = k
        _shuffle(order[j], state)
        cells[j] = j
    _shuffle(cells, state)
    for v in range(n):
        owner[v] = -1
    for k in range(n):
        for v in range(n):
            seen[v] = False
        if not _augment(cells[k], allowed, order, owner, seen, n, stack, pos, via):
            return False
    return True


@njit
def _fill_rows(grid, n, r, c, has_boxes, rows, seed, band_restarts, backoff):
    """Fill the rows ``rows`` of ``grid`` (flat, values ``1..n``, 0 empty) in that order with
    random matchings around the values already in ``grid``; ``rows`` lists the rows of each
    band it takes next to each other.

    A row without a perfect matching restarts its band's run of rows (back to what they held
    before). After ``band_restarts`` restarts of one run, the rows its last try matched stay
    but the last ``backoff`` of them, the others are left empty, and the kernel goes on with
    the next run. Returns ``[rows matched, restarts]``. ``seed`` seeds a xorshift64*
    generator: the same seed gives the same rows.
    """
    state = _random_state(seed)
    used = _used_values(grid, n, r, c, has_boxes)
    scratch = (np.zeros(n, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.bool_),
               np.zeros((n, n), np.int64), np.zeros(n, np.int64), np.zeros(n + 1, np.int64),
               np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64))
    out = np.zeros(2, np.int64)
    first = 0
    while first < len(rows):
        last = first                            # rows[first:last]: this run of the band
        while last < len(rows) and rows[last] // r == rows[first] // r:
            last += 1
        matched, restarts = _fill_run(grid, n, r, c, has_boxes, rows[first:last], state,
                                      used, scratch, band_restarts, backoff)
        out[0] += matched
        out[1] += restarts
        first = last
    return out


@njit
def _random_state(seed):
    """A xorshift64* state seeded with ``seed`` (and stirred a little)."""
    state = np.zeros(1, np.uint64)
    state[0] = np.uint64(seed) * np.uint64(2654435761) + np.uint64(0x9E3779B97F4A7C15)
    if state[0] == 0:                           # xorshift's one fixed point
        state[0] = np.uint64(1)
    for _ in range(4):
        _next(state)
    return state


@njit
def _used_values(grid, n, r, c, has_boxes):
    """``(3, n)`` int64: the values each row, column and box of ``grid`` holds, as bit sets
    (a Latin square has no boxes: theirs stay empty)."""
    used = np.zeros((3, n), np.int64)
    for cell in range(n * n):
        v = grid[cell]
        if v > 0:
            i, j = cell // n, cell % n
            bit = np.int64(1) << (v - 1)
            used[0, i] |= bit
            used[1, j] |= bit
            if has_boxes:
                used[2, (i // r) * (n // c) + j // c] |= bit
    return used


@njit
def _fill_run(grid, n, r, c, has_boxes, run, state, used, scratch, band_restarts, backoff):
    """The rows ``run`` of one band, in order, each by a random matching; a row without one
    sends the run back to what it held, at most ``band_restarts`` times, after which the rows
    the last try matched stay but the last ``backoff`` of them. Returns ``(rows kept,
    restarts)``."""
    first_box = (run[0] // r) * (n // c) if has_boxes else 0
    saved = np.empty((len(run), n), np.int64)
    for k in range(len(run)):
        saved[k] = grid[run[k] * n:(run[k] + 1) * n]
    columns_boxes = used[1:].copy()
    restarts = 0
    while True:
        k = 0
        while k < len(run) and _match_into(grid, n, c, has_boxes, run[k], first_box, state,
                                           used, scratch):
            k += 1
        if k == len(run):
            return k, restarts
        if restarts == band_restarts:           # keep the try's first rows but `backoff`
            keep = max(0, k - backoff)
            for m in range(keep, k):
                _clear_row(grid, n, c, has_boxes, run[m], saved[m], first_box, used)
            return keep, restarts
        restarts += 1                           # back to what the run held, and again
        for m in range(len(run)):
            grid[run[m] * n:(run[m] + 1) * n] = saved[m]
        used[1:] = columns_boxes


@njit
def _match_into(grid, n, c, has_boxes, i, first_box, state, used, scratch):
    """Row ``i`` by a random perfect matching of its cells to the values its row, column
    and box allow, written into ``grid`` and ``used``; False when it has none."""
    allowed, owner, seen, order, cells, stack, pos, via = scratch
    one = np.int64(1)
    full = np.int64(-1) if n == 64 else (one << n) - one
    for j in range(n):
        v = grid[i * n + j]
        if v > 0:
            allowed[j] = one << (v - 1)
        else:
            taken = used[0, i] | used[1, j]
            if has_boxes:
                taken |= used[2, first_box + j // c]
            allowed[j] = ~taken & full
    if not _match_row(allowed, n, state, owner, seen, order, cells, stack, pos, via):
        return False
    for v in range(n):
        j = owner[v]
        if grid[i * n + j] == 0:
            grid[i * n + j] = v + 1
            used[1, j] |= one << v
            if has_boxes:
                used[2, first_box + j // c] |= one << v
    return True


@njit
def _clear_row(grid, n, c, has_boxes, i, saved, first_box, used):
    """Empty the cells of row ``i`` that the run filled (``saved``: what the row held)."""
    for j in range(n):
        v = grid[i * n + j]
        if saved[j] == 0 and v > 0:
            grid[i * n + j] = 0
            used[1, j] &= ~(np.int64(1) << (v - 1))
            if has_boxes:
                used[2, first_box + j // c] &= ~(np.int64(1) << (v - 1))


# -- the left-over part as CNF --------------------------------------------------------------
def _candidates(grid: np.ndarray, n: int, r: int, c: int, has_boxes: bool):
    """The empty cells of ``grid`` (flat) and their candidates, ``(cells, (cells, n) bool)``,
    with each cell's row, column and box; None when a cell or some unit's missing value has
    no candidate (then ``grid`` has no completion)."""
    cells = np.flatnonzero(grid == 0)
    rows, cols = np.divmod(np.arange(n * n), n)
    units = [rows, cols]
    if has_boxes:
        units.append((rows // r) * (n // c) + cols // c)
    filled = np.flatnonzero(grid)
    values = grid[filled] - 1
    have = []
    used = np.zeros((cells.size, n), bool)
    for unit in units:
        held = np.zeros((n, n), bool)           # held[u, v]: unit u already holds v + 1
        held[unit[filled], values] = True
        have.append(held)
        used |= held[unit[cells]]
    cand = ~used
    if cells.size and not cand.any(axis=1).all():
        return None
    f, v = np.nonzero(cand)
    for unit, held in zip(units, have, strict=True):    # each missing value needs a place
        room = held.copy()
        room[unit[cells[f]], v] = True
        if not room.all():
            return None
    return cells, cand, [unit[cells] for unit in units]


def _exactly_one(cnf: CNF, keys: np.ndarray, lits: np.ndarray, group: str) -> None:
    """Exactly one of the literals of each group (equal ``keys``): one clause, and pairwise
    at-most-one, per group; groups bucketed by size so each bucket is one array."""
    sort = np.argsort(keys, kind="stable")
    keys, lits = keys[sort], lits[sort]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    sizes = np.diff(np.r_[starts, keys.size])
    for size in np.unique(sizes):
        rows = lits[starts[sizes == size][:, None] + np.arange(size)]
        cnf.add_block(group, rows)
        if size > 1:
            first, second = np.triu_indices(int(size), k=1)
            pairs = np.stack([-rows[:, first], -rows[:, second]], axis=-1)
            cnf.add_block(group, pairs.reshape(-1, 2))


def _formula(cells: np.ndarray, cand: np.ndarray, units: list[np.ndarray], n: int):
    """The CNF of the free cells: variable ``ids[f, v]`` says cell ``cells[f]`` holds
    ``v + 1``; exactly one value per cell and exactly one place per missing value of a unit."""
    ids = np.zeros(cand.shape, np.int64)
    count = int(cand.sum())
    ids[cand] = np.arange(1, count + 1)
    cnf = CNF()
    cnf.new_vars(count, "cell values")
    f, v = np.nonzero(cand)
    lits = ids[f, v]
    _exactly_one(cnf, f, lits, "cell")
    for unit in units:
        _exactly_one(cnf, unit[f] * n + v, lits, "unit")
    return cnf, ids


def _estimated_clauses(cand: np.ndarray, units: list[np.ndarray], n: int) -> int:
    """Clauses :func:`_formula` would make (the pairwise at-most-ones dominate)."""
    f, v = np.nonzero(cand)
    total = 0
    for keys in [f] + [unit[f] * n + v for unit in units]:
        sizes = np.bincount(keys).astype(np.int64)
        total += int((sizes * (sizes - 1) // 2).sum()) + int((sizes > 0).sum())
    return total


def _complete(grid: np.ndarray, n: int, r: int, c: int, has_boxes: bool, solver: str,
              deadline: float | None, conflicts: int, stats: dict) -> np.ndarray | None:
    """``grid`` (flat) completed by CDCL search within ``conflicts`` and the deadline, or
    None (no completion, too large, or out of budget)."""
    found = _candidates(grid, n, r, c, has_boxes)
    if found is None:
        return None
    cells, cand, units = found
    if _estimated_clauses(cand, units, n) > MAX_CLAUSES:
        stats["too_large"] = stats.get("too_large", 0) + 1
        return None
    cnf, ids = _formula(cells, cand, units, n)
    seconds = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
    try:
        with open_solver(solver) as sat:
            try:
                load_cnf(sat, cnf, Budget(seconds=seconds).start())
                spent = 0
                while True:                     # short slices: the deadline is seen often
                    step = min(_SLICE, conflicts - spent)
                    if step <= 0 or (deadline is not None and time.monotonic() >= deadline):
                        return None
                    try:
                        if not run_solver(sat, [], Budget(conflicts=step).start()):
                            return None
                        break
                    except BudgetExhausted:
                        spent += step
                model = read_model(sat, cnf.num_vars)
            finally:
                stats["conflicts"] = stats.get("conflicts", 0) + int(
                    sat.accum_stats().get("conflicts", 0))
    except BudgetExhausted:                     # the deadline passed while loading
        return None
    chosen = (model[np.maximum(ids, 1) - 1] > 0) & (ids > 0)
    out = grid.copy()
    out[cells] = np.argmax(chosen, axis=1) + 1
    return out


# -- the method -----------------------------------------------------------------------------
def default_tail(n: int, box: tuple[int, int] | None) -> int:
    """Rows :func:`fill_sparse` leaves to CDCL search by default: a quarter of a Sudoku's
    rows rounded up to whole bands (two bands of 8x8, 7x7, 6x6 or 5x5 boxes: a CNF of about
    half a million clauses at 64x64), an eighth of a Latin square's (at least 2).

    Examples
    --------
    >>> default_tail(64, (8, 8)), default_tail(64, (16, 4)), default_tail(25, (5, 5))
    (16, 16, 10)
    >>> default_tail(64, None)
    8
    """
    if box is None:
        return max(2, n // 8)
    r = box[0]
    return r * -(-n // (4 * r))


def fill_sparse(instance, deadline: float | None, seed: int = 0, *, tail: int | None = None,
                max_attempts: int = 12, band_restarts: int = 60, conflicts: int = 30_000,
                solver: str = "cadical195", stats: dict | None = None) -> np.ndarray | None:
    """A completion of a large, sparsely given Sudoku or Latin square, or None.

    Random matchings fill the bands in order of their givens, CDCL search completes the last
    ``tail`` rows of that order and whatever the matchings gave up on (see the module);
    attempts repeat with new random matchings until one completes, ``max_attempts`` have
    failed or the deadline has passed. Every grid returned has passed
    ``instance.is_solution``; None only means "not found this way" (the givens may still be
    completable: ask an exact solver then).

    Parameters
    ----------
    instance : GridPuzzle
        A Sudoku or Latin square of side at most 64 (anything else: None).
    deadline : float or None
        A :func:`time.monotonic` instant; from it on no attempt starts and the CDCL search
        stops (None: none, the attempts are bounded by their number and budgets alone).
    seed : int
        The only source of randomness: the same seed gives the same grid.
    tail : int, optional
        Rows always left to CDCL search by the first attempts (default :func:`default_tail`);
        every third failed attempt adds a band.
    max_attempts : int
        Attempts before giving up.
    band_restarts : int
        Restarts of one band's matchings before the rows its last try could not match are
        left to CDCL search too.
    conflicts : int
        CDCL conflicts allowed to each attempt.
    solver : str
        The PySAT solver of the CDCL part (one that takes conflict budgets).
    stats : dict, optional
        Filled with ``attempts``, ``restarts`` (band restarts of the matchings, in all),
        ``tail`` (rows left to CDCL search in the last attempt) and ``conflicts`` (in all).

    Returns
    -------
    numpy.ndarray or None
        The ``(n, n)`` grid (``int32``), or None.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square, sudoku
    >>> puzzle = sudoku(np.eye(25, dtype=int) * np.arange(1, 26))    # 1..25 on the diagonal
    >>> puzzle.is_solution(fill_sparse(puzzle, deadline=time.monotonic() + 60))
    True
    >>> bad = np.zeros((9, 9), dtype=int)      # row 1 holds 1..8, column 9 the value 9
    >>> bad[0, :8] = range(1, 9)
    >>> bad[8, 8] = 9
    >>> fill_sparse(latin_square(bad), deadline=None) is None
    True
    """
    info = stats if stats is not None else {}
    info.update(attempts=0, restarts=0, tail=0, conflicts=0)
    if problem_kind(instance).family != "grid" or instance.n > MAX_SIDE:
        return None
    n = instance.n
    has_boxes = instance.box is not None
    r, c = instance.box if has_boxes else (1, n)
    givens = np.ascontiguousarray(instance.givens, dtype=np.int64).reshape(-1)
    if n < 2 or _candidates(givens, n, r, c, has_boxes) is None:
        return None
    first_tail = default_tail(n, instance.box) if tail is None else tail
    backoff = min(4, max(1, r // 2))            # rows a band that keeps failing gives back
    rng = np.random.default_rng(seed)
    per_band = np.count_nonzero(givens.reshape(c, r * n), axis=1)   # c bands of r rows
    for attempt in range(max_attempts):
        if deadline is not None and time.monotonic() >= deadline:
            break
        info["attempts"] = attempt + 1
        # the bands with the most givens first (random ties), their rows in random order;
        # every third failed attempt leaves one band more to CDCL search
        matched = n - min(max(1, first_tail + r * (attempt // 3)), n - 1)
        bands = np.lexsort((rng.random(c), -per_band))
        rows = np.concatenate([band * r + rng.permutation(r) for band in bands])[:matched]
        grid = givens.copy()
        done, restarts = _fill_rows(grid, n, r, c, has_boxes, rows.astype(np.int64),
                                    int(rng.integers(1 << 62)), band_restarts, backoff)
        info["restarts"] += int(restarts)
        info["tail"] = int(n - done)
        solution = _complete(grid, n, r, c, has_boxes, solver, deadline, conflicts, info)
        if solution is not None:
            solution = solution.reshape(n, n).astype(np.int32)
            if instance.is_solution(solution):
                return solution
    return None
