"""``sudokit solvers``: the engines of the registry, by name."""

from __future__ import annotations

import click

from ..solvers import DEFAULT_SOLVER, ENGINES
from ..solvers.portfolio import defaults_of
from ..solvers.registry import ALL_KINDS, EngineSpec
from .output import emit_json


def _kinds(spec: EngineSpec) -> str:
    return "all" if spec.kinds == ALL_KINDS else ",".join(spec.kinds)


def _notes(spec: EngineSpec) -> str:
    notes = [] if spec.counts else ["solve only"]
    grids = defaults_of(spec.name) + (["everything else"] if spec.name == DEFAULT_SOLVER else [])
    if grids:
        notes.append("default for " + "; ".join(grids))
    if spec.name == "dlx":
        notes.append("default for exact cover")
    if spec.missing:
        notes.append(f"unavailable: {spec.install}")
    return "".join(f" ({note})" for note in notes)


@click.command()
@click.option("--json", "as_json", is_flag=True,
              help="As a JSON object: name -> description, kinds, counts, available, install.")
def solvers(as_json):
    """List the solvers: the SAT solvers by PySAT name, dlx (exact cover), the CP search
    family, ilp, cpsat and grasp.

    Each line gives the name, the problem kinds it takes (all: sudoku, latin, coloring, cnf,
    xc) and what it is. A solver whose optional dependency is missing is marked unavailable
    with the command that installs it. PySAT's short aliases (g4, cd19, m22 ...) are accepted
    wherever a name is.

    \b
    Example:
      sudokit solvers
    """
    if as_json:
        emit_json({name: {"description": spec.description, "kinds": list(spec.kinds),
                          "counts": spec.counts, "available": not spec.missing,
                          "install": spec.install}
                   for name, spec in ENGINES.items()})
        return
    width = max(map(len, ENGINES))
    kinds_width = max(len(_kinds(spec)) for spec in ENGINES.values())
    for name, spec in ENGINES.items():
        click.echo(f"{name:<{width}}  {_kinds(spec):<{kinds_width}}  {spec.description}"
                   f"{_notes(spec)}")
