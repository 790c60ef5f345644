"""``sudokit kernels``: the compiled kernel families, and compiling them before they are needed.

The numba kernels are machine code compiled for this machine. ``pip install`` compiles every
family into the installed package (``setup.py`` runs ``sudokit kernels --build --into ...``), so
commands start at once. Where that did not happen (an editable install, a numba release other
than the one the package was built with, another CPU), a command that needs a family it finds
in no cache compiles it first, in a child process (:func:`prepare`): the wait is announced and
shown, ``--time-limit`` covers it (past the limit the command ends with exit 5 while the child
finishes for the next run) and Ctrl-C stops it.

A family is compiled by running commands that use it (:data:`FAMILIES`), so what is compiled
is what the commands run.

Examples
--------
>>> sorted(FAMILIES)[:3]
['backtrack', 'bitset', 'cp']
>>> FAMILIES["grading"].description
'the grading propagators (grade)'
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click

from .._accel import families, locations
from ..errors import EXIT_CHECK_FAILED, BudgetExhausted
from ..progress import Progress, enabled, quiet

__all__ = ["FAMILIES", "KernelFamily", "build", "kernels", "prepare", "time_limit"]

_EXAMPLES = Path(__file__).resolve().parent.parent / "instances" / "examples"


@dataclass(frozen=True)
class KernelFamily:
    """The kernels one engine or command uses: ``runs`` are the commands that compile them
    (``argv`` after ``sudokit``, with ``{NAME}`` for a bundled example file, and the text of
    standard input); ``cpu_seconds`` is about what compiling them costs on its own
    (``benchmarks/first_run.py``, 2026-11-26: the families above it in this table
    compiled first)."""

    name: str
    description: str
    cpu_seconds: int
    runs: tuple[tuple[tuple[str, ...], str], ...]


def _runs(*commands: str, stdin: str = "") -> tuple[tuple[tuple[str, ...], str], ...]:
    return tuple((tuple(command.split()), stdin) for command in commands)


_EMPTY4, _EMPTY9 = "." * 16 + "\n", "." * 81 + "\n"
_LATIN3 = "." * 9 + "\n"
#: a puzzle of diabolical.txt whose rating path calls every kernel of sudokit/human/set_kernel.py
_RATED = "600100982002500000800090030200609300000000000003708004080060009000005600169002003\n"
#: a puzzle of Sudoku Exchange's diabolical.txt (SE 8.9) whose path tries every chain finder
_DIABOLICAL = "700040006000759000900801003000524000030000020400000007501000208080000010209000304\n"
#: a generated puzzle (Sukaku Explainer: 9.8) whose path takes a dynamic forcing chain: the
#: nested chains' kernels (sudokit/human/nested_kernel.py)
_NESTED = "8.......9..16...5..3....2.....1.8.4......2.....736.....2....3..9.......8..5.4..6.\n"

FAMILIES: dict[str, KernelFamily] = {family.name: family for family in (
    KernelFamily("takano", "the takano search kernels (solve and count of grids up to 16x16)", 45,
                 _runs("count --limit 2 {top3.txt}", "solve {top3.txt}", "solve {six.txt}",
                       "solve --json {puzzle17.txt}", "solve {janko16.txt}",
                       "count --limit 2 {x9.txt}", "count --limit 2 {jigsaw9.txt}",
                       "solve {qwh5.pls}", "count --limit 2 --problem latin {empty5.txt}")
                 + _runs("count -", stdin=_EMPTY4)
                 + _runs("count - --problem latin", stdin=_LATIN3)),
    KernelFamily("dlx", "the dancing-links kernels (--solver dlx, exact cover)", 5,
                 _runs("count --solver dlx --limit 2 {top3.txt}", "solve --solver dlx {top3.txt}",
                       "count {knuth6.dlx}", "count --limit 2 --solver dlx {jigsaw-lines.txt}",
                       "solve --solver dlx {myciel3-precolored.col}",
                       "count --solver dlx --limit 2 {x9.txt}")
                 + _runs("count - --problem latin --solver dlx", stdin=_LATIN3)),
    *(KernelFamily(name, f"the {name} search kernels (--solver {name})", 6,
                   _runs(f"count --solver {name} --limit 2 {{top3.txt}} --nodes 200000",
                         f"solve --solver {name} {{six.txt}}",
                         f"count --solver {name} --limit 2 {{x9.txt}} --nodes 200000")
                   + _runs(f"count - --solver {name}", stdin=_EMPTY4))
      for name in ("backtrack", "fcmrv", "bitset", "norvig")),
    KernelFamily("grasp", "the GRASP kernels (--solver grasp, --fill grasp)", 5,
                 _runs("solve --solver grasp --seed 7 {six.txt}",
                       "solve --solver grasp --seed 7 {top3.txt} --nodes 2000")),
    KernelFamily("cp", "the kernels of --solver cp (large hard grids and Latin squares)", 25,
                 _runs("solve --solver cp {qwh5.pls}", "count --solver cp --limit 2 {top3.txt}",
                       "solve --solver cp {myciel3-precolored.col}")),
    KernelFamily("grading", "the grading propagators (grade)", 17,
                 _runs("grade {top3.txt}", "grade {top3.txt} --summary", "grade {x9.txt}",
                       "grade {six.txt}", "grade {qwh5.pls}")),
    KernelFamily("generate", "the generators' fills and clue removal (generate)", 10,
                 _runs("generate sudoku --size 9 --count 3 --seed 7 --minimal",
                       "generate sudoku --size 6 --box 2x3 --seed 1 --clues 10 --solution",
                       "generate latin --order 5 --holes 10 --seed 2 --format pls",
                       "generate coloring --vertices 8 --colors 3 --density 0.4 "
                       "--precolored 0.25 --seed 3",
                       "generate sudoku --size 9 --full --fill weighted-prune --seed 3 --json",
                       "generate sudoku --size 6 --box 2x3 --fill prune --alpha 0.5 --seed 2 "
                       "--minimal --count 2",
                       "generate sudoku --size 9 --variant x --minimal --seed 3 --verify",
                       "generate sudoku --size 6 --variant jigsaw --minimal --seed 1",
                       "generate sudoku --size 16 --seed 1")),
    KernelFamily("human", "the human techniques' kernels (explain, hint, grade --rating)", 35,
                 _runs("explain -", stdin=_DIABOLICAL) + _runs("explain -", stdin=_RATED)
                 + _runs("explain -", stdin=_NESTED)),
)}


# -- compiling a family, in this process ---------------------------------------------------

def _argv(template: tuple[str, ...]) -> list[str]:
    return [str(_EXAMPLES / part[1:-1]) if part.startswith("{") else part for part in template]


@contextlib.contextmanager
def _standard_streams(text: str) -> Iterator[None]:
    saved = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    try:
        yield
    finally:
        sys.stdin, sys.stdout = saved


_building: list[str] = []   # the family this process compiles: prepare() then does nothing


def build(name: str, group: click.Group) -> int:
    """Compile family ``name`` into the user folder (``SUDOKIT_CACHE_DIR`` names another) by
    running its commands with ``group`` (the ``sudokit`` group) in this process, and mark it
    ready when all of them ran; the number of its commands that failed. Ctrl-C stops it."""
    failed = 0
    before = os.environ.get("SUDOKIT_NO_PROGRESS")
    os.environ["SUDOKIT_NO_PROGRESS"] = "1"   # the runs' own progress lines and notices
    _building.append(name)
    try:
        for template, text in FAMILIES[name].runs:
            failed += not _run_quietly(group, _argv(template), text)
    finally:
        _building.remove(name)
        if before is None:
            del os.environ["SUDOKIT_NO_PROGRESS"]
        else:
            os.environ["SUDOKIT_NO_PROGRESS"] = before
    root = locations.user_root()
    if root is not None and not failed:
        families.mark_ready(name, root)
    return failed


def _run_quietly(group: click.Group, argv: list[str], text: str) -> bool:
    """Run one command of a family with ``text`` as its standard input and its output
    dropped; whether it ended as expected (exit 0, or 5: a budget some runs ask for)."""
    with _standard_streams(text):
        try:
            group.main(argv, prog_name="sudokit", standalone_mode=False)
        except (click.exceptions.Exit, SystemExit) as done:
            code = getattr(done, "exit_code", getattr(done, "code", 0))
            if code in (130, 143):      # the command turned a Ctrl-C or SIGTERM into its exit
                raise KeyboardInterrupt from None
            return code in (0, 5, None)
        except Exception:  # noqa: BLE001 - counted as failed; the other runs still compile
            return False
    return True


def _build_all(names: list[str], jobs: int) -> int:
    """Compile ``names`` in up to ``jobs`` child processes at once; the number that failed."""
    waiting, failed = list(names), 0
    running: list[tuple[str, subprocess.Popen]] = []
    while waiting or running:
        while waiting and len(running) < jobs:
            name = waiting.pop(0)
            command = [sys.executable, "-m", "sudokit", "kernels", "--build", name]
            running.append((name, subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                                   env=dict(os.environ,
                                                            SUDOKIT_NO_PROGRESS="1"))))
        name, child = running.pop(0)
        if child.wait() != 0:
            failed += 1
            click.echo(f"sudokit: compiling the {name} kernels failed", err=True)
    return failed


# -- a command that needs a family: compile it first, in a child ---------------------------

_limit: dict[str, float] = {}


def time_limit(seconds: float | None) -> None:
    """Record the command's ``--time-limit``, read as its input is read: compiling a family
    first (:func:`prepare`) counts against it."""
    _limit.clear()
    if seconds is not None:
        _limit["deadline"] = time.monotonic() + seconds


def prepare(name: str) -> None:
    """Compile family ``name`` in a child process and wait for it, saying so on stderr (see
    the module); the command's ``--time-limit`` and Ctrl-C end the wait."""
    family = FAMILIES.get(name)
    if family is None or _building:
        return
    if name not in _children and not quiet():
        click.echo(f"sudokit: compiling {family.description}: not compiled for this "
                   f"installation yet, so once (about {family.cpu_seconds} CPU-s)", err=True)
    child = _children.get(name) or _start_build(name)
    started = time.monotonic()
    line = Progress.current   # the command's progress line says it, else a line of its own
    if line is not None:
        line.phase(f"compiling the {name} kernels")
    shown = tty = line is None and enabled() and sys.stderr.isatty()   # a count in place
    try:
        while True:
            try:
                code = child.wait(timeout=0.25)
                break
            except subprocess.TimeoutExpired:
                pass
            if "deadline" in _limit and time.monotonic() >= _limit["deadline"]:
                raise BudgetExhausted(
                    f"--time-limit ran out while {family.description} were compiling; they "
                    f"go on compiling in the background (process {child.pid}) for the next "
                    "run", 0)
            if tty:
                click.echo(f"\rsudokit: compiling {name} kernels: "
                           f"{time.monotonic() - started:.0f} s", err=True, nl=False)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        raise
    finally:
        if shown:
            click.echo("\r\x1b[K", err=True, nl=False)
        if line is not None:
            line.phase(None)
    if code != 0 and name not in _failed:
        _failed.add(name)
        click.echo(f"sudokit: compiling the {name} kernels in a child process failed (exit "
                   f"{code}); what is missing compiles in this process", err=True)


_children: dict[str, subprocess.Popen] = {}   # the builds this process started, by family
_failed: set[str] = set()


def _start_build(name: str) -> subprocess.Popen:
    """A child process that compiles ``name``, in a session of its own, so it can finish for
    the next run when this one ends."""
    command = [sys.executable, "-m", "sudokit", "kernels", "--build", name]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, start_new_session=True,
                             env=dict(os.environ, SUDOKIT_NO_PROGRESS="1"))
    _children[name] = child
    return child


# -- the command -----------------------------------------------------------------------------

@click.command()
@click.argument("names", nargs=-1, metavar="[FAMILY]...")
@click.option("--build", "build_them", is_flag=True,
              help="Compile the families named (default: all) that are not compiled yet.")
@click.option("--into", type=click.Path(file_okay=False, path_type=Path),
              help="With --build: the cache folder to compile into (default: the user's).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --build: families compiled at once, each in its own process.")
@click.pass_context
def kernels(ctx, names, build_them, into, jobs):
    """List the compiled kernel families, or compile them with --build, then list them.

    Every kernel family is compiled when pip installs sudokit; this lists them with their
    state here, and --build compiles those missing (an editable install, another numba, a
    Dask worker's image), so no later command waits for a compiler.

    \b
    Examples:
      sudokit kernels
      sudokit kernels --build takano dlx
    """
    unknown = [name for name in names if name not in FAMILIES]
    if unknown:
        raise click.BadParameter(f"unknown kernel family {unknown[0]!r} (choose from "
                                 f"{', '.join(FAMILIES)})", param_hint="FAMILY")
    chosen = list(names) or list(FAMILIES)
    if into is not None:
        os.environ["SUDOKIT_CACHE_DIR"] = str(into)
        locations.user_root.cache_clear()
    failed = 0
    if build_them:
        todo = [name for name in chosen if into is not None or not families.is_ready(name)]
        if len(todo) == 1 and jobs == 1:
            failed = build(todo[0], ctx.find_root().command)
        elif todo:
            failed = _build_all(todo, jobs)
    for name in chosen:
        state = "compiled" if families.is_ready(name) else "not compiled"
        click.echo(f"{name:10} {state:13} {FAMILIES[name].description}")
    if failed:
        raise click.exceptions.Exit(EXIT_CHECK_FAILED)
