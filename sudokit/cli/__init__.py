"""The ``sudokit`` command line: a click group; each command is thin (parse, call, render).

Exit codes are those of :mod:`sudokit.errors`: 0 success, 1 certificate rejected by ``check``,
2 usage error, 3 unreadable file, 4 invalid input, 5 unknown (budget ran out), 6 solver error,
7 output not written, 8 out of memory, 70 internal error; 130 interrupted (143: SIGTERM).

The command modules are imported on first use (:class:`LazyGroup`): ``generate`` and ``grade``
load numba and its kernels (0.5-1.3 s), which ``sudokit --version``, ``--help`` and the SAT
commands never need.
"""

from __future__ import annotations

import os
from gettext import gettext as _
from importlib import import_module

# No kernel or command multiplies float matrices, yet OpenBLAS (inside numpy) starts a thread
# per core when numpy is imported: about 0.1 s of CPU in every process that loads numpy (and
# wall time on a busy machine). One thread, unless the user's environment says otherwise.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .._signals import signals_held  # noqa: E402

# A Ctrl-C (or SIGTERM) while the command line loads is kept for ``main``, which ends with its
# one line and exit 130 (143), instead of a KeyboardInterrupt traceback from this import.
with signals_held():
    import click

    from .. import __version__
    from .group import SudokitGroup

__all__ = ["main", "LazyGroup", "COMMANDS"]

#: name -> ("module:attribute", short help). The short help is what the command's own docstring
#: gives (its first sentence: ``click.Command.get_short_help_str`` without a length limit), so
#: ``sudokit --help`` lists every command, byte for byte as if it were loaded, without importing
#: any; tests/test_imports.py checks the two agree.
COMMANDS: dict[str, tuple[str, str]] = {
    "chromatic": ("sudokit.cli.chromatic:chromatic",
                  "Bound and prove the chromatic number of the graph in FILE ('-' for stdin)."),
    "check": ("sudokit.cli.check:check",
              "Check that SOLUTION completes PUZZLE (either may be '-' for stdin)."),
    "count": ("sudokit.cli.solve:count",
              "Count the solutions of every instance in FILE ('-' for stdin)."),
    "draw": ("sudokit.cli.draw:draw",
             "Draw the puzzles or graphs of FILE ('-' for stdin) as SVG, PNG or PDF."),
    "encode": ("sudokit.cli.encode:encode",
               "Encode instance I of FILE ('-' for stdin) as DIMACS CNF, or with --xc as "
               "exact cover."),
    "examples": ("sudokit.cli.examples:examples",
                 "List the bundled example files, or print the one called NAME to stdout."),
    "explain": ("sudokit.cli.explain:explain",
                "Explain every puzzle in FILE ('-' for stdin) step by step, as a person "
                "solves it."),
    "generate": ("sudokit.cli.generate:generate",
                 "Generate puzzles and instances (results on stdout, progress on stderr)."),
    "grade": ("sudokit.cli.grade:grade",
              "Grade every grid puzzle in FILE ('-' for stdin) by propagation strength."),
    "hint": ("sudokit.cli.explain:hint",
             "Print the next step of every puzzle in FILE ('-' for stdin), only as much as "
             "asked."),
    "kernels": ("sudokit.cli.kernels:kernels",
                "List the compiled kernel families, or compile them with --build, then list "
                "them."),
    "reduce": ("sudokit.cli.reduce:reduce",
               "Reduce instance I of FILE with reduction NAME and write the target."),
    "solve": ("sudokit.cli.solve:solve", "Solve every instance in FILE ('-' for stdin)."),
    "solvers": ("sudokit.cli.info:solvers",
                "List the solvers: the SAT solvers by PySAT name, dlx (exact cover), the CP "
                "search family, ilp, cpsat and grasp."),
}

# click >= 8.4 raises NoSuchCommand with close matches taken from ``self.commands`` (the loaded
# commands only); older versions give no suggestions, so there is nothing to widen.
_NoSuchCommand = getattr(click.exceptions, "NoSuchCommand", None)


class LazyGroup(SudokitGroup):
    """A :class:`SudokitGroup` whose commands are imported when first resolved.

    ``lazy_commands`` maps a command name to ``("module:attribute", short help)``. Listing the
    commands (``--help``, "did you mean") imports nothing; :meth:`get_command` imports the one
    module it needs and registers the command, so it is loaded once per process.
    """

    def __init__(self, *args, lazy_commands: dict[str, tuple[str, str]] | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def get_command(self, ctx, cmd_name):
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.lazy_commands:
            module, _, attribute = self.lazy_commands[cmd_name][0].partition(":")
            command = getattr(import_module(module), attribute)
            self.add_command(command, cmd_name)
        return command

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except Exception as err:
            if _NoSuchCommand is None or not isinstance(err, _NoSuchCommand):
                raise
            raise _NoSuchCommand(err.command_name, err.message,
                                 possibilities=self.list_commands(ctx), ctx=ctx) from None

    def format_commands(self, ctx, formatter):
        """As :meth:`click.Group.format_commands`, with the table's short help for the commands
        not loaded yet (shortened to the width exactly as click shortens a docstring)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name)
            if command is None:
                command = click.Command(name, help=self.lazy_commands[name][1])
            if not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section(_("Commands")):   # as click words it
                formatter.write_dl([(name, command.get_short_help_str(limit))
                                    for name, command in rows])


@click.group(cls=LazyGroup, lazy_commands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sudokit")
def main():
    """Sudoku, Latin square completion and precoloring extension as SAT.

    Every FILE may be '-' for stdin. Results go to stdout, diagnostics to stderr.
    'sudokit examples' lists the example files that come with sudokit and prints one.

    \b
    Example:
      sudokit examples
      sudokit examples top3 | sudokit solve -
      sudokit examples top3 | sudokit count - --limit 2
      out=$(mktemp -d) && sudokit examples top3 |
        sudokit encode --cnf - -o "$out/top3.cnf" && echo "$out/top3.cnf"
    """
