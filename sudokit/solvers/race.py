"""The engine ``race``: two engines on the two cores, the first decided answer wins (issue 29).

The portfolio (:mod:`sudokit.solvers.portfolio`) gives each grid one engine. On a hard
instance the engines' times spread over orders of magnitude, and not in the same order for
each instance: a second engine on the second core is insurance. ``race``:

1. gives the portfolio's engine a first slice alone, in this process
   (:data:`FIRST_SLICE` seconds): what it decides there is the answer (the easy instances,
   most of them, never start a process);
2. otherwise starts two child processes (:mod:`sudokit.child`'s script, task
   :func:`race_job`), the portfolio's engine and its rule's rival
   (:func:`race_pair`), each with what is left of the budget and
   half of the memory; the first child to answer *decided* (a solution, a count below the
   limit, no solution) wins and the other is killed and reaped at once; a child that runs out
   of time or fails leaves the race to the other.

The time budget holds (each child stops itself at the deadline, and is killed
:data:`GRACE` seconds after it), Ctrl-C, SIGTERM or any error kills and reaps both children
before it propagates, and a child whose parent dies is killed by the kernel (Linux). Every
solution from a child is checked by the instance's ``is_solution`` before it is returned;
a wrong one is a :class:`~sudokit.errors.SolverError`, never an answer.

:attr:`RaceEngine.last` says how the last instance went: ``stage`` (``"slice"`` or
``"race"``), ``winner`` and, for a race, each child's engine, process id and outcome.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> with RaceEngine() as engine:
...     count, first = engine.count(latin_square(np.zeros((3, 3), dtype=int)), limit=20)
>>> count, engine.last["stage"], engine.last["winner"]
(12, 'slice', 'takano')
"""

from __future__ import annotations

import json
import pickle
import queue
import subprocess
import sys
import threading
import time
from typing import Any

import numpy as np

from .._signals import signals_deferred
from ..child import CHILD_SCRIPT
from ..errors import BudgetExhausted, SolverError
from ..resources import available_memory
from .budget import UNLIMITED, Budget, Meter
from .engine import EngineBase
from .portfolio import RIVALS, rule_for

__all__ = ["FIRST_SLICE", "GRACE", "RaceEngine", "race_job", "race_pair"]

#: seconds the portfolio's engine gets alone, in-process, before the race starts (a child
#: costs about half a second of start-up: the instances decided within a second stay here)
FIRST_SLICE = 1.0
#: seconds after the time budget before a child still running is killed (each child stops
#: itself at the deadline and answers its partial count first)
GRACE = 0.5
#: seconds between two looks at the children (and at a pending Ctrl-C)
POLL = 0.02


def race_pair(instance: Any, task: str = "solve") -> tuple[str, str]:
    """The two engines that race on ``instance`` for ``task`` (``"solve"`` or ``"count"``):
    the default's (the portfolio's for a grid,
    :func:`~sudokit.solvers.registry.default_solver`) and the first installed rival
    of its rule's ``rivals`` (then of :data:`~sudokit.solvers.portfolio.RIVALS`) that is
    another engine and takes the instance's kind.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square, sudoku
    >>> race_pair(latin_square(np.zeros((30, 30), dtype=int)))
    ('cp', 'cadical195')
    >>> race_pair(sudoku(np.zeros((25, 25), dtype=int)))[0]     # then cpsat (or cp)
    'cadical195'
    """
    from ..problems import problem_kind
    from .registry import ENGINES, default_solver, usable

    first = default_solver(instance, task=task)
    kind = problem_kind(instance)
    rule = rule_for(instance, task) if kind.solver_rule is not None else None
    rivals = (rule.rivals if rule is not None else ()) + RIVALS
    rival = next((name for name in rivals if name != first and usable(name)
                  and kind.name in ENGINES[name].kinds), None)
    if rival is None:
        raise SolverError(f"race: no second engine installed for {kind.name} instances")
    return first, rival


def race_job(job: dict[str, Any]) -> dict[str, Any]:
    """A racer, in a child process (:func:`sudokit.child.run_child`'s protocol): engine
    ``job["engine"]`` on ``job["instance"]`` to ``job["limit"]`` solutions (1: solve) within
    the ``seconds`` whose clock started at ``job["started"]`` (the parent's
    ``time.monotonic()``) and ``memory`` bytes.

    Answers ``{"count": C, "first": solution as nested lists or None, "complete": bool}``.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> race_job({"engine": "cp", "instance": latin_square(np.array([[1, 0], [0, 0]])),
    ...           "limit": 2, "seconds": None, "memory": None, "options": {},
    ...           "started": time.monotonic()})
    {'count': 1, 'first': [[1, 2], [2, 1]], 'complete': True}
    """
    from .registry import open_engine

    budget = Budget(seconds=job["seconds"], memory=job["memory"])
    left = Meter(budget, float(job["started"])).seconds_left()
    if left is not None and left <= 0:
        return {"count": 0, "first": None, "complete": False}
    budget = Budget(seconds=left, memory=job["memory"])
    limit = job["limit"]
    with open_engine(job["engine"], **job["options"]) as engine:
        try:
            if limit == 1:
                first = engine.solve(job["instance"], budget)
                count = int(first is not None)
            else:
                count, first = engine.count(job["instance"], limit, budget)
        except BudgetExhausted as err:
            return {"count": int(err.found or 0), "first": None, "complete": False}
    return {"count": int(count),
            "first": None if first is None else np.asarray(first).tolist(), "complete": True}


class RaceEngine(EngineBase):
    """The engine ``race`` (see the module).

    Parameters
    ----------
    name, shape
        As every engine's (``shape`` is unused: each instance is raced on its own).
    seed : int, optional
        Handed to the racers that take one (``cp``).
    engines : (str, str), optional
        The two engines, the first one also given the first slice (default: the
        portfolio's pair for each instance, :func:`race_pair`).
    first_slice : float
        Seconds of the first slice (:data:`FIRST_SLICE`; 0: race at once).
    """

    def __init__(self, name: str = "race", shape: Any = None, seed: int | None = None,
                 engines: tuple[str, str] | None = None, first_slice: float = FIRST_SLICE):
        self.name = name
        self.seed = seed
        self.engines = engines
        self.first_slice = float(first_slice)
        self.last: dict[str, Any] = {}

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        return self.count(instance, 1, budget)[1]

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        """``(count, first solution or None)`` to ``limit`` (see the module)."""
        if limit is not None and limit <= 0:
            return 0, None
        meter = budget.start()
        first, rival = self.engines or race_pair(instance, "solve" if limit == 1 else "count")
        self.last = {"stage": "slice", "winner": None, "children": []}
        if self.first_slice > 0:
            left = meter.seconds_left()
            alone = self.first_slice if left is None else min(self.first_slice, left)
            try:
                answer = self._alone(first, instance, limit,
                                     Budget(seconds=alone, memory=budget.memory))
            except BudgetExhausted as err:
                if meter.late():
                    raise BudgetExhausted("budget exhausted in the first slice: unknown",
                                          err.found) from None
            else:
                self.last["winner"] = first
                return answer
        self.last["stage"] = "race"
        return self._race((first, rival), instance, limit, budget, meter)

    def _options(self, name: str) -> dict[str, Any]:
        from .registry import ENGINES

        takes_seed = "seed" in ENGINES[name].options
        return {"seed": self.seed} if takes_seed and self.seed is not None else {}

    def _alone(self, name: str, instance: Any, limit: int | None,
               budget: Budget) -> tuple[int, np.ndarray | None]:
        from .registry import open_engine

        with open_engine(name, **self._options(name)) as engine:
            if limit == 1:
                solution = engine.solve(instance, budget)
                return int(solution is not None), solution
            count, solution = engine.count(instance, limit, budget)
            return int(count), solution

    def _race(self, names: tuple[str, str], instance: Any, limit: int | None,
              budget: Budget, meter: Meter) -> tuple[int, np.ndarray | None]:
        memory = (budget.memory if budget.memory is not None else available_memory()) // 2
        answers: queue.Queue[tuple[int, dict[str, Any] | None, str]] = queue.Queue()
        children: list[subprocess.Popen[bytes]] = []
        threads = []
        left = meter.seconds_left()
        deadline = None if left is None else time.monotonic() + max(left, 0.0) + GRACE
        try:
            for k, name in enumerate(names):
                job = {"task": f"{__name__}:race_job", "name": name, "engine": name,
                       "instance": instance, "limit": limit, "seconds": budget.seconds,
                       "memory": memory, "started": meter.started,
                       "options": self._options(name)}
                child = subprocess.Popen([sys.executable, str(CHILD_SCRIPT)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
                children.append(child)
                self.last["children"].append({"engine": name, "pid": child.pid,
                                              "outcome": "running"})
                thread = threading.Thread(target=_listen, daemon=True,
                                          args=(k, child, pickle.dumps(job), answers))
                thread.start()
                threads.append(thread)
            return self._first_decided(instance, limit, children, answers, deadline)
        finally:   # the race is over (won, lost, Ctrl-C, an error): no child outlives it
            with signals_deferred():
                for child, record in zip(children, self.last["children"], strict=False):
                    if child.poll() is None:
                        child.kill()
                        record["outcome"] = "killed"
                    child.wait()
                for thread in threads:
                    thread.join()

    def _first_decided(self, instance: Any, limit: int | None,
                       children: list[subprocess.Popen[bytes]],
                       answers: queue.Queue[tuple[int, dict[str, Any] | None, str]],
                       deadline: float | None) -> tuple[int, np.ndarray | None]:
        records = self.last["children"]
        found, failures, waiting = 0, [], len(children)
        while waiting:
            if deadline is not None and time.monotonic() > deadline:
                break
            try:
                k, answer, why = answers.get(timeout=POLL)
            except queue.Empty:
                continue
            waiting -= 1
            if answer is None:
                records[k]["outcome"] = f"failed: {why}"
                failures.append(f"{records[k]['engine']}: {why}")
                continue
            if not answer["complete"]:
                records[k]["outcome"] = "unknown"
                found = max(found, int(answer["count"]))
                continue
            records[k]["outcome"] = "won"
            self.last["winner"] = records[k]["engine"]
            for other in children:      # stopped at once, reaped by the caller's finally
                if other is not children[k] and other.poll() is None:
                    other.kill()
            return int(answer["count"]), _checked(instance, answer["first"],
                                                  records[k]["engine"])
        if len(failures) == len(children):
            raise SolverError("race: both engines failed (" + "; ".join(failures) + ")")
        raise BudgetExhausted(f"budget exhausted after {found} solution(s): unknown", found)


def _listen(k: int, child: subprocess.Popen[bytes], payload: bytes,
            answers: queue.Queue[tuple[int, dict[str, Any] | None, str]]) -> None:
    """Hand ``payload`` to child ``k``, wait for its answer and post ``(k, answer or None,
    why not)``; a child killed posts None."""
    try:
        out, err = child.communicate(payload)
    except (OSError, ValueError) as exc:     # its pipes closed under it: killed
        answers.put((k, None, str(exc)))
        return
    lines = out.decode(errors="replace").strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict) or child.returncode != 0:
        why = err.decode(errors="replace").strip().splitlines()
        answers.put((k, None, why[-1] if why else f"exit code {child.returncode}"))
    elif "error" in answer:
        answers.put((k, None, str(answer["error"])))
    else:
        answers.put((k, answer, ""))


def _checked(instance: Any, first: Any, engine: str) -> np.ndarray | None:
    """The winner's solution as an array, after ``instance.is_solution`` accepts it."""
    if first is None:
        return None
    solution = np.asarray(first, dtype=np.int32).reshape(instance.solution_shape)
    if not instance.is_solution(solution):
        raise SolverError(f"race: {engine} answered a grid that is not a solution")
    return solution
