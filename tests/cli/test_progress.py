"""The progress line (issue 28 item 5): tqdm's meter with percent and time left when the total
is known (a file's instances, or its lines counted ahead), a count and a rate when it is not
(stdin), the phase before the first answer, the solutions found inside one long count; drawn
on a terminal, with ``--progress`` anywhere, never with ``--quiet`` or
``SUDOKIT_NO_PROGRESS=1`` (unless ``--progress``).

Checked by the text drawn for given counts at given times (the clock is driven), never by
this machine's clock.
"""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest

from sudokit.batch import run_batch
from sudokit.instances import latin_square
from sudokit.progress import Progress, configure, count_lines, enabled, quiet, tell_found

from ..helpers import EXAMPLES
from ..helpers import cli_run as run

TOP3 = EXAMPLES / "top3.txt"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _default_setting():
    configure(None)
    yield
    configure(None)
    Progress.current = None


def _progress(total, label="counting", stream=None, **kwargs):
    clock = _Clock()
    progress = Progress(total, label, show=True, stream=stream or io.StringIO(), clock=clock,
                        **kwargs)
    return progress, clock


# -- the text for given counts and times -----------------------------------------------------

def test_a_known_total_gives_percent_time_left_and_rate():
    progress, _ = _progress(10)
    progress(4)
    assert progress.line(8.0) == "counting:  40% 4/10 [00:08<00:12] (0.5/s)"
    assert progress.line(400.0) == "counting:  40% 4/10 [06:40<10:00] (0.01/s)"
    progress.close()


def test_no_rate_before_it_means_something():
    progress, _ = _progress(10)
    assert progress.line(0.5) == "counting:   0% 0/10 [00:00<?]"
    progress(1)
    assert progress.line(0.5) == "counting:  10% 1/10 [00:00<00:04]"
    progress.close()


@pytest.mark.parametrize("done, elapsed, shown", [
    (0, 5.0, ""), (3, 0.5, ""), (1, 2.5, " (0.4/s)"), (5, 2.0, " (2.5/s)"),
    (5000, 1.25, " (4,000/s)"), (12, 1.0, " (12/s)")])
def test_the_rate_only_when_meaningful(done, elapsed, shown):
    assert Progress.rate(done, elapsed) == shown


def test_stdin_gives_a_count_and_a_rate():
    progress, _ = _progress(None)
    progress(32375)
    assert progress.line(5.0) == "counting: 32,375 [00:05] (6,475/s)"
    progress.close()


def test_a_file_of_many_chunks_shows_its_place_among_the_lines():
    progress, _ = _progress(None)
    progress.position(500, 1000)
    progress(2000)
    assert progress.line(10.0) == "counting:  50% [00:10<00:10] 2,000 instances (200/s)"
    progress.close()


def test_a_phase_replaces_the_count_until_the_next_answer():
    progress, clock = _progress(None)
    progress.phase("starting 2 workers")
    assert progress.line(3.0) == "counting: starting 2 workers [00:03]"
    progress.phase(None)
    assert progress.line(3.0) == "counting: 0 [00:03]"
    progress.phase("compiling the takano kernels")
    clock.now = 4.0
    progress(1)
    assert progress.line(4.0) == "counting: 1 [00:04] (0.25/s)"
    progress.close()


def test_one_long_count_shows_the_solutions_found():
    progress, clock = _progress(1)
    tell_found(1234567)      # what an engine's sliced search tells between slices
    assert progress.line(5.0) == \
        "counting:   0% 0/1 [00:05<?] #1 for 5 s, 1,234,567 solutions found"
    clock.now = 6.0
    progress(1)              # the answer: the next instance has found nothing yet
    assert progress.found is None
    progress.close()


def test_the_spinner_turns_with_the_ticker():
    progress, _ = _progress(3, stream=_Terminal(), ticking=True)
    progress.stopped.set()
    progress.ticker.join()   # stopped: the test turns it by hand
    lines = []
    for tick in range(2):
        progress.ticks = tick
        lines.append(progress.line(3.0))
    assert [line.split("] ")[1] for line in lines] == ["| #1 for 3 s", "/ #1 for 3 s"]
    assert "|" in lines[0].split("]")[0]   # a bar on a terminal
    progress.close()


def test_the_engines_tell_the_solutions_found_inside_one_count():
    """CP and DLX, counting an empty 5x5 Latin square (161,280 solutions) past their first
    slice, tell the count so far between slices."""
    for solver in ("takano", "dlx"):
        progress = Progress(1, "counting", show=False)
        result = next(run_batch([latin_square(np.zeros((5, 5), dtype=int))], task="count",
                                solver=solver))
        progress.close()
        assert result.count == 161280
        assert progress.found is not None and 0 < progress.found <= 161280, solver


def test_a_progress_opened_inside_another_takes_the_line_until_it_closes():
    """``count --method``: the classes' line replaces the instances' line while one count
    runs, then the instances' line goes on."""
    stream = io.StringIO()
    outer, _ = _progress(3, stream=stream, delay=0.0)
    inner, _ = _progress(7, "counting classes", stream=stream, delay=0.0)
    assert Progress.current is inner
    for progress in (outer, inner):
        progress.interval = 0.0
    outer(1)
    inner(2)
    inner.close()
    assert Progress.current is outer
    outer(2)
    outer.close()
    assert Progress.current is None
    assert stream.getvalue().splitlines() == ["counting classes:  29% 2/7 [00:00<?]",
                                              "counting:  67% 2/3 [00:00<?]"]


def test_nothing_in_the_first_seconds_then_a_line_every_ten_off_a_terminal():
    stream = io.StringIO()
    progress, clock = _progress(100, stream=stream)
    for second in range(1, 25):
        clock.now = float(second)
        progress(second)
    progress.close()
    assert [line.split("% ")[1].split(" ")[0] for line in stream.getvalue().splitlines()] \
        == ["2/100", "12/100", "22/100"]


def test_a_note_gets_a_line_of_its_own():
    stream = _Terminal()
    progress, clock = _progress(2, label="generating", stream=stream, delay=0.0)
    clock.now = 1.0
    progress(1)
    progress.note("puzzle 1: 30 clues")
    progress.close()
    assert stream.getvalue().split("\n")[1] == "sudokit: puzzle 1: 30 clues"


# -- when it is drawn ------------------------------------------------------------------------

def test_drawn_on_a_terminal_only_unless_asked(monkeypatch):
    monkeypatch.delenv("SUDOKIT_NO_PROGRESS", raising=False)
    assert enabled(_Terminal()) and not enabled(io.StringIO()) and not quiet()
    configure(True)
    assert enabled(io.StringIO())
    configure(False)
    assert not enabled(_Terminal()) and quiet()


def test_the_environment_variable_turns_it_off_unless_progress_is_asked(monkeypatch):
    monkeypatch.setenv("SUDOKIT_NO_PROGRESS", "1")
    assert not enabled(_Terminal()) and quiet()
    configure(True)
    assert enabled(io.StringIO()) and not quiet()


def test_the_ticker_runs_only_when_the_line_is_drawn(monkeypatch):
    """A terminal, or ``--progress`` into a log (a line every 10 s while one count runs);
    never when the line is not drawn."""
    monkeypatch.delenv("SUDOKIT_NO_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    for ticking, expected in ((False, False), (True, True)):
        progress = Progress(3, "counting", ticking=ticking)
        assert (progress.ticker is not None) is expected
        progress.close()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    progress = Progress(3, "counting", ticking=True)
    assert progress.ticker is None and progress.quiet
    progress.close()
    configure(True)
    progress = Progress(3, "counting", ticking=True)
    assert progress.ticker is not None and progress.interval == 10.0
    progress.close()
    configure(None)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.setenv("SUDOKIT_NO_PROGRESS", "1")
    progress = Progress(3, "counting", ticking=True)
    assert progress.ticker is None and progress.quiet
    progress.close()


def test_count_lines(tmp_path):
    path = tmp_path / "lines.txt"
    for text, lines in (("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("\n\n\n", 3)):
        path.write_text(text)
        assert count_lines(str(path)) == lines
    path.write_text("x\n" * 5000)
    assert count_lines(str(path), block=7) == 5000


# -- the flags -------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["solve"], ["count"], ["grade"], ["generate", "sudoku"]])
def test_every_command_with_progress_documents_both_flags(command):
    shown = run(*command, "--help").stdout
    assert "--progress / --quiet" in shown and "SUDOKIT_NO_PROGRESS=1" in shown


@pytest.mark.parametrize("command, label", [
    (["count", TOP3], "counting: "), (["solve", TOP3], "solving: "),
    (["grade", TOP3], "grading: "),
    (["generate", "sudoku", "--size", "4", "--count", "2", "--seed", "1"], "generating: ")])
def test_progress_flag_draws_off_a_terminal_and_wins_over_the_variable(
        monkeypatch, command, label):
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setenv("SUDOKIT_NO_PROGRESS", "1")
    assert run(*command).stderr == ""
    shown = run(*command, "--progress")
    assert shown.exit_code == 0 and shown.stderr.startswith(label), shown.stderr
    monkeypatch.delenv("SUDOKIT_NO_PROGRESS")
    assert run(*command, "--quiet").stderr == ""
    assert run(*command).stderr == ""      # stderr is no terminal here


def test_a_file_of_many_chunks_counts_its_lines_for_the_percent(monkeypatch, tmp_path):
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setattr("sudokit.formats.stream.CHUNK_LINES", 2)
    lines = TOP3.read_text().splitlines()
    path = tmp_path / "nine.txt"
    path.write_text("\n".join(lines * 3) + "\n")
    shown = run("count", "--progress", "--limit", "2", path)
    assert shown.exit_code == 0 and len(shown.stdout.splitlines()) == 9
    first = shown.stderr.splitlines()[0]
    assert first.startswith("counting: ") and "instances" in first and "%" in first, first


def test_run_batch_draws_a_line_when_asked(monkeypatch):
    """The library's own line: ``run_batch(..., progress=True)``, for a script or a notebook
    (drawn whatever stderr is)."""
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    squares = [latin_square(np.zeros((3, 3), dtype=int))] * 2
    counts = [r.count for r in run_batch(squares, task="count", progress=True)]
    assert counts == [12, 12]
    assert stream.getvalue().startswith("counting: "), stream.getvalue()
    told = []
    list(run_batch(squares, task="count", progress=told.append))
    assert told[-1] == 2
