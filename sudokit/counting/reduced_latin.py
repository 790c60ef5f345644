"""Latin squares by reduced forms: ``L(n) = n! (n-1)! R(n)``, the reduced squares split by
the cycle type of their second row.

A Latin square is *reduced* when its first row and first column read ``1 2 ... n``. Permuting
the columns (``n!``) and then the rows but the first (``(n-1)!``) of a reduced square gives
every Latin square exactly once, so ``L(n) = n! (n-1)! R(n)``.

**Second rows.** The second row of a reduced square is a permutation ``s`` of ``1..n``
(row 1 read as the map from the first row's symbol above) with no fixed point and
``s(1) = 2``. Squares whose first row is ``1 .. n`` and whose second row is ``s`` have
``(n-2)! K(s)`` completions, where ``K(s)`` counts those with the first column in order
(rows 3..n can be put in any order). Relabelling the symbols by a permutation ``t`` and
moving column ``j`` to column ``t(j)`` leaves the first row ``1 .. n`` in place and turns
the second row ``s`` into ``t s t^-1``, so ``K`` is the same for every ``s`` of one cycle
type. Hence
Hence

    R(n) = sum over cycle types l with no part 1 of  d(l) / (n-1) x K(l),

where ``d(l) = n! / prod(k^m_k m_k!)`` counts the derangements of type ``l``, ``d(l)/(n-1)``
those with ``s(1) = 2``, and ``K(l)`` is the number of completions of one representative,
counted with the engines (DLX or the CP kernels). Order 7 has four types (1,854
derangements): ``R(7) = 16,942,080`` from four counts of about 55,000 completions each.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> result = count(latin_square(np.zeros((4, 4), dtype=int)))
>>> result.count, [(c.label, c.size, c.completions) for c in result.decomposition.classes]
(576, [('4', 2, 1), ('2+2', 1, 2)])
>>> result.decomposition.multiplier       # 4! 3!
144
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..instances import latin_square
from ..problems import problem_kind
from ..solvers.budget import UNLIMITED, Budget
from .base import CountResult
from .completions import Mapper, Progress, count_completions
from .methods import ClassCount, Decomposition

__all__ = ["count", "cycle_types", "refusal", "second_row", "type_size"]


def refusal(instance: Any) -> str | None:
    """Why ``reduced`` does not count ``instance``: not a plain Latin square, or not empty."""
    kind = problem_kind(instance)
    if kind.family != "grid" or "box" in kind.options:
        return "it counts Latin squares only"
    if instance.variants:
        return f"it counts plain Latin squares, not {', '.join(instance.variants)} ones"
    if np.count_nonzero(instance.givens):
        return "it counts empty squares only"
    return None


def cycle_types(n: int) -> Iterator[tuple[int, ...]]:
    """The cycle types of the permutations of ``n`` points with no fixed point, as
    non-increasing parts of at least 2.

    Examples
    --------
    >>> list(cycle_types(7))
    [(7,), (5, 2), (4, 3), (3, 2, 2)]
    """
    def parts(left: int, largest: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        for part in range(min(left, largest), 1, -1):
            for rest in parts(left - part, part):
                yield (part, *rest)

    yield from parts(n, n)


def type_size(cycle_type: tuple[int, ...]) -> int:
    """How many derangements of type ``cycle_type`` send 1 to 2: ``d(l) / (n-1)``.

    Examples
    --------
    >>> type_size((7,)), type_size((2, 2, 2, 2))
    (120, 15)
    """
    n = sum(cycle_type)
    centraliser = math.prod(k ** m * math.factorial(m) for k, m in Counter(cycle_type).items())
    return math.factorial(n) // centraliser // (n - 1)


def second_row(cycle_type: tuple[int, ...]) -> np.ndarray:
    """The second row of a reduced square whose permutation has ``cycle_type``: its cycles
    on consecutive symbols, the first through 1 and 2.

    Examples
    --------
    >>> second_row((3, 2)).tolist()
    [2, 3, 1, 5, 4]
    """
    row = np.zeros(sum(cycle_type), dtype=np.int64)
    start = 0
    for length in cycle_type:
        cycle = np.arange(start, start + length)
        row[cycle] = np.roll(cycle, -1) + 1
        start += length
    return row


def _representative(cycle_type: tuple[int, ...]) -> Any:
    """The partial reduced square: first row, first column and the type's second row."""
    n = sum(cycle_type)
    grid = np.zeros((n, n), dtype=np.int64)
    grid[0] = grid[:, 0] = np.arange(1, n + 1)
    grid[1] = second_row(cycle_type)
    return latin_square(grid)


def count(instance: Any, budget: Budget = UNLIMITED, solver: str | None = None,
          checkpoint: str | None = None, mapper: Mapper | None = None,
          progress: Progress | None = None) -> CountResult:
    """The number of Latin squares of the empty ``instance``'s order (see the module), with
    its :class:`~sudokit.counting.methods.Decomposition`.

    Parameters
    ----------
    budget : Budget
        Its ``seconds`` bound the whole count (past it: ``unknown``).
    solver : str, optional
        The engine that counts the completions (default ``takano``; ``dlx`` too).
    checkpoint : str, optional
        A file that keeps each class's completions as it is counted, read back by a count
        run again (:class:`~sudokit.counting.completions.Checkpoint`).
    mapper : callable, optional
        Counts the classes elsewhere (Dask workers; :data:`~.completions.Mapper`).
    progress : callable, optional
        Told ``(classes done, classes)`` as the classes are counted.
    """
    n = instance.n
    start = time.monotonic()
    multiplier = math.factorial(n) * math.factorial(max(n - 1, 0))
    if n < 2:
        decomposition = Decomposition("reduced", _what(n), (ClassCount("-", 1, 1),),
                                      multiplier, "none")
        return CountResult("sat", decomposition.total, seconds=time.monotonic() - start,
                           decomposition=decomposition)
    types = list(cycle_types(n))
    found = count_completions([_representative(t) for t in types], solver, budget,
                              checkpoint, mapper, progress)
    seconds = time.monotonic() - start
    if found.counts is None:
        return CountResult("unknown", None, seconds=seconds)
    classes = tuple(ClassCount("+".join(map(str, t)), type_size(t), k)
                    for t, k in zip(types, found.counts, strict=True))
    decomposition = Decomposition("reduced", _what(n), classes, multiplier, found.engine)
    total = decomposition.total
    return CountResult("sat" if total else "unsat", total, seconds=seconds,
                       decomposition=decomposition)


def _what(n: int) -> str:
    return (f"Latin squares of order {n} = {n}! {max(n - 1, 0)}! x reduced squares; classes: "
            "the cycle type of the second row (size: the second rows of that type)")
