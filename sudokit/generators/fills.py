"""The fill-strategy registry: every way of making a random full Sudoku grid, by name.

One :class:`FillStrategy` per method (``sudokit generate sudoku --fill NAME``), each a function
``fill(n, box, rng, *, alpha, meter, stats, progress, max_restarts) -> grid`` in its own
module, imported on first use. :func:`fill_grid` checks the name, the shape and ``alpha``,
runs the strategy and fills ``stats`` with what every strategy reports: ``strategy``,
``restarts`` (fresh starts after a failed attempt), ``nodes`` (search nodes, or SAT
conflicts, or HiGHS branch-and-bound nodes, or GRASP iterations: see each entry) and
``seconds``.

Wherever a strategy is named (:func:`fill_grid`, :func:`~.grids.random_grid`,
:class:`~.puzzles.PuzzleGenerator`), a :class:`FillStrategy`, a fill function of that
signature, or a ``"module:attribute"`` string naming either serves as well: a user's own
strategy needs no entry here (:func:`fill_strategy`).

==================  ===========================================================================
``auto``            ``search`` up to :data:`~.grids.SEARCH_MAX_SIDE`, ``sat`` beyond (sudokit)
``search``          randomized depth-first search, fewest candidates first, restarts with a
                    growing node budget (sudokit; restarts after Gomes, Selman and Kautz 1998)
``sat``             random band matchings, then CDCL completes the last two bands (sudokit)
``product``         products of random Latin squares of the box structure, shuffled
                    (a generalisation of Takano et al.'s "blocks" construction, sec. 5.1)
``backtrack``       Raggi, Neto and Fontes (2019), Algorithm 1
``prune``           Raggi et al. (2019), Algorithm 2 ("big prune"), ``alpha`` 0.7
``weighted-prune``  Raggi et al. (2019), Algorithm 3 ("big weighted prune"), ``alpha`` 1.0
``ilp``             the binary integer program, HiGHS (Raggi et al. 2019; the model of
                    Bartlett et al. 2008): a random fixed first row and HiGHS seed, no
                    objective, the first feasible grid; in a child process from 25x25 up
``grasp``           Takano, de Freitas and Sá's GRASP from the empty grid, ``alpha`` 0.2
==================  ===========================================================================

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> stats = {}
>>> grid = fill_grid("prune", 9, (3, 3), np.random.default_rng(1), stats=stats)
>>> sudoku(grid).is_solution(grid), sorted(stats)
(True, ['alpha', 'nodes', 'restarts', 'seconds', 'strategy'])
>>> FILLS["weighted-prune"].alpha_default, FILLS["ilp"].takes_alpha
(1.0, False)
>>> def fixed(n, box, rng, **options):        # a user's own strategy, handed over directly
...     return [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
>>> fill_grid(fixed, 4, (2, 2), np.random.default_rng(0), stats=stats)[1].tolist()
[3, 4, 1, 2]
>>> stats["strategy"]
'sudokit.generators.fills:fixed'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..bitmasks import MAX_VALUES
from ..errors import InstanceError, MissingExtraError
from ..instances.patterns import check_shape
from ..refs import closest, first_line, load_ref, registry_entry
from ..solvers.registry import NeedsExtra

if TYPE_CHECKING:
    from ..solvers.budget import Meter

__all__ = ["FillStrategy", "FILLS", "fill_strategy", "fill_grid", "prepare_fill",
           "RAGGI", "TAKANO"]

RAGGI = ("Raggi, Neto and Fontes, \"Geração de quebra-cabeças Sudoku\" (2019)")
TAKANO = ("Takano, de Freitas and Sá, \"Solving and generating Sudoku\" (GRASP, sec. 3; "
          "constructions, sec. 5.1)")


@dataclass(frozen=True)
class FillStrategy(NeedsExtra):
    """A way of making random full Sudoku grids (see the module).

    ``function`` is a ``"module:function"`` reference or the function; ``alpha`` the closed
    range of its
    parameter (None: it takes none) and ``alpha_default`` its default. ``extends`` says that
    a partial grid (givens) or a Latin square (no boxes) is filled by the ``search`` strategy
    instead (the other strategies make empty Sudoku grids only). ``max_side`` is the largest
    side it takes; ``requires``/``extra`` the optional modules it needs and their extra.
    ``nodes`` says what its ``nodes`` statistic counts; ``kernels`` whether it runs numba
    kernels (compiled once per process before a budget's clock starts).
    """

    name: str
    description: str
    source: str
    function: str | Callable[..., Any]
    nodes: str = "search nodes"
    alpha: tuple[float, float] | None = None
    alpha_default: float | None = None
    extends: bool = False
    max_side: int = MAX_VALUES
    requires: tuple[str, ...] = ()
    extra: str | None = None
    kernels: bool = True

    @property
    def takes_alpha(self) -> bool:
        return self.alpha is not None

    def check_alpha(self, alpha: float | None) -> float | None:
        """``alpha``, or the default when None; :class:`InstanceError` outside the range or
        for a strategy that takes no alpha."""
        if alpha is None:
            return self.alpha_default
        if self.alpha is None:
            raise InstanceError(f"fill {self.name} takes no alpha")
        low, high = self.alpha
        if not (low <= alpha <= high):        # (also refuses NaN)
            raise InstanceError(f"alpha of fill {self.name} must lie in {low:g}..{high:g}, "
                                f"got {alpha:g}")
        return float(alpha)

    def check_installed(self) -> None:
        """:class:`MissingExtraError` naming the install command when a module is missing."""
        for module in self.missing:
            raise MissingExtraError(f"fill {self.name} needs {module}, which is not "
                                    f"installed: {self.install}")

    def load(self) -> Callable[..., Any]:
        """The fill function (imported on first use)."""
        if callable(self.function):
            return self.function
        function: Callable[..., Any] = load_ref(self.function, f"fill {self.name}",
                                                InstanceError)
        return function

    def help_line(self) -> str:
        """One line for ``--fill``'s help."""
        alpha = f" (alpha {self.alpha[0]:g}..{self.alpha[1]:g}, default " \
                f"{self.alpha_default:g})" if self.alpha else ""
        return f"{self.name}: {self.description}{alpha}"


_GRIDS = "sudokit.generators.grids"
_PRUNE = "sudokit.generators.fill_prune"

FILLS: dict[str, FillStrategy] = {s.name: s for s in (
    FillStrategy("auto", "search up to 25x25, sat beyond", "sudokit",
                 f"{_GRIDS}:auto_fill", "search nodes, or CDCL conflicts above 25x25",
                 extends=True),
    FillStrategy("search", "randomized backtracking, fewest candidates first, restarts",
                 "sudokit (restarts: Gomes, Selman and Kautz 1998)", f"{_GRIDS}:search_fill",
                 extends=True),
    FillStrategy("sat", "random band matchings, CDCL completes the last two bands",
                 "sudokit", f"{_GRIDS}:sat_strategy", "CDCL conflicts", extends=True),
    FillStrategy("product", "random Latin squares of the box structure, shuffled "
                 "(polynomial, not every grid)", TAKANO + ", generalised",
                 "sudokit.generators.fill_product:product_fill", "none (a construction)",
                 extends=True, kernels=False),
    FillStrategy("backtrack", "Raggi's Algorithm 1: diagonal boxes, then row-by-row "
                 "backtracking", RAGGI + ", Algorithm 1",
                 "sudokit.generators.fill_backtrack:backtrack_fill"),
    FillStrategy("prune", "Raggi's Algorithm 2 (big prune): at most 2 values per cell with "
                 "probability alpha, restarts", RAGGI + ", Algorithm 2",
                 f"{_PRUNE}:prune_fill", alpha=(0.0, 1.0), alpha_default=0.7),
    FillStrategy("weighted-prune", "Raggi's Algorithm 3: 2 values with probability "
                 "alpha*filled/total, restarts", RAGGI + ", Algorithm 3",
                 f"{_PRUNE}:weighted_prune_fill", alpha=(0.0, 1.0), alpha_default=1.0),
    FillStrategy("ilp", "binary integer program, random first row and HiGHS seed, first "
                 "feasible grid (HiGHS)",
                 RAGGI + "; model of Bartlett et al. (2008)",
                 "sudokit.generators.fill_ilp:ilp_fill", "HiGHS branch-and-bound nodes",
                 requires=("highspy",), extra="ilp", kernels=False),
    FillStrategy("grasp", "Takano's GRASP from the empty grid (RCL alpha, hill climbing, "
                 "restarts)", TAKANO, "sudokit.generators.fill_grasp:grasp_fill",
                 "GRASP iterations", alpha=(0.0, 1.0), alpha_default=0.2),
)}


#: a fill strategy wherever one is asked for: a name of :data:`FILLS`, a
#: :class:`FillStrategy`, a fill function, or a ``"module:attribute"`` string naming either
FillLike = str | FillStrategy | Callable[..., Any]


def fill_strategy(name: FillLike) -> FillStrategy:
    """The strategy ``name`` names (:class:`InstanceError` naming the others if unknown).

    ``name`` is a name of :data:`FILLS`; a :class:`FillStrategy` (returned as it is); a fill
    function ``fill(n, box, rng, *, alpha, meter, stats, progress, max_restarts)`` (see the
    module), which gets a strategy of its own named by its ``"module:function"``, described
    by its docstring's first line, taking no ``alpha``, filling empty Sudoku grids only; or a
    ``"module:attribute"`` string naming a strategy or a function.

    Examples
    --------
    >>> fill_strategy("prune").alpha
    (0.0, 1.0)
    >>> fill_strategy("sudokit.generators.grids:search_fill").name
    'sudokit.generators.grids:search_fill'
    >>> fill_strategy(FILLS["ilp"]) is FILLS["ilp"]
    True
    """
    return registry_entry(name, FillStrategy, callable, _function_strategy, _named_fill,
                          "fill", "a fill function", InstanceError)


def _named_fill(name: object) -> FillStrategy:
    try:
        return FILLS[name]  # type: ignore[index]
    except (KeyError, TypeError):
        raise InstanceError(f"unknown fill method {name!r}; {closest(name, FILLS)}choose one "
                            "of " + ", ".join(FILLS)) from None


def _function_strategy(function: Callable[..., Any], name: str) -> FillStrategy:
    """The ad hoc strategy of a fill function (see :func:`fill_strategy`)."""
    return FillStrategy(name, first_line(function, name), "user", function,
                        "whatever the function counts", kernels=False)


def fill_grid(name: FillLike, n: int, box: tuple[int, int], rng: np.random.Generator, *,
              alpha: float | None = None, meter: Meter | None = None,
              stats: dict | None = None, progress: Callable[[], None] | None = None,
              max_restarts: int | None = None) -> np.ndarray:
    """A random full ``n x n`` Sudoku grid (boxes ``box``) made by strategy ``name``.

    Parameters
    ----------
    name : str, FillStrategy or callable
        The strategy: a name of :data:`FILLS`, or anything else :func:`fill_strategy` takes.
    alpha : float, optional
        The strategy's parameter (its default when None); refused by one that takes none.
    meter : Meter, optional
        A running time budget; when it runs out, :class:`~sudokit.errors.BudgetExhausted`.
    stats : dict, optional
        Filled with ``strategy``, ``alpha``, ``restarts``, ``nodes`` and ``seconds``.
    progress : callable, optional
        Called with no arguments between slices of the work.
    max_restarts : int, optional
        Give up (:class:`~sudokit.errors.BudgetExhausted`) after this many restarts
        (default: the strategy's own; the prune strategies: unlimited, bounded by time).

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> g = fill_grid("backtrack", 6, (2, 3), np.random.default_rng(2))
    >>> sudoku(g, (2, 3)).is_solution(g)
    True
    """
    strategy = fill_strategy(name)
    check_shape(n, box)
    top = min(strategy.max_side, MAX_VALUES)
    if n > top:
        raise InstanceError(f"fill {strategy.name} goes up to {top}x{top}, got {n}x{n}")
    alpha = strategy.check_alpha(alpha)
    strategy.check_installed()
    function = strategy.load()
    record: dict = {"restarts": 0, "nodes": 0}
    started = time.perf_counter()
    try:
        grid = function(n, box, rng, alpha=alpha, meter=meter, stats=record,
                        progress=progress, max_restarts=max_restarts)
    finally:
        if stats is not None:
            stats.update(strategy=strategy.name, alpha=alpha, restarts=int(record["restarts"]),
                         nodes=int(record.get("nodes", 0)),
                         seconds=time.perf_counter() - started)
    return np.ascontiguousarray(grid, dtype=np.int32).reshape(n, n)


#: the strategies whose kernels this process compiled or loaded already
_prepared: set[FillStrategy] = set()


def prepare_fill(name: FillLike) -> None:
    """Compile (or load from numba's cache) a strategy's kernels by filling a 4x4 grid once
    per process, and check its optional modules, before any budget's clock starts."""
    strategy = fill_strategy(name)
    strategy.check_installed()
    if strategy in _prepared or not strategy.kernels and not strategy.requires:
        return
    _prepared.add(strategy)
    fill_grid(strategy, 4, (2, 2), np.random.default_rng(0))
