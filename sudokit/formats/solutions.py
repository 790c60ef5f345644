"""Reading candidate solutions of any instance kind, as ``sudokit solve`` prints them.

- grids: any grid format (read without validation: a bad certificate is judged later);
- graphs: one line of colors in vertex order per instance;
- CNF formulas: a SAT solver's answer as it writes it: SAT-competition output (``c``
  comments, an ``s SATISFIABLE`` / ``s UNSATISFIABLE`` / ``s UNKNOWN`` line, ``v`` lines:
  CaDiCaL, Kissat, CryptoMiniSat), MiniSat's and Glucose's result file (``SAT`` then the
  literals, or ``UNSAT`` / ``INDET``) or bare literals; :func:`solver_verdict` tells what the
  answer claims;
- exact cover: the chosen options, one per line, a blank line between covers.

Examples
--------
>>> from sudokit.exact_cover import exact_cover
>>> xc = exact_cover([["a"], ["b"], ["a", "b"]], primary=["a", "b"])
>>> parse_solutions("b a\\n\\na\\nb\\n", "s.txt", xc)
[array([2]), array([0, 1])]
"""

from __future__ import annotations

import numpy as np

from ..errors import ParseError, expect_text
from ..problems import problem_kind, resolve, user_instance
from .pls import is_pls_text, parse_pls
from .puzzle_text import parse_puzzles
from .textio import int_fields, numbered_lines

__all__ = ["VERDICT_LINES", "parse_solutions", "read_grid_solutions", "read_colorings",
           "read_models", "read_covers", "solver_verdict"]

#: the status lines of SAT solvers' answers and what they claim: SAT-competition output
#: (``s ...``) and MiniSat's / Glucose's result files (their first line)
VERDICT_LINES = {"s SATISFIABLE": "sat", "s UNSATISFIABLE": "unsat", "s UNKNOWN": "unknown",
                 "SAT": "sat", "UNSAT": "unsat", "INDET": "unknown"}


def solver_verdict(text: str) -> str | None:
    """What a SAT solver's answer claims: ``"sat"``, ``"unsat"`` or ``"unknown"`` by its
    status line (:data:`VERDICT_LINES`), None when it has none (bare literals).

    Examples
    --------
    >>> solver_verdict("c cadical\\ns UNSATISFIABLE\\n"), solver_verdict("UNSAT\\n")
    ('unsat', 'unsat')
    >>> solver_verdict("SAT\\n1 -2 0\\n"), solver_verdict("1 -2 0\\n")
    ('sat', None)
    """
    for _, line in numbered_lines(text):
        words = line.split()
        if not words or words[0] == "c":
            continue
        verdict = VERDICT_LINES.get(" ".join(words))
        if verdict is not None:
            return verdict
        if words[0] != "s":
            return None   # literals or 'v' lines before any status line
    return None


def _integer_lines(text: str, source: str, models: bool = False) -> list[np.ndarray]:
    """One integer array per line that carries any (a coloring: colors in vertex order).

    Colorings skip ``#`` and ``c`` comment lines; models skip ``s`` and ``c`` lines and a
    result file's ``SAT`` line, and read ``v`` lines without their ``v``."""
    found = []
    for number, line in numbered_lines(text):
        if models:
            if line.startswith(("s", "c")) or line.strip() == "SAT":
                continue
            if line.startswith("v"):
                line = " " + line[1:]  # keep the columns of the fields
        elif line.lstrip().startswith(("#", "c ")):
            continue
        if line.split():
            found.append(int_fields(line, source, number))
    return found


def read_colorings(text: str, source: str, graph=None) -> list[np.ndarray]:
    """Colorings, one line of colors in vertex order per instance."""
    return _integer_lines(text, source)


def read_models(text: str, source: str, formula=None) -> list[np.ndarray]:
    """A DIMACS model: SAT-competition output ('s' and 'v' lines) or bare literals."""
    return [np.concatenate(_integer_lines(text, source, models=True)
                           or [np.zeros(0, np.int64)])]


def read_covers(text: str, source: str, xc) -> list[np.ndarray]:
    """Covers as option indices; each line names an option's items (in any order)."""
    index = {frozenset(xc.option(k)): k for k in range(xc.num_options)}
    covers: list[np.ndarray] = []
    current: list[int] = []
    for number, line in [*numbered_lines(text), (0, "")]:
        names = line.split()
        if not names:
            if current:
                covers.append(np.array(sorted(current), dtype=np.int64))
            current = []
            continue
        if line.lstrip().startswith("|"):
            continue
        option = index.get(frozenset(names))
        if option is None:
            raise ParseError(f"no option covers exactly the items {' '.join(names)}", source,
                             number, 1)
        current.append(option)
    return covers


def read_grid_solutions(text: str, source: str, puzzle=None) -> list[np.ndarray]:
    """Grids in any layout (``.pls`` too), read without validation: a bad certificate is
    judged later by the instance's ``violations``."""
    if is_pls_text(text):
        return [parse_pls(text, source, validate=False).instance.givens]
    records = parse_puzzles(text, source, "solution", getattr(puzzle, "box", None))
    return [record.instance.givens for record in records]


def parse_solutions(text: str, source: str, instance) -> list[np.ndarray]:
    """Candidate solutions for instances of ``instance``'s kind, in file order; ``instance``
    is anything :func:`~sudokit.interop.convert.as_problem` takes (a record, puzzle text ...).

    Examples
    --------
    >>> [grid.tolist() for grid in parse_solutions("1221", "s.txt", [[1, 0], [0, 0]])]
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: a 2x2 grid has no box shape (n is prime); read it as a \
Latin square or give the box shape (1, 2)
    >>> graph = "c colors 2\\np edge 3 2\\ne 1 2\\ne 2 3\\n"
    >>> [c.tolist() for c in parse_solutions("1 2 1\\n", "c.txt", graph)]
    [[1, 2, 1]]
    """
    expect_text(text, "parse_solutions")
    instance = user_instance(instance, taker="parse_solutions")
    return resolve(problem_kind(instance).solution_reader)(text, source, instance)
