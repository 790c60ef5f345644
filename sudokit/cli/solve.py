"""``sudokit solve`` and ``sudokit count``: one line (or JSON object) per instance."""

from __future__ import annotations

import click

from ..errors import EXIT_UNKNOWN
from ..formats import format_instance, format_no_solution, format_solution
from ..solvers import run_batch
from .common import (
    Progress,
    check_solver,
    emit_json,
    encoding_options,
    instance_options,
    load,
    make_budget,
    solver_options,
)


def _run(ctx, file, options, task, limit=None):
    problem = "xc" if options["xc"] else options["problem"]
    records = load(file, problem, options["box"], options["colors"])
    progress = Progress(len(records), "counting" if task == "count" else "solving")
    budget = make_budget(options["time_limit"], options["conflicts"], options["nodes"])
    results = run_batch([r.instance for r in records], task=task, limit=limit,
                        solver=check_solver(options["solver"]), encoding=options["encoding"],
                        amo=options["amo"], budget=budget, progress=progress)
    unknown = False
    try:
        for record, result in zip(records, results, strict=True):
            unknown |= result.status == "unknown"
            yield record, result
    finally:
        progress.close()
    if unknown:
        ctx.exit(EXIT_UNKNOWN)


def _solution_json(solution):
    return None if solution is None else solution.tolist()


@click.command()
@click.argument("file", type=str)
@instance_options
@solver_options
@encoding_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per instance.")
@click.pass_context
def solve(ctx, file, as_json, **options):
    """Solve every instance in FILE ('-' for stdin).

    Each solution is printed in the input's own format (one line in, one line out; a grid in,
    a grid out; .pls in, .pls out; a graph's coloring as one line of colors in vertex order;
    a DIMACS .cnf's model as 's SATISFIABLE' and a 'v ... 0' line), or 'no solution' /
    'unknown' (budget exhausted, exit code 5).

    An exact cover problem in Knuth's format (--xc, or a .dlx file) prints the chosen
    options, one per line, and a blank line after the cover.

    \b
    Example:
      sudokit solve sudokit/instances/examples/top3.txt
      sudokit solve --json --solver glucose4 puzzles.txt
      sudokit solve --solver dlx sudokit/instances/examples/top3.txt
      sudokit solve --xc problem.dlx
    """
    for record, result in _run(ctx, file, options, "solve"):
        if as_json:
            emit_json({"index": result.index + 1, "line": record.line, "status": result.status,
                       "solution": _solution_json(result.solution),
                       "seconds": round(result.seconds, 6)})
        elif result.status == "sat":
            click.echo(format_solution(record, result.solution))
            if record.style == "dlx":
                click.echo()  # Knuth's programs end each cover with a blank line
        else:
            click.echo(format_no_solution(record, result.status))


@click.command()
@click.argument("file", type=str)
@click.option("--limit", "-n", type=click.IntRange(min=1), metavar="N",
              help="Stop counting at N (with 2: 0, 1 or 2 = 'at least 2', a uniqueness check).")
@instance_options
@solver_options
@encoding_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per instance.")
@click.pass_context
def count(ctx, file, limit, as_json, **options):
    """Count the solutions of every instance in FILE ('-' for stdin).

    One line per instance: the instance (one-line puzzles) or FILE:LINE, then its count, or
    'unknown' when a budget ran out (exit code 5). Only the cell values are counted, never
    auxiliary variables, so counts are exact with every encoding.

    \b
    Example:
      sudokit count sudokit/instances/examples/top3.txt --limit 2
      sudokit count --solver dlx --problem latin empty5.txt
      sudokit count --xc problem.dlx
    """
    for record, result in _run(ctx, file, options, "count", limit):
        if as_json:
            emit_json({"index": result.index + 1, "line": record.line, "status": result.status,
                       "count": result.count,
                       "complete": result.count is not None and (limit is None
                                                                 or result.count < limit),
                       "seconds": round(result.seconds, 6)})
            continue
        label = (format_instance(record, record.style) if record.style in ("line", "ints-line")
                 else f"{'<stdin>' if file == '-' else file}:{record.line}")
        click.echo(f"{label} {'unknown' if result.count is None else result.count}")
