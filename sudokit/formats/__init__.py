"""Reading and writing instances and solutions: puzzle text, ``.pls``, ``.col`` and DIMACS CNF.

:func:`read_instances` is the one entry point the command line needs: it reads a file (or
``-``), picks the problem from ``--problem`` or the file extension and returns
:class:`Record` objects that remember their line and layout, so :func:`format_solution` can
answer in the same layout.

Examples
--------
>>> recs = parse_instances("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\\n", "top.txt")
>>> recs[0].instance.n, recs[0].instance.box, recs[0].style
(9, (3, 3), 'line')
>>> detect_problem("queen5_5.col")
'coloring'
"""

from __future__ import annotations

from pathlib import PurePath

import numpy as np

from ..errors import InstanceError, ParseError
from ..instances.formula import formula
from ..instances.grid import GridPuzzle
from .col import format_col, format_coloring, parse_col
from .dimacs import format_dimacs, parse_dimacs, write_dimacs
from .dlx import format_cover, format_dlx, parse_dlx
from .pls import format_pls, parse_pls
from .puzzle_text import format_puzzle, parse_puzzles
from .record import STYLES, Record
from .textio import read_text

__all__ = ["Record", "STYLES", "read_text", "parse_puzzles", "format_puzzle", "parse_pls",
           "format_pls", "parse_col", "format_col", "format_coloring", "detect_problem",
           "parse_instances", "read_instances", "format_solution", "format_instance",
           "format_no_solution", "parse_dlx", "format_dlx", "format_cover",
           "format_dimacs", "parse_dimacs", "write_dimacs", "PROBLEMS"]

#: Problems the parsers know, and the extension that implies each (others are Sudoku).
PROBLEMS = ("sudoku", "latin", "coloring", "cnf", "xc")
_BY_EXTENSION = {".pls": "latin", ".col": "coloring", ".cnf": "cnf", ".dlx": "xc"}

#: how to read a file when no problem is named: by extension (``.pls`` strictly as .pls),
#: else by its first significant line (stdin has no extension), else as Sudoku text
_PARSER_BY_EXTENSION = {".pls": "pls", ".col": "coloring", ".cnf": "cnf", ".dlx": "xc"}
_PARSER_BY_HEADER = (("order", "pls"), ("p cnf", "cnf"), ("p edge", "coloring"),
                     ("p col", "coloring"))


def detect_problem(source_name: str, problem: str | None = None) -> str:
    """The problem of an input: ``problem`` if given, else from the file extension.

    Examples
    --------
    >>> detect_problem("qwh.order5.holes10.pls"), detect_problem("-"), detect_problem("a.col", "sudoku")
    ('latin', 'sudoku', 'sudoku')
    """
    if problem is not None:
        if problem not in PROBLEMS:
            raise ValueError(f"unknown problem {problem!r}; expected one of {PROBLEMS}")
        return problem
    return _BY_EXTENSION.get(PurePath(str(source_name)).suffix.lower(), "sudoku")


def _parser_key(source: str, problem: str | None, text: str) -> str:
    """Which parser reads ``text``: the named problem, else the extension, else the header."""
    if problem is not None:
        return detect_problem(source, problem)
    suffix = PurePath(str(source)).suffix.lower()
    if suffix in _PARSER_BY_EXTENSION:
        return _PARSER_BY_EXTENSION[suffix]
    for line in text.splitlines():
        line = line.strip().lower()
        if not line or line.startswith(("#", "c ")) or line == "c":
            continue
        return next((key for prefix, key in _PARSER_BY_HEADER if line.startswith(prefix)),
                    "sudoku")
    return "sudoku"


def _parse_sudoku(text, source, box, colors):
    return parse_puzzles(text, source, "sudoku", box)


def _parse_latin(text, source, box, colors):
    if text.lstrip().lower().startswith("order"):
        return [parse_pls(text, source)]
    return parse_puzzles(text, source, "latin")


def _parse_coloring(text, source, box, colors):
    return [parse_col(text, source, colors)]


def _parse_solutions(text, source, box, colors):
    if text.lstrip().lower().startswith("order"):
        return [parse_pls(text, source, validate=False)]
    return parse_puzzles(text, source, "solution", box)


def _parse_pls_file(text, source, box, colors):
    return [parse_pls(text, source)]


def _parse_cnf(text, source, box, colors):
    cnf = parse_dimacs(text, source)
    lines = [fields for fields in map(_projection_fields, cnf.comments) if fields is not None]
    shown = [int(v) for fields in lines for v in fields if v != "0"]
    try:
        instance = formula(cnf, shown if lines else None)
    except InstanceError as err:
        raise ParseError(str(err), source) from None
    return [Record(instance, 1, "dimacs")]


def _projection_fields(comment: str):
    """The variables of a ``c p show ... 0`` or ``c ind ... 0`` line, else None."""
    fields = comment.split()
    for prefix in (["p", "show"], ["ind"]):
        if fields[:len(prefix)] == prefix and all(f.lstrip("-").isdigit()
                                                  for f in fields[len(prefix):]):
            return fields[len(prefix):]
    return None


def _parse_xc(text, source, box, colors):
    return [parse_dlx(text, source)]


_PARSERS = {"sudoku": _parse_sudoku, "latin": _parse_latin, "coloring": _parse_coloring,
            "solution": _parse_solutions, "pls": _parse_pls_file, "cnf": _parse_cnf,
            "xc": _parse_xc}


def parse_instances(text: str, source: str = "<string>", problem: str = "sudoku",
                    box: tuple[int, int] | None = None,
                    colors: int | None = None) -> list[Record]:
    """Parse all instances of ``problem`` in ``text``.

    Parameters
    ----------
    text : str
        Input text.
    source : str
        Name used in error messages.
    problem : {"sudoku", "latin", "coloring", "solution"}
        ``"latin"`` reads ``.pls`` text (starting with ``order``) or plain puzzle text;
        ``"solution"`` reads grids of any of these forms without checking them.
    box : tuple of int, optional
        Sudoku box shape (``--box``).
    colors : int, optional
        Number of colors for coloring (``--colors``).

    Examples
    --------
    >>> parse_instances("  \\n# nothing\\n", "e.txt")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: e.txt: empty input, no instance found
    >>> parse_instances("order 2\\n0 -1\\n-1 -1\\n", problem="latin")[0].style
    'pls'
    """
    if problem not in _PARSERS:
        raise ValueError(f"unknown problem {problem!r}; expected one of {PROBLEMS}")
    if not text.strip():
        raise ParseError("empty input, no instance found", source)
    return _PARSERS[problem](text, source, box, colors)


def read_instances(path: str, problem: str | None = None, box: tuple[int, int] | None = None,
                   colors: int | None = None) -> list[Record]:
    """Read a file (``"-"`` for stdin) and parse its instances.

    The problem is ``problem`` if given, else ``.pls`` -> latin, ``.col`` -> coloring,
    anything else -> sudoku.

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
    return parse_instances(text, source, _parser_key(source, problem, text), box, colors)


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


#: how each kind of instance is written when no style is asked for
_DEFAULT_STYLE = {"coloring": "col", "cnf": "dimacs", "xc": "dlx"}


def _instance_style(instance, style):
    return style or _DEFAULT_STYLE.get(instance.kind, "line")


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
    style = _instance_style(instance, style)
    if style in _INSTANCE_WRITERS:
        return _INSTANCE_WRITERS[style](instance)
    if not isinstance(instance, GridPuzzle):
        raise ValueError(f"style {style!r} is for grid puzzles, not {type(instance).__name__}")
    return format_puzzle(instance, style)
