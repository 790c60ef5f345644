"""Difficulty grading by propagation strength (Simonis, "Sudoku as a constraint problem", 2005).

A puzzle is *search free* under a propagation scheme when propagating its all-different units
to the scheme's fixpoint fixes every cell. Its grade is the weakest scheme of the lattice
(:data:`~sudokit.grading.lattice.ORDER`) under which it is search free, or ``"search"``; the
node count of a fixed labelling (:func:`label_nodes`) breaks ties within a grade.

Schemes: FC, FCI (FC with channeling: hidden singles), BC, BCI (bounds reasoning as in
ECLiPSe, with BC on the dual model too), HAC (Regin), HAC plus the
redundant constraints S ("same"), C (colored matrix), 3 (line x box matchings) and their
combinations, and the shaving schemes FCV, BCV, HACV. Every scheme works on any grid the
:class:`~sudokit.instances.GridPuzzle` model holds (any ``n <= 64``, any box shape, Latin
squares without boxes); S and 3 need boxes and do nothing without them.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> easy = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
...                      "8..67.82....26.95..8..2.3..9..5.1.3..")
>>> hard = parse_puzzles("48.3............71.2.......7.5....6....2..8..."
...                      "..........1.76...3.....4......5....")
>>> grade(easy[0].instance)
'FC'
>>> search_free(hard[0].instance, ["FCI", "HAC", "HACV"])
{'FCI': False, 'HAC': False, 'HACV': True}
>>> grade(hard[0].instance), label_nodes(hard[0].instance)
('BCV', 5)
>>> status, domains = propagate(hard[0].instance, "HAC")
>>> status, domains.shape
('open', (9, 9))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..errors import InstanceError
from ..instances.grid import grid_shape_key
from .domains import grid_tables, initial_domains
from .lattice import (
    DEFAULT_NODES_SCHEME,
    ORDER,
    PAPER_17_CLUE,
    PAPER_TOP100,
    SCHEMES,
    STRONGER,
    TABLE_SCHEMES,
    is_weaker,
    parse_schemes,
    scheme_flags,
)
from .marks import PencilMarks
from .runs import NODES_UNKNOWN, Grades, grade_rows, label_run, stacked, status_rows
from .shaving import SUSPENDED, propagate_scheme

__all__ = ["grade", "grade_table", "Grades", "search_free", "search_free_table", "label_nodes",
           "propagate", "candidates", "pencil_marks", "PencilMarks", "SCHEMES", "ORDER",
           "STRONGER", "TABLE_SCHEMES",
           "PAPER_17_CLUE", "PAPER_TOP100", "DEFAULT_NODES_SCHEME", "is_weaker",
           "parse_schemes", "scheme_flags"]

_STATUS = {-1: "failed", 0: "open", 1: "solved"}


def _grid(puzzle):
    if not hasattr(puzzle, "units") or not hasattr(puzzle, "givens"):
        raise InstanceError("grading needs a grid puzzle (Sudoku or Latin square), "
                            f"got {type(puzzle).__name__}")
    return grid_tables(puzzle)


def propagate(puzzle, scheme: str = "HAC") -> tuple[str, np.ndarray]:
    """Propagate ``puzzle`` to the fixpoint of ``scheme``.

    Returns
    -------
    status : str
        ``"solved"`` (every cell fixed), ``"open"`` or ``"failed"`` (a domain wiped out:
        the puzzle has no solution).
    domains : numpy.ndarray
        ``(n, n)`` int64 bitmasks; bit ``v - 1`` set when value ``v`` is still possible.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> status, dom = propagate(latin_square(np.array([[1, 0], [0, 0]])), "FC")
    >>> status, dom.tolist()
    ('solved', [[1, 2], [2, 1]])
    """
    tables = _grid(puzzle)
    dom = initial_domains(puzzle)
    result = propagate_scheme(dom, scheme_flags(scheme), *tables.kernel_args(), tables.n,
                              tables.full)
    return _STATUS[int(result)], dom.reshape(tables.n, tables.n)


def pencil_marks(puzzle, scheme: str = "HAC") -> PencilMarks:
    """The candidates of every cell after propagating ``scheme``: :func:`propagate` as a
    :class:`PencilMarks`, which Jupyter draws as a grid with pencil marks.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> marks = pencil_marks(sudoku(np.array([[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
    ...                                       [0, 0, 0, 0]])), "FC")
    >>> marks.status, marks.candidates()[0], marks.num_candidates
    ('open', [[1], [2], [3, 4], [3, 4]], 46)
    """
    status, domains = propagate(puzzle, scheme)
    return PencilMarks(puzzle, scheme, status, domains)


def candidates(domains: np.ndarray) -> list:
    """Bitmask domains -> nested lists of the possible values of each cell.

    Examples
    --------
    >>> import numpy as np
    >>> candidates(np.array([[0b101, 0b010]]))
    [[[1, 3], [2]]]
    """
    dom = np.asarray(domains)
    n = int(dom.shape[-1])
    return [[[v + 1 for v in range(64) if (int(d) >> v) & 1] for d in row] for row in
            dom.reshape(-1, n).tolist()]


def grade_table(puzzles: Sequence, schemes: Iterable[str] | None = None, *,
                nodes: bool = False, seconds: float | None = None, progress=None,
                chunk: int = 256, shave_passes: int | None = None,
                limit: int = 10_000_000) -> Grades:
    """Grade many puzzles: which schemes solve each search free and, with ``nodes``, the
    node count of each (:func:`label_nodes` with its default scheme and ``limit``).

    The kernels run a slice of work at a time (:mod:`~sudokit.grading.runs`), so Ctrl-C
    stops them within a slice. ``seconds`` limits each puzzle (its schemes and node count
    together): past it the schemes not yet decided and the node count are unknown
    (:attr:`Grades.decided`, :attr:`Grades.unknown`) and the next puzzle starts.
    ``progress``, ``chunk`` and ``shave_passes`` as in :func:`search_free_table`.

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> p = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
    ...                   "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
    >>> graded = grade_table([p], ["FC", "HAC"], nodes=True, seconds=60)
    >>> graded.search_free.tolist(), graded.nodes.tolist(), graded.unknown.tolist()
    ([[True, True]], [1], [False])
    """
    names = parse_schemes(",".join(schemes)) if schemes is not None else ORDER
    flags = np.array([scheme_flags(s, shave_passes) for s in names], dtype=np.int64)
    node_flags = scheme_flags(DEFAULT_NODES_SCHEME)
    parts = []
    done = 0
    while done < len(puzzles):
        stop = _shape_run(puzzles, done, chunk)
        tables = _grid(puzzles[done])
        doms = np.stack([initial_domains(p) for p in puzzles[done:stop]])

        def count(dom, left, tables=tables):
            counted, status = label_run(dom, node_flags, tables, limit, left)
            return NODES_UNKNOWN if status == SUSPENDED else counted
        parts.append(grade_rows(doms, flags, tables, count if nodes else None, seconds))
        done = stop
        if progress is not None:
            progress(done)
    return stacked(parts, len(names))


def _shape_run(puzzles: Sequence, start: int, chunk: int) -> int:
    """The end of the run of puzzles of one shape from ``start`` (at most ``chunk``)."""
    key = grid_shape_key(puzzles[start])
    stop = start + 1
    while stop < len(puzzles) and stop - start < chunk and \
            grid_shape_key(puzzles[stop]) == key:
        stop += 1
    return stop


def search_free_table(puzzles: Sequence, schemes: Iterable[str] | None = None,
                      progress=None, chunk: int = 256,
                      shave_passes: int | None = None) -> np.ndarray:
    """``(len(puzzles), len(schemes))`` booleans: search free or not, for many puzzles.

    Puzzles of one shape run in a numba loop per chunk, a slice of work per call
    (:func:`grade_table`); ``progress(done)`` (if given) is called after each chunk.
    ``schemes`` defaults to every scheme in :data:`ORDER`. ``shave_passes`` stops the shaving
    schemes after that many rounds over the cells (one round reproduces the paper; default:
    to the fixpoint, see :mod:`~sudokit.grading.shaving`).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> p = sudoku(np.zeros((4, 4), dtype=int))
    >>> search_free_table([p, p], ["FC", "HACV"]).tolist()
    [[False, False], [False, False]]
    """
    return grade_table(puzzles, schemes, progress=progress, chunk=chunk,
                       shave_passes=shave_passes).search_free


def search_free(puzzle, schemes: Iterable[str] | None = None,
                shave_passes: int | None = None) -> dict[str, bool]:
    """Whether ``puzzle`` is search free under each scheme (default: all, in :data:`ORDER`);
    ``shave_passes`` as in :func:`search_free_table`.

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> p = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
    ...                   "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
    >>> search_free(p, ["FC", "HAC"])
    {'FC': True, 'HAC': True}
    """
    names = parse_schemes(",".join(schemes)) if schemes is not None else ORDER
    row = search_free_table([puzzle], names, shave_passes=shave_passes)[0]
    return {name: bool(flag) for name, flag in zip(names, row, strict=True)}


def grade(puzzle, schemes: Iterable[str] | None = None,
          shave_passes: int | None = None) -> str:
    """The weakest scheme (in :data:`ORDER`, or among ``schemes``) under which ``puzzle`` is
    search free, or ``"search"``.

    Stops at the first scheme that solves the puzzle, so easy puzzles are graded fast.

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> p = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
    ...                   "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
    >>> grade(p)
    'FC'
    """
    names = ORDER if schemes is None else tuple(s for s in ORDER
                                                if s in set(parse_schemes(",".join(schemes))))
    tables = _grid(puzzle)
    start = initial_domains(puzzle)[None]
    for name in names:
        flags = np.array([scheme_flags(name, shave_passes)], dtype=np.int64)
        if status_rows(start, flags, tables)[0][0, 0] == 1:
            return name
    return "search"


def label_nodes(puzzle, scheme: str = DEFAULT_NODES_SCHEME, limit: int = 10_000_000) -> int:
    """Nodes a fixed labelling needs to reach the first solution (see
    :mod:`~sudokit.grading.search`); ``limit`` bounds the search (the count then equals it).

    The default scheme is HACSC3, the strongest without shaving: under HACV every puzzle of
    the paper's sets is search free, so its node count (1) would break no tie.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> label_nodes(sudoku(np.zeros((4, 4), dtype=int)), "FC")
    8
    """
    tables = _grid(puzzle)
    nodes, _ = label_run(initial_domains(puzzle), scheme_flags(scheme), tables, int(limit))
    return nodes
