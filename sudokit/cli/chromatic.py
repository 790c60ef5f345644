"""``sudokit chromatic``: the chromatic number of a graph, proved or bounded within a budget."""

from __future__ import annotations

import click

from ..chromatic import ChromaticResult, chromatic_number
from ..errors import EXIT_UNKNOWN
from ..formats.col import MAX_COLORS, format_coloring
from ..solvers import DEFAULT_SOLVER, SOLVERS, Budget, supports_budget
from .common import FinitePositiveFloat, check_solver, flag, load
from .output import emit_json, output_option, output_stream

#: the default --time-limit: long enough for the DIMACS graphs a SAT solver settles at all
DEFAULT_SECONDS = 60.0


def _sentence(result: ChromaticResult) -> str:
    """``chromatic number 49 (proved: clique 49, coloring 49)`` and the like."""
    if result.status != "proved":
        return (f"chromatic number unknown: between {result.lower} and {result.upper} "
                f"({result.reason})")
    clique = len(result.clique)
    why = (f"clique {clique}" if clique == result.lower
           else f"{result.lower - 1} colors refuted")
    return f"chromatic number {result.upper} (proved: {why}, coloring {result.upper})"


def _json(result: ChromaticResult, with_coloring: bool) -> dict:
    obj = {"status": result.status, "chromatic_number": result.value, "lower": result.lower,
           "upper": result.upper, "clique": len(result.clique), "reason": result.reason,
           "seconds": round(result.seconds, 6),
           "steps": [{"what": s.what, "colors": s.colors, "status": s.status,
                      "seconds": round(s.seconds, 6), "conflicts": s.conflicts}
                     for s in result.steps]}
    if with_coloring:
        obj["coloring"] = result.coloring.tolist()
    return obj


@click.command()
@click.argument("file", type=str)
@click.option("--solver", "-s", metavar="NAME",
              help=f"A PySAT SAT solver (see 'sudokit solvers'); default {DEFAULT_SOLVER}.")
@click.option("--time-limit", type=FinitePositiveFloat(), default=DEFAULT_SECONDS,
              show_default=True, metavar="SECONDS",
              help="Budget for the whole computation; when it runs out the answer is the "
                   "interval reached (exit code 5).")
@click.option("--coloring", "with_coloring", is_flag=True,
              help="Also print a coloring with the upper bound's number of colors (one line, "
                   "in vertex order).")
@click.option("--verbose", "-v", is_flag=True, help="Report each step on stderr.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object: status, chromatic_number, lower, upper, clique, reason, "
                   "seconds, steps (and coloring with --coloring).")
@output_option
@click.pass_context
def chromatic(ctx, file, solver, time_limit, with_coloring, verbose, as_json, output):
    """Bound and prove the chromatic number of the graph in FILE ('-' for stdin).

    A large clique gives the lower bound, a DSatur coloring the upper bound, and SAT calls
    with one color fewer each (the clique's colors fixed, which breaks the color symmetry)
    close the gap, all within one --time-limit. Prints 'chromatic number K (proved: ...)',
    or 'chromatic number unknown: between L and U (time limit)' with exit code 5. Precolors
    and a 'c colors' line in FILE are not used.

    \b
    Example:
      sudokit examples myciel3-precolored | sudokit chromatic -
      sudokit examples myciel3-precolored | sudokit chromatic --json --coloring -
      sudokit chromatic --time-limit 10 -v "$(sudokit examples --path myciel3-precolored)"
    """
    name = check_solver(solver) or DEFAULT_SOLVER
    if name not in SOLVERS:
        raise click.BadParameter(f"{name} is not a SAT solver; the chromatic number needs "
                                 "one (see 'sudokit solvers')", param_hint=flag(ctx, "solver"))
    if not supports_budget(name):
        raise click.BadParameter(f"{name} honours no time budget; choose another SAT solver",
                                 param_hint=flag(ctx, "solver"))
    (record,) = load(file, "coloring", None, MAX_COLORS)

    def report(step):
        click.echo(f"chromatic: {step.describe()}", err=True)

    with output_stream(output, inputs=(file,)) as out:   # a bad OUT fails before the search
        result = chromatic_number(record.instance, name, Budget(seconds=time_limit),
                                  progress=report if verbose else None)
        if as_json:
            emit_json(_json(result, with_coloring), out)
        else:
            click.echo(_sentence(result), file=out)
            if with_coloring:
                click.echo(format_coloring(result.coloring), file=out)
    if result.status != "proved":
        ctx.exit(EXIT_UNKNOWN)
