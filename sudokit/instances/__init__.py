"""Problem models: grids (Sudoku, Latin squares), precoloring extension, CNF formulas; and the
bundled examples."""

from .formula import CNFFormula, formula
from .grid import GridPuzzle, default_box, latin_square, parse_box, sudoku
from .precoloring import Precoloring, precoloring

__all__ = ["CNFFormula", "GridPuzzle", "formula", "Precoloring", "default_box", "latin_square",
           "parse_box", "precoloring", "sudoku"]
