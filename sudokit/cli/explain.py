"""``sudokit explain`` and ``sudokit hint``: the human solving path of a puzzle, or only its
next step (:mod:`sudokit.human`)."""

from __future__ import annotations

import click

from .._accel import mode
from ..errors import EXIT_CHECK_FAILED, EXIT_UNKNOWN, BudgetExhausted, SudokitError
from ..human import TECHNIQUES, level_of, steps, unique_solution
from ..human.hints import REVEAL
from ..human.path import BEYOND
from ..problems import kinds_where, problem_kind
from ..solvers.budget import Budget
from . import kernels
from .choices import Choice
from .common import FinitePositiveFloat, instance_options_for, load
from .output import emit_json, output_option, output_stream

#: the kinds these commands take: grids (Sudoku, Latin squares and their variants)
GRIDS = kinds_where(gradable=True)


def _records(file, problem, box):
    records = load(file, problem, box, None)
    for record in records:
        if not problem_kind(record.instance).gradable:
            nouns = [problem_kind(name).noun for name in GRIDS]
            raise SudokitError(f"the human techniques need {' or '.join(nouns)} puzzles; "
                               f"{record.instance.__class__.__name__} is neither")
    return records


def _skipped_note(puzzle, unique: bool) -> str | None:
    """``note: ...`` naming the techniques that do not apply to ``puzzle`` and why."""
    reasons: dict[str, list[str]] = {}
    for name, entry in TECHNIQUES.items():
        why = entry.why_not(puzzle)
        if why is None and entry.needs_unique and not unique:
            why = "uniqueness unknown"
        if why is not None:
            reasons.setdefault(why, []).append(name)
    if not reasons:
        return None
    return "note: techniques skipped: " + "; ".join(
        f"{', '.join(names)} ({why})" for why, names in reasons.items())


def _skipped(puzzle) -> list[str]:
    return [name for name, entry in TECHNIQUES.items() if entry.why_not(puzzle) is not None]


def _prepare(time_limit) -> None:
    """The human kernels compiled first where no cache has them, within ``time_limit``."""
    kernels.time_limit(time_limit)
    mode.prepare("human")


def _solutions(puzzle, time_limit) -> int | None:
    """0, 1 or 2 (several), None when the time limit ran out first."""
    try:
        count, _ = unique_solution(puzzle, Budget(seconds=time_limit))
    except BudgetExhausted:
        return None
    return count


_VERDICT = {0: "no solution: nothing to explain",
            2: "several solutions: nothing to explain (a human path needs one solution)"}


@click.command()
@click.argument("file", type=str)
@instance_options_for(GRIDS)
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per puzzle: solutions, solved, rating, level, hardest, "
                   "skipped techniques and every step (technique, rating, placements, "
                   "eliminations, pattern, houses, text; cells 0-based).")
@click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
              help="Time budget per puzzle (the uniqueness check and the path together); "
                   "past it the path stops, 'unknown' is printed and the exit code is 5.")
@output_option
@click.pass_context
def explain(ctx, file, problem, box, as_json, time_limit, output):
    """Explain every puzzle in FILE ('-' for stdin) step by step, as a person solves it.

    One step per line, in the notation of solvers (cells r1c1 to r9c9, 1-based): a placement
    'r3c5 = 7 (hidden single in box 2)' or the candidates removed, '-4 r5c3', after the
    pattern that removes them. At each step the easiest technique that makes progress is
    used, Sudoku Explainer's way; the last line gives the rating (SE scale), the level and
    the hardest technique. A puzzle with no solution or several is said to be so and not
    explained (exit code 1); techniques that do not apply to a variant or a Latin square
    are skipped and a note names them.

    \b
    Example:
      sudokit examples top3 | sudokit explain - | tail -3
      sudokit examples x9 | sudokit explain --json -
    """
    records = _records(file, problem, box)
    _prepare(time_limit)
    failed = unknown = False
    with output_stream(output, inputs=(file,)) as out:
        for number, record in enumerate(records, 1):
            puzzle = record.instance
            if len(records) > 1 and not as_json:
                click.echo(("" if number == 1 else "\n") + f"# puzzle {number}", file=out)
            count = _solutions(puzzle, time_limit)
            if count != 1:
                failed = failed or count is not None
                unknown = unknown or count is None
                text = "unknown: the time limit ran out in the uniqueness check" \
                    if count is None else _VERDICT[min(count, 2)]
                if as_json:
                    emit_json({"index": number, "line": record.line, "solutions": count,
                               "error": text}, out)
                else:
                    click.echo(text, file=out)
                continue
            note = _skipped_note(puzzle, True)
            if note and not as_json:
                click.echo(note, file=out)
            found, stopped = [], False
            try:
                for step in steps(puzzle, budget=Budget(seconds=time_limit)):
                    found.append(step)
                    if not as_json:
                        click.echo(step.text, file=out)
                        out.flush()
            except BudgetExhausted:
                stopped = unknown = True
            empty = int((puzzle.givens == 0).sum()) - sum(len(s.placements) for s in found)
            solved = empty == 0
            hardest = max(found, key=lambda s: s.rating, default=None)
            rating = (hardest.rating if hardest else 0.0) if solved else \
                max(BEYOND, hardest.rating if hardest else 0.0)
            if as_json:
                emit_json({"index": number, "line": record.line, "solutions": 1,
                           "solved": solved, "unknown": stopped,
                           "rating": None if stopped else rating,
                           "level": None if stopped else level_of(rating),
                           "hardest": hardest.technique if hardest and solved else
                           (None if stopped else "beyond"),
                           "skipped": _skipped(puzzle),
                           "steps": [s.to_json() for s in found]}, out)
            elif stopped:
                click.echo(f"unknown: the time limit ran out after {len(found)} steps", file=out)
            elif solved:
                name = hardest.technique if hardest else "none"
                click.echo(f"solved in {len(found)} steps: rating {rating} "
                           f"({level_of(rating)}), hardest {name}", file=out)
            else:
                click.echo(f"stuck after {len(found)} steps, {empty} cells left: beyond the "
                           f"technique set (rating {rating}+, {level_of(rating)})", file=out)
    if failed:
        ctx.exit(EXIT_CHECK_FAILED)
    if unknown:
        ctx.exit(EXIT_UNKNOWN)


@click.command()
@click.argument("file", type=str)
@instance_options_for(GRIDS)
@click.option("--level", "reveal", type=Choice(list(REVEAL)), default="technique",
              show_default=True,
              help="How much to reveal: " + "; ".join(f"{r.name}: {r.description}"
                                                      for r in REVEAL.values()) + ".")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per puzzle: the hint text and, with --level step, the "
                   "step itself.")
@click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
              help="Time budget per puzzle; past it 'unknown' is printed and the exit code "
                   "is 5.")
@output_option
@click.pass_context
def hint(ctx, file, problem, box, reveal, as_json, time_limit, output):
    """Print the next step of every puzzle in FILE ('-' for stdin), only as much as asked.

    The next step is the one 'explain' would print first: the easiest technique that makes
    progress. --level technique names the technique, houses adds where to look, step gives
    the whole step. A puzzle with no solution or several is said to be so (exit code 1).

    \b
    Example:
      sudokit examples top3 | sudokit hint -
      sudokit examples top3 | sudokit hint --level step -
    """
    records = _records(file, problem, box)
    _prepare(time_limit)
    failed = unknown = False
    shown = REVEAL[reveal]
    with output_stream(output, inputs=(file,)) as out:
        for number, record in enumerate(records, 1):
            puzzle = record.instance
            count = _solutions(puzzle, time_limit)
            step = None
            if count != 1:
                failed = failed or count is not None
                unknown = unknown or count is None
                text = "unknown: the time limit ran out in the uniqueness check" \
                    if count is None else _VERDICT[min(count, 2)]
            elif not (puzzle.givens == 0).any():
                text = "solved: no step left"
            else:
                try:
                    step = next(steps(puzzle, budget=Budget(seconds=time_limit)), None)
                except BudgetExhausted:
                    unknown = True
                    text = "unknown: the time limit ran out"
                else:
                    text = shown.show(step, puzzle.n) if step is not None else \
                        "no step found: beyond the technique set"
            if as_json:
                obj = {"index": number, "line": record.line, "solutions": count,
                       "level": reveal, "hint": text}
                if reveal == "step" and step is not None:
                    obj["step"] = step.to_json()
                emit_json(obj, out)
            else:
                click.echo(text, file=out)
    if failed:
        ctx.exit(EXIT_CHECK_FAILED)
    if unknown:
        ctx.exit(EXIT_UNKNOWN)
