"""Every ```pycon block of docs/guide/python-api.md runs as shown, in order, as one doctest."""

from __future__ import annotations

import doctest
import re

import pytest

from .helpers import ROOT, shown_needs

PAGE = ROOT / "docs" / "guide" / "python-api.md"


def pycon_blocks() -> list[str]:
    return re.findall(r"```pycon\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_page_has_examples():
    assert len(pycon_blocks()) >= 8


def test_pycon_blocks_run_as_shown():
    text = "\n".join(pycon_blocks())
    reason = shown_needs(text)
    if reason is not None:
        pytest.skip(reason)
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
