"""The human techniques (sudokit.human): each technique's exact eliminations on positions
worked by hand, a published example, every step of real paths checked against the solution,
ratings of puzzles Sudoku Explainer rated, the registries and the variants."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from sudokit.formats import parse_puzzles
from sudokit.human import LEVELS, ORDER, TECHNIQUES, level_of, rate, solve_path
from sudokit.human.board import Board
from sudokit.human.path import apply_step, unique_solution
from sudokit.human.techniques import SE_121, stages
from sudokit.instances import latin_square, sudoku

from .helpers import data_path, partial_grids

DIABOLICAL = data_path("sudoku", "9x9-sudokuexchange", "diabolical.txt")
EXAMPLES = Path(__file__).resolve().parents[1] / "sudokit" / "instances" / "examples"
TOP1465 = data_path("sudoku", "9x9-tdoku", "puzzles3_magictour_top1465")


def _puzzle(text: str):
    return parse_puzzles(text)[0].instance


def _open(n: int = 9, boxes: bool = False) -> Board:
    grid = np.zeros((n, n), dtype=int)
    return Board.of(sudoku(grid) if boxes else latin_square(grid))


def _mask(*values: int) -> int:
    return sum(1 << (v - 1) for v in values)


def _cell(text: str, n: int = 9) -> int:
    row, col = text[1:].split("c")
    return (int(row) - 1) * n + int(col) - 1


def _set(board: Board, **cells) -> None:
    for name, values in cells.items():
        board.cands[_cell(name, board.n)] = _mask(*values)


def _removed(step, n: int = 9) -> set[tuple[str, int]]:
    return {(f"r{r + 1}c{c + 1}", v) for r, c, v in step.eliminations}


def _example(name: str) -> str:
    index = json.loads((EXAMPLES / "index.json").read_text())
    return (EXAMPLES / index[name]["file"]).read_text()


def _find(name: str):
    return TECHNIQUES[name].find


# -- each technique on a position worked by hand ----------------------------------------------

def test_hidden_and_naked_singles():
    board = _open(4, boxes=True)
    # box 1: value 3 only in r1c1
    _set(board, r1c2=(1, 2), r2c1=(2, 4), r2c2=(1, 4))
    step = _find("hidden-single-box")(board)
    assert step.placements == ((0, 0, 3),) and step.houses == ("box 1",)
    assert step.text == "r1c1 = 3 (hidden single in box 1)"
    lone = _open(4)
    lone.cands[5] = _mask(3)
    step = _find("naked-single")(lone)
    assert step.placements == ((1, 1, 3),) and step.text == "r2c2 = 3 (naked single)"


def test_full_house_names_its_unit():
    board = Board.of(sudoku(np.array([[1, 2, 3, 0], [0] * 4, [0] * 4, [0] * 4])))
    step = _find("full-house")(board)
    assert step.placements == ((0, 3, 4),) and step.houses == ("row 1",)


def test_pointing_and_claiming():
    board = _open(9, boxes=True)
    # box 1: value 5 only in row 1 (r1c1, r1c3): the rest of row 1 loses 5
    for cell in ("r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3", "r1c2"):
        board.eliminate(_cell(cell), 5)
    step = _find("pointing")(board)
    assert step.houses == ("box 1", "row 1")
    assert _removed(step) == {(f"r1c{c}", 5) for c in range(4, 10)}
    board = _open(9, boxes=True)
    # row 9: value 2 only in box 9 (r9c7, r9c8): the rest of box 9 loses 2
    for col in range(1, 7):
        board.eliminate(_cell(f"r9c{col}"), 2)
    board.eliminate(_cell("r9c9"), 2)
    step = _find("claiming")(board)
    assert step.houses == ("row 9", "box 9")
    assert _removed(step) == {(f"r{r}c{c}", 2) for r in (7, 8) for c in (7, 8, 9)}


def test_naked_and_hidden_subsets():
    board = _open()
    _set(board, r4c2=(3, 8), r4c6=(3, 8))
    step = _find("naked-pair")(board)
    assert _removed(step) == {(f"r4c{c}", v) for c in (1, 3, 4, 5, 7, 8, 9) for v in (3, 8)}
    board = _open()
    _set(board, r1c1=(1, 2), r1c2=(2, 3), r1c3=(1, 3))
    step = _find("naked-triple")(board)
    assert _removed(step) == {(f"r1c{c}", v) for c in range(4, 10) for v in (1, 2, 3)}
    board = _open()
    # column 5: values 6 and 7 only in r2c5 and r8c5
    for row in range(1, 10):
        if row not in (2, 8):
            board.eliminate(_cell(f"r{row}c5"), 6)
            board.eliminate(_cell(f"r{row}c5"), 7)
    step = _find("hidden-pair")(board)
    assert _removed(step) == {(f"r{r}c5", v) for r in (2, 8) for v in (1, 2, 3, 4, 5, 8, 9)}


def test_x_wing_and_swordfish():
    board = _open()
    # 4 in rows 2 and 8 only in columns 3 and 6: the columns lose 4 elsewhere
    for row in (2, 8):
        for col in range(1, 10):
            if col not in (3, 6):
                board.eliminate(_cell(f"r{row}c{col}"), 4)
    step = _find("x-wing")(board)
    assert step.text.startswith("X-wing on 4 in rows 2,8, columns 3,6: ")
    assert _removed(step) == {(f"r{r}c{c}", 4) for c in (3, 6) for r in range(1, 10)
                              if r not in (2, 8)}
    board = _open()
    allowed = {1: (1, 5), 4: (5, 9), 7: (1, 9)}       # 9 in rows 1, 4, 7: columns 1, 5, 9
    for row, cols in allowed.items():
        for col in range(1, 10):
            if col not in cols:
                board.eliminate(_cell(f"r{row}c{col}"), 9)
    step = _find("swordfish")(board)
    assert step.technique == "swordfish"
    assert _removed(step) == {(f"r{r}c{c}", 9) for c in (1, 5, 9) for r in range(1, 10)
                              if r not in allowed}


def test_wings():
    board = _open()
    # pivot r1c1 {1,2}; pincers r1c5 {1,3} (row) and r5c1 {2,3} (column): r5c5 sees both
    _set(board, r1c1=(1, 2), r1c5=(1, 3), r5c1=(2, 3))
    step = _find("xy-wing")(board)
    assert _removed(step) == {("r5c5", 3)}
    board = _open(9, boxes=True)
    # pivot r1c1 {1,2,3}; pincers r1c2 {1,3}, r2c1 {2,3}: box 1 cells see all three
    _set(board, r1c1=(1, 2, 3), r1c2=(1, 3), r2c1=(2, 3))
    step = _find("xyz-wing")(board)
    assert _removed(step) == {(c, 3) for c in ("r2c2", "r2c3", "r3c1", "r3c2", "r3c3",
                                               "r1c3")}
    board = _open()
    # r1c1 and r5c5 are {4,7}; 7 in row 3 only at r3c1 and r3c5 (one sees each)
    _set(board, r1c1=(4, 7), r5c5=(4, 7))
    for col in range(1, 10):
        if col not in (1, 5):
            board.eliminate(_cell(f"r3c{col}"), 7)
    step = _find("w-wing")(board)
    assert _removed(step) == {("r1c5", 4), ("r5c1", 4)}


def test_sukaku_wings_and_strong_link_fishes():
    board = _open()
    # three cells of row 1 hold 1,2,3,4; r5c1 {1,4} sees the only 1 (r1c1): either r5c1
    # is 4 or the three are 2,3,4, so r5c3 (sees r5c1 and the only 4, r1c3) loses 4
    _set(board, r1c1=(1, 2), r1c2=(2, 3), r1c3=(3, 4), r5c1=(1, 4))
    step = _find("wxyz-wing")(board)
    assert _removed(step) == {("r5c3", 4)} and step.rating == 5.5
    board = _open(9, boxes=True)
    # 1 in column 1 only at r1c1, r5c1 and in column 4 only at r1c4, r6c4 (a skyscraper):
    # r5c1 or r6c4 is 1, so what sees both loses 1
    for row in range(2, 10):
        if row != 5:
            board.eliminate(_cell(f"r{row}c1"), 1)
        if row != 6:
            board.eliminate(_cell(f"r{row}c4"), 1)
    step = _find("turbot-fish")(board)
    assert _removed(step) == {("r6c2", 1), ("r6c3", 1), ("r5c5", 1), ("r5c6", 1)}
    assert step.rating == 4.0                           # two links in columns


def test_y_cycle():
    board = _open()
    # r1c1 {1,2} -2- r1c5 {2,3} -3- r5c5 {3,4} -4- r5c1 {1,4} -1- back: one way round or
    # the other, each link's value is in one of its two cells, so the rest of the line loses it
    _set(board, r1c1=(1, 2), r1c5=(2, 3), r5c5=(3, 4), r5c1=(1, 4))
    step = _find("y-cycle")(board)
    others = [k for k in range(1, 10) if k not in (1, 5)]
    assert _removed(step) == ({(f"r1c{k}", 2) for k in others} | {(f"r{k}c5", 3) for k in others}
                              | {(f"r5c{k}", 4) for k in others} | {(f"r{k}c1", 1) for k in others})
    assert step.rating == 6.6                           # 8 candidates: 6.5 + bonus(6)

def test_direct_pointing_and_direct_hidden_pair():
    board = _open(9, boxes=True)
    # 5 in box 1 only on row 1; in box 2 only at r1c5 and r2c5: the pointing leaves r2c5
    for cell in ("r1c2", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3", "r1c4", "r1c6",
                 "r2c4", "r2c6", "r3c4", "r3c5", "r3c6"):
        board.eliminate(_cell(cell), 5)
    step = _find("direct-pointing")(board)
    assert step.placements == ((1, 4, 5),) and step.rating == 1.7
    assert step.houses == ("box 1", "row 1", "box 2")
    board = _open()
    # row 1: 1 and 2 only at r1c1, r1c2 (a hidden pair); 3 only there and at r1c3
    for col in range(3, 10):
        for value in (1, 2) + ((3,) if col > 3 else ()):
            board.eliminate(_cell(f"r1c{col}"), value)
    step = _find("direct-hidden-pair")(board)
    assert step.placements == ((0, 2, 3),) and step.rating == 2.0

def test_unique_rectangle_and_bug():
    board = _open(9, boxes=True)
    _set(board, r1c1=(5, 8), r1c4=(5, 8), r2c1=(5, 8), r2c4=(1, 5, 8))   # boxes 1 and 2
    step = _find("unique-rectangle")(board)
    assert _removed(step) == {("r2c4", 5), ("r2c4", 8)}
    # four boxes: the values cannot swap without a box noticing; no step
    board = _open(9, boxes=True)
    _set(board, r1c1=(5, 8), r1c4=(5, 8), r5c1=(5, 8), r5c4=(1, 5, 8))
    assert _find("unique-rectangle")(board) is None
    # BUG+1: a 4x4 grid whose empty cells r1c1 r1c2 r3c1 r3c2 are {1,2} but r3c2 {1,2,3}:
    # without 3 each value has two places in every unit (no solution or two), so r3c2 = 3
    grid = np.array([[0, 0, 3, 4], [3, 4, 1, 2], [0, 0, 4, 3], [4, 3, 2, 1]])
    board = Board.of(sudoku(grid))
    assert _find("bug")(board) is None                    # the grave itself: no step
    board.cands[_cell("r3c2", 4)] = _mask(1, 2, 3)
    assert _find("bug")(board).placements == ((2, 1, 3),)
    board.cands[_cell("r1c1", 4)] = _mask(1, 2, 4)        # two cells of three: no BUG+1
    assert _find("bug")(board) is None


def test_chains_on_a_real_position():
    p = _puzzle("200050006010000090600801003007090600000703000900080002"
                "100000005060902010003060200")
    board = Board.of(p)
    before = [name for name in ORDER[:ORDER.index("x-chain")] if name in SE_121]
    for step in solve_path(p, techniques=before).steps:
        apply_step(board, step)
    step = _find("x-chain")(board)
    assert step.text == "X-chain 4r5c1=4r6c2-4r9c2=4r9c8: -4 r5c8"
    assert step.eliminations == ((4, 7, 4),) and step.rating == 6.6


def test_published_x_wing_practice_puzzle():
    """sudokugrid.app's X-wing page: "this puzzle reaches an X-Wing on candidate 2"."""
    p = _puzzle("000005079300000602508207000000000060005390040003004095600010007001009080"
                "000603104")
    fish = [s for s in solve_path(p).steps if s.technique == "x-wing"]
    assert fish and fish[0].text.startswith("X-wing on 2 ")
    assert {v for _, _, v in fish[0].eliminations} == {2}


# -- every step of real paths is sound ---------------------------------------------------------

def _sound(puzzle) -> tuple[int, bool]:
    count, solution = unique_solution(puzzle)
    assert count == 1
    path = solve_path(puzzle)
    for step in path.steps:
        # a step is rated as the registry rates its technique (its base, plus at most its
        # spread: a pattern's shape, a chain's length): the two places must not drift apart
        assert TECHNIQUES[step.technique].rates(step.rating), step.text
        for row, col, value in step.eliminations:
            assert solution[row, col] != value, step.text
        for row, col, value in step.placements:
            assert solution[row, col] == value, step.text
    if path.solved:
        assert (path.grid == solution).all()
    return len(path.steps), path.solved


def test_every_step_is_sound_on_hundreds_of_rated_puzzles():
    lines = DIABOLICAL.read_text().splitlines()[::200]          # 199 puzzles, SE 5.0-9.x
    solved = sum(_sound(_puzzle(line.split()[1]))[1] for line in lines)
    assert len(lines) == 199 and solved >= 195


def test_every_step_is_sound_on_the_hardest_collection():
    lines = [line for line in TOP1465.read_text().splitlines() if not line.startswith("#")]
    for line in lines[::60]:                                      # 25 puzzles
        _sound(_puzzle(line[:81]))


@pytest.mark.parametrize("name", ["x9", "six", "jigsaw9", "janko16"])
def test_every_step_is_sound_on_variants_and_other_sizes(name):
    for record in parse_puzzles(_example(name)):
        steps, solved = _sound(record.instance)
        assert steps > 0


# -- ratings against Sudoku Explainer's ----------------------------------------------------------

@pytest.mark.parametrize("puzzle,se", [
    ("007000500000080000900070001025108930003000600009000200000503000700000006010207040", 5.5),
    ("050004910200700008106020300600000020001000500080000007004090206500001009069800040", 5.6),
    ("027090430400000002300040005000407000080020070750601029000302000010000050009050600", 5.6),
    ("600010070019000000070008004042860000800000002000043890700900060000000410030050009", 6.3),
    ("700080002009000700800137009071000690530090074006000200100070006000806000008050900", 6.4),
    ("461000000000000054075001000390100060000709000040002038000900680610000000000000593", 7.1),
    ("010000090700009200009350008150002000004000500000600081600013700001700002090000040", 7.2),
    ("010000480270600091800090000000060070001207800090030000000010008430006017085000020", 7.3),
    ("503006080006008000700050010105009000007000100000400605090030002000800400050600908", 8.2),
    ("700000810040008200000206003000320900200804007003067000800602000009500080051000002", 8.3),
    ("000000007007800560150003000010600700000987000002001030000700026061005800800000000", 8.4),
    ("000600450004090001070013090090000104045000920201000070050360010900070500012005000", 8.9),
    ("500701008100040002089020710007060200000982000000305000600000001004000600090000050", 9.0),
])
def test_ratings_of_puzzles_sudoku_explainer_rated(puzzle, se):
    """Lines of diabolical.txt (SE's rating last), a few per band; the hardest steps are
    WXYZ-wings, BUG+1, VWXYZ-wings, AICs, cell forcing chains and forcing nets."""
    assert puzzle + f"  {se}" in DIABOLICAL.read_text()
    rated = rate(_puzzle(puzzle))
    assert rated.solved and rated.value == se


# -- registries, levels, variants ---------------------------------------------------------------

def test_the_registry_order_and_every_finder_loads():
    assert ORDER == tuple(TECHNIQUES)
    groups = [TECHNIQUES[name].group for name in ORDER if TECHNIQUES[name].group]
    assert groups == sorted(groups)                      # each group in one stretch
    for stage in stages(ORDER):
        ratings = [TECHNIQUES[name].se_rating for name in stage]
        assert ratings == sorted(ratings)
    ratings = [TECHNIQUES[name].se_rating for name in ORDER]
    assert ratings == sorted(ratings)
    for entry in TECHNIQUES.values():
        assert callable(entry.find)
    assert {t.family for t in TECHNIQUES.values()} >= {
        "singles", "intersections", "subsets", "fish", "wings", "colouring", "uniqueness",
        "chains", "forcing"}


def test_levels_cover_the_scale_without_gaps():
    bands = list(LEVELS.values())
    assert list(LEVELS) == ["easy", "medium", "hard", "expert", "diabolical", "extreme"]
    for (_, high), (low, _) in zip(bands, bands[1:], strict=False):
        assert round(low - high, 1) == 0.1
    for name, (low, high) in LEVELS.items():
        assert level_of(low) == name and level_of(high) == name


def test_variants_and_latin_squares_skip_what_does_not_hold():
    x9 = parse_puzzles(_example("x9"))[0].instance
    assert set(solve_path(x9).skipped) == {"unique-rectangle", "bug"}
    latin = latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 2]]))
    path = solve_path(latin)
    assert {"pointing", "claiming", "unique-rectangle", "bug"} <= set(path.skipped)
    assert path.solved and latin.is_solution(path.grid)
    assert "unique-rectangle" in solve_path(_puzzle("1" + "." * 80), unique=False).skipped


# -- property: any small grid, unique or not --------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(partial_grids())
def test_every_step_holds_for_every_solution_of_small_grids(puzzle):
    """Small Sudokus and Latin squares with random givens (one solution, several, or none:
    the uniqueness techniques only when unique): every placement and every elimination holds
    in every solution, so none removes a solution the puzzle has."""
    from sudokit.solvers.registry import open_engine

    with open_engine("dlx") as engine:
        count, _ = engine.count(puzzle, 2)
    path = solve_path(puzzle, unique=count == 1)
    solutions = _all_solutions(puzzle)
    assert min(count, 2) == min(len(solutions), 2)
    for solution in solutions:
        for step in path.steps:
            for row, col, value in step.eliminations:
                assert solution[row][col] != value, step.text
            for row, col, value in step.placements:
                assert solution[row][col] == value, step.text
    if path.solved:
        assert len(solutions) == 1 and (path.grid == np.array(solutions[0])).all()


def _all_solutions(puzzle, limit: int = 50) -> list:
    """Every solution (up to ``limit``) by plain backtracking over the units."""
    n = puzzle.n
    units = puzzle.units().tolist()
    cell_units = [[u for u in units if cell in u] for cell in range(n * n)]
    grid = puzzle.flat_givens.tolist()
    found: list = []

    def place(cell: int) -> None:
        if len(found) >= limit:
            return
        while cell < n * n and grid[cell]:
            cell += 1
        if cell == n * n:
            found.append([grid[r * n:(r + 1) * n] for r in range(n)])
            return
        used = {grid[c] for u in cell_units[cell] for c in u}
        for value in range(1, n + 1):
            if value not in used:
                grid[cell] = value
                place(cell + 1)
                grid[cell] = 0

    place(0)
    return found
