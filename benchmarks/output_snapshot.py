"""Byte-exact snapshot of every user-visible output of the ``sudokit`` CLI.

A safety net for refactoring: run a fixed list of ``sudokit`` commands as whole processes
against one repository, save what they print, then run them again against another version of
the code and compare. Stdlib only; it imports nothing from ``sudokit``.

Usage
-----
Save a baseline from a checkout of the original code, then compare the working tree with it::

    git -C . worktree add --detach /tmp/sudokit-base HEAD
    .venv/bin/python benchmarks/output_snapshot.py --repo /tmp/sudokit-base --save /tmp/snap
    .venv/bin/python benchmarks/output_snapshot.py --compare /tmp/snap

``--compare`` prints one row per command (id, ``same`` or ``DIFFERENT``, and for a difference
the first differing line of stdout, or the exit code or stderr that changed) and exits 1 when
anything differs, 0 when everything is byte-identical. Other options:

``--repo PATH``
    The repository under test (default: the repository holding this script).
``--python EXE``
    The interpreter that runs ``EXE -m sudokit ...`` (default: the one running this script).
``--only SUBSTR``
    Run only the commands whose id contains SUBSTR (repeatable; the fixtures still run).
``--list``
    Print the ids and commands and stop.
``--timeout SECONDS``
    Per command (default 600; a command that runs out is recorded as ``timeout``).
``--jobs N``
    Run N commands at a time (default 1).
``--data DIR``
    The public data folder (default ``/work/shared/data``).

How commands run
----------------
Each command runs with cwd = the repository under test and the environment of this script plus
``SUDOKIT_NO_PROGRESS=1`` and ``PYTHONPATH=<repo>``, minus ``SUDOKIT_*`` settings, ``COLUMNS``
and ``LINES`` (click wraps help text to the terminal width). Plain commands run as ``<python>
-m sudokit ARGS``; shell commands (every command of the console blocks of the README and the
docs pages, and the pipes below) run through ``bash -c`` with a ``sudokit`` shim first on
``PATH`` that runs ``exec <python> -m sudokit "$@"``. Before anything runs, the script checks
that ``import sudokit`` in that environment imports the repository under test, not an installed
copy.

Fixtures are made once per run in a fresh temporary folder (``TMP`` below): the first 5,000
puzzles of ``sudoku/9x9-tdoku/puzzles2_17_clue`` (``#`` comment lines skipped, lines copied
byte for byte), ``qwh5.cnf`` from ``sudokit encode --cnf --encoding reduced`` of the bundled
``qwh5.pls`` (the reduced encoding keeps ``sat2xc``'s target small) and ``puzzle17.dlx`` from
``sudokit encode --xc --encoding reduced`` of ``puzzle17.txt``. The fixtures are made by the
code under test, and their bytes are part of the snapshot too (ids ``fixture-*``).

What is recorded and normalised
-------------------------------
For each command: the exit code, stdout and stderr. Before comparison the temporary folder's
path becomes ``TMP`` (in stdout and stderr), and a JSON field whose name ends in ``seconds``
(``"seconds"``, ``"check_seconds"``) has its number replaced by ``S``. In stderr only,
anything else that looks like a duration or a rate (``1.5s``, ``12 ms``, ``(4,400/s)``)
becomes ``N`` with its unit. Nothing else is touched: every other byte must match.

``--save DIR`` writes ``DIR/<id>.out`` (the normalised stdout bytes) for every command and
``DIR/manifest.json`` (per command: the command, exit code, normalised stderr, stdout size and
SHA-256, and the unnormalised running time, which is informational and never compared).

Command list
------------
Fixed here, never derived from the code under test (a refactor that drops an option must show
up as a difference, not as a shorter list): every command of the console blocks of README.md
and docs/**/*.md (extracted as ``tests/test_docs_examples.py`` does), ``--help`` of every
command, ``solvers``, ``solve``/``count``/``solve --json``/``check`` of every bundled example,
``encode --cnf`` under every applicable encoding and at-most-one method, ``encode --stats``,
``encode --xc`` (full and reduced), every reduction with ``--explain``, ``--solve`` and
``--check``, ``generate``, ``grade --json`` of Norvig's top95 and uniqueness counts of 5,000
17-clue puzzles with dlx and cadical195. ``--list`` shows them all.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path("/work/shared/data")
DEFAULT_TIMEOUT = 600.0
SLICE_SIZE = 5000
SEVENTEEN = ("sudoku", "9x9-tdoku", "puzzles2_17_clue")
TOP95 = ("sudoku", "9x9-norvig", "top95.txt")

EXAMPLES_DIR = "sudokit/instances/examples"
#: bundled example -> kind ("grid" for Sudoku and Latin squares, "graph" for .col)
EXAMPLES = {
    "top3.txt": "grid",
    "six.txt": "grid",
    "puzzle17.txt": "grid",
    "janko16.txt": "grid",
    "qwh5.pls": "grid",
    "myciel3-precolored.col": "graph",
}
GRID_ENCODINGS = ("minimal", "efficient", "extended", "reduced")
GRAPH_ENCODINGS = ("direct", "reduced")
XC_ENCODINGS = ("full", "reduced")
#: the --amo choices of ``sudokit encode --help``
AMO_METHODS = ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer", "sortnetwrk",
               "cardnetwrk", "mtotalizer", "kmtotalizer")
#: ``sudokit reduce --list``: name -> source example (``{tmp}`` = a fixture)
REDUCTIONS = {
    "latin2sudoku": f"{EXAMPLES_DIR}/qwh5.pls",
    "sudoku2coloring": f"{EXAMPLES_DIR}/puzzle17.txt",
    "latin2coloring": f"{EXAMPLES_DIR}/qwh5.pls",
    "xc2sat": "{tmp}/puzzle17.dlx",
    "sat2xc": "{tmp}/qwh5.cnf",
    "sudoku2sat": f"{EXAMPLES_DIR}/puzzle17.txt",
    "latin2sat": f"{EXAMPLES_DIR}/qwh5.pls",
    "coloring2sat": f"{EXAMPLES_DIR}/myciel3-precolored.col",
    "sudoku2xc": f"{EXAMPLES_DIR}/puzzle17.txt",
    "latin2xc": f"{EXAMPLES_DIR}/qwh5.pls",
    "coloring2xc": f"{EXAMPLES_DIR}/myciel3-precolored.col",
}
COMMANDS_WITH_HELP = ("check", "count", "encode", "generate", "grade", "reduce", "solve",
                      "solvers")
GENERATE_SUBCOMMANDS = ("sudoku", "latin", "coloring")


@dataclass(frozen=True)
class Command:
    """One snapshot entry.

    ``args`` runs as ``<python> -m sudokit *args``; ``shell`` runs through ``bash -c`` with the
    ``sudokit`` shim on PATH. ``{tmp}`` and ``{data}`` in either are replaced at run time.
    A command with ``fixture`` set writes its raw stdout to ``{tmp}/<fixture>`` for later ones.
    """

    id: str
    args: tuple[str, ...] = ()
    shell: str | None = None
    fixture: str | None = None

    def display(self) -> str:
        if self.shell is not None:
            text = self.shell
        else:
            text = "sudokit " + " ".join(_quote(a) for a in self.args)
        return text.replace("{tmp}", "TMP").replace("{data}", "DATA")


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[A-Za-z0-9_./{}:,=+-]+", arg) else repr(arg)


# ----------------------------------------------------------------------------------------
# the command list


def docs_console_commands(root: Path | None = None) -> list[str]:
    """The commands of the ```console blocks of README.md and docs/**/*.md (in that order,
    each command once), split as tests/test_docs_examples.py splits them."""
    root = root or ROOT
    commands: list[str] = []
    for page in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        text = page.read_text() if page.exists() else ""
        for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
            for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command, _, _output = chunk.partition("\n")
                if command not in commands:
                    commands.append(command)
    return commands


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _stem(example: str) -> str:
    return {"myciel3-precolored.col": "myciel3"}.get(example, example.rsplit(".", 1)[0])


def build_commands(root: Path | None = None) -> list[Command]:
    """The full, fixed list (fixtures first, in the order they must run)."""
    cmds: list[Command] = []
    ex = {name: f"{EXAMPLES_DIR}/{name}" for name in EXAMPLES}

    def add(id_, *args, shell=None, fixture=None):
        cmds.append(Command(id_, tuple(args), shell, fixture))

    # fixtures (made by the code under test; their bytes are snapshotted too)
    add("fixture-qwh5-cnf", "encode", "--cnf", "--encoding", "reduced", ex["qwh5.pls"],
        fixture="qwh5.cnf")
    add("fixture-puzzle17-dlx", "encode", "--xc", "--encoding", "reduced", ex["puzzle17.txt"],
        fixture="puzzle17.dlx")

    # the console blocks of the README and the docs pages, named by their text (so a page
    # added or reordered leaves the other ids as they were)
    for command in docs_console_commands(root):
        add(f"docs-{hashlib.sha1(command.encode()).hexdigest()[:10]}", shell=command)

    # help texts, version, solvers
    add("help", "--help")
    add("version", "--version")
    for name in COMMANDS_WITH_HELP:
        add(f"help-{name}", name, "--help")
    for name in GENERATE_SUBCOMMANDS:
        add(f"help-generate-{name}", "generate", name, "--help")
    add("solvers", "solvers")
    add("solvers-json", "solvers", "--json")

    # solve / count / check of every bundled example
    for name, path in ex.items():
        stem = _stem(name)
        add(f"solve-{stem}", "solve", path)
        add(f"solve-dlx-{stem}", "solve", "--solver", "dlx", path)
        add(f"solve-json-{stem}", "solve", "--json", path)
        add(f"solve-json-dlx-{stem}", "solve", "--json", "--solver", "dlx", path)
        add(f"count-{stem}", "count", path)
        add(f"count-dlx-{stem}", "count", "--solver", "dlx", path)
        add(f"count-limit2-{stem}", "count", "--limit", "2", path)
        add(f"count-json-{stem}", "count", "--json", path)
        add(f"check-{stem}", shell=f"sudokit solve {path} | sudokit check {path} -")
        add(f"check-dlx-{stem}",
            shell=f"sudokit solve --solver dlx {path} | sudokit check {path} -")
    # the fixtures as inputs: DIMACS and exact cover
    for fixture, stem in (("qwh5.cnf", "qwh5-cnf"), ("puzzle17.dlx", "puzzle17-dlx")):
        path = "{tmp}/" + fixture
        add(f"solve-{stem}", "solve", path)
        add(f"solve-dlx-{stem}", "solve", "--solver", "dlx", path)
        add(f"solve-json-{stem}", "solve", "--json", path)
        add(f"count-{stem}", "count", path)
        add(f"count-dlx-{stem}", "count", "--solver", "dlx", path)
        add(f"count-json-{stem}", "count", "--json", path)
        add(f"check-{stem}", shell=f"sudokit solve {path} | sudokit check {path} -")
    add("solve-sat-puzzle17-dlx", "solve", "--solver", "cadical195", "{tmp}/puzzle17.dlx")

    # encode --cnf: every applicable encoding of every example
    for name, path in ex.items():
        stem = _stem(name)
        add(f"encode-cnf-{stem}", "encode", "--cnf", path)
        if EXAMPLES[name] == "grid":
            for encoding in GRID_ENCODINGS:
                add(f"encode-cnf-{stem}-{encoding}", "encode", "--cnf", "--encoding", encoding,
                    path)
        else:
            add(f"encode-cnf-{stem}-nosym", "encode", "--cnf", "--no-symmetry", path)
            for encoding in GRAPH_ENCODINGS:
                add(f"encode-cnf-{stem}-{encoding}", "encode", "--cnf", "--encoding", encoding,
                    path)
                add(f"encode-cnf-{stem}-{encoding}-nosym", "encode", "--cnf", "--encoding",
                    encoding, "--no-symmetry", path)
    add("encode-cnf-top3-i3", "encode", "--cnf", "-i", "3", ex["top3.txt"])
    for name in ("puzzle17.txt", "qwh5.pls"):
        for amo in AMO_METHODS:
            add(f"encode-cnf-{_stem(name)}-amo-{amo}", "encode", "--cnf", "--amo", amo, ex[name])
    # encode --stats
    stats_cases = (
        ("puzzle17", (ex["puzzle17.txt"],)),
        ("puzzle17-reduced", ("--encoding", "reduced", ex["puzzle17.txt"])),
        ("puzzle17-seqcounter", ("--amo", "seqcounter", ex["puzzle17.txt"])),
        ("qwh5", (ex["qwh5.pls"],)),
        ("myciel3", (ex["myciel3-precolored.col"],)),
        ("myciel3-reduced", ("--encoding", "reduced", ex["myciel3-precolored.col"])),
    )
    for stem, args in stats_cases:
        add(f"encode-stats-{stem}", "encode", "--cnf", "--stats", *args)
        add(f"encode-stats-json-{stem}", "encode", "--cnf", "--stats", "--json", *args)
    add("encode-stats-output-puzzle17", shell="sudokit encode --cnf --stats "
        f"{ex['puzzle17.txt']} -o {{tmp}}/stats-out.cnf && cat {{tmp}}/stats-out.cnf")
    add("encode-output-qwh5", shell=f"sudokit encode --cnf {ex['qwh5.pls']} "
        "-o {tmp}/encode-out.cnf && cat {tmp}/encode-out.cnf")
    # encode --xc
    for name, path in ex.items():
        stem = _stem(name)
        add(f"encode-xc-{stem}", "encode", "--xc", path)
        for encoding in XC_ENCODINGS:
            add(f"encode-xc-{stem}-{encoding}", "encode", "--xc", "--encoding", encoding, path)

    # reductions
    add("reduce-list", "reduce", "--list")
    for name, source in REDUCTIONS.items():
        add(f"reduce-{name}", "reduce", name, source)
        add(f"reduce-{name}-explain", "reduce", name, source, "--explain")
        add(f"reduce-{name}-solve", "reduce", name, source, "--solve")
        add(f"reduce-{name}-check", "reduce", name, source, "--check")

    add("reduce-latin2sudoku-output", shell=f"sudokit reduce latin2sudoku {ex['qwh5.pls']} "
        "-o {tmp}/reduced.txt && cat {tmp}/reduced.txt")

    # the exact cover matrix (.npz) written by --matrix, compared by its hash
    add("encode-xc-matrix-puzzle17-reduced-dense", shell="sudokit encode --xc --encoding reduced "
        f"--matrix {{tmp}}/p17.npz --dense {ex['puzzle17.txt']} && sha256sum < {{tmp}}/p17.npz")
    add("encode-xc-matrix-myciel3", shell="sudokit encode --xc --matrix {tmp}/m3.npz "
        f"{ex['myciel3-precolored.col']} > /dev/null && sha256sum < {{tmp}}/m3.npz")

    # a few errors (one line on stderr and an exit code)
    add("error-missing-file", "solve", "no-such-file.txt")
    add("error-bad-solver", "solve", "--solver", "no-such-solver", ex["top3.txt"])
    add("error-bad-reduction", "reduce", "no-such-reduction", ex["top3.txt"])
    add("error-bad-encoding", "encode", "--cnf", "--encoding", "direct", ex["puzzle17.txt"])

    # generate, grade
    add("generate-sudoku-9-budget", "generate", "sudoku", "--size", "9", "--count", "5",
        "--seed", "3")
    add("generate-sudoku-4-full", "generate", "sudoku", "--size", "4", "--count", "5", "--full",
        "--seed", "2")
    add("generate-sudoku-9-symmetry-grid", "generate", "sudoku", "--size", "9", "--count", "3",
        "--seed", "5", "--symmetry", "rotational", "--format", "grid", "--solution")
    add("generate-latin-balanced", "generate", "latin", "--order", "6", "--holes", "0.4",
        "--balanced", "--count", "2", "--seed", "4")
    add("generate-latin-qcp", "generate", "latin", "--order", "5", "--holes", "8", "--qcp",
        "--seed", "1", "--format", "pls")
    add("generate-sudoku-9-minimal", "generate", "sudoku", "--size", "9", "--count", "20",
        "--minimal", "--seed", "1")
    add("generate-sudoku-9-minimal-json", "generate", "sudoku", "--size", "9", "--count", "20",
        "--minimal", "--seed", "1", "--json")
    add("grade-json-top95", "grade", "--json", "{data}/" + "/".join(TOP95))

    # uniqueness of 5,000 17-clue puzzles
    for solver in ("dlx", "cadical195"):
        add(f"count-17clue-{solver}", "count", "--limit", "2", "--solver", solver,
            "{tmp}/17clue-5000.txt")
        add(f"count-17clue-{solver}-json", "count", "--limit", "2", "--solver", solver,
            "--json", "{tmp}/17clue-5000.txt")

    # the batch road (issue 26): every way out of solve and count, serial and on Dask
    s17 = "{tmp}/17clue-5000.txt"
    head = f"head -300 {s17}"
    add("count-17clue-default", "count", "--limit", "2", s17)
    add("count-17clue-default-json", "count", "--limit", "2", "--json", s17)
    add("count-17clue-summary", "count", "--limit", "2", "--summary", s17)
    add("count-17clue-require-unique", "count", "--require-unique", "--summary", s17)
    add("count-17clue-limit5-dlx", "count", "--limit", "5", "--solver", "dlx", s17)
    add("solve-17clue-default", shell=f"{head} | sudokit solve -")
    add("solve-17clue-default-json", shell=f"{head} | sudokit solve --json -")
    add("solve-17clue-glucose4-json", shell=f"{head} | sudokit solve --json --solver g4 -")
    add("solve-17clue-nodes-unknown", shell=f"{head} | sudokit solve --nodes 3 -")
    add("count-17clue-nodes-unknown-json", shell=f"{head} | sudokit count --nodes 3 --json -")
    add("count-17clue-output", shell=f"{head} | sudokit count --limit 2 - "
        "-o {tmp}/counted.txt && cat {tmp}/counted.txt")
    add("solve-17clue-output-json", shell=f"{head} | sudokit solve --json - "
        "-o {tmp}/solved.json && cat {tmp}/solved.json")
    add("count-17clue-jobs2", shell=f"{head} | sudokit count --limit 2 --jobs 2 -")
    add("solve-17clue-jobs2-json", shell=f"{head} | sudokit solve --json --jobs 2 -")
    add("count-17clue-jobs2-sat-summary", shell=f"{head} | sudokit count --limit 2 --jobs 2 "
        "--solver cadical195 --summary -")
    add("count-empty5-latin", shell=f"sudokit count --solver dlx --problem latin "
        f"{EXAMPLES_DIR}/empty5.txt")
    for name in ("x9.txt", "jigsaw9.txt", "jigsaw-lines.txt"):
        stem = name.rsplit(".", 1)[0]
        add(f"solve-variant-{stem}", "solve", f"{EXAMPLES_DIR}/{name}")
        add(f"count-variant-{stem}-json", "count", "--json", f"{EXAMPLES_DIR}/{name}")
    add("solve-variant-option-x", "solve", "--variant", "x", ex["puzzle17.txt"])
    add("count-variant-option-x-summary", "count", "--variant", "x", "--summary",
        ex["top3.txt"])
    add("solve-mixed-files", shell=f"cat {ex['top3.txt']} {ex['six.txt']} {ex['top3.txt']} | "
        "sudokit solve -")

    ids = [c.id for c in cmds]
    duplicates = {i for i in ids if ids.count(i) > 1}
    assert not duplicates, duplicates
    return cmds


COMMANDS = build_commands()


# ----------------------------------------------------------------------------------------
# running


_JSON_SECONDS = re.compile(rb'"([A-Za-z_]*seconds)":\s*-?[0-9][0-9.]*(?:[eE][-+]?[0-9]+)?')
_STDERR_RATE = re.compile(rb"\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?\s?/s\b")
_STDERR_DURATION = re.compile(
    rb"\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\s?(ms|us|\xc2\xb5s|s|sec|secs|seconds)\b")


def normalise_stdout(data: bytes, tmp: str) -> bytes:
    """The temporary folder becomes TMP; ``"...seconds":<number>`` becomes ``"...seconds":S``."""
    data = data.replace(tmp.encode(), b"TMP")
    return _JSON_SECONDS.sub(rb'"\1":S', data)


def normalise_stderr(data: bytes, tmp: str) -> bytes:
    """As stdout, plus durations and rates: ``1.5s`` -> ``Ns``, ``(4,400/s)`` -> ``(N/s)``."""
    data = normalise_stdout(data, tmp)
    data = _STDERR_RATE.sub(b"N/s", data)
    return _STDERR_DURATION.sub(rb"N\1", data)


@dataclass
class Result:
    id: str
    command: str
    exit_code: int | str
    stdout: bytes
    stderr: bytes
    seconds: float


class Runner:
    """Runs commands against one repository in one temporary folder."""

    def __init__(self, repo: Path, python: str, data: Path, timeout: float):
        self.repo, self.python, self.data, self.timeout = repo, python, data, timeout
        self.tmp = tempfile.mkdtemp(prefix="sudokit-snapshot-")
        bin_dir = Path(self.tmp) / "bin"
        bin_dir.mkdir()
        shim = bin_dir / "sudokit"
        shim.write_text(f'#!/bin/sh\nexec "{python}" -m sudokit "$@"\n')
        shim.chmod(0o755)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("SUDOKIT_") and k not in ("COLUMNS", "LINES")}
        env["SUDOKIT_NO_PROGRESS"] = "1"
        env["PYTHONPATH"] = str(repo)
        env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
        self.env = env

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check_import(self) -> str:
        """Where ``import sudokit`` resolves in the commands' environment (must be the repo)."""
        done = subprocess.run([self.python, "-c", "import sudokit; print(sudokit.__file__)"],
                              cwd=self.repo, env=self.env, capture_output=True, text=True,
                              timeout=120)
        where = done.stdout.strip()
        expected = (self.repo / "sudokit").resolve()
        if done.returncode != 0 or Path(where).resolve().parent != expected:
            raise SystemExit(f"output_snapshot: 'import sudokit' gives {where or done.stderr!r}, "
                             f"not {expected}")
        return where

    def make_slice(self) -> None:
        """The first SLICE_SIZE puzzles of the 17-clue set, '#' lines skipped, bytes kept."""
        source = self.data.joinpath(*SEVENTEEN)
        kept = []
        with open(source, "rb") as handle:
            for line in handle:
                if line.startswith(b"#") or not line.strip():
                    continue
                kept.append(line)
                if len(kept) == SLICE_SIZE:
                    break
        if len(kept) != SLICE_SIZE:
            raise SystemExit(f"output_snapshot: {source} has only {len(kept)} puzzles")
        Path(self.tmp, "17clue-5000.txt").write_bytes(b"".join(kept))

    def _expand(self, text: str) -> str:
        return text.replace("{tmp}", self.tmp).replace("{data}", str(self.data))

    def run(self, cmd: Command) -> Result:
        if cmd.shell is not None:
            argv = ["bash", "-c", self._expand(cmd.shell)]
        else:
            argv = [self.python, "-m", "sudokit", *(self._expand(a) for a in cmd.args)]
        started = time.perf_counter()
        try:
            done = subprocess.run(argv, cwd=self.repo, env=self.env, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=self.timeout)
            code, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = "timeout", exc.stdout or b"", exc.stderr or b""
        seconds = time.perf_counter() - started
        if cmd.fixture is not None:
            # written even when the command failed: the failure shows up as a difference of
            # the fixture itself and of the commands that read it
            Path(self.tmp, cmd.fixture).write_bytes(out)
        return Result(cmd.id, cmd.display(), code, normalise_stdout(out, self.tmp),
                      normalise_stderr(err, self.tmp), seconds)


def run_all(commands: list[Command], runner: Runner, jobs: int) -> list[Result]:
    """Fixtures first, in order; then the rest (``jobs`` at a time), results in list order."""
    fixtures = [c for c in commands if c.fixture is not None]
    rest = [c for c in commands if c.fixture is None]
    results = {}
    total = len(commands)

    def report(result: Result) -> None:
        results[result.id] = result
        flag = ""
        if b"Traceback" in result.stderr or b"internal error" in result.stderr:
            flag = "  <-- TRACEBACK / INTERNAL ERROR"
        print(f"[{len(results):3d}/{total}] {result.id:40s} exit {result.exit_code!s:>7}  "
              f"{result.seconds:7.2f}s{flag}", file=sys.stderr, flush=True)

    for cmd in fixtures:
        report(runner.run(cmd))
    if jobs <= 1:
        for cmd in rest:
            report(runner.run(cmd))
    else:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for result in pool.map(runner.run, rest):
                report(result)
    return [results[c.id] for c in commands]


# ----------------------------------------------------------------------------------------
# saving and comparing


def _record(result: Result) -> dict:
    return {"id": result.id, "command": result.command, "exit_code": result.exit_code,
            "stderr": result.stderr.decode("utf-8", errors="backslashreplace"),
            "stdout_file": f"{result.id}.out", "stdout_bytes": len(result.stdout),
            "stdout_sha256": hashlib.sha256(result.stdout).hexdigest(),
            "seconds": round(result.seconds, 3)}


def save(results: list[Result], folder: Path, meta: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for result in results:
        (folder / f"{result.id}.out").write_bytes(result.stdout)
    manifest = dict(meta, commands=[_record(r) for r in results])
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


def _shorten(text: str, width: int = 70) -> str:
    text = repr(text)
    return text if len(text) <= width else text[:width - 3] + "..."


def first_difference(old: bytes, new: bytes) -> str:
    """``line N: 'old' != 'new'`` for the first line that differs."""
    old_lines, new_lines = old.split(b"\n"), new.split(b"\n")
    for number, (a, b) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
        if a != b:
            return (f"line {number}: {_shorten(a.decode('utf-8', 'backslashreplace'))} != "
                    f"{_shorten(b.decode('utf-8', 'backslashreplace'))}")
    number = min(len(old_lines), len(new_lines)) + 1
    if len(old_lines) > len(new_lines):
        return f"line {number}: saved has more lines ({len(old_lines)} vs {len(new_lines)})"
    return f"line {number}: new output has more lines ({len(new_lines)} vs {len(old_lines)})"


def compare(results: list[Result], folder: Path, selected_all: bool) -> int:
    manifest = json.loads((folder / "manifest.json").read_text())
    saved = {entry["id"]: entry for entry in manifest["commands"]}
    rows, different = [], 0
    for result in results:
        entry = saved.get(result.id)
        if entry is None:
            rows.append((result.id, "DIFFERENT", "not in the saved snapshot"))
            different += 1
            continue
        old_out = (folder / entry["stdout_file"]).read_bytes()
        notes = []
        if entry["command"] != result.command:
            notes.append(f"command changed: {entry['command']!r}")
        if entry["exit_code"] != result.exit_code:
            notes.append(f"exit {entry['exit_code']} -> {result.exit_code}")
        if old_out != result.stdout:
            notes.append("stdout " + first_difference(old_out, result.stdout))
        new_err = result.stderr.decode("utf-8", errors="backslashreplace")
        if entry["stderr"] != new_err:
            notes.append("stderr " + first_difference(entry["stderr"].encode(), new_err.encode()))
        if notes:
            different += 1
            rows.append((result.id, "DIFFERENT", "; ".join(notes)))
        else:
            rows.append((result.id, "same", ""))
    if selected_all:
        ran = {r.id for r in results}
        for missing in saved.keys() - ran:
            rows.append((missing, "DIFFERENT", "in the saved snapshot, not in this run"))
            different += 1
    width = max(len(r[0]) for r in rows)
    print(f"{'id':{width}s}  {'result':9s}  first difference")
    print(f"{'-' * width}  {'-' * 9}  {'-' * 16}")
    for id_, verdict, note in rows:
        print(f"{id_:{width}s}  {verdict:9s}  {note}".rstrip())
    print(f"\n{len(rows) - different} same, {different} different "
          f"(saved: {manifest.get('repo')} @ {manifest.get('commit')})")
    return 1 if different else 0


def _git_commit(repo: Path) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return done.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", metavar="DIR", type=Path, help="Run and save a snapshot.")
    action.add_argument("--compare", metavar="DIR", type=Path,
                        help="Run and compare with a saved snapshot (exit 1 on a difference).")
    action.add_argument("--list", action="store_true", help="Print the ids and commands.")
    parser.add_argument("--repo", type=Path, default=ROOT,
                        help="Repository under test (default: %(default)s).")
    parser.add_argument("--python", default=sys.executable,
                        help="Interpreter for '-m sudokit' (default: %(default)s).")
    parser.add_argument("--only", action="append", metavar="SUBSTR",
                        help="Only the commands whose id contains SUBSTR (repeatable).")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="Seconds per command (default: %(default)s).")
    parser.add_argument("--jobs", type=int, default=1, help="Commands run at a time.")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="Public data folder (default: %(default)s).")
    args = parser.parse_args(argv)

    commands = COMMANDS
    if args.only:
        commands = [c for c in COMMANDS
                    if c.fixture is not None or any(s in c.id for s in args.only)]
    if args.list:
        for cmd in commands:
            print(f"{cmd.id}\t{cmd.display()}")
        print(f"{len(commands)} commands", file=sys.stderr)
        return 0

    repo = args.repo.resolve()
    runner = Runner(repo, args.python, args.data.resolve(), args.timeout)
    started = time.perf_counter()
    try:
        where = runner.check_import()
        print(f"output_snapshot: {len(commands)} commands against {repo} ({where})",
              file=sys.stderr)
        if any("{tmp}/17clue-5000.txt" in " ".join(c.args) for c in commands):
            runner.make_slice()
        results = run_all(commands, runner, args.jobs)
    finally:
        runner.close()
    elapsed = time.perf_counter() - started
    flagged = [r.id for r in results
               if b"Traceback" in r.stderr or b"internal error" in r.stderr]
    print(f"output_snapshot: {len(results)} commands in {elapsed:.1f} s"
          + (f"; traceback or internal error in: {', '.join(flagged)}" if flagged else ""),
          file=sys.stderr)
    if args.save is not None:
        save(results, args.save, {"repo": str(repo), "commit": _git_commit(repo),
                                  "python": args.python, "seconds": round(elapsed, 1)})
        print(f"output_snapshot: saved to {args.save}", file=sys.stderr)
        return 0
    return compare(results, args.compare, selected_all=not args.only)


if __name__ == "__main__":
    sys.exit(main())
