"""Solving and counting many instances: one engine per shape, batches in order.

:func:`run_batch` walks the instances in order. A run of instances of one shape (its kind's
``shape_key`` in :mod:`sudokit.problems`) shares one engine opened for that shape, when the
shape recurs in the input and the engine says sharing pays (:meth:`shares`): the SAT engines
then load the empty grid's CNF once and pass givens as assumptions, DLX preselects them in
one structure and counts a whole chunk in one kernel call. Every other instance goes to an
engine opened without a shape, which encodes each one on its own.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> squares = [latin_square(np.array([[1, 0], [0, 0]])), latin_square(np.zeros((2, 2), int))]
>>> [r.count for r in run_batch(squares, task="count")]
[1, 2]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..problems import problem_kind, resolve
from .budget import UNLIMITED, Budget
from .registry import ENGINES, check_engine, default_solver, open_engine, resolve_solver

__all__ = ["InstanceResult", "default_names", "run_batch", "solver_needs"]


@dataclass
class InstanceResult:
    """The outcome for one instance: status ``"sat"``, ``"unsat"`` or ``"unknown"``."""

    index: int
    status: str
    solution: np.ndarray | None = None
    count: int | None = None
    seconds: float = 0.0


def run_batch(problems: Iterable, task: str = "solve", limit: int | None = None,
              solver: str | None = None, encoding: str | None = None, amo: str | None = None,
              budget: Budget = UNLIMITED,
              progress: Callable[[int], None] | None = None,
              options: Mapping[str, Any] | None = None,
              windows: bool = False) -> Iterator[InstanceResult]:
    """Solve or count each problem, yielding an :class:`InstanceResult` per problem in order.

    Parameters
    ----------
    task : {"solve", "count"}
    solver : str, optional
        An engine name (``sudokit solvers``); by default the kind's own (DLX for exact
        cover), else cadical195.
    limit : int, optional
        Counting stops here (``2`` checks uniqueness).
    budget : Budget
        Per instance; an instance that runs out gets status ``"unknown"`` and the batch goes on.
    progress : callable, optional
        Called with the number of instances done after each one.
    options : mapping, optional
        Engine options (GRASP's ``seed`` and ``alpha``); each engine gets those its registry
        entry lists in ``options`` (unset ones, None, are left out).
    windows : bool
        Streaming: ``problems`` is an iterable of lists (windows), each taken only when the
        results before it are consumed, so memory stays flat; engines stay open from one
        window to the next, and a shape shares one engine once it recurs within a window (or
        shared one before). False: ``problems`` is read at once, a shape shared when it recurs
        anywhere.
    """
    chosen = resolve_solver(solver) if solver else None
    needs = solver_needs(encoding, amo, budget, options)
    engines: dict = {}
    checked: set = set()
    done = 0
    try:
        for batch in (map(list, problems) if windows else [list(problems)]):
            kinds = [problem.kind for problem in batch]
            shapes = shape_keys(batch, kinds)
            names = ([chosen] * len(batch) if chosen else
                     default_names(batch, needs, shapes))
            keys = list(zip(names, shapes, strict=True))
            repeats = Counter(keys)
            for kind, name in set(zip(kinds, names, strict=True)) - checked:
                check_engine(name, kind, task)
                checked.add((kind, name))
            for start, stop in _runs(keys):
                name, key = keys[start]
                chunk = batch[start:stop]
                engine_class: Any = resolve(ENGINES[name].engine)
                shared = (key is not None
                          and (repeats[keys[start]] > 1 or keys[start] in engines)
                          and engine_class.shares(chunk[0], encoding))
                engine_key = keys[start] if shared else (name, None)
                if engine_key not in engines:
                    engines[engine_key] = open_engine(name, chunk[0] if shared else None,
                                                      encoding=encoding, amo=amo,
                                                      **_engine_options(name, options))
                engine = engines[engine_key]
                size = engine.batch_size
                for offset in range(0, len(chunk), size):
                    part = chunk[offset:offset + size]
                    outcomes = (engine.count_many(part, limit, budget) if task == "count"
                                else engine.solve_many(part, budget))
                    for outcome in outcomes:
                        yield InstanceResult(done, outcome.status, outcome.solution,
                                             outcome.count, outcome.seconds)
                        done += 1
                        if progress is not None:
                            progress(done)
    finally:
        for engine in engines.values():
            engine.close()


def solver_needs(encoding: str | None = None, amo: str | None = None,
                 budget: Budget = UNLIMITED,
                 options: Mapping[str, Any] | None = None) -> set[str]:
    """What the engine chosen by default must take: the options and budget fields set."""
    needs = {name for name, value in (("encoding", encoding), ("amo", amo)) if value}
    needs.update(field for field in ("seconds", "conflicts", "nodes")
                 if getattr(budget, field) is not None)
    needs.update(key for key, value in (options or {}).items() if value is not None)
    return needs


def shape_keys(problems: Sequence, kinds: Sequence[str] | None = None) -> list:
    """The ``shape_key`` of each problem (:func:`sudokit.problems.shape_key`), its kind's
    function looked up once per kind."""
    if kinds is None:
        kinds = [problem.kind for problem in problems]
    shapers: dict[str, Callable[[Any], Any]] = {}
    for kind in set(kinds):
        ref = problem_kind(kind).shape_key
        shapers[kind] = (lambda _: None) if ref is None else resolve(ref)
    return [shapers[kind](problem) for kind, problem in zip(kinds, problems, strict=True)]


def default_names(problems: Sequence, needs: set[str], shapes: Sequence | None = None
                  ) -> list[str]:
    """The default engine of each problem (:func:`default_solver`), worked out once per
    shape (``shapes``: :func:`shape_keys`, computed when not given)."""
    if shapes is None:
        shapes = shape_keys(problems)
    by_shape: dict = {}
    names = []
    for problem, shape in zip(problems, shapes, strict=True):
        if shape is None:
            names.append(default_solver(problem, needs))
            continue
        if shape not in by_shape:
            by_shape[shape] = default_solver(problem, needs)
        names.append(by_shape[shape])
    return names


def _engine_options(name: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The set options of ``options`` that engine ``name`` takes (its ``options``)."""
    taken = ENGINES[name].options
    return {key: value for key, value in (options or {}).items()
            if key in taken and value is not None}


def _runs(keys: list) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of each run of equal consecutive keys."""
    start = 0
    for index in range(1, len(keys) + 1):
        if index == len(keys) or keys[index] != keys[start]:
            yield start, index
            start = index
