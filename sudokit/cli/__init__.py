"""The ``sudokit`` command line: a click group; each command is thin (parse, call, render).

Exit codes are those of :mod:`sudokit.errors`: 0 success, 1 certificate rejected by ``check``,
2 usage error, 3 unreadable file, 4 invalid input, 5 unknown (budget ran out), 6 solver error.
"""

from __future__ import annotations

import click

from .. import __version__
from .check import check
from .common import SudokitGroup
from .encode import encode
from .generate import generate
from .grade import grade
from .info import solvers
from .reduce import reduce
from .solve import count, solve

__all__ = ["main"]


@click.group(cls=SudokitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sudokit")
def main():
    """Sudoku, Latin square completion and precoloring extension as SAT.

    Every FILE may be '-' for stdin. Results go to stdout, diagnostics to stderr.

    \b
    Example:
      sudokit solve sudokit/instances/examples/top3.txt
      sudokit count sudokit/instances/examples/top3.txt --limit 2
      sudokit encode --cnf sudokit/instances/examples/top3.txt -o puzzle.cnf
    """


for command in (solve, count, encode, check, reduce, generate, grade, solvers):
    main.add_command(command)
