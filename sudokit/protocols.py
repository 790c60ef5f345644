"""What every encoder and reduction returns: one protocol, implemented by plain dataclasses.

An encoder *is* a reduction whose target is a CNF formula or an exact cover problem
(DESIGN.md), so ``grid_to_cnf(puzzle)``, ``completion_to_exact_cover(graph)`` and
``reduce("latin2sudoku", square)`` all return a :class:`Reduction`:

- ``source`` and ``target``: the instance reduced and the instance it became;
- ``decode(target_solution) -> source_solution`` (the way back);
- ``encode(source_solution) -> target_solution`` (the way forward, for round trips);
- ``parsimonious``: solutions correspond one to one, so counts are equal;
- ``explain()``: a short account of the construction, for teaching.

A result whose target is CNF also gives the ``projection()`` (the variables that define a
solution) and a ``blocking_clause(model)`` for counting (:class:`CNFReduction`); one whose
target is exact cover gives ``given_options`` for preselection (:class:`CoverReduction`).

Results hold their way back as arrays, never closures, so they pickle (for worker processes).
:func:`chain` composes them; ``result.then(name)`` reduces a target further by name, through
the reduction registry's ``"module:function"`` reference (:func:`sudokit.problems.resolve`),
so this module, below every result type, imports no reduction.

Examples
--------
>>> import pickle
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.reductions import reduce
>>> square = latin_square(np.array([[1, 0], [0, 0]]))
>>> both = reduce("latin2sudoku", square).then("sudoku2xc")
>>> type(both.target).__name__, both.parsimonious, isinstance(both, Reduction)
('ExactCover', True, True)
>>> pickle.loads(pickle.dumps(both)).decode(both.encode([[1, 2], [2, 1]])).tolist()
[[1, 2], [2, 1]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .displayed import HTMLDisplay
from .problems import resolve

__all__ = ["Reduction", "CNFReduction", "CoverReduction", "Chained", "CNFChain", "CoverChain",
           "Composable", "chain", "full_model"]


@runtime_checkable
class Reduction(Protocol):
    """An instance reduced to another, with the way back and forth."""

    @property
    def name(self) -> str: ...

    @property
    def source(self) -> Any: ...

    @property
    def target(self) -> Any: ...

    @property
    def parsimonious(self) -> bool: ...

    def decode(self, target_solution: Any) -> Any: ...

    def encode(self, source_solution: Any) -> Any: ...

    def explain(self) -> str: ...


@runtime_checkable
class CNFReduction(Reduction, Protocol):
    """A reduction to CNF: also what counting and solving under assumptions need."""

    @property
    def cnf(self) -> Any: ...

    def projection(self) -> np.ndarray: ...

    def blocking_clause(self, model: Any) -> list[int]: ...

    def given_literals(self) -> list[int]: ...


@runtime_checkable
class CoverReduction(Reduction, Protocol):
    """A reduction to exact cover: also the options that place a same-shape puzzle's givens."""

    @property
    def xc(self) -> Any: ...

    def given_options(self, problem: Any) -> np.ndarray: ...


#: the registry's :func:`~sudokit.reductions.reduce`, as a ``"module:function"`` reference
_REDUCE = "sudokit.reductions:reduce"


class Composable(HTMLDisplay):
    """Mixin: ``result.then(name)`` reduces the target further with reduction ``name``; in
    Jupyter a result shows its source next to its target (``_repr_html_``,
    :mod:`sudokit.draw.display`)."""

    _html = "reduction_html"

    def then(self, name: str) -> Chained:
        # the registry sits above every result type: named, resolved on first use
        return chain(self, resolve(_REDUCE)(name, self.target))  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=False)
class Chained(Composable):
    """Two reductions in a row: decoding goes back through both."""

    first: Any
    second: Any

    @property
    def name(self) -> str:
        return f"{self.first.name}+{self.second.name}"

    @property
    def source(self) -> Any:
        return self.first.source

    @property
    def target(self) -> Any:
        return self.second.target

    @property
    def parsimonious(self) -> bool:
        return bool(self.first.parsimonious and self.second.parsimonious)

    def decode(self, target_solution: Any) -> Any:
        return self.first.decode(self.second.decode(target_solution))

    def encode(self, source_solution: Any) -> Any:
        return self.second.encode(self.first.encode(source_solution))

    def explain(self) -> str:
        return str(self.first.explain()) + "\n\n" + str(self.second.explain())



@dataclass(frozen=True, eq=False)
class CNFChain(Chained):
    """A chain whose last step ends in CNF: counted and solved like that step."""

    @property
    def cnf(self) -> Any:
        return self.second.cnf

    def projection(self) -> np.ndarray:
        return self.second.projection()  # type: ignore[no-any-return]

    def blocking_clause(self, model: Any) -> list[int]:
        return self.second.blocking_clause(model)  # type: ignore[no-any-return]

    def given_literals(self) -> list[int]:
        return []  # the givens are inside the chained target


@dataclass(frozen=True, eq=False)
class CoverChain(Chained):
    """A chain whose last step ends in exact cover: searched like that step."""

    @property
    def xc(self) -> Any:
        return self.second.xc

    def given_options(self, problem: Any) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)


def chain(first: Any, second: Any) -> Chained:
    """``first`` then ``second`` (whose source must be ``first``'s target): a
    :class:`CNFChain` when ``second`` is a :class:`CNFReduction`, a :class:`CoverChain` when
    it is a :class:`CoverReduction`, else a plain :class:`Chained`.

    The class, not a property that fails, says what a chain is: from Python 3.12 on,
    ``isinstance`` against these protocols looks properties up without calling them, so a
    chain that declared both ``cnf`` and ``xc`` would pass for both.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> from sudokit.reductions import reduce
    >>> square = latin_square(np.array([[1, 0], [0, 0]]))
    >>> to_xc = reduce("latin2sudoku", square).then("sudoku2xc")
    >>> isinstance(to_xc, CoverReduction), isinstance(to_xc, CNFReduction)
    (True, False)
    """
    if isinstance(second, CNFReduction):
        return CNFChain(first, second)
    if isinstance(second, CoverReduction):
        return CoverChain(first, second)
    return Chained(first, second)


def full_model(literals: Any, num_vars: int) -> np.ndarray:
    """Signed literals for variables ``1..num_vars`` from any list of literals (others false).

    Examples
    --------
    >>> full_model([2, -7, 0], 3).tolist()
    [-1, 2, -3]
    """
    lits = np.asarray(literals, dtype=np.int64).reshape(-1)
    lits = lits[(lits != 0) & (np.abs(lits) <= num_vars)]
    model = -np.arange(1, num_vars + 1, dtype=np.int64)
    model[np.abs(lits) - 1] = lits
    return model
