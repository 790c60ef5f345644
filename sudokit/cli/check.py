"""``sudokit check``: verify a certificate, the polynomial check behind NP membership."""

from __future__ import annotations

import click
import numpy as np

from ..errors import EXIT_CHECK_FAILED, EXIT_UNKNOWN, DecodeError, ParseError
from ..formats import read_text
from ..formats.solutions import VERDICT_LINES, parse_solutions, solver_verdict
from ..instances.formula import read_model
from ..problems import problem_kind
from .common import instance_options, load
from .output import output_option, output_stream, speak_values

#: what ``check`` prints, and its exit code, for a SAT solver's answer that has no model
NO_MODEL = {
    "unsat": ("unsat: the solver says the formula has no model (check verifies models; an "
              "UNSATISFIABLE answer is a claim it cannot check)", EXIT_CHECK_FAILED),
    "unknown": ("unknown: the solver did not decide the formula", EXIT_UNKNOWN),
}


def _candidates(records, path: str) -> tuple[list[np.ndarray], str | None]:
    """The candidate solutions in ``path`` and, for a formula, what the solver's answer
    claims (:func:`~sudokit.formats.solutions.solver_verdict`)."""
    text, source = read_text(path)
    if problem_kind(records[0].instance).family != "formula":
        if _looks_like_model(text):
            raise ParseError("a DIMACS model; check it against the CNF it is a "
                             "model of (sudokit check FILE.cnf MODEL), or map it back with "
                             "'sudokit reduce KIND2sat FILE.cnf --map-back MODEL'", source)
        return parse_solutions(text, source, records[0].instance), None
    verdict = solver_verdict(text)
    if verdict in NO_MODEL:
        return [], verdict
    return parse_solutions(text, source, records[0].instance), verdict


def _looks_like_model(text: str) -> bool:
    """Whether the first significant line is a SAT solver's ``s``/``v`` line or a result
    file's status line."""
    for line in text.splitlines():
        if line.strip() and not line.startswith("c"):
            return line.split()[0] in ("s", "v") or line.strip() in VERDICT_LINES
    return False


def _problems(instance, answer, source: str) -> tuple[list[str], str | None]:
    """The first violation of ``answer`` (none: valid) and, for a model, the convention note.

    A model of a CNF that sudokit wrote is also decoded through the file's own header,
    ``c map`` and ``c given`` lines, and the grid it gives is checked against the units."""
    problems = instance.violations(answer)
    if problem_kind(instance).family != "formula":
        return problems, None
    from ..formats.cnf_map import encoding_from_cnf

    note = read_model(answer, instance.cnf.num_vars).note
    encoded = encoding_from_cnf(instance.cnf, source)
    if problems or encoded is None:
        return problems, note
    try:
        decoded = encoded.decode(answer)
    except DecodeError as err:
        return [f"the model does not decode: {err}"], note
    return [f"decoded {encoded.source.kind}: {problem}"
            for problem in encoded.source.violations(decoded)], note


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
    in vertex order, as 'sudokit solve' prints it; a .cnf's is a SAT solver's answer as it
    writes it ('s'/'v' lines of CaDiCaL, Kissat or CryptoMiniSat, MiniSat's or Glucose's result
    file, or bare literals: every variable signed, or only the true ones, the rest then taken
    as false; a note on stderr says which was assumed), and a .cnf sudokit wrote is also
    decoded through its 'c map' and 'c given' lines and the decoded grid checked; an exact
    cover's is its options, one per line. Values are named as PUZZLE numbers them (.pls from
    0). An answer that says UNSATISFIABLE prints 'unsat: ...' (exit 1: there is no model to
    check), one that says UNKNOWN or INDET 'unknown: ...' (exit 5).

    \b
    Example:
      sudokit examples top3 | sudokit solve - | sudokit check "$(sudokit examples --path top3)" -
    """
    with output_stream(output, inputs=(puzzle, solution)) as out:
        records = load(puzzle, problem, box, colors)
        answers, verdict = _candidates(records, solution)
        if verdict in NO_MODEL:
            line, code = NO_MODEL[verdict]
            click.echo(line, file=out)
        else:
            code = _check_each(records, answers, puzzle, solution, out)
    if code:
        ctx.exit(code)


def _check_each(records, answers, puzzle: str, solution: str, out) -> int:
    """One ``valid`` / ``invalid:`` line per instance; the exit code."""
    if len(answers) != len(records):
        raise ParseError(f"{len(records)} instance(s) in {puzzle} but {len(answers)} "
                         f"solution(s) in {solution}")
    failed = False
    for index, (record, answer) in enumerate(zip(records, answers, strict=True), start=1):
        problems, note = _problems(record.instance, answer, puzzle)
        prefix = f"{index}: " if len(records) > 1 else ""
        if note:
            click.echo(f"sudokit: note: {prefix}{note}", err=True)
        click.echo(f"{prefix}invalid: {speak_values(problems[0], record.style)}"
                   if problems else f"{prefix}valid", file=out)
        failed |= bool(problems)
    return EXIT_CHECK_FAILED if failed else 0
