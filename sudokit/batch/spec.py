"""What a run asks of every instance: :class:`RunSpec`, built once and handed to everything
below (the serial loop, each Dask task, the checks).

A spec holds the task (``solve`` or ``count``), the count limit, the engine resolved once
(an :class:`~sudokit.solvers.registry.EngineSpec`, or None: each shape gets its kind's
default), the CNF options, the per-instance :class:`~sudokit.solvers.budget.Budget`, the
engine options (GRASP's ``seed`` and ``alpha``) and the counter (``enumerate``: the engines;
else a model counter of :data:`sudokit.counting.COUNTERS`). It is frozen and small, so it
travels to workers as it is.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> spec = RunSpec.of("count", limit=2, solver="g4")
>>> spec.engine.name, spec.engine_name(sudoku(np.zeros((9, 9), int)))
('glucose4', 'glucose4')
>>> RunSpec.of("solve").engine_name(sudoku(np.zeros((9, 9), int)))
'takano'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import SudokitError
from ..problems import problem_kind, resolve
from ..solvers.budget import UNLIMITED, Budget
from ..solvers.registry import (
    BUDGET_FIELDS,
    ENGINES,
    EngineSpec,
    check_engine,
    default_solver,
    engine_spec,
    run_needs,
)

__all__ = ["BUDGET_FIELDS", "ENGINE_OPTIONS", "OptionNotTaken", "RunSpec", "shape_keys"]

#: the options only some engines take (their ``options`` in the registry)
ENGINE_OPTIONS = ("encoding", "amo", "seed", "alpha")


class OptionNotTaken(SudokitError):
    """A budget field or engine option set for an engine that does not take it.

    ``name`` is the :class:`Budget` field (``"nodes"``) or the option (``"encoding"``);
    ``engine`` the engine's name; ``taken`` what the engine does take (its budget fields
    for a budget, the engines that take the option otherwise). The command line names its
    own flags for them.
    """

    def __init__(self, name: str, engine: str, taken: tuple[str, ...], budget: bool):
        self.name, self.engine, self.taken, self.budget = name, engine, taken, budget
        what = ", ".join(taken) or "no budget"
        super().__init__(f"{name} does not apply to {engine} (it "
                         f"{'honours' if budget else 'is taken by'} {what})")


@dataclass(frozen=True)
class RunSpec:
    """One run's settings (see the module); build it with :meth:`of`."""

    task: str = "solve"
    limit: int | None = None
    engine: EngineSpec | None = None
    encoding: str | None = None
    amo: str | None = None
    budget: Budget = UNLIMITED
    #: engine or counter options that were set, as sorted ``(name, value)`` pairs
    options: tuple[tuple[str, Any], ...] = ()
    counter: str = "enumerate"
    #: whether answers keep each solution found (counting needs none: only to solve)
    keep_solutions: bool = False
    #: what the engine chosen by default must take (set by :meth:`of`)
    needs: frozenset[str] = field(default=frozenset(), compare=False)

    @classmethod
    def of(cls, task: str = "solve", limit: int | None = None, solver: str | None = None,
           encoding: str | None = None, amo: str | None = None, budget: Budget = UNLIMITED,
           options: Mapping[str, Any] | None = None, counter: str = "enumerate",
           keep_solutions: bool = False) -> RunSpec:
        """A spec from a run's arguments; ``solver`` is resolved here, once: a name or PySAT
        alias of the registry, an :class:`~sudokit.solvers.registry.EngineSpec`, an engine
        class or a ``"module:attribute"`` naming one
        (:func:`~sudokit.solvers.registry.engine_spec`; an unknown one raises
        :class:`~sudokit.errors.SolverError`).
        Unset options (None) are left out; solutions are kept to solve, or with
        ``keep_solutions``."""
        pairs = tuple(sorted((key, value) for key, value in (options or {}).items()
                             if value is not None))
        engine = engine_spec(solver) if solver else None
        needs = run_needs(budget, encoding=encoding or None, amo=amo or None, **dict(pairs))
        return cls(task, limit, engine, encoding, amo, budget, pairs, counter,
                   keep_solutions or task == "solve", needs)

    @property
    def count_limit(self) -> int | None:
        """The limit the engines count to: 1 to solve, else :attr:`limit`."""
        return 1 if self.task == "solve" else self.limit

    @property
    def enumerates(self) -> bool:
        """Whether the engines answer (else the model counter :attr:`counter` counts)."""
        return self.counter == "enumerate"

    def engine_name(self, instance: Any) -> str:
        """The engine that ``instance`` gets: the named one, else its kind's default for
        what this run needs (:func:`~sudokit.solvers.registry.default_solver`)."""
        if self.engine is not None:
            return self.engine.name
        return default_solver(instance, self.needs, "solve" if self.task == "solve"
                              else "count")

    def engine_names(self, instances: Sequence[Any], shapes: Sequence[Any]) -> list[str]:
        """:meth:`engine_name` of each instance, worked out once per shape (``shapes``:
        :func:`shape_keys`)."""
        if self.engine is not None:
            return [self.engine.name] * len(instances)
        by_shape: dict[Any, Any] = {}
        names = []
        for instance, shape in zip(instances, shapes, strict=True):
            if shape is None:
                names.append(self.engine_name(instance))
                continue
            if shape not in by_shape:
                by_shape[shape] = self.engine_name(instance)
            names.append(by_shape[shape])
        return names

    def kernel_families(self, first: Any, usual: str | None = None) -> tuple[str, ...]:
        """The compiled kernel families the workers of a run need before its first task:
        the named engine's, else ``usual``'s (the engine most runs get) and that of the
        engine the run's ``first`` instance gets (the portfolio's choice: ``cp`` for a large
        Latin square), so a worker never compiles inside a task.

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import latin_square, sudoku
        >>> run = RunSpec.of()
        >>> run.kernel_families(sudoku(np.zeros((9, 9), dtype=int)), "takano")
        ('takano',)
        >>> run.kernel_families(latin_square(np.zeros((30, 30), dtype=int)), "takano")
        ('takano', 'cp')
        >>> RunSpec.of(solver="dlx").kernel_families(None, "takano")
        ('dlx',)
        """
        if self.engine is not None:
            names = [self.engine.name]
        else:
            gets = None if first is None else self.engine_name(first)
            names = [name for name in (usual, gets) if name]
        families = [self.entry(name).kernels for name in names]
        return tuple(dict.fromkeys(family for family in families if family))

    def entry(self, name: str) -> EngineSpec:
        """The spec of engine ``name``: the run's own engine (registered or not), else the
        registry's entry."""
        if self.engine is not None and self.engine.name == name:
            return self.engine
        return ENGINES[name]

    def engine_options(self, name: str) -> dict[str, Any]:
        """The options engine ``name`` takes (its registry ``options``), as keywords."""
        taken = self.entry(name).options
        options = {key: value for key, value in self.options if key in taken}
        if "encoding" in taken and self.encoding is not None:
            options["encoding"] = self.encoding
        if "amo" in taken and self.amo is not None:
            options["amo"] = self.amo
        return options

    def check(self, engine: str) -> None:
        """Raise :class:`OptionNotTaken` for a budget field or option set that engine
        ``engine`` does not take (budgets first, in :data:`BUDGET_FIELDS` order)."""
        spec = self.entry(engine)
        for name in BUDGET_FIELDS:
            if getattr(self.budget, name) is not None and name not in spec.budgets:
                raise OptionNotTaken(name, engine, spec.budgets, budget=True)
        given = {key for key, _ in self.options}
        given.update(name for name in ("encoding", "amo") if getattr(self, name) is not None)
        for name in ENGINE_OPTIONS:
            if name in given and name not in spec.options:
                takers = tuple(other for other, entry in ENGINES.items()
                               if name in entry.options)
                raise OptionNotTaken(name, engine, takers, budget=False)

    def check_task(self, engine: str, kind: str) -> None:
        """The engine is installed, takes ``kind`` and can do the task
        (:func:`~sudokit.solvers.registry.check_engine`)."""
        check_engine(self.entry(engine), kind, self.task)


def shape_keys(instances: Sequence[Any], kinds: Sequence[str] | None = None) -> list[Any]:
    """The ``shape_key`` of each instance (:func:`sudokit.problems.shape_key`), its kind's
    function looked up once per kind.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> a, b = shape_keys([latin_square(np.zeros((2, 2), int))] * 2)
    >>> a == b
    True
    """
    if kinds is None:
        kinds = [instance.kind for instance in instances]
    shapers: dict[str, Callable[[Any], Any]] = {}
    for kind in set(kinds):
        ref = problem_kind(kind).shape_key
        shapers[kind] = (lambda _: None) if ref is None else resolve(ref)
    return [shapers[kind](instance) for kind, instance in zip(kinds, instances, strict=True)]
