"""Reading and writing instances and solutions: puzzle text, ``.pls``, ``.col`` and DIMACS CNF.

:func:`read_instances` is the one entry point the command line needs: it reads a file (or
``-``), picks the problem kind from ``--problem``, the file extension or the first line (the
registry in :mod:`sudokit.problems`) and returns
:class:`Record` objects that remember their line and layout, so :func:`format_solution` can
answer in the same layout (the registry of layouts, :data:`STYLES`, is in
:mod:`sudokit.formats.styles`).

Examples
--------
>>> recs = parse_instances("4.....8.5.3..........7......2.....6.....8.4......1......."
...                        "6.3.7.5..2.....1.4......\\n", "top.txt")
>>> recs[0].instance.n, recs[0].instance.box, recs[0].style
(9, (3, 3), 'line')
"""

from __future__ import annotations

from ..errors import ParseError
from ..problems import problem_kind, resolve, sniff_kind
from .col import format_col, format_coloring, parse_col
from .dimacs import format_dimacs, parse_dimacs, write_dimacs
from .dlx import format_cover, format_dlx, parse_dlx
from .pls import format_pls, parse_pls
from .puzzle_grids import LAYOUTS
from .puzzle_text import OnBad, format_puzzle, parse_puzzles
from .record import Record
from .solutions import parse_solutions
from .styles import STYLES, OutputStyle, output_style
from .textio import read_text

__all__ = ["Record", "STYLES", "OutputStyle", "output_style", "read_text", "parse_puzzles",
           "format_puzzle", "parse_pls", "format_pls", "parse_col", "format_col", "format_coloring",
           "parse_instances", "read_instances", "format_solution", "format_instance",
           "format_no_solution", "parse_dlx", "format_dlx", "format_cover", "parse_solutions",
           "format_dimacs", "parse_dimacs", "write_dimacs", "OnBad", "LAYOUTS"]


def parse_instances(text: str, source: str = "<string>", problem: str = "sudoku",
                    box: tuple[int, int] | None = None, colors: int | None = None,
                    on_bad: OnBad | None = None, layout: str = "auto") -> list[Record]:
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
    layout : {"auto", "grid", "line"}
        How puzzle text is cut into puzzles (:func:`parse_puzzles`): by its own marks, as
        grids, or one puzzle per line. Other kinds have one layout and ignore it.

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
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    if not text.strip():
        raise ParseError("empty input, no instance found", source)
    options = {"layout": layout} if kind.family == "grid" else {}
    return resolve(kind.parser)(text, source, box, colors, on_bad=on_bad, **options)


def read_instances(path: str, problem: str | None = None, box: tuple[int, int] | None = None,
                   colors: int | None = None, on_bad: OnBad | None = None,
                   layout: str = "auto") -> list[Record]:
    """Read a file (``"-"`` for stdin) and parse its instances.

    The kind is ``problem`` if given, else the one the extension or the first significant
    line names (:func:`sudokit.problems.sniff_kind`), else Sudoku. ``on_bad`` and ``layout``
    are as in :func:`parse_instances`.

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
                           on_bad=on_bad, layout=layout)


def format_no_solution(record: Record, status: str) -> str:
    """The line for an instance whose status is ``"unsat"`` or ``"unknown"`` (its style's
    :meth:`~sudokit.formats.styles.OutputStyle.no_solution`: SAT-competition lines for DIMACS).

    Examples
    --------
    >>> format_no_solution(parse_instances("1" + "." * 15)[0], "unsat")
    'no solution'
    """
    return output_style(record.style).no_solution(status)


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
    return output_style(record.style).solution_text(record, solution)


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
    return output_style(style).instance_text(instance)
