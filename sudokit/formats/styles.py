"""The output styles: how an instance and its answers are written, one registry entry per style.

A :class:`~sudokit.formats.record.Record` remembers the style (layout) its instance was read in,
and ``solve`` answers in the same style: a one-line puzzle with a line, a grid with a grid, a
``.pls`` file with ``.pls``, a DIMACS formula with SAT-competition lines. Each style is one
:class:`OutputStyle`: its instance and solution writers, whether it numbers values from 0, the
lines that keep a stream of answers readable (a blank line between grids, after a cover), what
it writes for no solution. :mod:`sudokit.formats` and the command line read it here; nothing
else keeps a table of styles.

Entries name their writers as ``"module:attribute"`` strings (in
:mod:`sudokit.formats.writers`), loaded on first use, as :mod:`sudokit.problems` does: this
module imports no reader or writer, so any of them may read it without an import cycle.

Examples
--------
>>> list(STYLES)
['line', 'ints-line', 'grid', 'ints-grid', 'pls', 'col', 'dimacs', 'dlx']
>>> STYLES["pls"].zero_based, STYLES["grid"].between, STYLES["dimacs"].no_solution("unsat")
(True, '\\n', 's UNSATISFIABLE')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..problems import resolve

__all__ = ["OutputStyle", "STYLES", "output_style"]

_WRITERS = "sudokit.formats.writers:"


@dataclass(frozen=True)
class OutputStyle:
    """Everything sudokit needs to know to write instances and answers in one style.

    Attributes
    ----------
    name, description : str
    writer : str
        ``"module:attribute"`` of ``(instance, style) -> str``: the instance as text, no final
        newline (``style`` is this entry's name).
    solution_writer : str
        ``"module:attribute"`` of ``(record, solution) -> str``: a solution of the record's
        instance as text, no final newline.
    zero_based : bool
        Its files number values from 0 (``.pls``: symbols ``0..n-1``, a hole ``-1``); inside
        sudokit, and in every other style, values are ``1..n`` (0 empty).
    one_line : bool
        An instance is one line (``count`` labels each answer with the instance itself).
    headers : bool
        Puzzle text: ``# variant:`` and ``regions:`` lines may stand before an instance.
    between : str
        Written before an answer of this style that is not the first of the output (grids:
        a blank line, so that the output reads back as the input did).
    after_solution : str
        Written after each solution (exact cover: a blank line ends a cover, as in Knuth's
        programs); not after "no solution".
    unsat, unknown : str
        The line for an instance without a solution, and for one whose budget ran out.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> square = latin_square(np.array([[1, 0], [0, 0]]))
    >>> STYLES["pls"].instance_text(square)
    'order 2\\n   0  -1\\n  -1  -1'
    >>> STYLES["pls"].written(np.array([1, 2])).tolist()
    [0, 1]
    """

    name: str
    description: str
    writer: str
    solution_writer: str
    zero_based: bool = False
    one_line: bool = False
    headers: bool = False
    between: str = ""
    after_solution: str = ""
    unsat: str = "no solution"
    unknown: str = "unknown"

    def instance_text(self, instance: Any) -> str:
        """``instance`` written in this style (no final newline)."""
        return resolve(self.writer)(instance, self.name)  # type: ignore[no-any-return]

    def solution_text(self, record: Any, solution: Any) -> str:
        """A solution of ``record``'s instance written in this style (no final newline)."""
        return resolve(self.solution_writer)(record, solution)  # type: ignore[no-any-return]

    def no_solution(self, status: str) -> str:
        """The line for status ``"unsat"`` or ``"unknown"``."""
        return {"unsat": self.unsat, "unknown": self.unknown}[status]

    def written(self, value: Any) -> Any:
        """A value (an int or an array of them) as this style numbers it."""
        return value - 1 if self.zero_based else value


def _text(name: str, description: str, one_line: bool) -> OutputStyle:
    return OutputStyle(name, description, _WRITERS + "write_puzzle_text",
                       _WRITERS + "puzzle_text_solution", one_line=one_line, headers=True,
                       between="" if one_line else "\n")


STYLES: dict[str, OutputStyle] = {style.name: style for style in (
    _text("line", "one line per grid, a character per cell ('.' or 0 empty); integers "
                  "above 35x35", one_line=True),
    _text("ints-line", "one line per grid, integers separated by spaces (0 empty)",
          one_line=True),
    _text("grid", "a grid of rows, a character per cell (integers above 35x35), box "
                  "separators", one_line=False),
    _text("ints-grid", "a grid of rows of integers (0 empty)", one_line=False),
    OutputStyle("pls", ".pls partial Latin square: 'order n', then rows of symbols from 0 "
                       "(-1 a hole)", _WRITERS + "write_pls", _WRITERS + "pls_solution",
                zero_based=True),
    OutputStyle("col", "DIMACS .col graph; a coloring as one line of colors in vertex order",
                _WRITERS + "write_col", _WRITERS + "coloring_solution"),
    OutputStyle("dimacs", "DIMACS CNF; a model as SAT-competition 's' and 'v' lines",
                _WRITERS + "write_formula", _WRITERS + "model_solution",
                unsat="s UNSATISFIABLE", unknown="s UNKNOWN"),
    OutputStyle("dlx", "Knuth's exact cover text; a cover as its options, one per line",
                _WRITERS + "write_dlx", _WRITERS + "cover_solution", after_solution="\n"),
)}


def output_style(name: str) -> OutputStyle:
    """The entry of style ``name``.

    A name the registry does not know gets an entry of puzzle text under that name, whose
    writers refuse it (:class:`ValueError`), numbering values from 1 and writing no headers
    and no blank lines.

    Examples
    --------
    >>> output_style("grid").between, output_style("dlx").after_solution
    ('\\n', '\\n')
    >>> output_style("odd").zero_based, output_style("odd").no_solution("unknown")
    (False, 'unknown')
    """
    style = STYLES.get(name)
    if style is not None:
        return style
    return replace(STYLES["line"], name=name, description="not a style sudokit knows",
                   one_line=False, headers=False)
