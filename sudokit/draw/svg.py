"""Drawing primitives: a :class:`Canvas` of rectangles, lines, circles and text, written as SVG.

A picture is a list of plain shapes in pixel coordinates (origin top left, y down). The SVG
writer turns them into text with nothing but the standard library; the PNG and PDF writer
(:mod:`~sudokit.draw.raster`) draws the very same shapes with matplotlib, so both outputs
show one picture. Text is placed on its baseline (``y``), horizontally centred on ``x``.

Examples
--------
>>> canvas = Canvas(40, 40)
>>> canvas.rect(0, 0, 40, 40, fill="#fff", stroke="#000", width=2, cls="border")
>>> canvas.text(20, 27, "7", size=24, cls="given", weight="bold")
>>> print(canvas.to_svg())  # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"
     font-family="DejaVu Sans, Verdana, sans-serif">
<rect class="border" x="0" y="0" width="40" height="40" fill="#fff" stroke="#000"
      stroke-width="2"/>
<text class="given" x="20" y="27" font-size="24" fill="#000" font-weight="bold"
      text-anchor="middle">7</text>
</svg>
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from xml.sax.saxutils import escape, quoteattr

__all__ = ["Canvas", "Rect", "Line", "Circle", "Text", "number"]

#: the fonts the SVG asks for; matplotlib draws PNG and PDF with its bundled DejaVu Sans
FONT_FAMILY = "DejaVu Sans, Verdana, sans-serif"


def number(value: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros.

    Examples
    --------
    >>> number(12.0), number(3.14159), number(-0.001)
    ('12', '3.14', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str = "none"
    stroke: str = "none"
    width: float = 0.0
    cls: str = ""

    def shifted(self, dx: float, dy: float, scale: float = 1.0) -> Rect:
        return replace(self, x=self.x * scale + dx, y=self.y * scale + dy, w=self.w * scale,
                       h=self.h * scale, width=self.width * scale)

    def svg(self) -> str:
        stroke = (f' stroke="{self.stroke}" stroke-width="{number(self.width)}"'
                  if self.stroke != "none" else "")
        return (f'<rect{_cls(self.cls)} x="{number(self.x)}" y="{number(self.y)}" '
                f'width="{number(self.w)}" height="{number(self.h)}" fill="{self.fill}"'
                f"{stroke}/>")


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000"
    width: float = 1.0
    cls: str = ""

    def shifted(self, dx: float, dy: float, scale: float = 1.0) -> Line:
        return replace(self, x1=self.x1 * scale + dx, y1=self.y1 * scale + dy,
                       x2=self.x2 * scale + dx, y2=self.y2 * scale + dy,
                       width=self.width * scale)

    def svg(self) -> str:
        return (f'<line{_cls(self.cls)} x1="{number(self.x1)}" y1="{number(self.y1)}" '
                f'x2="{number(self.x2)}" y2="{number(self.y2)}" stroke="{self.stroke}" '
                f'stroke-width="{number(self.width)}" stroke-linecap="square"/>')


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str = "#fff"
    stroke: str = "#000"
    width: float = 1.0
    cls: str = ""
    title: str = ""

    def shifted(self, dx: float, dy: float, scale: float = 1.0) -> Circle:
        return replace(self, cx=self.cx * scale + dx, cy=self.cy * scale + dy,
                       r=self.r * scale, width=self.width * scale)

    def svg(self) -> str:
        head = (f'<circle{_cls(self.cls)} cx="{number(self.cx)}" cy="{number(self.cy)}" '
                f'r="{number(self.r)}" fill="{self.fill}" stroke="{self.stroke}" '
                f'stroke-width="{number(self.width)}"')
        return f"{head}><title>{escape(self.title)}</title></circle>" if self.title \
            else head + "/>"


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    fill: str = "#000"
    weight: str = "normal"
    cls: str = ""
    anchor: str = "middle"

    def shifted(self, dx: float, dy: float, scale: float = 1.0) -> Text:
        return replace(self, x=self.x * scale + dx, y=self.y * scale + dy,
                       size=self.size * scale)

    def svg(self) -> str:
        weight = f' font-weight="{self.weight}"' if self.weight != "normal" else ""
        return (f'<text{_cls(self.cls)} x="{number(self.x)}" y="{number(self.y)}" '
                f'font-size="{number(self.size)}" fill="{self.fill}"{weight} '
                f'text-anchor="{self.anchor}">{escape(self.text)}</text>')


def _cls(name: str) -> str:
    return f" class={quoteattr(name)}" if name else ""


Shape = Rect | Line | Circle | Text


@dataclass
class Canvas:
    """A ``width x height`` picture (pixels) and its shapes, drawn in order."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str = "none", width: float = 0.0, cls: str = "") -> None:
        self.shapes.append(Rect(x, y, w, h, fill, stroke, width, cls))

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000",
             width: float = 1.0, cls: str = "") -> None:
        self.shapes.append(Line(x1, y1, x2, y2, stroke, width, cls))

    def circle(self, cx: float, cy: float, r: float, fill: str = "#fff", stroke: str = "#000",
               width: float = 1.0, cls: str = "", title: str = "") -> None:
        self.shapes.append(Circle(cx, cy, r, fill, stroke, width, cls, title))

    def text(self, x: float, y: float, text: str, size: float, fill: str = "#000",
             weight: str = "normal", cls: str = "", anchor: str = "middle") -> None:
        self.shapes.append(Text(x, y, text, size, fill, weight, cls, anchor))

    def place(self, other: Canvas, dx: float, dy: float, scale: float = 1.0) -> None:
        """Copy ``other``'s shapes into this canvas, scaled by ``scale`` (line widths and
        text too) and moved by ``(dx, dy)``."""
        self.shapes.extend(shape.shifted(dx, dy, scale) for shape in other.shapes)

    def to_svg(self, width: float | None = None) -> str:
        """The picture as an SVG document; ``width`` (pixels) scales it, keeping the
        aspect ratio."""
        scale = 1.0 if width is None else width / self.width
        lines = [f'<svg xmlns="http://www.w3.org/2000/svg" '
                 f'width="{number(self.width * scale)}" height="{number(self.height * scale)}" '
                 f'viewBox="0 0 {number(self.width)} {number(self.height)}" '
                 f'font-family="{FONT_FAMILY}">']
        lines += [shape.svg() for shape in self.shapes]
        lines.append("</svg>")
        return "\n".join(lines) + "\n"
