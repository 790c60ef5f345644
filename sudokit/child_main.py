"""The child process of :func:`sudokit.child.run_child`: one task, run as a script by path.

Ganak and ApproxMC are C++ calls that neither take a time limit nor return to Python before
they finish, so :mod:`sudokit.counting` runs them here, in a process its parent can kill: a
budget then holds, and Ctrl-C ends the count at once. This file imports nothing of sudokit
for a count (starting it costs only the interpreter and the counter's module). Any other
task is a ``"module:function"`` reference called with the job, e.g. the ILP fill
(:func:`sudokit.generators.fill_ilp.fill_job`), run here for the same reason: HiGHS answers
a cancel only at its own check points.

Protocol: standard input holds a pickled dict, the job (``task``: ``"ganak"``,
``"approxmc"`` or a reference; for the counters ``num_vars``, ``blocks``: 2-D int32 clause
arrays, ``projection``: variable ids, ``seed``, ``epsilon``, ``delta``); the last line of
standard output is one JSON object: ``{"count": "<decimal>"}`` for Ganak,
``{"cells": C, "hashes": H}`` for ApproxMC (estimate ``C * 2**H``; ``{"exact": "<decimal>"}``
when the job's ``exact_below`` is set and the count is below it), what a referenced
function returns, or ``{"error": "..."}``.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import signal
import sys


def _ganak(job):
    import pyganak

    counter = pyganak.Counter(verbose=0, seed=int(job.get("seed") or 0))
    counter.new_vars(int(job["num_vars"]))
    for clauses in _clause_lists(job):
        counter.add_clauses(clauses)
    counter.set_sampling_set([int(var) for var in job["projection"]])
    return {"count": str(int(counter.count()))}


def _approxmc(job):
    below = int(job.get("exact_below") or 0)
    if below:
        exact = _enumerate_below(job, below)
        if exact is not None:
            return {"exact": str(exact)}
    import pyapproxmc

    counter = pyapproxmc.Counter(verbosity=0, seed=int(job.get("seed") or 0),
                                 epsilon=float(job["epsilon"]), delta=float(job["delta"]))
    for clauses in _clause_lists(job):
        counter.add_clauses(clauses)
    cells, hashes = counter.count([int(var) for var in job["projection"]])
    return {"cells": int(cells), "hashes": int(hashes)}


def _enumerate_below(job, below):
    """The exact projected count of the job's formula if it is below ``below``, else None.

    A SAT solver enumerates the models on the projection (each found is blocked on it); the
    projection variables that occur in no clause are free and double the count each. This is
    how ApproxMC itself counts a small cell; pyapproxmc 4.3 to 4.4 loses a power of two on
    small counts (it drops the multiplier of the variables its preprocessing frees: a
    formula with exactly 2 models counts 1), so small counts never reach it.
    """
    from pysat.solvers import Solver

    projection = [int(var) for var in job["projection"]]
    occurring = set()
    for block in job["blocks"]:
        occurring.update(abs(int(lit)) for lit in set(block.ravel().tolist()) if lit)
    free = sum(var not in occurring for var in projection)
    shown = [var for var in projection if var in occurring]
    if free and 2 ** free >= below:
        return None
    found = 0
    with Solver(name="cadical195") as solver:
        for clauses in _clause_lists(job):
            solver.append_formula([[lit for lit in clause if lit] for clause in clauses])
        while solver.solve():
            found += 1
            if found << free >= below:
                return None
            if not shown:
                break
            model = solver.get_model()
            solver.add_clause([-var if model[var - 1] > 0 else var for var in shown])
    return found << free


def _referenced(job):
    module, _, function = str(job["task"]).partition(":")
    return getattr(importlib.import_module(module), function)(job)


def _clause_lists(job):
    for block in job["blocks"]:
        for start in range(0, block.shape[0], 1 << 16):
            yield block[start:start + (1 << 16)].tolist()


def _die_with_parent() -> None:
    """On Linux, have the kernel kill this process when its parent dies (a parent killed by
    SIGTERM or SIGKILL cannot end its child itself); elsewhere there is no such call."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG


def _leave_own_folder() -> None:
    """Drop this script's folder, sudokit's own, from the import path Python put it on: the
    task's imports must not find sudokit's modules as top-level ones."""
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == here:
        del sys.path[0]


def main() -> int:
    _leave_own_folder()
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C in the terminal ends the task now
    _die_with_parent()
    job = pickle.load(sys.stdin.buffer)
    run = {"ganak": _ganak, "approxmc": _approxmc}.get(job["task"], _referenced)
    try:
        answer = run(job)
    except ImportError as err:
        answer = {"error": f"cannot import the counter's module ({err})"}
    except Exception as err:  # reported by the parent as one line
        answer = {"error": f"{type(err).__name__}: {err}"}
    sys.stdout.write("\n" + json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
