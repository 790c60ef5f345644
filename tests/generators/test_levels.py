"""Generation by difficulty (``generate sudoku --level / --rating / --grade``): the search
gives unique, minimal puzzles whose rating is the one asked for, the same for the same seed,
and every step of its climb is a unique minimal puzzle of one grid."""

import json

import numpy as np
import pytest

from sudokit.formats import parse_puzzles
from sudokit.generators import GeneratedPuzzle, PuzzleGenerator, graded
from sudokit.generators.graded import (
    GRADES,
    Target,
    climb,
    grade_target,
    level_target,
    rating_target,
    se_rating,
)
from sudokit.generators.hardness import hard_patterns
from sudokit.grading import grade
from sudokit.human import LEVELS, rate
from sudokit.instances import sudoku
from sudokit.solvers.registry import open_engine

from ..helpers import assert_cli_error, cli_run
from .checks import check_batch


def generated(*args):
    result = cli_run("generate", "sudoku", "--size", 9, "--json", *args)
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


class _Made:
    """What :func:`check_batch` reads of a generated puzzle."""

    def __init__(self, record):
        self.puzzle = parse_puzzles(record["puzzle"])[0].instance.givens
        self.solution = parse_puzzles(record["solution"])[0].instance.givens
        self.clues = record["clues"]
        self.minimal = record["checks"]["minimal"]


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_level_puzzles_are_of_that_level_unique_minimal_and_seeded(level):
    records = generated("--level", level, "--count", 2, "--seed", 5, "--solution")
    assert len(records) == 2
    for record in records:
        puzzle = parse_puzzles(record["puzzle"])[0].instance
        assert rate(puzzle).level == level
        assert record["checks"]["minimal"] and record["checks"]["unique"]
        assert record["difficulty"]["target"] == f"level {level}"
    check_batch([_Made(r) for r in records], 9, (3, 3), minimal=True)
    again = generated("--level", level, "--count", 2, "--seed", 5, "--solution")
    assert [r["puzzle"] for r in again] == [r["puzzle"] for r in records]
    assert len({r["puzzle"] for r in records}) == 2


def test_a_level_above_the_random_start_is_reached_by_climbing():
    """Climbing towards 'hard' rates its neighbours: the search tries more than one puzzle
    for at least one of them (a random minimal puzzle is rarely hard), and lands in the
    band."""
    low, high = LEVELS["hard"]
    with PuzzleGenerator(9, (3, 3), seed=11) as gen:
        made = [climb(gen, level_target("hard")) for _ in range(2)]
    for m in made:
        value = rate(m.instance).value
        assert low <= value <= high and m.minimal and m.unique
    assert max(m.extra["search"]["tried"] for m in made) > 1


def test_rating_range_and_grade_targets():
    records = generated("--rating", "2.0:3.0", "--count", 1, "--seed", 2)
    assert 2.0 <= rate(parse_puzzles(records[0]["puzzle"])[0].instance).value <= 3.0
    records = generated("--grade", "BCI", "--minimal", "--count", 2, "--seed", 4)
    assert {grade(parse_puzzles(r["puzzle"])[0].instance) for r in records} == {"BCI"}


@pytest.mark.parametrize("regrid", [0.0, 1.0])
def test_neighbours_stay_unique_and_minimal_and_move_grids_when_asked(monkeypatch, regrid):
    """Same-grid neighbours keep the solution; value moves ({-1+1} on a clue value) go to
    another grid; either way the neighbour is a unique minimal puzzle of its solution."""
    monkeypatch.setattr(graded, "REGRID", regrid)
    with PuzzleGenerator(9, (3, 3), seed=3) as gen:
        start = gen.make("minimal")
        search = graded._Search(grade_target("search"), graded.grade_rank, 0.0, None, None)
        engine = open_engine("dlx", shape=gen.template)
        seen = moved = 0
        for _ in range(80):        # a few in ten neighbours of a minimal puzzle are unique
            nearby = graded._neighbour(gen, start, search, engine)
            if nearby is None:
                continue
            seen += 1
            moved += not np.array_equal(nearby.solution, start.solution)
            assert sudoku(nearby.puzzle).is_solution(nearby.solution)
            check_batch([nearby], 9, (3, 3), minimal=True)
        engine.close()
    assert seen > 0
    assert (moved == 0) if regrid == 0.0 else (moved == seen)


def test_hard_targets_start_from_a_hard_pattern_filled_from_a_fresh_grid():
    masks = {tuple(m) for m in hard_patterns().tolist()}
    with PuzzleGenerator(9, (3, 3), seed=8) as gen:
        search = graded._Search(grade_target("search"), graded.grade_rank, 0.0, None, None)
        made = graded._start(gen, grade_target("search"), search, None)
        check_batch([made], 9, (3, 3), minimal=True)
        assert made.extra["fill"] == {"strategy": "pattern"}
        # the pattern's cells are mostly kept: the start shares most givens with one pattern
        given = made.puzzle.reshape(-1) > 0
        assert max(int(np.sum(given & np.array(m))) for m in masks) >= 0.6 * given.sum()
        assert graded._start(gen, level_target("easy"), search, None).extra["fill"] \
            .get("strategy") != "pattern"


def test_a_seeded_climb_reaches_grade_bcv_within_a_bounded_number_of_puzzles():
    """BCV (the second hardest grade short of search; about 1 in 13 random minimal
    puzzles) is reached by the climb from hard patterns within 400 puzzles scored, and the
    same seed gives the same puzzle."""
    made = []
    for _ in range(2):
        with PuzzleGenerator(9, (3, 3), seed=21) as gen:
            made.append(climb(gen, grade_target("BCV")))
    assert np.array_equal(made[0].puzzle, made[1].puzzle)
    assert grade(made[0].instance) == "BCV" and made[0].minimal
    assert made[0].extra["search"]["tried"] <= 400
    check_batch(made[:1], 9, (3, 3), minimal=True)


def test_hard_rating_targets_rate_only_puzzles_the_proxy_lets_through():
    target = rating_target(10.0, 99.9)
    assert graded.is_hard(target) and not graded.is_hard(level_target("diabolical"))
    with PuzzleGenerator(9, (3, 3), seed=2) as gen:
        search = graded._Search(target, se_rating, 0.0, None, None)
        easy = gen.make("minimal")
        far = search.distance(easy)
        if grade(easy.instance) not in ("BCV", "HACV", "search"):
            assert far[0] >= graded._PROXY_FAR and search.rated == 0
    hard = parse_puzzles("98.7..6..75..4......3..8.7.5....7.3...94.........2.1.."
                         "3.......1.9...5.8...52....6")[0].instance    # SE 11+, search
    record = GeneratedPuzzle(np.asarray(hard.givens), np.asarray(hard.givens), (3, 3), 21,
                             0.0, 0.0, 0, "dlx", True, True)
    assert search.distance(record)[0] == 0.0 and search.rated == 1


def test_reduce_refuses_a_puzzle_with_several_solutions():
    with PuzzleGenerator(9, (3, 3), seed=6) as gen:
        made = gen.make("minimal")
        fewer = made.puzzle.copy().reshape(-1)
        fewer[np.flatnonzero(fewer)[0]] = 0          # minimal: one clue less is not unique
        assert gen.reduce(fewer.reshape(9, 9), made.solution) is None
        same = gen.reduce(made.puzzle, made.solution)
        assert np.array_equal(same.puzzle, made.puzzle)   # minimal already: nothing goes


def test_capped_rating_stops_above_the_cap_but_never_below():
    p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
                      "1.......5.6.9.2.1...3.6.2..")[0].instance
    full = se_rating(p)
    assert full == rate(p).value
    for cap in (1.0, 2.0, 5.0, 7.1, 9.0):
        capped = se_rating(p, cap=cap)
        assert capped <= full
        assert capped == full if full <= cap else capped > cap


def test_targets():
    assert grade_target("search").low == len(GRADES) - 1
    assert grade_target("BCV").distance(13.5) == 0 and grade_target("BCV").distance(14) > 0
    assert Target("rating", 8.0, 8.9, "x").distance(9.5) == pytest.approx(0.6)
    with pytest.raises(Exception, match="choose one of easy, medium"):
        level_target("nightmare")
    with pytest.raises(Exception, match="low to high"):
        rating_target(5, 4)
    assert graded.grade_rank(sudoku(np.zeros((4, 4), int))) == GRADES.index("search")


def test_unknown_level_lists_the_levels():
    line = assert_cli_error(cli_run("generate", "sudoku", "--size", 9, "--level", "hardest"),
                            2, "--level")
    for name in LEVELS:
        assert name in line


def test_bad_rating_range_and_conflicting_options():
    assert_cli_error(cli_run("generate", "sudoku", "--size", 9, "--rating", "x:y"), 2,
                     "--rating")
    assert_cli_error(cli_run("generate", "sudoku", "--size", 9, "--level", "easy",
                             "--grade", "HAC"), 2, "--grade", "--level")
    assert_cli_error(cli_run("generate", "sudoku", "--size", 9, "--level", "easy", "--full"),
                     2, "--full")


def test_clue_count_with_a_grade_gives_up_without_suggesting_minimal(monkeypatch):
    monkeypatch.setattr(graded, "GRADE_ATTEMPTS", 2)
    result = cli_run("generate", "sudoku", "--size", 9, "--clues", 40, "--grade", "search",
                     "--seed", 1)
    line = assert_cli_error(result, 4, "grade search", "--clues")
    assert "--minimal" not in line


def test_time_limit_ends_a_search_with_exit_5():
    result = cli_run("generate", "sudoku", "--size", 9, "--grade", "search", "--seed", 1,
                     "--time-limit", "0.5")
    assert_cli_error(result, 5, "grade search", "--time-limit")


def test_a_capped_rating_never_looks_for_the_techniques_above_the_cap(monkeypatch):
    """The first puzzle of the forum's hardest (SE 11+): where its path needs the nested
    chains (9.0 and up), a rating capped below 9.0 (a search for diabolical puzzles) stops
    without calling their search (at 8.9: answering 9.0, the least it can be; lower caps
    stop at an easier step above them); capped at 9.9 the
    search runs (levels 1 and 2) and the answer is still above the cap."""
    from sudokit.human import nested

    calls = []
    search = nested.nested_search

    def counted(*args):
        calls.append(1)
        return search(*args)

    monkeypatch.setattr(nested, "nested_search", counted)
    puzzle = parse_puzzles("98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3....."
                           "..1.9...5.8...52....6")[0].instance
    assert [se_rating(puzzle, cap=cap) for cap in (2.0, 8.0, 8.9)] == [2.3, 8.5, 9.0]
    assert not calls
    assert se_rating(puzzle, cap=9.9) > 9.9 and calls
