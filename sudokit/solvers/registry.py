"""The PySAT back ends sudokit can drive, by PySAT's own names.

Only solvers that PySAT bundles *and* that solve incrementally under assumptions are listed:
counting and batch checking depend on both. (Kissat takes no assumptions; CryptoMiniSat and
MiniSat-GH are not bundled in the PySAT wheels.)

Examples
--------
>>> "cadical195" in SOLVERS
True
>>> resolve_solver("g4")
'glucose4'
"""

from __future__ import annotations

from pysat.solvers import SolverNames

from ..errors import SolverError

__all__ = ["SOLVERS", "EXACT_SOLVERS", "DEFAULT_SOLVER", "resolve_solver", "supports_budget"]

_KNOWN: dict[str, str] = {
    "cadical195": "CaDiCaL 1.9.5 (Biere et al.): modern CDCL",
    "cadical153": "CaDiCaL 1.5.3: earlier CaDiCaL release",
    "cadical103": "CaDiCaL 1.0.3: first CaDiCaL release in PySAT",
    "cadical300": "CaDiCaL 3.0.0: newest CaDiCaL release in PySAT",
    "glucose3": "Glucose 3.0 (Audemard and Simon): LBD-based clause deletion",
    "glucose4": "Glucose 4.1: Glucose with improved restarts",
    "glucose42": "Glucose 4.2.1: latest Glucose",
    "gluecard3": "Gluecard 3.0: Glucose with native cardinality constraints",
    "gluecard4": "Gluecard 4.1: Glucose 4 with native cardinality constraints",
    "lingeling": "Lingeling (Biere): inprocessing CDCL; no time or conflict budgets",
    "maplechrono": "MapleLCMDistChronoBT: chronological backtracking, SAT Race 2018 winner",
    "maplecm": "MapleCM: Maple with clause minimisation",
    "maplesat": "MapleSAT: learning-rate branching heuristic",
    "mergesat3": "MergeSat 3: MiniSat descendant merging several techniques",
    "minicard": "Minicard: MiniSat with native cardinality constraints",
    "minisat22": "MiniSat 2.2 (Een and Sorensson): the classic CDCL reference",
    "minisatep": "MiniSat with external propagation hooks",
    "ergo": "Ergo: a CDCL solver bundled with recent PySAT development releases",
}

# the installed PySAT decides which of these exist
SOLVERS: dict[str, str] = {name: text for name, text in _KNOWN.items()
                           if hasattr(SolverNames, name)}

DEFAULT_SOLVER = "cadical195"

#: solvers that work on the exact cover form instead of CNF
EXACT_SOLVERS: dict[str, str] = {
    "dlx": "Knuth's Algorithm X with dancing links (DLX1 layout, numba): exact cover",
}

_NO_BUDGET = {"lingeling"}


def resolve_solver(name: str) -> str:
    """Canonical name: ``dlx``, or the PySAT name for it or any of PySAT's aliases (``g4``...)."""
    wanted = name.strip().lower()
    if wanted in EXACT_SOLVERS:
        return wanted
    for canonical in SOLVERS:
        if wanted == canonical or wanted in getattr(SolverNames, canonical, ()):
            return canonical
    raise SolverError(f"unknown solver {name!r}; run 'sudokit solvers' to list them")


def supports_budget(name: str) -> bool:
    """Whether the solver honours conflict budgets (needed for time limits)."""
    return resolve_solver(name) not in _NO_BUDGET
