"""Real public instances (../shared/data): solved, verified, proved unique, known chromatic
numbers."""

import itertools

import numpy as np
import pytest

from sudokit.batch import run_batch
from sudokit.encoders import completion_to_cnf
from sudokit.formats import parse_instances, read_instances
from sudokit.formats.solutions import read_grid_solutions
from sudokit.solvers import count_solutions


def solve_and_verify(records, task="solve", limit=None):
    results = list(run_batch([r.instance for r in records], task=task, limit=limit))
    for record, result in zip(records, results, strict=True):
        assert result.status == "sat", f"line {record.line}: {result.status}"
        assert record.instance.is_solution(result.solution), f"line {record.line}"
    return results


def test_top95_solved_verified_and_unique(data_dir):
    records = read_instances(str(data_dir / "sudoku/9x9-norvig/top95.txt"))
    assert len(records) == 95
    results = solve_and_verify(records, "count", limit=2)
    assert {r.count for r in results} == {1}


def test_1000_seventeen_clue_puzzles_unique(data_dir):
    path = data_dir / "sudoku/9x9-tdoku/puzzles2_17_clue"
    with open(path) as handle:
        lines = [line for line in itertools.islice(handle, 1200) if not line.startswith("#")]
    records = parse_instances("".join(lines[:1000]), str(path))
    assert len(records) == 1000 and {r.instance.num_givens for r in records} == {17}
    results = solve_and_verify(records, "count", limit=2)
    assert {r.count for r in results} == {1}


def test_royle_solutions_agree(data_dir):
    folder = data_dir / "sudoku/9x9-royle17"
    with open(folder / "sudoku17.txt") as puzzles, open(folder / "sudoku17_solutions.txt") as sols:
        pairs = list(itertools.islice(zip(puzzles, sols, strict=False), 300))
    records = parse_instances("".join(p for p, _ in pairs))
    expected = read_grid_solutions("".join(s for _, s in pairs), "royle", records[0].instance)
    results = solve_and_verify(records, "count", limit=2)
    for result, known in zip(results, expected, strict=True):
        assert result.count == 1
        assert np.array_equal(result.solution, known)


def test_all_16x16_puzzles_solved_and_verified(data_dir):
    records = read_instances(str(data_dir / "sudoku/gecode-9-16-25/sudoku16_janko_via_gecode.txt"))
    assert len(records) == 55 and {r.instance.n for r in records} == {16}
    solve_and_verify(records)


def test_mixed_16x16_and_4x4_collections(data_dir):
    for name, size in (("16x16.txt", 16), ("4x4.txt", 4)):
        records = read_instances(str(data_dir / "sudoku/mixed-4x4-16x16" / name))
        assert len(records) == 100 and {r.instance.n for r in records} == {size}
        solve_and_verify(records)


@pytest.mark.slow
def test_all_25x25_puzzles_solved_and_verified(data_dir):
    records = read_instances(str(data_dir / "sudoku/gecode-9-16-25/sudoku25_gecode.txt"))
    assert len(records) == 18 and {r.instance.n for r in records} == {25}
    solve_and_verify(records)


@pytest.mark.slow
def test_every_qwh30_latin_square_solved_and_verified(data_dir):
    paths = sorted((data_dir / "latin/qwh30_42pct_zanarini_pesant").glob("*.pls"))
    assert len(paths) == 39
    records = [r for path in paths for r in read_instances(str(path))]
    assert {r.instance.n for r in records} == {30}
    solve_and_verify(records)


def test_small_gomes_quasigroups_solved(data_dir):
    paths = sorted((data_dir / "latin/gomes_lsencode_PLS").glob("*.pls"))
    records = [r for p in paths for r in read_instances(str(p)) if r.instance.n <= 20]
    assert records
    solve_and_verify(records)


@pytest.mark.parametrize("name, chi", [("myciel3", 4), ("myciel4", 5), ("myciel5", 6),
                                       ("queen5_5", 5)])
def test_known_chromatic_numbers(data_dir, name, chi):
    path = str(data_dir / "coloring/original_trick_rzepinskip" / f"{name}.col")
    colorable = read_instances(path, colors=chi)
    solve_and_verify(colorable)
    fewer = read_instances(path, colors=chi - 1)
    assert [r.status for r in run_batch([fewer[0].instance])] == ["unsat"]


def test_queen5_5_has_240_five_colorings(data_dir):
    # GROUND_TRUTH.md: P(queen5_5, 5) = 240 (2 partitions into 5-queens solutions x 5!)
    path = str(data_dir / "coloring/original_trick_rzepinskip/queen5_5.col")
    graph = read_instances(path, colors=5)[0].instance
    assert count_solutions(completion_to_cnf(graph, "direct")) == 240
