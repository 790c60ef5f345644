"""``sudokit solvers``: the engines of the registry, by name."""

from __future__ import annotations

import click

from ..solvers import DEFAULT_SOLVER, ENGINES
from .output import emit_json


@click.command()
@click.option("--json", "as_json", is_flag=True, help="As a JSON object name -> description.")
def solvers(as_json):
    """List the solvers: the SAT solvers by PySAT name, then dlx (exact cover).

    PySAT's short aliases (g4, cd19, m22 ...) are accepted wherever a name is.

    \b
    Example:
      sudokit solvers
    """
    every = {name: spec.description for name, spec in ENGINES.items()}
    if as_json:
        emit_json(every)
        return
    width = max(map(len, every))
    for name, text in every.items():
        mark = " (default)" if name == DEFAULT_SOLVER else ""
        click.echo(f"{name:<{width}}  {text}{mark}")
