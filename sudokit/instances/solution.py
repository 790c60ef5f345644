"""A solution together with the instance it solves: what a notebook draws.

:func:`sudokit.solve` returns the bare values (an ``(n, n)`` grid or the colors in vertex
order), or None. ``instance.with_solution(values)`` pairs them with their instance, so that
Jupyter draws the solved grid with the givens in bold and the filled cells in blue (or the
graph with its vertices filled by color), and ``str()`` writes it as the text writers do.
A :class:`Solution` is an array too (``numpy.asarray(solution)`` is the values), so code
written for the bare values keeps working.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> square = latin_square(np.array([[1, 0], [0, 0]]))
>>> solved = square.with_solution([[1, 2], [2, 1]])
>>> solved.valid, np.asarray(solved).tolist()
(True, [[1, 2], [2, 1]])
>>> print(solved)
1 2
2 1
>>> print(square.with_solution(None))
no solution
>>> square.with_solution([1, 2, 3])
Traceback (most recent call last):
...
sudokit.errors.InstanceError: a solution of this latin instance is 2 x 2 integers, got 3 of int64
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..displayed import DISPLAY, SVGDisplay
from ..errors import InstanceError
from ..problems import resolve

__all__ = ["Solution"]


@dataclass(frozen=True, eq=False)
class Solution(SVGDisplay):
    """``values`` solving ``instance`` (None: the instance has no solution).

    Attributes
    ----------
    instance : GridPuzzle or Precoloring
    values : numpy.ndarray or None
        The instance's ``solution_shape``: a grid, or colors in vertex order.
    """

    instance: Any
    values: np.ndarray | None

    _svg = "solution_svg"

    def __post_init__(self) -> None:
        if self.values is None:
            return
        values = np.asarray(self.values)
        shape = tuple(self.instance.solution_shape)
        if values.size != int(np.prod(shape)) or values.dtype.kind not in "iu":
            raise InstanceError(f"a solution of this {self.instance.kind} instance is "
                                f"{' x '.join(map(str, shape))} integers, got "
                                f"{' x '.join(map(str, values.shape)) or 'a scalar'} of "
                                f"{values.dtype}")
        object.__setattr__(self, "values", values.reshape(shape))

    @property
    def valid(self) -> bool:
        """True when the values solve the instance (False for no solution)."""
        return self.values is not None and bool(self.instance.is_solution(self.values))

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        if self.values is None:
            raise InstanceError("the instance has no solution: there are no values")
        return np.asarray(self.values, dtype=dtype)

    def __str__(self) -> str:
        return resolve(f"{DISPLAY}:solution_text")(self)  # type: ignore[no-any-return]
