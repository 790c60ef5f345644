"""Pictures of puzzles and graphs (``sudokit draw``): SVG as text, PNG and PDF with matplotlib.

- :mod:`~sudokit.draw.svg`: the shapes of a picture (:class:`~sudokit.draw.svg.Canvas`) and
  the SVG writer (standard library only);
- :mod:`~sudokit.draw.grid`: Sudoku of any size and box shape, Latin squares, region maps;
  givens, a solution, or pencil marks after a propagation scheme;
- :mod:`~sudokit.draw.graph`: precoloring instances, vertices filled by color (spring layout
  with a fixed seed, a circle, or the grid of a Sudoku or rook's graph);
- :mod:`~sudokit.draw.sheet`: many pictures on pages, as puzzle authors print them (A4 or
  Letter paper, titles, page numbers);
- :mod:`~sudokit.draw.raster`: PNG and PDF (``pip install "sudokit[draw]"``).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> svg = grid_picture(latin_square(np.array([[1, 0], [0, 0]]))).to_svg()
>>> svg.count("<text"), svg.count('class="box"')
(1, 0)
"""

from .graph import graph_picture
from .grid import grid_picture
from .sheet import paper_pages, sheet_pages
from .svg import Canvas

__all__ = ["Canvas", "graph_picture", "grid_picture", "paper_pages", "sheet_pages"]
