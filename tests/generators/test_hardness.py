"""The hardness proxy (singleton tests at the HAC fixpoint) against the grading module's own
propagation, and on real puzzles: the forum's hardest keep nearly every candidate, easy
puzzles have none open."""

import itertools

import numpy as np
import pytest

from sudokit.formats import parse_puzzles
from sudokit.generators import PuzzleGenerator
from sudokit.generators.hardness import hard_patterns, survivors
from sudokit.grading import grade, propagate

HARDEST = "/work/shared/data/sudoku/9x9-tdoku/puzzles5_forum_hardest_1905_11+"


def hardest(count):
    try:
        with open(HARDEST) as f:
            lines = [line.strip() for line in itertools.islice(f, 0, 5000, 250)]
    except OSError:
        pytest.skip("the shared data is not here")
    return [parse_puzzles(line)[0].instance for line in lines if len(line) == 81][:count]


def brute_force(puzzle):
    """Open candidates at the HAC fixpoint and those a given of that value makes HAC fail,
    by the grading module's public propagate on a puzzle with one more given."""
    status, dom = propagate(puzzle, "HAC")
    if status != "open":
        return 0, 0
    givens = np.asarray(puzzle.givens)
    opened = refuted = 0
    for (r, c), d in np.ndenumerate(dom):
        if d & (d - 1) == 0:
            continue
        for v in range(1, 10):
            if d >> (v - 1) & 1:
                opened += 1
                trial = givens.copy()
                trial[r, c] = v
                refuted += propagate(puzzle.with_givens(trial), "HAC")[0] == "failed"
    return opened, refuted


def test_survivors_match_a_brute_force_on_generated_and_forum_puzzles():
    with PuzzleGenerator(9, (3, 3), seed=4) as gen:
        puzzles = [gen.make("minimal").instance for _ in range(6)]
    for puzzle in puzzles + hardest(2):
        assert tuple(survivors(puzzle)) == brute_force(puzzle)


def test_the_forum_hardest_keep_nearly_every_candidate():
    for puzzle in hardest(20):
        kept = survivors(puzzle)
        assert grade(puzzle) == "search"
        assert kept.open > 100 and kept.kept >= 0.9 * kept.open


def test_patterns_are_the_shipped_masks():
    masks = hard_patterns()
    assert masks.shape == (len(masks), 81) and len(masks) == len({m.tobytes() for m in masks})
    assert masks.sum(axis=1).min() >= 20 and masks.sum(axis=1).max() <= 37
