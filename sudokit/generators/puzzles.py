"""Unique puzzles by removing clues from a full grid, proving uniqueness at every step.

This is approach 3 of Simonis ("Sudoku as a constraint problem", section 8): start from a
full grid and remove clues one at a time (or one symmetry orbit at a time) in random order,
keeping a removal only when the puzzle still has exactly one solution. One pass over all the
clues gives a *locally minimal* puzzle: removing any remaining clue (orbit) gives several
solutions, since a clue that could not go earlier cannot go later either (fewer clues, more
solutions).

Uniqueness checks (``checker``):

``"dlx"``
    One dancing-links structure per grid shape, built once from the empty grid's exact cover;
    every test preselects the remaining clues and counts covers up to 2. The whole removal
    pass of a puzzle runs in one numba call on the DLX engine's structure (the kernel of
    :mod:`sudokit.solvers.dlx_kernel`).
``"sat"``
    One incremental SAT solver per shape (the default SAT engine opened for the shape,
    :class:`~sudokit.solvers.sat.SATEngine`), the clues passed as assumptions.

Modes: ``"minimal"`` (every test runs to the end, so minimality is proved), ``"clues"`` (stop
at a target clue count) and ``"unique"`` (the default: each test gets a node or conflict
budget; a clue whose test runs out is kept, so the puzzle is unique but maybe not minimal).

Examples
--------
>>> gen = PuzzleGenerator(4, (2, 2), seed=1)
>>> p = gen.make(mode="minimal")
>>> p.clues == int((p.puzzle > 0).sum()), p.unique, p.minimal
(True, True, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .._numba import njit
from ..errors import BudgetExhausted, InstanceError, SolverError
from ..instances import GridPuzzle
from ..solvers import dlx_kernel as _k
from ..solvers.budget import Budget
from ..solvers.registry import DEFAULT_SOLVER, open_engine
from .grids import check_shape, random_grid

__all__ = ["SYMMETRIES", "MODES", "CHECKERS", "GeneratedPuzzle", "PuzzleGenerator",
           "symmetry_orbits", "generate_puzzles"]

SYMMETRIES = ("none", "rotational", "quarter", "diagonal", "antidiagonal", "horizontal",
              "vertical", "dihedral")
MODES = ("unique", "minimal", "clues", "full")
CHECKERS = ("dlx", "sat")

def _images(i, j, n, symmetry: str):
    m = n - 1
    ops = {
        "none": [(i, j)],
        "rotational": [(i, j), (m - i, m - j)],
        "quarter": [(i, j), (j, m - i), (m - i, m - j), (m - j, i)],
        "diagonal": [(i, j), (j, i)],
        "antidiagonal": [(i, j), (m - j, m - i)],
        "horizontal": [(i, j), (i, m - j)],
        "vertical": [(i, j), (m - i, j)],
    }
    ops["dihedral"] = ops["quarter"] + [(j, i), (m - j, m - i), (i, m - j), (m - i, j)]
    return ops[symmetry]


def symmetry_orbits(n: int, symmetry: str = "none") -> list[np.ndarray]:
    """The cells (flat indices) that a symmetric clue pattern keeps or removes together.

    Examples
    --------
    >>> [o.tolist() for o in symmetry_orbits(2, "rotational")]
    [[0, 3], [1, 2]]
    """
    if symmetry not in SYMMETRIES:
        raise InstanceError(f"unknown symmetry {symmetry!r}; choose one of "
                            + ", ".join(SYMMETRIES))
    i, j = np.divmod(np.arange(n * n), n)
    images = np.array([a * n + b for a, b in _images(i, j, n, symmetry)])  # (ops, cells)
    lead = images.min(axis=0)
    return [np.unique(images[:, cell]) for cell in np.flatnonzero(lead == np.arange(n * n))]


@dataclass
class GeneratedPuzzle:
    """A generated puzzle with its solution and the record of the checks that proved it."""

    puzzle: np.ndarray
    solution: np.ndarray
    box: tuple[int, int]
    clues: int
    seconds: float
    check_seconds: float
    checks: int
    checker: str
    unique: bool
    minimal: bool
    verified: str | None = None
    extra: dict = field(default_factory=dict)


@njit
def _kept_options(keep, clue_option, pre):
    """Write the options of the kept clues into ``pre``; return how many."""
    m = 0
    for cell in range(len(keep)):
        if keep[cell]:
            pre[m] = clue_option[cell]
            m += 1
    return m

@njit
def _remove_clues(llink, rlink, top, ulink, dlink, spacers, x, state, stats, mark,
                  clue_option, orbit_starts, orbit_cells, keep, target, budget, row):
    """One removal pass over the orbits in order; returns (tests, undecided, final count)."""
    kept = 0
    for cell in range(len(keep)):
        kept += keep[cell]
    pre = np.empty(len(keep), np.int64)
    tests = 0
    undecided = 0
    for o in range(len(orbit_starts) - 1):
        if kept <= target:
            break
        size = orbit_starts[o + 1] - orbit_starts[o]
        if kept - size < target:
            continue
        for t in range(orbit_starts[o], orbit_starts[o + 1]):
            keep[orbit_cells[t]] = False
        m = _kept_options(keep, clue_option, pre)
        max_nodes = -1 if budget < 0 else stats[0] + budget
        count = _k.solve_one(llink, rlink, top, ulink, dlink, spacers, x, state, stats, mark,
                             pre[:m], 2, max_nodes, row)
        tests += 1
        if count == 1 and state[2] == 0:
            kept -= size
        else:
            undecided += state[2]
            for t in range(orbit_starts[o], orbit_starts[o + 1]):
                keep[orbit_cells[t]] = True
    m = _kept_options(keep, clue_option, pre)
    final = _k.solve_one(llink, rlink, top, ulink, dlink, spacers, x, state, stats, mark,
                         pre[:m], 2, -1, row)
    return tests, undecided, final


class PuzzleGenerator:
    """Generate unique Sudoku puzzles of one shape, deterministically from a seed.

    Parameters
    ----------
    n : int
        Side of the grid.
    box : tuple of int
        ``(r, c)`` box shape.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`; the same seed and options give the same
        puzzles.
    checker : {"dlx", "sat"}
        Back end that proves uniqueness at every step.
    verify : bool
        Re-check every finished puzzle with the other back end.
    symmetry : str
        One of :data:`SYMMETRIES`.
    budget : int, optional
        Per-test budget in ``"unique"`` mode: DLX nodes or SAT conflicts (default ``20 n^2``).

    Examples
    --------
    >>> gen = PuzzleGenerator(9, (3, 3), seed=5, verify=True)
    >>> p = gen.make(mode="clues", clues=40)
    >>> p.clues, p.unique, p.verified
    (40, True, 'sat')
    """

    def __init__(self, n: int, box: tuple[int, int], seed: int | None = None,
                 checker: str = "dlx", verify: bool = False, symmetry: str = "none",
                 budget: int | None = None, fill: str = "auto"):
        check_shape(n, box)
        self.fill = fill
        if checker not in CHECKERS:
            raise SolverError(f"unknown checker {checker!r}; choose dlx or sat")
        self.n, self.checker, self.verify = n, checker, verify
        self.box = (int(box[0]), int(box[1]))
        self.rng = np.random.default_rng(seed)
        self.orbits = symmetry_orbits(n, symmetry)
        self.budget = budget if budget is not None else 20 * n * n
        self.template = GridPuzzle(np.zeros((n, n), dtype=np.int32), self.box)
        self._engines: dict = {}

    # -- back ends --------------------------------------------------------------------
    def _engine(self, backend: str):
        """The engine of ``backend`` (``dlx`` or ``sat``), opened once for this shape."""
        if backend not in self._engines:
            name = DEFAULT_SOLVER if backend == "sat" else backend
            self._engines[backend] = open_engine(name, shape=self.template)
        return self._engines[backend]

    def count(self, givens, backend: str, limit: int = 2) -> int:
        """Count the solutions of ``givens`` up to ``limit`` with ``backend`` (dlx or sat)."""
        puzzle = self.template.with_givens(np.asarray(givens, dtype=np.int32))
        return int(self._engine(backend).count(puzzle, limit)[0])

    # -- generation -------------------------------------------------------------------
    def full_grid(self) -> np.ndarray:
        """A random full grid (:func:`~sudokit.generators.grids.random_grid`, ``fill`` method)."""
        return random_grid(self.n, self.box, self.rng, method=self.fill)

    def _order(self):
        order = self.rng.permutation(len(self.orbits))
        cells = [self.orbits[o] for o in order]
        starts = np.concatenate(([0], np.cumsum([len(c) for c in cells]))).astype(np.int64)
        return starts, np.concatenate(cells).astype(np.int64)

    def _remove_clues_dlx(self, solution, target, budget):
        engine = self._engine("dlx")
        flat = solution.reshape(-1)
        clue_option = engine.option_lookup[np.arange(flat.size), flat - 1].astype(np.int64)
        keep = np.ones(flat.size, dtype=np.bool_)
        starts, cells = self._order()
        row = np.full(flat.size, -1, np.int32)
        tests, undecided, final = _remove_clues(*engine.links.kernel_args(), clue_option,
                                                starts, cells, keep, target, budget, row)
        return keep, int(tests), int(undecided), int(final)

    def _remove_clues_sat(self, solution, target, budget):
        solver = self._engine("sat")
        flat = solution.reshape(-1)
        keep = np.ones(flat.size, dtype=bool)
        starts, cells = self._order()
        limit = Budget(conflicts=budget) if budget >= 0 else Budget()
        tests = undecided = 0
        for o in range(len(starts) - 1):
            kept = int(keep.sum())
            orbit = cells[starts[o]:starts[o + 1]]
            if kept <= target:
                break
            if kept - len(orbit) < target:
                continue
            keep[orbit] = False
            tests += 1
            try:
                count = solver.count(self.template.with_givens(
                    np.where(keep, flat, 0).reshape(self.n, self.n)), 2, limit)[0]
            except BudgetExhausted:
                count, undecided = 2, undecided + 1
            if count != 1:
                keep[orbit] = True
        final = solver.count(self.template.with_givens(
            np.where(keep, flat, 0).reshape(self.n, self.n)), 2)[0]
        return keep, tests, undecided, final

    def make(self, mode: str = "unique", clues: int | None = None,
             attempts: int = 20) -> GeneratedPuzzle:
        """One puzzle: ``mode`` is ``"unique"``, ``"minimal"``, ``"clues"`` or ``"full"``.

        With ``"clues"``, up to ``attempts`` removal orders (a new grid every fifth) are tried;
        if none reaches ``clues``, :class:`~sudokit.errors.InstanceError` says how close the
        best came.
        """
        if mode not in MODES:
            raise InstanceError(f"unknown mode {mode!r}; choose one of " + ", ".join(MODES))
        cells = self.n * self.n
        if mode == "clues" and (clues is None or not 0 <= clues <= cells):
            raise InstanceError(f"the clue count must lie in 0..{cells}, got {clues}")
        started = time.perf_counter()
        solution = self.full_grid()
        if mode == "full":
            return GeneratedPuzzle(solution, solution, self.box, cells,
                                   time.perf_counter() - started, 0.0, 0, self.checker,
                                   True, False)
        target = clues if mode == "clues" else 0
        budget = self.budget if mode == "unique" else -1
        remove_clues = self._remove_clues_dlx if self.checker == "dlx" else self._remove_clues_sat
        check_seconds, tests = 0.0, 0
        best: np.ndarray | None = None
        for attempt in range(attempts if mode == "clues" else 1):
            if attempt and attempt % 5 == 0:
                solution = self.full_grid()
            t0 = time.perf_counter()
            keep, t, undecided, final = remove_clues(solution, target, budget)
            check_seconds += time.perf_counter() - t0
            tests += t + 1
            if final != 1:
                raise SolverError(f"internal check failed: the puzzle has {final} solutions")
            if best is None or keep.sum() < best.sum():
                best = keep
            if keep.sum() <= target or mode != "clues":
                break
        else:
            fewest = int(best.sum()) if best is not None else self.n * self.n
            raise InstanceError(f"could not reach {clues} clues in {attempts} attempts on a "
                                f"{self.n}x{self.n} grid; the fewest found was {fewest}")
        puzzle = np.where(best, solution.reshape(-1), 0).reshape(self.n, self.n)
        minimal = mode != "clues" and undecided == 0
        verified = None
        if self.verify:
            other = "sat" if self.checker == "dlx" else "dlx"
            t0 = time.perf_counter()
            count = self.count(puzzle, other)
            check_seconds += time.perf_counter() - t0
            if count != 1:
                raise SolverError(f"{other} disagrees: the puzzle has {count} solutions")
            verified = other
        return GeneratedPuzzle(puzzle.astype(np.int32), solution.astype(np.int32), self.box,
                               int(best.sum()), time.perf_counter() - started, check_seconds,
                               tests, self.checker, True, minimal, verified)

    def make_where(self, accept, mode: str = "unique", clues: int | None = None,
                   attempts: int = 2000) -> GeneratedPuzzle:
        """The next puzzle that ``accept(puzzle)`` takes (e.g. one of a wanted grade).

        Raises :class:`~sudokit.errors.InstanceError` after ``attempts`` puzzles refused.
        """
        for _ in range(attempts):
            made = self.make(mode, clues)
            if accept(made):
                return made
        raise InstanceError(f"none of {attempts} generated puzzles was accepted")

    def close(self) -> None:
        """Release the engines (the SAT solver holds native memory)."""
        for engine in self._engines.values():
            engine.close()
        self._engines.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def generate_puzzles(n: int, box: tuple[int, int], count: int, seed: int | None = None,
                     mode: str = "unique", clues: int | None = None, **options):
    """Yield ``count`` :class:`GeneratedPuzzle` objects (see :class:`PuzzleGenerator`).

    Examples
    --------
    >>> [p.clues > 0 for p in generate_puzzles(4, (2, 2), 3, seed=2, mode="minimal")]
    [True, True, True]
    """
    with PuzzleGenerator(n, box, seed, **options) as gen:
        for _ in range(count):
            yield gen.make(mode, clues)
