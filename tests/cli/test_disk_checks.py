"""`encode` and `reduce` look at the disk before writing (issue 28 item 7): an output larger
than the free space of its file system is exit 8 before anything is built or written, and one
above 1 GiB needs `--force`, the message naming the smallest encoding that fits.

The case of the issue: `latin2sudoku` of an order-10 partial Latin square of the public data
gives a 100x100 Sudoku whose extended encoding is 3.5 GB of DIMACS, where `--encoding
reduced` writes 412 KB.
"""

from __future__ import annotations

import shutil
from collections import namedtuple

import pytest

from sudokit import resources
from sudokit.errors import EXIT_RESOURCES

from ..helpers import EXAMPLES, assert_cli_error, cli_run, data_path

ORDER10 = "latin/gomes_lsencode_PLS/qwh.order10.holes100.pls"


@pytest.fixture
def sudoku100(tmp_path):
    target = tmp_path / "l2s.txt"
    made = cli_run("reduce", "latin2sudoku", data_path(ORDER10), "-o", target)
    assert made.exit_code == 0, made.stderr
    return target


def test_a_huge_encoding_needs_force_and_names_the_small_one(tmp_path, sudoku100):
    out = tmp_path / "big.cnf"
    refused = cli_run("encode", "--cnf", sudoku100, "-o", out)
    line = assert_cli_error(refused, EXIT_RESOURCES, "the extended encoding", "GiB",
                            "--force", "--encoding reduced")
    assert not out.exists(), line
    small = cli_run("encode", "--cnf", "--encoding", "reduced", sudoku100, "-o", out)
    assert small.exit_code == 0 and out.stat().st_size < 1 << 20


def test_force_writes_what_is_above_the_threshold(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "LARGE_OUTPUT", 1000)   # every 9x9 encoding is above it
    out = tmp_path / "top3.cnf"
    assert_cli_error(cli_run("encode", "--cnf", EXAMPLES / "top3.txt", "-o", out),
                     EXIT_RESOURCES, "--force")
    assert not out.exists()
    assert cli_run("encode", "--cnf", "--force", EXAMPLES / "top3.txt", "-o", out).exit_code == 0
    assert out.read_text().startswith("c sudoku 9x9")


def test_no_room_on_the_disk_is_exit_8_even_with_force(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**6, 10**6 - 500, 500))
    out = tmp_path / "top3.cnf"
    for extra in ((), ("--force",)):
        result = cli_run("encode", "--cnf", *extra, EXAMPLES / "top3.txt", "-o", out)
        assert_cli_error(result, EXIT_RESOURCES, "500 B free")
    assert not out.exists()


def test_reduce_checks_its_target_too(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "LARGE_OUTPUT", 100)
    out = tmp_path / "target.cnf"
    args = ("reduce", "sudoku2sat", EXAMPLES / "puzzle17.txt", "-o", out)
    assert_cli_error(cli_run(*args), EXIT_RESOURCES, "the target of sudoku2sat", "--force")
    assert cli_run(*args, "--force").exit_code == 0 and out.stat().st_size > 100


def test_the_estimate_is_not_below_what_is_written(tmp_path):
    """The DIMACS size estimate errs high: what is written never exceeds it."""
    from sudokit.encoders.size import completion_cnf_size
    from sudokit.formats import read_instances
    from sudokit.formats.dimacs import dimacs_bytes

    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text((EXAMPLES / "top3.txt").read_text().splitlines()[0] + "\n")
    instance = read_instances(puzzle)[0].instance
    for encoding in ("minimal", "efficient", "extended", "reduced"):
        out = tmp_path / f"{encoding}.cnf"
        assert cli_run("encode", "--cnf", "--encoding", encoding, puzzle, "-o", out).exit_code == 0
        size = completion_cnf_size(instance, encoding, "pairwise")
        assert out.stat().st_size <= dimacs_bytes(size.variables, size.clauses, size.literals)
