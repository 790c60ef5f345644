"""Every ``generate`` subcommand checks the size it is asked for against ``--max-memory``
(default: the available memory) before building anything: just over it, exit 8 and one line
naming the size and the limit; just under it, the instance is made."""

from __future__ import annotations

import pytest

from sudokit.generators.sizes import coloring_bytes, latin_bytes, sudoku_bytes
from sudokit.resources import format_bytes

from ..helpers import assert_cli_error, cli_run

#: each generator: its command, the size option, a size just too large for a limit of its
#: estimate minus one byte, a smaller size that fits, and the estimate
CASES = {
    "sudoku": (["generate", "sudoku", "--full", "--seed", "1"], "--size", 16, 9,
               sudoku_bytes),
    "latin": (["generate", "latin", "--holes", "0.4", "--seed", "1"], "--order", 50, 49,
              latin_bytes),
    "latin-qcp": (["generate", "latin", "--qcp", "--holes", "0.4", "--seed", "1"], "--order",
                  50, 49, lambda n: latin_bytes(n, "shuffle")),
    "coloring": (["generate", "coloring", "--colors", "3", "--density", "0.1", "--seed", "1"],
                 "--vertices", 200, 199, lambda v: coloring_bytes(v, 3, 0.1)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_size_just_over_max_memory_exits_8_and_a_smaller_one_works(name):
    args, option, big, small, estimate = CASES[name]
    limit = estimate(big) - 1
    assert estimate(small) <= limit
    refused = cli_run(*args, option, big, "--max-memory", limit)
    line = assert_cli_error(refused, 8, str(big), format_bytes(limit))
    assert "allowed" in line
    made = cli_run(*args, option, small, "--max-memory", limit)
    assert made.exit_code == 0, made.stderr
    assert made.stdout.strip()


def test_generate_subcommands_all_take_max_memory():
    from sudokit.cli.generate import generate

    for name, command in generate.commands.items():
        assert "max_memory" in {p.name for p in command.params}, name


def test_a_billion_vertices_are_refused_before_anything_is_built():
    """It allocated 11.4 GB in 30 s; the estimate (petabytes) exceeds any machine."""
    result = cli_run("generate", "coloring", "--vertices", "1000000000", "--colors", "3",
                     "--density", "0.1")
    assert_cli_error(result, 8, "1,000,000,000 vertices")
