"""The problem kinds sudokit knows: one registry entry per kind, read by every other module.

A kind (``sudoku``, ``latin``, ``coloring``, ``cnf``, ``xc``) is one :class:`ProblemKind`:
its family (grid, graph, formula, cover), its file extensions and header sniffing, its parser,
how its instances and solutions are written, its solution reader, its default CNF and
exact-cover encodings, its ``to_cnf`` / ``to_exact_cover`` encoders, how instances of one shape
are keyed for sharing one solver, the command-line options that apply to it, whether its files
are read in column chunks and whether it can be graded. The formats, encoders, solvers and the
command line all look kinds up here; nothing else compares a kind's name (only the readers of
a kind's own file format know which kind they read). Adding a kind (a Sudoku variant, say) is
one more entry.

Entries name their functions as ``"module:attribute"`` strings, loaded on first use: the
registry imports nothing, so any module may read it without an import cycle, and a command
loads only the parsers and encoders it uses.

Examples
--------
>>> sorted(PROBLEMS)
['cnf', 'coloring', 'latin', 'sudoku', 'xc']
>>> problem_kind("latin").extensions, problem_kind("latin").cnf_encoding
(('.pls',), 'extended')
>>> sniff_kind("-", "c a comment\\np cnf 3 1\\n1 2 3 0\\n"), sniff_kind("q.col", "")
('cnf', 'coloring')
>>> kinds_where(family="grid"), option_kinds("colors")
(('sudoku', 'latin'), ('coloring',))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import PurePath
from typing import Any

from .errors import EncodingError, InstanceError, described

__all__ = ["ProblemKind", "PROBLEMS", "DEFAULT_KIND", "FAMILIES", "KIND_OPTIONS", "grid_kind",
           "problem_kind", "sniff_kind", "shape_key", "resolve", "kinds_where", "option_kinds",
           "user_problem", "user_instance"]

#: What an instance of a kind is made of: cells of a grid with all-different units, vertices
#: of a graph (cells whose units are its edges), a CNF formula, or an exact cover problem.
FAMILIES = ("grid", "graph", "formula", "cover")

#: The options (click parameter names) that apply to some kinds only, as
#: :attr:`ProblemKind.options` names them: ``box`` (a Sudoku's box shape), ``colors`` (a
#: graph's number of colors), ``symmetry`` (breaking the symmetry of a graph's colors),
#: ``variant`` (a variant's units added to a grid).
KIND_OPTIONS = ("box", "colors", "symmetry", "variant")


@cache
def resolve(ref: str) -> Callable[..., Any]:
    """The object a ``"module:attribute"`` reference names (imported on first use)."""
    module, _, attribute = ref.partition(":")
    return getattr(import_module(module), attribute)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class ProblemKind:
    """Everything sudokit needs to know about one kind of problem.

    Attributes
    ----------
    name, description : str
    extensions : tuple of str
        File extensions (lower case, with the dot) that mean this kind.
    headers : tuple of str
        Lower-case prefixes of the first significant line that mean this kind (stdin has no
        extension).
    parser : str
        ``(text, source, box, colors) -> list[Record]``.
    default_style : str
        How an instance is written when no layout is asked for (a style of
        :data:`sudokit.formats.styles.STYLES`).
    target_style : str
        How ``reduce`` writes an instance of this kind as a reduction's target.
    solution_reader : str
        ``(text, source, instance) -> list[ndarray]``: candidate solutions, as ``solve``
        prints them.
    to_cnf, to_exact_cover : str or None
        ``(instance, encoding, ...) -> Reduction`` to CNF and to exact cover.
    cnf_encoding, xc_encoding : str or None
        The encodings ``encode`` uses when none is named.
    solo_cnf_encoding, solo_xc_encoding : str or None
        The encodings a solver uses for one instance on its own (givens inside the formula).
    shape_key : str or None
        ``instance -> hashable``: instances with equal keys share one solver or DLX
        structure (their givens become assumptions / preselected options); None: never
        shared.
    family : str
        One of :data:`FAMILIES`: ``"grid"`` (an ``n x n`` grid with all-different units),
        ``"graph"`` (vertices to color), ``"formula"`` (CNF) or ``"cover"`` (exact cover).
    noun : str
        What one instance is called in messages ("Latin square", "graph").
    options : tuple of str
        The options of :data:`KIND_OPTIONS` that apply to its instances; given for an input
        of a kind that does not take them, they are a usage error, and a command that reads
        no kind taking one does not offer it.
    column_chunks : bool
        Its files hold many one-line instances, read a chunk at a time (and a clean piece of
        one shape as one array: :mod:`sudokit.formats.columns`).
    gradable : bool
        ``grade`` takes it (propagation on cells with all-different units).
    unit_graph : str or None
        The name of the graph whose vertices are its cells and whose edges join cells that
        share a unit ("Sudoku graph"), for the kinds that have one.
    default_solver : str or None
        The engine that solves this kind when none is named (None: the default SAT solver).
    solver_rule : str or None
        ``(instance, task) -> engine name``: the engine for one instance and task (``"solve"``
        or ``"count"``) when none is named, where the fastest one depends on the instance
        (its size); it wins over ``default_solver``.
    """

    name: str
    description: str
    extensions: tuple[str, ...]
    headers: tuple[str, ...]
    parser: str
    default_style: str
    target_style: str
    solution_reader: str
    to_cnf: str | None
    to_exact_cover: str | None
    cnf_encoding: str | None = None
    xc_encoding: str | None = None
    solo_cnf_encoding: str | None = None
    solo_xc_encoding: str | None = None
    shape_key: str | None = None
    default_solver: str | None = None
    solver_rule: str | None = None
    family: str = field(kw_only=True)
    noun: str = field(kw_only=True)
    options: tuple[str, ...] = ()
    column_chunks: bool = False
    gradable: bool = False
    unit_graph: str | None = None

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"kind {self.name!r}: family {self.family!r} is not one of "
                             + ", ".join(FAMILIES))
        unknown = sorted(set(self.options) - set(KIND_OPTIONS))
        if unknown:
            raise ValueError(f"kind {self.name!r}: unknown options {unknown}; expected some "
                             "of " + ", ".join(KIND_OPTIONS))

    @property
    def has_cells(self) -> bool:
        """Whether its instances are cells taking values under all-different units (a grid,
        or a graph whose edges are its units), as the CP, ILP and completion encodings need.

        Examples
        --------
        >>> problem_kind("coloring").has_cells, problem_kind("cnf").has_cells
        (True, False)
        """
        return self.family in ("grid", "graph")

    def load(self, field: str) -> Callable[..., Any]:
        """The function a reference field names; EncodingError if the kind has none."""
        ref = getattr(self, field)
        if ref is None:
            what = {"to_exact_cover": "exact cover encoding", "to_cnf": "CNF encoding"}
            raise EncodingError(f"no {what.get(field, field)} for a {self.name} instance; "
                                "use a SAT solver")
        return resolve(ref)


def grid_kind(name: str, description: str, parser: str, extensions: tuple[str, ...] = (),
              headers: tuple[str, ...] = (), *, noun: str, unit_graph: str,
              options: tuple[str, ...] = ("variant",)) -> ProblemKind:
    """A kind of grid puzzle: cells of an ``n x n`` grid whose units are all-different (the
    units come from the instance; only how it is read differs from kind to kind).

    Examples
    --------
    >>> kind = grid_kind("killer", "Killer Sudoku", "my.module:parse_killer", noun="Killer",
    ...                  unit_graph="Sudoku graph", options=("box", "variant"))
    >>> kind.family, kind.column_chunks, kind.gradable, kind.default_style
    ('grid', True, True, 'line')
    """
    return ProblemKind(name=name, description=description, extensions=extensions,
                       headers=headers, parser=parser, default_style="line",
                       target_style="grid",
                       solution_reader="sudokit.formats.solutions:read_grid_solutions",
                       to_cnf="sudokit.encoders.completion_cnf:completion_to_cnf",
                       to_exact_cover="sudokit.encoders.completion_xc:completion_to_exact_cover",
                       cnf_encoding="extended", xc_encoding="full", solo_cnf_encoding="reduced",
                       solo_xc_encoding="reduced",
                       shape_key="sudokit.instances.grid:grid_shape_key",
                       solver_rule="sudokit.solvers.registry:grid_solver",
                       family="grid", noun=noun, options=options, column_chunks=True,
                       gradable=True, unit_graph=unit_graph)


PROBLEMS: dict[str, ProblemKind] = {kind.name: kind for kind in (
    grid_kind("sudoku", "Sudoku (n x n, r x c boxes)",
              "sudokit.formats.puzzle_text:parse_sudoku_records", noun="Sudoku",
              unit_graph="Sudoku graph", options=("box", "variant")),
    grid_kind("latin", "Latin square completion", "sudokit.formats.pls:parse_latin_records",
              extensions=(".pls",), headers=("order",), noun="Latin square",
              unit_graph="rook's graph"),
    ProblemKind(name="coloring", description="graph precoloring extension (DIMACS .col)",
                extensions=(".col",), headers=("p edge", "p col"),
                parser="sudokit.formats.col:parse_coloring_records", default_style="col",
                target_style="col",
                solution_reader="sudokit.formats.solutions:read_colorings",
                to_cnf="sudokit.encoders.completion_cnf:completion_to_cnf",
                to_exact_cover="sudokit.encoders.completion_xc:completion_to_exact_cover",
                cnf_encoding="direct", xc_encoding="full", solo_cnf_encoding="direct",
                solo_xc_encoding="reduced", family="graph", noun="graph",
                options=("colors", "symmetry")),
    ProblemKind(name="cnf", description="a CNF formula (DIMACS .cnf)",
                extensions=(".cnf",), headers=("p cnf",),
                parser="sudokit.formats.dimacs:parse_formula_records", default_style="dimacs",
                target_style="dimacs", solution_reader="sudokit.formats.solutions:read_models",
                to_cnf="sudokit.encoders.formula_cnf:formula_to_cnf",
                to_exact_cover="sudokit.reductions.sat_xc:sat_to_exact_cover",
                family="formula", noun="CNF formula"),
    ProblemKind(name="xc", description="exact cover (Knuth's DLX text, .dlx)",
                extensions=(".dlx",), headers=(),
                parser="sudokit.formats.dlx:parse_xc_records", default_style="dlx",
                target_style="dlx", solution_reader="sudokit.formats.solutions:read_covers",
                to_cnf="sudokit.encoders.exact_cover_cnf:exact_cover_to_cnf",
                to_exact_cover="sudokit.encoders.completion_xc:own_cover",
                default_solver="dlx", family="cover", noun="exact cover problem"),
)}

#: the kind of an input that neither its extension nor its first line names
DEFAULT_KIND = "sudoku"


def problem_kind(kind: str | Any) -> ProblemKind:
    """The registry entry of a kind name or of an instance (anything with ``.kind``).

    Examples
    --------
    >>> problem_kind("xc").target_style
    'dlx'
    >>> problem_kind("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.EncodingError: unknown problem 'chess'; expected one of sudoku, latin, ...
    """
    name = kind if isinstance(kind, str) else getattr(kind, "kind", None)
    if not isinstance(name, str):
        raise InstanceError(f"{described(kind)} is not a problem instance; "
                            "sudokit.as_problem(x) says what is taken")
    try:
        return PROBLEMS[name]
    except KeyError:
        raise EncodingError(f"unknown problem {name!r}; expected one of "
                            + ", ".join(PROBLEMS)) from None


#: what users hold, read as instances: the conversions of the services layer, named as a
#: registry entry names code (see :mod:`sudokit.interop.convert`)
_AS_PROBLEM = "sudokit.interop.convert:as_problem"
_AS_INSTANCE = "sudokit.interop.convert:as_instance"


def user_problem(obj: Any, **hints: Any) -> Any:
    """What a user passed as a problem (text, an array, a record, a PySAT or networkx or
    scipy object, an instance, an encoding), as an instance or an encoding:
    :func:`sudokit.interop.convert.as_problem`; ``hints`` are its ``problem``, ``box`` and
    ``num_colors``.

    Examples
    --------
    >>> user_problem("12..\\n..12\\n....\\n....", problem="latin").kind
    'latin'
    """
    return resolve(_AS_PROBLEM)(obj, **hints)


def user_instance(obj: Any, families: Iterable[str] = FAMILIES, taker: str = "this",
                  **hints: Any) -> Any:
    """As :func:`user_problem`, an encoding or reduction giving its source instance, which
    must be of one of ``families`` (else an :class:`~sudokit.errors.InstanceError` saying
    that ``taker`` does not take it).

    Examples
    --------
    >>> user_instance([[1, 0], [0, 0]], problem="latin").n
    2
    >>> user_instance("p cnf 1 1\\n1 0\\n", ("grid",), "grid_to_cnf")
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: grid_to_cnf takes a grid, not a CNF formula
    """
    instance = resolve(_AS_INSTANCE)(obj, **hints)
    kind = problem_kind(instance)
    if kind.family not in tuple(families):
        article = "an" if kind.noun[:1].lower() in "aeiou" else "a"
        raise InstanceError(f"{taker} takes a {' or a '.join(families)}, not {article} "
                            f"{kind.noun}")
    return instance


def sniff_kind(source: str, text: str, problem: str | None = None) -> str:
    """The kind of an input: ``problem`` if named, else the extension, else the first
    significant line (comments ``#`` and ``c`` skipped), else :data:`DEFAULT_KIND`."""
    if problem is not None:
        return problem_kind(problem).name
    return stated_kind(source, text) or DEFAULT_KIND


def stated_kind(source: str, text: str) -> str | None:
    """The kind an input says it is, by its extension or its first significant line (a
    header such as ``p cnf``); None when it says nothing (plain puzzle text).

    >>> stated_kind("a.pls", ""), stated_kind("-", "c x\\np cnf 3 2"), stated_kind("-", "1...")
    ('latin', 'cnf', None)
    """
    suffix = PurePath(str(source)).suffix.lower()
    for kind in PROBLEMS.values():
        if suffix in kind.extensions:
            return kind.name
    for line in text.splitlines():
        line = line.strip().lower()
        if not line or line.startswith(("#", "c ")) or line == "c":
            continue
        return next((kind.name for kind in PROBLEMS.values()
                     if any(line.startswith(header) for header in kind.headers)), None)
    return None


def shape_key(instance: Any) -> Any:
    """Instances with the same key can share one engine (None: this one never shares).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> shape_key(sudoku(np.zeros((4, 4), dtype=int)))
    ('sudoku', 4, (2, 2))
    """
    ref = problem_kind(instance).shape_key
    return None if ref is None else resolve(ref)(instance)


def kinds_where(**fields: Any) -> tuple[str, ...]:
    """The names of the kinds (in registry order) whose fields (or properties) have the values
    given.

    Examples
    --------
    >>> kinds_where(gradable=True)
    ('sudoku', 'latin')
    >>> kinds_where(has_cells=True), kinds_where(family="cover")
    (('sudoku', 'latin', 'coloring'), ('xc',))
    """
    return tuple(kind.name for kind in PROBLEMS.values()
                 if all(getattr(kind, field) == value for field, value in fields.items()))


def option_kinds(option: str, kinds: Iterable[str] | None = None) -> tuple[str, ...]:
    """The kinds (of ``kinds``, default all, in registry order) that option ``option`` of
    :data:`KIND_OPTIONS` applies to.

    Examples
    --------
    >>> option_kinds("variant"), option_kinds("box", ["latin", "coloring"])
    (('sudoku', 'latin'), ())
    """
    if option not in KIND_OPTIONS:
        raise ValueError(f"unknown option {option!r}; expected one of " + ", ".join(KIND_OPTIONS))
    names = PROBLEMS if kinds is None else set(kinds)
    return tuple(kind.name for kind in PROBLEMS.values()
                 if kind.name in names and option in kind.options)
