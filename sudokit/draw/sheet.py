"""Sheets: many pictures on pages, in rows, as puzzle authors print them.

:func:`sheet_pages` makes pages just large enough for their pictures; :func:`paper_pages`
makes pages of a paper size (:data:`PAPERS`: A4 or US Letter) with a title at the top of
each, the pictures scaled to fit their slots, and a page number at the foot. Page canvases
count :data:`UNITS_PER_INCH` units to the inch, as the PDF writer
(:mod:`~sudokit.draw.raster`) draws them, so a paper page is printed at its true size.

Examples
--------
>>> from sudokit.draw.svg import Canvas
>>> pages = sheet_pages([Canvas(100, 120) for _ in range(5)], per_page=4)
>>> [(page.width, page.height) for page in pages]
[(260, 300), (260, 300)]
>>> pages = paper_pages([Canvas(100, 120) for _ in range(5)], "a4", per_page=4, title="Set 1")
>>> len(pages), round(pages[0].width), round(pages[0].height)
(2, 827, 1169)
>>> [s.text for s in pages[1].shapes if getattr(s, "cls", "") in ("title", "page")]
['Set 1', '2 / 2']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InstanceError
from .svg import Canvas

__all__ = ["sheet_pages", "paper_pages", "columns_for", "Paper", "PAPERS", "UNITS_PER_INCH"]

#: canvas units per inch on a paper page (the PDF writer draws 100 units to the inch)
UNITS_PER_INCH = 100


@dataclass(frozen=True)
class Paper:
    """A paper size: its name and its width and height in inches (portrait)."""

    name: str
    width: float
    height: float
    help: str

    @property
    def points(self) -> tuple[float, float]:
        """``(width, height)`` in PostScript points, as a PDF's MediaBox gives it."""
        return self.width * 72, self.height * 72


#: the paper sizes of ``draw --paper``
PAPERS: dict[str, Paper] = {
    "a4": Paper("A4", 210 / 25.4, 297 / 25.4, "ISO A4, 210 x 297 mm"),
    "letter": Paper("Letter", 8.5, 11.0, "US Letter, 8.5 x 11 in"),
}


def columns_for(per_page: int) -> int:
    """Columns of a page of ``per_page`` pictures: the smallest ``c`` with ``c * c >=
    per_page`` (so there are at least as many rows as columns less one).

    Examples
    --------
    >>> [columns_for(k) for k in (1, 2, 4, 6, 12)]
    [1, 2, 2, 3, 4]
    """
    return max(1, math.isqrt(per_page - 1) + 1) if per_page > 1 else 1


def sheet_pages(pictures: Sequence[Canvas], per_page: int = 6, gap: float = 20,
                columns: int | None = None) -> list[Canvas]:
    """Lay ``pictures`` out in rows, ``per_page`` to a page. The slots are as large as the
    largest picture; every page has the same size (for a PDF), except that a single page
    drops the rows it does not use."""
    columns = columns or columns_for(per_page)
    rows = math.ceil(per_page / columns)
    cell_w = max(p.width for p in pictures)
    cell_h = max(p.height for p in pictures)
    used_rows = rows if len(pictures) > per_page else math.ceil(len(pictures) / columns)
    width = columns * cell_w + (columns + 1) * gap
    height = used_rows * cell_h + (used_rows + 1) * gap
    pages = []
    for start in range(0, len(pictures), per_page):
        page = Canvas(width, height)
        page.rect(0, 0, width, height, fill="#fff", cls="background")
        for k, picture in enumerate(pictures[start:start + per_page]):
            row, col = divmod(k, columns)
            page.place(picture, gap + col * (cell_w + gap) + (cell_w - picture.width) / 2,
                       gap + row * (cell_h + gap))
        pages.append(page)
    return pages


def paper_pages(pictures: Sequence[Canvas], paper: str | Paper, per_page: int = 6,
                title: str | None = None, columns: int | None = None, margin: float = 0.6,
                first_page: int = 1, total_pages: int | None = None) -> list[Canvas]:
    """Lay ``pictures`` out on pages of ``paper`` (a :data:`PAPERS` name or a
    :class:`Paper`), ``per_page`` to a page in ``columns`` (default: the number of columns
    that draws the pictures largest), each scaled to fit its slot (never enlarged past twice
    its size).

    ``title`` is written at the top of every page, and ``k / total_pages`` at its foot,
    counting from ``first_page`` (for pages appended to others, such as an answer key);
    ``margin`` is in inches.
    """
    spec = paper if isinstance(paper, Paper) else _paper(paper)
    width, height = spec.width * UNITS_PER_INCH, spec.height * UNITS_PER_INCH
    edge = margin * UNITS_PER_INCH
    gap = 0.25 * UNITS_PER_INCH
    head = 0.45 * UNITS_PER_INCH if title else 0.0
    foot = 0.3 * UNITS_PER_INCH
    inner_w, inner_h = width - 2 * edge, height - 2 * edge - head - foot
    biggest_w = max(p.width for p in pictures)
    biggest_h = max(p.height for p in pictures)

    def slots(cols: int) -> tuple[float, float]:
        rows = math.ceil(per_page / cols)
        return (inner_w - (cols - 1) * gap) / cols, (inner_h - (rows - 1) * gap) / rows

    def fit(cols: int) -> float:
        slot_w, slot_h = slots(cols)
        return min(slot_w / biggest_w, slot_h / biggest_h)

    columns = columns or max(range(1, per_page + 1), key=fit)   # the largest pictures
    slot_w, slot_h = slots(columns)
    starts = range(0, len(pictures), per_page)
    total = total_pages if total_pages is not None else first_page - 1 + len(starts)
    pages = []
    for number, start in enumerate(starts, first_page):
        page = Canvas(width, height)
        page.rect(0, 0, width, height, fill="#fff", cls="background")
        if title:
            page.text(width / 2, edge + 0.3 * UNITS_PER_INCH, title, 0.3 * UNITS_PER_INCH,
                      weight="bold", cls="title")
        page.text(width / 2, height - edge + 0.05 * UNITS_PER_INCH, f"{number} / {total}",
                  0.14 * UNITS_PER_INCH, fill="#555", cls="page")
        for k, picture in enumerate(pictures[start:start + per_page]):
            row, col = divmod(k, columns)
            scale = min(slot_w / picture.width, slot_h / picture.height, 2.0)
            x = edge + col * (slot_w + gap) + (slot_w - picture.width * scale) / 2
            y = edge + head + row * (slot_h + gap) + (slot_h - picture.height * scale) / 2
            page.place(picture, x, y, scale)
        pages.append(page)
    return pages


def _paper(name: str) -> Paper:
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise InstanceError(f"unknown paper {name!r}; choose one of "
                            f"{', '.join(PAPERS)}") from None
