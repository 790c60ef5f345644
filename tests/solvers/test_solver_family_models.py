"""The model-based back ends: ilp (HiGHS), cpsat (OR-Tools CP-SAT) and grasp, against DLX and SAT.

The ilp and cpsat tests skip when their optional dependency is not installed (the ``test``
extra installs both, so CI runs them). An ILP solve costs about 10 ms, and every solution
counted is one more solve with one more cut (288 solutions take 20-30 s), so ILP counts
only small sets here; the 17-clue slice is 100 puzzles for both exact back ends.
"""

from __future__ import annotations

import _thread
import itertools
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.batch import run_batch
from sudokit.encoders import coloring_to_cnf, grid_to_cnf
from sudokit.errors import (
    BudgetExhausted,
    MissingExtraError,
    ResourceError,
    UnsupportedTaskError,
)
from sudokit.formats import read_instances
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import ENGINES, Budget, count_solutions, open_engine
from sudokit.solvers.dlx_engine import DLXEngine
from sudokit.solvers.grasp import GRASPEngine, grasp_layout
from sudokit.solvers.registry import check_engine

from ..helpers import (
    EXAMPLES,
    ROOT,
    assert_cli_error,
    budget_cpu_bound,
    cli_run,
    cpu_seconds,
    cyclic_latin,
    data_path,
    partial_grids,
    small_precolorings,
    with_extra,
)

HAVE = {"ilp": ENGINES["ilp"].missing == [], "cpsat": ENGINES["cpsat"].missing == []}
EXACT = [pytest.param(name, marks=pytest.mark.skipif(not HAVE[name],
                                                    reason=f"{ENGINES[name].install} not done"))
         for name in ("ilp", "cpsat")]
EMPTY4 = sudoku(np.zeros((4, 4), dtype=int))
LATIN4 = latin_square(np.zeros((4, 4), dtype=int))
SUDOKU4 = sudoku(np.array([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]))


def dlx_count(problem, limit):
    with DLXEngine() as engine:
        return engine.count(problem, limit)[0]


def sat_count(problem, limit):
    cnf = coloring_to_cnf(problem) if problem.kind == "coloring" else grid_to_cnf(problem)
    return count_solutions(cnf, limit=limit)


def lines_of(path, count):
    with open(path) as handle:
        lines = (line.strip() for line in handle if line.strip() and not line.startswith("#"))
        return list(itertools.islice(lines, count))


def grid(line: str, n: int = 9) -> np.ndarray:
    return np.array([0 if ch in ".0" else int(ch, 36) for ch in line]).reshape(n, n)


def agree(problem, limit=3):
    """Every installed exact back end counts as DLX and SAT do; firsts are solutions."""
    expected = dlx_count(problem, limit)
    assert expected == sat_count(problem, limit)
    for name in ("ilp", "cpsat"):
        if not HAVE[name]:
            continue
        with open_engine(name) as engine:
            count, first = engine.count(problem, limit)
        assert count == expected, (name, problem)
        assert (first is None) == (count == 0), name
        if first is not None:
            assert problem.is_solution(first), name


# -- exact back ends: known counts -----------------------------------------------------------

@pytest.mark.parametrize("name", EXACT)
def test_small_known_counts(name):
    with open_engine(name) as engine:
        assert engine.count(latin_square(np.zeros((3, 3), dtype=int)))[0] == 12
        assert engine.count(SUDOKU4)[0] == dlx_count(SUDOKU4, None)
        cycle = precoloring(5, [(i, (i + 1) % 5) for i in range(5)], 3)
        assert engine.count(cycle)[0] == 2 ** 5 - 2          # (k-1)^n + (-1)^n (k-1)
        assert engine.count(precoloring(3, [], 2))[0] == 8
        assert engine.count(precoloring(0, [], 2))[0] == 1
        assert engine.count(precoloring(3, [(0, 1)], 1))[0] == 0
        assert engine.count(latin_square(np.array([[1, 0], [0, 2]])))[0] == 0
        assert engine.count(EMPTY4, limit=2)[0] == 2
        full = cyclic_latin(4, 2, 2)
        count, first = engine.count(sudoku(full))
        assert count == 1 and np.array_equal(first, full)


def test_cpsat_known_counts():
    if not HAVE["cpsat"]:
        pytest.skip("ortools not installed")
    with open_engine("cpsat") as engine:
        assert engine.count(EMPTY4)[0] == 288
        assert engine.count(LATIN4)[0] == 576
        assert engine.count(EMPTY4, limit=0)[0] == 0


@settings(max_examples=25, deadline=None)
@given(partial_grids(), st.integers(1, 6))
def test_cpsat_counts_to_a_limit_on_both_roads(puzzle, limit):
    """Limits up to ``BLOCKING_MAX_LIMIT`` re-solve with each solution forbidden, larger
    ones enumerate in one search: both count as DLX does, and the first is a solution."""
    if not HAVE["cpsat"]:
        pytest.skip("ortools not installed")
    from sudokit.solvers.cpsat import BLOCKING_MAX_LIMIT

    assert 1 < BLOCKING_MAX_LIMIT < 6     # the limits drawn take both roads
    with open_engine("cpsat") as engine:
        count, first = engine.count(puzzle, limit)
    assert count == dlx_count(puzzle, limit)
    assert (first is None) == (count == 0)
    if first is not None:
        assert puzzle.is_solution(first)


def test_cpsat_counts_to_two_as_cadical_on_gecode_16x16():
    """Counts to 2 of gecode's 16x16 puzzles (unique) and of the same puzzles with givens
    taken away (several solutions, or one), against CaDiCaL on each puzzle's formula."""
    if not HAVE["cpsat"]:
        pytest.skip("ortools not installed")
    path = data_path("sudoku", "gecode-9-16-25", "sudoku16_janko_via_gecode.txt")
    puzzles = [r.instance for r in read_instances(str(path))[:12:3]]
    rng = np.random.default_rng(29)
    for puzzle in list(puzzles):
        givens = puzzle.givens.copy()
        shown = np.argwhere(givens)
        for r, c in shown[rng.choice(len(shown), len(shown) // 4, replace=False)]:
            givens[r, c] = 0
        puzzles.append(sudoku(givens, puzzle.box))
    with open_engine("cpsat") as engine, open_engine("cadical195") as sat:
        counts = [engine.count(p, 2)[0] for p in puzzles]
        expected = [sat.count(p, 2)[0] for p in puzzles]
    assert counts == expected
    assert counts[:4] == [1] * 4 and 2 in counts[4:]


def test_cpsat_conflict_budget_covers_every_solve_of_a_count():
    """A count to 2 solves twice; the conflict budget is spent across both (each solve
    costs at least one): gecode's first 16x16 puzzle is solved within one conflict, so a
    budget of one runs out before the second solve, with the first solution counted."""
    if not HAVE["cpsat"]:
        pytest.skip("ortools not installed")
    path = data_path("sudoku", "gecode-9-16-25", "sudoku16_janko_via_gecode.txt")
    puzzle = read_instances(str(path))[0].instance
    with open_engine("cpsat") as engine:
        assert engine.solve(puzzle, Budget(conflicts=1)) is not None
        assert engine.count(puzzle, 2, Budget(conflicts=10**6))[0] == 1
        with pytest.raises(BudgetExhausted) as err:
            engine.count(puzzle, 2, Budget(conflicts=1))
    assert err.value.found == 1


def test_cpsat_in_a_child_process_answers_as_in_this_one(monkeypatch):
    """A big model is built and searched in a child process (killed with the budget): the
    same counts and solutions come back, a spent budget gives unknown with its count."""
    if not HAVE["cpsat"]:
        pytest.skip("ortools not installed")
    from sudokit.child import run_child
    from sudokit.solvers import cpsat

    monkeypatch.setattr(cpsat, "CHILD_MIN_PAIRS", 0)
    started = []
    monkeypatch.setattr(cpsat, "run_child",
                        lambda job, seconds: started.append(job) or run_child(job, seconds))
    with open_engine("cpsat") as engine:
        assert engine.count(EMPTY4)[0] == 288
        solution = engine.solve(LATIN4)
        assert LATIN4.is_solution(solution)
        with pytest.raises(BudgetExhausted):
            engine.count(sudoku(np.zeros((9, 9), dtype=int)), None, Budget(seconds=0.3))
    assert len(started) == 3


# -- exact back ends: differential tests -----------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(partial_grids())
def test_agree_on_small_grids(puzzle):
    agree(puzzle)


@settings(max_examples=40, deadline=None)
@given(small_precolorings())
def test_agree_on_precolorings(problem):
    agree(problem)


@st.composite
def puzzles9(draw):
    """9x9 puzzles from shuffled valid grids, about 50 givens; some changed to be unsolvable."""
    full = cyclic_latin(9, 3, 3)
    digits = np.array(draw(st.permutations(range(1, 10))))
    rows = [3 * band + r for band in draw(st.permutations(range(3)))
            for r in draw(st.permutations(range(3)))]
    full = digits[full - 1][rows]
    keep = np.array(draw(st.lists(st.booleans(), min_size=81, max_size=81))).reshape(9, 9)
    keep |= np.arange(81).reshape(9, 9) % 3 == 0
    givens = np.where(keep, full, 0)
    cell = draw(st.integers(0, 80))
    r, c = divmod(cell, 9)
    if draw(st.booleans()) and givens[r, c]:
        box = givens[r // 3 * 3:r // 3 * 3 + 3, c // 3 * 3:c // 3 * 3 + 3]
        taken = set(givens[r]) | set(givens[:, c]) | set(box.reshape(-1))
        other = [v for v in range(1, 10) if v not in taken]
        if other:
            givens[r, c] = other[0]
    return sudoku(givens)


@settings(max_examples=20, deadline=None)
@given(puzzles9())
def test_agree_on_9x9_grids(puzzle):
    agree(puzzle)


@pytest.mark.parametrize("name", EXACT)
def test_seventeen_clue_slice(name):
    """A slice of 100 (each ILP uniqueness check is two MIP solves, ~40 ms)."""
    path = data_path("sudoku", "9x9-tdoku", "puzzles2_17_clue")
    puzzles = [sudoku(grid(line)) for line in lines_of(path, 100)]
    results = list(run_batch(puzzles, task="count", limit=2, solver=name))
    assert [r.count for r in results] == [1] * len(puzzles)
    assert all(p.is_solution(r.solution) for p, r in zip(puzzles, results, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("name", EXACT)
def test_top95_and_more_seventeen_clue_puzzles(name):
    top95 = [sudoku(grid(line)) for line in lines_of(
        data_path("sudoku", "9x9-norvig", "top95.txt"), 95)]
    s17 = [sudoku(grid(line)) for line in lines_of(
        data_path("sudoku", "9x9-tdoku", "puzzles2_17_clue"), 500)[100:]]
    results = list(run_batch(top95 + s17, task="count", limit=2, solver=name))
    assert [r.count for r in results] == [1] * len(results)


# -- exact back ends: budgets, interrupts, the model ----------------------------------------

def hard25():
    path = data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt")
    return read_instances(str(path))[0].instance


@pytest.mark.parametrize("name", EXACT)
def test_time_budget_gives_unknown(name):
    puzzle = hard25()   # neither solves it in under a few seconds
    started = cpu_seconds()
    (result,) = run_batch([puzzle], solver=name, budget=Budget(seconds=0.5))
    assert result.status == "unknown"
    assert cpu_seconds() - started < budget_cpu_bound(0.5)
    found = 0
    with open_engine(name) as engine:
        for seconds in (0.5, 2, 8, 32):   # a loaded machine may give 0.5 s no solution yet
            with pytest.raises(BudgetExhausted) as err:
                engine.count(sudoku(np.zeros((9, 9), dtype=int)), None, Budget(seconds=seconds))
            found = err.value.found
            if found:
                break
    assert found > 0      # the solutions found before the budget ran out are told


def test_cpsat_conflict_budget():
    if not HAVE["cpsat"]:
        pytest.skip("ortools not installed")
    with open_engine("cpsat") as engine, pytest.raises(BudgetExhausted):
        engine.solve(hard25(), Budget(conflicts=1))


@pytest.mark.parametrize("name", EXACT)
def test_ctrl_c_stops_the_search_at_once(name):
    """The solver runs on a worker thread; an interrupt reaches the caller at once (0.5 s in,
    the solve stops within the CPU seconds a 0.5 s budget allows), and the engine still
    works after it."""
    puzzle = hard25()
    timer = threading.Timer(0.5, _thread.interrupt_main)
    with open_engine(name) as engine:
        started = cpu_seconds()
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                engine.solve(puzzle)
        finally:
            timer.cancel()
        assert cpu_seconds() - started < budget_cpu_bound(0.5)
        assert engine.count(SUDOKU4, 2)[0] == 1


def test_ilp_model_takes_an_objective():
    if not HAVE["ilp"]:
        pytest.skip("highspy not installed")
    from sudokit.solvers.ilp import completion_to_ilp, solve_ilp

    square = latin_square(np.zeros((3, 3), dtype=int))
    model = completion_to_ilp(square)
    assert (model.num_cols, model.num_rows) == (27, 9 + 2 * 3 * 3)
    reward = np.zeros((9, 3))
    reward[0, 2] = reward[4, 2] = reward[8, 2] = -1.0   # value 3 down the diagonal
    solution = solve_ilp(square, reward)
    assert np.diag(solution).tolist() == [3, 3, 3] and square.is_solution(solution)


def test_ilp_refuses_a_model_that_does_not_fit():
    from sudokit.solvers.ilp import completion_to_ilp

    with pytest.raises(ResourceError, match="3,000,000 nonzeros"):
        completion_to_ilp(latin_square(np.zeros((100, 100), dtype=int)), max_bytes=10**8)


# -- every back end through the registry and the command line -------------------------------

MODEL_ENGINES = ["ilp", "cpsat", "grasp"]


@pytest.mark.parametrize("name", [with_extra("ilp", "ilp"), with_extra("cp", "cpsat"), "grasp"])
def test_registered_for_the_unit_kinds_only(name):
    spec = ENGINES[name]
    assert spec.kinds == ("sudoku", "latin", "coloring")
    for kind in ("cnf", "xc"):
        with pytest.raises(UnsupportedTaskError, match=f"does not take {kind}") as err:
            check_engine(name, kind)
        assert err.value.exit_code == 2


@pytest.mark.parametrize("name", MODEL_ENGINES)
def test_open_engine_for_a_shape_and_batches(name):
    if name != "grasp" and not HAVE[name]:
        pytest.skip(ENGINES[name].install)
    problems = [SUDOKU4, SUDOKU4, latin_square(np.array([[1, 0], [0, 0]])),
                precoloring(3, [(0, 1), (1, 2)], 2, {0: 1})]
    with open_engine(name, shape=SUDOKU4) as engine:
        assert SUDOKU4.is_solution(engine.solve(SUDOKU4))
    for result, problem in zip(run_batch(problems, solver=name), problems, strict=True):
        assert result.status == "sat" and problem.is_solution(result.solution)


def test_cli_solve_and_count():
    for name in ("ilp", "cpsat"):
        if not HAVE[name]:
            continue
        result = cli_run("count", "--solver", name, EXAMPLES / "top3.txt", "--limit", "2")
        assert result.exit_code == 0 and [line.split()[-1] for line in
                                          result.stdout.splitlines()] == ["1", "1", "1"]
        solved = cli_run("solve", "--solver", name, EXAMPLES / "qwh5.pls")
        assert solved.exit_code == 0
        assert solved.stdout == cli_run("solve", EXAMPLES / "qwh5.pls").stdout
    result = cli_run("solve", "--solver", "grasp", "--seed", "3", EXAMPLES / "six.txt")
    assert result.exit_code == 0 and "|" in result.stdout


def test_cli_refusals():
    assert_cli_error(cli_run("count", "--solver", "grasp", EXAMPLES / "top3.txt"), 2,
                     "grasp cannot count")
    assert_cli_error(cli_run("solve", "--solver", "grasp", EXAMPLES / "knuth6.dlx"), 2,
                     "does not take xc")
    assert_cli_error(cli_run("solve", "--seed", "1", EXAMPLES / "top3.txt"), 2,
                     "--seed does not apply to cadical195", "grasp")
    assert_cli_error(cli_run("solve", "--solver", "grasp", "--conflicts", "5",
                             EXAMPLES / "top3.txt"), 2, "--conflicts does not apply to grasp")
    if HAVE["ilp"]:
        assert_cli_error(cli_run("solve", "--solver", "ilp", "--encoding", "minimal",
                                 EXAMPLES / "top3.txt"), 2, "does not apply to ilp")


# -- missing optional dependencies ------------------------------------------------------------

@pytest.mark.parametrize("name, module, extra", [("ilp", "highspy", "ilp"),
                                                 ("cpsat", "ortools", "cp")])
def test_missing_extra_is_one_clean_line(name, module, extra, monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: None if mod == module else found(mod, *a))
    install = f'pip install "sudokit[{extra}]"'
    with pytest.raises(MissingExtraError, match=install.replace("[", r"\[")):
        open_engine(name)
    line = assert_cli_error(cli_run("solve", "--solver", name, EXAMPLES / "top3.txt"), 6,
                            f"solver {name} needs {module}", install)
    assert line.count("\n") == 0
    listing = cli_run("solvers")
    (row,) = [r for r in listing.stdout.splitlines() if r.split()[0] == name]
    assert f"unavailable: {install}" in row


@pytest.mark.parametrize("name, modules", [("ilp", ["highspy"]),
                                           ("cpsat", ["ortools", "ortools.sat",
                                                      "ortools.sat.python",
                                                      "ortools.sat.python.cp_model"])])
def test_import_that_fails_inside_the_engine(name, modules, monkeypatch):
    """Installed but broken (the import itself fails): the same error, not a traceback."""
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingExtraError, match="sudokit"):
        resolve_engine(name)()
    assert_cli_error(cli_run("solve", "--solver", name, EXAMPLES / "top3.txt"), 6, name)


def resolve_engine(name):
    from sudokit.problems import resolve

    return resolve(ENGINES[name].engine)


# -- GRASP ----------------------------------------------------------------------------------

def test_grasp_solves_every_kind():
    graph = read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0].instance
    problems = [sudoku(np.zeros((6, 6), dtype=int), (2, 3)), sudoku(np.zeros((6, 6), int), (3, 2)),
                latin_square(np.zeros((7, 7), dtype=int)), graph, SUDOKU4,
                read_instances(str(EXAMPLES / "qwh5.pls"))[0].instance]
    with GRASPEngine(seed=2) as grasp:
        for problem in problems:
            assert problem.is_solution(grasp.solve(problem, Budget(seconds=20))), problem


def test_grasp_layouts():
    box = grasp_layout(sudoku(np.zeros((6, 6), dtype=int), (2, 3)))
    assert np.diff(box.block_ptr).tolist() == [6] * 6 and len(box.counts) == 12  # rows, cols
    rows = grasp_layout(latin_square(np.array([[1, 0], [0, 0]])))
    assert rows.block_cells.tolist() == [1, 2, 3] and len(rows.counts) == 2       # columns
    graph = grasp_layout(precoloring(3, [(0, 1), (1, 2)], 3, {1: 2}))
    assert graph.block_cells.tolist() == [0, 2] and graph.dom_values.tolist() == [1, 3, 1, 3]


def test_grasp_never_claims_no_solution_wrongly():
    with GRASPEngine() as grasp:
        dead = precoloring(3, [(0, 1), (0, 2)], 2, {1: 1, 2: 2})  # vertex 1 has no color
        assert grasp.solve(dead) is None
        with pytest.raises(BudgetExhausted):
            grasp.solve(precoloring(3, [(0, 1), (1, 2), (0, 2)], 2), Budget(nodes=50))
        with pytest.raises(UnsupportedTaskError, match="cannot count"):
            grasp.count(SUDOKU4)
    with pytest.raises(UnsupportedTaskError, match="cannot count"):
        check_engine("grasp", "sudoku", "count")


def test_grasp_default_budget_never_hangs(monkeypatch):
    from sudokit.solvers import grasp as module

    monkeypatch.setattr(module, "DEFAULT_SECONDS", 0.3)
    started = cpu_seconds()
    (result,) = run_batch([precoloring(4, [(0, 1), (1, 2), (2, 3), (0, 2)], 2)], solver="grasp")
    assert result.status == "unknown" and cpu_seconds() - started < budget_cpu_bound(0.3)


def test_grasp_top95_with_a_seed_is_solved_or_unknown_and_deterministic():
    path = data_path("sudoku", "9x9-norvig", "top95.txt")
    puzzles = [sudoku(grid(line)) for line in lines_of(path, 95)]
    budget = Budget(nodes=100)       # iterations: the same answer on every machine
    runs = [list(run_batch(puzzles, solver="grasp", budget=budget, options={"seed": 7}))
            for _ in range(2)]
    for puzzle, first, again in zip(puzzles, *runs, strict=True):
        assert first.status in ("sat", "unknown")
        assert first.status == again.status
        if first.status == "sat":
            assert puzzle.is_solution(first.solution)
            assert np.array_equal(first.solution, again.solution)


def test_grasp_cli_solutions_pass_check(tmp_path):
    """With a seed, every solution printed passes 'sudokit check'; unknown exits 5."""
    path = data_path("sudoku", "9x9-norvig", "easy50.txt")
    puzzles = tmp_path / "easy.txt"
    puzzles.write_text("\n".join(lines_of(path, 12)) + "\n")
    args = ["solve", "--solver", "grasp", "--seed", "11", "--nodes", "3000", puzzles]
    first, again = cli_run(*args), cli_run(*args)
    assert first.stdout == again.stdout and first.exit_code in (0, 5)
    lines = first.stdout.splitlines()
    assert (first.exit_code == 5) == ("unknown" in lines)
    solved = [(p, s) for p, s in zip(puzzles.read_text().split(), lines, strict=True)
              if s != "unknown"]
    assert len(solved) >= 6
    (tmp_path / "p.txt").write_text("".join(p + "\n" for p, _ in solved))
    (tmp_path / "s.txt").write_text("".join(s + "\n" for _, s in solved))
    assert cli_run("check", tmp_path / "p.txt", tmp_path / "s.txt").exit_code == 0


def test_grasp_seeds_and_alpha():
    puzzle = latin_square(np.zeros((6, 6), dtype=int))
    solutions = {}
    for seed in (1, 2):
        with GRASPEngine(seed=seed, alpha=0.5) as grasp:
            solutions[seed] = grasp.solve(puzzle).tolist()
            assert grasp.solve(puzzle).tolist() == solutions[seed]
    assert solutions[1] != solutions[2]
    with pytest.raises(UnsupportedTaskError, match="alpha"):
        GRASPEngine(alpha=1.5)


def test_grasp_pure_python_gives_the_same_answers():
    code = ("import numpy as np, os\n"
            "from sudokit.instances import sudoku, precoloring\n"
            "from sudokit.solvers import grasp_kernel\n"
            "from sudokit.solvers.grasp import GRASPEngine\n"
            "jit = hasattr(grasp_kernel.grasp_slice, 'py_func')\n"
            "assert jit == (os.environ['NUMBA_DISABLE_JIT'] == '0')\n"
            "g = GRASPEngine(seed=5)\n"
            "print(g.solve(sudoku(np.zeros((6, 6), int), (2, 3))).ravel().tolist(), "
            "g.iterations)\n"
            "print(g.solve(precoloring(6, [(i, (i + 1) % 6) for i in range(6)], 3)).tolist())\n")
    runs = []
    for jit in ("0", "1"):
        done = subprocess.run([sys.executable, "-c", code],
                              env=dict(os.environ, NUMBA_DISABLE_JIT=jit), capture_output=True,
                              text=True, timeout=300, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        runs.append(done.stdout)
    assert runs[0] == runs[1]
