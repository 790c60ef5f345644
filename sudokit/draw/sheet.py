"""Sheets: many pictures on pages, in rows, as puzzle authors print them.

Examples
--------
>>> from sudokit.draw.svg import Canvas
>>> pages = sheet_pages([Canvas(100, 120) for _ in range(5)], per_page=4)
>>> [(page.width, page.height) for page in pages]
[(260, 300), (260, 300)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .svg import Canvas

__all__ = ["sheet_pages", "columns_for"]


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
