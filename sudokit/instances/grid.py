"""Grid completion problems: Sudoku (rows, columns, boxes) and Latin squares (no boxes).

Both are the same model underneath (Takano et al., section 2.1): color the ``n*n`` cells with
values ``1..n`` so that every *unit* (a row, a column, a box) is all-different, extending the
given values. A grid exposes its units as an integer array of flat cell indices
(``row * n + column``, 0-based); encoders work on units only, so a variant with other regions is
a new unit list, not a new encoder.

Positions in messages are 1-based ("row 1, column 4"; boxes numbered row-major from 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..displayed import SVGDisplay
from ..errors import InstanceError, described
from ..problems import resolve
from .jigsaw import check_regions
from .solution import Solution
from .variants import VARIANTS, parse_variants, variant_units

__all__ = ["GridPuzzle", "sudoku", "latin_square", "default_box", "parse_box"]


def parse_box(text: str) -> tuple[int, int]:
    """Parse a box shape ``RxC`` (R rows, C columns per box).

    Examples
    --------
    >>> parse_box("2x3")
    (2, 3)
    """
    parts = text.lower().replace("*", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InstanceError(f"box shape {text!r} is not of the form RxC, e.g. 3x3 or 2x3")
    rows, cols = (int(p) for p in parts)
    if rows < 1 or cols < 1:
        raise InstanceError(f"box shape {text!r} needs positive sides")
    return rows, cols


def default_box(n: int, latin_hint: str = "--problem latin") -> tuple[int, int]:
    """The box shape of an ``n x n`` Sudoku when none is given: square boxes.

    Raises :class:`InstanceError` naming the two box shapes when ``n`` is not a perfect
    square, since then ``RxC`` and ``CxR`` are equally plausible; its command-line message
    names ``latin_hint`` as the way to take the grid as a Latin square.

    Examples
    --------
    >>> default_box(9)
    (3, 3)
    >>> default_box(6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: a 6x6 Sudoku has no square boxes; give the box shape (2, 3) ...
    """
    root = math.isqrt(n)
    if root * root == n:
        return root, root
    shapes = [(r, n // r) for r in range(2, n) if n % r == 0]
    if not shapes:
        raise InstanceError(f"a {n}x{n} grid has no box shape (n is prime); read it as a "
                            f"Latin square or give the box shape (1, {n})").with_cli(
            f"a {n}x{n} grid has no box shape (n is prime); pass {latin_hint} or --box 1x{n}")
    r, c = min(shapes, key=lambda s: abs(s[0] - s[1]))
    raise InstanceError(f"a {n}x{n} Sudoku has no square boxes; give the box shape ({r}, {c}) "
                        f"or ({c}, {r}) (or read it as a Latin square)").with_cli(
        f"a {n}x{n} Sudoku has no square boxes; pass --box {r}x{c} or --box {c}x{r} "
        f"(or {latin_hint})")


@dataclass(frozen=True, eq=False)
class GridPuzzle(SVGDisplay):
    """A partial ``n x n`` grid with optional ``r x c`` boxes.

    In Jupyter a puzzle draws itself (``_repr_svg_``, :mod:`sudokit.draw.display`); ``str()``
    is the grid as the text writers write it, with the ``# variant:`` and ``regions:`` lines a
    variant needs, and reads back with :func:`sudokit.formats.parse_puzzles`.

    Parameters
    ----------
    givens : numpy.ndarray
        ``(n, n)`` integers, 0 for an empty cell, else ``1..n``.
    box : tuple of int or None
        ``(rows, cols)`` of a box for Sudoku; None for a Latin square.
    variants : tuple of str
        Variants whose units are added (:mod:`~sudokit.instances.variants`: ``diagonal``,
        ``windoku``, ``dg``, ``jigsaw``); empty for the classic puzzle.
    regions : numpy.ndarray, optional
        A jigsaw's ``(n, n)`` region map (:mod:`~sudokit.instances.jigsaw`): its regions take
        the boxes' place (``box`` is then None) and ``jigsaw`` joins the variants.

    Examples
    --------
    >>> p = sudoku(np.zeros((4, 4), dtype=int))
    >>> p.n, p.box, p.units().shape
    (4, (2, 2), (12, 4))
    >>> p.unit_name(8)
    'box 1'
    >>> print(sudoku(np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])))
    1 . | . .
    . . | 1 .
    ----+----
    . 1 | . .
    . . | . 1
    """

    _svg = "grid_svg"

    givens: np.ndarray
    box: tuple[int, int] | None = None
    _units: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[arg-type]
    variants: tuple[str, ...] = ()
    regions: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self):
        variants = parse_variants(self.variants)
        givens = np.asarray(self.givens)
        if givens.ndim != 2 or givens.shape[0] != givens.shape[1] or givens.shape[0] == 0:
            raise InstanceError(f"a grid must be square and non-empty, got shape {givens.shape}")
        object.__setattr__(self, "givens", givens.astype(np.int32))
        n = givens.shape[0]
        if self.regions is not None:
            if self.box is not None:
                raise InstanceError("a jigsaw's regions take the place of the boxes; give "
                                    "no box shape").with_cli(
                    "a jigsaw's regions take the place of the boxes; drop --box")
            object.__setattr__(self, "regions", check_regions(self.regions, n))
            variants = parse_variants(variants + ("jigsaw",))
        object.__setattr__(self, "variants", variants)
        if self.box is not None:
            rows, cols = self.box
            if rows * cols != n:
                raise InstanceError(f"box {rows}x{cols} does not tile a {n}x{n} grid "
                                    f"({rows}*{cols} != {n})")
        object.__setattr__(self, "_units", self._build_units())
        self.validate()

    @classmethod
    def unchecked(cls, givens, box: tuple[int, int] | None = None,
                  variants: tuple[str, ...] = (), regions=None) -> GridPuzzle:
        """A grid whose values are *not* validated: a candidate solution on its way to a check.

        Examples
        --------
        >>> bad = GridPuzzle.unchecked(np.array([[1, 1], [2, 2]]))
        >>> latin_square(np.zeros((2, 2), dtype=int)).violations(bad.givens)
        ['value 1 repeats in row 1 (row 1, column 1 and row 1, column 2)']
        """
        grid = cls.__new__(cls)
        values = np.asarray(givens).astype(np.int32)
        if box is not None and (values.ndim != 2 or values.shape[0] % box[0]
                                or values.shape[1] % box[1]):
            box = None  # boxes of another size: the check against the puzzle says so
        object.__setattr__(grid, "givens", values)
        object.__setattr__(grid, "box", box)
        if regions is not None and np.shape(regions) != values.shape:
            regions = None   # a grid of another size: the check against the puzzle says so
        variants = tuple(name for name in variants
                         if (box is not None or not VARIANTS[name].needs_box)
                         and (regions is not None or not VARIANTS[name].needs_regions))
        object.__setattr__(grid, "variants", variants)
        object.__setattr__(grid, "regions", regions)
        object.__setattr__(grid, "_units", grid._build_units())
        return grid

    @classmethod
    def trusted_batch(cls, template: GridPuzzle, givens) -> list[GridPuzzle]:
        """Puzzles of ``template``'s shape, boxes, variants and regions, one per ``(n, n)``
        array of ``givens``, sharing ``template``'s units table and *not* checked again: for
        givens checked already (when they were read, say, before they travelled to a worker
        process). The givens become one read-only ``int32`` array the puzzles are views of.

        Examples
        --------
        >>> template = sudoku(np.zeros((4, 4), dtype=int))
        >>> batch = GridPuzzle.trusted_batch(template, np.ones((3, 4, 4), dtype=int))
        >>> len(batch), batch[2].box, batch[2].units() is template.units()
        (3, (2, 2), True)
        >>> batch[0].is_solution(batch[0].givens)      # never checked: all ones
        False
        """
        values = np.ascontiguousarray(givens, dtype=np.int32)
        values.flags.writeable = False
        return _sharing_units(values, template.box, template.variants, template.regions,
                              template.units())

    # -- shape -----------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Side of the grid (also the number of values)."""
        return self.givens.shape[0]

    @property
    def kind(self) -> str:
        """``"sudoku"`` (boxes, or a jigsaw's regions) or ``"latin"``."""
        return "latin" if self.box is None and self.regions is None else "sudoku"

    @property
    def num_cells(self) -> int:
        return self.n * self.n

    @property
    def num_values(self) -> int:
        return self.n

    @property
    def flat_givens(self) -> np.ndarray:
        """Givens as a flat array indexed by cell ``row * n + column``."""
        return self.givens.reshape(-1)

    @property
    def num_givens(self) -> int:
        return int(np.count_nonzero(self.givens))

    @property
    def regions_key(self) -> bytes | None:
        """The jigsaw region map as bytes (a hashable part of the shape), None without one."""
        return None if self.regions is None else self.regions.astype(np.int16).tobytes()

    def _build_units(self) -> np.ndarray:
        return _grid_units(self.n, self.box, self.variants, self.regions_key)

    def units(self) -> np.ndarray:
        """All-different units, shape ``(num_units, n)``: rows, then columns, then boxes, then
        each variant's units (a jigsaw's regions first, in the boxes' place)."""
        return self._units

    def _group_sizes(self) -> list[tuple[str, int]]:
        n = self.n
        sizes = [("row", n), ("column", n)] + ([("box", n)] if self.box is not None else [])
        for name in self.variants:
            sizes.append((VARIANTS[name].unit_kind,
                          len(variant_units(name, n, self.box, self.regions))))
        return sizes

    def unit_groups(self) -> list[tuple[str, np.ndarray]]:
        """Units by kind: ``[("row", ...), ("column", ...), ("box", ...)]`` (boxes for Sudoku),
        then one group per variant (``"region"``, ``"diagonal"``, ``"window"``,
        ``"position"``)."""
        groups, start = [], 0
        for kind, size in self._group_sizes():
            groups.append((kind, self._units[start:start + size]))
            start += size
        return groups

    @property
    def solution_shape(self) -> tuple[int, int]:
        return (self.n, self.n)

    def unit_name(self, index: int) -> str:
        """Human name of unit ``index`` of :meth:`units` (``"row 1"``, ``"box 2"``)."""
        if index < 3 * self.n and not self.variants:
            kind = ("row", "column", "box")[index // self.n]
            return f"{kind} {index % self.n + 1}"
        for kind, size in self._group_sizes():
            if index < size:
                return f"{kind} {index + 1}"
            index -= size
        raise IndexError(f"no unit {index}")

    def cell_name(self, cell: int) -> str:
        """Human name of a flat cell index (``"row 1, column 4"``)."""
        row, col = divmod(int(cell), self.n)
        return f"row {row + 1}, column {col + 1}"

    # -- checks ----------------------------------------------------------------------------
    def validate(self) -> None:
        """Raise :class:`InstanceError` naming the first bad or repeated given."""
        flat = self.flat_givens
        bad = np.flatnonzero((flat < 0) | (flat > self.n))
        if bad.size:
            cell = bad[0]
            raise InstanceError(f"given {flat[cell]} at {self.cell_name(cell)} is outside "
                                f"1..{self.n}")
        clash = _first_repeat(flat, self._units)
        if clash is not None:
            unit, first, second = clash
            raise InstanceError(f"given {flat[second]} at {self.cell_name(second)} repeats in "
                                f"{self.unit_name(unit)} (also at {self.cell_name(first)})")

    def violations(self, solution) -> list[str]:
        """Why ``solution`` is not a completion of this puzzle (empty list if it is).

        Examples
        --------
        >>> p = latin_square(np.array([[1, 0], [0, 0]]))
        >>> p.violations(np.array([[1, 2], [2, 1]]))
        []
        >>> for problem in p.violations(np.array([[2, 1], [1, 1]])):
        ...     print(problem)
        given 1 at row 1, column 1 was changed to 2
        value 1 repeats in row 2 (row 2, column 1 and row 2, column 2)
        """
        grid = np.asarray(solution)
        if grid.shape != self.givens.shape:
            return [f"solution is {grid.shape[0]}x{grid.shape[1] if grid.ndim > 1 else '?'}, "
                    f"puzzle is {self.n}x{self.n}"]
        flat = grid.reshape(-1)
        problems = []
        for cell in np.flatnonzero((flat < 1) | (flat > self.n))[:1]:
            problems.append(f"{self.cell_name(cell)} holds {flat[cell]}, not a value in "
                            f"1..{self.n}")
        given = self.flat_givens
        for cell in np.flatnonzero((given > 0) & (flat != given))[:1]:
            problems.append(f"given {given[cell]} at {self.cell_name(cell)} was changed to "
                            f"{flat[cell]}")
        clash = _first_repeat(np.where((flat >= 1) & (flat <= self.n), flat, 0), self._units)
        if clash is not None:
            unit, first, second = clash
            problems.append(f"value {flat[second]} repeats in {self.unit_name(unit)} "
                            f"({self.cell_name(first)} and {self.cell_name(second)})")
        return problems

    def is_solution(self, solution) -> bool:
        """True if ``solution`` fills every cell, keeps the givens and breaks no unit.

        Examples
        --------
        >>> latin_square(np.zeros((2, 2), dtype=int)).is_solution([[1, 2], [2, 1]])
        True
        """
        return not self.violations(solution)

    def with_givens(self, givens) -> GridPuzzle:
        """A puzzle of the same shape, boxes, regions and variants with other givens."""
        return GridPuzzle(np.asarray(givens), self.box, variants=self.variants,
                          regions=self.regions)

    def with_solution(self, values) -> Solution:
        """``values`` (a solved grid, e.g. what :func:`sudokit.solve` returns, or None) with
        this puzzle: drawn with the givens bold and the filled cells blue.

        Examples
        --------
        >>> p = latin_square(np.array([[1, 0], [0, 0]]))
        >>> p.with_solution(np.array([[1, 2], [2, 1]])).valid
        True
        """
        return Solution(self, values)

    def __str__(self) -> str:
        return resolve("sudokit.formats.puzzle_write:puzzle_text")(self)  # type: ignore

    def __eq__(self, other):
        return (isinstance(other, GridPuzzle) and self.box == other.box
                and self.variants == other.variants and self.regions_key == other.regions_key
                and np.array_equal(self.givens, other.givens))

    def __hash__(self):
        return hash((self.box, self.variants, self.regions_key, self.givens.tobytes()))


def grid_shape_key(puzzle: GridPuzzle) -> tuple:
    """Grids of one kind, side and box shape share one solver (the ``shape_key`` of the
    grid kinds in :mod:`sudokit.problems`); variants join the key only when there are
    some, so classic grids keep their three-part key; a jigsaw's key holds its region map."""
    variants = getattr(puzzle, "variants", ())
    regions = getattr(puzzle, "regions_key", None)
    return (puzzle.kind, puzzle.n, puzzle.box) + ((variants,) if variants else ()) + (
        (regions,) if regions is not None else ())


def shape_units(key: tuple) -> np.ndarray:
    """The units of the grids whose :func:`grid_shape_key` is ``key`` (shared, read-only).

    Examples
    --------
    >>> grid = sudoku(np.zeros((4, 4), dtype=int))
    >>> shape_units(grid_shape_key(grid)) is grid.units()
    True
    """
    _, n, box, *rest = key
    variants = next((part for part in rest if isinstance(part, tuple)), ())
    regions = next((part for part in rest if isinstance(part, bytes)), None)
    return _grid_units(n, box, variants, regions)


@lru_cache(maxsize=64)
def _grid_units(n: int, box: tuple[int, int] | None, variants: tuple[str, ...] = (),
                regions_key: bytes | None = None) -> np.ndarray:
    """Rows, columns, boxes and the variants' units of an ``n x n`` grid (shared,
    read-only, per shape; ``regions_key``: a jigsaw's map as ``int16`` bytes)."""
    regions = None if regions_key is None else \
        np.frombuffer(regions_key, dtype=np.int16).astype(np.int64).reshape(n, n)
    cells = np.arange(n * n, dtype=np.int64).reshape(n, n)
    parts = [cells, cells.T]
    if box is not None:
        r, c = box
        # (band, stack, row-in-box, col-in-box) -> boxes numbered row-major
        parts.append(cells.reshape(n // r, r, n // c, c).transpose(0, 2, 1, 3).reshape(n, n))
    parts += [variant_units(name, n, box, regions) for name in variants]
    units = np.concatenate(parts)
    units.flags.writeable = False
    return units


def _first_repeat(flat_values: np.ndarray, units: np.ndarray):
    """``(unit, first_cell, second_cell)`` of the first nonzero value repeated in a unit."""
    values = flat_values[units]
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    repeated = (ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] > 0)
    hits = np.argwhere(repeated)
    if hits.size == 0:
        return None
    unit, pos = hits[0]
    cells = units[unit][order[unit]]
    return int(unit), int(min(cells[pos], cells[pos + 1])), int(max(cells[pos], cells[pos + 1]))


def repeated_givens(rows: np.ndarray, units: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """Which rows of ``rows`` (``(N, cells)`` values, 0 empty, at most 63) repeat a value in
    some unit: all puzzles at once, a value as one bit (a unit's bits add up to their OR
    exactly when no value repeats).

    Examples
    --------
    >>> units = _grid_units(2, None)
    >>> repeated_givens(np.array([[1, 0, 0, 1], [1, 1, 0, 0]]), units).tolist()
    [False, True]
    """
    rows = np.asarray(rows)
    found = np.zeros(len(rows), dtype=bool)
    one = np.uint64(1)
    for start in range(0, len(rows), chunk):
        values = rows[start:start + chunk][:, units].astype(np.uint64)
        bits = np.where(values > 0, np.left_shift(one, values), np.uint64(0))
        found[start:start + chunk] = (bits.sum(axis=2) != np.bitwise_or.reduce(bits, axis=2)
                                      ).any(axis=1)
    return found


def repeated_in_lines(rows: np.ndarray, box: tuple[int, int] | None) -> np.ndarray:
    """Which rows of ``rows`` (``(N, n*n)`` values, 0 empty) repeat a value in a row, a
    column or (with ``box``) a box: :func:`repeated_givens` for the classic units, the
    fast check of files of one-line puzzles.

    A value becomes one bit; a unit repeats a value exactly when the sum of its bits differs
    from their OR. The units are views of the ``(N, n, n)`` grid (rows, its transpose, the
    boxes), added up one cell position at a time over all puzzles, so no ``(N, units,
    cells)`` table is gathered (about twice as fast on the 17-clue collection).

    Examples
    --------
    >>> repeated_in_lines(np.array([[1, 1, 0, 0], [1, 0, 0, 2], [1, 0, 1, 0]]), None).tolist()
    [True, False, True]
    >>> repeated_in_lines(np.array([[1, 0, 0, 1] + [0] * 12]), (2, 2)).tolist()
    [True]
    """
    rows = np.asarray(rows)
    n = math.isqrt(rows.shape[1])
    # the sum of n distinct bits, or of repeated ones, must not overflow
    kind = np.uint16 if n <= 12 else np.uint32 if n <= 26 else np.uint64
    bits = np.zeros(n + 1, dtype=kind)
    bits[1:] = np.left_shift(kind(1), np.arange(n, dtype=kind))
    found = np.zeros(len(rows), dtype=bool)
    step = 16384
    for start in range(0, len(rows), step):
        grid = bits[rows[start:start + step]].reshape(-1, n, n)
        groups = [grid, grid.transpose(0, 2, 1)]
        if box is not None:
            r, c = box
            groups.append(grid.reshape(-1, n // r, r, n // c, c).transpose(0, 1, 3, 2, 4)
                          .reshape(-1, n, n))
        bad = found[start:start + step]
        for units in groups:           # units[puzzle, unit, position]
            union = units[:, :, 0].copy()
            total = union.copy()
            for position in range(1, n):
                union |= units[:, :, position]
                total += units[:, :, position]
            bad |= (union != total).any(axis=1)
    return found


def grids_from_rows(rows: np.ndarray, box: tuple[int, int] | None,
                    variants: tuple[str, ...] = (), regions=None) -> list[GridPuzzle] | None:
    """Many puzzles of one shape from ``(N, n*n)`` values in ``0..n``, checked all at once;
    None when some puzzle repeats a given (build that one alone for its message).

    The puzzles share one read-only units table and view rows of one ``int32`` array, so a
    file of 49,158 puzzles is checked and built in a fraction of a second.

    Examples
    --------
    >>> [p.givens.tolist() for p in grids_from_rows(np.array([[1, 0, 0, 0]]), None)]
    [[[1, 0], [0, 0]]]
    """
    rows = np.ascontiguousarray(rows, dtype=np.int32)
    n = math.isqrt(rows.shape[1])
    if regions is not None:
        template = GridPuzzle(np.zeros((n, n), dtype=np.int32), None, variants=variants,
                              regions=regions)
        variants, regions = template.variants, template.regions
    variants = parse_variants(variants)
    units = _grid_units(n, box, variants, None if regions is None else
                        regions.astype(np.int16).tobytes())
    if n > 63:
        return [GridPuzzle(row.reshape(n, n), box, variants=variants, regions=regions)
                for row in rows]
    if repeated_givens(rows, units).any():
        return None
    grids = rows.reshape(len(rows), n, n)
    grids.flags.writeable = False
    return _sharing_units(grids, box, variants, regions, units)


def _sharing_units(grids: np.ndarray, box: tuple[int, int] | None, variants: tuple[str, ...],
                   regions: np.ndarray | None, units: np.ndarray) -> list[GridPuzzle]:
    """One puzzle per ``(n, n)`` array of ``grids`` (``int32``, checked by the caller), all
    sharing ``units``: built without :meth:`GridPuzzle.__post_init__` and its checks."""
    made = []
    for givens in grids:
        grid = GridPuzzle.__new__(GridPuzzle)
        object.__setattr__(grid, "givens", givens)
        object.__setattr__(grid, "box", box)
        object.__setattr__(grid, "variants", variants)
        object.__setattr__(grid, "regions", regions)
        object.__setattr__(grid, "_units", units)
        made.append(grid)
    return made


#: reads one puzzle's text (a line or a grid) as an instance of a kind: the puzzle-text
#: reader of the formats layer, above this one, named as a registry entry names code
_TEXT_GRID = "sudokit.interop.convert:grid_from_text"


def grid_values(givens) -> np.ndarray:
    """The ``(n, n)`` integer array of a grid given as an array, a list of rows, or a flat
    sequence of ``n*n`` values (0 for an empty cell).

    Raises
    ------
    InstanceError
        Anything else, saying what it got: a ragged list, values that are not integers,
        a flat length that is no square, no values at all.

    Examples
    --------
    >>> grid_values([1, 0, 0, 0]).tolist()
    [[1, 0], [0, 0]]
    >>> grid_values([[1, 2], [3]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: a grid's rows must all have the same length; got rows of ...
    """
    if givens is None or isinstance(givens, (bool, int, float, complex, dict, set, bytes)):
        raise InstanceError(f"a grid is an (n, n) array or a list of n rows of n values, "
                            f"not {described(givens)}")
    if not isinstance(givens, np.ndarray):
        if not hasattr(givens, "__iter__"):
            raise InstanceError(f"a grid is an (n, n) array or a list of n rows of n values, "
                                f"not {described(givens)}")
        lengths = [len(row) if isinstance(row, (list, tuple, np.ndarray)) else None
                   for row in givens]
        if any(length is not None for length in lengths) and len(set(lengths)) > 1:
            shown = ", ".join("a value" if length is None else str(length)
                              for length in lengths[:6])
            raise InstanceError("a grid's rows must all have the same length; got rows of "
                                f"lengths {shown}")
    try:
        values = np.asarray(givens)
    except (ValueError, TypeError) as err:
        raise InstanceError(f"cannot read {described(givens)} as a grid: {err}") from None
    if values.dtype == bool or not (np.issubdtype(values.dtype, np.integer)
                                    or np.issubdtype(values.dtype, np.floating)):
        raise InstanceError(f"a grid holds integers (0 for an empty cell), not "
                            f"{values.dtype} values")
    if np.issubdtype(values.dtype, np.floating):
        if not np.all(np.isfinite(values)) or not np.all(values == np.round(values)):
            raise InstanceError("a grid holds integers (0 for an empty cell); got values "
                                "with a fraction or not finite")
        values = values.astype(np.int64)
    if values.ndim == 1:
        side = math.isqrt(values.size)
        if side * side != values.size or side == 0:
            raise InstanceError(f"a flat grid has n*n values; {values.size} is no square")
        values = values.reshape(side, side)
    if values.ndim != 2 or values.shape[0] != values.shape[1] or values.size == 0:
        raise InstanceError(f"a grid must be square and non-empty, got shape {values.shape}")
    return values


def sudoku(givens, box: tuple[int, int] | None = None, variants=(), regions=None
           ) -> GridPuzzle:
    """A Sudoku puzzle; square boxes unless ``box`` is given; ``variants`` add their units
    (:mod:`~sudokit.instances.variants`); a region map ``regions`` makes it a jigsaw (no
    boxes).

    ``givens`` is an ``(n, n)`` array, a list of rows, ``n*n`` values in a row, or puzzle
    text as a file holds it (one line of ``n*n`` cells, ``.`` or ``0`` empty, ``A``... for
    10 up; or a grid of lines), read as ``sudokit solve`` reads it.

    Examples
    --------
    >>> sudoku(np.zeros((6, 6), dtype=int), box=(2, 3)).box
    (2, 3)
    >>> p = sudoku("1...............")
    >>> p.n, p.box, p.givens[0].tolist()
    (4, (2, 2), [1, 0, 0, 0])
    >>> sudoku("4.....")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: <string>:1: line has 6 cells; a puzzle needs a square number ...
    >>> x = sudoku(np.zeros((9, 9), dtype=int), variants=["x", "windoku"])
    >>> x.variants, [kind for kind, _ in x.unit_groups()], x.unit_name(28)
    (('diagonal', 'windoku'), ['row', 'column', 'box', 'diagonal', 'window'], 'diagonal 2')
    >>> jig = sudoku(np.zeros((4, 4), dtype=int), regions=[[0, 0, 0, 1], [2, 0, 1, 1],
    ...                                                    [2, 2, 3, 1], [2, 3, 3, 3]])
    >>> jig.kind, jig.box, jig.variants, jig.unit_name(8)
    ('sudoku', None, ('jigsaw',), 'region 1')
    """
    if isinstance(givens, str):
        text = resolve(_TEXT_GRID)(givens, "sudoku", box)
        givens, box = text.givens, text.box if regions is None else None
        regions = text.regions if regions is None else regions
        variants = (*text.variants, *parse_variants(variants))
    values = grid_values(givens)
    if box is None and regions is None:
        box = default_box(values.shape[0])
    return GridPuzzle(values, box, variants=parse_variants(variants), regions=regions)


def latin_square(givens, variants=()) -> GridPuzzle:
    """A partial Latin square (values ``1..n``, 0 for a hole); ``variants=["diagonal"]``
    for a diagonal Latin square. ``givens`` as for :func:`sudoku`: an array, rows, or text.

    Examples
    --------
    >>> latin_square("1....").n  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: <string>:1: line has 5 cells; a puzzle needs a square number ...
    >>> latin_square("1...2....").givens.tolist()
    [[1, 0, 0], [0, 2, 0], [0, 0, 0]]
    """
    if isinstance(givens, str):
        text = resolve(_TEXT_GRID)(givens, "latin", None)
        givens, variants = text.givens, (*text.variants, *parse_variants(variants))
    return GridPuzzle(grid_values(givens), None, variants=parse_variants(variants))
