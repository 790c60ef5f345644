"""Decoding a CNF file sudokit wrote, from the file alone.

``sudokit encode --cnf`` and ``sudokit reduce X2sat`` head their DIMACS output with what a
reader needs to turn a model back into a grid or a coloring:

- the instance line: ``c sudoku 16x16, boxes 4x4``, ``c latin 5x5`` or
  ``c precoloring extension: V vertices, E edges, K colors``;
- for a grid with variants, the puzzle file's own header lines: ``c variant: diagonal
  windoku`` and, for a jigsaw, ``c regions: AAAB...`` (the region map), so the decoded grid
  is checked against the variant's units;
- the encoding line: ``c encoding NAME (source), at-most-one AMO``;
- the variables: the standard numbering (``var(r, c, v) = (r-1)*N*N + (c-1)*N + v``; graphs
  ``(v-1)*K + c``), or, for the renumbered ``reduced`` encoding, one ``c map VAR ROW COLUMN
  VALUE`` line per variable (graphs ``c map VAR VERTEX COLOR``) and one ``c given ROW COLUMN
  VALUE`` line per given, whose cells have no variable.

:func:`encoding_from_cnf` rebuilds the :class:`~sudokit.protocols.CNFEncoding` from those lines,
so its ``decode`` maps a model of the file to the solution with the givens merged in. The
standard encodings state their givens as unit clauses, which a model satisfies, so those cells
decode from the model itself.

Examples
--------
>>> import numpy as np
>>> from sudokit.encoders import grid_to_cnf
>>> from sudokit.formats import format_dimacs, parse_dimacs
>>> from sudokit.instances import latin_square
>>> square = latin_square(np.array([[1, 0], [0, 0]]))
>>> written = parse_dimacs(format_dimacs(grid_to_cnf(square, "reduced").cnf))
>>> rebuilt = encoding_from_cnf(written)
>>> rebuilt.encoding, rebuilt.decode([1, 2, 3]).tolist()   # true literals only
('reduced', [[1, 2], [2, 1]])
"""

from __future__ import annotations

import re

import numpy as np

from ..cnf import CNF
from ..encoders.completion_cnf import CNFEncoding
from ..errors import InstanceError, ParseError
from ..instances.jigsaw import parse_region_map
from ..instances.variants import parse_variants
from ..problems import problem_kind

__all__ = ["encoding_from_cnf"]

_GRID = re.compile(r"(sudoku|latin) (\d+)x\2(?:, boxes (\d+)x(\d+))?$")
_GRAPH = re.compile(r"precoloring extension: (\d+) vertices, (\d+) edges, (\d+) colors$")
_ENCODING = re.compile(r"encoding (\S+) \(.*\), at-most-one (\S+)$")


def encoding_from_cnf(cnf: CNF, source: str = "<cnf>") -> CNFEncoding | None:
    """The encoding that wrote ``cnf`` (read from its comment lines; see the module), or
    None when the comments do not describe one.

    Raises
    ------
    ParseError
        The comments describe an encoding but their ``map``/``given`` lines do not fit it.
    """
    comments = [line.strip() for line in cnf.comments]
    instance = _instance_line(comments)
    spec = next(filter(None, map(_ENCODING.match, comments)), None)
    if instance is None or spec is None:
        return None
    kind, side, box, cells, values = instance
    maps = _fields(comments, "map", 4 if side else 3, source)
    givens_listed = _fields(comments, "given", 3 if side else 2, source)
    renumbered = any(line.startswith("variables renumbered") for line in comments)
    if renumbered:
        cell_vars = np.zeros((cells, values), dtype=np.int64)
        cell = _cells(maps[:, 1:-1], side, cells, source, "map")
        value = _values(maps[:, -1], values, source, "map")
        if ((maps[:, 0] < 1) | (maps[:, 0] > cnf.num_vars)).any():
            raise ParseError(f"a 'c map' line names a variable outside 1..{cnf.num_vars}",
                             source)
        cell_vars[cell, value - 1] = maps[:, 0]
    else:
        if cells * values > cnf.num_vars:
            raise ParseError(f"the header describes {cells * values} cell variables but the "
                             f"formula has {cnf.num_vars}", source)
        cell_vars = np.arange(1, cells * values + 1, dtype=np.int64).reshape(cells, values)
    givens = np.zeros(cells, dtype=np.int32)
    if len(givens_listed):
        cell = _cells(givens_listed[:, :-1], side, cells, source, "given")
        givens[cell] = _values(givens_listed[:, -1], values, source, "given")
        if cell_vars[cell].any():
            raise ParseError("a 'c given' line names a cell that also has variables", source)
    free = cell_vars.any(axis=1)
    # A free cell with no candidate left has no variable either; the encoder then writes the
    # empty clause, so only a satisfiable-looking file must account for every cell.
    if renumbered and not cnf.has_empty_clause and not (free | (givens > 0)).all():
        first = int(np.flatnonzero(~(free | (givens > 0)))[0])
        raise ParseError(f"cell {first + 1} has neither 'c map' nor 'c given' lines", source)
    problem = _problem(kind, side, box, values, givens, *_variants(comments, side, source))
    symmetry = any(line.startswith("symmetry breaking") for line in comments)
    return CNFEncoding(problem, cnf, spec.group(1), spec.group(2), cell_vars,
                       parsimonious=not symmetry)


def _instance_line(comments: list[str]):
    """``(kind, side, box, cells, values)`` from the first line naming the instance."""
    for line in comments:
        grid = _GRID.match(line)
        if grid:
            side = int(grid.group(2))
            box = (int(grid.group(3)), int(grid.group(4))) if grid.group(3) else None
            return grid.group(1), side, box, side * side, side
        graph = _GRAPH.match(line)
        if graph:
            return "coloring", 0, None, int(graph.group(1)), int(graph.group(3))
    return None


def _fields(comments: list[str], word: str, width: int, source: str) -> np.ndarray:
    rows = [line.split()[1:] for line in comments if line.split()[:1] == [word]]
    try:
        table = np.array(rows, dtype=np.int64).reshape(len(rows), width)
    except (ValueError, OverflowError):
        raise ParseError(f"a 'c {word}' line does not hold {width} integers", source) from None
    return table


def _cells(places: np.ndarray, side: int, cells: int, source: str, word: str) -> np.ndarray:
    if side:
        rows, columns = places[:, 0], places[:, 1]
        if ((rows < 1) | (rows > side) | (columns < 1) | (columns > side)).any():
            raise ParseError(f"a 'c {word}' line names a cell outside the {side}x{side} grid",
                             source)
        return (rows - 1) * side + columns - 1
    vertices = places[:, 0]
    if ((vertices < 1) | (vertices > cells)).any():
        raise ParseError(f"a 'c {word}' line names a vertex outside 1..{cells}", source)
    return vertices - 1


def _values(column: np.ndarray, values: int, source: str, word: str) -> np.ndarray:
    if ((column < 1) | (column > values)).any():
        raise ParseError(f"a 'c {word}' line names a value outside 1..{values}", source)
    return column


def _variants(comments: list[str], side: int, source: str
              ) -> tuple[tuple[str, ...], np.ndarray | None]:
    """The variants and region map of the ``variant:`` and ``regions:`` lines (none: a
    classic grid)."""
    names = [line.partition(":")[2] for line in comments if line.startswith("variant:")]
    maps = [line.partition(":")[2] for line in comments if line.startswith("regions:")]
    if not side or not (names or maps):
        return (), None
    try:
        variants = parse_variants(names)
        regions = parse_region_map(maps[0], side) if maps else None
    except InstanceError as err:
        raise ParseError(f"the header's {'region map' if maps else 'variant'}: {err}",
                         source) from None
    if ("jigsaw" in variants) != (regions is not None):
        raise ParseError("a 'c regions:' line goes with 'c variant: jigsaw', one without "
                         "the other cannot be decoded", source)
    return variants, regions


def _problem(kind: str, side: int, box, values: int, givens: np.ndarray, variants=(),
             regions=None):
    from ..instances import latin_square, precoloring, sudoku

    spec = problem_kind(kind)
    if spec.family == "graph":  # the edges are in the clauses; the decoded coloring needs none
        return precoloring(len(givens), np.zeros((0, 2), dtype=np.int64), values,
                           {int(v): int(c) for v, c in enumerate(givens) if c})
    grid = givens.reshape(side, side)
    if "box" in spec.options:  # a Sudoku (boxes, or a jigsaw's regions)
        return sudoku(grid, box, variants=variants, regions=regions)
    return latin_square(grid, variants=variants)
