"""Grading by propagation strength (sudokit.grading): soundness, lattice order, hand-made cases."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from sudokit.cli.grade import grade as grade_command
from sudokit.grading import (
    ORDER,
    STRONGER,
    grade,
    is_weaker,
    label_nodes,
    propagate,
    search_free,
    search_free_table,
)
from sudokit.grading.domains import grid_tables
from sudokit.grading.engine import propagate as propagate_kernel
from sudokit.grading.lattice import scheme_flags
from sudokit.instances import latin_square, sudoku

from ..helpers import EXAMPLES, HANG_GUARD, data_path, grid_from_line

REQUIRED = ("FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HAC3", "FCV", "BCV", "HACV")
SLOW = ("FCV", "BCV")   # shaving with a weak base scheme: a few ms to tens of ms a puzzle


def _lines(path, count):
    out = []
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
                if len(out) >= count:
                    break
    return out


@pytest.fixture(scope="module")
def royle(request):
    folder = data_path("sudoku", "9x9-royle17")
    puzzles = _lines(folder / "sudoku17.txt", 2000)
    solutions = _lines(folder / "sudoku17_solutions.txt", 2000)
    return [(sudoku(grid_from_line(p)), grid_from_line(s).reshape(-1))
            for p, s in zip(puzzles, solutions, strict=False)]


def _keeps(domains, solution):
    flat = domains.reshape(-1)
    return bool(((flat >> (solution - 1)) & 1).all())


# -- soundness -------------------------------------------------------------------------------
def test_no_scheme_removes_a_solution_value(royle):
    fast = [s for s in ORDER if s not in SLOW]
    for index, (puzzle, solution) in enumerate(royle):
        for name in fast + (list(SLOW) if index < 120 else []):
            status, dom = propagate(puzzle, name)
            assert status != "failed", (index, name)
            assert _keeps(dom, solution), (index, name)
            if status == "solved":
                assert (dom.reshape(-1) == (1 << (solution - 1))).all()


def test_labelling_finds_the_solution(royle):
    for puzzle, _solution in royle[:50]:
        assert label_nodes(puzzle, "FCI") >= 1
    # a puzzle FC cannot solve: the fixed labelling needs more than one node
    assert label_nodes(royle[0][0], "FC") > 1


def _random_solved(n, box, rng):
    r, c = box
    base = np.array([[(c * (i % r) + i // r + j) % n for j in range(n)] for i in range(n)]) + 1
    rows = np.concatenate([rng.permutation(r) + band * r
                           for band in rng.permutation(n // r)])
    cols = np.concatenate([rng.permutation(c) + stack * c
                           for stack in rng.permutation(n // c)])
    return rng.permutation(n)[base[np.ix_(rows, cols)] - 1] + 1


@pytest.mark.parametrize("n,box", [(6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (16, (4, 4))])
def test_soundness_on_other_shapes(n, box):
    rng = np.random.default_rng(n * 10 + box[0])
    for _trial in range(8):
        solution = _random_solved(n, box, rng)
        assert sudoku(np.zeros((n, n), dtype=int), box=box).is_solution(solution), (n, box)
        givens = np.where(rng.random((n, n)) < 0.45, solution, 0)
        puzzle = sudoku(givens, box=box)
        schemes = ORDER if n <= 8 else [s for s in ORDER if s not in SLOW]
        for name in schemes:
            status, dom = propagate(puzzle, name)
            assert status != "failed" and _keeps(dom, solution.reshape(-1)), (n, box, name)


def test_latin_squares_have_no_box_constraints():
    square = np.array([[(i + j) % 5 + 1 for j in range(5)] for i in range(5)])
    givens = square.copy()
    givens[[0, 1, 2], [0, 2, 4]] = 0
    for name in ORDER:
        status, dom = propagate(latin_square(givens), name)
        assert status == "solved" and _keeps(dom, square.reshape(-1))


# -- lattice order ---------------------------------------------------------------------------
def _check_monotone(table):
    for weak, stronger in STRONGER.items():
        for strong in stronger:
            i, j = ORDER.index(weak), ORDER.index(strong)
            assert not (table[:, i] & ~table[:, j]).any(), (weak, strong)


def test_search_free_is_monotone_in_the_lattice(royle, data_dir):
    puzzles = [p for p, _ in royle[:150]]
    top = [sudoku(grid_from_line(line)) for line in
           _lines(data_dir / "sudoku" / "9x9-norvig" / "top95.txt", 30)]
    table = search_free_table(puzzles + top, ORDER)
    _check_monotone(table)
    # and the lattice is not trivial on this sample: some scheme pairs differ
    assert table.any(axis=0).sum() > 5 and not table.all(axis=0).all()


def test_lattice_order_is_a_linear_extension():
    for weak, stronger in STRONGER.items():
        for strong in stronger:
            assert ORDER.index(weak) < ORDER.index(strong)
            assert is_weaker(weak, strong)
    assert is_weaker("FC", "HACSC3") and not is_weaker("FCI", "BC")


# -- hand-made cases -------------------------------------------------------------------------
def _run(dom, scheme, puzzle):
    t = grid_tables(puzzle)
    dom = dom.copy()
    result = propagate_kernel(dom, scheme_flags(scheme), *t.kernel_args(), t.n, t.full)
    return result, dom


def _full(n):
    return np.full(n * n, (1 << n) - 1, dtype=np.int64)


def test_same_constraint_prunes_where_hac_does_not():
    p = sudoku(np.zeros((9, 9), dtype=int))
    dom = _full(9)
    for r in (1, 2):
        for c in range(3):
            dom[r * 9 + c] &= ~1   # value 1 of box 1 lies in row 1
    target = [c for c in range(3, 9)]   # row 1 outside box 1
    for name in ("HAC", "HACC"):
        _, out = _run(dom, name, p)
        assert (out == dom).all(), name
    for name in ("HACS", "HAC3"):
        _, out = _run(dom, name, p)
        assert all(out[c] & 1 == 0 for c in target), name


def test_colored_matrix_prunes_where_hac_does_not():
    p = sudoku(np.zeros((9, 9), dtype=int))
    dom = _full(9)
    for r in (0, 4):                   # an X-wing on value 1: rows 1 and 5, columns 1 and 5
        for c in range(9):
            if c not in (0, 4):
                dom[r * 9 + c] &= ~1
    for name in ("HAC", "HACS", "HAC3"):
        _, out = _run(dom, name, p)
        assert (out == dom).all(), name
    _, out = _run(dom, "HACC", p)
    for r in range(9):
        for c in (0, 4):
            assert bool(out[r * 9 + c] & 1) == (r in (0, 4))


def test_band_matching_prunes_where_same_does_not():
    p = sudoku(np.zeros((16, 16), dtype=int))
    dom = _full(16)
    for r in (0, 1):                   # rows 1 and 2 hold value 1 in boxes 1 and 2 only
        for c in range(8, 16):
            dom[r * 16 + c] &= ~1
    for name in ("HAC", "HACS", "HACC", "HACSC"):
        _, out = _run(dom, name, p)
        assert (out == dom).all(), name
    _, out = _run(dom, "HAC3", p)
    for r in (2, 3):                   # so rows 3 and 4 hold it in boxes 3 and 4
        assert all(out[r * 16 + c] & 1 == 0 for c in range(8))
        assert all(out[r * 16 + c] & 1 for c in range(8, 16))


def test_bounds_consistency_prunes_less_than_hac():
    # row 1 of a 5x5 Latin square: {1,4}, {1,4}, {2,3}, {2,4,5}, {1..5}. HAC sees the Hall
    # set {1,4} and removes 4 from the fourth cell; BC walks the cells by falling lower
    # bound, {2,3} comes before the pair, so {1,4} is never an exhausted prefix
    p = latin_square(np.zeros((5, 5), dtype=int))
    dom = _full(5)
    dom[0] = dom[1] = 0b01001
    dom[2], dom[3] = 0b00110, 0b11010
    _, out = _run(dom, "BC", p)
    assert (out == dom).all()
    _, out = _run(dom, "HAC", p)
    assert out[3] == 0b10010 and out[4] == 0b10110


def test_bounds_consistency_prunes_what_forward_checking_cannot():
    p = latin_square(np.zeros((3, 3), dtype=int))
    dom = _full(3)
    # a Hall interval {1,2}, {1,2}, {1,2,3}, and ECLiPSe's domain-size inference on a naked
    # pair with a hole inside its bounds: {1,3}, {1,3}, {1,2,3}
    for pair, rest in ((0b011, 0b100), (0b101, 0b010)):
        dom[0] = dom[1] = pair
        _, out = _run(dom, "BC", p)
        assert out[2] == rest
        _, out = _run(dom, "FC", p)
        assert out[2] == 0b111


def test_bci_runs_bc_on_the_dual_model():
    # row 1 of a 4x4 Latin square: {1,4}, {1,2,3,4}, {1,4}, {2,3,4}. BC on the cells misses
    # the naked pair (not a prefix of its order) and hidden singles find nothing; BC on the
    # values finds the hidden pair {2,3} in columns 2 and 4, as Simonis's dual model does
    p = latin_square(np.zeros((4, 4), dtype=int))
    dom = _full(4)
    dom[0], dom[1], dom[2], dom[3] = 0b1001, 0b1111, 0b1001, 0b1110
    for scheme in ("BC", "FCI"):
        _, out = _run(dom, scheme, p)
        assert out[1] == 0b1111 and out[3] == 0b1110, scheme
    _, out = _run(dom, "BCI", p)
    assert out[1] == 0b0110 and out[3] == 0b0110


def test_bounds_consistency_keeps_its_split_constraints():
    # after a split the parts are analysed on their own: a hidden single at the top value
    # (9 only in the last cell) is found once the given 1 has been split off
    from sudokit.grading.bounds import bc_unit
    full = 0b111111111
    dom = np.array([0b1] + [full & ~0b100000001] * 7 + [full], dtype=np.int64)
    group = np.zeros(9, dtype=np.int64)
    dirty = np.zeros(3, dtype=np.int8)
    assert bc_unit(dom, np.arange(9), group, np.zeros((9, 1), dtype=np.int64), dirty) == 1
    assert dom[8] == 0b100000000 and len(set(group.tolist())) >= 2


# 17-clue puzzles (tdoku puzzles2_17_clue) BC solves; with hidden singles interleaved into
# BC's propagation, BCI once missed them (BC's splits depend on the order of events)
BC_ORDER_SENSITIVE = (
    "..............1..2.34....5............645....2...7.1.8.......4.......6..1....89..",
    "........1........2..3.45........657..1.2.....8...........8..3.9..5.......27......",
    "........1.......2...3..4........5..3.2......678...........1.......28..7.6.9...4..",
    "........1.......2...3..4........5..3.2......678...........1.......82..7.6.9...4..",
)


def test_bci_solves_what_bc_solves_despite_bc_order_sensitivity():
    puzzles = [sudoku(grid_from_line(line)) for line in BC_ORDER_SENSITIVE]
    flags = search_free_table(puzzles, ["BC", "BCI", "BCV", "HAC"])
    assert flags.all()


def test_a_puzzle_hac_solves_and_bounds_consistency_does_not(royle):
    flags = search_free_table([p for p, _ in royle[:60]], ["BCI", "HAC"])
    assert (flags[:, 1] & ~flags[:, 0]).any()


# -- API and CLI -----------------------------------------------------------------------------
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_grade_and_search_free_api():
    easy = sudoku(grid_from_line(EASY))
    assert grade(easy) == "FC"
    flags = search_free(easy)
    assert list(flags) == list(ORDER) and all(flags.values())
    assert label_nodes(easy) == 1
    empty = sudoku(np.zeros((9, 9), dtype=int))
    assert grade(empty) == "search" and not any(search_free(empty, REQUIRED).values())


def test_cli_json_and_summary():
    path = str(EXAMPLES / "top3.txt")
    runner = CliRunner()
    result = runner.invoke(grade_command, ["--json", path])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 3
    for row in rows:
        assert set(REQUIRED) <= set(row["search_free"])
        assert row["grade"] in ORDER + ("search",) and row["nodes"] >= 1
        puzzle = sudoku(grid_from_line(_lines(path, 3)[row["index"] - 1]))
        assert row["grade"] == grade(puzzle)
        assert row["search_free"] == search_free(puzzle)
    result = runner.invoke(grade_command, ["--summary", "--schemes", "FC,HAC", path])
    assert result.exit_code == 0
    head, values = result.output.split("\n")[:2]
    assert head.split() == ["instances", "FC", "HAC"] and values.split()[0] == "3"
    result = runner.invoke(grade_command, ["--schemes", "FC,XYZ", path])
    assert result.exit_code == 2 and "unknown scheme" in result.output
    result = runner.invoke(grade_command, ["--no-nodes", "--schemes", "FC", path])
    assert result.output.split() == ["search"] * 3


def test_one_shaving_pass_is_weaker_than_the_fixpoint(royle):
    puzzles = [p for p, _ in royle[:300]]
    fixpoint = search_free_table(puzzles, ["FCV", "BCV", "HAC"])
    one_pass = search_free_table(puzzles, ["FCV", "BCV", "HAC"], shave_passes=1)
    assert not (one_pass[:, :2] & ~fixpoint[:, :2]).any()      # never solves more
    assert fixpoint[:, 0].sum() > one_pass[:, 0].sum()           # FCV: the paper's gap
    assert (one_pass[:, 2] == fixpoint[:, 2]).all()              # non-shaving schemes ignore it
    assert one_pass[:, 1].mean() > 0.9                           # BCV stays near the paper
    for puzzle in puzzles[:40]:
        flags = search_free(puzzle, ["FCV", "BCV"], shave_passes=1)
        name = grade(puzzle, ["FCV", "BCV"], shave_passes=1)
        assert name == next((s for s in ("FCV", "BCV") if flags[s]), "search")


def test_cli_shave_passes():
    path = str(EXAMPLES / "top3.txt")
    runner = CliRunner()
    result = runner.invoke(grade_command, ["--summary", "--schemes", "FCV,BCV",
                                           "--shave-passes", "1", path])
    assert result.exit_code == 0, result.output
    result = runner.invoke(grade_command, ["--shave-passes", "0", path])
    assert result.exit_code == 2 and "--shave-passes" in result.output


def test_kernels_run_without_jit():
    grid = [[1, 2, 0, 0], [0, 0, 1, 2], [2, 0, 0, 0], [0, 0, 2, 0]]
    code = ("import numpy as np; from sudokit.grading import search_free;"
            "from sudokit.instances import sudoku;"
            f"print(sorted(k for k, v in search_free(sudoku(np.array({grid}))).items() if v))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=HANG_GUARD)
    assert out.returncode == 0, out.stderr
    jitted = sorted(k for k, v in search_free(sudoku(np.array(grid))).items() if v)
    assert out.stdout.strip() == str(jitted)
