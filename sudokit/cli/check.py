"""``sudokit check``: verify a certificate, the polynomial check behind NP membership."""

from __future__ import annotations

import click
import numpy as np

from ..errors import EXIT_CHECK_FAILED, ParseError
from ..formats import read_text
from ..formats.solutions import parse_solutions
from .common import instance_options, load
from .output import output_option, output_stream, speak_values


def _candidates(records, path: str) -> list[np.ndarray]:
    text, source = read_text(path)
    return parse_solutions(text, source, records[0].instance)


@click.command()
@click.argument("puzzle", type=str)
@click.argument("solution", type=str)
@instance_options
@output_option
@click.pass_context
def check(ctx, puzzle, solution, problem, box, colors, output):
    """Check that SOLUTION completes PUZZLE (either may be '-' for stdin).

    Prints 'valid' (exit 0) or 'invalid:' and the first violated unit or given (exit 1), one
    line per instance. A grid's solution is in any grid format; a graph's is one line of colors
    in vertex order, as 'sudokit solve' prints it; a .cnf's is a model ('v' lines or literals);
    an exact cover's is its options, one per line. Values are named as PUZZLE numbers them
    (.pls from 0).

    \b
    Example:
      sudokit solve sudokit/instances/examples/top3.txt > solved.txt
      sudokit check sudokit/instances/examples/top3.txt solved.txt
    """
    with output_stream(output, inputs=(puzzle, solution)) as out:
        records = load(puzzle, problem, box, colors)
        answers = _candidates(records, solution)
        if len(answers) != len(records):
            raise ParseError(f"{len(records)} instance(s) in {puzzle} but {len(answers)} "
                             f"solution(s) in {solution}")
        failed = False
        for index, (record, answer) in enumerate(zip(records, answers, strict=True), start=1):
            problems = record.instance.violations(answer)
            prefix = f"{index}: " if len(records) > 1 else ""
            click.echo(f"{prefix}invalid: {speak_values(problems[0], record.style)}"
                       if problems else f"{prefix}valid", file=out)
            failed |= bool(problems)
    if failed:
        ctx.exit(EXIT_CHECK_FAILED)
