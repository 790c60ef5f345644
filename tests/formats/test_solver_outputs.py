"""Every SAT solver's answer is read as the solver writes it (issue 28 item 6).

``solver_outputs/`` holds what real solvers wrote for two 4x4 Sudoku CNFs that
``sudokit encode --cnf`` made (``sat4.cnf``: one solution; ``unsat4.cnf``: none): MiniSat
2.2.1's result file (``minisat F.cnf OUT``), and the standard output of CaDiCaL 1.5.3 and
CryptoMiniSat 5.11.4 (Debian's packages). Where those solvers are installed, the same checks
also run on their answers made now.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sudokit.errors import EXIT_CHECK_FAILED, EXIT_UNKNOWN
from sudokit.formats.solutions import read_models, solver_verdict

from ..helpers import HANG_GUARD, cli_run

OUTPUTS = Path(__file__).resolve().parent / "solver_outputs"
SOLVED = "1243342143122134"
RECORDED = {
    "minisat-sat4.result": "sat", "minisat-unsat4.result": "unsat",
    "cadical-sat4.stdout": "sat", "cadical-unsat4.stdout": "unsat",
    "cryptominisat-sat4.stdout": "sat", "cryptominisat-unsat4.stdout": "unsat",
}


def _formula(answer: str) -> Path:
    return OUTPUTS / ("unsat4.cnf" if "unsat4" in answer else "sat4.cnf")


@pytest.mark.parametrize("answer,verdict", RECORDED.items())
def test_each_recorded_answer_says_what_the_solver_said(answer, verdict):
    text = (OUTPUTS / answer).read_text()
    assert solver_verdict(text) == verdict
    if verdict == "sat":
        model = read_models(text, answer)[0]
        assert sorted(abs(model[model != 0]).tolist()) == list(range(1, 65))


@pytest.mark.parametrize("answer,verdict", RECORDED.items())
def test_check_and_map_back_read_each_answer(answer, verdict):
    checked = cli_run("check", _formula(answer), OUTPUTS / answer)
    mapped = cli_run("reduce", "sudoku2sat", _formula(answer), "--map-back", OUTPUTS / answer)
    if verdict == "sat":
        assert (checked.exit_code, checked.stdout) == (0, "valid\n")
        assert (mapped.exit_code, mapped.stdout.strip()) == (0, SOLVED)
        return
    assert checked.exit_code == EXIT_CHECK_FAILED
    assert checked.stdout.startswith("unsat: the solver says the formula has no model")
    assert (mapped.exit_code, mapped.stdout) == (0, "no solution\n")
    assert "unsatisfiable, so the Sudoku has no solution" in mapped.stderr
    assert "not satisfied" not in checked.stdout + mapped.stdout   # the old misreading


@pytest.mark.parametrize("text", ["s UNKNOWN\n", "INDET\n", "c limits reached\ns UNKNOWN\n"])
def test_an_unknown_answer_is_unknown(text):
    formula = _formula("sat4")
    checked = cli_run("check", formula, "-", input=text)
    assert checked.exit_code == EXIT_UNKNOWN and checked.stdout.startswith("unknown:")
    mapped = cli_run("reduce", "sudoku2sat", formula, "--map-back", "-", input=text)
    assert (mapped.exit_code, mapped.stdout) == (EXIT_UNKNOWN, "unknown\n")


def test_bare_literals_and_v_lines_have_no_verdict_and_still_read():
    assert solver_verdict("1 -2 3 0\n") is None
    assert solver_verdict("v 1 -2\nv 3 0\n") is None
    assert read_models("SAT\n1 -2 3 0\n", "x")[0].tolist() == [1, -2, 3, 0]


LIVE = {"minisat": ["minisat", "{cnf}", "{out}"], "cadical": ["cadical", "{cnf}"],
        "cryptominisat5": ["cryptominisat5", "{cnf}"]}


@pytest.mark.parametrize("solver", LIVE)
@pytest.mark.parametrize("formula,verdict", [("sat4.cnf", "sat"), ("unsat4.cnf", "unsat")])
def test_answers_made_now_by_installed_solvers(tmp_path, solver, formula, verdict):
    if shutil.which(solver) is None:
        pytest.skip(f"{solver} is not installed (apt-get install "
                    f"{solver.rstrip('5')}); the recorded answers cover it")
    out = tmp_path / "answer.txt"
    command = [part.format(cnf=OUTPUTS / formula, out=out) for part in LIVE[solver]]
    run = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD)
    if not out.exists():
        out.write_text(run.stdout)
    assert solver_verdict(out.read_text()) == verdict
    checked = cli_run("check", OUTPUTS / formula, out)
    assert checked.exit_code == (0 if verdict == "sat" else EXIT_CHECK_FAILED)
