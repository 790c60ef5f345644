"""The engine ``cp``: a CP search for large hard grids and Latin squares (issue 29).

Where the CP family (:mod:`sudokit.solvers.cp_engine`) is built for many easy puzzles, this
engine is built for one hard instance at a time: 25x25 and 36x36 Sudoku, quasigroup
completion at the phase transition. It solves and counts Sudoku of any box shape, Latin
square completion and precoloring extension, up to 64 values (one bit mask per cell):

- propagation: forward checking plus AllDifferent by matching (Régin's hyper-arc
  consistency) on the units whose domains changed
  (:mod:`~sudokit.solvers.hard_propagate`, :mod:`~sudokit.solvers.hard_match`);
- branching: maxSD, the cell and value of highest solution density in a unit (Zanarini and
  Pesant), dom/wdeg for cells in no complete unit or when asked
  (:mod:`~sudokit.solvers.hard_choice`); binary branching with last-conflict;
- search: Luby restarts with randomized ties while it looks for one solution (``solve``,
  ``count`` with limit 1), each recording the nogoods of the branch it leaves (Lecoutre et
  al. 2007, propagated by watched literals: :mod:`~sudokit.solvers.hard_nogood`); to count
  to a limit up to :data:`BLOCKING_MAX` (2: the uniqueness check) the same search goes on
  after each solution with a nogood that blocks it (a restart after each), so proving that
  no second solution exists keeps restarts and nogoods, and after the first solution its
  values are tried first (solution-guided: a second solution mostly lies near the first,
  :mod:`~sudokit.solvers.hard_choice`); one exhaustive search, without
  restarts or nogoods, to count to a larger limit. Either way a count below the limit is
  exact (:mod:`~sudokit.solvers.hard_search`).

The search runs in resumable kernel calls of a number of nodes sized to about
:attr:`HardCPEngine.slice_seconds` each; the clock of a time budget is read between them
and Ctrl-C lands there. A seed fixes the restarts' random stream: the same seed gives the
same nodes and the same answer, however the search is sliced.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square, sudoku
>>> with HardCPEngine() as engine:
...     engine.count(latin_square(np.zeros((4, 4), dtype=int)), limit=1000)[0]
576
>>> puzzle = sudoku(np.array([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]))
>>> engine = HardCPEngine(seed=3)
>>> puzzle.is_solution(engine.solve(puzzle)), engine.stats["nodes"] >= 1
(True, True)
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..errors import BudgetExhausted, InstanceError, SolverError
from .budget import UNLIMITED, Budget
from .engine import EngineBase
from .hard_layout import (
    S_FAILS,
    S_MATCHINGS,
    S_NG_PRUNES,
    S_NODES,
    S_NOGOODS,
    S_RECORDED,
    S_RESTARTS,
    S_SOLUTIONS,
    HardModel,
    HardWork,
    hard_model,
    new_work,
    seed_state,
)
from .hard_search import (
    BLOCKING,
    DOMWDEG,
    GUIDED,
    LAST_CONFLICT,
    MATCHING,
    NOGOODS,
    RESTARTS,
    run,
    start,
)

__all__ = ["BLOCKING_MAX", "HEURISTICS", "HardCPEngine"]

#: the branching rules by name: the flags they add (:mod:`sudokit.solvers.hard_choice`)
HEURISTICS: dict[str, int] = {
    "maxsd": 0,          # maxSD, dom/wdeg for cells in no complete unit
    "domwdeg": DOMWDEG,  # dom/wdeg for every cell, the value by density
}

#: failures before the first restart (times the Luby sequence). Measured 2026-11-27, one
#: after the other in one session, 60 s each, CPU s, 100 against 1000: qwh30 solve 39/39
#: in 18.9 against 27.2, count to 2 39/39 in 32.6 against 51.5; qcp solve 60/60 in 19.7
#: against 19.4; the five hard PLS squares of order 33-40 decided 5/5 against 3/5 (order 40
#: with 544 holes in 1.8 against none within 40 s, order 33 with 381 holes in 40.1 against
#: none within 60 s). Before nogoods, 100 had left one qcp square undecided, 1000 none
DEFAULT_BASE = 100
#: how much the choice's scores are shaken after a restart
DEFAULT_NOISE = 0.25
#: counts to a limit up to this one block each solution found and restart (with nogoods);
#: larger limits search exhaustively (a restart and a nogood per solution would cost more
#: than they save when many solutions are wanted)
BLOCKING_MAX = 2


class HardCPEngine(EngineBase):
    """The engine ``cp`` (see the module).

    Parameters
    ----------
    name, shape, encoding, amo
        The common engine signature (``shape`` is accepted and unused: each shape's arrays
        are built once and kept; ``encoding`` and ``amo`` do not apply).
    seed : int, optional
        The random stream of the restarts (default 0).
    heuristic : str
        A key of :data:`HEURISTICS` (default ``"maxsd"``).
    restarts : bool
        Luby restarts when looking for one solution or counting to at most
        :data:`BLOCKING_MAX` (default True).
    matching : bool
        AllDifferent by matching (default True; False: forward checking only).
    last_conflict : bool
        Branch on the cell of the last failed decision first (default True).
    nogoods : bool
        Record nogoods at each restart and propagate them (default True; only with
        ``restarts``, only while looking for one solution).
    base : int
        Failures before the first restart (the Luby unit).
    noise : float
        The random share of a score after a restart (0: none).
    guided : bool
        After a first solution, branch on its values first (default True): counting to 2
        finds a second solution near the first
        (:mod:`~sudokit.solvers.hard_choice`).
    """

    #: seconds aimed at between two readings of the clock
    slice_seconds = 0.02

    def __init__(self, name: str = "cp", shape: Any = None, encoding: str | None = None,
                 amo: str | None = None, seed: int | None = None, heuristic: str = "maxsd",
                 restarts: bool = True, matching: bool = True, last_conflict: bool = True,
                 nogoods: bool = True, base: int = DEFAULT_BASE,
                 noise: float = DEFAULT_NOISE, guided: bool = True):
        if heuristic not in HEURISTICS:
            raise SolverError(f"unknown heuristic {heuristic!r}; choose one of "
                              f"{', '.join(HEURISTICS)}")
        if int(base) < 1 or not 0.0 <= float(noise) <= 1.0:
            raise SolverError(f"base must be >= 1 and noise in [0, 1] (got {base}, {noise})")
        self.name = name
        self.seed = 0 if seed is None else int(seed)
        self.flags = (HEURISTICS[heuristic] | (MATCHING if matching else 0)
                      | (RESTARTS if restarts else 0)
                      | (LAST_CONFLICT if last_conflict else 0)
                      | (NOGOODS if nogoods else 0) | (GUIDED if guided else 0))
        self.base = int(base)
        self.noise = float(noise)
        #: what the last search did: nodes, failures, restarts, matching runs, solutions,
        #: nogoods recorded and stored at the end, values removed (or failures) by nogoods
        self.stats: dict[str, int] = {}
        self._work: dict[int, tuple[HardModel, HardWork]] = {}
        self._slice = 16
        _compile()

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        """Instances of one shape share the model arrays and the scratch."""
        return True

    def _work_for(self, model: HardModel) -> HardWork:
        kept = self._work.get(id(model))
        if kept is None or kept[0] is not model:
            kept = (model, new_work(model))
            self._work = {id(model): kept}
        return kept[1]

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        """``(count, first solution or None)``, counting up to ``limit`` (None: all); the
        budget's ``seconds`` and ``nodes`` bound it (:class:`BudgetExhausted` with the
        solutions found so far)."""
        meter = budget.start()
        wanted = _limit(limit)
        model = hard_model(instance)
        givens = np.ascontiguousarray(np.asarray(instance.flat_givens).reshape(-1),
                                      dtype=np.int32)
        if givens.shape != (model.num_cells,) or givens.min(initial=0) < 0 or givens.max(
                initial=0) > model.num_values:
            raise InstanceError(f"givens must be {model.num_cells} values in "
                                f"0..{model.num_values}")
        self.stats = {}
        if wanted == 0:
            return 0, None
        work = self._work_for(model)
        margs, wargs = model.args(), work.args()
        state = work.state
        flags = self.flags | (BLOCKING if _blocks(work, wanted, model.num_cells) else 0)
        start(*margs, *wargs, givens, model.num_values, self.flags & MATCHING,
              np.int64(seed_state(self.seed)))
        while True:
            stop = int(state[S_NODES]) + self._slice
            if budget.nodes is not None:
                stop = min(stop, int(budget.nodes))
            began = time.perf_counter()
            result = int(run(*margs, *wargs, wanted, stop, flags, self.base, self.noise))
            self._resize(time.perf_counter() - began)
            if result >= 0:
                break
            if meter.late() or (budget.nodes is not None and state[S_NODES] >= budget.nodes):
                self._keep_stats(state)
                found = int(state[S_SOLUTIONS])
                raise BudgetExhausted(f"{self.name} budget ran out after {found} solution(s) "
                                      f"and {int(state[S_NODES])} nodes", found)
        self._keep_stats(state)
        found = int(state[S_SOLUTIONS])
        if not found:
            return 0, None
        return found, np.array(work.first, dtype=np.int32).reshape(model.solution_shape)

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        return self.count(instance, 1, budget)[1]

    def _resize(self, spent: float) -> None:
        """Nodes per slice towards :attr:`slice_seconds` (the search is the same whatever
        the slices)."""
        if spent < self.slice_seconds / 2 and self._slice < 1 << 24:
            self._slice *= 2
        elif spent > self.slice_seconds * 2 and self._slice > 1:
            self._slice //= 2

    def _keep_stats(self, state: np.ndarray) -> None:
        self.stats = {"nodes": int(state[S_NODES]), "failures": int(state[S_FAILS]),
                      "restarts": int(state[S_RESTARTS]),
                      "matchings": int(state[S_MATCHINGS]),
                      "solutions": int(state[S_SOLUTIONS]),
                      "nogoods": int(state[S_RECORDED]), "stored": int(state[S_NOGOODS]),
                      "nogood_prunings": int(state[S_NG_PRUNES])}


def _blocks(work: HardWork, wanted: int, cells: int) -> bool:
    """Whether to count to ``wanted`` by blocking each solution (see the module): a small
    limit, and a nogood store where the pinned nogoods (one per solution, a literal per
    cell) take at most half, so that forgetting the others always makes room."""
    return (2 <= wanted <= BLOCKING_MAX and work.ng_info.shape[0] >= 2 * wanted
            and work.ng_lits.shape[0] >= 2 * wanted * cells)


def _limit(limit: int | None) -> int:
    if limit is None:
        return int(np.iinfo(np.int64).max)
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 0:
        raise SolverError(f"limit must be a non-negative integer or None (got {limit!r})")
    return int(limit)


_compiled: list[bool] = []


def _compile() -> None:
    """Compile (or load from the cache) the kernels before any budget's clock starts."""
    if _compiled:
        return
    from ..instances import latin_square

    empty = latin_square(np.zeros((2, 2), dtype=np.int32))
    model = hard_model(empty)
    work = new_work(model)
    start(*model.args(), *work.args(), np.zeros(4, dtype=np.int32), 2, MATCHING,
          np.int64(1))
    run(*model.args(), *work.args(), 1, 10,
        MATCHING | RESTARTS | LAST_CONFLICT | NOGOODS | GUIDED,
        DEFAULT_BASE, DEFAULT_NOISE)
    _compiled.append(True)
