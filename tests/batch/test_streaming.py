"""Streaming input (sudokit.formats.stream): files read, solved and printed a chunk at a time
give the same bytes as one read of the whole file, and results come out while stdin is open."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

import pytest

from sudokit.formats import read_instances
from sudokit.formats import stream as stream_module
from sudokit.formats.stream import read_instance_chunks

from ..helpers import EXAMPLES, HANG_GUARD, ROOT, cli_run, data_path

TOP3 = (EXAMPLES / "top3.txt").read_text().splitlines()


def _mixed_file(tmp_path):
    """One-line puzzles, comments, a 4x4 grid and 6x6 grids with separators: chunk cuts land
    everywhere a small chunk size allows."""
    six = (EXAMPLES / "six.txt").read_text()
    parts = ["# a mixed file"]
    for index in range(40):
        parts.append(TOP3[index % 3])
        if index % 7 == 0:
            parts.append("")
        if index % 11 == 0:
            parts.append(six)
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(parts) + "\n")
    return path


@pytest.mark.parametrize("chunk_lines", [1, 2, 5, 13, 1 << 14])
def test_chunks_give_the_records_of_one_read(chunk_lines, tmp_path):
    path = _mixed_file(tmp_path)
    whole = read_instances(str(path))
    chunks = list(read_instance_chunks(str(path), chunk_lines=chunk_lines))
    flat = [record for chunk in chunks for record in chunk]
    assert [(r.line, r.style, r.instance.givens.tolist()) for r in flat] == \
        [(r.line, r.style, r.instance.givens.tolist()) for r in whole]
    if chunk_lines < 5:
        assert len(chunks) > 5


def test_errors_and_skipped_lines_keep_their_file_line_numbers(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("\n".join([TOP3[0]] * 30 + ["x" * 81] + [TOP3[1]] * 5) + "\n")
    for chunk_lines in (4, 1 << 14):
        with pytest.raises(Exception) as info:
            list(read_instance_chunks(str(path), chunk_lines=chunk_lines))
        assert f"{path}:31:" in str(info.value)
        skipped = []
        records = [r for chunk in read_instance_chunks(str(path), on_bad=skipped.append,
                                                       chunk_lines=chunk_lines) for r in chunk]
        assert len(records) == 35 and [e.line for e in skipped] == [31]


@pytest.mark.parametrize("args", [["count", "--limit", "2"], ["solve"], ["solve", "--json"],
                                  ["count", "--json"], ["grade"], ["grade", "--summary"],
                                  ["count", "--summary", "--require-unique"]])
def test_cli_output_is_byte_identical_to_the_unstreamed_run(args, tmp_path, monkeypatch):
    path = tmp_path / "many.txt"
    source = data_path("sudoku", "9x9-norvig", "top95.txt").read_text().splitlines()
    path.write_text("\n".join(source * 3) + "\n")
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 10**9)  # one chunk: the whole file
    whole = cli_run(*args, path)
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 7)
    streamed = cli_run(*args, path)
    assert whole.exit_code == streamed.exit_code == 0, streamed.stderr
    assert _timeless(streamed.stdout) == _timeless(whole.stdout) and whole.stdout


def _timeless(text: str) -> str:
    return re.sub(r'"seconds":[0-9.e-]+', '"seconds":S', text)


def test_first_result_arrives_before_stdin_is_closed():
    """A pipe that stays open: the first chunk's results come out while more input may come."""
    lines = (TOP3 * (stream_module.CHUNK_LINES // 3 + 2))[:stream_module.CHUNK_LINES + 3]
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", "count", "--limit", "2", "-"],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write(("\n".join(lines) + "\n").encode())
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "no output while stdin stayed open"
        first = proc.stdout.readline().decode()
        assert first == TOP3[0] + " 1\n"
        assert proc.poll() is None  # still running: its input is not closed yet
        proc.stdin.write((TOP3[2] + "\n").encode())
        proc.stdin.close()
        rest, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert len(rest.decode().splitlines()) == len(lines)  # the first line read above, one more


@pytest.mark.heavy
def test_a_million_lines_in_flat_memory(tmp_path):
    """The 17-clue set repeated to 1,000,000 lines: peak RSS under 300 MB (GNU time)."""
    source = data_path("sudoku", "9x9-tdoku", "puzzles2_17_clue").read_bytes()
    path = tmp_path / "big.txt"
    with open(path, "wb") as out:
        written = 0
        while written < 1_000_000:
            lines = source.splitlines(keepends=True)[:1_000_000 - written]
            out.writelines(lines)
            written += len(lines)
    if not os.path.exists("/usr/bin/time"):
        pytest.skip("GNU time is not installed")
    start = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "sudokit", "count",
                           "--limit", "2", str(path), "-o", str(tmp_path / "out.txt")],
                          capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, SUDOKIT_NO_PROGRESS="1"))
    assert done.returncode == 0, done.stderr
    peak_kb = int(next(line for line in done.stderr.splitlines()
                       if "Maximum resident" in line).split()[-1])
    assert peak_kb < 300 * 1024, (peak_kb, time.monotonic() - start)
