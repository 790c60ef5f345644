"""Pencil marks: the values each cell of a puzzle may still take after a propagation scheme.

:func:`sudokit.grading.pencil_marks` returns a :class:`PencilMarks`; in Jupyter it draws the
grid with the givens in bold, the cells the scheme fixed in green and the other cells' candidates
as small digits (``_repr_svg_``, :mod:`sudokit.draw.display`).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> marks = PencilMarks(latin_square(np.array([[1, 0], [0, 0]])), "none", "open",
...                     np.array([[1, 3], [3, 3]]))
>>> marks.candidates()
[[[1], [1, 2]], [[1, 2], [1, 2]]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..displayed import SVGDisplay

__all__ = ["PencilMarks"]


@dataclass(frozen=True, eq=False)
class PencilMarks(SVGDisplay):
    """The candidates of every cell of ``puzzle`` after propagating ``scheme``.

    Attributes
    ----------
    puzzle : GridPuzzle
    scheme : str
        The propagation scheme (:data:`~sudokit.grading.SCHEMES`).
    status : str
        ``"solved"``, ``"open"`` or ``"failed"`` (as :func:`~sudokit.grading.propagate`).
    domains : numpy.ndarray
        ``(n, n)`` int64 bitmasks, bit ``v - 1`` set when value ``v`` is still possible.
    """

    puzzle: Any
    scheme: str
    status: str
    domains: np.ndarray

    _svg = "marks_svg"

    def candidates(self) -> list:
        """The possible values of each cell, as nested lists (row, column, values)."""
        n = self.puzzle.n
        return [[[v + 1 for v in range(n) if (int(d) >> v) & 1] for d in row]
                for row in np.asarray(self.domains).reshape(n, n).tolist()]

    @property
    def num_candidates(self) -> int:
        """How many (cell, value) pairs are still possible."""
        return sum(len(values) for row in self.candidates() for values in row)
