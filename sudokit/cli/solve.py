"""``sudokit solve`` and ``sudokit count``: one line (or JSON object) per instance.

Each command is options -> :class:`~sudokit.batch.RunSpec` -> the input's chunks -> answers
(:func:`~sudokit.batch.answer_chunks`, or on a Dask cluster
:func:`~sudokit.batch.dask.answer_on_cluster`) -> :class:`~.answers.AnswerWriter`."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterable, Iterator
from typing import IO, Any

import click

from ..batch import RunSpec, answer_chunks
from ..batch.dask import answer_on_cluster
from ..batch.run import instances_of
from ..counting import COUNTERS
from ..errors import EXIT_CHECK_FAILED, EXIT_UNKNOWN
from ..progress import Progress
from ..solvers.registry import FAST_GRID_SOLVER
from .answers import AnswerWriter
from .common import (
    VARIANTS_GIVEN,
    IntBelow,
    encoding_options,
    engine_options,
    exclusive,
    file_lines,
    flag,
    instance_options,
    is_given,
    last_line,
    load_chunks,
    run_spec,
    solver_options,
    usage_errors,
)
from .counting import (
    check_counter,
    check_method,
    counter_options,
    method_options,
    method_runs,
)
from .jobs import cluster_client, jobs_options, on_cluster, starting_workers
from .output import output_option, output_stream, progress_option


def _answered(ctx: click.Context, file: str, options: dict, spec: RunSpec, out: IO,
              columns: bool) -> Iterator[tuple[Any, Any]]:
    """``(part, answers)`` for every instance of FILE, in order, as each part is answered:
    FILE is read, answered and written a chunk at a time (:func:`~.common.load_chunks`), so
    memory stays flat and results come out while the input is still being read (``out`` is
    flushed after each part and before more input is read).
    With ``columns``, clean pieces of one-line puzzles are read as arrays (not with
    ``--variant``)."""
    exclusive(ctx, "xc", "problem")
    parallel = on_cluster(options)
    columns = columns and not ctx.meta.get(VARIANTS_GIVEN)
    problem = "xc" if options["xc"] else options["problem"]
    total, chunks = load_chunks(file, problem, options["box"], options["colors"], columns)
    progress = Progress(total, "counting" if spec.task == "count" else "solving", ticking=True)
    lines = file_lines(file, total, progress)
    try:
        with usage_errors(ctx), contextlib.ExitStack() as stack:
            if parallel and options.get("method", "plain") == "plain":
                first, chunks = _peeked(chunks)
                families = spec.kernel_families(first, FAST_GRID_SOLVER)
                progress.phase(starting_workers(options))
                client = stack.enter_context(cluster_client(options, families))
                progress.phase(None)
                answers = answer_on_cluster(client, spec, chunks, progress)
            else:
                answers = answer_chunks(spec, _flushed_between(chunks, out), progress,
                                        method_runs(spec, options, stack))
            yield from _flushing(_placed(answers, progress, lines), out)
    finally:
        progress.close()


def _peeked(chunks: Iterable[Any]) -> tuple[Any, Iterator[Any]]:
    """The first instance of ``chunks`` (None when there is none) and the chunks, the first
    one read already and given back first."""
    remaining = iter(chunks)
    head = next(remaining, None)
    if head is None:
        return None, remaining
    found = instances_of(head)
    return (found[0] if found else None), itertools.chain([head], remaining)


def _placed(answers: Iterable[tuple[Any, Any]], progress: Progress,
            lines: int | None) -> Iterator[tuple[Any, Any]]:
    """The answers, each part's last line told to ``progress`` (its place in a file of
    ``lines`` lines; None: the total is known, or no file to place it in)."""
    for part, found in answers:
        if lines is not None and len(part):
            progress.position(last_line(part), lines)
        yield part, found


def _flushed_between(chunks: Iterable, out: IO) -> Iterator:
    """The chunks, ``out`` flushed before each next one is read (a chunk's answers are out
    before the reader waits for more input)."""
    for chunk in chunks:
        yield chunk
        out.flush()


def _flushing(parts: Iterable, out: IO) -> Iterator:
    """The parts, ``out`` flushed after each: the next part may be a hard instance, so an
    answer written is out before its search starts. Parts are engine calls sized to about
    a quarter second of work (or one slow instance each), so the flushes cost nothing
    measurable: 9 writes for 3,000 puzzles counted by minisat22."""
    for item in parts:
        yield item
        out.flush()


@click.command()
@click.argument("file", type=str)
@instance_options
@solver_options
@encoding_options
@engine_options
@jobs_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per instance.")
@output_option
@progress_option
@click.pass_context
def solve(ctx, file, as_json, output, **options):
    """Solve every instance in FILE ('-' for stdin).

    Each solution is printed in the input's own format (one line in, one line out; a grid in,
    a grid out; .pls in, .pls out; a graph's coloring as one line of colors in vertex order;
    a DIMACS .cnf's model as 's SATISFIABLE' and a 'v ... 0' line), or 'no solution' /
    'unknown' (budget exhausted, exit code 5). --json numbers values as the input does
    (.pls from 0).

    An exact cover problem in Knuth's format (--xc, or a .dlx file) prints the chosen
    options, one per line, and a blank line after the cover.

    \b
    Example:
      sudokit examples top3 | sudokit solve -
      sudokit examples top3 | sudokit solve --json --solver glucose4 -
      out=$(mktemp -d) && sudokit examples top3 |
        sudokit solve --solver dlx - -o "$out/solved.txt" && echo "$out/solved.txt"
      sudokit solve "$(sudokit examples --path qwh5)"
      sudokit examples knuth6 | sudokit solve --xc -
    """
    spec = run_spec(ctx, options, "solve")
    with output_stream(output, inputs=(file,)) as out:
        writer = AnswerWriter(out, "solve", as_json=as_json)
        for part, found in _answered(ctx, file, options, spec, out, columns=True):
            writer.write(part, found)
    if writer.unknown:
        ctx.exit(EXIT_UNKNOWN)


@click.command()
@click.argument("file", type=str)
@click.option("--limit", "-n", type=IntBelow(1, 63), metavar="N",
              help="Stop counting at N (with 2: 0, 1 or 2 = 'at least 2', a uniqueness check).")
@click.option("--summary", is_flag=True,
              help="Instead of one line per instance, one table: how many instances have 0, "
                   "1 and 2+ solutions, and how many are unknown.")
@click.option("--require-unique", is_flag=True,
              help="Exit 1 when some instance does not have exactly one solution (counts up "
                   "to 2 unless --limit is given).")
@counter_options
@method_options
@instance_options
@solver_options
@encoding_options
@jobs_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per instance.")
@output_option
@progress_option
@click.pass_context
def count(ctx, file, limit, summary, require_unique, as_json, output, **options):
    """Count the solutions of every instance in FILE ('-' for stdin).

    One line per instance: the instance (one-line puzzles) or FILE:LINE, then its count, or
    'unknown' when a budget ran out (exit code 5; 'unknown (at least K)' when K solutions
    were found before). Only the cell values are counted, never auxiliary variables, so
    counts are exact with every encoding.

    --require-unique makes the exit code the uniqueness verdict: 1 when some instance has
    no solution or several (this wins over 5), else 5 when some is unknown, else 0.

    --counter ganak counts exactly without enumerating (all 6x6 grids: ~10 s; 9x9: out of reach);
    --counter approxmc prints an estimate '~E' with its guarantee: within a factor 1+epsilon
    of the count with probability at least 1-delta. Both honour --time-limit (past it:
    'unknown', exit 5) and need pip install "sudokit[counting]".

    \b
    Example:
      sudokit examples top3 | sudokit count - --limit 2
      sudokit examples top3 | sudokit count - --require-unique --summary
      sudokit examples empty5 | sudokit count --solver dlx --problem latin -
      sudokit examples knuth6 | sudokit count --xc -
      sudokit examples six | sudokit count --counter ganak -
      sudokit examples six | sudokit count --counter approxmc --epsilon 0.5 --delta 0.1 -
    """
    exclusive(ctx, "as_json", "summary")
    counter = options["counter"]
    check_counter(ctx, counter)
    verdicts = [flag(ctx, name) for name in ("summary", "require_unique") if is_given(ctx, name)]
    if limit == 1 and verdicts:
        raise click.BadParameter(f"{' and '.join(verdicts)}: telling 1 solution from 2+ "
                                 "needs a limit of 2 or more", param_hint="--limit")
    if require_unique and limit is None:
        limit = 2
    enumerates = COUNTERS[counter].engines
    if not enumerates:
        from ..counting import counter_function

        counter_function(counter)  # the missing-extra error before reading the input
    options["method"] = check_method(ctx, options)
    spec = run_spec(ctx, options, "count", limit, "enumerate" if enumerates else counter)
    with output_stream(output, inputs=(file,)) as out:
        writer = AnswerWriter(out, "count", as_json=as_json, summary=summary, limit=limit,
                              source=file)
        for part, found in _answered(ctx, file, options, spec, out, columns=enumerates):
            writer.write(part, found)
        writer.close()
    if require_unique and (writer.tally["0"] or writer.tally["2+"]):
        ctx.exit(EXIT_CHECK_FAILED)
    if writer.unknown:
        ctx.exit(EXIT_UNKNOWN)
