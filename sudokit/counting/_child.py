"""The child process that runs Ganak or ApproxMC on one formula, or one ILP fill (run as a
script, by path).

Both counters are C++ calls that neither take a time limit nor return to Python before they
finish, so :func:`sudokit.counting.base.run_counter` runs them here, in a process it can kill:
a budget then holds, and Ctrl-C ends the count at once. This file imports nothing of sudokit
for a count (starting it costs only the interpreter and the counter's module). The ILP fill
(``"counter": "ilp-fill"``, :func:`sudokit.generators.fill_ilp.fill_job`) runs here for the
same reason: HiGHS answers a cancel only at its own check points.

Protocol: standard input holds a pickled dict (``counter``: ``"ganak"`` or ``"approxmc"``;
``num_vars``; ``blocks``: 2-D int32 clause arrays; ``projection``: variable ids; ``seed``,
``epsilon``, ``delta``); the last line of standard output is one JSON object:
``{"count": "<decimal>"}`` for Ganak, ``{"cells": C, "hashes": H}`` for ApproxMC (estimate
``C * 2**H``), or ``{"error": "..."}``; an ILP fill's job and answer are those of
:func:`~sudokit.generators.fill_ilp.fill_job`.
"""

from __future__ import annotations

import json
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
    import pyapproxmc

    counter = pyapproxmc.Counter(verbosity=0, seed=int(job.get("seed") or 0),
                                 epsilon=float(job["epsilon"]), delta=float(job["delta"]))
    for clauses in _clause_lists(job):
        counter.add_clauses(clauses)
    cells, hashes = counter.count([int(var) for var in job["projection"]])
    return {"cells": int(cells), "hashes": int(hashes)}


def _ilp_fill(job):
    from sudokit.generators.fill_ilp import fill_job

    return fill_job(job)


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


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C in the terminal ends the count now
    _die_with_parent()
    job = pickle.load(sys.stdin.buffer)
    run = {"ganak": _ganak, "approxmc": _approxmc, "ilp-fill": _ilp_fill}[job["counter"]]
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
