"""The pattern game (sudokit/generators/pattern_game.py) and the search for the hardest
targets built on it (graded._game): checked by the work done, never by time. Uniqueness is
checked by a second counter (Takano's) beside the DLX the search counts with."""

import numpy as np
import pytest

from sudokit.formats import parse_puzzles
from sudokit.generators import PuzzleGenerator, graded, pattern_game
from sudokit.generators.graded import climb, grade_target, rating_target, se_rating
from sudokit.generators.hardness import hard_patterns, survivors
from sudokit.generators.pattern_game import anneal, count, neighbour, value_search
from sudokit.grading import grade
from sudokit.solvers.registry import open_engine

from .checks import check_batch

HARD = ("98.7..6..75..4......3..8.7.5....7.3...94.........2.1.."
        "3.......1.9...5.8...52....6")          # of the forum's hardest: SE 11+, search


@pytest.fixture
def gen_engines():
    gen = PuzzleGenerator(9, (3, 3), seed=5)
    dlx = open_engine("dlx", shape=gen.template)
    takano = open_engine("takano", shape=gen.template)
    yield gen, dlx, takano
    dlx.close()
    takano.close()
    gen.close()


def share(gen, givens):
    kept = survivors(gen.template.with_givens(givens.reshape(9, 9)))
    return kept.kept / kept.open if kept.open else 0.0


def test_value_search_reaches_a_unique_fill_of_real_patterns_within_k_moves(gen_engines):
    """Five of the shipped hard patterns (21-24 clues, thousands of solutions when filled
    from a random grid) get unique fills on exactly their cells within 600 value changes."""
    gen, dlx, takano = gen_engines
    masks = hard_patterns()
    for k in (0, 50, 100, 200, 400):
        fill = value_search(gen, masks[k], dlx, most=600)
        assert fill.solutions == 1 and fill.moves <= 600
        assert np.array_equal(fill.givens > 0, masks[k])
        assert count(gen, fill.givens, takano, 2) == 1


def test_the_descent_starts_from_several_solutions_and_never_goes_up(gen_engines,
                                                                    monkeypatch):
    gen, dlx, _ = gen_engines
    mask = hard_patterns()[7]
    grid = gen.full_grid().reshape(-1)
    givens = np.where(mask, grid, 0).astype(np.int32)
    start = count(gen, givens, dlx, pattern_game.COUNT_LIMIT)
    assert start > 1                      # a hard pattern on a random grid: not unique
    seen = []
    real = pattern_game.count

    def watched(*args, **kw):
        seen.append(real(*args, **kw))
        return seen[-1]

    monkeypatch.setattr(pattern_game, "count", watched)
    fill = pattern_game.descend(gen, givens, start, dlx, pattern_game.unit_peers(gen), 2000)
    kept = [start]
    for c in seen:                        # the counts the descent kept never rise
        if 0 < c <= kept[-1]:
            kept.append(c)
    assert fill.solutions == 1 and kept[-1] == 1 and kept == sorted(kept, reverse=True)


def test_neighbours_are_unique_and_keep_the_clue_count(gen_engines):
    gen, dlx, takano = gen_engines
    start = value_search(gen, hard_patterns()[3], dlx).givens
    peers = pattern_game.unit_peers(gen)
    made = 0
    for _ in range(40):
        near = neighbour(gen, start, dlx, peers)
        if near is None:
            continue
        made += 1
        assert count(gen, near, takano, 2) == 1
        assert (near > 0).sum() == (start > 0).sum()
        assert 1 <= (near != start).sum() <= 2 + pattern_game.REPAIR_MOVES
        for unit in gen.template.units():          # no clue repeats a value in a unit
            values = near[unit][near[unit] > 0]
            assert len(values) == len(set(values.tolist()))
    assert made >= 10


def test_a_seeded_anneal_from_a_fixed_start_climbs_the_proxy_within_k_candidates():
    """From the same fill, 120 moves of annealing on the survivors share end higher than
    the start, and the same seed gives the same walk."""
    bests = []
    for _ in range(2):
        with PuzzleGenerator(9, (3, 3), seed=11) as gen:
            engine = open_engine("dlx", shape=gen.template)
            start = value_search(gen, hard_patterns()[12], engine).givens
            scored = []

            def height(g, gen=gen, scored=scored):
                scored.append(share(gen, g))
                return scored[-1]

            best, high = anneal(gen, start, engine, height, goal=2.0, steps=120)
            engine.close()
        assert len(scored) <= 121 and high == max(scored)
        assert high > share(gen, start)
        bests.append(best)
    assert np.array_equal(bests[0], bests[1])


def test_height_grades_and_rates_only_past_the_gates():
    hard = parse_puzzles(HARD)[0].instance
    givens = np.asarray(hard.givens).reshape(-1).astype(np.int32)
    with PuzzleGenerator(9, (3, 3), seed=3) as gen:
        easy = gen.make("minimal").puzzle.reshape(-1)
        search = graded._Search(grade_target("search"), graded.grade_rank, 0.0, None, None)
        assert search.height(gen, givens) == graded._FOUND
        assert search.height(gen, easy) < 1.0 and search.rated == 0
        rated = graded._Search(rating_target(10.0, 99.9), se_rating, 0.0, None, None)
        low = rated.height(gen, easy)
        assert low < 1.0 and rated.rated == 0           # not graded search: never rated
        assert rated.height(gen, givens) == graded._FOUND and rated.rated == 1
        assert rated.height(gen, givens) == graded._FOUND and rated.rated == 1  # known
        assert rated.tried == 2


def test_the_game_returns_a_minimal_puzzle_of_the_band_and_is_seeded(monkeypatch):
    """The whole loop of graded._game, with the band made reachable in a test's time: the
    grade ``search`` stands in for any puzzle keeping 60% of its candidates (the real
    target takes minutes). The puzzle is reduced to a minimal one, judged again, and the
    same seed gives the same puzzle."""
    def easier(puzzle):
        kept = survivors(puzzle)
        return "search" if kept.open and kept.kept >= 0.6 * kept.open else grade(puzzle)

    monkeypatch.setattr(graded, "grade", easier)
    monkeypatch.setattr(graded, "GRADE_SHARE", 0.5)
    made, ends = [], []
    for _ in range(2):
        with PuzzleGenerator(9, (3, 3), seed=4) as gen:
            made.append(climb(gen, grade_target("search"), ends=ends))
    assert np.array_equal(made[0].puzzle, made[1].puzzle)
    check_batch(made[:1], 9, (3, 3), minimal=True)
    assert easier(made[0].instance) == "search"
    assert made[0].extra["fill"] == {"strategy": "pattern game"}
    info = made[0].extra["search"]
    assert info["target"] == "grade search" and info["tried"] >= 1 and info["restarts"] >= 1
    assert 2 <= len(ends) <= 2 * info["restarts"]       # the highest of each restart
    assert easier(ends[len(ends) // 2 - 1]) == "search"  # the last one of a run: the find
