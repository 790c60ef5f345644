"""The README is the front page: the two set-up commands the project's rules require (CI runs
the test one), a few commands, and links into docs/ that all resolve. Its examples run as
shown with every docs page's (tests/test_docs_examples.py)."""

import json
import re
from pathlib import Path

from .helpers import README, code_blocks, console_examples

ROOT = Path(__file__).resolve().parents[1]


def test_readme_is_a_front_page_with_a_few_commands():
    lines = README.count("\n")
    assert 100 <= lines <= 200, lines
    assert 6 <= len(console_examples()) <= 12
    assert len(code_blocks(README, "python")) >= 1


def test_setup_commands_are_exactly_two_and_ci_runs_the_test_one():
    setup = README.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", setup, flags=re.S)
    assert len(commands) == 2
    assert len(code_blocks(README, "sh")) == 2          # nothing else posing as set-up
    install_and_solve, install_and_test = commands
    assert install_and_solve.endswith("| .venv/bin/sudokit solve -")
    assert install_and_test in (ROOT / ".ci" / "run").read_text()
    example = install_and_solve.split(".venv/bin/sudokit examples ", 1)[1].split()[0]
    index = json.loads((ROOT / "sudokit" / "instances" / "examples" / "index.json").read_text())
    assert example in index


def test_readme_links_resolve_and_reach_every_docs_section():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if "://" not in link]
    for link in local:
        assert (ROOT / link).exists(), link
    pages = {link for link in local if link.startswith("docs/")}
    assert {"docs/getting-started.md", "docs/cli.md", "docs/api/index.md",
            "docs/benchmarks.md", "docs/tutorials/complexity-course.md",
            "docs/tutorials/puzzle-author.md", "docs/tutorials/researcher.md"} <= pages
