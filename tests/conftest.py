"""Shared test fixtures: the public data set next to the project (../shared/data)."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
EXAMPLES = Path(__file__).resolve().parents[1] / "sudokit" / "instances" / "examples"


@pytest.fixture
def data_dir() -> Path:
    """The shared data folder, or skip the test when it is not there."""
    if not DATA.is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


def grid_from_line(line: str, n: int = 9):
    """A quick local reader for one-line puzzles used by tests that avoid the parser."""
    import numpy as np

    digits = [0 if ch in ".0-" else int(ch, 36) for ch in line.strip()]
    return np.array(digits, dtype=int).reshape(n, n)
