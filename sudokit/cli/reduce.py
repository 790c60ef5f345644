"""``sudokit reduce``: run a reduction, inspect the target, solve through it, map back."""

from __future__ import annotations

import click

from ..batch import run_batch
from ..errors import EXIT_CHECK_FAILED, EXIT_UNKNOWN, DecodeError, InstanceError, ParseError
from ..formats import (
    format_instance,
    format_no_solution,
    format_solution,
    parse_solutions,
    read_text,
)
from ..formats.dimacs import parse_dimacs
from ..formats.puzzle_write import VariantHeaders
from ..formats.record import Record
from ..formats.solutions import solver_verdict
from ..instances.formula import read_model
from ..problems import PROBLEMS, problem_kind, sniff_kind, stated_kind
from ..reductions import REDUCTIONS
from ..reductions import reduce as apply_reduction
from ..refs import closest
from ..resources import check_disk
from .common import IntBelow, check_solver, instance_options_for, load, requires, solver_option
from .output import speak_values, write_output

#: the kinds some reduction starts from (``--problem`` offers these)
SOURCE_KINDS = tuple(kind for kind in PROBLEMS
                     if any(spec.source == kind for spec in REDUCTIONS.values()))

_PROBLEM_HELP = ("What FILE holds (default: the reduction's source). Said, it is checked: "
                 "another kind than the source is an error (exit 4), and stderr no longer "
                 "says what FILE was read as.")


def _list() -> None:
    width = max(map(len, REDUCTIONS))
    for spec in REDUCTIONS.values():
        kind = "parsimonious" if spec.parsimonious else "not parsimonious"
        click.echo(f"{spec.name:<{width}}  {spec.source:>8} -> {spec.target:<8}  {kind:<16}  "
                   f"{spec.reference}")


def _solve(instance, solver, task="solve", limit=None):
    return next(run_batch([instance], task=task, limit=limit, solver=check_solver(solver)))


def _render_source(record: Record, reduced, solution) -> str:
    problems = reduced.source.violations(solution)
    if problems:  # a wrong decode would be a bug in the reduction: say so plainly
        raise DecodeError(f"{reduced.name} decoded an invalid source solution: "
                          f"{speak_values(problems[0], record.style)}")
    # the '# variant:' (and 'regions:') lines, so the printed solution reads back as it is
    return VariantHeaders().before(record.instance, record.style) + \
        format_solution(record, solution)


@click.command()
@click.argument("name", required=False)
@click.argument("file", required=False)
@click.option("--list", "list_all", is_flag=True, help="List the reductions and stop.")
@click.option("-o", "--output", metavar="OUT", help="Write the target to OUT, not stdout.")
@click.option("--index", "-i", type=IntBelow(1, 63), default=1, show_default=True,
              metavar="I", help="Which instance of FILE to reduce (1-based).")
@click.option("--solve", "do_solve", is_flag=True,
              help="Solve the target, map its solution back and print the source solution.")
@click.option("--map-back", metavar="SOLUTION",
              help="Map a target solution (a file, '-' for stdin) back to the source.")
@click.option("--check", "do_check", is_flag=True,
              help="Solve source and target independently; report whether they agree.")
@click.option("--limit", "-n", type=IntBelow(1, 63), default=2, show_default=True,
              help="With --check: compare solution counts up to this many.")
@click.option("--explain", is_flag=True, help="Describe the construction for this input.")
@click.option("--force", is_flag=True,
              help="Write a target above 1 GiB (without it: exit 8).")
@solver_option
@instance_options_for(SOURCE_KINDS, problem_help=_PROBLEM_HELP)
@click.pass_context
def reduce(ctx, name, file, list_all, output, index, do_solve, map_back, do_check, limit,
           explain, force, solver, problem, box, colors):
    """Reduce instance I of FILE with reduction NAME and write the target.

    The target is written in its native format: a Sudoku grid, DIMACS .col with 'c colors'
    and 'c precolor' lines, DIMACS CNF (with a 'c p show' projection line), or Knuth's exact
    cover text. FILE is read as the reduction's source problem; '-' is stdin. When that is
    not how FILE reads on its own (one-line puzzles are Sudokus unless --problem, the
    extension or the first line says otherwise), stderr says so ('read <stdin>:1 as a 9x9
    partial Latin square'); a FILE or --problem that says another kind is an error (exit 4).
    With --map-back, FILE may instead be the CNF that X2sat or 'sudokit encode --cnf' wrote:
    its header, 'c map' and 'c given' lines hold all that decoding needs.

    \b
    Example:
      sudokit reduce --list
      sudokit examples qwh5 | sudokit reduce latin2sudoku -
      sudokit examples qwh5 | sudokit reduce latin2sudoku - --solve
      sudokit examples puzzle17 | sudokit reduce sudoku2coloring - --check
    """
    if list_all:
        _list()
        return
    if name is None or file is None:
        raise click.UsageError("give a reduction NAME and a FILE (or --list)")
    requires(ctx, "limit", "do_check")
    requires(ctx, "solver", "do_solve", "do_check")
    if name not in REDUCTIONS:
        raise click.BadParameter(f"unknown reduction {name!r}; {closest(name, REDUCTIONS)}"
                                 "'sudokit reduce --list' lists them", param_hint="NAME")
    spec = REDUCTIONS[name]
    if (map_back is not None and problem_kind(spec.target).family == "formula"
            and _names_formula(file)):
        record, reduced = _written_encoding(file, spec)
        _map_back(ctx, record, reduced, map_back)
        return
    as_said = _source_kind(spec, file, problem)
    records = load(file, spec.source, box, colors)
    if index > len(records):
        raise click.UsageError(f"--index {index}: {file} holds {len(records)} instance(s)")
    record = records[index - 1]
    reduced = apply_reduction(name, record.instance)   # a refusal: one error line, no note
    if not as_said:   # read as the reduction's source, not as the file would be read
        where = "<stdin>" if file == "-" else file
        click.echo(f"sudokit: read {where}:{record.line} as {described(record.instance)}",
                   err=True)
    if explain:
        click.echo(reduced.explain())
    if do_solve:
        result = _solve(reduced.target, solver)
        click.echo(_render_source(record, reduced, reduced.decode(result.solution))
                   if result.status == "sat" else
                   "no solution" if result.status == "unsat" else "unknown")
    if map_back is not None:
        _map_back(ctx, record, reduced, map_back)
    if do_check:
        _check(ctx, record, reduced, solver, limit)
    if not (explain or do_solve or map_back or do_check) or output:
        _write_target(reduced, output, file, force)


def _source_kind(spec, file: str, problem: str | None) -> bool:
    """Whether FILE is read as what it says it is (by ``--problem``, by its extension or first
    significant line, or, saying nothing, as every command reads such text: a Sudoku); an
    :class:`InstanceError` when what was said is not the reduction's source (a Sudoku given
    to latin2sudoku with ``--problem sudoku``)."""
    head = "" if file == "-" else _head(file)
    said, how = problem, "--problem " + str(problem)
    if said is None:
        said, how = stated_kind(file, head), "by its extension or first line"
    if said is None:
        return sniff_kind(file, head) == spec.source
    if said == spec.source:
        return True
    where = "<stdin>" if file == "-" else file
    raise InstanceError(f"{spec.name} reduces a {problem_kind(spec.source).noun}, but {where} "
                        f"holds a {problem_kind(said).noun} ({how}); 'sudokit reduce --list' "
                        "names the reductions of each kind")


def _head(path: str, size: int = 1 << 16) -> str:
    """The first ``size`` bytes of the file ``path`` as text ("" when it cannot be read: the
    reader then says why)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size).decode("utf-8", errors="replace")
    except OSError:
        return ""


def described(instance) -> str:
    """What an instance is, in a few words: ``a 9x9 partial Latin square``, ``a 6x6 Sudoku
    with 2x3 boxes``, ``a graph``.

    >>> import numpy as np
    >>> from sudokit.instances import latin_square, sudoku
    >>> described(latin_square(np.diag([1, 0, 0]))), described(sudoku(np.zeros((4, 4), int)))
    ('a 3x3 partial Latin square', 'a 4x4 partial Sudoku with 2x2 boxes')
    """
    kind = problem_kind(instance)
    if kind.family != "grid":
        return f"a {kind.noun}"
    n = instance.n
    partial = "partial " if instance.num_givens < n * n else ""
    boxes = f" with {instance.box[0]}x{instance.box[1]} boxes" if instance.box else ""
    return f"a {n}x{n} {partial}{kind.noun}{boxes}"


def _write_target(reduced, output, file, force: bool) -> None:
    style = problem_kind(reduced.target).target_style
    text = format_instance(reduced.target, style) + "\n"
    check_disk(len(text), output, f"the target of {reduced.name}", force)
    write_output(output, text, inputs=(file,))


def _names_formula(path: str) -> bool:
    """Whether FILE (not stdin) is a formula (a DIMACS CNF), by its extension or first
    significant line."""
    if path == "-":
        return False
    text, source = read_text(path)
    return problem_kind(sniff_kind(source, text)).family == "formula"


def _written_encoding(path: str, spec):
    """``(record, encoding)`` rebuilt from a CNF file sudokit wrote (its header, ``c map`` and
    ``c given`` lines: :mod:`sudokit.formats.cnf_map`)."""
    from ..formats.cnf_map import encoding_from_cnf

    text, source = read_text(path)
    encoded = encoding_from_cnf(parse_dimacs(text, source), source)
    if encoded is None:
        raise ParseError("a CNF without sudokit's header lines (the instance and "
                         "encoding); give the source instance instead", source)
    if encoded.name != spec.name:
        raise ParseError(f"written by {encoded.name}, not {spec.name}", source)
    kind = problem_kind(encoded.source)
    return Record(encoded.source, 1, kind.default_style), encoded


def _map_back(ctx, record, reduced, path) -> None:
    text, source = read_text(path)
    verdict = solver_verdict(text) if problem_kind(reduced.target).family == "formula" \
        else None
    if verdict in ("unsat", "unknown"):
        _no_model(ctx, record, verdict)
        return
    candidates = parse_solutions(text, source, reduced.target)
    if not candidates:
        raise ParseError("no target solution found", source)
    if problem_kind(reduced.target).family == "formula":
        note = read_model(candidates[0], reduced.target.cnf.num_vars).note
        if note:
            click.echo(f"sudokit: note: {note}", err=True)
    problems = reduced.target.violations(candidates[0])
    if problems:
        click.echo(f"invalid target solution: {problems[0]}")
        ctx.exit(EXIT_CHECK_FAILED)
    click.echo(_render_source(record, reduced, reduced.decode(candidates[0])))


def _no_model(ctx, record, verdict: str) -> None:
    """A solver's UNSATISFIABLE or UNKNOWN answer, mapped back: the source's line for it, as
    ``solve`` prints it (exit 0 for no solution, 5 for unknown)."""
    if verdict == "unsat":
        click.echo("sudokit: note: the solver says the formula is unsatisfiable, so the "
                   f"{problem_kind(record.instance).noun} has no solution (a claim: no model "
                   "came with it to check)", err=True)
    click.echo(format_no_solution(record, verdict))
    if verdict == "unknown":
        ctx.exit(EXIT_UNKNOWN)


def _check(ctx, record, reduced, solver, limit) -> None:
    source = _solve(record.instance, solver, "count", limit)
    target = _solve(reduced.target, solver, "count", limit)
    agree = source.status == target.status and (source.count == target.count
                                                or not reduced.parsimonious)
    note = "" if reduced.parsimonious else " (not parsimonious: only YES/NO is compared)"
    click.echo(f"source: {_outcome(source, limit)}; target: {_outcome(target, limit)}; "
               + ("agree" if agree else "DISAGREE") + note)
    if not agree:
        ctx.exit(EXIT_CHECK_FAILED)


def _outcome(result, limit) -> str:
    """``sat, 2+ solution(s)``: the status and the count (``unsat`` alone for none)."""
    if not result.count:
        return result.status
    return f"{result.status}, {result.count}{'+' if result.count == limit else ''} solution(s)"
