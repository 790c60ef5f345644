"""``count --counter``: the model counter options of ``sudokit count`` and their checks (the
counters themselves: :mod:`sudokit.counting`; they count on the batch road,
:mod:`sudokit.batch`)."""

from __future__ import annotations

import click

from ..counting import COUNTERS, DEFAULT_COUNTER
from .choices import Choice
from .common import FinitePositiveFloat, flag, is_given

__all__ = ["check_counter", "counter_options"]

#: the options of ``count`` that only some counters take: option name -> counter option
#: (``spec.options``), or None for the solver-engine options (``spec.engines``)
_COUNTER_OPTIONS = {"limit": "limit", "epsilon": "epsilon", "delta": "delta", "seed": "seed",
                    "solver": "solver", "encoding": "encoding", "amo": "amo",
                    "conflicts": None, "nodes": None, "jobs": None, "scheduler": None}


def counter_options(func):
    """``--counter``, ``--epsilon``, ``--delta`` and ``--seed``."""
    func = click.option("--seed", type=click.IntRange(min=0), metavar="S",
                        help="approxmc (and ganak): random seed; the same seed gives the same "
                             "estimate (default 1; ganak 0).")(func)
    func = click.option("--delta", type=click.FloatRange(0, 1, min_open=True, max_open=True),
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
