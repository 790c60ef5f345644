"""The whole sudokit exception hierarchy and the CLI exit codes tied to it.

Every error a user can cause is a :class:`SudokitError`. The command line turns one into a
single line on stderr and exits with the class's ``exit_code``; nothing else escapes as a
traceback. "No solution" is not an error (it is ``None`` or a count of 0); only running out of
a budget (:class:`BudgetExhausted`, "unknown") is.

Exit codes (also in docs/exit-codes.md):

====  ==========================================================
0     success (including "no solution", which is an answer)
1     ``sudokit check``: the certificate is not a solution
2     usage error: unknown option, bad option value (click)
3     a file is missing, unreadable or a directory
4     malformed or invalid input (parse or validation error)
5     unknown: a time or conflict budget ran out
6     a solver failed or does not support what was asked
7     an output cannot be written (``-o OUT``, a full disk)
8     the instance needs more memory than is available (or ``--max-memory``)
70    internal error (a bug; ``SUDOKIT_DEBUG=1`` shows the traceback)
====  ==========================================================

Examples
--------
>>> err = ParseError("unknown symbol 'x'", source="p.txt", line=3, column=7)
>>> str(err)
"p.txt:3:7: unknown symbol 'x'"
>>> err.exit_code
4
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_UNREADABLE = 3
EXIT_INVALID_INPUT = 4
EXIT_UNKNOWN = 5
EXIT_SOLVER = 6
EXIT_OUTPUT = 7
EXIT_RESOURCES = 8
EXIT_INTERNAL = 70


class SudokitError(Exception):
    """Base class of every error sudokit raises on purpose.

    The message speaks of the library's parameters; where the command line says the same
    thing with its own flags, :meth:`with_cli` stores that wording and the CLI shows it
    (:meth:`for_cli`).
    """

    exit_code = EXIT_INVALID_INPUT
    cli_message: str | None = None

    def with_cli(self, message: str) -> SudokitError:
        """This error, with ``message`` as its command-line wording."""
        self.cli_message = message
        return self

    def for_cli(self) -> str:
        """The line the command line prints (without ``sudokit: error:``)."""
        return self.cli_message or str(self)


class UnreadableFileError(SudokitError):
    """A named file is missing, unreadable or not a regular file."""

    exit_code = EXIT_UNREADABLE


class OutputError(SudokitError):
    """An output file (``-o OUT``) or stream cannot be written."""

    exit_code = EXIT_OUTPUT


class ResourceError(SudokitError):
    """An instance whose encoding would need more memory than is available or allowed."""

    exit_code = EXIT_RESOURCES


class ParseError(SudokitError):
    """Malformed text; carries ``source:line:column`` where they are known.

    Parameters
    ----------
    message : str
        What is wrong, without the location.
    source : str, optional
        File name (``<stdin>`` for standard input).
    line, column : int, optional
        1-based position of the problem.
    """

    exit_code = EXIT_INVALID_INPUT

    def __init__(self, message: str, source: str | None = None,
                 line: int | None = None, column: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self._render())

    def _render(self, message: str | None = None) -> str:
        message = message or self.message
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return ":".join(where) + ": " + message if where else message

    def for_cli(self) -> str:
        return self._render(self.cli_message)

    def located(self, source: str | None = None, line: int | None = None) -> ParseError:
        """Return a copy that fills in the source and line where they are missing."""
        copy = ParseError(self.message, self.source or source,
                          self.line if self.line is not None else line, self.column)
        copy.cli_message = self.cli_message
        return copy


class InstanceError(SudokitError):
    """A well-formed instance that breaks the problem's rules (a repeated given, a bad box)."""

    exit_code = EXIT_INVALID_INPUT


class EncodingError(SudokitError):
    """An encoding or at-most-one method that does not exist or does not apply."""

    exit_code = EXIT_USAGE


class DecodeError(SudokitError):
    """A solution of the target that cannot be mapped back to the source."""

    exit_code = EXIT_INVALID_INPUT


class SolverError(SudokitError):
    """An unknown solver name, or a solver that cannot do what was asked."""

    exit_code = EXIT_SOLVER


class UnsupportedTaskError(SolverError):
    """A solver asked for a kind of problem it does not take, or to count when it cannot."""

    exit_code = EXIT_USAGE


class MissingExtraError(SolverError):
    """A back end whose optional dependency is not installed; the message names the install
    command."""

    exit_code = EXIT_SOLVER


class BudgetExhausted(SudokitError):
    """A time, conflict or node budget ran out before an answer: the status is "unknown".

    ``found`` is the number of solutions counted before it ran out, where known.
    """

    exit_code = EXIT_UNKNOWN

    def __init__(self, message: str = "budget exhausted: unknown", found: int | None = None):
        super().__init__(message)
        self.found = found


def described(value: object) -> str:
    """What a wrong value is, for a message: its type and a short ``repr``.

    Examples
    --------
    >>> described(1.5), described(None)
    ('a float (1.5)', 'None')
    """
    if value is None:
        return "None"
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"a {type(value).__name__} ({text})"


def expect_text(value: object, taker: str) -> None:
    """Raise a :class:`ParseError` unless ``value`` is a ``str`` (what ``taker`` reads).

    Examples
    --------
    >>> expect_text(None, "parse_dimacs")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: parse_dimacs reads text (a str), not None; a file is read by \
sudokit.read_instances(path)
    """
    if not isinstance(value, str):
        raise ParseError(f"{taker} reads text (a str), not {described(value)}; a file is read "
                         "by sudokit.read_instances(path)")
