"""Every budget holds: time from the moment the instance is read, partial counts, memory.

Whole processes, as a user runs them. A budget holds when the outcome says so (status
``unknown``, exit 5, a partial count) and the run computed no more CPU seconds than the budget
allows on top of its start-up, measured in the same test
(:func:`~.helpers.budget_cpu_bound`): CPU time, unlike wall time, is not stretched by other
jobs on a busy machine. The bounds guard against budgets being ignored (minutes), not noise.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit.encoders import grid_to_cnf, grid_to_exact_cover
from sudokit.encoders.size import completion_cnf_size
from sudokit.errors import EXIT_RESOURCES, EXIT_UNKNOWN, BudgetExhausted, ResourceError
from sudokit.instances import sudoku
from sudokit.solvers import Budget, count_solutions, open_engine

from ..helpers import budget_cpu_bound, cpu_seconds, requires, run_cpu

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, SUDOKIT_NO_PROGRESS="1")


def run(*args, stdin: str | None = None):
    """The finished run and the CPU seconds it computed."""
    return run_cpu([sys.executable, "-m", "sudokit", *args], cwd=ROOT, env=ENV, input=stdin,
                   capture_output=True, text=True)


@pytest.fixture(scope="module")
def startup():
    """CPU seconds a one-puzzle run takes here, with each back end's imports loaded."""
    puzzle = (ROOT / "sudokit/instances/examples/puzzle17.txt").read_text()
    return max(run("count", "-", "--solver", solver, stdin=puzzle)[1]
               for solver in ("cadical195", "dlx"))


def empty(n: int) -> str:
    return "." * (n * n) + "\n"


def test_an_empty_big_grid_is_constructed_not_searched():
    """Takano's construction answers an empty grid of side 25 and up (issue 12)."""
    from sudokit.instances import sudoku
    from sudokit.solvers import open_engine

    puzzle = sudoku(np.zeros((36, 36), dtype=int))
    with open_engine("cadical195") as engine:
        grid = engine.solve(puzzle)
        assert puzzle.is_solution(grid) and engine.conflicts == 0


# -- the library ---------------------------------------------------------------------------

def test_sat_count_budget_covers_the_whole_count():
    """One budget for the whole count (not one per SAT call, which never runs out on an
    empty grid): it ends with a partial count, having computed about the budget."""
    encoded = grid_to_cnf(sudoku(np.zeros((9, 9), dtype=int)))
    started = cpu_seconds()
    with pytest.raises(BudgetExhausted) as err:
        count_solutions(encoded, budget=Budget(seconds=0.5))
    assert cpu_seconds() - started < budget_cpu_bound(0.5)
    assert err.value.found is not None and err.value.found > 0


def test_conflict_budget_covers_the_whole_count():
    encoded = grid_to_cnf(sudoku(np.zeros((9, 9), dtype=int)))
    with pytest.raises(BudgetExhausted) as err:
        count_solutions(encoded, budget=Budget(conflicts=50))
    assert err.value.found is not None


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "dlx"])
def test_engines_report_partial_counts(solver):
    empty9 = sudoku(np.zeros((9, 9), dtype=int))
    with open_engine(solver) as engine:
        (outcome,) = engine.count_many([empty9], budget=Budget(seconds=0.5))
    assert outcome.status == "unknown" and outcome.count > 0


def test_size_estimates_are_exact_where_they_say_so():
    for n, box in ((9, (3, 3)), (6, (2, 3)), (16, (4, 4))):
        grid = sudoku(np.zeros((n, n), dtype=int), box)
        for encoding in ("minimal", "efficient", "extended"):
            for amo in ("pairwise", "seqcounter"):
                cnf = grid_to_cnf(grid, encoding, amo).cnf
                size = completion_cnf_size(grid, encoding, amo)
                assert (size.variables, size.clauses, size.literals) \
                    == (cnf.num_vars, cnf.num_clauses, cnf.num_literals)


def test_memory_guard_refuses_before_building():
    """Refused from the size estimate, before anything is built: what the refusal allocates
    is a sliver of the terabytes the formula would take (it was checked as 10 s of wall
    time, which a busy machine can exceed)."""
    import tracemalloc

    huge = sudoku(np.zeros((1000, 1000), dtype=np.int32), (25, 40))
    tracemalloc.start()
    try:
        with pytest.raises(ResourceError, match="needs about .* TiB"):
            grid_to_cnf(huge)
        with pytest.raises(ResourceError, match="exact cover"):
            grid_to_exact_cover(huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 30, peak     # the grid's cells are 4 MB; its formula, terabytes


def test_memory_guard_names_a_smaller_choice():
    grid = sudoku(np.zeros((36, 36), dtype=int))
    limit = completion_cnf_size(grid, "extended", "seqcounter").bytes + 1
    with pytest.raises(ResourceError, match="seqcounter at-most-one needs about") as err:
        grid_to_cnf(grid, max_bytes=limit)
    assert "--amo seqcounter" in err.value.for_cli()
    assert grid_to_cnf(grid, amo="seqcounter", max_bytes=limit).cnf.num_vars > 0


# -- whole processes -----------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "dlx"])
@pytest.mark.parametrize("command", ["count", "solve"])
def test_time_limit_holds_per_back_end_and_command(command, solver, startup):
    budget = 2.0
    args = [command, "-", "--solver", solver, "--time-limit", str(budget), "--json"]
    if command == "solve":  # an empty 49x49 Sudoku: hard for every back end
        done, seconds = run(*args, stdin=empty(49))
    else:
        done, seconds = run(*args, stdin=empty(9))
    assert seconds < budget_cpu_bound(budget, startup), (seconds, startup)
    if done.returncode == 0:  # solved in time: fine, and the answer must say so
        assert json.loads(done.stdout)["status"] == "sat"
        return
    assert done.returncode == EXIT_UNKNOWN, done.stderr
    assert "Traceback" not in done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "unknown"
    if command == "count":
        assert record["count"] > 0 and record["complete"] is False


@pytest.mark.slow
def test_time_limit_covers_encoding_a_100x100_grid(startup):
    done, seconds = run("solve", "-", "--box", "10x10", "--time-limit", "5",
                        stdin=empty(100))
    assert done.returncode in (0, EXIT_UNKNOWN), done.stderr
    assert seconds < budget_cpu_bound(5, startup), (seconds, startup)


@pytest.mark.slow
def test_a_1000x1000_grid_is_refused_quickly(startup):
    """One given, so that no construction answers it: the formula would not fit."""
    for solver in ("cadical195", "dlx"):
        done, seconds = run("solve", "-", "--box", "25x40", "--solver", solver,
                            stdin="1" + empty(1000)[1:])
        assert done.returncode == EXIT_RESOURCES, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("sudokit: error:") \
            and "needs about" in lines[0]
        assert seconds < 2 * startup + 5, (seconds, startup)   # CPU seconds: nothing built


# -- CP-SAT: its model's size and its time (issue 32.1) ------------------------------------

@pytest.fixture(scope="module")
def cpsat_startup():
    """CPU seconds a one-puzzle ``solve --solver cpsat`` takes here (OR-Tools loaded)."""
    puzzle = (ROOT / "sudokit/instances/examples/puzzle17.txt").read_text()
    done, seconds = run("solve", "-", "--solver", "cpsat", stdin=puzzle)
    assert done.returncode == 0, done.stderr
    return seconds


@requires("cp")
@pytest.mark.slow
def test_cpsat_time_limit_covers_its_model_expansion(cpsat_startup):
    """CP-SAT expands an empty 100x100 Sudoku's AllDifferent constraints into 1 M Booleans
    without reading the clock: under a 1 s limit it computed 6.4 CPU seconds (and took
    1.2 GB), against 1.5 now that the model runs in a child process killed with the budget
    (0.6 for the one-puzzle run). CP-SAT searches on one worker, so the bound counts the
    limit once, not once per core as :func:`budget_cpu_bound` does."""
    done, seconds = run("solve", "-", "--box", "10x10", "--solver", "cpsat", "--time-limit",
                        "1", stdin=empty(100))
    assert done.returncode == EXIT_UNKNOWN, done.stderr
    assert "Traceback" not in done.stderr
    assert seconds < 2 * cpsat_startup + 1.5 * 1 + 1, (seconds, cpsat_startup)


@requires("cp")
def test_cpsat_refuses_a_model_over_max_memory():
    """Refused from the shape, before the model is built: exit 8 and one line (it used to
    build the 1 GB model of an empty 100x100 Sudoku whatever --max-memory said)."""
    done, _ = run("solve", "-", "--box", "10x10", "--solver", "cpsat", "--max-memory", "64M",
                  "--time-limit", "2", stdin=empty(100))
    assert done.returncode == EXIT_RESOURCES, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error: CP-SAT's model"), lines
    assert "needs about" in lines[0] and "64.0 MiB is allowed" in lines[0]


@requires("cp")
def test_cpsat_model_building_reads_the_clock():
    """A budget already spent when the model is built stops it between unit constraints:
    no constraint is added (counted on the model class), the answer is unknown."""
    from sudokit.solvers.cpsat import CPSATEngine, cpsat_spec

    added = []

    class Counting(CPSATEngine):
        def _model(self, spec, meter):
            meter_late = meter.late
            meter.late = lambda: added.append(1) or meter_late()
            return super()._model(spec, meter)

    puzzle = sudoku(np.zeros((16, 16), dtype=int))
    spec = cpsat_spec(puzzle)
    engine = Counting()
    found = engine.search(spec, 1, Budget(seconds=0.0), Budget(seconds=0.0).start())
    assert found == {"count": 0, "first": None, "complete": False}
    assert len(added) == 1     # stopped at the first unit of 48
    with pytest.raises(BudgetExhausted):
        engine.count(puzzle, 1, Budget(seconds=1e-9))


# -- --max-memory on the multi-puzzle road (issue 32.4) ------------------------------------

@pytest.mark.parametrize("solver", ["dlx", "cadical195"])
@pytest.mark.parametrize("side, box", [(16, "4x4"), (64, "8x8")],
                         ids=["column-chunk", "records"])
def test_max_memory_holds_on_the_multi_puzzle_road(solver, side, box, tmp_path):
    """A file of two puzzles of one shape shares one engine opened for the shape (DLX's full
    cover, the SAT engines' empty-grid formula up to 16x16): it was built whatever
    --max-memory said (exit 0 or 5), where one puzzle alone is refused (exit 8)."""
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(("1" + "." * (side * side - 1) + "\n")
                       + ("2" + "." * (side * side - 1) + "\n"))
    done, _ = run("solve", str(puzzles), "--box", box, "--solver", solver, "--max-memory", "4K",
                  "--time-limit", "2")
    assert done.returncode == EXIT_RESOURCES, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error:") \
        and "needs about" in lines[0] and "4.0 KiB is allowed" in lines[0], lines


def test_a_shared_structure_over_max_memory_falls_back_to_each_instance():
    """Where the shape's full cover does not fit but each puzzle's reduced one does, the
    puzzles are answered one by one, as each would be alone (no engine opened for the
    shape)."""
    from sudokit.batch.run import EngineCache, answer
    from sudokit.batch.spec import RunSpec
    from sudokit.encoders.size import completion_xc_size

    full = sudoku(np.zeros((9, 9), dtype=int))
    givens = np.array([int(ch) if ch != "." else 0 for ch in
                       (ROOT / "sudokit/instances/examples/puzzle17.txt").read_text().strip()])
    puzzle = sudoku(givens.reshape(9, 9))
    memory = completion_xc_size(full, "full").bytes - 1
    assert completion_xc_size(puzzle, "reduced").bytes <= memory
    spec = RunSpec.of("solve", solver="dlx", budget=Budget(memory=memory))
    with EngineCache() as engines:
        found = answer(spec, [puzzle, puzzle], engines)
        assert list(engines.engines) == [("dlx", None)]
    assert found.statuses() == ["sat", "sat"]
    assert all(puzzle.is_solution(np.asarray(found.solution(row)).reshape(9, 9))
               for row in range(2))
