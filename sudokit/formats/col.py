"""DIMACS graph (``.col``) files, with precolors carried in comment lines.

The format is ``c`` comments, one ``p edge V E`` line (``p col V E`` is accepted too) and
``e u v`` lines with 1-based vertices. Edges may repeat in either direction and the ``E`` of the
``p`` line is not trusted. A ``s K`` line (found in some of Trick's files) is ignored.

Precoloring extension rides on two comment forms, so other DIMACS tools still read the file:
``c colors K`` (the number of colors) and ``c precolor V C`` (vertex ``V`` has color ``C``,
both 1-based).

Examples
--------
>>> rec = parse_col("p edge 3 2\\nc colors 2\\nc precolor 1 2\\ne 1 2\\ne 2 3\\n")
>>> g = rec.instance
>>> g.num_vertices, g.num_colors, g.edges.tolist(), g.precolors.tolist()
(3, 2, [[0, 1], [1, 2]], [2, 0, 0])
>>> print(format_col(g))
p edge 3 2
c colors 2
c precolor 1 2
e 1 2
e 2 3
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import InstanceError, ParseError
from ..instances.precoloring import Precoloring, precoloring
from .record import Record

__all__ = ["parse_col", "parse_coloring_records", "format_col", "format_coloring"]

_TOKEN = re.compile(r"\S+")
_INT = re.compile(r"[+-]?[0-9]+")
#: the most vertices a graph may declare: each takes memory, edges or not (4 bytes and more)
MAX_VERTICES = 2**27
#: colors are stored as int32
MAX_COLORS = 2**31 - 1


def _ints(matches, source: str, number: int) -> list[int]:
    values = []
    for m in matches:
        token = m.group()
        if not _INT.fullmatch(token):
            raise ParseError(f"{token!r} is not an integer", source, number, m.start() + 1)
        values.append(int(token))
    return values


def _at_most(value: int, limit: int, what: str, source: str, number: int, m) -> int:
    if value > limit:
        raise ParseError(f"{what} {value} is too large (at most {limit})", source, number,
                         m.start() + 1)
    return value


def parse_col(text: str, source: str = "<string>", colors: int | None = None) -> Record:
    """Parse a DIMACS graph with optional ``c colors`` / ``c precolor`` lines.

    Parameters
    ----------
    text : str
        The file contents.
    source : str
        Name used in error messages.
    colors : int, optional
        Number of colors (the user's ``--colors``); overrides a ``c colors K`` line.

    Returns
    -------
    Record
        A :class:`~sudokit.instances.Precoloring` with style ``"col"``.

    Raises
    ------
    ParseError
        No ``p`` line, an ``e`` line before it, a malformed or unknown line, a vertex or color
        out of range, a token that is not an integer, or an unknown number of colors.
    InstanceError
        Adjacent vertices precolored alike, prefixed with ``source:``.

    Examples
    --------
    >>> parse_col("p edge 2 1\\ne 1 3\\n", "g.col", colors=2)
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: g.col:2:5: vertex 3 is outside 1..2
    """
    lines = _ColLines(source)
    edge = lines.edge           # the lines of a large file: bound once
    seen_content = False
    for number, line in enumerate(text.split("\n"), start=1):
        matches = list(_TOKEN.finditer(line))
        if not matches:
            continue
        head = matches[0].group()
        if head == "c":
            lines.comment(matches, number)
            continue
        seen_content = True
        if head == "e":
            edge(matches, number)
        elif head == "p":
            lines.problem(matches, number)
        elif head != "s":   # "s K": the chromatic number, in some original DIMACS files
            raise ParseError(f"unknown line type {head!r} (expected c, p or e)", source,
                             number, 1)
    if not seen_content:
        raise ParseError("empty input, no instance found", source)
    if lines.p_line is None:
        raise ParseError("no 'p edge VERTICES EDGES' line", source)
    k = colors if colors is not None else lines.colors
    if k is None:
        raise ParseError("number of colors unknown; give the number of colors or add a "
                         "'c colors K' line", source).with_cli(
            "number of colors unknown; pass --colors K or add a 'c colors K' line")
    try:
        graph = precoloring(lines.num_vertices,
                            np.array(lines.edges, dtype=np.int64).reshape(-1, 2), k,
                            lines.fixed(k))
    except InstanceError as err:
        raise InstanceError(f"{source}: {err}") from err
    return Record(graph, lines.p_line, "col")


@dataclass
class _ColLines:
    """What the lines of a ``.col`` file read so far say (see :func:`parse_col`)."""

    source: str
    num_vertices: int = 0                    # set by the 'p' line, which p_line records
    p_line: int | None = None
    colors: int | None = None                # a 'c colors K' line's
    edges: list[tuple[int, int]] = field(default_factory=list)
    #: vertex -> (color, line, column) of its 'c precolor' line
    precolors: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    def comment(self, matches: list, number: int) -> None:
        """A ``c`` line: ``c colors K``, ``c precolor V C``, or a comment."""
        key = matches[1].group() if len(matches) > 1 else ""
        if key == "colors":
            if len(matches) != 3:
                raise ParseError("expected 'c colors K'", self.source, number, 1)
            (colors,) = _ints(matches[2:], self.source, number)
            if colors < 1:
                raise ParseError(f"number of colors must be positive, got {colors}",
                                 self.source, number, matches[2].start() + 1)
            self.colors = _at_most(colors, MAX_COLORS, "number of colors", self.source,
                                   number, matches[2])
        elif key == "precolor":
            if len(matches) != 4:
                raise ParseError("expected 'c precolor VERTEX COLOR'", self.source, number, 1)
            vertex, color = _ints(matches[2:], self.source, number)
            _at_most(color, MAX_COLORS, "color", self.source, number, matches[3])
            if vertex in self.precolors and self.precolors[vertex][0] != color:
                raise ParseError(f"vertex {vertex} is precolored twice "
                                 f"({self.precolors[vertex][0]} and {color})", self.source,
                                 number)
            self.precolors[vertex] = (color, number, matches[2].start() + 1)

    def problem(self, matches: list, number: int) -> None:
        """The ``p edge V E`` line (``E`` is not trusted)."""
        if self.p_line is not None:
            raise ParseError(f"second 'p' line (the first is line {self.p_line})", self.source,
                             number, 1)
        # a fifth field (the best known coloring, in some DIMACS copies) is ignored
        if len(matches) not in (4, 5) or matches[1].group() not in ("edge", "col"):
            raise ParseError("expected 'p edge VERTICES EDGES'", self.source, number, 1)
        num_vertices, *_ = _ints(matches[2:], self.source, number)
        if num_vertices < 0:
            raise ParseError("the number of vertices must be non-negative", self.source,
                             number, matches[2].start() + 1)
        self.num_vertices = _at_most(num_vertices, MAX_VERTICES, "number of vertices",
                                     self.source, number, matches[2])
        self.p_line = number

    def edge(self, matches: list, number: int) -> None:
        """An ``e U V`` line (1-based vertices)."""
        if self.p_line is None:
            raise ParseError("'e' line before the 'p edge' line", self.source, number, 1)
        if len(matches) != 3:
            raise ParseError("expected 'e VERTEX VERTEX'", self.source, number, 1)
        ends = _ints(matches[1:], self.source, number)
        for value, m in zip(ends, matches[1:], strict=True):
            if not 1 <= value <= self.num_vertices:
                raise ParseError(f"vertex {value} is outside 1..{self.num_vertices}",
                                 self.source, number, m.start() + 1)
        if ends[0] == ends[1]:
            raise ParseError(f"edge {ends[0]}-{ends[1]} is a loop: no coloring can be "
                             "proper", self.source, number, 1)
        self.edges.append((ends[0] - 1, ends[1] - 1))

    def fixed(self, k: int) -> dict[int, int]:
        """The precolors, 0-based vertex -> color, each checked against the graph and ``k``
        colors."""
        fixed = {}
        for vertex, (color, number, column) in self.precolors.items():
            if not 1 <= vertex <= self.num_vertices:
                raise ParseError(f"precolored vertex {vertex} is outside "
                                 f"1..{self.num_vertices}", self.source, number, column)
            if not 1 <= color <= k:
                raise ParseError(f"precolor {color} of vertex {vertex} is outside 1..{k}",
                                 self.source, number)
            fixed[vertex - 1] = color
        return fixed


def format_col(graph: Precoloring) -> str:
    """Write a precoloring instance as a DIMACS graph with ``c colors``/``c precolor`` lines.

    No final newline. See the module example for the layout.

    Examples
    --------
    >>> print(format_col(precoloring(2, [(0, 1)], 2)))
    p edge 2 1
    c colors 2
    e 1 2
    """
    lines = [f"p edge {graph.num_vertices} {len(graph.edges)}", f"c colors {graph.num_colors}"]
    lines += [f"c precolor {v + 1} {c}" for v, c in enumerate(graph.precolors.tolist()) if c]
    lines += [f"e {u} {v}" for u, v in (graph.edges + 1).tolist()]
    return "\n".join(lines)


def format_coloring(colors) -> str:
    """One line of colors in vertex order: how a coloring solution is printed.

    Examples
    --------
    >>> format_coloring(np.array([2, 1, 3]))
    '2 1 3'
    """
    return " ".join(map(str, np.asarray(colors).reshape(-1).tolist()))


def parse_coloring_records(text: str, source: str, box=None, colors=None,
                           on_bad=None) -> list[Record]:
    """The ``coloring`` kind's parser: one DIMACS graph (``colors`` as ``--colors``); a file
    holds one instance, so there is nothing to skip (``on_bad`` is not used)."""
    return [parse_col(text, source, colors)]
