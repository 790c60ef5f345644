"""PNG and PDF: the shapes of a :class:`~sudokit.draw.svg.Canvas` drawn with matplotlib.

matplotlib is the optional extra ``draw`` (``pip install "sudokit[draw]"``); its wheels carry
every library they need, where cairosvg would need the system's libcairo. The picture is the
one the SVG writer describes, shape for shape, on a figure of exactly the requested size: a
PNG ``width`` pixels wide (its height keeps the aspect ratio), a PDF of one page per canvas
at 100 pixels to the inch (a paper page of :mod:`~sudokit.draw.sheet` is exactly its paper
size). PDF fonts are embedded as TrueType (Type 42, matplotlib's ``pdf.fonttype``), not as
Type 3 outlines, which some print shops refuse.

Examples
--------
>>> import io
>>> from sudokit.draw.svg import Canvas
>>> canvas = Canvas(20, 10)
>>> canvas.line(0, 5, 20, 5)
>>> out = io.BytesIO()
>>> render([canvas], "png", out, width=40)
>>> png_size(out.getvalue())
(40, 20)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, BinaryIO

from ..errors import InstanceError
from ..interop import optional_module
from .svg import FONT_FAMILY, Canvas, Circle, Line, Rect, Text

__all__ = ["render", "png_size", "FORMATS"]

#: the formats written here (SVG is written by the canvas itself)
FORMATS = ("png", "pdf")

#: pixels per inch of the figures: a point is 0.72 pixel units
_DPI = 100
#: matplotlib settings of every PDF: fonts embedded as TrueType (Type 42), not Type 3
PDF_SETTINGS: dict[str, Any] = {"pdf.fonttype": 42, "ps.fonttype": 42}


def png_size(data: bytes) -> tuple[int, int]:
    """``(width, height)`` of a PNG from its IHDR chunk; InstanceError if it is no PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise InstanceError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def render(pages: Sequence[Canvas], fmt: str, stream: BinaryIO, width: float | None = None
           ) -> None:
    """Write ``pages`` as PNG (exactly one page) or PDF (one page each) to ``stream``;
    ``width`` in pixels (default: the canvas's own)."""
    optional_module("matplotlib", "draw")
    from matplotlib.figure import Figure

    if fmt == "png":
        if len(pages) != 1:
            raise InstanceError(f"a PNG holds one page, got {len(pages)}")
        _figure(Figure, pages[0], width).savefig(stream, format="png", dpi=_DPI,
                                                 metadata={"Software": None})
        return
    if fmt != "pdf":
        raise InstanceError(f"unknown picture format {fmt!r}")
    from matplotlib import rc_context
    from matplotlib.backends.backend_pdf import PdfPages

    settings: Any = PDF_SETTINGS   # matplotlib types rc keys as literals
    with rc_context(settings), \
            PdfPages(stream, metadata={"Creator": "sudokit", "Producer": None}) as pdf:
        for page in pages:
            pdf.savefig(_figure(Figure, page, width, exact=True))


def _figure(figure_class: Any, canvas: Canvas, width: float | None, exact: bool = False
            ) -> Any:
    """The canvas on a matplotlib figure; ``exact`` keeps fractional sizes (a PDF page of a
    paper size), else the figure is whole pixels (a PNG)."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle as CirclePatch
    from matplotlib.patches import Rectangle

    pixels_w: float = width if width is not None else canvas.width
    pixels_h: float = pixels_w * canvas.height / canvas.width
    if not exact:
        pixels_w, pixels_h = round(pixels_w), max(1, round(pixels_h))
    figure = figure_class(figsize=(pixels_w / _DPI, pixels_h / _DPI), dpi=_DPI)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, canvas.width)
    axes.set_ylim(canvas.height, 0)
    axes.set_axis_off()
    points = 72 / _DPI * pixels_w / canvas.width     # points per canvas unit
    font = FONT_FAMILY.split(",")[0]   # matplotlib's bundled font, named first in the SVG
    lines: list[Line] = []

    def flush(order: int) -> None:
        if lines:
            axes.add_collection(LineCollection(
                [((s.x1, s.y1), (s.x2, s.y2)) for s in lines],
                colors=[_color(s.stroke) for s in lines],
                linewidths=[s.width * points for s in lines], capstyle="projecting",
                zorder=order))
            lines.clear()

    for order, shape in enumerate(canvas.shapes):
        if isinstance(shape, Line):
            lines.append(shape)
            continue
        flush(order)
        if isinstance(shape, Rect):
            axes.add_patch(Rectangle((shape.x, shape.y), shape.w, shape.h,
                                     facecolor=_color(shape.fill),
                                     edgecolor=_color(shape.stroke),
                                     linewidth=shape.width * points, zorder=order))
        elif isinstance(shape, Circle):
            axes.add_patch(CirclePatch((shape.cx, shape.cy), shape.r,
                                       facecolor=_color(shape.fill),
                                       edgecolor=_color(shape.stroke),
                                       linewidth=shape.width * points, zorder=order))
        elif isinstance(shape, Text):
            axes.text(shape.x, shape.y, shape.text, fontsize=shape.size * points,
                      color=_color(shape.fill), fontweight=shape.weight, family=font,
                      ha={"middle": "center", "start": "left", "end": "right"}[shape.anchor],
                      va="baseline", zorder=order)
    flush(len(canvas.shapes))
    return figure


def _color(value: str) -> str:
    """SVG colors as matplotlib takes them (``#rgb`` spelt out)."""
    if value.startswith("#") and len(value) == 4:
        return "#" + "".join(ch * 2 for ch in value[1:])
    return value
