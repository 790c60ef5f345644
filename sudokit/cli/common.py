"""Shared pieces of the commands: options, error handling, reading, progress, rendering."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import math
import os
import re
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Any

import click
from click.core import ParameterSource

from ..encoders import AMO_METHODS, ENCODINGS, XC_ENCODINGS
from ..errors import EXIT_INTERNAL, EXIT_INVALID_INPUT, EXIT_OUTPUT, OutputError, SudokitError
from ..formats import read_instances
from ..instances import parse_box
from ..problems import DEFAULT_KIND, PROBLEMS, problem_kind
from ..solvers import DEFAULT_SOLVER, ENGINES, Budget, default_solver, resolve_solver


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every cleanup (``finally``, atomic outputs) runs."""


def _raise_terminated(signum, frame):
    raise Terminated


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """SIGTERM ends a command the way Ctrl-C does (Python's default would kill it at once,
    leaving temporary files behind). Ctrl-C itself reaches Python between kernel slices and
    solver calls: every long kernel and every SAT call is bounded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


#: errors writing standard output (a full disk, /dev/full, a quota): one line, exit 7
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _silence_stdout() -> None:
    """After a write error on stdout, point it at /dev/null so the interpreter's final flush
    does not report the same error again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


class SudokitGroup(click.Group):
    """A click group that turns every :class:`SudokitError` into one line and an exit code,
    and every interrupt (Ctrl-C: 130, SIGTERM: 143) into one line and a clean exit."""

    def invoke(self, ctx):
        with _sigterm_as_interrupt():
            return self._invoke(ctx)

    def _invoke(self, ctx):
        try:
            result = super().invoke(ctx)
        except click.exceptions.Exit as done:
            _report_skipped(ctx, done.exit_code)
            raise
        except SudokitError as err:
            click.echo(f"sudokit: error: {err.for_cli()}", err=True)
            ctx.exit(err.exit_code)
        except BrokenPipeError:  # e.g. `sudokit solve big.txt | head`
            _silence_stdout()
            ctx.exit(0)
        except Terminated:
            click.echo("sudokit: terminated", err=True)
            ctx.exit(143)
        except KeyboardInterrupt:
            click.echo("sudokit: interrupted", err=True)
            ctx.exit(130)
        except OSError as err:
            if err.errno not in _WRITE_ERRORS:
                raise
            _silence_stdout()
            click.echo(f"sudokit: error: cannot write standard output: {err.strerror}",
                       err=True)
            ctx.exit(EXIT_OUTPUT)
        except click.ClickException as err:  # usage errors too: one line, their own code
            click.echo(f"sudokit: error: {err.format_message()}", err=True)
            ctx.exit(err.exit_code)
        except Exception as err:  # a bug: still one line, with a way to see the traceback
            if os.environ.get("SUDOKIT_DEBUG") == "1":
                raise
            click.echo(f"sudokit: internal error: {type(err).__name__}: {err} "
                       "(set SUDOKIT_DEBUG=1 for the traceback and please report it)", err=True)
            ctx.exit(EXIT_INTERNAL)
        _report_skipped(ctx, 0)
        return result


def shape_options(func):
    """``--box`` and ``--colors``: the shape of a grid or a graph that the file leaves open."""
    func = click.option("--colors", "-k", type=click.IntRange(min=1), metavar="K",
                        help="Number of colors for a graph (overrides a 'c colors K' line).")(func)
    func = click.option("--box", metavar="RxC",
                        help="Box shape: R rows and C columns per box (e.g. 2x3 for 6x6).")(func)
    return func


def _problem_help() -> str:
    by_extension = ", ".join(f"{extension} -> {kind.name}" for kind in PROBLEMS.values()
                             for extension in kind.extensions)
    return (f"Problem type (default: {by_extension}, else from the first line, else "
            f"{DEFAULT_KIND}).")


def instance_options(func):
    """``--problem``, ``--box``, ``--colors`` and ``--skip-bad``: how to read FILE."""
    func = click.option("--skip-bad", is_flag=True, expose_value=False,
                        callback=lambda ctx, param, value: ctx.meta.update({_SKIP_BAD: value}),
                        help="Skip malformed instance lines with a warning each (and a count "
                             "at the end; the exit code is then 4) instead of stopping at "
                             "the first.")(func)
    func = shape_options(func)
    func = click.option("--problem", "-p", type=click.Choice(list(PROBLEMS)),
                        help=_problem_help())(func)
    return func


def _amo_option(func):
    return click.option("--amo", type=click.Choice(list(AMO_METHODS)), default="pairwise",
                        show_default=True, help="At-most-one encoding.")(func)


_CNF_ENCODING_HELP = "CNF encoding (default: extended for grids, direct for graphs)"


def encoding_options(func):
    """``--encoding`` (the CNF encodings) and ``--amo``: how ``solve`` and ``count`` encode
    for a SAT solver."""
    func = _amo_option(func)
    return click.option("--encoding", "-e", type=click.Choice(list(ENCODINGS)),
                        help=_CNF_ENCODING_HELP + ".")(func)


def encode_encoding_options(func):
    """``--encoding`` and ``--amo`` of ``encode``: the CNF encodings, and with ``--xc`` the
    exact cover ones."""
    func = _amo_option(func)
    names = list(ENCODINGS) + [name for name in XC_ENCODINGS if name not in ENCODINGS]
    xc_names = " or ".join(f"{name} (default)" if index == 0 else name
                           for index, name in enumerate(XC_ENCODINGS))
    return click.option("--encoding", "-e", type=click.Choice(names),
                        help=f"{_CNF_ENCODING_HELP}; with --xc an exact cover encoding: "
                             f"{xc_names}.")(func)


class FinitePositiveFloat(click.FloatRange):
    """A float above 0 that is a real number: ``nan`` and ``inf`` are refused (click's
    :class:`~click.FloatRange` lets them through, and they would mean "no limit")."""

    name = "finite positive float"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True)

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number; leave the option out for no limit",
                      param, ctx)
        return number


class ByteSize(click.ParamType):
    """A size in bytes: ``500M``, ``4G``, ``2.5GiB`` or a plain number of bytes."""

    name = "size"
    _UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip().upper().removesuffix("IB").removesuffix("B")
        unit = text[-1:] if text[-1:] in self._UNITS else ""
        try:
            number = float(text[:len(text) - len(unit)])
        except ValueError:
            number = float("nan")
        if not math.isfinite(number) or number <= 0:
            self.fail(f"{value!r} is not a size such as 500M or 4G", param, ctx)
        return int(number * self._UNITS[unit])


def solver_options(func):
    """``--solver``, ``--time-limit``, ``--conflicts``, ``--nodes``, ``--max-memory``,
    ``--xc``."""
    func = click.option("--max-memory", type=ByteSize(), metavar="SIZE",
                        help="Refuse an instance whose formula or cover would need more "
                             "memory than SIZE (e.g. 4G; default: the memory available).")(func)
    func = click.option("--xc", "xc", is_flag=True,
                        help="FILE is an exact cover problem in Knuth's format (as --problem "
                             "xc; solved with dlx unless --solver names a SAT solver).")(func)
    func = click.option("--nodes", type=click.IntRange(min=1), metavar="N",
                        help="DLX search-node budget per instance; past it 'unknown'.")(func)
    func = click.option("--conflicts", type=click.IntRange(min=1), metavar="N",
                        help="SAT conflict budget per instance; past it 'unknown'.")(func)
    func = click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
                        help="Time budget per instance; past it the answer is 'unknown'.")(func)
    return solver_option(func)


def solver_option(func):
    """``--solver NAME``: an engine from the registry (``sudokit solvers``)."""
    return click.option("--solver", "-s", metavar="NAME",
                        help=f"A PySAT solver or dlx (see 'sudokit solvers'); default "
                             f"{DEFAULT_SOLVER}, or dlx for exact cover problems.")(func)


# -- options that do not apply: usage errors, never silently ignored ------------------------

#: The instance kinds an option applies to (``problems.PROBLEMS`` names). Given for an input of
#: another kind, it is a usage error; :func:`load` checks this once FILE is read.
OPTION_KINDS: dict[str, tuple[str, ...]] = {
    "box": ("sudoku",),
    "colors": ("coloring",),
    "symmetry": ("coloring",),
}

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


def check_budgets(records: Sequence, solver: str | None, budget: Budget) -> None:
    """A usage error for a budget the engine that gets an instance does not honour (its
    ``budgets`` in the engine registry): ``--nodes`` with a SAT solver, ``--conflicts`` with
    dlx, any budget with a solver that has none."""
    ctx = click.get_current_context(silent=True)
    engines = sorted({solver} if solver else
                     {default_solver(record.instance) for record in records})
    for field, option in BUDGET_OPTIONS.items():
        if getattr(budget, field) is None:
            continue
        for engine in engines:
            honoured = ENGINES[engine].budgets
            if field not in honoured:
                what = ", ".join(flag(ctx, BUDGET_OPTIONS[f]) for f in honoured) or "no budget"
                raise click.UsageError(f"{flag(ctx, option)} does not apply to {engine} (it "
                                       f"honours {what})")
    for option in ("encoding", "amo"):  # CNF options, for the engines that build CNF
        if ctx is None or option not in ctx.params or not is_given(ctx, option):
            continue
        for engine in engines:
            if option not in ENGINES[engine].options:
                raise click.UsageError(f"{flag(ctx, option)} does not apply to {engine}, "
                                       "which builds no CNF")


def load(path: str, problem, box, colors):
    """Read every instance of FILE (``-`` for stdin), and refuse the options of
    :data:`OPTION_KINDS` that do not apply to what was read."""
    try:
        shape = parse_box(box) if box else None
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--box") from None
    ctx = click.get_current_context(silent=True)
    skip = ctx is not None and bool(ctx.meta.get(_SKIP_BAD))
    records = read_instances(path, problem=problem, box=shape, colors=colors,
                             on_bad=_warn_skipped if skip else None)
    check_kinds(ctx, records, path)
    return records


_SKIPPED, _SKIP_BAD = "sudokit.skipped", "sudokit.skip_bad"


def _warn_skipped(err: SudokitError) -> None:
    """``--skip-bad``: one warning per skipped line, counted for the closing line."""
    click.echo(f"sudokit: warning: skipped: {err.for_cli()}", err=True)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_SKIPPED] = ctx.meta.get(_SKIPPED, 0) + 1


def _report_skipped(ctx: click.Context, code: int) -> None:
    """After a command that skipped lines: the count, and exit 4 unless it already failed."""
    skipped = ctx.meta.pop(_SKIPPED, 0)
    if skipped:
        click.echo(f"sudokit: warning: {skipped} malformed line(s) skipped", err=True)
        if code == 0:
            ctx.exit(EXIT_INVALID_INPUT)


def make_budget(time_limit, conflicts, nodes=None, memory=None) -> Budget:
    return Budget(seconds=time_limit, conflicts=conflicts, nodes=nodes, memory=memory)


def check_solver(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return resolve_solver(name)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--solver") from None


def emit_json(obj, file=None) -> None:
    click.echo(json.dumps(obj, separators=(",", ":")), file=file)


# -- values as the input numbers them ----------------------------------------------------

#: Record styles (``formats.STYLES``) whose files number values from 0; inside sudokit, and in
#: every other style, values are 1..n.
ZERO_BASED_STYLES = frozenset({"pls"})


def written_value(style: str, value: Any) -> Any:
    """A value (an int or an array of them) as a record of ``style`` writes it: ``.pls``
    numbers symbols 0..n-1 (and a hole -1), everything else 1..n (0 empty)."""
    return value - 1 if style in ZERO_BASED_STYLES else value


#: The messages of ``GridPuzzle.violations`` that quote values; the named groups ``value``,
#: ``given``, ``low`` and ``high`` hold one each.
_VALUE_MESSAGES = (
    re.compile(r".+ holds (?P<value>-?\d+), not a value in (?P<low>-?\d+)\.\.(?P<high>\d+)"),
    re.compile(r"given (?P<given>\d+) at .+ was changed to (?P<value>-?\d+)"),
    re.compile(r"value (?P<value>\d+) repeats in .+"),
)


def speak_values(message: str, style: str) -> str:
    """A violation message with its values numbered as a record of ``style`` numbers them
    (positions stay 1-based: rows and columns are not values)."""
    if style not in ZERO_BASED_STYLES:
        return message
    for pattern in _VALUE_MESSAGES:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        pieces, end = [], 0
        for name, text in match.groupdict().items():
            if text is None:
                continue
            start, stop = match.span(name)
            pieces += [message[end:start], str(written_value(style, int(text)))]
            end = stop
        return "".join(pieces) + message[end:]
    return message


class Progress:
    """Progress on stderr for batches that run longer than a couple of seconds.

    On a terminal the line is rewritten in place; otherwise one line every 10 seconds. The
    rate appears once it means something: after the first item and the first second.
    """

    def __init__(self, total: int, label: str, delay: float = 2.0):
        self.total, self.label = total, label
        self.started = time.monotonic()
        self.delay = delay
        self.tty = sys.stderr.isatty()
        self.interval = 0.25 if self.tty else 10.0
        self.last = self.started + delay - self.interval
        self.shown = False
        self.quiet = os.environ.get("SUDOKIT_NO_PROGRESS") == "1"

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if self.quiet or now - self.last < self.interval or now - self.started < self.delay:
            return
        self.last = now
        end = "\r" if self.tty else "\n"
        sys.stderr.write(f"{self.label}: {done}/{self.total}"
                         f"{self.rate(done, now - self.started)}{end}")
        sys.stderr.flush()
        self.shown = True

    @staticmethod
    def rate(done: int, elapsed: float) -> str:
        """`` (1,234/s)``, `` (2.5/s)`` or `` (0.4/s)``; empty before the first item is done
        or the first second has passed (a rate of ``0/s`` says nothing)."""
        if done < 1 or elapsed < 1.0:
            return ""
        rate = done / elapsed
        return f" ({rate:,.0f}/s)" if rate >= 10 else f" ({rate:.2g}/s)"

    def close(self) -> None:
        if self.shown and self.tty:
            sys.stderr.write("\n")


def output_option(func):
    """``-o OUT``: write the results to OUT instead of stdout."""
    return click.option("-o", "--output", metavar="OUT",
                        help="Write to OUT instead of stdout.")(func)


@contextlib.contextmanager
def output_stream(path: str | None, binary: bool = False, inputs: Sequence[str] = ()):
    """A stream for results: stdout when ``path`` is None or ``-``, else a file written
    atomically.

    The file is written next to its final place and renamed over ``path`` only when the block
    ends without an error, so an interrupted or failed run leaves the old file (or none), never
    a prefix. ``path`` must not be an existing directory or device, nor one of ``inputs`` (the
    files the command reads). Failures are one :class:`~sudokit.errors.OutputError` line.
    """
    if path is None or path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        sys.stdout.flush()
        return
    _check_output_path(path, inputs)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".sudokit-", suffix=".part")
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    try:
        with os.fdopen(handle, "wb" if binary else "w") as stream:
            yield stream
        os.chmod(temporary, 0o666 & ~_umask())  # as open() would have made it
        os.replace(temporary, path)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _check_output_path(path: str, inputs: Sequence[str]) -> None:
    if os.path.isdir(path):
        raise OutputError(f"cannot write {path}: it is a directory")
    if os.path.exists(path) and not os.path.isfile(path):
        raise OutputError(f"cannot write {path}: not a regular file (a device or a pipe); "
                          "leave out -o to write to stdout")
    for source in inputs:
        if source != "-" and os.path.exists(path) and os.path.exists(source) \
                and os.path.samefile(path, source):
            raise OutputError(f"cannot write {path}: it is the input file")


def write_output(path: str | None, data: str | bytes | None = None, writer=None,
                 inputs: Sequence[str] = ()) -> None:
    """Write ``data`` (or what ``writer(stream)`` writes to a binary stream) to ``path``, or to
    stdout when ``path`` is None (see :func:`output_stream`)."""
    with output_stream(path, binary=True, inputs=inputs) as stream:
        if writer is not None:
            writer(stream)
        elif data is not None:
            stream.write(data.encode() if isinstance(data, str) else data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
