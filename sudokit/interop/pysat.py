"""CNF formulas to and from PySAT's ``pysat.formula.CNF``, a block of clauses at a time.

A :class:`~sudokit.cnf.CNF` keeps clauses as ``int32`` numpy blocks; PySAT's ``CNF`` keeps a
list of Python int lists. :func:`to_pysat` (of a formula, or of an encoding such as
:func:`~sudokit.encoders.grid_to_cnf` returns) makes those lists with one C-level ``tolist``
per block and hands them over by reference (``from_clauses`` would deep-copy them and scan
every clause for the highest variable, which the block already knows); :func:`from_pysat`
flattens the clauses with ``itertools.chain`` into one numpy array and buckets them by length
with numpy, so neither direction runs Python code per clause. Python's garbage collector is
paused while the clause lists are made.

Measured on the 25x25 Sudoku of the shared data (``sudoku25_gecode.txt`` #1, extended
encoding: 15,625 variables, 752,774 clauses; best of three, two shared cores):
:func:`to_pysat` 0.2-0.4 s (0.6-0.8 s with the collector running), against 2.4 s
appending clause by clause and 4.2 s for ``CNF(from_clauses=...)`` (deep copy);
:func:`from_pysat` 0.2-0.4 s against 0.35 s for :meth:`~sudokit.cnf.CNF.add_clauses`.

Examples
--------
>>> from sudokit.cnf import CNF
>>> cnf = CNF(num_vars=3, comments=["demo"])
>>> cnf.add_clauses("g", [[1, -2], [2, 3, -1], [3]])
>>> f = to_pysat(cnf)
>>> f.nv, f.clauses, f.comments
(3, [[3], [1, -2], [2, 3, -1]], ['c demo'])
>>> back = from_pysat(f)
>>> back.num_vars, back.clauses()
(3, [[3], [1, -2], [2, 3, -1]])
"""

from __future__ import annotations

import contextlib
import gc
import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..cnf import CNF
from ..encoders import to_cnf
from ..errors import InstanceError, described
from ..problems import user_problem

__all__ = ["to_pysat", "from_pysat"]


def to_pysat(formula: Any, comments: bool = True) -> Any:
    """A :class:`~sudokit.cnf.CNF`, or a reduction to CNF (anything with a ``cnf``: an
    encoding, a :class:`~sudokit.protocols.CNFReduction`), as a ``pysat.formula.CNF``.

    Clauses come in block order; ``nv`` is the formula's ``num_vars``, which may exceed the
    highest variable a clause uses. A model of the result decodes with the encoding's own
    ``decode``. ``comments`` copies :meth:`~sudokit.cnf.CNF.all_comments` as ``c ...`` lines
    (the ``c map`` and projection lines of an encoding; False skips making them).

    Examples
    --------
    >>> import numpy as np
    >>> from pysat.solvers import Solver
    >>> from sudokit.encoders import grid_to_cnf
    >>> from sudokit.instances import latin_square
    >>> encoded = grid_to_cnf(latin_square(np.array([[1, 0], [0, 0]])))
    >>> with Solver(name="cadical195", bootstrap_with=to_pysat(encoded)) as solver:
    ...     found, model = solver.solve(), solver.get_model()
    >>> found, encoded.decode(model).tolist()
    (True, [[1, 2], [2, 1]])
    """
    from pysat.formula import CNF as PySATCNF

    if not isinstance(formula, CNF):
        formula = user_problem(formula)
        if not hasattr(formula, "cnf"):   # an instance: its kind's default encoding
            formula = to_cnf(formula)
    cnf = formula if isinstance(formula, CNF) else formula.cnf

    out = PySATCNF()
    clauses: list[list[int]] = []
    with _collector_paused():
        for _, block in cnf.blocks:
            clauses += block.tolist()
    out.clauses = clauses
    out.nv = int(cnf.num_vars)
    if comments:
        out.comments = ["c " + line if line else "c" for line in cnf.all_comments()]
    return out


def from_pysat(formula: Any, group: str = "input") -> CNF:
    """A :class:`~sudokit.cnf.CNF` from a ``pysat.formula.CNF`` (or anything with
    ``clauses`` and ``nv``): clauses bucketed by length into blocks of ``group``, shortest
    first; comments kept without their ``c`` lead.

    Examples
    --------
    >>> from pysat.formula import CNF as PySATCNF
    >>> cnf = from_pysat(PySATCNF(from_clauses=[[1, 2], [-1], [2, -3]]))
    >>> cnf.num_vars, [block.tolist() for _, block in cnf.blocks]
    (3, [[[-1]], [[1, 2], [2, -3]]])
    """
    clauses = getattr(formula, "clauses", None)
    if not isinstance(clauses, list) or not all(isinstance(c, (list, tuple)) for c in clauses):
        raise InstanceError(f"from_pysat takes a pysat CNF (clauses: a list of lists of "
                            f"integers), not {described(formula)}")
    lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
    flat = np.fromiter(itertools.chain.from_iterable(clauses), dtype=np.int64,
                       count=int(lengths.sum()))
    highest = int(np.abs(flat).max()) if flat.size else 0
    if highest > np.iinfo(np.int32).max:
        raise InstanceError(f"variable {highest} does not fit the int32 clause blocks")
    cnf = CNF(num_vars=max(int(getattr(formula, "nv", 0) or 0), highest),
              comments=[_uncomment(line) for line in getattr(formula, "comments", ())])
    if not clauses:
        return cnf
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    for length in np.unique(lengths).tolist():
        rows = starts[lengths == length]
        block = flat[rows[:, None] + np.arange(length)] if length else \
            np.zeros((rows.size, 0), dtype=np.int64)
        cnf.add_block(group, block.astype(np.int32))
    return cnf


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a million clause lists are made: each
    list is a tracked container, so the collector would otherwise run hundreds of passes over
    the growing heap (three quarters of the time on a 25x25 encoding); lists of ints form no
    cycles, so nothing is left for it to find."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _uncomment(line: str) -> str:
    return line[2:] if line.startswith("c ") else line.removeprefix("c")
