"""How the models show themselves in Jupyter: ``_repr_svg_`` and ``_repr_html_`` hooks.

IPython draws an object whose class has ``_repr_svg_`` (a picture) or ``_repr_html_`` (a
table, or pictures side by side) and falls back to its text ``repr`` when the hook returns
None. The models sit below the drawing code (:mod:`sudokit.draw`), so the hooks here only
*name* the function that draws them, in :mod:`sudokit.draw.display`, resolved on first use
(:func:`sudokit.problems.resolve`, as ``Composable.then`` names the reduction registry): a
class sets ``_svg`` or ``_html`` to that function's name. Nothing is imported, and nothing
is drawn, until a notebook asks.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> svg = latin_square(np.array([[1, 0], [0, 0]]))._repr_svg_()
>>> svg.startswith("<svg"), svg.count("<text")
(True, 1)
"""

from __future__ import annotations

from .problems import resolve

__all__ = ["DISPLAY", "SVGDisplay", "HTMLDisplay"]

#: the module whose functions draw the models
DISPLAY = "sudokit.draw.display"


class SVGDisplay:
    """Mixin: ``_repr_svg_`` draws the object with the function of
    :mod:`sudokit.draw.display` its class names in ``_svg``."""

    _svg = ""

    def _repr_svg_(self) -> str | None:
        return resolve(f"{DISPLAY}:{self._svg}")(self)  # type: ignore[no-any-return]


class HTMLDisplay:
    """Mixin: ``_repr_html_`` shows the object with the function of
    :mod:`sudokit.draw.display` its class names in ``_html``."""

    _html = ""

    def _repr_html_(self) -> str | None:
        return resolve(f"{DISPLAY}:{self._html}")(self)  # type: ignore[no-any-return]
