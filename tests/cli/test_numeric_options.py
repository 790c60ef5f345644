"""Every numeric option of every command is range-checked when the command line is parsed
(issue 32.14): a value too large for what takes it (an int64 count, a 32-bit seed, a C int of
colors, a timeout), a negative one, ``nan`` or ``inf`` is a usage error (exit 2, one line),
never an overflow deep inside (exit 70: ``grade --shave-passes 1e20``). A finite float that
passes is checked by its command (``--holes 1e20``: more holes than cells, exit 2).

The parse stage is checked for every option found in the click command tree (a value that
passes may legitimately start long work); a few real runs check the values that failed."""

from __future__ import annotations

import math

import click
import pytest

from sudokit.cli import main

from ..helpers import EXAMPLES, assert_cli_error, cli_run

#: handled elsewhere (the Dask options)
SKIPPED = {"--jobs"}
#: what the issue names; the tree must hold each (the enumeration is not vacuous)
NAMED = {"--limit", "--nodes", "--conflicts", "--time-limit", "--max-memory", "--count",
         "--size", "--vertices", "--seed", "--shave-passes", "--epsilon", "--delta"}
HUGE = [str(2**63), "9" * 30, "1e20", "1e400"]
BAD = ["-1", "-1e20", "nan", "inf", "-inf", "NaN"]


def _numeric(param: click.Parameter) -> bool:
    probe = param.type
    return isinstance(probe, (click.types.IntParamType, click.types.FloatParamType)) \
        or probe.name == "size"


def _options():
    ctx = click.Context(main)

    def walk(command, path):
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                yield from walk(command.get_command(ctx, name), [*path, name])
            return
        for param in command.params:
            if isinstance(param, click.Option) and not param.is_flag and _numeric(param) \
                    and not SKIPPED & set(param.opts):
                yield " ".join(path), param

    return list(walk(main, []))


OPTIONS = _options()


def _parsed(param: click.Option, value: str):
    """The option's value after parsing, or None for a usage error."""
    try:
        return param.type.convert(value, param, None)
    except click.BadParameter:
        return None


def test_the_tree_holds_every_option_the_issue_names():
    found = {opt for _, param in OPTIONS for opt in param.opts}
    assert NAMED <= found, NAMED - found
    assert len(OPTIONS) >= 40


@pytest.mark.parametrize("command, param", OPTIONS,
                         ids=[f"{c} {p.opts[0]}" for c, p in OPTIONS])
def test_out_of_range_values_are_usage_errors(command, param):
    for value in HUGE + BAD:
        parsed = _parsed(param, value)
        if parsed is None:
            continue
        assert math.isfinite(parsed), (value, parsed)
        if isinstance(parsed, int):
            assert -(2**63) <= parsed < 2**63, (value, parsed)
    assert _parsed(param, "nan") is None
    if isinstance(param.type, click.types.IntParamType):
        assert _parsed(param, str(2**63)) is None


PUZZLE17 = str(EXAMPLES / "puzzle17.txt")
GRAPH = str(EXAMPLES / "myciel3-precolored.col")


@pytest.mark.parametrize("args, option", [
    (["grade", "--shave-passes", "1e20", PUZZLE17], "--shave-passes"),
    (["grade", "--shave-passes", str(2**63), PUZZLE17], "--shave-passes"),
    (["grade", "--shave-passes", str(2**31), PUZZLE17], "--shave-passes"),
    (["draw", "--seed", str(2**32), GRAPH, "-o", "x.svg"], "--seed"),
    (["generate", "coloring", "-v", str(2**32), "-k", "3", "--density", "0.3"], "--vertices"),
    (["generate", "coloring", "-v", "5", "-k", str(2**63), "--density", "0.3"], "--colors"),
    (["generate", "latin", "--order", "3", "--holes", "nan"], "--holes"),
    (["generate", "latin", "--order", "3", "--holes", "inf"], "--holes"),
    (["generate", "coloring", "-v", "5", "-k", "3", "--density", "nan"], "--density"),
    (["solve", "--solver", "grasp", "--alpha", "nan", PUZZLE17], "--alpha"),
    (["count", "--counter", "approxmc", "--delta", "nan", PUZZLE17], "--delta"),
    (["count", "--counter", "ganak", "--time-limit", "1e300", PUZZLE17], "--time-limit"),
    (["count", "--max-memory", "1e30", PUZZLE17], "--max-memory"),
])
def test_the_values_that_overflowed_are_usage_errors(args, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_cli_error(cli_run(*args), 2, option)


@pytest.mark.parametrize("args", [
    ["grade", "--shave-passes", str(2**31 - 1), PUZZLE17],
    ["draw", "--seed", str(2**32 - 1), GRAPH, "-o", "x.svg"],
    ["count", "--limit", str(2**63 - 1), PUZZLE17],
    ["solve", "--solver", "dlx", "--nodes", str(2**63 - 1), PUZZLE17],
    ["solve", "--conflicts", str(2**63 - 1), PUZZLE17],
    ["solve", "--time-limit", "1e6", "--max-memory", str(2**63 - 1), PUZZLE17],
    ["generate", "coloring", "-v", "5", "-k", str(2**31 - 1), "--density", "0.5"],
])
def test_the_largest_values_run(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = cli_run(*args)
    assert done.exit_code == 0, done.stderr


def test_an_allocation_that_fails_is_exit_8(monkeypatch):
    """What no estimate foresaw (``generate coloring -v 4294967295`` asked numpy for 32 GiB):
    one line and the memory exit code, not an internal error."""
    import sudokit.cli.generate as generate

    def planted_precoloring(*args):
        raise MemoryError("Unable to allocate 32.0 GiB")

    monkeypatch.setattr(generate, "planted_precoloring", planted_precoloring)
    done = cli_run("generate", "coloring", "-v", "5", "-k", "3", "--density", "0.5")
    assert_cli_error(done, 8, "out of memory: Unable to allocate 32.0 GiB")
