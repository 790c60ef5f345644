"""Counting methods (sudokit.counting.methods): reduced Latin squares and Sudoku bands against
plain enumeration and the known counts, their classes checked member by member with another
engine, the band table against the engines, and ``count --method``/``--explain`` on the
command line (refusals, exact big integers)."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest

from sudokit.batch import Answers
from sudokit.counting.band_tables import band_table, bands_with_columns, completions
from sudokit.counting.bands import band_classes, first_bands, oriented
from sudokit.counting.completions import count_completions
from sudokit.counting.enumerate import count as enumerated
from sudokit.counting.methods import (
    METHODS,
    MethodNotApplicable,
    applicable,
    choose_method,
    count_by_method,
)
from sudokit.counting.reduced_latin import cycle_types, second_row, type_size
from sudokit.generators.fills import FILLS, fill_grid
from sudokit.instances import latin_square, sudoku

from ..helpers import assert_cli_error, cli_run, import_extra

#: OEIS A000315 (reduced Latin squares) and A002860 (all), n = 1..7
REDUCED = [1, 1, 1, 4, 56, 9408, 16942080]
LATIN = [1, 2, 12, 576, 161280, 812851200, 61479419904000]


def _empty(n, box=None, latin=False):
    grid = np.zeros((n, n), dtype=int)
    return latin_square(grid) if latin else sudoku(grid, box)


def _reduced_prefix(n):
    grid = np.zeros((n, n), dtype=int)
    grid[0] = grid[:, 0] = np.arange(1, n + 1)
    return grid


# -- reduced Latin squares ---------------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 7))
def test_reduced_matches_plain_enumeration(n):
    """R(n) by the classes equals the reduced squares enumerated by DLX; L(n) for n <= 5
    equals the squares enumerated by DLX."""
    result = count_by_method(_empty(n, latin=True), "reduced", solver="dlx")
    reduced = result.count // (math.factorial(n) * math.factorial(max(n - 1, 0)))
    assert reduced == enumerated(latin_square(_reduced_prefix(n)), solver="dlx").count
    assert (result.count, reduced) == (LATIN[n - 1], REDUCED[n - 1])
    if n <= 5:
        assert result.count == enumerated(_empty(n, latin=True), solver="dlx").count


def test_reduced_order_seven_known_value():
    result = count_by_method(_empty(7, latin=True), "auto")
    assert result.count == 61479419904000
    assert result.decomposition.multiplier == math.factorial(7) * math.factorial(6)
    assert [c.label for c in result.decomposition.classes] == ["7", "5+2", "4+3", "3+2+2"]


@pytest.mark.parametrize("n", range(2, 9))
def test_cycle_type_sizes_cover_the_second_rows(n):
    """The class sizes add up to the derangements of n sending 1 to 2: D(n) / (n - 1)."""
    derangements = round(math.factorial(n) / math.e)
    assert sum(type_size(t) for t in cycle_types(n)) * (n - 1) == derangements


def test_second_rows_of_one_type_have_the_same_completions():
    """Every reduced second row of order 6 counted on its own by takano: the count depends
    only on the cycle type (the claim the classes rest on), and adds up to R(6)."""
    from itertools import permutations

    by_type: dict[tuple[int, ...], set[int]] = {}
    total = 0
    for tail in permutations(range(1, 7)):
        row = (2, *tail[1:]) if tail[0] == 2 else None
        if row is None or len(set(row)) != 6 or any(v == i + 1 for i, v in enumerate(row)):
            continue
        grid = _reduced_prefix(6)
        grid[1] = row
        k = count_completions([latin_square(grid)], "takano").counts[0]
        total += k
        by_type.setdefault(_cycle_type(row), set()).add(k)
    assert all(len(counts) == 1 for counts in by_type.values())
    assert total == 9408


def _cycle_type(row):
    seen, parts = set(), []
    for start in range(len(row)):
        length, at = 0, start
        while at not in seen:
            seen.add(at)
            at = row[at] - 1
            length += 1
        if length:
            parts.append(length)
    return tuple(sorted(parts, reverse=True))


def test_second_row_representative_has_its_type():
    for t in cycle_types(8):
        assert _cycle_type(second_row(t).tolist()) == t and second_row(t)[0] == 2


# -- Sudoku bands ------------------------------------------------------------------------------

def test_bands_four_by_four_matches_plain_enumeration():
    result = count_by_method(_empty(4), "bands", solver="dlx")
    assert result.count == enumerated(_empty(4), solver="dlx").count == 288


@pytest.mark.parametrize("box", [(2, 3), (3, 2)])
def test_bands_six_by_six_matches_plain_enumeration(box):
    """28,200,960 = 6! x the grids with the first row 1..6, enumerated by takano."""
    result = count_by_method(_empty(6, box), "auto")
    grid = np.zeros((6, 6), dtype=int)
    grid[0] = np.arange(1, 7)
    plain = enumerated(sudoku(grid, box), solver="takano").count
    assert result.count == math.factorial(6) * plain == 28200960


@pytest.mark.parametrize("box", [(2, 2), (3, 2), (2, 3)])
def test_every_band_of_a_class_has_the_class_completions(box):
    """Each listed first band (all of them) counted by DLX has its class's completions: the
    classes never join bands with different counts (the class counts: takano). Sizes add up
    to the band completions."""
    r, c = box
    n = r * c
    listed = first_bands(r, c)
    classes = band_classes(r, c)
    grids = []
    for band in listed:
        grid = np.zeros((n, n), dtype=int)
        grid[:r] = band
        grids.append(sudoku(grid, box))
    counts = count_completions(grids, "dlx").counts
    of_class = count_completions(list(classes.grids()), "takano").counts
    assert [of_class[k] for k in classes.of_listed] == counts
    each = math.factorial(c) ** (r - 1) * math.factorial(r - 1)
    assert sum(classes.sizes) == len(listed) * each


def test_band_table_agrees_with_the_engines_on_six_by_six():
    """The three-band table (2x3 boxes as they are) gives each class the completions takano
    enumerates."""
    classes = band_classes(2, 3)
    table = band_table(first_bands(2, 3), 2)
    assert ([completions(key, 2, table) for key in classes.keys]
            == count_completions(list(classes.grids()), "takano").counts)


def test_band_table_agrees_with_the_engines_on_nine_by_nine():
    """g (bands with given column sets) from the 9x9 table equals takano's count of the last
    band below two bands of a few grids, and the table holds every band once."""
    table = band_table(first_bands(3, 3), 3)
    assert int(table.sum()) == 15676416  # 9! x 2,612,736 / (280 x 3!) / 3!^2
    rng = np.random.default_rng(31)
    for _ in range(3):
        grid = np.asarray(fill_grid(next(iter(FILLS)), 9, (3, 3), rng))
        columns = np.bitwise_or.reduce(np.int64(1) << grid[6:].astype(np.int64), axis=0)
        top = np.array(grid)
        top[6:] = 0
        (engine_count,) = count_completions([sudoku(top)], "takano").counts
        assert bands_with_columns(columns, 3, table) == engine_count


def test_oriented_takes_the_shape_with_fewer_bands():
    assert oriented((2, 4)) == (4, 2) and oriented((3, 3)) == (3, 3)


# -- refusals and the registry -----------------------------------------------------------------

def test_methods_refuse_what_they_do_not_count():
    puzzle = np.zeros((4, 4), dtype=int)
    puzzle[0, 0] = 1
    assert applicable(sudoku(puzzle)) == []
    assert applicable(_empty(4, latin=True)) == ["reduced"]
    assert applicable(sudoku(np.zeros((9, 9), dtype=int), variants=["x"])) == []
    assert choose_method(sudoku(puzzle)) == "plain"
    with pytest.raises(MethodNotApplicable, match=r"empty grids only\); methods that apply: "
                                                  "plain"):
        choose_method(sudoku(puzzle), "bands")
    with pytest.raises(MethodNotApplicable, match=r"Latin squares only\); methods that apply: "
                                                  "bands, plain"):
        choose_method(_empty(4), "reduced")
    assert list(METHODS) == ["reduced", "bands"]


# -- the command line --------------------------------------------------------------------------

def test_cli_count_auto_and_explain():
    result = cli_run("count", "--explain", "-", input="." * 16 + "\n" + "1" + "." * 15 + "\n")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "." * 16 + " 288"
    assert lines[1].startswith("  method bands: 4x4 grids of 2x2 boxes")
    assert lines[-2] == "  total = 24 x sum(size x completions) = 288"
    assert lines[-1] == "1" + "." * 15 + " 72"


def test_cli_count_latin_by_reduced_forms_json():
    result = cli_run("count", "--problem", "latin", "--json", "--explain", "-",
                     input="." * 49 + "\n")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["count"] == 61479419904000 and answer["method"] == "reduced"
    assert answer["decomposition"]["multiplier"] == 3628800
    assert len(answer["decomposition"]["classes"]) == 4


@pytest.mark.parametrize(("args", "text", "fragments"), [
    (["--method", "bands"], "1" + "." * 15, ["--method bands", "empty grids only",
                                            "methods that apply: plain"]),
    (["--method", "reduced"], "." * 16, ["--method reduced", "methods that apply: bands"]),
    (["--method", "bands", "--variant", "x"], "." * 16, ["--method bands", "x"]),
    (["--method", "bands", "--limit", "2"], "." * 16, ["--limit", "--method bands"]),
    (["--method", "plain", "--explain"], "." * 16, ["--explain"]),
])
def test_cli_method_refusals_are_usage_errors(args, text, fragments):
    result = cli_run("count", *args, "-", input=text + "\n")
    assert_cli_error(result, 2, *fragments)
    assert result.stdout == ""


def test_cli_auto_with_a_limit_counts_plainly():
    result = cli_run("count", "--limit", "2", "-", input="." * 81 + "\n")
    assert result.exit_code == 0 and result.stdout.split()[-1] == "2"


def test_cli_auto_with_a_solver_enumerates_and_a_method_takes_it():
    """--solver alone asks for that engine's enumeration; with --method it counts the
    classes."""
    plain = json.loads(cli_run("count", "--json", "--solver", "dlx", "-",
                               input="." * 16 + "\n").stdout)
    assert plain["count"] == 288 and "method" not in plain
    split = json.loads(cli_run("count", "--json", "--explain", "--method", "bands", "--solver",
                               "dlx", "-", input="." * 16 + "\n").stdout)
    assert split["count"] == 288 and split["decomposition"]["engine"] == "dlx"


def test_cli_time_limit_bounds_a_method():
    """Past --time-limit a method's count is unknown (exit 5), here before the 9x9 table's
    first class is completed."""
    result = cli_run("count", "--time-limit", "0.001", "-", input="." * 81 + "\n")
    assert result.exit_code == 5 and result.stdout.split()[-1] == "unknown"


def test_writer_prints_big_counts_exactly(tmp_path):
    """Counts past 2**63 print exactly; in JSON past 2**53 as decimal strings."""
    from sudokit.cli.answers import AnswerWriter
    from sudokit.formats import read_instances

    big = 6670903752021072936960
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    records = read_instances(str(path), "sudoku")
    found = Answers(np.array([0], np.int8), np.array([big], dtype=object), None,
                    np.array([1.0]), [{"method": "bands"}])
    text, js = io.StringIO(), io.StringIO()
    AnswerWriter(text, "count").write(records, found)
    AnswerWriter(js, "count", as_json=True).write(records, found)
    assert text.getvalue().split()[-1] == str(big)
    assert json.loads(js.getvalue())["count"] == str(big)


def test_checkpoint_resumes_from_the_classes_counted(tmp_path):
    """A checkpoint keeps each class's completions; a run with part of the file counts only
    the rest (the file grows back to every class) and takes the recorded ones as they are
    (a doctored entry shows in the total: it was read, not recounted)."""
    path = tmp_path / "latin6.jsonl"
    square = _empty(6, latin=True)
    first = count_by_method(square, "reduced", checkpoint=str(path))
    lines = path.read_text().splitlines()
    assert first.count == LATIN[5] and len(lines) == 4
    entry = json.loads(lines[0])
    entry["completions"] = str(int(entry["completions"]) + 1)
    path.write_text(json.dumps(entry) + "\n" + lines[1] + "\n")
    again = count_by_method(square, "reduced", checkpoint=str(path))
    size = again.decomposition.classes[0].size
    assert again.count == LATIN[5] + size * again.decomposition.multiplier
    assert len(path.read_text().splitlines()) == 4


def test_cli_checkpoint_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"grid"\n')
    result = cli_run("count", "--problem", "latin", "--checkpoint", str(bad), "-",
                     input="." * 36 + "\n")
    assert_cli_error(result, 4, "bad.jsonl:1", "not a checkpoint line")
    result = cli_run("count", "--limit", "2", "--checkpoint", str(bad), "-",
                     input="." * 36 + "\n")
    assert_cli_error(result, 2, "--checkpoint needs a counting method")


@pytest.mark.heavy   # about 2 minutes at load 11: 428,032 first bands keyed, 26 classes
def test_bands_eight_by_eight_known_value():
    result = count_by_method(_empty(8, (2, 4)), "bands")
    assert result.count == 29136487207403520
    assert len(result.decomposition.classes) == 26


@pytest.mark.heavy   # 20-40 s: Felgenhauer & Jarvis' 44 classes, completed by the table
def test_bands_nine_by_nine_known_value():
    result = count_by_method(_empty(9), "auto")
    assert result.count == 6670903752021072936960
    assert len(result.decomposition.classes) == 44
    assert sum(c.size for c in result.decomposition.classes) == 2612736


def test_mapper_counts_the_classes_not_in_the_checkpoint(tmp_path):
    """A mapper (what --jobs hands the method) gets each class not yet in the checkpoint,
    once; a second run with the whole checkpoint sends it nothing."""
    sent: list[int] = []

    def spy(function, items):
        sent.append(len(items))
        return [function(*item) for item in items]

    path = str(tmp_path / "six.jsonl")
    for _ in range(2):
        result = count_by_method(_empty(6, (2, 3)), "bands", checkpoint=path, mapper=spy)
        assert result.count == 28200960
    assert sent == [len(result.decomposition.classes), 0]


def test_cli_method_classes_on_dask_workers(tmp_path):
    """--method bands --jobs 2: the classes go to two local workers; same output as the
    serial run, and the checkpoint shows every class counted."""
    import_extra("distributed", "dask")
    path = tmp_path / "ck.jsonl"
    args = ("count", "--method", "bands", "--box", "2x3", "-")
    serial = cli_run(*args, input="." * 36 + "\n")
    parallel = cli_run(*args[:-1], "--jobs", "2", "--checkpoint", path, "-",
                       input="." * 36 + "\n")
    assert parallel.exit_code == 0, parallel.stderr
    assert parallel.stdout == serial.stdout == "." * 36 + " 28200960\n"
    assert len(path.read_text().splitlines()) == 4


# -- against a tool nobody here wrote: Ganak ---------------------------------------------------

@pytest.mark.parametrize("instance,method", [
    (_empty(4), "bands"), (_empty(6, (2, 3)), "bands"), (_empty(6, (3, 2)), "bands"),
    (_empty(4, latin=True), "reduced"), (_empty(5, latin=True), "reduced"),
], ids=["sudoku4", "sudoku6-2x3", "sudoku6-3x2", "latin4", "latin5"])
def test_methods_agree_with_ganak(instance, method):
    """Each method's count equals Ganak's exact model count of the grid's CNF (the issue's
    "checked against DLX enumeration and Ganak" where Ganak finishes)."""
    import_extra("pyganak", "counting")
    from sudokit.counting.ganak import count as ganak_count

    counted = ganak_count(instance)
    assert counted.exact and counted.count == count_by_method(instance, method).count


def test_progress_is_told_each_class_as_it_is_counted(tmp_path):
    """``progress`` gets ``(done, total)`` per class: from the engines, from a checkpoint
    read back, and from a mapper (the ``count --method`` progress line: classes done, rate,
    time left)."""
    told = []
    result = count_by_method(_empty(6, latin=True), "reduced",
                             progress=lambda done, total: told.append((done, total)))
    total = len(result.decomposition.classes)
    assert told == [(k, total) for k in range(total + 1)]
    checkpoint = tmp_path / "classes.jsonl"
    count_by_method(_empty(6, latin=True), "reduced", checkpoint=str(checkpoint))
    again = []
    count_by_method(_empty(6, latin=True), "reduced", checkpoint=str(checkpoint),
                    progress=lambda done, total: again.append((done, total)))
    assert again == told
    mapped = []
    count_by_method(_empty(6, latin=True), "reduced",
                    mapper=lambda function, items: (function(*item) for item in items),
                    progress=lambda done, total: mapped.append((done, total)))
    assert mapped == told
