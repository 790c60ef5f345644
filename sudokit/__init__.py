"""sudokit: Sudoku, Latin square completion and precoloring extension as SAT.

A function-first API: build or read an instance, encode it, solve or count.

Examples
--------
>>> import sudokit
>>> puzzle = sudokit.parse_puzzles("4.....8.5.3..........7......2.....6.....8.4......1......."
...                                "6.3.7.5..2.....1.4......")[0].instance
>>> encoded = sudokit.grid_to_cnf(puzzle, "reduced")
>>> encoded.cnf.num_vars
301
>>> sudokit.count_solutions(encoded, limit=2)
1
"""

__version__ = "0.1.0"

from .cnf import CNF, VarBlock
from .exact_cover import ExactCover, exact_cover, exact_cover_from_matrix
from .encoders import (AMO_METHODS, ENCODINGS, CNFEncoding, ExactCoverEncoding,
                       completion_to_cnf, completion_to_exact_cover, exact_cover_to_cnf,
                       grid_to_cnf, grid_to_exact_cover, precoloring_to_cnf,
                       precoloring_to_exact_cover, to_cnf, to_exact_cover)
from .errors import (BudgetExhausted, DecodeError, EncodingError, InstanceError, ParseError,
                     SolverError, SudokitError, UnreadableFileError)
from .formats import (format_dimacs, format_dlx, format_instance, format_solution,
                      parse_dimacs, parse_dlx, parse_instances, parse_puzzles, read_instances,
                      write_dimacs)
from .instances import GridPuzzle, Precoloring, latin_square, precoloring, sudoku
from .solvers import (SOLVERS, Budget, count_solutions, is_unique, open_solver, run_batch,
                      solutions, solve)

__all__ = [
    "DancingLinks", "ExactCover", "ExactCoverEncoding", "completion_to_exact_cover",
    "dlx_count", "dlx_first", "dlx_solutions", "exact_cover", "exact_cover_from_matrix",
    "exact_cover_to_cnf", "format_dlx", "grid_to_exact_cover", "parse_dlx",
    "precoloring_to_exact_cover", "to_cnf", "to_exact_cover",
    "AMO_METHODS", "Budget", "BudgetExhausted", "CNF", "CNFEncoding", "DecodeError", "ENCODINGS",
    "EncodingError", "GridPuzzle", "InstanceError", "ParseError", "Precoloring", "SOLVERS",
    "SolverError", "SudokitError", "UnreadableFileError", "VarBlock", "__version__",
    "completion_to_cnf", "count_solutions", "format_dimacs", "format_instance",
    "format_solution", "grid_to_cnf", "is_unique", "latin_square", "open_solver",
    "parse_dimacs", "parse_instances", "parse_puzzles", "precoloring", "precoloring_to_cnf",
    "read_instances", "run_batch", "solutions", "solve", "sudoku", "write_dimacs",
]


def __getattr__(name):
    """The DLX names (``DancingLinks``, ``dlx_count`` ...) load numba on first use."""
    if name in ("DancingLinks", "dlx_count", "dlx_first", "dlx_solutions"):
        from . import solvers
        return getattr(solvers, name)
    raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
