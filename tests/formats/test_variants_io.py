"""Variants in files: the '# variant:' header, jigsaw region maps (a 'regions:' line or a
second grid), their errors, chunked reading, and the writer's headers reading back."""

import itertools

import numpy as np
import pytest

import sudokit
from sudokit.batch import run_batch
from sudokit.errors import InstanceError
from sudokit.formats import parse_instances, read_instances
from sudokit.formats.puzzle_text import with_variants
from sudokit.formats.puzzle_write import VariantHeaders, format_puzzle
from sudokit.formats.stream import read_instance_chunks
from sudokit.instances import sudoku
from sudokit.instances.jigsaw import parse_region_map
from sudokit.problems import shape_key

from ..helpers import EXAMPLES

MAP4 = "AAAB CABB CCDB CDDD"          # four irregular regions of a 4x4 grid
REGIONS4 = [[0, 0, 0, 1], [2, 0, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]]


def brute_force_jigsaw(regions, diagonal=False):
    """Completions of the empty grid with these regions, written from the rules: rows of
    permutations placed one under another, each checked against the columns, regions (and
    diagonals) of the rows above."""
    regions = np.asarray(regions).tolist()
    n = len(regions)
    perms = list(itertools.permutations(range(n)))

    def place(i, used):
        if i == n:
            return 1
        total = 0
        for row in perms:
            marks = {("c", j, v) for j, v in enumerate(row)}
            marks |= {("g", regions[i][j], v) for j, v in enumerate(row)}
            if diagonal:
                marks |= {("d", row[i]), ("a", row[n - 1 - i])}
            if len(marks) == len(row) * 2 + 2 * diagonal and not marks & used:
                total += place(i + 1, used | marks)
        return total

    return place(0, frozenset())


def test_header_gives_variants_until_the_next_header():
    text = ("# variant: x windoku\n" + "." * 81 + "\n"
            "# variant: none\n" + "." * 81 + "\n"
            "# variant: dg\n" + "." * 81 + "\n")
    recs = parse_instances(text)
    assert [r.instance.variants for r in recs] == [("diagonal", "windoku"), (), ("dg",)]
    assert [r.line for r in recs] == [2, 4, 6]


def test_region_line_and_region_grid_give_the_same_jigsaw():
    by_line = parse_instances(f"regions: {MAP4}\n1...............\n")[0].instance
    by_grid = parse_instances("1 . . .\n. . . .\n. . . .\n. . . .\n"
                              + "\n".join(MAP4.split()) + "\n")[0].instance
    relabelled = parse_instances("regions: xxxy zxyy zzwy zwww\n1...............\n")[0]
    assert by_line == by_grid == relabelled.instance
    assert by_line.variants == ("jigsaw",) and by_line.box is None
    assert by_line.regions.tolist() == REGIONS4
    assert by_line.kind == "sudoku"
    assert [kind for kind, _ in by_line.unit_groups()] == ["row", "column", "region"]


def test_region_line_holds_for_the_puzzles_after_it():
    text = (f"regions: {MAP4}\n1...............\n.2..............\n"
            "regions: AABB AABB CCDD CCDD\n1...............\n"
            "# variant: diagonal\n1...............\n")
    recs = parse_instances(text)
    assert [r.instance.regions.tolist()[1] for r in recs[:3]] == [[2, 0, 1, 1]] * 2 + [
        [0, 0, 1, 1]]
    assert recs[3].instance.regions is None        # a header without jigsaw ends the map
    assert recs[3].instance.variants == ("diagonal",)


@pytest.mark.parametrize("text, line, fragment", [
    ("regions: AAAB CABB CCDB CDDA\n1...............\n", 1, "region A has 5 cells"),
    ("regions: AAB\n1...............\n", 1, "needs 16 symbols, got 3"),
    ("1...\n....\n....\n....\nAAAB\nCABB\nCCDB\nCDDA\n", 5, "region map: region A"),
    ("# variant: jigsaw\n1...............\n", 2, "needs a region map"),
    ("# variant: snake\n1...............\n", 1, "unknown variant 'snake'"),
    (f"regions: {MAP4}\n# variant: jigsaw windoku\n1...............\n", 3, "needs boxes"),
    ("# variant: x\n1..............1\n", 2, "repeats in diagonal 1"),
])
def test_bad_maps_and_headers_are_one_located_error(text, line, fragment):
    with pytest.raises(InstanceError) as info:
        parse_instances(text, "f.txt")
    message = str(info.value)
    assert message.startswith(f"f.txt:{line}: ") and fragment in message
    assert "\n" not in message


def test_skip_bad_reports_a_bad_map_and_keeps_reading():
    skipped = []
    recs = parse_instances("1...\n....\n....\n....\nAAAB\nCABB\nCCDB\nCDDA\n\n"
                           "# variant: x\n1...............\n", "f.txt", on_bad=skipped.append)
    assert [r.line for r in recs] == [11] and len(skipped) == 1
    assert skipped[0].line == 5


def test_blocks_of_one_liners_keep_their_old_meaning():
    # 8 lines of 4 cells that all read as 2x2 puzzles: not a 4x4 grid and its region map
    recs = parse_instances("1...\n.1..\n..1.\n...1\n1...\n.1..\n..1.\n...1\n", problem="latin")
    assert len(recs) == 8 and all(r.instance.n == 2 for r in recs)


def test_writer_headers_read_back():
    x = sudoku(np.zeros((4, 4), dtype=int), variants=["x"])
    jig = sudoku(np.zeros((4, 4), dtype=int), regions=REGIONS4, variants=["diagonal"])
    puzzles = [x.with_givens(np.eye(4, dtype=int) * 0), jig, jig,
               sudoku(np.zeros((4, 4), dtype=int)), x]
    for style in ("line", "grid"):
        headers = VariantHeaders()
        text = "".join(headers.before(p, style) + format_puzzle(p, style) + "\n\n"
                       for p in puzzles)
        back = [r.instance for r in parse_instances(text)]
        assert back == puzzles, style
    assert VariantHeaders().before(x, "pls") == ""


def test_chunked_reading_carries_the_header_and_map(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(f"# variant: x jigsaw\nregions: {MAP4}\n" + "1...............\n\n" * 40)
    chunks = list(read_instance_chunks(str(path), chunk_lines=8))
    assert len(chunks) > 1      # cut at blank lines, far from the header
    records = [r for chunk in chunks for r in chunk]
    assert [r.line for r in records] == list(range(3, 83, 2))
    assert all(r.instance.variants == ("jigsaw", "diagonal") for r in records)
    assert all(r.instance.regions.tolist() == REGIONS4 for r in records)


def test_with_variants_adds_to_the_files_own():
    recs = parse_instances(f"# variant: jigsaw\nregions: {MAP4}\n1...............\n")
    both = with_variants(recs, ["x"])
    assert both[0].instance.variants == ("jigsaw", "diagonal")
    with pytest.raises(InstanceError, match="f.txt:3: .*needs boxes"):
        with_variants(recs, ["windoku"], "f.txt")
    assert with_variants(recs, ["jigsaw"])[0] is recs[0]


def test_jigsaw_counts_match_brute_force_on_every_back_end():
    for diagonal in (False, True):
        expected = brute_force_jigsaw(REGIONS4, diagonal)
        grid = sudoku(np.zeros((4, 4), dtype=int), regions=REGIONS4,
                      variants=["x"] if diagonal else [])
        for solver in ("dlx", "takano", "norvig"):
            assert sudokit.count_solutions(grid, solver=solver) == expected, solver
        assert sudokit.count_solutions(sudokit.to_cnf(grid)) == expected
    assert brute_force_jigsaw(REGIONS4) == 96


def test_jigsaws_with_other_maps_never_share_a_solver():
    a = sudoku(np.zeros((4, 4), dtype=int), regions=REGIONS4)
    b = sudoku(np.zeros((4, 4), dtype=int), regions=parse_region_map("AABB AABB CCDD CCDD", 4))
    assert shape_key(a) != shape_key(b)
    for solver in ("takano", "dlx", "cadical195"):      # one batch: engines shared by shape
        results = list(run_batch([a, b, a, b], task="count", solver=solver))
        for puzzle, result in zip((a, b, a, b), results, strict=True):
            assert puzzle.is_solution(result.solution), solver
            assert result.count == sudokit.count_solutions(puzzle, solver="dlx"), solver


def test_example_files_read_as_their_variants():
    jig = read_instances(str(EXAMPLES / "jigsaw9.txt"))[0].instance
    assert jig.variants == ("jigsaw",) and jig.regions is not None
    lines = read_instances(str(EXAMPLES / "jigsaw-lines.txt"))
    assert len(lines) == 3 and all(r.instance.variants == ("jigsaw",) for r in lines)
    x = read_instances(str(EXAMPLES / "x9.txt"))
    assert all(r.instance.variants == ("diagonal",) for r in x)
    for record in [read_instances(str(EXAMPLES / "jigsaw9.txt"))[0], *lines, *x]:
        puzzle = record.instance
        assert sudokit.count_solutions(puzzle, solver="dlx", limit=2) == 1
        assert sudokit.count_solutions(sudokit.to_cnf(puzzle), limit=2) == 1
