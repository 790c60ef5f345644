"""The researcher's tutorial's interop example (docs/tutorials/researcher.md) shows every
conversion and runs as shown."""

import re

from ..helpers import ROOT, import_extra

import_extra("networkx", "interop")
import_extra("scipy", "interop")


PAGE = "docs/tutorials/researcher.md"


def test_interop_block_shows_each_conversion_and_runs(monkeypatch):
    page = (ROOT / PAGE).read_text()
    section = page.split("## networkx, PySAT and scipy", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    for call in ("to_networkx(", "from_networkx(", "to_pysat(", "from_pysat(", "to_scipy("):
        assert call in block
    monkeypatch.chdir(ROOT)
    exec(compile(block, PAGE, "exec"), {})
