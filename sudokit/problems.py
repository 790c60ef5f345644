"""The problem kinds sudokit knows: one registry entry per kind, read by every other module.

A kind (``sudoku``, ``latin``, ``coloring``, ``cnf``, ``xc``) is one :class:`ProblemKind`:
its file extensions and header sniffing, its parser, how its instances and solutions are
written, its solution reader, its default CNF and exact-cover encodings, its ``to_cnf`` /
``to_exact_cover`` encoders, and how instances of one shape are keyed for sharing one solver.
The formats, encoders, solvers and the command line all look kinds up here; nothing else
switches on a kind's name. Adding a kind (a Sudoku variant, say) is one more entry.

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import PurePath
from typing import Any

from .errors import EncodingError

__all__ = ["ProblemKind", "PROBLEMS", "DEFAULT_KIND", "grid_kind", "problem_kind", "sniff_kind",
           "shape_key", "resolve"]


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
        How an instance is written when no layout is asked for (see ``formats.STYLES``).
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
    default_solver : str or None
        The engine that solves this kind when none is named (None: the default SAT solver).
    solver_rule : str or None
        ``instance -> engine name``: the engine for one instance when none is named, where the
        fastest one depends on the instance (its size); it wins over ``default_solver``.
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

    def load(self, field: str) -> Callable[..., Any]:
        """The function a reference field names; EncodingError if the kind has none."""
        ref = getattr(self, field)
        if ref is None:
            what = {"to_exact_cover": "exact cover encoding", "to_cnf": "CNF encoding"}
            raise EncodingError(f"no {what.get(field, field)} for a {self.name} instance; "
                                "use a SAT solver")
        return resolve(ref)


def grid_kind(name: str, description: str, parser: str, extensions: tuple[str, ...] = (),
              headers: tuple[str, ...] = ()) -> ProblemKind:
    """A kind of grid puzzle: cells of an ``n x n`` grid whose units are all-different (the
    units come from the instance; only how it is read differs from kind to kind)."""
    return ProblemKind(name=name, description=description, extensions=extensions,
                       headers=headers, parser=parser, default_style="line",
                       target_style="grid",
                       solution_reader="sudokit.formats.solutions:read_grid_solutions",
                       to_cnf="sudokit.encoders.completion_cnf:completion_to_cnf",
                       to_exact_cover="sudokit.encoders.completion_xc:completion_to_exact_cover",
                       cnf_encoding="extended", xc_encoding="full", solo_cnf_encoding="reduced",
                       solo_xc_encoding="reduced",
                       shape_key="sudokit.instances.grid:grid_shape_key",
                       solver_rule="sudokit.solvers.registry:grid_solver")


PROBLEMS: dict[str, ProblemKind] = {kind.name: kind for kind in (
    grid_kind("sudoku", "Sudoku (n x n, r x c boxes)",
              "sudokit.formats.puzzle_text:parse_sudoku_records"),
    grid_kind("latin", "Latin square completion", "sudokit.formats.pls:parse_latin_records",
              extensions=(".pls",), headers=("order",)),
    ProblemKind(name="coloring", description="graph precoloring extension (DIMACS .col)",
                extensions=(".col",), headers=("p edge", "p col"),
                parser="sudokit.formats.col:parse_coloring_records", default_style="col",
                target_style="col",
                solution_reader="sudokit.formats.solutions:read_colorings",
                to_cnf="sudokit.encoders.completion_cnf:completion_to_cnf",
                to_exact_cover="sudokit.encoders.completion_xc:completion_to_exact_cover",
                cnf_encoding="direct", xc_encoding="full", solo_cnf_encoding="direct",
                solo_xc_encoding="reduced"),
    ProblemKind(name="cnf", description="a CNF formula (DIMACS .cnf)",
                extensions=(".cnf",), headers=("p cnf",),
                parser="sudokit.formats.dimacs:parse_formula_records", default_style="dimacs",
                target_style="dimacs", solution_reader="sudokit.formats.solutions:read_models",
                to_cnf="sudokit.encoders.formula_cnf:formula_to_cnf",
                to_exact_cover="sudokit.reductions.sat_xc:sat_to_exact_cover"),
    ProblemKind(name="xc", description="exact cover (Knuth's DLX text, .dlx)",
                extensions=(".dlx",), headers=(),
                parser="sudokit.formats.dlx:parse_xc_records", default_style="dlx",
                target_style="dlx", solution_reader="sudokit.formats.solutions:read_covers",
                to_cnf="sudokit.encoders.exact_cover_cnf:exact_cover_to_cnf",
                to_exact_cover="sudokit.encoders.completion_xc:own_cover",
                default_solver="dlx"),
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
    name = kind if isinstance(kind, str) else kind.kind
    try:
        return PROBLEMS[name]
    except KeyError:
        raise EncodingError(f"unknown problem {name!r}; expected one of "
                            + ", ".join(PROBLEMS)) from None


def sniff_kind(source: str, text: str, problem: str | None = None) -> str:
    """The kind of an input: ``problem`` if named, else the extension, else the first
    significant line (comments ``#`` and ``c`` skipped), else :data:`DEFAULT_KIND`."""
    if problem is not None:
        return problem_kind(problem).name
    suffix = PurePath(str(source)).suffix.lower()
    for kind in PROBLEMS.values():
        if suffix in kind.extensions:
            return kind.name
    for line in text.splitlines():
        line = line.strip().lower()
        if not line or line.startswith(("#", "c ")) or line == "c":
            continue
        return next((kind.name for kind in PROBLEMS.values()
                     if any(line.startswith(header) for header in kind.headers)), DEFAULT_KIND)
    return DEFAULT_KIND


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
