"""``sudokit check``: verify a certificate, the polynomial check behind NP membership."""

from __future__ import annotations

import click
import numpy as np

from ..errors import EXIT_CHECK_FAILED, ParseError
from ..formats import parse_instances, read_text
from .common import instance_options, load


def _integer_lines(text: str, source: str) -> list[np.ndarray]:
    """One integer array per non-comment line (a graph coloring: colors in vertex order)."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = line.split()
        if not tokens or line.lstrip().startswith(("#", "c ")):
            continue
        bad = next((t for t in tokens if not t.lstrip("-").isdigit()), None)
        if bad is not None:
            raise ParseError(f"not an integer: {bad!r}", source, number, line.find(bad) + 1)
        found.append(np.array(tokens, dtype=np.int64))
    return found


def _models(text: str, source: str) -> list[np.ndarray]:
    """A DIMACS model: SAT-competition output ('s' and 'v' lines) or bare literals."""
    kept = [line[1:] if line.startswith("v") else line for line in text.splitlines()
            if not line.startswith(("s", "c"))]
    return [np.concatenate(_integer_lines("\n".join(kept), source) or [np.zeros(0, np.int64)])]


def _candidates(records, path: str) -> list[np.ndarray]:
    text, source = read_text(path)
    first = records[0].instance
    if first.kind in _OTHER_SOLUTION_READERS:
        return _OTHER_SOLUTION_READERS[first.kind](text, source)
    box = getattr(first, "box", None)
    return [r.instance.givens for r in parse_instances(text, source, "solution", box)]


_OTHER_SOLUTION_READERS = {"coloring": _integer_lines, "cnf": _models}


@click.command()
@click.argument("puzzle", type=str)
@click.argument("solution", type=str)
@instance_options
@click.pass_context
def check(ctx, puzzle, solution, problem, box, colors):
    """Check that SOLUTION completes PUZZLE (either may be '-' for stdin).

    Prints 'valid' (exit 0) or 'invalid:' and the first violated unit or given (exit 1), one
    line per instance. A grid's solution is in any grid format; a graph's is one line of colors
    in vertex order, as 'sudokit solve' prints it; a .cnf's is a model ('v' lines or literals).

    \b
    Example:
      sudokit solve sudokit/instances/examples/top3.txt > solved.txt
      sudokit check sudokit/instances/examples/top3.txt solved.txt
    """
    records = load(puzzle, problem, box, colors)
    answers = _candidates(records, solution)
    if len(answers) != len(records):
        raise ParseError(f"{len(records)} instance(s) in {puzzle} but {len(answers)} "
                         f"solution(s) in {solution}")
    failed = False
    for index, (record, answer) in enumerate(zip(records, answers), start=1):
        problems = record.instance.violations(answer)
        prefix = f"{index}: " if len(records) > 1 else ""
        click.echo(f"{prefix}invalid: {problems[0]}" if problems else f"{prefix}valid")
        failed |= bool(problems)
    if failed:
        ctx.exit(EXIT_CHECK_FAILED)
