"""The command group: one line and a documented exit code for every error, interrupt and
signal, never a traceback, from the moment the command line starts loading (a signal then is
held, :func:`sudokit._signals.signals_held`) to its last flush of standard output; and the
``--skip-bad`` bookkeeping that ends in exit 4."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
import threading
import time

import click

from .._accel import mode
from .._signals import signals_held, take_held_signal
from ..errors import (
    EXIT_INTERNAL,
    EXIT_INVALID_INPUT,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_RESOURCES,
    SudokitError,
)
from ..progress import Progress, configure, enabled, quiet
from .kernels import prepare, time_limit
from .stdio import stand_in_for_closed_streams

__all__ = ["SKIP_BAD", "SudokitGroup", "Terminated", "warn_skipped"]


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every cleanup (``finally``, atomic outputs) runs."""


#: the signals received during this command (SIGINT, SIGTERM), in order
_SIGNALLED: list[int] = []


def _raise_interrupt(signum, frame):
    """Ctrl-C raises KeyboardInterrupt as Python's default does, SIGTERM :class:`Terminated`;
    both are recorded first, because one that lands inside a ctypes callback (numba compiling
    a kernel on a cold cache) cannot propagate from there: the caller then fails with some
    other error, which :class:`SudokitGroup` reports as the interrupt it was."""
    _SIGNALLED.append(signum)
    raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt


def _quiet_unraisable(unraisable) -> None:
    """Drop the "Exception ignored in ... callback" report of an interrupt (see above)."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


@contextlib.contextmanager
def _signals_as_interrupts():
    """SIGTERM ends a command the way Ctrl-C does (Python's default would kill it at once,
    leaving temporary files behind). Ctrl-C itself reaches Python between kernel slices and
    solver calls: every long kernel and every SAT call is bounded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _SIGNALLED.clear()
    previous = {signum: signal.signal(signum, _raise_interrupt)
                for signum in (signal.SIGINT, signal.SIGTERM)}
    hook, sys.unraisablehook = sys.unraisablehook, _quiet_unraisable
    try:
        yield
    finally:
        sys.unraisablehook = hook
        for signum, handler in previous.items():
            signal.signal(signum, handler)


#: errors writing standard output (a full disk, /dev/full, a quota): one line, exit 7
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _held_exit(code: int | None) -> int | None:
    """A signal held while the command line loaded or parsed (or after its command ended):
    its one line and exit code; else ``code``."""
    signum = take_held_signal()
    if signum is None:
        return code
    terminated = signum == signal.SIGTERM
    click.echo("sudokit: terminated" if terminated else "sudokit: interrupted", err=True)
    return 143 if terminated else 130


def _raise_held() -> None:
    """A signal held until the command's own handling started, raised as that handling
    raises one."""
    signum = take_held_signal()
    if signum is not None:
        _SIGNALLED.append(signum)
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt


def _write_failure(err: Exception) -> int | None:
    """A failure to write standard output as one line (none for a closed pipe, which ends
    the run quietly) and its exit code; None for any other error."""
    if isinstance(err, BrokenPipeError):  # e.g. `sudokit --help | head -1`
        _silence_stdout()
        return EXIT_OK
    if isinstance(err, SudokitError):    # a closed stdout or stdin (.stdio)
        click.echo(f"sudokit: error: {err.for_cli()}", err=True)
        return err.exit_code
    if isinstance(err, OSError) and err.errno in _WRITE_ERRORS:
        _silence_stdout()
        click.echo(f"sudokit: error: cannot write standard output: {err.strerror}", err=True)
        return EXIT_OUTPUT
    return None


def _flushed(code: int | None) -> int | None:
    """Standard output flushed before the exit (what is left would fail at the
    interpreter's exit: exit 120 and a message); a failure counts when all went well."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, SudokitError) as err:
        if code not in (None, EXIT_OK):
            _silence_stdout()
            return code
        failed = _write_failure(err)
        if failed is None:
            raise
        return failed
    return code


def _silence_stdout() -> None:
    """After a write error on stdout, point it at /dev/null so the interpreter's final flush
    does not report the same error again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


class _CompileNotice:
    """What the command line says when a kernel that no cache holds compiles in its own
    process (one a family's build did not reach): which, and, on a terminal, for how long.
    ``--quiet`` or ``SUDOKIT_NO_PROGRESS=1`` silences it with the progress lines; a
    command's progress line, where there is one, says it as its phase."""

    def __init__(self) -> None:
        self.said: set[str] = set()
        self.ticker: threading.Timer | None = None
        self.started = 0.0

    def __call__(self, module: str, started: bool) -> None:
        if quiet():
            return
        line = Progress.current   # the command's progress line says it, if it has one
        if not started:
            self._stop()
            if line is not None:
                line.phase(None)
            return
        if module not in self.said:
            self.said.add(module)
            click.echo(f"sudokit: compiling a kernel of {module} that no cache holds (once "
                       "for this installation; a few seconds)", err=True)
        if line is not None:
            line.phase(f"compiling a kernel of {module}")
        elif enabled() and sys.stderr.isatty() and self.ticker is None:   # counts in place
            self.started = time.monotonic()
            self._tick()

    def _tick(self) -> None:
        if self.ticker is not None:
            click.echo(f"\rsudokit: compiling: {time.monotonic() - self.started:.0f} s",
                       err=True, nl=False)
        self.ticker = threading.Timer(1.0, self._tick)
        self.ticker.daemon = True
        self.ticker.start()

    def _stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None
            click.echo("\r\x1b[K", err=True, nl=False)


class SudokitGroup(click.Group):
    """A click group that turns every :class:`SudokitError` into one line and an exit code,
    and every interrupt (Ctrl-C: 130, SIGTERM: 143) into one line and a clean exit."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        """As :meth:`click.Command.main`, standalone: SIGINT and SIGTERM are held until the
        command's own handling starts (one that came while the command line loaded or
        parsed: one line and 130 or 143), closed standard streams have stand-ins
        (:mod:`.stdio`), and standard output is flushed before the exit (a full disk: one
        line and exit 7). Not standalone (a command run from another): click's own."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        code: int | None = None
        with signals_held():
            stand_in_for_closed_streams()
            code = _held_exit(None)
            if code is None:
                try:
                    super().main(args, prog_name, complete_var, standalone_mode, **extra)
                except SystemExit as done:
                    code = done.code if isinstance(done.code, int) or done.code is None \
                        else 1
            code = _flushed(_held_exit(code))
        sys.exit(code)

    def make_context(self, info_name, args, parent=None, **extra):
        """As click's, with a failure to write ``--help`` or ``--version`` as one line and
        its exit code (7: a full disk or closed standard output)."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except (OSError, SudokitError) as err:
            code = _write_failure(err)
            if code is None:
                raise
            raise click.exceptions.Exit(code) from None

    def invoke(self, ctx):
        time_limit(None)   # until the command reads its own --time-limit
        configure(None)    # until the command reads its own --progress or --quiet
        with mode.command_line(_CompileNotice(), prepare), _signals_as_interrupts():
            return self._invoke(ctx)

    def _invoke(self, ctx):
        try:
            _raise_held()
            result = super().invoke(ctx)
        except click.exceptions.Exit as done:
            _report_skipped(ctx, done.exit_code)
            raise
        except SudokitError as err:
            click.echo(f"sudokit: error: {err.for_cli()}", err=True)
            ctx.exit(err.exit_code)
        except BrokenPipeError as err:  # e.g. `sudokit solve big.txt | head`
            ctx.exit(_write_failure(err))
        except Terminated:
            click.echo("sudokit: terminated", err=True)
            ctx.exit(143)
        except KeyboardInterrupt:
            click.echo("sudokit: interrupted", err=True)
            ctx.exit(130)
        except OSError as err:
            code = _write_failure(err)
            if code is None:
                raise
            ctx.exit(code)
        except click.ClickException as err:  # usage errors too: one line, their own code
            click.echo(f"sudokit: error: {err.format_message()}", err=True)
            ctx.exit(err.exit_code)
        except MemoryError as err:  # an allocation no estimate foresaw: as --max-memory's
            click.echo(f"sudokit: error: out of memory{': ' if str(err) else ''}{err}",
                       err=True)
            ctx.exit(EXIT_RESOURCES)
        except Exception as err:  # a bug: still one line, with a way to see the traceback
            if _SIGNALLED:  # an interrupt that surfaced as another error (see _raise_interrupt)
                terminated = _SIGNALLED[0] == signal.SIGTERM
                click.echo("sudokit: terminated" if terminated else "sudokit: interrupted",
                           err=True)
                ctx.exit(143 if terminated else 130)
            if os.environ.get("SUDOKIT_DEBUG") == "1":
                raise
            click.echo(f"sudokit: internal error: {type(err).__name__}: {err} "
                       "(set SUDOKIT_DEBUG=1 for the traceback and please report it)", err=True)
            ctx.exit(EXIT_INTERNAL)
        _report_skipped(ctx, 0)
        return result


_SKIPPED, SKIP_BAD = "sudokit.skipped", "sudokit.skip_bad"


def warn_skipped(err: SudokitError) -> None:
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
