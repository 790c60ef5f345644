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

from __future__ import annotations

from importlib import import_module as _import_module

from ._version import __version__

#: public name -> the submodule that defines it, imported on first use (PEP 562), so that
#: ``sudokit --version`` and ``--help`` load neither numpy nor PySAT nor numba
_LAZY: dict[str, str] = {
    **dict.fromkeys(["CNF", "VarBlock"], "cnf"),
    **dict.fromkeys(["AMO_METHODS", "ENCODINGS", "CNFEncoding", "ExactCoverEncoding",
                     "coloring_to_cnf", "coloring_to_exact_cover", "completion_to_cnf",
                     "completion_to_exact_cover", "exact_cover_to_cnf", "grid_to_cnf",
                     "grid_to_exact_cover", "to_cnf", "to_exact_cover"], "encoders"),
    **dict.fromkeys(["BudgetExhausted", "DecodeError", "EncodingError", "InstanceError",
                     "ParseError", "SolverError", "SudokitError", "UnreadableFileError"],
                    "errors"),
    **dict.fromkeys(["ExactCover", "exact_cover", "exact_cover_from_matrix"], "exact_cover"),
    **dict.fromkeys(["format_dimacs", "format_dlx", "format_instance", "format_no_solution",
                     "format_solution",
                     "parse_dimacs", "parse_dlx", "parse_instances", "parse_puzzles",
                     "read_instances", "write_dimacs"], "formats"),
    **dict.fromkeys(["GridPuzzle", "Precoloring", "latin_square", "precoloring", "sudoku"],
                    "instances"),
    **dict.fromkeys(["from_networkx", "to_networkx"], "interop.networkx"),
    **dict.fromkeys(["as_problem"], "interop.convert"),
    **dict.fromkeys(["from_pysat", "to_pysat"], "interop.pysat"),
    **dict.fromkeys(["from_scipy", "to_scipy"], "interop.scipy"),
    **dict.fromkeys(["PROBLEMS", "ProblemKind", "problem_kind"], "problems"),
    **dict.fromkeys(["RunSpec", "answer", "count_arrays", "run_batch"], "batch"),
    **dict.fromkeys(["CNFReduction", "CoverReduction", "Reduction"], "protocols"),
    **dict.fromkeys(["REDUCTIONS", "reduce"], "reductions"),
    **dict.fromkeys(["ENGINES", "SOLVERS", "Budget", "Engine", "count_solutions", "is_unique",
                     "open_engine", "open_solver", "solutions", "solve",
                     "DancingLinks", "dlx_count", "dlx_first", "dlx_solutions"], "solvers"),
}

__all__ = ["__version__", *sorted(_LAZY)]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
    value = getattr(_import_module(f".{module}", __name__), name)
    globals()[name] = value  # once resolved, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
