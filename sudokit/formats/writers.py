"""The writers of the output styles, with the signatures the styles registry names.

Each style of :mod:`sudokit.formats.styles` names two functions here: ``(instance, style) ->
str`` writes an instance, ``(record, solution) -> str`` a solution of a record's instance (both
without a final newline). They hand the work to the format modules (:mod:`.puzzle_write`,
:mod:`.pls`, :mod:`.col`, :mod:`.dimacs`, :mod:`.dlx`).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.formats.record import Record
>>> square = latin_square(np.array([[1, 0], [0, 0]]))
>>> write_puzzle_text(square, "ints-line")
'1 0 0 0'
>>> puzzle_text_solution(Record(square, 1, "line"), [[1, 2], [2, 1]])
'1221'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..instances.grid import GridPuzzle
from .col import format_col, format_coloring
from .dimacs import format_dimacs
from .dlx import format_cover, format_dlx
from .pls import format_pls
from .puzzle_write import format_puzzle

__all__ = ["write_puzzle_text", "write_pls", "write_col", "write_formula", "write_dlx",
           "puzzle_text_solution", "pls_solution", "coloring_solution", "model_solution",
           "cover_solution"]


# -- instances ------------------------------------------------------------------------------

def write_puzzle_text(instance: Any, style: str) -> str:
    """A grid puzzle as puzzle text of ``style`` (``line``, ``grid`` ...); a ValueError for
    anything but a grid.

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> write_puzzle_text(precoloring(2, [[0, 1]], 2), "line")
    Traceback (most recent call last):
    ...
    ValueError: style 'line' is for grid puzzles, not Precoloring
    """
    if not isinstance(instance, GridPuzzle):
        raise ValueError(f"style {style!r} is for grid puzzles, not {type(instance).__name__}")
    return format_puzzle(instance, style)


def write_pls(instance: Any, style: str = "pls") -> str:
    """A Latin square as ``.pls`` text.

    Examples
    --------
    >>> from sudokit.instances import latin_square
    >>> print(write_pls(latin_square(np.array([[0, 2], [0, 0]]))))
    order 2
      -1   1
      -1  -1
    """
    return format_pls(instance)


def write_col(instance: Any, style: str = "col") -> str:
    """A precoloring as a DIMACS ``.col`` graph.

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> print(write_col(precoloring(2, [[0, 1]], 2)))
    p edge 2 1
    c colors 2
    e 1 2
    """
    return format_col(instance)


def write_formula(instance: Any, style: str = "dimacs") -> str:
    """A formula as DIMACS CNF, after a ``c p show ... 0`` line when it projects on fewer
    variables than it has.

    Examples
    --------
    >>> from sudokit.formats import parse_instances
    >>> print(write_formula(parse_instances("p cnf 2 1\\n1 -2 0\\n", problem="cnf")[0].instance))
    p cnf 2 1
    1 -2 0
    """
    text = format_dimacs(instance.cnf)
    if len(instance.projection) != instance.cnf.num_vars:
        shown = " ".join(map(str, instance.projection.tolist()))
        text = f"c p show {shown} 0\n" + text
    return text.rstrip("\n")


def write_dlx(instance: Any, style: str = "dlx") -> str:
    """An exact cover problem as Knuth's text.

    Examples
    --------
    >>> from sudokit.exact_cover import exact_cover
    >>> print(write_dlx(exact_cover([["a"], ["b"]], primary=["a", "b"])))
    a b
    a
    b
    """
    return format_dlx(instance).rstrip("\n")


# -- solutions ------------------------------------------------------------------------------

def puzzle_text_solution(record: Any, solution: Any) -> str:
    """A solution grid in the record's puzzle-text style, with its instance's box."""
    return format_puzzle(np.asarray(solution), record.style, record.instance.box)


def pls_solution(record: Any, solution: Any) -> str:
    """A solution grid as ``.pls`` text.

    Examples
    --------
    >>> print(pls_solution(None, [[1, 2], [2, 1]]))
    order 2
       0   1
       1   0
    """
    return format_pls(np.asarray(solution))


def coloring_solution(record: Any, solution: Any) -> str:
    """A coloring as one line of colors in vertex order.

    Examples
    --------
    >>> coloring_solution(None, np.array([1, 2, 1]))
    '1 2 1'
    """
    return format_coloring(solution)


def model_solution(record: Any, solution: Any) -> str:
    """A model as SAT-competition ``s`` and ``v`` lines.

    Examples
    --------
    >>> print(model_solution(None, [1, -2]))
    s SATISFIABLE
    v 1 -2 0
    """
    return "s SATISFIABLE\nv " + " ".join(map(str, np.asarray(solution).tolist())) + " 0"


def cover_solution(record: Any, solution: Any) -> str:
    """A cover as its chosen options, one per line (``solution``: their indices)."""
    return format_cover(record.instance, solution)
