"""The model counters by name: ``enumerate`` (the default), ``ganak`` and ``approxmc``.

Each entry is one module with ``count(instance, budget, **options) -> CountResult``
(:class:`~sudokit.counting.base.CountResult`: an exact count or an estimate with its
guarantee, or ``unknown``). ``options`` lists the keyword options a counter takes, which the
command line offers only for it; ``requires``/``extra`` name the optional modules and the
``pip install "sudokit[extra]"`` that brings them.

Where a counter is named (:func:`count_models`, :func:`counter_function`), a
:class:`CounterSpec`, a ``count`` function, or a ``"module:attribute"`` string naming either
serves as well (:func:`counter_spec`): a user's own counter needs no entry here.

Examples
--------
>>> list(COUNTERS)
['enumerate', 'ganak', 'approxmc']
>>> COUNTERS["approxmc"].exact, COUNTERS["approxmc"].install
(False, 'pip install "sudokit[counting]"')
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> count_models(latin_square(np.zeros((3, 3), dtype=int))).count
12
>>> from sudokit.counting.base import CountResult
>>> def none_at_all(instance, budget, guess=0):     # a user's own counter
...     return CountResult("unsat", guess)
>>> count_models(latin_square(np.zeros((3, 3), dtype=int)), none_at_all).count
0
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import MissingExtraError, SudokitError
from ..refs import closest, first_line, load_ref, registry_entry
from ..solvers.budget import UNLIMITED, Budget
from ..solvers.registry import NeedsExtra
from .base import CountResult

__all__ = ["COUNTERS", "DEFAULT_COUNTER", "CounterLike", "CounterSpec", "count_models",
           "counter_function", "counter_spec"]


@dataclass(frozen=True)
class CounterSpec(NeedsExtra):
    """A model counter in the registry.

    Attributes
    ----------
    name, description : str
    function : str or callable
        Its ``count(instance, budget, **options)``, or the ``"module:function"`` naming it.
    exact : bool
        False for a counter that estimates.
    options : tuple of str
        The keyword options its ``count`` takes.
    engines : bool
        Whether it counts with the solver engines (``--solver``, ``--conflicts``,
        ``--nodes`` apply) and batches instances of one shape.
    requires, extra : the optional modules it imports and the extra that installs them.
    """

    name: str
    description: str
    function: str | Callable[..., Any]
    exact: bool = True
    options: tuple[str, ...] = ()
    engines: bool = False
    requires: tuple[str, ...] = ()
    extra: str | None = None

    def load(self) -> Callable[..., Any]:
        """Its ``count`` function (imported on first use)."""
        if callable(self.function):
            return self.function
        function: Callable[..., Any] = load_ref(self.function, f"counter {self.name}")
        return function


COUNTERS: dict[str, CounterSpec] = {spec.name: spec for spec in (
    CounterSpec("enumerate", "enumerate solutions, blocking each (exact; stops at --limit)",
                "sudokit.counting.enumerate:count",
                options=("solver", "encoding", "amo", "limit"), engines=True),
    CounterSpec("ganak", "Ganak exact projected model counting (no enumeration)",
                "sudokit.counting.ganak:count",
                options=("encoding", "amo", "limit", "seed", "symmetry"),
                requires=("pyganak",), extra="counting"),
    CounterSpec("approxmc", "ApproxMC estimate within a factor 1+epsilon w.p. 1-delta",
                "sudokit.counting.approxmc:count", exact=False,
                options=("encoding", "amo", "epsilon", "delta", "seed", "symmetry"),
                requires=("pyapproxmc",), extra="counting"),
)}

#: the counter ``count`` uses when none is named
DEFAULT_COUNTER = "enumerate"


#: a counter wherever one is asked for: a name of :data:`COUNTERS`, a :class:`CounterSpec`,
#: a ``count`` function, or a ``"module:attribute"`` string naming either
CounterLike = str | CounterSpec | Callable[..., Any]


def counter_spec(counter: CounterLike) -> CounterSpec:
    """The registry entry of ``counter``, however it is named.

    ``counter`` is a name of :data:`COUNTERS`; a :class:`CounterSpec` (returned as it is);
    a function ``count(instance, budget, **options) -> CountResult``, which gets a spec of
    its own named by its ``"module:function"``, described by its docstring's first line,
    exact, taking the keyword options its signature names after ``budget``; or a
    ``"module:attribute"`` string naming a spec or a function.

    Raises
    ------
    SudokitError
        An unknown name, or a reference that names nothing (one line: why).

    Examples
    --------
    >>> counter_spec("ganak").options[:2], counter_spec(COUNTERS["approxmc"]).exact
    (('encoding', 'amo'), False)
    >>> counter_spec("sudokit.counting.enumerate:count").options
    ('solver', 'encoding', 'amo', 'limit')
    """
    return registry_entry(counter, CounterSpec, callable, _function_spec, _named_counter,
                          "counter", "a count function")


def _named_counter(counter: object) -> CounterSpec:
    spec = COUNTERS.get(counter) if isinstance(counter, str) else None
    if spec is None:
        raise SudokitError(f"unknown counter {counter!r}; {closest(counter, COUNTERS)}"
                           f"expected one of {', '.join(COUNTERS)}")
    return spec


def _function_spec(function: Callable[..., Any], name: str) -> CounterSpec:
    """The ad hoc spec of a ``count`` function (see :func:`counter_spec`)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())[2:]
    except (TypeError, ValueError):       # no signature to read
        parameters = []
    options = tuple(p.name for p in parameters
                    if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    return CounterSpec(name, first_line(function, name), function, options=options)


def counter_function(name: CounterLike) -> Callable[..., Any]:
    """The ``count`` function of counter ``name`` (anything :func:`counter_spec` takes).

    Raises
    ------
    SudokitError
        An unknown name; :class:`~sudokit.errors.MissingExtraError` (one line, with the
        install command) when its optional module is not installed.
    """
    spec = counter_spec(name)
    if spec.missing:
        raise MissingExtraError(f"counter {spec.name} needs {', '.join(spec.missing)}, which "
                                f"is not installed: {spec.install}")
    return spec.load()


def count_models(instance: Any, counter: CounterLike = DEFAULT_COUNTER,
                 budget: Budget = UNLIMITED, **options: Any) -> CountResult:
    """Count the solutions of ``instance`` (any kind) with ``counter`` (a name of
    :data:`COUNTERS`, or anything else :func:`counter_spec` takes).

    ``options`` are the counter's own (its spec's ``options``); one it does not take is a
    :class:`~sudokit.errors.SudokitError`.
    """
    spec = counter_spec(counter)
    function = counter_function(spec)
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise SudokitError(f"counter {spec.name} does not take {', '.join(unknown)} (it takes "
                           f"{', '.join(spec.options) or 'no options'})")
    result: CountResult = function(instance, budget, **options)
    return result
