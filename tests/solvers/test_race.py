"""The engine ``race`` (issue 29): two engines in two child processes, the first decided answer
wins and the other is stopped at once; no child outlives a race, whether it was won, ran out
of time or was cut by Ctrl-C. Processes are checked by their state in /proc, never by time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit.errors import BudgetExhausted
from sudokit.formats import read_instances
from sudokit.instances import latin_square
from sudokit.solvers import ENGINES, Budget, open_engine
from sudokit.solvers.race import RaceEngine, race_pair

from ..helpers import cli_run, data_path, interrupt, needs_proc

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (a reaped process is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def children_of(pid: int) -> list[int]:
    """The racers (sudokit's child script) whose parent is ``pid``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"child_main.py" in cmdline:
            found.append(int(entry.name))
    return found


def qwh30(k: int = 1):
    path = data_path("latin", "qwh30_42pct_zanarini_pesant", f"qwh-30-374-{k}.pls")
    return read_instances(str(path))[0].instance


def test_the_registry_entry_and_the_pairs():
    assert ENGINES["race"].budgets == ("seconds",)
    assert "race" in cli_run("solvers").output
    first, rival = race_pair(latin_square(np.zeros((30, 30), dtype=int)))
    assert first != rival and {first, rival} <= set(ENGINES)


def test_an_easy_instance_is_decided_in_the_first_slice_without_a_child():
    square = latin_square(np.zeros((4, 4), dtype=int))
    with RaceEngine() as engine:
        count, first = engine.count(square, limit=1000)
    assert count == 576 and square.is_solution(first)
    assert engine.last["stage"] == "slice" and engine.last["children"] == []


@needs_proc
def test_the_winner_answers_checked_and_the_loser_is_gone():
    square = qwh30()
    engine = RaceEngine(engines=("cp", "backtrack"), first_slice=0)   # backtrack: hopeless
    solution = engine.solve(square, Budget(seconds=600))
    assert square.is_solution(solution)
    assert engine.last["stage"] == "race" and engine.last["winner"] == "cp"
    outcomes = {child["engine"]: child["outcome"] for child in engine.last["children"]}
    assert outcomes == {"cp": "won", "backtrack": "killed"}
    assert not any(alive(child["pid"]) for child in engine.last["children"])
    assert children_of(os.getpid()) == []


@needs_proc
def test_counts_agree_with_a_single_engine():
    square = qwh30(2)
    with open_engine("cadical195") as sat:
        expected = sat.count(square, 2)[0]
    engine = RaceEngine(engines=("cp", "cadical195"), first_slice=0)
    count, first = engine.count(square, 2, Budget(seconds=600))
    assert count == expected and square.is_solution(first)
    assert not any(alive(child["pid"]) for child in engine.last["children"])


@needs_proc
def test_the_time_budget_stops_both_racers():
    hard = read_instances(str(data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt"))
                          )[0].instance
    engine = RaceEngine(engines=("backtrack", "fcmrv"), first_slice=0)
    with pytest.raises(BudgetExhausted):
        engine.solve(hard, Budget(seconds=2))
    assert len(engine.last["children"]) == 2
    assert all(child["outcome"] in ("unknown", "killed") for child in engine.last["children"])
    assert not any(alive(child["pid"]) for child in engine.last["children"])


def test_a_racer_that_fails_leaves_the_race_to_the_other():
    square = latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]]))
    engine = RaceEngine(engines=("grasp", "cp"), first_slice=0)   # grasp cannot count
    assert engine.count(square, 10, Budget(seconds=600))[0] == 4
    outcomes = {child["engine"]: child["outcome"] for child in engine.last["children"]}
    assert outcomes["cp"] == "won" and outcomes["grasp"].startswith(("failed", "killed"))


@needs_proc
def test_ctrl_c_on_the_command_line_leaves_no_racer():
    path = data_path("latin", "gomes_lsencode_PLS", "qwh.order60.holes1080.bal.pls")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "solve", "--solver", "race",
                                "--time-limit", "600", str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    seen: list[int] = []

    def racing(out, err):
        seen[:] = children_of(process.pid)
        return len(seen) == 2

    ended = interrupt(process, racing, signal.SIGINT)
    assert ended.code == 130, ended.err
    assert "Traceback" not in ended.err
    assert not any(alive(pid) for pid in seen)
