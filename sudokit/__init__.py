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

from importlib import metadata as _metadata

try:  # pyproject.toml holds the one copy of the version
    __version__ = _metadata.version("sudokit")
except _metadata.PackageNotFoundError:  # a source tree that is not installed
    __version__ = "0+unknown"

from .cnf import CNF, VarBlock
from .encoders import (
    AMO_METHODS,
    ENCODINGS,
    CNFEncoding,
    ExactCoverEncoding,
    coloring_to_cnf,
    coloring_to_exact_cover,
    completion_to_cnf,
    completion_to_exact_cover,
    exact_cover_to_cnf,
    grid_to_cnf,
    grid_to_exact_cover,
    to_cnf,
    to_exact_cover,
)
from .errors import (
    BudgetExhausted,
    DecodeError,
    EncodingError,
    InstanceError,
    ParseError,
    SolverError,
    SudokitError,
    UnreadableFileError,
)
from .exact_cover import ExactCover, exact_cover, exact_cover_from_matrix
from .formats import (
    format_dimacs,
    format_dlx,
    format_instance,
    format_solution,
    parse_dimacs,
    parse_dlx,
    parse_instances,
    parse_puzzles,
    read_instances,
    write_dimacs,
)
from .instances import GridPuzzle, Precoloring, latin_square, precoloring, sudoku
from .problems import PROBLEMS, ProblemKind, problem_kind
from .protocols import CNFReduction, CoverReduction, Reduction
from .reductions import REDUCTIONS, reduce
from .solvers import (
    ENGINES,
    SOLVERS,
    Budget,
    Engine,
    count_solutions,
    is_unique,
    open_engine,
    open_solver,
    run_batch,
    solutions,
    solve,
)

__all__ = [
    "AMO_METHODS", "Budget", "BudgetExhausted", "CNF", "CNFEncoding", "CNFReduction",
    "CoverReduction", "DancingLinks", "DecodeError", "ENCODINGS", "ENGINES", "EncodingError",
    "Engine", "ExactCover", "ExactCoverEncoding", "GridPuzzle", "InstanceError", "PROBLEMS",
    "ParseError", "Precoloring", "ProblemKind", "REDUCTIONS", "Reduction", "SOLVERS",
    "SolverError", "SudokitError", "UnreadableFileError", "VarBlock", "__version__",
    "completion_to_cnf", "completion_to_exact_cover", "count_solutions", "dlx_count",
    "dlx_first", "dlx_solutions", "exact_cover", "exact_cover_from_matrix",
    "exact_cover_to_cnf", "format_dimacs", "format_dlx", "format_instance", "format_solution",
    "grid_to_cnf", "grid_to_exact_cover", "is_unique", "latin_square", "open_engine",
    "open_solver", "parse_dimacs", "parse_dlx", "parse_instances", "parse_puzzles",
    "precoloring", "coloring_to_cnf", "coloring_to_exact_cover", "problem_kind",
    "read_instances", "reduce", "run_batch", "solutions", "solve", "sudoku", "to_cnf",
    "to_exact_cover", "write_dimacs",
]


def __getattr__(name):
    """The DLX names (``DancingLinks``, ``dlx_count`` ...) load numba on first use."""
    if name in ("DancingLinks", "dlx_count", "dlx_first", "dlx_solutions"):
        from . import solvers
        return getattr(solvers, name)
    raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
