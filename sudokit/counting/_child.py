"""The child process that runs Ganak or ApproxMC on one formula (run as a script, by path).

Both counters are C++ calls that neither take a time limit nor return to Python before they
finish, so :func:`sudokit.counting.base.run_counter` runs them here, in a process it can kill:
a budget then holds, and Ctrl-C ends the count at once. This file imports nothing of sudokit
(starting it costs only the interpreter and the counter's module).

Protocol: standard input holds a pickled dict (``counter``: ``"ganak"`` or ``"approxmc"``;
``num_vars``; ``blocks``: 2-D int32 clause arrays; ``projection``: variable ids; ``seed``,
``epsilon``, ``delta``); the last line of standard output is one JSON object:
``{"count": "<decimal>"}`` for Ganak, ``{"cells": C, "hashes": H}`` for ApproxMC (estimate
``C * 2**H``), or ``{"error": "..."}``.
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


def _clause_lists(job):
    for block in job["blocks"]:
        for start in range(0, block.shape[0], 1 << 16):
            yield block[start:start + (1 << 16)].tolist()


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C in the terminal ends the count now
    job = pickle.load(sys.stdin.buffer)
    run = {"ganak": _ganak, "approxmc": _approxmc}[job["counter"]]
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
