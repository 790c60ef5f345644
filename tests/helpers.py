"""What several test modules share: the data folders, hypothesis strategies, brute-force counters.

Test modules import from here (``from .helpers import ...``), never from each other.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import strategies as st

from sudokit.cnf import CNF
from sudokit.exact_cover import exact_cover_from_matrix
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.instances.formula import formula

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
EXAMPLES = ROOT / "sudokit" / "instances" / "examples"

README = (ROOT / "README.md").read_text()


def doc_pages() -> list[Path]:
    """The pages users read, in a fixed order: README.md, then every docs/**/*.md (those that
    later tasks add included), so a test over them covers every page as it is added."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def code_blocks(text: str, language: str) -> list[str]:
    """The fenced ```language blocks of a Markdown text (at the start of a line), in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def console_examples(text: str = README):
    """``(command, expected_output)`` pairs from the ```console blocks of ``text`` (the
    README's unless given): each ``$ `` line is a command, the lines up to the next one its
    output."""
    pairs = []
    for block in code_blocks(text, "console"):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            pairs.append((command, output))
    return pairs


def docs_console_examples():
    """``(page, command, expected_output)`` for every page of :func:`doc_pages`, ``page``
    relative to the repository root."""
    return [(page.relative_to(ROOT).as_posix(), command, output)
            for page in doc_pages()
            for command, output in console_examples(page.read_text())]

#: every skip for missing public data says this; conftest counts such skips in the summary and
#: ``pytest --require-data`` turns them into failures
DATA_SKIP_REASON = "shared data missing"
REQUIRE_DATA = False  # set by conftest from --require-data


def data_path(*parts: str) -> Path:
    """``DATA / parts``, or skip the test (a failure under ``--require-data``) when it is absent."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        message = f"{DATA_SKIP_REASON}: {path}"
        if REQUIRE_DATA:
            pytest.fail(f"{message} (--require-data)", pytrace=False)
        pytest.skip(message)
    return path


# -- optional extras ---------------------------------------------------------------------------

#: the optional extras of pyproject.toml and the modules each one installs (the ``test`` extra
#: installs them all; without it, the tests that need one skip and say which)
EXTRAS = {"ilp": ("highspy",), "cp": ("ortools",), "interop": ("networkx", "scipy"),
          "draw": ("matplotlib", "networkx"), "counting": ("pyganak", "pyapproxmc"),
          "dask": ("distributed",),
          "docs": ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python", "mkdocs_click",
                   "material", "matplotlib")}


def missing_modules(*modules: str) -> list[str]:
    """Those of ``modules`` that cannot be imported here (looked up, not imported)."""
    import importlib.util

    missing = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(module)
    return missing


def extra_skip_reason(extra: str, *modules: str) -> str | None:
    """Why a test of ``extra`` must skip here (None: it can run); ``modules``: the ones it
    needs, by default all of the extra's."""
    missing = missing_modules(*(modules or EXTRAS[extra]))
    if not missing:
        return None
    return (f"needs the {extra} extra ({', '.join(missing)} not installed): "
            f"pip install 'sudokit[{extra}]'")


def requires(extra: str, *modules: str):
    """A mark that skips a test (or, as ``pytestmark``, a module) when ``extra``'s modules
    (or just ``modules`` of it) are missing, with the reason and the command to install."""
    reason = extra_skip_reason(extra, *modules)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def import_extra(module: str, extra: str):
    """``module`` imported, or the test (or, at module level, the whole module) skipped with
    the reason of :func:`requires` when ``extra``'s module is missing."""
    __tracebackhide__ = True  # the skip is reported at the caller's line
    top = module.split(".")[0]
    reason = extra_skip_reason(extra, top) or f"{module} cannot be imported"
    return pytest.importorskip(module, reason=reason)


#: what in a shown command or code block needs an extra: pattern -> (extra, modules)
_NEEDS = (
    (r"--solver ilp|--fill ilp", "ilp", ("highspy",)),
    (r"--solver cpsat", "cp", ("ortools",)),
    (r"sudokit solvers", "all", ("highspy", "ortools")),   # its table says which are there
    (r"--counter ganak", "counting", ("pyganak",)),
    (r"--counter approxmc", "counting", ("pyapproxmc",)),
    (r"--jobs|--scheduler|import distributed|import dask", "dask", ("distributed",)),
    (r"\.png\b|\.pdf\b|--format (png|pdf)|import matplotlib", "draw", ("matplotlib",)),
    (r"sudokit draw .*(myciel|\.col|generate coloring)|(myciel|\.col|generate coloring).*"
     r"sudokit draw|--layout spring", "draw", ("networkx",)),
    (r"import networkx|from networkx|to_networkx|from_networkx", "interop", ("networkx",)),
    (r"import scipy|to_scipy|from_scipy", "interop", ("scipy",)),
)


def shown_needs(text: str) -> str | None:
    """Why a command or code block shown to users (README, ``--help``) cannot run here: the
    skip reason of the first extra it needs that is missing, or None."""
    import re

    for pattern, extra, modules in _NEEDS:
        if re.search(pattern, text):
            reason = extra_skip_reason(extra, *modules)
            if reason is not None:
                return reason
    return None


def with_extra(extra: str, *values):
    """``values``, one parameter set of ``pytest.mark.parametrize``, that skips when
    ``extra`` is missing (:func:`requires`)."""
    return pytest.param(*values, marks=requires(extra))


def grid_from_line(line: str, n: int = 9):
    """A quick local reader for one-line puzzles used by tests that avoid the parser."""
    digits = [0 if ch in ".0-" else int(ch, 36) for ch in line.strip()]
    return np.array(digits, dtype=int).reshape(n, n)


# -- hypothesis strategies ----------------------------------------------------------------------

def cyclic_latin(n, r=1, c=None):
    """A valid Sudoku grid for boxes r x c (a Latin square when r = 1)."""
    c = c or n
    i, j = np.indices((n, n))
    return (i * c + i // r + j) % n + 1


@st.composite
def partial_grids(draw):
    """Small Sudokus (boxes up to 2x3) and Latin squares (order up to 4) with random givens."""
    box = draw(st.sampled_from([(2, 2), (1, 3), (2, 3), (1, 4), None]))
    n = box[0] * box[1] if box else draw(st.integers(1, 4))
    full = cyclic_latin(n, *(box or (1, n)))
    perm = np.array(draw(st.permutations(range(1, n + 1))))
    full = perm[full - 1]
    mask = np.array(draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))).reshape(n, n)
    givens = np.where(mask, full, 0)
    if n == 6 and np.count_nonzero(givens) < 14:
        givens = np.where(mask | (np.indices((n, n))[0] < 3), full, 0)  # keep brute force small
    return latin_square(givens) if box is None else sudoku(givens, box)


@st.composite
def small_precolorings(draw):
    """Graphs of up to 7 vertices and 12 edges, 1..3 colors, valid random precolors."""
    n = draw(st.integers(1, 7))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=12)) if pairs else []
    k = draw(st.integers(1, 3))
    colors = draw(st.lists(st.integers(0, k), min_size=n, max_size=n))
    colors = np.array(colors)
    for u, v in edges:  # drop clashing precolors so the instance is valid
        if colors[u] and colors[u] == colors[v]:
            colors[v] = 0
    return precoloring(n, edges, k, colors)


@st.composite
def small_matrices(draw):
    """Exact cover problems of up to 9 options over 1..6 primary and 0..3 secondary items."""
    primary = draw(st.integers(1, 6))
    secondary = draw(st.integers(0, 3))
    rows = draw(st.lists(st.lists(st.booleans(), min_size=primary + secondary,
                                  max_size=primary + secondary), min_size=1, max_size=9))
    matrix = np.array(rows, dtype=np.uint8)
    matrix[:, 0] |= ~matrix[:, :primary].any(axis=1)  # every option needs a primary item
    return exact_cover_from_matrix(matrix, num_primary=primary)


@st.composite
def random_cnf(draw):
    """CNF formulas of up to 5 variables and 9 clauses of 1..3 literals."""
    num_vars = draw(st.integers(1, 5))
    literal = st.integers(1, num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(literal, min_size=1, max_size=3), min_size=1, max_size=9))
    cnf = CNF(num_vars=num_vars)
    cnf.add_clauses("input", clauses)
    return formula(cnf)


# -- brute-force counters (independent of every encoder and solver) ------------------------------

def brute_force_count(problem) -> int:
    """Backtracking over cells with the problem's own units (independent of any encoder)."""
    cells, k = problem.num_cells, problem.num_values
    units = problem.units()
    peers = [set() for _ in range(cells)]
    for unit in units.tolist():
        for cell in unit:
            peers[cell].update(unit)
    values = problem.flat_givens.tolist()

    def extend(cell):
        if cell == cells:
            return 1
        if values[cell]:
            return extend(cell + 1)
        total = 0
        for v in range(1, k + 1):
            if all(values[p] != v for p in peers[cell] if p != cell):
                values[cell] = v
                total += extend(cell + 1)
                values[cell] = 0
        return total

    return extend(0)


def brute_force_covers(xc) -> int:
    """Exact covers of ``xc`` by trying every subset of its options."""
    dense = xc.to_dense().astype(int)
    total = 0
    for size in range(xc.num_options + 1):
        for subset in itertools.combinations(range(xc.num_options), size):
            cover = dense[list(subset)].sum(axis=0)
            if (cover[:xc.num_primary] == 1).all() and (cover[xc.num_primary:] <= 1).all():
                total += 1
    return total


# -- the command line in-process -------------------------------------------------------------

def cli_run(*args, input=None):
    """Invoke the CLI in-process with stdout and stderr kept apart; never a traceback."""
    from click.testing import CliRunner

    from sudokit.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.stdout + result.stderr
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def assert_cli_error(result, code, *fragments):
    """Exit ``code`` and exactly one stderr line 'sudokit: error: ...' holding every fragment;
    returns that line."""
    assert result.exit_code == code, (result.exit_code, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]



def loaded_after(args: list[str], modules: tuple[str, ...], env: dict | None = None,
                 stdin: str | None = None) -> dict:
    """Run ``sudokit.cli.main(args)`` in a new interpreter (its ``sys.modules`` is its own):
    ``{"stdout", "stderr"}`` and, for each of ``modules``, whether the run imported it."""
    script = textwrap.dedent(f"""
        import json, sys
        import sudokit.cli
        try:
            sudokit.cli.main({args!r}, prog_name="sudokit", standalone_mode=False)
        except SystemExit:
            pass
        sys.stdout.flush()
        print(json.dumps({{name: name in sys.modules for name in {modules!r}}}),
              file=sys.stderr)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=env, input=stdin)
    assert done.returncode == 0, done.stderr
    return {"stdout": done.stdout, "stderr": done.stderr,
            **json.loads(done.stderr.strip().splitlines()[-1])}


# -- runs on a busy machine ------------------------------------------------------------------
#
# No test compares a wall-clock duration with a fixed bound: on a machine shared with other
# jobs a run may take several times as long as alone. Tests measure CPU seconds instead (what
# a run itself computed, which other processes do not stretch), against a baseline or a budget
# the same test sets, and they send signals at a readiness point the run itself reports.

#: how long a test waits for a child process before it gives up: only a guard against a hung
#: run, far above any real duration, never the property being tested
HANG_GUARD = 300.0


def cpu_seconds() -> float:
    """CPU seconds (user + system, every thread) of this process and of the child processes
    it has waited for: the difference across a block is what the block computed, however
    busy the machine."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def process_cpu(pid: int) -> float:
    """CPU seconds so far of the live process ``pid`` and its descendants (Linux /proc; the
    children it waited for included, 0 for a process already gone)."""
    import os

    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += sum(int(x) for x in fields[11:15]) / ticks  # utime stime cutime cstime
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                total += sum(process_cpu(int(child)) for child in f.read().split())
    except (FileNotFoundError, ProcessLookupError, ValueError):
        pass
    return total


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(),
                                reason="measures child processes through Linux /proc")


class Interrupted:
    """How a run ended after :func:`interrupt`: exit ``code``, ``out``, ``err`` (text), and
    the CPU seconds it spent before the signal (``cpu_before``) and after (``cpu_after``:
    finishing the slice of work in hand, cleaning up, exiting)."""

    def __init__(self, code, out, err, cpu_before, cpu_after):
        self.code, self.out, self.err = code, out, err
        self.cpu_before, self.cpu_after = cpu_before, cpu_after

    def reacted_at_once(self, share: float = 0.5) -> bool:
        """The run spent less CPU after the signal than ``share`` of what it spent before it
        (interpreter start and work up to the readiness point): it stopped within its slice
        of work, instead of finishing the search (minutes, as a 64x64 puzzle once did)."""
        return self.cpu_after < share * self.cpu_before


def _drain(pipe, into: list) -> None:
    for chunk in iter(lambda: pipe.read1(1 << 16), b""):
        into.append(chunk)


def interrupt(process, ready, signum=None, group: bool = False) -> Interrupted:
    """Send ``signum`` (SIGINT) to ``process`` (a ``Popen`` with piped stdout and stderr) once
    ``ready(out, err)`` holds for what it has written so far, then wait for its end.

    The test fails if the process ends before it is ready, or if either wait exceeds
    :data:`HANG_GUARD`. ``group``: signal its whole process group (as a terminal's Ctrl-C
    does; start it with ``start_new_session=True``)."""
    import os
    import signal
    import threading
    import time

    signum = signal.SIGINT if signum is None else signum
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [threading.Thread(target=_drain, args=(pipe, into), daemon=True)
               for pipe, into in ((process.stdout, out), (process.stderr, err)) if pipe]
    for reader in readers:
        reader.start()

    def text(chunks):
        return b"".join(chunks).decode(errors="replace")

    deadline = time.monotonic() + HANG_GUARD
    while not ready(text(out), text(err)):
        if process.poll() is not None:
            for reader in readers:
                reader.join(HANG_GUARD)
            pytest.fail(f"ended (exit {process.returncode}) before it was ready to be "
                        f"interrupted: {text(err)[-500:]}")
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            pytest.fail(f"not ready to be interrupted after {HANG_GUARD} s: {text(err)[-500:]}")
        time.sleep(0.02)
    cpu_before = process_cpu(process.pid)
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    deadline = time.monotonic() + HANG_GUARD
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            pytest.fail(f"no exit within {HANG_GUARD} s of signal {signum}")
        time.sleep(0.02)
    process.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join(10)  # (a grandchild left holding a pipe must not hang the test)
    cpu_after = usage.ru_utime + usage.ru_stime - cpu_before
    return Interrupted(process.returncode, text(out), text(err), cpu_before, cpu_after)


def progress_line(prefix: str):
    """A readiness test for :func:`interrupt`: the run wrote a stderr line starting with
    ``prefix`` (a progress line such as ``generating: ...``, written between slices of the
    work, so the command's signal handlers are in place and the work is under way)."""
    return lambda out, err: any(line.startswith(prefix) for line in err.splitlines())


def cpu_beyond(process, seconds: float):
    """A readiness test for :func:`interrupt`: ``process`` (and its children) has computed
    more than ``seconds`` CPU seconds. With ``seconds`` above what a whole quick run of the
    same command takes (its start-up), the run is surely inside its long search."""
    return lambda out, err: process_cpu(process.pid) > seconds


def run_cpu(args: list, **kwargs):
    """``subprocess.run(args, **kwargs)`` and the CPU seconds the process computed."""
    kwargs.setdefault("timeout", HANG_GUARD)
    before = cpu_seconds()
    done = subprocess.run(args, **kwargs)
    return done, cpu_seconds() - before


def budget_cpu_bound(limit: float, startup: float = 0.0) -> float:
    """The most CPU seconds a run under a time limit of ``limit`` seconds may compute: twice
    its ``startup`` (a whole quick run of the same command, measured by the same test), the
    limit on every core (a back end may search on several threads), and a second for
    reading the clock only between slices of work. A budget that is ignored costs minutes."""
    import os

    return 2 * startup + 1.5 * limit * (os.cpu_count() or 1) + 1
