"""Problem models: grids (Sudoku, Latin squares) and precoloring extension, plus bundled examples."""

from .grid import GridPuzzle, default_box, latin_square, parse_box, sudoku
from .precoloring import Precoloring, precoloring

__all__ = ["GridPuzzle", "Precoloring", "default_box", "latin_square", "parse_box",
           "precoloring", "sudoku"]
