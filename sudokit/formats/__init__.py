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

from typing import Any

import numpy as np

from ..errors import InstanceError, ParseError, described, expect_text
from ..problems import problem_kind, resolve, sniff_kind, user_instance
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
           "format_no_solution", "solution_values", "parse_dlx", "format_dlx", "format_cover",
           "parse_solutions",
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
    expect_text(text, "parse_instances")
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


def _record(record_or_problem: Any) -> Record:
    """A record as it is; anything else a user holds as a problem, in its kind's own style."""
    if isinstance(record_or_problem, Record):
        return record_or_problem
    problem = user_instance(record_or_problem)
    return Record(problem, 1, problem_kind(problem).default_style)


def format_no_solution(record: Any, status: str) -> str:
    """The line for an instance whose status is ``"unsat"`` or ``"unknown"`` (its style's
    :meth:`~sudokit.formats.styles.OutputStyle.no_solution`: SAT-competition lines for DIMACS).
    ``record`` may also be anything :func:`format_solution` takes.

    Examples
    --------
    >>> format_no_solution(parse_instances("1" + "." * 15)[0], "unsat")
    'no solution'
    >>> format_no_solution("p cnf 1 2\\n1 0\\n-1 0\\n", "unsat")
    's UNSATISFIABLE'
    """
    if status not in ("unsat", "unknown"):
        raise InstanceError(f"the status of an instance without a solution is 'unsat' or "
                            f"'unknown', not {status!r}")
    return output_style(_record(record).style).no_solution(status)


def format_solution(record: Any, solution: Any) -> str:
    """Write a solution in the layout its instance came in (no final newline).

    Parameters
    ----------
    record : Record or problem
        A parsed instance (:func:`read_instances`), or anything
        :func:`~sudokit.interop.convert.as_problem` takes: an instance, puzzle text, an
        array, an encoding (its source instance) ..., written in its kind's default style.
    solution : array_like or None
        ``(n, n)`` values for a grid (or ``n*n`` in a row), colors in vertex order for a
        graph, a model's literals for a formula, the chosen options' indices for an exact
        cover; None (no solution) writes :func:`format_no_solution`'s ``unsat`` line.

    Raises
    ------
    InstanceError
        A solution of the wrong size or type for the instance.

    Examples
    --------
    >>> rec = parse_instances("1 . | . .\\n. . | . .\\n----+----\\n. . | . .\\n. . | . .\\n")[0]
    >>> print(format_solution(rec, [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]))
    1 2 | 3 4
    3 4 | 1 2
    ----+----
    2 1 | 4 3
    4 3 | 2 1
    >>> format_solution("1" + "." * 15, [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
    '1234341221434321'
    >>> format_solution("p cnf 2 1\\n1 2 0\\n", None)
    's UNSATISFIABLE'
    """
    record = _record(record)
    if solution is None:
        return format_no_solution(record, "unsat")
    values = solution_values(record.instance, solution)
    return output_style(record.style).solution_text(record, values)


def solution_values(instance: Any, solution: Any) -> Any:
    """``solution`` as the integer array a writer of ``instance``'s kind takes: ``(n, n)``
    for a grid, one color per vertex, one literal per entry of a model, one option index
    per chosen option.

    Raises
    ------
    InstanceError
        A solution of the wrong type or size.

    Examples
    --------
    >>> from sudokit.instances import latin_square
    >>> solution_values(latin_square([[0, 0], [0, 0]]), [1, 2, 2, 1]).tolist()
    [[1, 2], [2, 1]]
    >>> solution_values(latin_square([[0, 0], [0, 0]]), [1, 2, 2])
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: a solution of a 2x2 grid has 4 values, got 3
    """
    if isinstance(solution, (str, bytes, dict, set, float, bool)):
        raise InstanceError(f"a solution is an array of integers, not {described(solution)}")
    try:
        values = np.asarray(solution)
    except (ValueError, TypeError) as err:
        raise InstanceError(f"a solution is an array of integers; {err}") from None
    if values.dtype == bool or not np.issubdtype(values.dtype, np.integer):
        raise InstanceError(f"a solution is an array of integers, not {values.dtype} values "
                            f"({described(solution)})")
    family = problem_kind(instance).family
    if family == "grid":
        n = instance.n
        if values.size != n * n:
            raise InstanceError(f"a solution of a {n}x{n} grid has {n * n} values, "
                                f"got {values.size}")
        return values.reshape(n, n)
    values = values.reshape(-1) if values.ndim <= 1 else values
    if values.ndim != 1:
        raise InstanceError(f"a solution of a {problem_kind(instance).noun} is one row of "
                            f"integers, got shape {values.shape}")
    if family == "graph" and values.size != instance.num_vertices:
        raise InstanceError(f"a coloring of {instance.num_vertices} vertices has "
                            f"{instance.num_vertices} colors, got {values.size}")
    if family == "cover" and values.size and (values.min() < 0
                                              or values.max() >= instance.num_options):
        raise InstanceError(f"a cover lists option indices 0..{instance.num_options - 1}")
    return values


def format_instance(record_or_instance: Any, style: str | None = None) -> str:
    """Write an instance (or a :class:`Record`'s instance, or anything
    :func:`~sudokit.interop.convert.as_problem` takes) as text, no final newline.

    ``style`` defaults to the record's own style, else ``"col"`` for a graph and ``"line"``
    for a grid.

    Examples
    --------
    >>> rec = parse_instances("order 2\\n0 -1\\n-1 -1\\n", problem="latin")[0]
    >>> format_instance(rec, "line")
    '1...'
    >>> print(format_instance("12..\\n..12\\n....\\n....", "pls"))
    order 4
       0   1  -1  -1
      -1  -1   0   1
      -1  -1  -1  -1
      -1  -1  -1  -1
    """
    record = _record(record_or_instance)
    return output_style(style or record.style).instance_text(record.instance)
