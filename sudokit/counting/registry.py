"""The model counters by name: ``enumerate`` (the default), ``ganak`` and ``approxmc``.

Each entry is one module with ``count(instance, budget, **options) -> CountResult``
(:class:`~sudokit.counting.base.CountResult`: an exact count or an estimate with its
guarantee, or ``unknown``). ``options`` lists the keyword options a counter takes, which the
command line offers only for it; ``requires``/``extra`` name the optional modules and the
``pip install "sudokit[extra]"`` that brings them.

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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import MissingExtraError, SudokitError
from ..problems import resolve
from ..solvers.budget import UNLIMITED, Budget
from ..solvers.registry import NeedsExtra
from .base import CountResult

__all__ = ["COUNTERS", "DEFAULT_COUNTER", "CounterSpec", "count_models", "counter_function"]


@dataclass(frozen=True)
class CounterSpec(NeedsExtra):
    """A model counter in the registry.

    Attributes
    ----------
    name, description : str
    function : str
        ``"module:function"`` of its ``count(instance, budget, **options)``.
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
    function: str
    exact: bool = True
    options: tuple[str, ...] = ()
    engines: bool = False
    requires: tuple[str, ...] = ()
    extra: str | None = None


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


def counter_function(name: str):
    """The ``count`` function of counter ``name``.

    Raises
    ------
    SudokitError
        An unknown name; :class:`~sudokit.errors.MissingExtraError` (one line, with the
        install command) when its optional module is not installed.
    """
    spec = COUNTERS.get(name)
    if spec is None:
        raise SudokitError(f"unknown counter {name!r}; expected one of {', '.join(COUNTERS)}")
    if spec.missing:
        raise MissingExtraError(f"counter {name} needs {', '.join(spec.missing)}, which is not "
                                f"installed: {spec.install}")
    return resolve(spec.function)


def count_models(instance: Any, counter: str = DEFAULT_COUNTER, budget: Budget = UNLIMITED,
                 **options: Any) -> CountResult:
    """Count the solutions of ``instance`` (any kind) with ``counter``.

    ``options`` are the counter's own (its ``options`` in :data:`COUNTERS`); one it does not
    take is a :class:`~sudokit.errors.SudokitError`.
    """
    spec = COUNTERS.get(counter)
    function = counter_function(counter)
    assert spec is not None  # counter_function raised otherwise
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise SudokitError(f"counter {counter} does not take {', '.join(unknown)} (it takes "
                           f"{', '.join(spec.options) or 'no options'})")
    result: CountResult = function(instance, budget, **options)
    return result
