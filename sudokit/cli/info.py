"""``sudokit solvers``: the PySAT back ends by name."""

from __future__ import annotations

import click

from ..solvers import DEFAULT_SOLVER, SOLVERS
from .common import emit_json


@click.command()
@click.option("--json", "as_json", is_flag=True, help="As a JSON object name -> description.")
def solvers(as_json):
    """List the SAT solvers by PySAT name, each with a one-line description.

    PySAT's short aliases (g4, cd19, m22 ...) are accepted wherever a name is.

    \b
    Example:
      sudokit solvers
    """
    if as_json:
        emit_json(SOLVERS)
        return
    width = max(map(len, SOLVERS))
    for name, text in SOLVERS.items():
        mark = " (default)" if name == DEFAULT_SOLVER else ""
        click.echo(f"{name:<{width}}  {text}{mark}")
