"""PySAT interop: CNF blocks to pysat.formula.CNF and back, on encodings up to 25x25."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.formula import CNF as PySATCNF
from pysat.solvers import Solver

import sudokit
from sudokit.errors import InstanceError
from sudokit.formats import read_instances
from sudokit.instances import latin_square
from sudokit.interop.pysat import from_pysat, to_pysat

from ..helpers import EXAMPLES, data_path

clause_lists = st.lists(st.lists(st.integers(1, 12).flatmap(
    lambda v: st.sampled_from([v, -v])), min_size=0, max_size=5), max_size=30)


@settings(max_examples=60, deadline=None)
@given(clause_lists)
def test_round_trip_keeps_every_clause(clauses):
    formula = PySATCNF(from_clauses=clauses)
    cnf = from_pysat(formula)
    assert sorted(map(tuple, cnf.clauses())) == sorted(map(tuple, clauses))
    assert cnf.num_vars == formula.nv
    back = to_pysat(cnf)
    assert sorted(map(tuple, back.clauses)) == sorted(map(tuple, clauses))
    assert back.nv == cnf.num_vars
    assert cnf.has_empty_clause == (not all(clauses))


def test_encoding_to_pysat_solves_and_decodes():
    puzzle = read_instances(str(EXAMPLES / "puzzle17.txt"))[0].instance
    encoded = sudokit.grid_to_cnf(puzzle, "reduced")
    formula = to_pysat(encoded)
    assert formula.nv == encoded.cnf.num_vars == 301
    assert len(formula.clauses) == encoded.cnf.num_clauses
    assert any(line.startswith("c map ") for line in formula.comments)
    assert not to_pysat(encoded, comments=False).comments
    with Solver(name="cadical195", bootstrap_with=formula) as solver:
        assert solver.solve()
        solution = encoded.decode(solver.get_model())
    assert puzzle.is_solution(solution)


def test_from_pysat_counts_like_the_original():
    # Latin squares of order 3: 12, through a formula that went to PySAT and back
    encoded = sudokit.grid_to_cnf(latin_square(np.zeros((3, 3), dtype=int)), "extended")
    formula = from_pysat(to_pysat(encoded))
    assert formula.num_vars == encoded.cnf.num_vars
    assert "input" in formula.stats()
    with Solver(name="cadical195", bootstrap_with=to_pysat(formula)) as solver:
        count = 0
        while solver.solve():
            model = solver.get_model()
            count += 1
            solver.add_clause([-lit for lit in model if lit > 0])
    assert count == 12


def test_nv_above_the_highest_variable_and_comments():
    formula = PySATCNF(from_clauses=[[1, -2]])
    formula.nv = 7
    formula.comments = ["c hello", "c"]
    cnf = from_pysat(formula)
    assert cnf.num_vars == 7 and cnf.comments == ["hello", ""]
    assert to_pysat(cnf).comments == ["c hello", "c"]
    assert from_pysat(PySATCNF()).num_clauses == 0


def test_variables_beyond_int32_are_refused():
    with pytest.raises(InstanceError, match="int32"):
        from_pysat(PySATCNF(from_clauses=[[2**31]]))


def test_25x25_encoding_round_trip():
    path = data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt")
    puzzle = read_instances(str(path))[0].instance
    encoded = sudokit.grid_to_cnf(puzzle, "extended")
    formula = to_pysat(encoded, comments=False)
    assert formula.nv == encoded.cnf.num_vars and len(formula.clauses) == encoded.cnf.num_clauses
    assert formula.clauses[0] == encoded.cnf.blocks[0][1][0].tolist()
    assert formula.clauses[-1] == encoded.cnf.blocks[-1][1][-1].tolist()
    back = from_pysat(formula)
    assert back.num_clauses == encoded.cnf.num_clauses
    assert back.num_literals == encoded.cnf.num_literals
    original = np.sort(np.concatenate([np.sort(b, axis=1).reshape(-1) for _, b in
                                       encoded.cnf.blocks]))
    again = np.sort(np.concatenate([np.sort(b, axis=1).reshape(-1) for _, b in back.blocks]))
    assert np.array_equal(original, again)
