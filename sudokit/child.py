"""Run one task in a child process that a time budget and Ctrl-C can kill.

Some work is one long C++ call that takes no time limit and answers no interrupt before it
returns: a Ganak or ApproxMC count (:mod:`sudokit.counting`), a HiGHS fill
(:mod:`sudokit.generators.fill_ilp`, which answers a cancel only at its own check points),
CP-SAT's expansion of a big model (:mod:`sudokit.solvers.cpsat`, which reads no clock while
it expands). :func:`run_child` runs such a task in a child process (the script
``child_main.py`` beside this module, run by path) and kills it when the time runs out, on
Ctrl-C or on any error here, so the budget holds and Ctrl-C ends the task at once. This
module sits below the counters, the generators and the engines that share it and imports
none of them.

Protocol: the child reads one pickled dict, the *job*, from standard input. Its ``"task"``
is ``"ganak"`` or ``"approxmc"`` (the counters, built into the script so that a count
imports nothing of sudokit) or a ``"module:function"`` reference, called with the job; an
optional ``"name"`` names the task in error messages. The last line of the child's standard
output is the task's answer as one JSON object, or ``{"error": "..."}``.

Examples
--------
>>> run_child({"task": "builtins:dict", "n": 3})          # the answer: dict(job)
{'task': 'builtins:dict', 'n': 3}
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

from .errors import SolverError

__all__ = ["run_child", "CHILD_SCRIPT"]

#: the script the child runs (by path: a count starts with the interpreter and no more)
CHILD_SCRIPT = Path(__file__).with_name("child_main.py")


def run_child(job: dict[str, Any], seconds: float | None = None) -> dict[str, Any] | None:
    """Run ``job`` (see the module) in a child process: its answer, or None when ``seconds``
    ran out first (the child is killed).

    The child is killed on Ctrl-C too (which propagates) and on any error here; a child that
    fails, or answers ``{"error": ...}``, raises :class:`~sudokit.errors.SolverError` naming
    the task.
    """
    payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    child = subprocess.Popen([sys.executable, str(CHILD_SCRIPT)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = child.communicate(payload, timeout=seconds)
    except subprocess.TimeoutExpired:
        return None
    finally:  # the budget ran out, Ctrl-C, or any error here: the task ends with us
        if child.poll() is None:
            child.kill()
            child.wait()
    return _answer(str(job.get("name") or job["task"]), child.returncode, out, err)


def _answer(name: str, code: int, out: bytes, err: bytes) -> dict[str, Any]:
    lines = out.decode(errors="replace").strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict) or code != 0:
        why = err.decode(errors="replace").strip().splitlines()
        detail = why[-1] if why else f"exit code {code}"
        raise SolverError(f"{name} failed: {detail}")
    if "error" in answer:
        raise SolverError(f"{name} failed: {answer['error']}")
    return answer
