"""Counting methods: how a count is split before the engines count the pieces.

A *method* counts one kind of instance that plain enumeration cannot finish, by a known
decomposition into classes whose members have the same number of completions:

- ``reduced`` (:mod:`~sudokit.counting.reduced_latin`): an empty Latin square of order
  ``n``, as ``n! (n-1)!`` times the reduced squares, these split by the cycle type of their
  second row;
- ``bands`` (:mod:`~sudokit.counting.bands`): an empty Sudoku grid of any ``r x c`` boxes,
  by the classes of its first band (Felgenhauer & Jarvis 2005).

``plain`` is no decomposition (the counter counts the instance as it is), and ``auto`` picks
the first method of :data:`METHODS` that applies to an instance, else ``plain``. Each entry
names its ``count(instance, budget, solver=None, checkpoint=None) -> CountResult`` and its
``refusal(instance) -> str | None`` (why it does not apply, None when it does); the result's
``decomposition`` is a :class:`Decomposition` (what ``count --explain`` prints).

Examples
--------
>>> list(METHODS)
['reduced', 'bands']
>>> import numpy as np
>>> from sudokit.instances import latin_square, sudoku
>>> applicable(latin_square(np.zeros((5, 5), dtype=int)))
['reduced']
>>> applicable(sudoku(np.zeros((4, 4), dtype=int))), applicable(sudoku(np.diag([1, 0, 0, 0])))
(['bands'], [])
>>> result = count_by_method(sudoku(np.zeros((4, 4), dtype=int)), "auto")
>>> result.count, result.decomposition.multiplier, len(result.decomposition.classes)
(288, 24, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import EXIT_USAGE, SudokitError
from ..refs import load_ref
from ..solvers.budget import UNLIMITED, Budget
from .base import CountResult
from .enumerate import count as enumerated

__all__ = ["AUTO", "ClassCount", "Decomposition", "METHODS", "MethodNotApplicable",
           "MethodSpec", "PLAIN", "applicable", "choose_method", "count_by_method",
           "method_choices"]

#: no decomposition: the counter counts the instance itself
PLAIN = "plain"
#: the first method of :data:`METHODS` that applies, else :data:`PLAIN`
AUTO = "auto"


class MethodNotApplicable(SudokitError):
    """A method asked of an instance it does not count (a usage error, exit 2)."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class ClassCount:
    """One class of a decomposition: ``size`` members, each with ``completions``."""

    label: str
    size: int
    completions: int


@dataclass(frozen=True)
class Decomposition:
    """How a count was made: ``count = multiplier x sum(size x completions)`` over the
    classes.

    Attributes
    ----------
    method : str
    what : str
        One line: what the classes are and what the multiplier stands for.
    classes : tuple of ClassCount
    multiplier : int
    engine : str
        The engine that counted the completions.
    """

    method: str
    what: str
    classes: tuple[ClassCount, ...]
    multiplier: int
    engine: str

    @property
    def total(self) -> int:
        """``multiplier x sum(size x completions)``, exact."""
        return self.multiplier * sum(c.size * c.completions for c in self.classes)

    def as_json(self) -> dict[str, Any]:
        """A JSON object; integers past 2**53 as decimal strings (see :func:`json_int`)."""
        return {"method": self.method, "what": self.what, "engine": self.engine,
                "multiplier": json_int(self.multiplier),
                "classes": [{"label": c.label, "size": json_int(c.size),
                             "completions": json_int(c.completions)} for c in self.classes],
                "total": json_int(self.total)}

    def lines(self) -> list[str]:
        """The decomposition as text, one line per class and a total."""
        out = [f"method {self.method}: {self.what}; completions counted by {self.engine}"]
        out += [f"class {c.label}: size {c.size} x completions {c.completions}"
                for c in self.classes]
        out.append(f"total = {self.multiplier} x sum(size x completions) = {self.total}")
        return out


#: the largest integer a reader of JSON numbers as doubles keeps exactly
JSON_SAFE = 2 ** 53 - 1


def json_int(value: int) -> int | str:
    """``value`` as JSON takes it: a number up to 2**53 - 1, beyond that a decimal string
    (JavaScript and other readers that keep numbers as doubles would round it).

    Examples
    --------
    >>> json_int(288), json_int(6670903752021072936960)
    (288, '6670903752021072936960')
    """
    return value if -JSON_SAFE <= value <= JSON_SAFE else str(value)


@dataclass(frozen=True)
class MethodSpec:
    """A counting method in the registry.

    Attributes
    ----------
    name, description : str
    function : str or callable
        Its ``count(instance, budget, solver=None, checkpoint=None) -> CountResult`` (or
        its reference).
    refusal : str or callable
        Its ``refusal(instance) -> str | None``: why it does not count ``instance``.
    """

    name: str
    description: str
    function: str | Callable[..., Any]
    refusal: str | Callable[..., Any]

    def load(self) -> Callable[..., Any]:
        """Its ``count`` function (imported on first use)."""
        return _loaded(self.function, f"method {self.name}")

    def refuses(self, instance: Any) -> str | None:
        """Why this method does not count ``instance``, or None when it does."""
        reason: str | None = _loaded(self.refusal, f"method {self.name}")(instance)
        return reason


def _loaded(ref: str | Callable[..., Any], what: str) -> Callable[..., Any]:
    if callable(ref):
        return ref
    found: Callable[..., Any] = load_ref(ref, what)
    return found


METHODS: dict[str, MethodSpec] = {spec.name: spec for spec in (
    MethodSpec("reduced", "an empty Latin square: n!(n-1)! x the reduced squares, by the "
               "cycle type of the second row", "sudokit.counting.reduced_latin:count",
               "sudokit.counting.reduced_latin:refusal"),
    MethodSpec("bands", "an empty Sudoku grid: n! x the first band's classes x the "
               "completions of each", "sudokit.counting.bands:count",
               "sudokit.counting.bands:refusal"),
)}


def method_choices() -> list[str]:
    """The names ``count --method`` takes: :data:`AUTO`, :data:`PLAIN` and the methods."""
    return [AUTO, PLAIN, *METHODS]


def applicable(instance: Any) -> list[str]:
    """The methods of :data:`METHODS` that count ``instance``."""
    return [name for name, spec in METHODS.items() if spec.refuses(instance) is None]


def choose_method(instance: Any, method: str = AUTO) -> str:
    """The method that counts ``instance``: ``method`` itself, or with :data:`AUTO` the
    first that applies, else :data:`PLAIN`.

    Raises
    ------
    MethodNotApplicable
        ``method`` is a method that does not count ``instance`` (the message says why and
        names the methods that do); an unknown name is a :class:`SudokitError`.
    """
    if method == AUTO:
        found = applicable(instance)
        return found[0] if found else PLAIN
    if method == PLAIN:
        return PLAIN
    spec = METHODS.get(method)
    if spec is None:
        raise MethodNotApplicable(f"unknown counting method {method!r}; expected one of "
                                  f"{', '.join(method_choices())}")
    reason = spec.refuses(instance)
    if reason is not None:
        others = applicable(instance)
        raise MethodNotApplicable(
            f"--method {method} does not count this instance ({reason}); methods that apply: "
            f"{', '.join(others + [PLAIN])}")
    return method


def count_by_method(instance: Any, method: str = AUTO, budget: Budget = UNLIMITED,
                    solver: str | None = None, checkpoint: str | None = None,
                    mapper: Any = None, progress: Any = None) -> CountResult:
    """Count the solutions of ``instance`` by ``method`` (see :func:`choose_method`);
    :data:`PLAIN` enumerates with the engines (:mod:`~sudokit.counting.enumerate`).
    ``checkpoint``: a file keeping the classes' completions as they are counted, so that
    the same call resumes (:class:`~sudokit.counting.completions.Checkpoint`); ``mapper``
    counts the classes elsewhere (:data:`~sudokit.counting.completions.Mapper`);
    ``progress`` is told ``(classes done, classes)``."""
    chosen = choose_method(instance, method)
    if chosen == PLAIN:
        return enumerated(instance, budget, solver=solver)
    result: CountResult = METHODS[chosen].load()(instance, budget, solver=solver,
                                                 checkpoint=checkpoint, mapper=mapper,
                                                 progress=progress)
    return result
