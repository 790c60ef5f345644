"""scipy interop: exact cover problems as scipy.sparse.csr_array and back."""

import sys

import numpy as np
import pytest

import sudokit
from sudokit.errors import InstanceError, MissingExtraError
from sudokit.formats import read_instances
from sudokit.instances import latin_square
from sudokit.interop.scipy import from_scipy, to_scipy

from ..helpers import EXAMPLES, import_extra

sparse = import_extra("scipy.sparse", "interop")


def test_knuth_example_matrix_and_round_trip():
    xc = read_instances(str(EXAMPLES / "knuth6.dlx"))[0].instance
    matrix = to_scipy(xc)
    assert isinstance(matrix, sparse.csr_array)
    assert matrix.shape == (6, 7) and matrix.nnz == 16
    assert np.array_equal(matrix.toarray(), xc.to_dense())
    assert np.shares_memory(matrix.indices, xc.option_items)
    back = from_scipy(matrix, xc.num_primary, xc.items)
    assert back == xc
    links = sudokit.DancingLinks.from_problem(back)
    assert links.count() == 1


def test_sudoku_cover_matrix_rows_and_columns():
    cover = sudokit.grid_to_exact_cover(sudokit.sudoku(np.zeros((9, 9), dtype=int)), "full")
    matrix = to_scipy(cover.xc, dtype=np.int8)
    assert matrix.shape == (729, 324) and matrix.dtype == np.int8
    assert (matrix.sum(axis=1) == 4).all()           # cell, row, column, box
    assert (matrix.sum(axis=0) == 9).all()


def test_from_scipy_of_any_format_and_primary_items():
    dense = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    xc = from_scipy(sparse.coo_array(dense), num_primary=2)
    assert xc.items == ("1", "2", "3") and xc.num_primary == 2
    assert np.array_equal(xc.to_dense(), dense)
    assert sudokit.DancingLinks.from_problem(xc).count() == 2   # {0,1} and {2}


def test_latin_cover_count_through_scipy():
    cover = sudokit.grid_to_exact_cover(latin_square(np.zeros((4, 4), dtype=int)), "full")
    again = from_scipy(to_scipy(cover.xc))
    assert sudokit.DancingLinks.from_problem(again).count() == 576


@pytest.mark.parametrize("dense, kwargs, message", [
    (np.array([[2, 0]]), {}, "only 0 and 1"),
    (np.array([[1, 0]]), {"item_names": ["a"]}, "1 item names for 2 columns"),
    (np.array([[0, 1]]), {"num_primary": 1}, "has no primary item"),
])
def test_bad_matrices_are_instance_errors(dense, kwargs, message):
    with pytest.raises(InstanceError, match=message):
        from_scipy(sparse.csr_array(dense), **kwargs)


def test_missing_scipy_is_one_line_naming_the_extra(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setitem(sys.modules, "scipy.sparse", None)
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: None if mod == "scipy" else found(mod, *a))
    xc = read_instances(str(EXAMPLES / "knuth6.dlx"))[0].instance
    with pytest.raises(MissingExtraError, match=r'needs scipy.*pip install "sudokit\[interop\]"'):
        to_scipy(xc)
