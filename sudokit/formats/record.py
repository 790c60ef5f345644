"""One parsed instance and where it came from.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> rec = Record(latin_square(np.zeros((2, 2), dtype=int)), line=3, style="grid")
>>> rec.line, rec.style
(3, 'grid')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .styles import STYLES

__all__ = ["Record", "STYLES"]


@dataclass(frozen=True)
class Record:
    """A parsed instance with its 1-based start line and the layout it was written in.

    Parameters
    ----------
    instance : GridPuzzle or Precoloring
        The problem instance.
    line : int
        1-based line where the instance starts in its source.
    style : str
        One of :data:`~sudokit.formats.styles.STYLES` (every layout a parser reports and a
        writer accepts); solutions are written back in the same style.

    Examples
    --------
    >>> Record(None, 1, "line").style
    'line'
    """

    instance: Any
    line: int
    style: str

    def _repr_svg_(self) -> str | None:
        """Jupyter shows a record as its instance (a grid or a graph)."""
        shown = getattr(self.instance, "_repr_svg_", None)
        return None if shown is None else shown()  # type: ignore[no-any-return]

    def _repr_html_(self) -> str | None:
        """Jupyter shows a record as its instance (a formula or an exact cover problem)."""
        shown = getattr(self.instance, "_repr_html_", None)
        return None if shown is None else shown()  # type: ignore[no-any-return]
