"""How puzzle text is cut into puzzles: never by how many lines a block has (``layout``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import InstanceError, ParseError
from sudokit.formats import parse_instances, read_instances
from sudokit.formats.puzzle_text import parse_puzzles
from sudokit.formats.stream import read_instance_chunks
from tests.helpers import ROOT, data_path

EXAMPLES = ROOT / "sudokit" / "instances" / "examples"
#: three 3x3 Latin one-liners
LATIN3 = ["1........", ".2.......", "..3......"]
#: nine 3x3 Latin one-liners that are also one 9x9 Latin grid (its diagonal all 1)
DIAGONAL = ["." * i + "1" + "." * (8 - i) for i in range(9)]


@pytest.mark.parametrize("lines", [15, 16, 17])
def test_lines_of_n_cells_are_one_puzzle_each_however_many(lines):
    recs = parse_puzzles("................\n" * lines)
    assert len(recs) == lines
    assert all(r.style == "line" and r.instance.n == 4 for r in recs)


def test_first_sixteen_lines_of_the_4x4_set_are_sixteen_puzzles():
    text = data_path("sudoku", "mixed-4x4-16x16", "4x4.txt").read_text()
    first = [line for line in text.splitlines() if len(line.strip()) == 16][:16]
    recs = parse_puzzles("\n".join(first) + "\n", "4x4.txt")
    assert len(recs) == 16 and all(r.instance.n == 4 for r in recs)


def test_nine_one_line_latin_squares_are_nine():
    recs = parse_puzzles("\n".join(LATIN3 * 3) + "\n", problem="latin")
    assert [r.instance.n for r in recs] == [3] * 9


def test_layout_grid_reads_the_square_block_as_one_grid():
    (rec,) = parse_puzzles("................\n" * 16, layout="grid")
    assert rec.style == "grid" and rec.instance.n == 16
    recs = parse_puzzles("\n".join(DIAGONAL * 2) + "\n", problem="latin", layout="grid")
    assert [r.instance.n for r in recs] == [9, 9]     # two grids one after the other
    assert len(parse_puzzles("\n".join(DIAGONAL * 2) + "\n", problem="latin")) == 18


def test_layout_line_reads_spaced_rows_as_one_liners():
    text = "1 0 0 0\n0 0 1 0\n"
    recs = parse_puzzles(text, problem="latin", layout="line")
    assert [r.style for r in recs] == ["ints-line"] * 2
    with pytest.raises(ParseError, match="--layout line"):
        parse_puzzles(text, "s.txt", problem="latin")   # auto: spaced cells, a grid's rows


def test_layout_line_refuses_grid_rows():
    with pytest.raises(ParseError, match=r"^g.txt:1: "):
        parse_puzzles((". . 3 | . . .\n" * 6), "g.txt", layout="line")


def test_an_ambiguous_block_that_fails_as_lines_names_layout_grid():
    text = "\n".join(LATIN3 * 3) + "\n"
    with pytest.raises(InstanceError) as info:
        parse_puzzles(text, "a.txt")    # 3x3 Sudoku one-liners have no box
    assert str(info.value).startswith("a.txt:1: ")
    assert "lines 1-9 were read as 9 one-line puzzles; '--layout grid'" in str(info.value)
    assert "--layout grid" in info.value.for_cli()


def test_grids_of_digits_and_odd_sizes_stay_grids():
    digits = ["003020600", "900305001", "001806400", "008102900", "700000008",
              "006708200", "002609500", "800203009", "005010300"]
    (rec,) = parse_puzzles("\n".join(digits) + "\n")      # a 4-9 in a row: no 3x3 one-liner
    assert rec.style == "grid" and rec.instance.n == 9
    (six,) = parse_puzzles("..3...\n...2..\n.6...3\n2....1\n..1...\n...5..\n", box=(2, 3))
    assert six.style == "grid" and six.instance.n == 6
    (spaced,) = parse_puzzles("1 . . .\n. . 1 .\n. 1 . .\n. . . 1\n", problem="latin")
    assert spaced.style == "grid" and spaced.instance.n == 4


@pytest.mark.parametrize("name, count, style", [
    ("puzzle17.txt", 1, "line"), ("top3.txt", 3, "line"), ("six.txt", 1, "grid"),
    ("janko16.txt", 1, "line"), ("x9.txt", 2, "line"), ("jigsaw9.txt", 1, "grid"),
    ("jigsaw-lines.txt", 3, "line"), ("empty5.txt", 1, "line")])
def test_bundled_examples_read_as_before(name, count, style):
    recs = read_instances(f"{EXAMPLES}/{name}", "latin" if name == "empty5.txt" else None)
    assert len(recs) == count and {r.style for r in recs} == {style}


def test_norvig_grids_in_every_layout_but_line():
    text = data_path("sudoku", "9x9-norvig", "sudoku.txt").read_text()
    for layout in ("auto", "grid"):
        recs = parse_puzzles(text, "sudoku.txt", layout=layout)
        assert len(recs) == 50 and {r.style for r in recs} == {"grid"}
    with pytest.raises(ParseError):
        parse_puzzles(text, "sudoku.txt", layout="line")


def test_unknown_layout_is_a_value_error():
    with pytest.raises(ValueError, match="layout is one of auto, grid, line"):
        parse_instances("1...\n", layout="rows")


def test_other_kinds_ignore_layout():
    recs = parse_instances("p edge 2 1\ne 1 2\n", problem="coloring", colors=2,
                           layout="grid")
    assert recs[0].style == "col"


# -- the chunked reader: same records, cut inside long blocks ------------------------------

def _write(tmp_path, text: str):
    path = tmp_path / "p.txt"
    path.write_text(text)
    return str(path)


def test_chunks_cut_inside_a_long_block_of_short_one_liners(tmp_path):
    path = _write(tmp_path, "................\n" * 500)
    chunks = list(read_instance_chunks(path, chunk_lines=50))
    assert len(chunks) > 5    # one block of 500 lines is no grid past 32 of them
    assert [r.line for chunk in chunks for r in chunk] == list(range(1, 501))


@pytest.mark.parametrize("layout", ["auto", "grid", "line"])
def test_chunked_reading_equals_whole_reading(tmp_path, layout):
    grid = "\n".join(DIAGONAL)
    text = "\n".join(["........."] * 90) + "\n" + "\n\n".join([grid] * 5) + "\n" + \
        "1 . . .\n. . 1 .\n. 1 . .\n. . . 1\n" * 20
    path = _write(tmp_path, text)
    whole = read_instances(path, "latin", layout=layout)
    chunked = [r for chunk in read_instance_chunks(path, "latin", chunk_lines=7, layout=layout)
               for r in chunk]
    assert [(r.line, r.style, r.instance) for r in chunked] == \
        [(r.line, r.style, r.instance) for r in whole]


def test_a_cut_block_is_read_on_as_lines(tmp_path):
    # 100 one-liners, then 9 rows of 9 digits in the same block: no grid (the block has 109
    # rows), so the digit rows are bad one-liners, whether or not a chunk ends before them
    digits = ["123456789", "234567891", "345678912", "456789123", "567891234",
              "678912345", "789123456", "891234567", "912345678"]
    text = "\n".join(LATIN3 * 33 + ["1........"] + digits) + "\n"
    path = _write(tmp_path, text)
    whole, chunked = [], []
    read_instances(path, "latin", on_bad=whole.append)
    for _chunk in read_instance_chunks(path, "latin", chunk_lines=100,
                                       on_bad=chunked.append):
        pass
    assert [str(e) for e in chunked] == [str(e) for e in whole]
    assert [e.line for e in whole] == list(range(101, 110))


_PIECES = {
    "dots4": "................\n",                       # a 4x4 one-liner
    "latin3": "1........\n",                               # a 3x3 one-liner
    "row9": "123456789\n",                                 # a nine-digit row (no one-liner)
    "spaced": "1 . . .\n",                                 # a spaced row of 4 cells
    "blank": "\n",
    "comment": "# c\n",
    "y": "y\n",
}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(_PIECES)), st.integers(1, 40)),
                min_size=1, max_size=6),
       st.sampled_from(["auto", "grid", "line"]), st.integers(1, 30))
def test_chunked_reading_equals_whole_reading_on_any_mixture(tmp_path_factory, runs, layout,
                                                             chunk_lines):
    # a run of spaced rows is a block of its own: a chunk that ends inside a block reads the
    # rest as its first part says (see stream._Cutter), and rows without spaces after spaced
    # rows would change what the whole block is
    text = "".join(f"\n{_PIECES[name] * count}\n" if name == "spaced" else _PIECES[name] * count
                   for name, count in runs)
    path = tmp_path_factory.mktemp("mix") / "m.txt"
    path.write_text(text)

    def outcome(read):
        """The records, or the line of the error; and the first line skipped. (A message may
        word a bad line by what else its chunk holds, "expected a puzzle line of 16 cells",
        and a block already broken may be reported in more pieces.)"""
        skipped = []
        try:
            records = read(skipped.append)
        except (ParseError, InstanceError) as err:
            found = str(err)[len(str(path)) + 1:].split(":")[0]
            return "error", found if found.isdigit() else "no instance"
        return [(r.line, r.style, r.instance) for r in records], [e.line for e in skipped[:1]]

    for skip in (False, True):
        whole = outcome(lambda report, skip=skip: read_instances(
            str(path), "latin", on_bad=report if skip else None, layout=layout))
        chunked = outcome(lambda report, skip=skip: [r for chunk in read_instance_chunks(
            str(path), "latin", on_bad=report if skip else None, chunk_lines=chunk_lines,
            layout=layout) for r in chunk])
        assert chunked == whole
