"""Shared pieces of the commands: options, error handling, reading, progress, rendering."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import click

from ..encoders import AMO_METHODS, ENCODINGS, XC_ENCODINGS
from ..errors import EXIT_INTERNAL, OutputError, SudokitError
from ..formats import read_instances
from ..instances import parse_box
from ..problems import DEFAULT_KIND, PROBLEMS
from ..solvers import DEFAULT_SOLVER, Budget, resolve_solver


class SudokitGroup(click.Group):
    """A click group that turns every :class:`SudokitError` into one line and an exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SudokitError as err:
            click.echo(f"sudokit: error: {err.for_cli()}", err=True)
            ctx.exit(err.exit_code)
        except BrokenPipeError:  # e.g. `sudokit solve big.txt | head`
            sys.stderr.close()
            ctx.exit(0)
        except KeyboardInterrupt:
            click.echo("sudokit: interrupted", err=True)
            ctx.exit(130)
        except click.exceptions.Exit:
            raise
        except click.ClickException as err:  # usage errors too: one line, their own code
            click.echo(f"sudokit: error: {err.format_message()}", err=True)
            ctx.exit(err.exit_code)
        except Exception as err:  # a bug: still one line, with a way to see the traceback
            if os.environ.get("SUDOKIT_DEBUG") == "1":
                raise
            click.echo(f"sudokit: internal error: {type(err).__name__}: {err} "
                       "(set SUDOKIT_DEBUG=1 for the traceback and please report it)", err=True)
            ctx.exit(EXIT_INTERNAL)


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
    """``--problem``, ``--box`` and ``--colors``: how to read FILE."""
    func = shape_options(func)
    func = click.option("--problem", "-p", type=click.Choice(list(PROBLEMS)),
                        help=_problem_help())(func)
    return func


def encoding_options(func):
    """``--encoding`` and ``--amo``."""
    func = click.option("--amo", type=click.Choice(list(AMO_METHODS)), default="pairwise",
                        show_default=True, help="At-most-one encoding.")(func)
    names = list(ENCODINGS) + [name for name in XC_ENCODINGS if name not in ENCODINGS]
    func = click.option("--encoding", "-e", type=click.Choice(names),
                        help="CNF encoding (default: extended for grids, direct for graphs); "
                             "with encode --xc: full (default) or reduced.")(func)
    return func


def solver_options(func):
    """``--solver``, ``--time-limit``, ``--conflicts``, ``--nodes``, ``--xc``."""
    func = click.option("--xc", "xc", is_flag=True,
                        help="FILE is an exact cover problem in Knuth's format (as --problem "
                             "xc; solved with dlx unless --solver names a SAT solver).")(func)
    func = click.option("--nodes", type=click.IntRange(min=1), metavar="N",
                        help="DLX search-node budget per instance; past it 'unknown'.")(func)
    func = click.option("--conflicts", type=click.IntRange(min=1), metavar="N",
                        help="SAT conflict budget per instance; past it 'unknown'.")(func)
    func = click.option("--time-limit", type=click.FloatRange(min=0, min_open=True),
                        metavar="SECONDS",
                        help="Time budget per instance; past it the answer is 'unknown'.")(func)
    return solver_option(func)


def solver_option(func):
    """``--solver NAME``: an engine from the registry (``sudokit solvers``)."""
    return click.option("--solver", "-s", metavar="NAME",
                        help=f"A PySAT solver or dlx (see 'sudokit solvers'); default "
                             f"{DEFAULT_SOLVER}, or dlx for exact cover problems.")(func)


def load(path: str, problem, box, colors):
    """Read every instance of FILE (``-`` for stdin)."""
    try:
        shape = parse_box(box) if box else None
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--box") from None
    return read_instances(path, problem=problem, box=shape, colors=colors)


def make_budget(time_limit, conflicts, nodes=None) -> Budget:
    return Budget(seconds=time_limit, conflicts=conflicts, nodes=nodes)


def check_solver(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return resolve_solver(name)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--solver") from None


def emit_json(obj) -> None:
    click.echo(json.dumps(obj, separators=(",", ":")))


class Progress:
    """Progress on stderr for batches that run longer than a couple of seconds.

    On a terminal the line is rewritten in place; otherwise one line every 10 seconds.
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
        rate = done / max(now - self.started, 1e-9)
        end = "\r" if self.tty else "\n"
        sys.stderr.write(f"{self.label}: {done}/{self.total} ({rate:,.0f}/s){end}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown and self.tty:
            sys.stderr.write("\n")


def output_option(func):
    """``-o OUT``: write the results to OUT instead of stdout."""
    return click.option("-o", "--output", metavar="OUT",
                        help="Write to OUT instead of stdout.")(func)


def write_output(path: str | None, data: str | bytes | None = None, writer=None) -> None:
    """Write ``data`` (or what ``writer(stream)`` writes to a binary stream) to ``path``, or to
    stdout when ``path`` is None.

    A file is written next to its final place and renamed over it only when complete, so an
    interrupted or failed run leaves the old file (or none), never a prefix. A failure is one
    :class:`~sudokit.errors.OutputError` line.
    """
    def emit(stream):
        if writer is not None:
            writer(stream)
        else:
            stream.write(data.encode() if isinstance(data, str) else data)

    if path is None:
        emit(sys.stdout.buffer)
        sys.stdout.flush()
        return
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".sudokit-", suffix=".part")
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            emit(stream)
        os.chmod(temporary, 0o666 & ~_umask())  # as open() would have made it
        os.replace(temporary, path)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
