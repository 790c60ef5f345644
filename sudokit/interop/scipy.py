"""Exact cover problems as ``scipy.sparse.csr_array`` matrices, and back.

An :class:`~sudokit.exact_cover.ExactCover` stores its options as CSR arrays already
(``option_starts`` is ``indptr``, ``option_items`` is ``indices``), so the matrix shares its
item array: one row per option, one column per item (primary items first), entries 1. scipy
is optional: ``pip install "sudokit[interop]"``.

Examples
--------
>>> from sudokit.exact_cover import exact_cover
>>> xc = exact_cover([["x", "y"], ["x"], ["y"]], primary=["x", "y"])
>>> m = to_scipy(xc)
>>> m.shape, m.toarray().tolist()
((3, 2), [[1, 1], [1, 0], [0, 1]])
>>> from_scipy(m, item_names=["x", "y"]) == xc
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..encoders import to_exact_cover
from ..errors import InstanceError, described
from ..exact_cover import ExactCover
from ..problems import user_problem
from . import optional_module

__all__ = ["to_scipy", "from_scipy"]


def to_scipy(problem: Any, dtype: Any = np.uint8) -> Any:
    """An :class:`~sudokit.exact_cover.ExactCover`, or a reduction to exact cover (anything
    with an ``xc``: an encoding, a :class:`~sudokit.protocols.CoverReduction`), as its
    ``(num_options, num_items)`` 0/1 matrix, a ``scipy.sparse.csr_array``.

    Its ``indices`` are the cover's own ``option_items`` (no copy), its ``indptr`` the option
    starts (as ``int32`` up to 2**31 entries, scipy's index type for them).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.encoders import grid_to_exact_cover
    >>> from sudokit.instances import latin_square
    >>> m = to_scipy(grid_to_exact_cover(latin_square(np.zeros((2, 2), dtype=int))))
    >>> m.shape, m.nnz                    # 8 options (cell, value), 12 items, 3 per option
    ((8, 12), 24)
    """
    if not isinstance(problem, ExactCover):
        problem = user_problem(problem)
        if not hasattr(problem, "xc"):    # an instance: its kind's default exact cover
            problem = to_exact_cover(problem)
    xc = problem if isinstance(problem, ExactCover) else problem.xc
    sparse = optional_module("scipy.sparse", "interop")
    data = np.ones(len(xc.option_items), dtype=dtype)
    starts = xc.option_starts
    if len(xc.option_items) <= np.iinfo(np.int32).max:
        starts = starts.astype(np.int32)  # so scipy keeps the int32 items array as it is
    return sparse.csr_array((data, xc.option_items, starts),
                            shape=(xc.num_options, xc.num_items), copy=False)


def from_scipy(matrix: Any, num_primary: int | None = None,
                           item_names: Sequence[str] | None = None) -> ExactCover:
    """An :class:`~sudokit.exact_cover.ExactCover` from any scipy sparse matrix (one row per
    option; entries other than 0 and 1 are refused). Items are named ``1..m`` unless
    ``item_names`` are given; every item is primary unless ``num_primary`` says fewer.

    Raises
    ------
    InstanceError
        An entry other than 0 or 1, a wrong number of names, or an option without a primary
        item (see :meth:`~sudokit.exact_cover.ExactCover.validate`).
    """
    sparse = optional_module("scipy.sparse", "interop")
    if not sparse.issparse(matrix) and not isinstance(matrix, np.ndarray):
        raise InstanceError(f"from_scipy takes a scipy sparse matrix (or a numpy 0/1 array), "
                            f"not {described(matrix)}")
    if len(matrix.shape) != 2:
        raise InstanceError(f"an exact cover matrix has two axes, got shape {matrix.shape}")
    csr = sparse.csr_array(matrix)
    csr.sum_duplicates()
    csr.eliminate_zeros()
    if csr.data.size and not np.all(csr.data == 1):
        raise InstanceError("an exact cover matrix holds only 0 and 1")
    csr.sort_indices()
    rows, cols = csr.shape
    names = tuple(item_names) if item_names is not None else tuple(
        str(i + 1) for i in range(cols))
    if len(names) != cols:
        raise InstanceError(f"{len(names)} item names for {cols} columns")
    return ExactCover(names, cols if num_primary is None else int(num_primary),
                      np.asarray(csr.indptr, dtype=np.int64),
                      np.asarray(csr.indices, dtype=np.int32))
