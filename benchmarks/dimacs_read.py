"""Reading DIMACS CNF: sudokit's reader against PySAT's, in the same run.

The formulas are the CNF encodings ``sudokit encode --cnf`` writes for the first gecode 25x25
puzzle of the public data (its extended encoding) and for the empty 25x25 grid (752,500
clauses, the file of issue 28). For each:

* in-process: ``sudokit.formats.dimacs.parse_dimacs`` on the text, its line-by-line reader
  (the one every file took before, still used for files with comments between clauses and to
  locate errors), and PySAT's ``CNF(from_string=...)``; CPU and wall seconds, the minimum of
  ``--repeat`` runs, the clause counts checked equal;
* whole process: ``sudokit check FILE.cnf MODEL`` (read the formula and a model, check every
  clause) against a ``python -c`` doing the same with PySAT's reader and numpy; CPU (children's
  user + system) and wall seconds.

Run: ``python benchmarks/dimacs_read.py [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import GECODE25, format_table, log  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

PEER_CHECK = """\
import sys, numpy as np
from pysat.formula import CNF
cnf = CNF(from_file=sys.argv[1])
words = open(sys.argv[2]).read().split()
model = np.array([int(w) for w in words if w not in ('s', 'v', 'SATISFIABLE')], dtype=np.int64)
true = np.zeros(cnf.nv + 1, dtype=bool)
true[model[model > 0]] = True
ok = all(any(true[l] if l > 0 else not true[-l] for l in c) for c in cnf.clauses)
print('valid' if ok else 'invalid')
"""


def _sudokit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SUDOKIT_NO_PROGRESS="1")
    return subprocess.run([sys.executable, "-m", "sudokit", *args], input=stdin, env=env,
                          capture_output=True, text=True, check=True)


def _timed(function):
    """``(result, cpu seconds, wall seconds)`` of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = function()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def _process(command: list[str]) -> tuple[float, float]:
    """CPU (user + system of the child) and wall seconds of one process."""
    before = os.times()
    wall = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT), SUDOKIT_NO_PROGRESS="1"))
    wall = time.perf_counter() - wall
    after = os.times()
    if run.stdout.strip() != "valid":
        raise SystemExit(f"{command[:3]} did not say valid: {run.stdout[:80]} {run.stderr[:200]}")
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return cpu, wall


def _formulas(folder: Path) -> dict[str, Path]:
    puzzle = next(line for line in GECODE25.read_text().splitlines()
                  if line.strip() and not line.startswith("#")) + "\n"
    files = {"gecode 25x25 #1": (puzzle, folder / "g25.cnf"),
             "empty 25x25": ("." * 625 + "\n", folder / "e25.cnf")}
    for text, path in files.values():
        _sudokit("encode", "--cnf", "--box", "5x5", "-", "-o", str(path), stdin=text)
    return {name: path for name, (_, path) in files.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from pysat.formula import CNF

    from sudokit.formats import dimacs

    rows, whole = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in _formulas(Path(tmp)).items():
            text = path.read_text()
            readers = {"sudokit": lambda text=text: dimacs.parse_dimacs(text).num_clauses,
                       "sudokit, line by line": lambda text=text: dimacs._read_lines(
                           text, "f").cnf.num_clauses,
                       "PySAT CNF(from_string)": lambda text=text: len(
                           CNF(from_string=text).clauses)}
            best = {}
            for _ in range(args.repeat):
                for reader, function in readers.items():
                    count, cpu, wall = _timed(function)
                    old = best.get(reader, (count, cpu, wall))
                    if count != old[0]:
                        raise SystemExit(f"{reader} read {count} clauses, not {old[0]}")
                    best[reader] = (count, min(cpu, old[1]), min(wall, old[2]))
            counts = {count for count, _, _ in best.values()}
            if len(counts) != 1:
                raise SystemExit(f"the readers disagree on {name}: {best}")
            for reader, (count, cpu, wall) in best.items():
                rows.append([name, f"{count:,}", reader, f"{cpu:.3f}", f"{wall:.3f}"])
            model = path.with_suffix(".model")
            model.write_text(_sudokit("solve", str(path)).stdout)
            for who, command in (
                    ("sudokit check", [sys.executable, "-m", "sudokit", "check", str(path),
                                       str(model)]),
                    ("PySAT + numpy", [sys.executable, "-c", PEER_CHECK, str(path), str(model)])):
                runs = [_process(command) for _ in range(args.repeat)]
                whole.append([name, who, f"{min(r[0] for r in runs):.2f}",
                              f"{min(r[1] for r in runs):.2f}"])
            log(f"{name} done")
    print(format_table(["formula", "clauses", "reader (in-process)", "CPU s", "wall s"], rows,
                       right={1, 3, 4}))
    print()
    print(format_table(["formula", "whole process: read + check a model", "CPU s", "wall s"],
                       whole, right={2, 3}))


if __name__ == "__main__":
    main()
