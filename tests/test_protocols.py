"""A chain of reductions is a CNF reduction or a cover reduction by its class, whatever the
Python version: from 3.12 on, isinstance against a runtime-checkable protocol looks members
up statically (without calling properties), so a chain class that declared both ``cnf`` and
``xc`` would pass for both there (issue 26)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from sudokit.instances import latin_square
from sudokit.protocols import CNFReduction, CoverReduction, Reduction
from sudokit.reductions import reduce

SQUARE = latin_square(np.array([[1, 0], [0, 0]]))


def _statically(obj, protocol) -> bool:
    """isinstance as Python 3.12+ decides it: every member looked up without running it."""
    members = [name for name in dir(protocol) if not name.startswith("_")]
    return all(inspect.getattr_static(obj, name, None) is not None for name in members)


@pytest.mark.parametrize("steps, is_cnf, is_cover", [
    (["latin2sudoku", "sudoku2sat"], True, False),
    (["latin2sudoku", "sudoku2xc"], False, True),
    (["latin2sudoku", "sudoku2coloring"], False, False),
    (["latin2sudoku", "sudoku2coloring", "coloring2sat"], True, False),
])
def test_a_chain_is_what_its_last_step_is(steps, is_cnf, is_cover):
    chained = reduce(steps[0], SQUARE)
    for name in steps[1:]:
        chained = chained.then(name)
    assert isinstance(chained, Reduction)
    assert (isinstance(chained, CNFReduction), isinstance(chained, CoverReduction)) == \
        (is_cnf, is_cover)
    assert (_statically(chained, CNFReduction), _statically(chained, CoverReduction)) == \
        (is_cnf, is_cover)
