"""``count --counter`` and ``count --method``: the model counter and counting method options
of ``sudokit count``, their checks, and the road that counts an instance by a method (the
counters and methods themselves: :mod:`sudokit.counting`; everything else counts on the
batch road, :mod:`sudokit.batch`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import click
import numpy as np

from ..batch import Answers
from ..batch.answers import STATUSES
from ..batch.run import Run, instances_of
from ..counting import COUNTERS, DEFAULT_COUNTER
from ..counting.completions import COMPLETION_ENGINE, Mapper
from ..counting.methods import AUTO, METHODS, PLAIN, choose_method, method_choices
from ..solvers.registry import ENGINES, resolve_solver
from .choices import Choice
from .common import FiniteFloat, FinitePositiveFloat, IntBelow, flag, is_given
from .jobs import cluster_client, on_cluster
from .output import Progress

__all__ = ["check_counter", "check_method", "counter_options", "method_options",
           "method_runs"]

#: the options of ``count`` that only some counters take: option name -> counter option
#: (``spec.options``), or None for the solver-engine options (``spec.engines``)
_COUNTER_OPTIONS = {"limit": "limit", "epsilon": "epsilon", "delta": "delta", "seed": "seed",
                    "solver": "solver", "encoding": "encoding", "amo": "amo",
                    "conflicts": None, "nodes": None, "jobs": None, "scheduler": None}


def counter_options(func):
    """``--counter``, ``--epsilon``, ``--delta`` and ``--seed``."""
    func = click.option("--seed", type=IntBelow(0, 32), metavar="S",
                        help="approxmc (and ganak): random seed; the same seed gives the same "
                             "estimate (default 1; ganak 0).")(func)
    func = click.option("--delta", type=FiniteFloat(0, 1, min_open=True, max_open=True),
                        metavar="D",
                        help="approxmc: the estimate may miss its tolerance with probability "
                             "at most D, 0 < D < 1 (default 0.2).")(func)
    func = click.option("--epsilon", type=FinitePositiveFloat(), metavar="E",
                        help="approxmc: the estimate lies within a factor 1+E of the count, "
                             "E > 0 (default 0.8).")(func)
    names = ", ".join(f"{name} ({spec.description})" for name, spec in COUNTERS.items())
    return click.option("--counter", "-c", type=Choice(list(COUNTERS)),
                        default=DEFAULT_COUNTER, show_default=True,
                        help=f"How to count: {names}. ganak and approxmc need "
                             f"{COUNTERS['ganak'].install}.")(func)


def check_counter(ctx: click.Context, counter: str) -> None:
    """Usage errors for the options that the chosen counter does not take, and for a
    verdict (``--summary``, ``--require-unique``) asked of an estimate."""
    spec = COUNTERS[counter]
    for name, option in _COUNTER_OPTIONS.items():
        if name not in ctx.params or not is_given(ctx, name):
            continue
        takes = spec.engines if option is None else option in spec.options
        if not takes:
            users = [other for other, s in COUNTERS.items()
                     if (s.engines if option is None else option in s.options)]
            raise click.UsageError(f"{flag(ctx, name)} does not apply to --counter {counter} "
                                   f"(only to {', '.join(users)})")
    if not spec.exact:
        for name in ("summary", "require_unique"):
            if is_given(ctx, name):
                raise click.UsageError(f"{flag(ctx, name)} needs an exact count; --counter "
                                       f"{counter} estimates")


def method_options(func):
    """``--method``, ``--explain`` and ``--checkpoint``."""
    func = click.option("--checkpoint", type=click.Path(dir_okay=False), metavar="PATH",
                        help="A counting method keeps each class's completions in PATH as it "
                             "counts them; run again, it reads them back and counts only "
                             "the rest.")(func)
    func = click.option("--explain", is_flag=True,
                        help="After a count made by a method, its decomposition: the classes, "
                             "their sizes and completions, the multiplier.")(func)
    names = "; ".join(f"{name}: {spec.description}" for name, spec in METHODS.items())
    return click.option(
        "--method", type=Choice(method_choices()), default=AUTO, show_default=True,
        help=f"How to split a count: {names}; plain: none (enumerate). auto picks a method "
             "for an instance it applies to when no --solver, --limit, --counter or --jobs "
             "is given, else plain; a named method counts its classes with --solver, on the "
             "workers of --jobs/--scheduler.")(func)


#: options a counting method does not take, with the reason (it counts exactly, serially)
_NOT_WITH_METHOD = ("limit", "counter", "conflicts", "nodes", "encoding", "amo",
                    "require_unique")
#: options that keep ``auto`` plain: an engine's own enumeration, the batch road's cluster
_PLAIN_FOR_AUTO = ("solver", "jobs", "scheduler")


def check_method(ctx: click.Context, options: dict) -> str:
    """The method ``count`` applies (``auto``, ``plain`` or a method of the registry), after
    the usage errors of a method named with an option it does not take; ``auto`` with such
    an option, or with ``--solver`` (which asks for that engine's enumeration), is
    ``plain``."""
    method = options["method"]
    clashes = [flag(ctx, name) for name in _NOT_WITH_METHOD
               if name in ctx.params and is_given(ctx, name)]
    if method in METHODS and clashes:
        raise click.UsageError(f"{clashes[0]} does not apply to --method {method} (it counts "
                               "exactly, with the engines, one instance at a time)")
    if method == AUTO and (clashes or any(is_given(ctx, name) for name in _PLAIN_FOR_AUTO)):
        method = PLAIN
    for name in ("explain", "checkpoint"):
        if is_given(ctx, name) and method == PLAIN:
            raise click.UsageError(f"{flag(ctx, name)} needs a counting method (--method "
                                   f"{' or '.join(METHODS)}, or auto without --solver, "
                                   "--limit and the other enumeration options)")
    return method


def method_runs(spec: Any, options: dict, stack: contextlib.ExitStack | None = None
                ) -> Callable[[Any], Iterator[Run]] | None:
    """For :func:`~sudokit.batch.answer_chunks`: the runs of a chunk, with each instance
    that ``options["method"]`` counts (``auto``: one a method applies to) counted by it on
    its own: with ``explain``, its decomposition kept in its answer's extras; with
    ``checkpoint``, its classes' completions kept in that file; with ``--jobs`` or
    ``--scheduler`` (a client opened on ``stack``), its classes counted on the workers.
    None for ``plain``: every instance on the engines' road."""
    method = options.get("method", PLAIN)
    if method == PLAIN:
        return None
    solver = spec.engine.name if spec.engine is not None else None
    mapper = _cluster_mapper(options, solver, stack)
    explain, checkpoint = bool(options.get("explain")), options.get("checkpoint")

    def runs(chunk: Any) -> Iterator[Run]:
        for start, stop, chosen in _runs(chunk, method):
            if chosen == PLAIN:
                yield start, stop, None
                continue

            def counted(part: Any, chosen: str = chosen) -> Answers:
                (instance,) = instances_of(part)
                return _by_method(instance, chosen, spec, solver, explain, checkpoint, mapper)
            yield start, stop, counted

    return runs


def _cluster_mapper(options: dict, solver: str | None,
                    stack: contextlib.ExitStack | None) -> Mapper | None:
    """With ``--jobs``/``--scheduler``: a mapper that sends each class to a worker (its
    client opened on ``stack``, the completion engine's kernels compiled there first)."""
    if stack is None or not on_cluster(options):
        return None
    family = ENGINES[resolve_solver(solver) if solver else COMPLETION_ENGINE].kernels
    client = stack.enter_context(cluster_client(options, (family,) if family else ()))

    def mapper(function: Callable[..., Any], items: list[Any]) -> Iterator[Any]:
        if not items:
            return
        futures = client.map(function, *zip(*items, strict=True), pure=False)
        for future in futures:
            yield future.result()

    return mapper


def _runs(chunk: Any, method: str) -> Iterator[tuple[int, int, str]]:
    """``(start, stop, method)``: runs of the chunk's instances counted plainly, and each
    instance a method counts on its own (a method that does not apply raises its usage
    error). With ``auto``, a chunk of one-line puzzles none of them empty is one run."""
    values = getattr(chunk, "values", None)
    if method == AUTO and values is not None and not (values == 0).all(axis=1).any():
        yield 0, len(values), PLAIN
        return
    instances = instances_of(chunk)
    start = 0
    for at, instance in enumerate(instances):
        chosen = choose_method(instance, method)
        if chosen == PLAIN:
            continue
        if start < at:
            yield start, at, PLAIN
        yield at, at + 1, chosen
        start = at + 1
    if start < len(instances):
        yield start, len(instances), PLAIN


def _by_method(instance: Any, method: str, spec: Any, solver: str | None,
               explain: bool, checkpoint: str | None, mapper: Mapper | None) -> Answers:
    """One instance's answer, counted by ``method``."""
    started = time.monotonic()
    progress = Progress(0, "counting classes", ticking=True)

    def classes(done: int, total: int) -> None:
        progress.total = total
        progress(done)

    try:
        result = METHODS[method].load()(instance, spec.budget, solver=solver,
                                        checkpoint=checkpoint, mapper=mapper,
                                        progress=classes)
    finally:
        progress.close()
    extra: dict[str, Any] = {"method": method}
    if explain and result.decomposition is not None:
        extra["decomposition"] = result.decomposition
    code = STATUSES.index(result.status)
    count = int(result.count or 0)
    counts = np.array([count], dtype=object if count >= 2 ** 63 else np.int64)
    return Answers(np.array([code], np.int8), counts, None,
                   np.array([time.monotonic() - started]), [extra])
