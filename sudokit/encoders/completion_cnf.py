"""CNF encodings of completion problems (Sudoku, Latin squares, precoloring extension).

One encoder serves every problem, because every problem is a list of all-different units over
cells that take one of ``k`` values (Takano et al., section 2.1). Variable ``x(cell, v)`` means
"cell holds value v". With the standard numbering ``x(cell, v) = cell * k + v`` (cells 0-based
row-major, ``v`` 1-based), a grid gets ``var(r, c, v) = (r-1)*n*n + (c-1)*n + v`` with
``r, c, v`` 1-based, which any tool can decode.

Encodings (Lynce and Ouaknine, "Sudoku as a SAT Problem", AIMATH 2006; Kwon and Jain,
"Optimized CNF Encoding for Sudoku Puzzles", LPAR 2006):

=========  ====================================================================================
minimal    cell definedness (each cell has a value) + unit uniqueness (no value twice in a unit)
efficient  minimal + cell uniqueness (each cell has at most one value)
extended   efficient + unit definedness (each value somewhere in each full unit)
reduced    extended restricted to the candidates left by the givens (Kwon and Jain): variables
           for given cells and for values a peer already holds are dropped, with every clause
           they settle; variables are renumbered and the map is written as comments
direct     precoloring extension: definedness + uniqueness per vertex + one conflict clause per
           edge and color (the "direct encoding" of graph coloring)
=========  ====================================================================================

Examples
--------
>>> from sudokit.instances import sudoku
>>> enc = grid_to_cnf(sudoku(np.zeros((9, 9), dtype=int)), "minimal")
>>> enc.cnf.num_vars, enc.cnf.num_clauses           # 81 + 3*81*36 (Lynce & Ouaknine)
(729, 8829)
>>> grid_to_cnf(sudoku(np.zeros((9, 9), dtype=int)), "extended").cnf.num_clauses
11988
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cnf import CNF, ProjectionLines
from ..errors import DecodeError, EncodingError, ResourceError
from ..instances.formula import CNFFormula, formula
from ..instances.jigsaw import format_region_map
from ..problems import kinds_where, problem_kind, user_instance
from ..protocols import Composable, full_model
from ..refs import closest
from ..resources import available_memory, check_fits, format_bytes
from .amo import at_most_one
from .coloring_symmetry import ColorSymmetry, color_symmetry
from .size import completion_cnf_size

__all__ = ["CNFEncoding", "ENCODINGS", "grid_to_cnf",
           "coloring_to_cnf", "completion_to_cnf", "candidate_mask"]


@dataclass(frozen=True, eq=False)
class CNFEncoding(Composable):
    """A completion problem encoded as CNF: a :class:`~sudokit.protocols.CNFReduction`.

    Attributes
    ----------
    source : GridPuzzle or Precoloring
    cnf : CNF
    encoding, amo : str
        Encoding and at-most-one method used.
    cell_vars : numpy.ndarray
        ``(num_cells, num_values)`` variable ids, 0 where the encoding has no variable (cells
        and values settled by the givens in the ``reduced`` encoding).
    parsimonious : bool
        True if target models and source solutions correspond one to one on the projection.
    symmetry : ColorSymmetry, optional
        Graphs with symmetry breaking: the clique whose colors are fixed and the order of the
        other free vertices (:mod:`~sudokit.encoders.coloring_symmetry`).
    """

    source: Any
    cnf: CNF
    encoding: str
    amo: str
    cell_vars: np.ndarray
    parsimonious: bool = True
    symmetry: ColorSymmetry | None = None

    @property
    def name(self) -> str:
        """The reduction this encoding is: ``sudoku2sat``, ``latin2sat`` or ``coloring2sat``."""
        return f"{self.source.kind}2sat"

    @property
    def target(self) -> CNFFormula:
        """The CNF as a formula instance, projected on the cell variables."""
        return formula(self.cnf, self.projection())

    def projection(self) -> np.ndarray:
        """Variables that define a solution (all cell-value variables, no auxiliaries)."""
        return self.cell_vars[self.cell_vars > 0]

    def given_literals(self) -> list[int]:
        """The givens as positive literals (for solving with givens as assumptions)."""
        givens = self.source.flat_givens
        cells = np.flatnonzero(givens)
        lits = self.cell_vars[cells, givens[cells] - 1]
        return lits[lits > 0].tolist()

    def decode(self, model) -> np.ndarray:
        """Map a model (signed literals; missing variables are false) to a solution array."""
        true_vars = np.zeros(self.cnf.num_vars + 1, dtype=bool)
        lits = np.asarray(model, dtype=np.int64)
        true_vars[lits[(lits > 0) & (lits <= self.cnf.num_vars)]] = True  # ignore guard vars
        truth = true_vars[self.cell_vars] & (self.cell_vars > 0)
        counts = truth.sum(axis=1)
        free = self.cell_vars.any(axis=1)
        givens = self.source.flat_givens
        bad = np.flatnonzero(free & (counts != 1))
        if bad.size:
            cell = bad[0]
            raise DecodeError(f"model gives {self.source.cell_name(cell)} "
                              f"{counts[cell]} values instead of 1")
        values = np.where(free, truth.argmax(axis=1) + 1, givens)
        return values.astype(np.int32).reshape(self.source.solution_shape)

    def encode(self, solution) -> np.ndarray:
        """A full model of the CNF from a source solution (auxiliary variables false).

        Only for encodings without auxiliary variables (``pairwise``), as in round trips.
        """
        return full_model(self.solution_literals(solution), self.cnf.num_vars)

    def blocking_clause(self, model) -> list[int]:
        """Not this solution: the negated true cell literals.

        Every encoding gives each cell exactly one value, so two solutions differ in a cell
        where the first one's literal is false in the second; negating the true literals is
        the projected blocking clause, much shorter than negating every projected literal.
        """
        model = np.asarray(model, dtype=np.int64)
        projection = self.projection()
        return (-projection[model[projection - 1] > 0]).tolist()

    def solution_literals(self, solution) -> list[int]:
        """The projection literals of a source solution (for round-trip tests)."""
        flat = np.asarray(solution).reshape(-1)
        truth = np.zeros(self.cell_vars.shape, dtype=bool)
        truth[np.arange(flat.size), flat - 1] = True
        signs = np.where(truth, 1, -1)[self.cell_vars > 0]
        return (signs * self.projection()).tolist()

    def explain(self) -> str:
        text = (f"{self.name}: the {self.encoding} encoding: {self.cnf.num_vars} variables "
                f"(variable (cell-1)*{self.source.num_values} + value says 'cell holds value') "
                f"and {self.cnf.num_clauses} clauses; the projection is the cell variables.")
        if self.symmetry is not None:
            text += (f" Symmetry breaking: {self.symmetry.describe()}; the other free vertices "
                     "take free colors by first use. Satisfiable exactly when the instance "
                     "is, but models are not counted one to one.")
        return text


# -- building blocks ---------------------------------------------------------------------------

def candidate_mask(problem) -> np.ndarray:
    """``(num_cells, num_values)`` mask of values still possible for each empty cell.

    A value is out for a cell if the cell is given or a unit through the cell holds that value
    as a given (one step of naked-single elimination, as in Kwon and Jain).
    """
    cells, k = problem.num_cells, problem.num_values
    givens = problem.flat_givens
    units = problem.units()
    present = np.zeros((len(units), k + 1), dtype=bool)
    present[np.repeat(np.arange(len(units)), units.shape[1]), givens[units].reshape(-1)] = True
    blocked = np.zeros((cells, k + 1), dtype=np.int32)
    np.add.at(blocked, units.reshape(-1), np.repeat(present, units.shape[1], axis=0))
    mask = blocked[:, 1:] == 0
    mask[givens > 0] = False
    return mask


def _ragged_groups(ids: np.ndarray):
    """Yield ``(width, rows)`` buckets of the nonzero entries of each row of ``ids``."""
    present = ids > 0
    widths = present.sum(axis=1)
    for width in np.unique(widths):
        rows = ids[widths == width]
        yield int(width), rows[present[widths == width]].reshape(len(rows), width)


def _alo(cnf: CNF, ids: np.ndarray, group: str) -> None:
    for width, rows in _ragged_groups(ids):
        cnf.add_block(group, rows if width else np.zeros((len(rows), 0), dtype=np.int32))


def _amo(cnf: CNF, ids: np.ndarray, group: str, method: str) -> None:
    for _width, rows in _ragged_groups(ids):
        at_most_one(cnf, rows, group, method)


@dataclass
class _Context:
    problem: Any
    cnf: CNF
    ids: np.ndarray          # (cells, k) var ids, 0 = none
    settled: np.ndarray      # (cells,) True for cells fixed outside the variables
    amo: str
    reduced: bool
    clique: Any = None                   # graphs: the clique to fix (None: search one)
    symmetry: ColorSymmetry | None = None  # set by _symmetry_breaking


def _cell_definedness(ctx: _Context) -> None:
    _alo(ctx.cnf, ctx.ids[~ctx.settled], "cell definedness")


def _cell_uniqueness(ctx: _Context) -> None:
    _amo(ctx.cnf, ctx.ids[~ctx.settled], "cell uniqueness", ctx.amo)


def _unit_value_ids(ctx: _Context, units: np.ndarray) -> np.ndarray:
    """``(units * k, width)``: for each unit and value the variables of that value in the unit."""
    return ctx.ids[units].transpose(0, 2, 1).reshape(-1, units.shape[1])


def _unit_uniqueness(ctx: _Context) -> None:
    for kind, units in ctx.problem.unit_groups():
        group = "conflict" if kind == "edge" else f"{kind} uniqueness"
        _amo(ctx.cnf, _unit_value_ids(ctx, units), group, ctx.amo)


def _unit_definedness(ctx: _Context) -> None:
    k = ctx.problem.num_values
    givens = ctx.problem.flat_givens
    for kind, units in ctx.problem.unit_groups():
        if units.shape[1] != k:
            continue  # only a unit with exactly k cells must show every value
        ids = _unit_value_ids(ctx, units)
        held = np.zeros((len(units), k + 1), dtype=bool)
        held[np.repeat(np.arange(len(units)), k), givens[units].reshape(-1)] = True
        # reduced: a value a given already shows in the unit needs no clause
        needed = ~held[:, 1:].reshape(-1) if ctx.reduced else np.ones(len(ids), dtype=bool)
        _alo(ctx.cnf, ids[needed], f"{kind} definedness")


def _givens(ctx: _Context) -> None:
    givens = ctx.problem.flat_givens
    cells = np.flatnonzero(givens)
    lits = ctx.ids[cells, givens[cells] - 1]
    ctx.cnf.add_block("givens", lits[lits > 0].reshape(-1, 1))


def _symmetry_breaking(ctx: _Context) -> None:
    """Free colors (used by no precolor) are interchangeable: fix a large clique's colors and
    order the other free vertices by first use (see :mod:`.coloring_symmetry`, which proves
    that satisfiability is kept; solutions are no longer counted one to one)."""
    ctx.symmetry = color_symmetry(ctx.problem, ctx.clique)
    for group, (vertices, colors) in ctx.symmetry.excluded().items():
        lits = ctx.ids[vertices, colors - 1]
        ctx.cnf.add_block(group, -lits[lits > 0].reshape(-1, 1))


@dataclass(frozen=True)
class Encoding:
    """A named encoding: its constraint families, whether it drops settled variables, its source."""

    name: str
    families: tuple[Callable[[_Context], None], ...]
    reduced: bool
    problems: tuple[str, ...]
    source: str


_MINIMAL = (_cell_definedness, _unit_uniqueness)
_EFFICIENT = (_cell_definedness, _cell_uniqueness, _unit_uniqueness)
_EXTENDED = _EFFICIENT + (_unit_definedness,)
_GRIDS = kinds_where(family="grid")
_GRAPHS = kinds_where(family="graph")

ENCODINGS: dict[str, Encoding] = {e.name: e for e in (
    Encoding("minimal", _MINIMAL, False, _GRIDS, "Lynce and Ouaknine 2006"),
    Encoding("efficient", _EFFICIENT, False, _GRIDS, "Lynce and Ouaknine 2006"),
    Encoding("extended", _EXTENDED, False, _GRIDS, "Lynce and Ouaknine 2006"),
    Encoding("reduced", _EXTENDED, True, _GRIDS + _GRAPHS, "Kwon and Jain 2006"),
    Encoding("direct", _EFFICIENT, False, _GRAPHS, "direct encoding of graph coloring"),
)}

def completion_to_cnf(problem, encoding: str | None = None, amo: str = "pairwise",
                      include_givens: bool = True, symmetry_breaking: bool = False,
                      max_bytes: int | None = None, clique=None) -> CNFEncoding:
    """Encode any completion problem (see the module table for ``encoding``).

    Parameters
    ----------
    include_givens : bool
        Add the givens as unit clauses. False leaves them out (the batch solver passes them as
        assumptions instead); ignored by ``reduced``, which has no variables for givens.
    symmetry_breaking : bool
        Precoloring only: fix a large clique's colors and order the other free colors by
        first use (makes the encoding non-parsimonious; see :mod:`.coloring_symmetry`).
    max_bytes : int, optional
        Refuse (:class:`~sudokit.errors.ResourceError`) a formula whose estimated size,
        built and loaded into a solver, exceeds this (default: the available memory).
    clique : array_like, optional
        With ``symmetry_breaking``: the 0-based vertices of the clique to fix (default: one
        found by :func:`~sudokit.graphs.large_clique`).
    """
    problem = user_instance(problem, ("grid", "graph"), "completion_to_cnf")
    name = encoding or problem_kind(problem).cnf_encoding or ""
    spec = ENCODINGS.get(name)
    if spec is None:
        raise EncodingError(f"unknown encoding {name!r}; {closest(name, ENCODINGS)}choose one "
                            "of " + ", ".join(ENCODINGS))
    if problem.kind not in spec.problems:
        usable = [e.name for e in ENCODINGS.values() if problem.kind in e.problems]
        raise EncodingError(f"encoding {name!r} does not apply to {problem.kind}; "
                            f"choose one of {', '.join(usable)}")
    _check_size(problem, name, amo, max_bytes)
    cells, k = problem.num_cells, problem.num_values
    cnf = CNF()
    if spec.reduced:
        mask = candidate_mask(problem)
        ids = np.zeros((cells, k), dtype=np.int32)
        ids[mask] = cnf.new_vars(int(mask.sum()), "cell values") + np.arange(int(mask.sum()))
        settled = problem.flat_givens > 0
    else:
        ids = cnf.new_block("cell values", (cells, k)).ids
        settled = np.zeros(cells, dtype=bool)
    ctx = _Context(problem, cnf, ids, settled, amo, spec.reduced, clique)
    families = spec.families
    if include_givens and not spec.reduced:
        families = families + (_givens,)
    graph = problem_kind(problem).family == "graph"
    use_symmetry = symmetry_breaking and graph
    if use_symmetry:
        families = families + (_symmetry_breaking,)
    for family in families:
        family(ctx)
    cnf.comments.extend(_header(problem, spec, amo, ids, ctx.symmetry))
    if spec.reduced:
        side = 0 if graph else problem.n
        cnf.deferred_comments.append(_MapLines(ids, problem.flat_givens, side))
    projection = ids[ids > 0]
    if cnf.num_vars > len(projection):  # auxiliary variables: declare what to count
        cnf.deferred_comments.append(ProjectionLines(np.sort(projection)))
    return CNFEncoding(problem, cnf, name, amo, ids, parsimonious=not use_symmetry,
                       symmetry=ctx.symmetry)


def _check_size(problem, encoding: str, amo: str, max_bytes: int | None) -> None:
    """Refuse a formula that cannot fit, naming the linear-size at-most-one if that fits."""
    size = completion_cnf_size(problem, encoding, amo)
    allowed = available_memory() if max_bytes is None else max_bytes
    if size.bytes <= allowed:
        return
    what = f"the {encoding} encoding of this {_shape(problem)} (at-most-one {amo})"
    smaller = completion_cnf_size(problem, encoding, "seqcounter")
    if amo != "seqcounter" and smaller.bytes <= allowed:
        hint = f"about {format_bytes(smaller.bytes)}"
        try:
            check_fits(size, what, allowed, f"the seqcounter at-most-one needs {hint}")
        except ResourceError as err:
            raise err.with_cli(str(err).replace(f"the seqcounter at-most-one needs {hint}",
                                                f"--amo seqcounter needs {hint}")) from None
    check_fits(size, what, allowed, "a smaller instance (or more memory) is needed")


def _shape(problem) -> str:
    if problem_kind(problem).family == "graph":
        return f"graph ({problem.num_vertices} vertices, {problem.num_colors} colors)"
    return f"{problem.n}x{problem.n} {problem.kind}"


def _header(problem, spec: Encoding, amo: str, ids: np.ndarray,
            symmetry: ColorSymmetry | None) -> list[str]:
    if problem_kind(problem).family == "graph":
        lines = [f"precoloring extension: {problem.num_vertices} vertices, "
                 f"{len(problem.edges)} edges, {problem.num_colors} colors"]
        standard = "var(v, c) = (v-1)*K + c  (vertex v, color c, 1-based; K colors)"
        mapping = "c map VAR VERTEX COLOR"
        given = "c given VERTEX COLOR"
    else:
        box = f", boxes {problem.box[0]}x{problem.box[1]}" if problem.box else ""
        lines = [f"{problem.kind} {problem.n}x{problem.n}{box}", *_variant_lines(problem)]
        standard = "var(r, c, v) = (r-1)*N*N + (c-1)*N + v  (1-based; N = side)"
        mapping = "c map VAR ROW COLUMN VALUE"
        given = "c given ROW COLUMN VALUE"
    lines.append(f"encoding {spec.name} ({spec.source}), at-most-one {amo}")
    if symmetry is not None:
        lines.append("symmetry breaking: free colors ordered by first use; satisfiable exactly "
                     "when the instance is, but models are NOT counted one to one")
        lines.extend(_wrapped(f"symmetry breaking: {symmetry.describe()}"))
    if not spec.reduced:
        return lines + [standard]
    return lines + [f"variables renumbered; one line per variable: {mapping}",
                    f"givens have no variables; one line per given: {given}"]


def _variant_lines(problem) -> list[str]:
    """``variant: NAMES`` and, for a jigsaw, ``regions: MAP``: the puzzle file's own header
    lines, so a model of the formula decodes and is checked with the file alone."""
    lines = []
    if problem.variants:
        lines.append("variant: " + " ".join(problem.variants))
    if problem.regions is not None:
        lines.append("regions: " + format_region_map(problem.regions))
    return lines


def _wrapped(text: str, width: int = 100) -> list[str]:
    """``text`` in lines of about ``width`` characters, broken at spaces (a long clique)."""
    lines, current = [], ""
    for word in text.split(" "):
        if current and len(current) + len(word) + 1 > width:
            lines.append(current)
            current = "  " + word
        else:
            current = f"{current} {word}" if current else word
    return lines + [current]


@dataclass(frozen=True, eq=False)
class _MapLines:
    """The comment lines that make a renumbered encoding's file self-contained, made when the
    formula is written: ``given ROW COLUMN VALUE`` per given, then ``map VAR ROW COLUMN VALUE``
    per variable (graphs: ``given VERTEX COLOR`` and ``map VAR VERTEX COLOR``; ``side`` 0)."""

    ids: np.ndarray
    givens: np.ndarray
    side: int

    def _places(self, cell: np.ndarray) -> list[np.ndarray]:
        if self.side:
            return [cell // self.side + 1, cell % self.side + 1]
        return [cell + 1]

    def __call__(self) -> list[str]:
        given = np.flatnonzero(self.givens)
        fields = np.stack([*self._places(given), self.givens[given]], axis=1)
        lines = ["given " + " ".join(map(str, row)) for row in fields.tolist()]
        cell, value = np.nonzero(self.ids)
        var = self.ids[cell, value]
        fields = np.stack([var, *self._places(cell), value + 1], axis=1)
        return lines + ["map " + " ".join(map(str, row)) for row in fields.tolist()]


def grid_to_cnf(puzzle, encoding: str | None = None, amo: str = "pairwise",
                include_givens: bool = True, max_bytes: int | None = None) -> CNFEncoding:
    """Encode a Sudoku or Latin square completion (see :func:`completion_to_cnf`); ``puzzle``
    may be text or an array (:func:`~sudokit.interop.convert.as_problem`).

    Examples
    --------
    >>> grid_to_cnf("1234" + "." * 12, "reduced").cnf.num_vars
    32
    """
    puzzle = user_instance(puzzle, ("grid",), "grid_to_cnf")
    return completion_to_cnf(puzzle, encoding, amo, include_givens, max_bytes=max_bytes)


def coloring_to_cnf(problem, encoding: str | None = None, amo: str = "pairwise",
                    include_givens: bool = True, symmetry_breaking: bool = False,
                    max_bytes: int | None = None, clique=None) -> CNFEncoding:
    """Encode a precoloring extension instance (the direct encoding by default).

    ``symmetry_breaking=True`` fixes the colors of a large clique (``clique``, or one found)
    and orders the other free colors: satisfiability is kept but solutions are no longer
    counted one to one (the result says ``parsimonious=False``).

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> k4 = precoloring(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], 3)
    >>> encoded = coloring_to_cnf(k4, symmetry_breaking=True)
    >>> encoded.symmetry.fixed.tolist()              # three vertices fix the three colors
    [[0, 1], [1, 2], [2, 3]]
    >>> encoded.cnf.stats()["clique colors"]["clauses"]
    3
    """
    problem = user_instance(problem, ("graph",), "coloring_to_cnf")
    return completion_to_cnf(problem, encoding, amo, include_givens, symmetry_breaking,
                             max_bytes, clique)
