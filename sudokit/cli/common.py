"""Shared pieces of the commands: options, their checks, and reading the input.

Errors and signals are handled by :mod:`.group`; results are written by :mod:`.output`."""

from __future__ import annotations

import contextlib
import itertools
import math
import os
from collections.abc import Iterator, Sequence

import click
from click.core import ParameterSource

from ..batch import OptionNotTaken, RunSpec
from ..encoders import AMO_METHODS, ENCODINGS, XC_ENCODINGS
from ..errors import SudokitError
from ..formats import LAYOUTS, read_instances
from ..formats.puzzle_text import with_variants
from ..formats.record import Record
from ..formats.stream import read_instance_chunks
from ..instances import parse_box
from ..instances.variants import ALIASES, VARIANTS, parse_variants
from ..problems import (
    DEFAULT_KIND,
    KIND_OPTIONS,
    PROBLEMS,
    kinds_where,
    option_kinds,
    problem_kind,
)
from ..progress import Progress, count_lines
from ..solvers import DEFAULT_SOLVER, Budget, resolve_solver
from ..solvers.portfolio import summary as portfolio_summary
from . import kernels
from .choices import Choice
from .group import SKIP_BAD, warn_skipped

#: ``ctx.meta`` key of ``--layout`` (how puzzle text is cut into puzzles)
LAYOUT_GIVEN = "sudokit.layout"


def _layout_option(func, flag: str = "--layout"):
    """``--layout auto|grid|line`` (``flag``: another name, for a command whose ``--layout``
    is something else), kept in ``ctx.meta`` under :data:`LAYOUT_GIVEN` and read by
    :func:`load` and :func:`load_chunks`."""
    return click.option(
        flag, "reader_layout", type=Choice(list(LAYOUTS)), default="auto",
        show_default=True, expose_value=False,
        callback=lambda ctx, param, value: ctx.meta.update({LAYOUT_GIVEN: value}),
        help="How puzzle text is cut into puzzles: 'line' reads every line as one puzzle, "
             "'grid' every block of lines as grids, 'auto' by the grid's own marks "
             "(separators, rules, spaced cells; n lines of n cells only when some line "
             "cannot be a one-line puzzle).")(func)


def shape_options(func, kinds: Sequence[str] = tuple(PROBLEMS), layout_flag: str = "--layout"):
    """``--box`` and ``--colors``: the shape of a grid or a graph that the file leaves open
    (each only when one of ``kinds`` takes it: :attr:`~sudokit.problems.ProblemKind.options`),
    and ``--layout`` (named ``layout_flag``) when one of ``kinds`` is a grid puzzle."""
    if set(kinds) & set(kinds_where(family="grid")):
        func = _layout_option(func, layout_flag)
    if option_kinds("colors", kinds):
        func = click.option("--colors", "-k", type=IntBelow(1, 31), metavar="K",
                            help="Number of colors for a graph (overrides a 'c colors K' "
                                 "line).")(func)
    if option_kinds("box", kinds):
        func = click.option("--box", metavar="RxC",
                            help="Box shape: R rows and C columns per box (e.g. 2x3 for "
                                 "6x6).")(func)
    return func


def _problem_help(kinds: Sequence[str]) -> str:
    by_extension = ", ".join(f"{extension} -> {kind.name}" for kind in PROBLEMS.values()
                             if kind.name in kinds for extension in kind.extensions)
    return (f"Problem type (default: {by_extension}, else from the first line, else "
            f"{DEFAULT_KIND}).")


#: ``ctx.meta`` key of the ``--variant`` names (canonical, in registry order)
VARIANTS_GIVEN = "sudokit.variants"


def _variants_callback(ctx, param, value):
    try:
        ctx.meta[VARIANTS_GIVEN] = parse_variants(value)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), ctx, param) from None


def variant_option(func):
    """``--variant NAME`` (repeatable): the variants' units join every grid read (see
    :func:`with_variants`); the names are kept in ``ctx.meta`` under :data:`VARIANTS_GIVEN`."""
    return click.option(
        "--variant", "variants", multiple=True, metavar="NAME", expose_value=False,
        callback=_variants_callback,
        help="A puzzle variant whose units every grid gets (repeatable, they combine): "
             + ", ".join(VARIANTS) + " (aliases " + ", ".join(sorted(ALIASES))
             + "). A '# variant:' header line in FILE does the same; the two add up. "
             "jigsaw needs the region map in FILE.")(func)


def instance_options(func):
    """``--problem``, ``--box``, ``--colors``, ``--variant`` and ``--skip-bad``: how to read
    FILE, for a command that takes every problem kind."""
    return instance_options_for(tuple(PROBLEMS))(func)


def instance_options_for(kinds: Sequence[str], layout_flag: str = "--layout",
                         problem_help: str | None = None):
    """:func:`instance_options` of a command that takes only ``kinds``: ``--problem`` offers
    those, and ``--box``, ``--colors`` and ``--variant`` are there only when one of them takes
    the option (:attr:`~sudokit.problems.ProblemKind.options`); ``layout_flag`` names
    ``--layout`` for a command whose ``--layout`` is another option (``draw``'s picture);
    ``problem_help``: the help of ``--problem`` where its default is not the usual one."""
    kinds = tuple(kinds)

    def decorate(func):
        if option_kinds("variant", kinds):
            func = variant_option(func)
        func = click.option("--skip-bad", is_flag=True, expose_value=False,
                            callback=lambda ctx, param, value: ctx.meta.update({SKIP_BAD: value}),
                            help="Skip malformed instance lines with a warning each (and a "
                                 "count at the end; the exit code is then 4) instead of "
                                 "stopping at the first.")(func)
        func = shape_options(func, kinds, layout_flag)
        return click.option("--problem", "-p", type=Choice(list(kinds)),
                            help=problem_help or _problem_help(kinds))(func)

    return decorate


def _amo_option(func):
    return click.option("--amo", type=Choice(list(AMO_METHODS)), default="pairwise",
                        show_default=True, help="At-most-one encoding.")(func)


def _solve_amo_option(func):
    return click.option("--amo", type=Choice(list(AMO_METHODS)),
                        help="At-most-one encoding (default: pairwise, or seqcounter for a "
                             "formula of over 4,000,000 pairwise clauses, e.g. 49x49 and "
                             "up).")(func)


_CNF_ENCODING_HELP = "CNF encoding (default: extended for grids, direct for graphs)"


def encoding_options(func):
    """``--encoding`` (the CNF encodings) and ``--amo``: how ``solve`` and ``count`` encode
    for a SAT solver."""
    func = _solve_amo_option(func)
    return click.option("--encoding", "-e", type=Choice(list(ENCODINGS)),
                        help=_CNF_ENCODING_HELP + ".")(func)


def encode_encoding_options(func):
    """``--encoding`` and ``--amo`` of ``encode``: the CNF encodings, and with ``--xc`` the
    exact cover ones."""
    func = _amo_option(func)
    names = list(ENCODINGS) + [name for name in XC_ENCODINGS if name not in ENCODINGS]
    xc_names = " or ".join(f"{name} (default)" if index == 0 else name
                           for index, name in enumerate(XC_ENCODINGS))
    return click.option("--encoding", "-e", type=Choice(names),
                        help=f"{_CNF_ENCODING_HELP}; with --xc an exact cover encoding: "
                             f"{xc_names}.")(func)


class IntBelow(click.IntRange):
    """An int from ``min`` up to ``2**bits - 1``: what the kernels and libraries that take
    the value hold (63: an int64 count, budget or index; 32: a random seed, which numpy's
    legacy generator and the C counters take as 32 bits; 31: a C int, as colors, vertices
    and shaving passes are held), so a larger value is a usage error (exit 2), not an
    overflow deep inside (exit 70). ``--help`` shows the range as ``1<=x<2**63``."""

    def __init__(self, min: int, bits: int) -> None:
        super().__init__(min=min, max=2**bits - 1)
        self.bits = bits

    def _describe_range(self) -> str:
        return f"{self.min}<=x<2**{self.bits}"


class FiniteFloat(click.FloatRange):
    """A :class:`~click.FloatRange` that refuses ``nan`` and ``inf`` (click lets them
    through: ``nan`` passes every comparison)."""

    name = "finite float"
    hint = ""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number{self.hint}", param, ctx)
        return number


class FinitePositiveFloat(FiniteFloat):
    """A float above 0 and at most 1e6 (seconds: about 11.6 days; a child process's
    ``poll`` takes its timeout as a C int of milliseconds, about 24.8 days, and overflowed
    past it): ``nan`` and ``inf`` are refused (they would mean "no limit")."""

    name = "finite positive float"
    hint = "; leave the option out for no limit"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True, max=1e6)

    def _describe_range(self) -> str:
        return "0<x<=1e6"


class ByteSize(click.ParamType):
    """A size in bytes: ``500M``, ``4G``, ``2.5GiB`` or a plain number of bytes."""

    name = "size"
    _UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip().upper().removesuffix("IB").removesuffix("B")
        unit = text[-1:] if text[-1:] in self._UNITS else ""
        body = text[:len(text) - len(unit)]
        try:
            number = int(body) if body.isdigit() else float(body)   # exact up to 2**63 - 1
        except ValueError:
            number = float("nan")
        if not math.isfinite(number) or number <= 0:
            self.fail(f"{value!r} is not a size such as 500M or 4G", param, ctx)
        size = int(number * self._UNITS[unit])
        if size >= 2**63:
            self.fail(f"{value!r} is more than a 64-bit size (8 EiB)", param, ctx)
        return size


def solver_options(func):
    """``--solver``, ``--time-limit``, ``--conflicts``, ``--nodes``, ``--max-memory``,
    ``--xc``."""
    func = click.option("--max-memory", type=ByteSize(), metavar="SIZE",
                        help="Refuse an instance whose formula or cover would need more "
                             "memory than SIZE (e.g. 4G; default: the memory available).")(func)
    func = click.option("--xc", "xc", is_flag=True,
                        help="FILE is an exact cover problem in Knuth's format (as --problem "
                             "xc; solved with dlx unless --solver names a SAT solver).")(func)
    func = click.option("--nodes", type=IntBelow(1, 63), metavar="N",
                        help="Search-node budget per instance (dlx and the CP family; grasp: "
                             "iterations); past it 'unknown'.")(func)
    func = click.option("--conflicts", type=IntBelow(1, 63), metavar="N",
                        help="SAT conflict budget per instance; past it 'unknown'.")(func)
    func = click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
                        help="Time budget per instance; past it the answer is 'unknown'.")(func)
    return solver_option(func)


def engine_options(func):
    """``--seed`` and ``--alpha``: options of the engines that take them (their ``options`` in
    the engine registry: GRASP's)."""
    func = click.option("--alpha", type=FiniteFloat(0, 1), metavar="A",
                        help="grasp: the restricted candidate list keeps the values within A "
                             "of the best greedy cost, as a fraction of the range (0 greedy, "
                             "1 random; default 0.2).")(func)
    return click.option("--seed", type=IntBelow(0, 32), metavar="S",
                        help="Random seed of a randomized solver (grasp, cp; default 0): the same "
                             "seed gives the same answers.")(func)


def solver_option(func):
    """``--solver NAME``: an engine from the registry (``sudokit solvers``)."""
    return click.option("--solver", "-s", metavar="NAME",
                        help=f"A solver from 'sudokit solvers' (PySAT's, dlx, the CP family, "
                             f"ilp, cpsat, grasp), or 'module:Class' naming an engine of your "
                             f"own. Default (the portfolio): {portfolio_summary()}; dlx "
                             f"for exact cover; else {DEFAULT_SOLVER} (also when --encoding, "
                             f"--amo or --conflicts is given).")(func)


# -- options that do not apply: usage errors, never silently ignored ------------------------

#: The instance kinds an option applies to (``problems.PROBLEMS`` names), read from the
#: registry (:attr:`~sudokit.problems.ProblemKind.options`). Given for an input of another
#: kind, it is a usage error; :func:`load` checks this once FILE is read (``--variant``, which
#: click does not pass on as a parameter, in :func:`given_variants`).
OPTION_KINDS: dict[str, tuple[str, ...]] = {option: option_kinds(option)
                                            for option in KIND_OPTIONS}

#: The option that sets each :class:`~sudokit.solvers.Budget` field; an engine honours the
#: fields its ``ENGINES`` entry lists in ``budgets``.
BUDGET_OPTIONS: dict[str, str] = {"seconds": "time_limit", "conflicts": "conflicts",
                                  "nodes": "nodes"}

_GIVEN = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT, ParameterSource.PROMPT)


def is_given(ctx: click.Context, name: str) -> bool:
    """Whether the user set option ``name`` (its parameter name), as opposed to its default."""
    return ctx.get_parameter_source(name) in _GIVEN


def flag(ctx: click.Context | None, name: str) -> str:
    """How option ``name`` is spelt on the command line (``--time-limit``; ``--no-symmetry``
    when that is the switch given)."""
    for param in ctx.command.params if ctx is not None else ():
        if param.name == name:
            off = param.secondary_opts and ctx is not None and ctx.params.get(name) is False
            return max(param.secondary_opts if off else param.opts, key=len)
    return "--" + name.replace("_", "-")


def exclusive(ctx: click.Context, *names: str) -> None:
    """A usage error when more than one of these options is given."""
    given = [flag(ctx, name) for name in names if is_given(ctx, name)]
    if len(given) > 1:
        raise click.UsageError(f"{' and '.join(given)} do not go together; choose one")


def requires(ctx: click.Context, name: str, *needed: str) -> None:
    """A usage error when option ``name`` is given without any of the options ``needed``."""
    if is_given(ctx, name) and not any(is_given(ctx, other) for other in needed):
        raise click.UsageError(f"{flag(ctx, name)} applies only with "
                               + " or ".join(flag(ctx, other) for other in needed))


def check_kinds(ctx: click.Context | None, records: Sequence, path: str) -> None:
    """A usage error for an option of :data:`OPTION_KINDS` given for an input of another
    kind (``--colors`` on a Sudoku, ``--box`` on a graph)."""
    if ctx is None or not records:
        return
    kinds = sorted({problem_kind(record.instance).name for record in records})
    for name, applies in OPTION_KINDS.items():
        if name not in ctx.params or not is_given(ctx, name):
            continue
        other = [kind for kind in kinds if kind not in applies]
        if other:
            where = "<stdin>" if path == "-" else path
            raise click.UsageError(f"{flag(ctx, name)} applies only to {' and '.join(applies)} "
                                   f"instances; {where} holds {' and '.join(other)}")


def run_spec(ctx: click.Context, options: dict, task: str, limit: int | None = None,
             counter: str = "enumerate") -> RunSpec:
    """The run's :class:`~sudokit.batch.RunSpec` from the command's options (``--solver``
    resolved once: an unknown name is a usage error of ``--solver``)."""
    budget = make_budget(options["time_limit"],
                         options.get("conflicts") if counter == "enumerate" else None,
                         options.get("nodes") if counter == "enumerate" else None,
                         options["max_memory"])
    extra = {name: options.get(name) for name in ("seed", "alpha", "epsilon", "delta")}
    try:
        return RunSpec.of(task, limit, options.get("solver") if counter == "enumerate" else None,
                          options.get("encoding"), options.get("amo"), budget, extra, counter)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--solver") from None


@contextlib.contextmanager
def usage_errors(ctx: click.Context) -> Iterator[None]:
    """An option the engine an instance gets does not take
    (:class:`~sudokit.batch.OptionNotTaken`) becomes a usage error naming the flags."""
    try:
        yield
    except OptionNotTaken as err:
        if err.budget:
            what = ", ".join(flag(ctx, BUDGET_OPTIONS[f]) for f in err.taken) or "no budget"
            raise click.UsageError(f"{flag(ctx, BUDGET_OPTIONS[err.name])} does not apply to "
                                   f"{err.engine} (it honours {what})") from None
        if err.name in ("encoding", "amo"):   # CNF options, for the engines that build CNF
            raise click.UsageError(f"{flag(ctx, err.name)} does not apply to {err.engine}, "
                                   "which builds no CNF") from None
        raise click.UsageError(f"{flag(ctx, err.name)} does not apply to {err.engine} (only "
                               f"to {', '.join(err.taken)})") from None


def _reading(box):
    """What :func:`load` and :func:`load_chunks` read with: the click context, ``--box``
    parsed, the bad-line callback when ``--skip-bad`` is on, and ``--layout``."""
    try:
        shape = parse_box(box) if box else None
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--box") from None
    ctx = click.get_current_context(silent=True)
    skip = ctx is not None and bool(ctx.meta.get(SKIP_BAD))
    layout = "auto" if ctx is None else ctx.meta.get(LAYOUT_GIVEN, "auto")
    return ctx, shape, (warn_skipped if skip else None), layout


def _check_layout(layout: str, records: Sequence, path: str) -> None:
    """A usage error for ``--layout grid|line`` on an input that is no puzzle text."""
    grids = kinds_where(family="grid")
    other = sorted({problem_kind(r.instance).name for r in records} - set(grids))
    if layout != "auto" and other:
        where = "<stdin>" if path == "-" else path
        ctx = click.get_current_context(silent=True)
        raise click.UsageError(f"{flag(ctx, 'reader_layout')} applies only to "
                               f"{' and '.join(grids)} instances; {where} holds "
                               f"{' and '.join(other)}")


def given_variants(records: Sequence, path: str) -> list:
    """The records with the ``--variant`` units added to their grids (none given: as they
    are); a usage error for a graph, formula or exact cover, an :class:`InstanceError` at the
    record's line for a given that the new units repeat."""
    ctx = click.get_current_context(silent=True)
    names = () if ctx is None else ctx.meta.get(VARIANTS_GIVEN, ())
    if not names or not records:
        return list(records)
    applies = OPTION_KINDS["variant"]
    other = sorted({problem_kind(r.instance).name for r in records} - set(applies))
    if other:
        where = "<stdin>" if path == "-" else path
        raise click.UsageError(f"--variant applies only to {' and '.join(applies)} instances; "
                               f"{where} holds {' and '.join(other)}")
    source = "<stdin>" if path == "-" else path
    return with_variants(list(records), names, source)


def load(path: str, problem, box, colors):
    """Read every instance of FILE (``-`` for stdin), and refuse the options of
    :data:`OPTION_KINDS` that do not apply to what was read; ``--variant`` is applied."""
    ctx, shape, on_bad, layout = _reading(box)
    records = read_instances(path, problem=problem, box=shape, colors=colors, on_bad=on_bad,
                             layout=layout)
    _check_layout(layout, records, path)
    check_kinds(ctx, records, path)
    return given_variants(records, path)


def load_chunks(path: str, problem, box, colors, columns: bool = False):
    """FILE's records a chunk at a time (:func:`~sudokit.formats.stream.read_instance_chunks`,
    so memory stays flat on files of millions), each chunk checked as :func:`load` checks
    the whole input; with ``columns``, clean pieces of one-line puzzles come as
    :class:`~sudokit.formats.columns.ColumnChunk` arrays.

    Returns ``(total, chunks)``: ``total`` is the number of instances when FILE is a file of
    one chunk (read ahead to know it, for the progress line), else None (a stream).
    """
    ctx, shape, on_bad, layout = _reading(box)
    chunks = read_instance_chunks(path, problem=problem, box=shape, colors=colors,
                                  on_bad=on_bad, columns=columns, layout=layout)
    ahead = [] if path == "-" else list(itertools.islice(chunks, 2))
    total = sum(map(len, ahead)) if path != "-" and len(ahead) < 2 else None

    def check(chunk):
        if not isinstance(chunk, list):  # a ColumnChunk: classic grids, no variants
            check_kinds(ctx, [Record(chunk.instance(0), 0, "line")], path)
            return chunk
        _check_layout(layout, chunk, path)
        check_kinds(ctx, chunk, path)
        return given_variants(chunk, path)

    def checked():
        while ahead:  # handed over, not kept: memory stays flat
            yield check(ahead.pop(0))
        for chunk in chunks:
            yield check(chunk)

    return total, checked()


def file_lines(path: str, total: int | None, progress: Progress) -> int | None:
    """The lines of FILE, counted ahead for the progress line, when the number of instances
    is not known (a file of many chunks) and FILE is a regular file; else None (standard
    input, a pipe, a total known, progress off)."""
    if total is not None or progress.quiet or path == "-" or not os.path.isfile(path):
        return None
    return count_lines(path)


def last_line(part) -> int:
    """The line of FILE the last instance of an answered part came from (a list of records
    or a :class:`~sudokit.formats.columns.ColumnChunk`).

    >>> from sudokit.formats import parse_instances
    >>> last_line(parse_instances("# two\\n1...\\n\\n.2..\\n", "-", problem="latin"))
    4
    """
    lines = getattr(part, "lines", None)
    return int(lines[-1]) if lines is not None else part[-1].line


def make_budget(time_limit, conflicts, nodes=None, memory=None) -> Budget:
    kernels.time_limit(time_limit)   # compiling a kernel family first counts against it
    return Budget(seconds=time_limit, conflicts=conflicts, nodes=nodes, memory=memory)


def check_solver(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return resolve_solver(name)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--solver") from None
