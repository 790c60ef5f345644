"""Bad input costs a chunk, not the file: lines are read with a bounded length, and a block of
bad lines is cut like any other (measured by bytes read and by traced memory, not time)."""

from __future__ import annotations

import io
import sys
import tracemalloc

import pytest

from sudokit.errors import ParseError
from sudokit.formats import read_instances, read_text
from sudokit.formats import stream as stream_module
from sudokit.formats.stream import read_instance_chunks
from sudokit.formats.textio import MAX_LINE


class _TooFar(Exception):
    """A reader read past what it needed (the old readers read on to the end)."""


class _Counted(io.RawIOBase):
    """``data`` repeated up to ``limit`` bytes (``/dev/zero`` with ``b"\\0"``), counting
    what is read; reading past ``limit`` raises :class:`_TooFar`."""

    def __init__(self, data: bytes, limit: int):
        self.data, self.limit, self.read_bytes = data, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.read_bytes >= self.limit:
            raise _TooFar(self.read_bytes)
        size = min(len(buffer), self.limit - self.read_bytes)
        repeat = (self.data * (size // len(self.data) + 2))[self.read_bytes % len(self.data):]
        buffer[:size] = repeat[:size]
        self.read_bytes += size
        return size


@pytest.fixture
def stdin(monkeypatch):
    """``stdin(data, limit)``: standard input reads ``data`` repeated; gives the raw stream."""

    def feed(data: bytes, limit: int) -> _Counted:
        raw = _Counted(data, limit)
        fake = type("FakeStdin", (), {"buffer": io.BufferedReader(raw)})()
        monkeypatch.setattr(sys, "stdin", fake)
        return raw

    return feed


def test_no_line_break_is_an_error_after_one_line_of_chunks(stdin):
    raw = stdin(b"\0", 64 * MAX_LINE)
    with pytest.raises(ParseError) as info:
        list(read_instance_chunks("-"))
    assert info.value.line == 1 and "line longer than" in info.value.message
    assert raw.read_bytes <= 2 * MAX_LINE


def test_no_line_break_is_an_error_for_a_whole_file_read(stdin):
    raw = stdin(b"\0", 64 * MAX_LINE)
    with pytest.raises(ParseError) as info:
        read_text("-")
    assert info.value.line == 1 and raw.read_bytes <= 2 * MAX_LINE


def test_a_long_line_after_short_ones_is_named_by_its_number(tmp_path):
    path = tmp_path / "long.txt"
    path.write_bytes(b"1...............\n" * 3 + b"." * (MAX_LINE + 5) + b"\n")
    for read in (read_instances, lambda p: list(read_instance_chunks(p))):
        with pytest.raises(ParseError) as info:
            read(str(path))
        assert info.value.line == 4 and "line longer than 1,048,576 bytes" in info.value.message


def test_a_line_of_the_longest_length_is_read(tmp_path):
    path = tmp_path / "edge.txt"
    puzzle = b"1" + b"." * 15
    path.write_bytes(puzzle + b"\n" + b" " * (MAX_LINE - 16) + puzzle + b"\n")
    assert len(read_instances(str(path))) == 2


def test_yes_stops_at_its_first_chunk(stdin, monkeypatch):
    """``yes | sudokit count -``: a stream of 'y' lines fails on the first chunk; it is not
    held (the old reader never cut a block of short lines, and read on to the end)."""
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 1024)
    size = 4_000_000
    raw = stdin(b"y\n", size)
    tracemalloc.start()
    try:
        with pytest.raises(ParseError) as info:
            list(read_instance_chunks("-"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (info.value.line, info.value.column) == (1, 1)
    assert raw.read_bytes < size / 100
    assert peak < size / 2, peak


def test_a_bad_first_line_costs_a_chunk_not_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 1024)
    path = tmp_path / "bad.txt"
    path.write_text("x" * 16 + "\n" + "1..4..1..3..4..3\n" * 200_000)
    size = path.stat().st_size
    tracemalloc.start()
    try:
        with pytest.raises(ParseError) as info:
            list(read_instance_chunks(str(path)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.line == 1
    assert peak < size / 4, (peak, size)
