"""The teaching notebooks of docs/notebooks/ run from top to bottom in a fresh kernel, and show
their pictures: every cell whose last line is a puzzle, a solution, pencil marks or a
reduction displays SVG or HTML, not a text repr.

Their own cells check their results (known counts, certificates) with ``assert``, so a wrong
count fails here. The kernel is the Python running the tests (ipykernel's native kernel), so it
imports the same sudokit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "docs" / "notebooks"
#: what each notebook must show at least: (SVG pictures, HTML tables)
SHOWN = {"latin-to-sudoku.ipynb": (4, 3), "uniqueness-and-counting.ipynb": (6, 0)}


def test_every_notebook_is_checked_and_committed_without_outputs():
    found = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
    assert found == sorted(SHOWN)
    for name in found:
        cells = json.loads((NOTEBOOKS / name).read_text())["cells"]
        assert all(not cell.get("outputs") for cell in cells if cell["cell_type"] == "code"), \
            f"{name}: commit it with its outputs stripped"


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_notebook_runs_and_shows_pictures(name, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    root = str(ROOT)   # the kernel imports this sudokit
    before = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", root + (os.pathsep + before if before else ""))
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = [o.get("data", {}) for o in outputs if o.output_type in ("execute_result",
                                                                      "display_data")]
    svg = sum("image/svg+xml" in data for data in shown)
    html = sum("text/html" in data for data in shown)
    assert svg >= SHOWN[name][0] and html >= SHOWN[name][1], (svg, html)
