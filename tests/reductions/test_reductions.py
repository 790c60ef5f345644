"""Every reduction keeps YES as YES and NO as NO, maps solutions both ways, and (when it says so)
preserves counts. Real instances from each data folder go through ``reduce --solve``."""


import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.cli import main
from sudokit.encoders import to_cnf
from sudokit.errors import InstanceError
from sudokit.formats import read_instances
from sudokit.instances import latin_square, sudoku
from sudokit.reductions import REDUCTIONS, reduce
from sudokit.solvers import count_solutions, solve

from ..helpers import (
    brute_force_count,
    partial_grids,
    random_cnf,
    small_matrices,
    small_precolorings,
)

LIMIT = 50


def encode(instance):
    """The reduced CNF for puzzles and graphs (a 100x100 latin2sudoku target stays small)."""
    return to_cnf(instance, "reduced" if instance.kind in ("sudoku", "latin", "coloring")
                  else None)


def count(instance, limit=LIMIT):
    return count_solutions(encode(instance), limit=limit)


def any_solution(instance):
    return solve(encode(instance))


@st.composite
def random_partial_latin(draw, max_order=5):
    """Valid partial Latin squares from random givens: many are not completable."""
    n = draw(st.integers(2, max_order))
    grid = np.zeros((n, n), dtype=int)
    for _ in range(draw(st.integers(0, n * n // 2))):
        r, c, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)), draw(st.integers(1, n))
        if v not in grid[r] and v not in grid[:, c]:
            grid[r, c] = v
    return latin_square(grid)


SOURCES = {
    "latin": st.one_of(random_partial_latin(4),
                       partial_grids().filter(lambda p: p.kind == "latin")),
    "sudoku": partial_grids().filter(lambda p: p.kind == "sudoku"),
    "coloring": small_precolorings(),
    "cnf": random_cnf(),
    "xc": small_matrices(),
}


def check_reduction(name, source):
    spec = REDUCTIONS[name]
    reduced = reduce(name, source)
    assert reduced.parsimonious == spec.parsimonious
    source_count = count(source)
    target_count = count(reduced.target)
    assert (source_count > 0) == (target_count > 0), "YES/NO not preserved"
    if spec.parsimonious:
        assert source_count == target_count
    else:
        assert target_count >= source_count
    if source_count:
        planted = any_solution(source)
        forward = reduced.encode(planted)
        assert reduced.target.is_solution(forward) if hasattr(reduced.target, "is_solution") \
            else reduced.target.is_cover(forward)
        assert np.array_equal(np.asarray(reduced.decode(forward)), np.asarray(planted))
        back = reduced.decode(any_solution(reduced.target))
        assert source.is_solution(back) if hasattr(source, "is_solution") else source.is_cover(back)


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_every_reduction_on_random_instances(name):
    strategy = SOURCES[REDUCTIONS[name].source]
    if name == "latin2sudoku":
        strategy = random_partial_latin(3)  # order k gives a k^2 x k^2 Sudoku

    @settings(max_examples=40, deadline=None)
    @given(strategy)
    def run(source):
        check_reduction(name, source)

    run()


def test_sudoku_graph_has_810_edges():
    target = reduce("sudoku2coloring", sudoku(np.zeros((9, 9), dtype=int))).target
    assert len(target.edges) == 810 and target.num_colors == 9


def test_reductions_check_their_source_kind():
    with pytest.raises(InstanceError, match="latin2sudoku needs a latin instance"):
        reduce("latin2sudoku", sudoku(np.zeros((4, 4), dtype=int)))


def test_latin_to_sudoku_every_pls_up_to_order_10(data_dir):
    paths = sorted((data_dir / "latin").glob("*/*.pls"))
    squares = [r.instance for p in paths for r in read_instances(str(p)) if r.instance.n <= 10]
    assert len(squares) >= 10
    for square in squares:
        reduced = reduce("latin2sudoku", square)
        assert reduced.target.n == square.n ** 2
        assert int(np.count_nonzero(reduced.target.givens == 0)) == \
            int(np.count_nonzero(square.givens == 0))
        source_count = count(square, 2)
        assert count(reduced.target, 2) == source_count
        if source_count:
            grid = any_solution(reduced.target)
            assert square.is_solution(reduced.decode(grid))


def globally_stuck_squares(seed=7, wanted=12):
    """Partial Latin squares of order 2-5 where every empty cell still has a candidate but no
    completion exists (the failure is only global)."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < wanted:
        n = int(rng.integers(3, 6))
        grid = np.zeros((n, n), dtype=int)
        for _ in range(int(rng.integers(n, n * n // 2 + 2))):
            r, c, v = rng.integers(0, n, size=2).tolist() + [int(rng.integers(1, n + 1))]
            if v not in grid[r] and v not in grid[:, c]:
                grid[r, c] = v
        square = latin_square(grid)
        from sudokit.encoders import candidate_mask
        has_candidates = candidate_mask(square)[square.flat_givens == 0].any(axis=1).all()
        if has_candidates and brute_force_count(square) == 0:
            found.append(square)
    return found


def test_latin_to_sudoku_on_incompletable_squares_with_only_global_failure():
    for square in globally_stuck_squares():
        target = reduce("latin2sudoku", square).target
        assert count(target, 1) == 0


def test_chains_compose():
    square = latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 2]]))
    chain = reduce("latin2sudoku", square).then("sudoku2xc").then("xc2sat")
    assert chain.parsimonious and chain.target.kind == "cnf"
    assert count(chain.target) == count(square) == brute_force_count(square)
    back = chain.decode(any_solution(chain.target))
    assert square.is_solution(back)


# -- the command line --------------------------------------------------------------------------

def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("name, path, options", [
    ("latin2sudoku", "latin/gomes_lsencode_PLS/qwh.order10.holes10.pls", []),
    ("latin2coloring", "latin/qcp_csp2009_minizinc/qcp-10-67-0.pls", []),
    ("sudoku2coloring", "sudoku/9x9-norvig/top95.txt", []),
    ("sudoku2xc", "sudoku/gecode-9-16-25/sudoku16_janko_via_gecode.txt", []),
    ("sudoku2sat", "sudoku/9x9-sudokuexchange/diabolical.txt", []),
    ("coloring2xc", "coloring/original_trick_rzepinskip/myciel3.col", ["--colors", "4"]),
    ("coloring2sat", "coloring/original_trick_rzepinskip/queen5_5.col", ["--colors", "5"]),
])
def test_reduce_solve_on_real_instances(data_dir, tmp_path, name, path, options):
    source = data_dir / path
    if source.suffix == ".txt":  # a file of many puzzles: reduce and check the first one
        from sudokit.formats import format_instance
        first = read_instances(str(source))[0]
        source = tmp_path / "first.txt"
        source.write_text(format_instance(first) + "\n")
    result = run("reduce", name, str(source), "--solve", *options)
    assert result.exit_code == 0, result.stderr
    checked = run("check", str(source), "-", *options, input=result.stdout)
    assert checked.stdout == "valid\n", checked.stdout + checked.stderr


def test_reduce_cli_round_trip_through_files(tmp_path):
    square = "sudokit/instances/examples/qwh5.pls"
    target = tmp_path / "t.txt"
    assert run("reduce", "latin2sudoku", square, "-o", str(target)).exit_code == 0
    solved = run("solve", str(target))
    mapped = run("reduce", "latin2sudoku", square, "--map-back", "-", input=solved.stdout)
    assert mapped.exit_code == 0 and mapped.stdout.startswith("order 5\n")
    assert run("check", square, "-", input=mapped.stdout).stdout == "valid\n"
    wrong = solved.stdout.replace("1", "#", 1).replace("2", "1", 1).replace("#", "2", 1)
    bad = run("reduce", "latin2sudoku", square, "--map-back", "-", input=wrong)
    assert bad.exit_code == 1 and bad.stdout.startswith("invalid target solution:")


def test_reduce_cli_list_check_explain_and_errors():
    listed = run("reduce", "--list").stdout.splitlines()
    assert len(listed) == len(REDUCTIONS) and "not parsimonious" in "".join(listed)
    checked = run("reduce", "sudoku2coloring", "sudokit/instances/examples/puzzle17.txt", "--check")
    assert checked.stdout.endswith("agree\n")
    explained = run("reduce", "latin2sudoku", "sudokit/instances/examples/qwh5.pls", "--explain")
    assert "25x25 Sudoku with 5x5 boxes" in explained.stdout
    unknown = run("reduce", "magic2sat", "x.txt")
    assert unknown.exit_code == 2 and "reduce --list" in unknown.stderr
    missing = run("reduce", "latin2sudoku")
    assert missing.exit_code == 2
    cnf_to_xc = run("reduce", "sat2xc", "-", "--solve", input="p cnf 2 2\n1 2 0\n-1 0\n")
    assert cnf_to_xc.stdout == "s SATISFIABLE\nv -1 2 0\n"
    unsat = run("reduce", "sat2xc", "-", "--check", input="p cnf 1 2\n1 0\n-1 0\n")
    assert unsat.stdout == ("source: unsat; target: unsat; agree "
                            "(not parsimonious: only YES/NO is compared)\n")
    counted = run("reduce", "sat2xc", "-", "--check", "--limit", "10",
                  input="p cnf 2 2\n1 2 0\n-1 2 0\n")
    assert counted.stdout.startswith("source: sat, 2 solution(s); target: sat, 4 solution(s)")
