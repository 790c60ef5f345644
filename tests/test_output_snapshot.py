"""benchmarks/output_snapshot.py: its command list is complete and its normalisation minimal.

Cheap on purpose (not marked ``slow``): it imports the script and inspects the list; no
``sudokit`` process runs. The snapshot itself is run by hand, see the script's docstring.
"""

import importlib.util
import re
import sys
from pathlib import Path

from .helpers import docs_console_examples

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "output_snapshot.py"


def _load():
    spec = importlib.util.spec_from_file_location("output_snapshot", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module      # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


snapshot = _load()
IDS = [c.id for c in snapshot.COMMANDS]


def test_command_list_is_non_empty_with_unique_file_safe_ids():
    assert len(snapshot.COMMANDS) > 200
    assert len(set(IDS)) == len(IDS)
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9.-]*", i) for i in IDS)


def test_every_docs_console_command_is_included_verbatim():
    shown = list(dict.fromkeys(command for _, command, _ in docs_console_examples()))
    assert shown == snapshot.docs_console_commands()
    shells = [c.shell for c in snapshot.COMMANDS if c.shell is not None]
    for command in shown:
        assert command in shells


def test_reductions_match_the_documented_list_and_each_runs_four_ways():
    course = (ROOT / "docs" / "tutorials" / "complexity-course.md").read_text()
    listed = re.search(r"\$ sudokit reduce --list\n(.*?)```", course, flags=re.S).group(1)
    names = [line.split()[0] for line in listed.splitlines() if line.strip()]
    assert names == list(snapshot.REDUCTIONS)
    for name in names:
        for suffix in ("", "-explain", "-solve", "-check"):
            assert f"reduce-{name}{suffix}" in IDS


def test_required_commands_are_present():
    for method in snapshot.AMO_METHODS:
        assert f"encode-cnf-puzzle17-amo-{method}" in IDS
        assert f"encode-cnf-qwh5-amo-{method}" in IDS
    for name in snapshot.COMMANDS_WITH_HELP:
        assert f"help-{name}" in IDS
    for solver in ("dlx", "cadical195"):
        assert f"count-17clue-{solver}" in IDS and f"count-17clue-{solver}-json" in IDS
    for example in snapshot.EXAMPLES:
        assert (ROOT / snapshot.EXAMPLES_DIR / example).is_file()
        stem = snapshot._stem(example)
        for prefix in ("solve", "solve-dlx", "solve-json", "count", "count-dlx", "check",
                       "encode-xc", "encode-cnf"):
            assert f"{prefix}-{stem}" in IDS
    assert {"help", "solvers", "reduce-list", "grade-json-top95",
            "generate-sudoku-9-minimal", "generate-sudoku-9-minimal-json"} <= set(IDS)


def test_normalisation_touches_only_timing_and_the_temporary_folder():
    out = b'{"count":2,"seconds":0.012345,"checks":{"check_seconds":1e-05},"x":"/t/mp/a"}\n'
    assert snapshot.normalise_stdout(out, "/t/mp") == \
        b'{"count":2,"seconds":S,"checks":{"check_seconds":S},"x":"TMP/a"}\n'
    plain = b"4.....8.5.3 1\nsource: sat, 2 solution(s); seconds 3\n"
    assert snapshot.normalise_stdout(plain, "/t/mp") == plain
    err = b"count: 4096/5000 (4,400/s) after 1.25s\nsudokit: error: line has 8 cells\n"
    assert snapshot.normalise_stderr(err, "/t/mp") == \
        b"count: 4096/5000 (N/s) after Ns\nsudokit: error: line has 8 cells\n"
