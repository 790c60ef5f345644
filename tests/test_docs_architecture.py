"""docs/architecture.md stays true: every module, package and file it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "docs" / "architecture.md").read_text()


def test_every_path_it_names_exists():
    named = set(re.findall(r"`((?:sudokit|tests)/[\w/.]*|setup\.py)`", TEXT))
    assert len(named) > 30
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert missing == []


def test_every_registry_it_names_is_in_its_module():
    for name, path in re.findall(r"`([A-Z]+)` in `(sudokit/[\w/]+\.py)`", TEXT):
        assert re.search(rf"^{name}\b.*=", (ROOT / path).read_text(), re.M), (name, path)
