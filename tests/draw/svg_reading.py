"""Reading pictures back from their SVG (shared by the drawing tests)."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

SVG = "{http://www.w3.org/2000/svg}"


def parse(canvas_or_text):
    text = canvas_or_text if isinstance(canvas_or_text, str) else canvas_or_text.to_svg()
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


class Grid:
    """What a grid picture shows, read back from its SVG alone."""

    def __init__(self, root, n):
        (border,) = [e for e in root.iter(SVG + "rect") if e.get("class") == "border"]
        self.left, self.top = float(border.get("x")), float(border.get("y"))
        self.cell = float(border.get("width")) / n
        assert float(border.get("height")) == pytest.approx(n * self.cell)
        self.n, self.root = n, root

    def cell_of(self, x, y):
        col = (float(x) - self.left) / self.cell
        row = (float(y) - self.top) / self.cell
        return int(np.floor(row)), int(np.floor(col))

    def texts(self, cls):
        """``{(row, col): [symbols]}`` of the text elements of class ``cls``."""
        found = {}
        for e in self.root.iter(SVG + "text"):
            if e.get("class") == cls:
                found.setdefault(self.cell_of(e.get("x"), e.get("y")), []).append(e.text)
        return found

    def centred(self, cls):
        """Every text of class ``cls`` is horizontally centred in its cell."""
        for e in self.root.iter(SVG + "text"):
            if e.get("class") == cls:
                offset = (float(e.get("x")) - self.left) / self.cell % 1
                assert offset == pytest.approx(0.5)

    def box_edges(self):
        """Unit cell edges covered by the thick region lines: ("v", row, k) is the edge
        left of column k in row ``row``; ("h", col, k) the edge above row k in column ``col``."""
        edges = set()
        for e in self.root.iter(SVG + "line"):
            if e.get("class") != "box":
                continue
            x1, y1, x2, y2 = (float(e.get(a)) for a in ("x1", "y1", "x2", "y2"))
            if x1 == x2:
                k = round((x1 - self.left) / self.cell)
                lo, hi = sorted(round((y - self.top) / self.cell) for y in (y1, y2))
                edges |= {("v", row, k) for row in range(lo, hi)}
            else:
                assert y1 == y2
                k = round((y1 - self.top) / self.cell)
                lo, hi = sorted(round((x - self.left) / self.cell) for x in (x1, x2))
                edges |= {("h", col, k) for col in range(lo, hi)}
        return edges
