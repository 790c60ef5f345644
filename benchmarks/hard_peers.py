"""The peers of benchmarks/hard_instances.py, written as their users write them, no sudokit:
a direct OR-Tools CP-SAT model (AllDifferent per unit) and PySAT CaDiCaL on a plain CNF.

Both take an ``(n, n)`` array of givens (0 = empty, values 1..n), the box shape ``(r, c)``
(None for a Latin square), a solution limit (1: solve, 2: uniqueness) and seconds; both
return ``(count, first solution or None, decided)``: ``count`` is a lower bound when not
decided.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

#: the most (cell, value) variables the plain CNF is built for (the empty order-100 square
#: has 1,000,000: ~9 M clauses as Python lists, gigabytes): beyond, the peer is undecided
MAX_CANDIDATES = 400_000

#: conflicts per call (PySAT's CaDiCaL takes a conflict budget, not an interrupt)
SLICE_CONFLICTS = 2000


def units(n: int, box: tuple[int, int] | None) -> list[list[tuple[int, int]]]:
    """Rows, columns and (Sudoku) boxes as lists of cells."""
    found = [[(r, c) for c in range(n)] for r in range(n)]
    found += [[(r, c) for r in range(n)] for c in range(n)]
    if box is not None:
        rows, cols = box
        found += [[(r0 + r, c0 + c) for r in range(rows) for c in range(cols)]
                  for r0 in range(0, n, rows) for c0 in range(0, n, cols)]
    return found


def cpsat_count(givens: np.ndarray, box, limit: int, seconds: float, workers: int = 1):
    """The model a CP user writes: one IntVar per cell, AllDifferent per unit, givens fixed;
    a second solve, forbidding the first solution, for uniqueness."""
    from ortools.sat.python import cp_model

    n = len(givens)
    model = cp_model.CpModel()
    x = [[model.new_int_var(1, n, f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for unit in units(n, box):
        model.add_all_different([x[r][c] for r, c in unit])
    for r, c in zip(*np.nonzero(givens), strict=True):
        model.add(x[r][c] == int(givens[r, c]))
    deadline = time.perf_counter() + seconds
    count, first = 0, None
    while count < limit:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.01)
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return count, first, True
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return count, first, False
        count += 1
        found = np.array([[solver.value(v) for v in row] for row in x], dtype=np.int32)
        if first is None:
            first = found
        differs = []
        for r, c in zip(*np.nonzero(givens == 0), strict=True):
            b = model.new_bool_var("")
            model.add(x[r][c] != int(found[r, c])).only_enforce_if(b)
            differs.append(b)
        model.add_bool_or(differs or [model.new_constant(0)])
    return count, first, True


def cadical_count(givens: np.ndarray, box, limit: int, seconds: float):
    """PySAT CaDiCaL 1.9.5 on a plain CNF: a variable per (cell, value) the givens leave
    open, each cell and each unit's value exactly once (pairwise at-most-one up to 6
    literals, sequential counter beyond); blocking clauses for the count; the
    clock is read every :data:`SLICE_CONFLICTS` conflicts."""
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

    n = len(givens)
    cand = np.ones((n, n, n), dtype=bool)            # cand[r, c, v-1]
    for r, c in zip(*np.nonzero(givens), strict=True):
        v = givens[r, c] - 1
        for unit in units_of(n, box, r, c):
            for rr, cc in unit:
                cand[rr, cc, v] = False
        cand[r, c, :] = False
        cand[r, c, v] = True
    if cand.sum() > MAX_CANDIDATES:   # ~10 M clauses in Python lists: out of the budget
        return 0, None, False
    var = np.zeros((n, n, n), dtype=np.int64)
    var[cand] = np.arange(1, int(cand.sum()) + 1)
    top = int(cand.sum())
    clauses: list[list[int]] = []

    def exactly_one(lits: list[int]) -> None:
        nonlocal top
        clauses.append(lits)
        if len(lits) <= 6:
            clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
        else:
            enc = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
            top = max(top, enc.nv)
            clauses.extend(enc.clauses)

    for r in range(n):
        for c in range(n):
            exactly_one([int(v) for v in var[r, c] if v])
    for unit in units(n, box):
        for v in range(n):
            exactly_one([int(var[r, c, v]) for r, c in unit if var[r, c, v]])
    if any(not clause for clause in clauses):
        return 0, None, True
    open_lits = [int(v) for v in var[givens == 0].reshape(-1) if v]
    deadline = time.perf_counter() + seconds
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        count, first = 0, None
        while count < limit:
            answer = None
            while answer is None:      # conflict-bounded calls, the clock read between
                if time.perf_counter() > deadline:
                    return count, first, False
                solver.conf_budget(SLICE_CONFLICTS)
                answer = solver.solve_limited()
            if not answer:
                return count, first, True
            true = np.zeros(top + 1, dtype=bool)
            lits = np.array(solver.get_model(), dtype=np.int64)
            true[lits[lits > 0]] = True
            count += 1
            if first is None:
                chosen = true[var] & (var > 0)
                first = (chosen * np.arange(1, n + 1)).sum(axis=2).astype(np.int32)
            solver.add_clause([-lit for lit in open_lits if true[lit]])
    return count, first, True


def units_of(n: int, box, r: int, c: int) -> list[list[tuple[int, int]]]:
    """The units through cell ``(r, c)``."""
    found = [[(r, cc) for cc in range(n)], [(rr, c) for rr in range(n)]]
    if box is not None:
        rows, cols = box
        r0, c0 = r - r % rows, c - c % cols
        found.append([(r0 + i, c0 + j) for i in range(rows) for j in range(cols)])
    return found
