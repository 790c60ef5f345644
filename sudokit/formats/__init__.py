"""Reading and writing instances and solutions: puzzle text, ``.pls``, ``.col`` and DIMACS CNF.

:func:`read_instances` is the one entry point the command line needs: it reads a file (or
``-``), picks the problem kind from ``--problem``, the file extension or the first line (the
registry in :mod:`sudokit.problems`) and returns
:class:`Record` objects that remember their line and layout, so :func:`format_solution` can
answer in the same layout.

Examples
--------
>>> recs = parse_instances("4.....8.5.3..........7......2.....6.....8.4......1......."
...                        "6.3.7.5..2.....1.4......\\n", "top.txt")
>>> recs[0].instance.n, recs[0].instance.box, recs[0].style
(9, (3, 3), 'line')
"""

from __future__ import annotations

import numpy as np

from ..errors import ParseError
from ..instances.grid import GridPuzzle
from ..problems import problem_kind, resolve, sniff_kind
from .col import format_col, format_coloring, parse_col
from .dimacs import format_dimacs, parse_dimacs, write_dimacs
from .dlx import format_cover, format_dlx, parse_dlx
from .pls import format_pls, parse_pls
from .puzzle_text import OnBad, format_puzzle, parse_puzzles
from .record import STYLES, Record
from .solutions import parse_solutions
from .textio import read_text

__all__ = ["Record", "STYLES", "read_text", "parse_puzzles", "format_puzzle", "parse_pls",
           "format_pls", "parse_col", "format_col", "format_coloring",
           "parse_instances", "read_instances", "format_solution", "format_instance",
           "format_no_solution", "parse_dlx", "format_dlx", "format_cover", "parse_solutions",
           "format_dimacs", "parse_dimacs", "write_dimacs", "OnBad"]


def parse_instances(text: str, source: str = "<string>", problem: str = "sudoku",
                    box: tuple[int, int] | None = None, colors: int | None = None,
                    on_bad: OnBad | None = None) -> list[Record]:
    """Parse all instances of kind ``problem`` (see :mod:`sudokit.problems`) in ``text``.

    Parameters
    ----------
    text : str
        Input text.
    source : str
        Name used in error messages.
    problem : str
        A problem kind. ``"latin"`` reads ``.pls`` text (starting with ``order``) or plain
        puzzle text.
    box : tuple of int, optional
        Sudoku box shape (``--box``).
    colors : int, optional
        Number of colors for coloring (``--colors``).
    on_bad : callable, optional
        For files of many puzzles: None raises at the first bad puzzle; a callable is handed
        a :class:`ParseError` for each bad puzzle, which is skipped (see
        :func:`parse_puzzles`). Files of one instance (``.pls``, ``.col``, DIMACS, DLX) raise
        either way.

    Examples
    --------
    >>> parse_instances("  \\n# nothing\\n", "e.txt")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: e.txt: empty input, no instance found
    >>> parse_instances("order 2\\n0 -1\\n-1 -1\\n", problem="latin")[0].style
    'pls'
    """
    kind = problem_kind(problem)
    if not text.strip():
        raise ParseError("empty input, no instance found", source)
    return resolve(kind.parser)(text, source, box, colors, on_bad=on_bad)


def read_instances(path: str, problem: str | None = None, box: tuple[int, int] | None = None,
                   colors: int | None = None, on_bad: OnBad | None = None) -> list[Record]:
    """Read a file (``"-"`` for stdin) and parse its instances.

    The kind is ``problem`` if given, else the one the extension or the first significant
    line names (:func:`sudokit.problems.sniff_kind`), else Sudoku. ``on_bad`` is as in
    :func:`parse_instances`.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".pls", delete=False) as handle:
    ...     _ = handle.write("order 1\\n-1\\n")
    >>> read_instances(handle.name)[0].instance.n
    1
    >>> os.remove(handle.name)
    """
    text, source = read_text(path)
    return parse_instances(text, source, sniff_kind(source, text, problem), box, colors,
                           on_bad=on_bad)


def _solution_as_pls(record, solution):
    return format_pls(np.asarray(solution))


def _solution_as_coloring(record, solution):
    return format_coloring(solution)


def _solution_as_text(record, solution):
    return format_puzzle(np.asarray(solution), record.style, record.instance.box)


def _solution_as_model(record, solution):
    return "s SATISFIABLE\nv " + " ".join(map(str, np.asarray(solution).tolist())) + " 0"


_SOLUTION_WRITERS = {"pls": _solution_as_pls, "col": _solution_as_coloring,
                     "dimacs": _solution_as_model,
                     "dlx": lambda record, selected: format_cover(record.instance, selected)}

#: what ``solve`` prints for an instance without a solution: SAT-competition lines for DIMACS
_NO_SOLUTION = {"dimacs": {"unsat": "s UNSATISFIABLE", "unknown": "s UNKNOWN"}}


def format_no_solution(record: Record, status: str) -> str:
    """The line for an instance whose status is ``"unsat"`` or ``"unknown"``.

    Examples
    --------
    >>> format_no_solution(parse_instances("1" + "." * 15)[0], "unsat")
    'no solution'
    """
    plain = {"unsat": "no solution", "unknown": "unknown"}
    return _NO_SOLUTION.get(record.style, plain)[status]


def format_solution(record: Record, solution) -> str:
    """Write a solution in the layout its instance came in (no final newline).

    Parameters
    ----------
    record : Record
        The parsed instance.
    solution : array_like
        ``(n, n)`` values for a grid, colors in vertex order for a graph.

    Examples
    --------
    >>> rec = parse_instances("1 . | . .\\n. . | . .\\n----+----\\n. . | . .\\n. . | . .\\n")[0]
    >>> print(format_solution(rec, [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]))
    1 2 | 3 4
    3 4 | 1 2
    ----+----
    2 1 | 4 3
    4 3 | 2 1
    """
    writer = _SOLUTION_WRITERS.get(record.style, _solution_as_text)
    return writer(record, solution)


_INSTANCE_WRITERS = {"pls": lambda inst: format_pls(inst), "col": lambda inst: format_col(inst),
                     "dimacs": lambda inst: _format_formula(inst).rstrip("\n"),
                     "dlx": lambda inst: format_dlx(inst).rstrip("\n")}


def _format_formula(instance) -> str:
    """DIMACS text of a formula; a ``c p show ... 0`` line when the projection is not all."""
    text = format_dimacs(instance.cnf)
    if len(instance.projection) == instance.cnf.num_vars:
        return text
    shown = " ".join(map(str, instance.projection.tolist()))
    return f"c p show {shown} 0\n" + text


def format_instance(record_or_instance, style: str | None = None) -> str:
    """Write an instance (or a :class:`Record`'s instance) as text, no final newline.

    ``style`` defaults to the record's own style, else ``"col"`` for a graph and ``"line"``
    for a grid.

    Examples
    --------
    >>> rec = parse_instances("order 2\\n0 -1\\n-1 -1\\n", problem="latin")[0]
    >>> format_instance(rec, "line")
    '1...'
    """
    if isinstance(record_or_instance, Record):
        instance = record_or_instance.instance
        style = style or record_or_instance.style
    else:
        instance = record_or_instance
    style = style or problem_kind(instance).default_style
    if style in _INSTANCE_WRITERS:
        return _INSTANCE_WRITERS[style](instance)
    if not isinstance(instance, GridPuzzle):
        raise ValueError(f"style {style!r} is for grid puzzles, not {type(instance).__name__}")
    return format_puzzle(instance, style)
