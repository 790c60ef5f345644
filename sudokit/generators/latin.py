"""Random Latin squares, quasigroup-with-holes (QWH) and quasigroup-completion (QCP) instances.

* :func:`random_latin_square` -- ``"shuffle"``: the cyclic square ``(i + j) mod n`` with its
  rows, columns and symbols permuted (fast, but only isotopes of the cyclic group);
  ``"jacobson-matthews"``: the Markov chain of Jacobson and Matthews ("Generating uniformly
  distributed random Latin squares", J. Combin. Des. 4, 1996) on the incidence cube, run for
  ``n^3`` moves from the shuffled square and stopped at a proper square: close to uniform.
* :func:`qwh` -- holes punched in a random Latin square, so always solvable (Achlioptas,
  Gomes, Kautz and Selman, AAAI 2000). ``balanced=True`` spreads the holes as evenly as
  possible, ``floor(h/n)`` or ``ceil(h/n)`` per row *and* per column (Kautz, Ruan, Achlioptas,
  Gomes, Selman and Stickel, "Balance and filtering in structured satisfiable problems",
  IJCAI 2001): the holes are the cells where a second, independent random Latin square
  shows the symbols ``1..floor(h/n)``, plus part of the cells of the next symbol.
* :func:`qcp` -- a random partial Latin square built cell by cell (a random empty cell gets
  a random value its row and column do not hold yet), as in the quasigroup completion
  problem of Gomes and Selman (1997): consistent, but possibly not completable.

Both take ``variants`` (:mod:`~sudokit.instances.variants`; ``("diagonal",)`` for diagonal
Latin squares): the QWH square is then drawn through the units by
:func:`~.variant_grids.random_variant_grid` (``method`` is not used), and a QCP cell gets a
value that none of its units, the variant's included, holds yet.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> rng = np.random.default_rng(0)
>>> sq = random_latin_square(5, rng, "jacobson-matthews")
>>> latin_square(np.zeros((5, 5), int)).is_solution(sq)
True
>>> puzzle = qwh(5, 10, rng, balanced=True)
>>> int((puzzle.givens == 0).sum()), sorted(set((puzzle.givens == 0).sum(axis=1).tolist()))
(10, [2])
>>> diagonal = qwh(5, 0, rng, variants=["diagonal"])
>>> diagonal.variants, sorted(np.diag(diagonal.givens).tolist())
(('diagonal',), [1, 2, 3, 4, 5])
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from ..errors import InstanceError
from ..instances import GridPuzzle, latin_square
from ..instances.units import cell_unit_table
from .grids import random_grid
from .sizes import check_request, latin_bytes
from .variant_grids import random_variant_grid

__all__ = ["LATIN_METHODS", "random_latin_square", "qwh", "qcp", "hole_count", "punch_holes"]

#: how a random full square is drawn: the Jacobson-Matthews chain (uniform in the limit),
#: a shuffled cyclic square, or randomized search (:func:`~.grids.random_grid`, order <= 64)
LATIN_METHODS = ("jacobson-matthews", "shuffle", "search")


def _cyclic_shuffled(n: int, rng: np.random.Generator) -> np.ndarray:
    grid = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
    grid = grid[rng.permutation(n)][:, rng.permutation(n)]
    return rng.permutation(n)[grid]


@njit
def _jm_chain(cube, steps, draws, st, stop):
    """Run the Jacobson-Matthews chain on the 0/1/-1 incidence cube in place, resumably.

    ``draws`` is a flat array of uniform [0, 1) numbers (4 per step, reused cyclically).
    The chain stops after ``steps`` moves at the first proper square (returns 1); a call
    also returns (0) once the move count reaches ``stop``, keeping where it is in ``st``
    (``[moves, draws used, improper, r, c, s]``, zeros at the start) for the next call.
    """
    n = cube.shape[0]
    t = st[0]
    k = st[1]
    improper = st[2] != 0
    br, bc, bs = st[3], st[4], st[5]
    nd = len(draws)
    while t < steps or improper:
        if t >= stop:
            st[0] = t
            st[1] = k
            st[2] = 1 if improper else 0
            st[3] = br
            st[4] = bc
            st[5] = bs
            return 0
        t += 1
        if not improper:
            while True:                               # a random cell of the cube holding 0
                r = int(draws[k % nd] * n)
                c = int(draws[(k + 1) % nd] * n)
                s = int(draws[(k + 2) % nd] * n)
                k += 3
                if cube[r, c, s] == 0:
                    break
            r1 = c1 = s1 = 0
            for i in range(n):
                if cube[i, c, s] == 1:
                    r1 = i
                if cube[r, i, s] == 1:
                    c1 = i
                if cube[r, c, i] == 1:
                    s1 = i
        else:
            r, c, s = br, bc, bs
            r1 = c1 = s1 = -1
            for which in range(3):                    # one of the two 1s on each line
                first = -1
                second = -1
                for i in range(n):
                    v = cube[i, c, s] if which == 0 else (cube[r, i, s] if which == 1
                                                          else cube[r, c, i])
                    if v == 1:
                        if first < 0:
                            first = i
                        else:
                            second = i
                u = draws[(k + which) % nd]
                chosen = first if u < 0.5 else second
                if which == 0:
                    r1 = chosen
                elif which == 1:
                    c1 = chosen
                else:
                    s1 = chosen
            k += 3
        cube[r, c, s] += 1
        cube[r, c1, s1] += 1
        cube[r1, c, s1] += 1
        cube[r1, c1, s] += 1
        cube[r1, c, s] -= 1
        cube[r, c1, s] -= 1
        cube[r, c, s1] -= 1
        cube[r1, c1, s1] -= 1
        if cube[r1, c1, s1] < 0:
            improper = True
            br, bc, bs = r1, c1, s1
        else:
            improper = False
    st[0] = t
    st[1] = k
    st[2] = 0
    return 1


#: chain moves per :func:`_jm_chain` call, times the order (each move scans three lines):
#: about 10-50 ms a call at every order
JM_SLICE_WORK = 2_000_000


def random_latin_square(n: int, rng: np.random.Generator, method: str = "jacobson-matthews",
                        steps: int | None = None, max_memory: int | None = None) -> np.ndarray:
    """A random Latin square of order ``n`` (values ``1..n``); see the module for methods.

    Refuses an order whose square would need more than ``max_memory`` bytes (default: the
    available memory) with :class:`~sudokit.errors.ResourceError`, before building it.

    Examples
    --------
    >>> sq = random_latin_square(4, np.random.default_rng(1), "shuffle")
    >>> sorted(sq[:, 2].tolist())
    [1, 2, 3, 4]
    """
    if n < 1:
        raise InstanceError(f"the order must be positive, got {n}")
    if method not in LATIN_METHODS:
        raise InstanceError(f"unknown method {method!r}; choose one of "
                            + ", ".join(LATIN_METHODS))
    check_request(f"a Latin square of order {n} ({method})", latin_bytes(n, method), max_memory)
    if method == "search":
        return random_grid(n, None, rng, method="search")
    grid = _cyclic_shuffled(n, rng)
    if method == "jacobson-matthews" and n > 1:
        cube = np.zeros((n, n, n), dtype=np.int8)
        i, j = np.indices((n, n))
        cube[i, j, grid] = 1
        steps = n ** 3 if steps is None else steps
        draws = rng.random(max(4 * steps, 4096) + 1)
        state = np.zeros(6, np.int64)
        step = max(1, JM_SLICE_WORK // n)
        while not _jm_chain(cube, steps, draws, state, state[0] + step):
            pass    # back in Python between slices: Ctrl-C is seen
        grid = np.argmax(cube, axis=2)
    return np.ascontiguousarray(grid + 1, dtype=np.int32)


def hole_count(n: int, holes: float) -> int:
    """Holes as a count (``holes >= 1``) or a share of the ``n^2`` cells (``0 <= holes < 1``).

    Examples
    --------
    >>> hole_count(10, 0.42), hole_count(10, 42)
    (42, 42)
    """
    count = int(round(holes * n * n)) if 0 <= holes < 1 else int(holes)
    if holes < 0 or count != holes and holes >= 1 or not 0 <= count <= n * n:
        raise InstanceError(f"holes must be a count in 0..{n * n} or a ratio in [0, 1), "
                            f"got {holes}")
    return count


def _balanced_holes(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    pattern = random_latin_square(n, rng, "shuffle")
    full, extra = divmod(count, n)
    flat = np.ascontiguousarray(pattern).reshape(-1)
    mask = flat <= full
    if extra:
        mask[rng.choice(np.flatnonzero(flat == full + 1), extra, replace=False)] = True
    return mask.reshape(n, n)


def _template(n: int, variants) -> GridPuzzle:
    """The empty square of order ``n`` with ``variants``; InstanceError when the variants
    admit no square (no diagonal Latin square of order 2 or 3 exists)."""
    if n < 1:
        raise InstanceError(f"the order must be positive, got {n}")
    template = latin_square(np.zeros((n, n), dtype=np.int32), variants=variants)
    if "diagonal" in template.variants and n in (2, 3):
        raise InstanceError(f"there is no diagonal Latin square of order {n} (orders 1 and "
                            "4 up have them)")
    return template


def qwh(n: int, holes: float, rng: np.random.Generator, balanced: bool = False,
        method: str = "jacobson-matthews", variants=(), max_memory: int | None = None
        ) -> GridPuzzle:
    """A quasigroup-with-holes instance: always solvable (its square is a solution).

    Parameters
    ----------
    holes : float
        A count, or a ratio of the cells when below 1.
    balanced : bool
        Spread the holes evenly over rows and columns (Kautz et al. 2001).
    method : str
        How the full square is drawn (:data:`LATIN_METHODS`); not used with ``variants``.
    variants : sequence of str
        Variant names (``"diagonal"``): the square is drawn through their units too.
    max_memory : int, optional
        Refuse an order that needs more bytes (default: the available memory):
        :class:`~sudokit.errors.ResourceError`, before anything is built.

    Examples
    --------
    >>> p = qwh(6, 0.5, np.random.default_rng(3))
    >>> int((p.givens == 0).sum())
    18
    """
    count = hole_count(n, holes)
    if not variants:
        square = random_latin_square(n, rng, method, max_memory=max_memory)
        return latin_square(punch_holes(square, count, rng, balanced))
    check_request(f"a diagonal Latin square of order {n}", latin_bytes(n, "search"),
                  max_memory)
    template = _template(n, variants)
    square = random_variant_grid(template, rng) if n > 1 else np.ones((1, 1), np.int32)
    return template.with_givens(punch_holes(square, count, rng, balanced))


def punch_holes(grid, count: int, rng: np.random.Generator, balanced: bool = False):
    """``grid`` with ``count`` cells emptied: at random, or ``balanced`` (every row and column
    gets floor or ceil of count / n holes).

    Examples
    --------
    >>> grid = np.arange(1, 10).reshape(3, 3)
    >>> int((punch_holes(grid, 4, np.random.default_rng(0)) == 0).sum())
    4
    """
    grid = np.asarray(grid)
    n = grid.shape[0]
    if balanced:
        mask = _balanced_holes(n, count, rng)
    else:
        mask = np.zeros(n * n, dtype=bool)
        mask[rng.choice(n * n, count, replace=False)] = True
        mask = mask.reshape(n, n)
    return np.where(mask, 0, grid)


def qcp(n: int, holes: float, rng: np.random.Generator, variants=(),
        max_memory: int | None = None) -> GridPuzzle:
    """A quasigroup-completion instance: a random consistent partial Latin square, which may
    have no completion. Cells that no value fits any more stay empty, so there can be more
    holes than asked (never fewer). With ``variants`` a value must also be new to the
    variant's units. ``max_memory`` as in :func:`qwh`.

    Examples
    --------
    >>> p = qcp(5, 15, np.random.default_rng(0))
    >>> int((p.givens == 0).sum()) >= 15
    True
    >>> d = qcp(5, 15, np.random.default_rng(0), variants=["diagonal"])
    >>> d.variants
    ('diagonal',)
    """
    count = hole_count(n, holes)
    check_request(f"a QCP instance of order {n}", latin_bytes(n, "shuffle"), max_memory)
    template = _template(n, variants)
    units = template.units()
    table = cell_unit_table(units, n * n)
    used = np.zeros((len(units), n + 1), dtype=bool)   # unit, value
    grid = np.zeros(n * n, dtype=np.int32)
    filled = 0
    for cell in rng.permutation(n * n):
        if filled >= n * n - count:
            break
        own = table[cell][table[cell] >= 0]
        free = np.flatnonzero(~used[own, 1:].any(axis=0)) + 1
        if free.size == 0:
            continue
        v = int(rng.choice(free))
        grid[cell] = v
        used[own, v] = True
        filled += 1
    return template.with_givens(grid.reshape(n, n))


