"""Answering chunks of instances: :func:`answer`, the one function the serial loop and every
Dask worker call, and :func:`answer_chunks`, the serial loop.

A chunk is a :class:`~sudokit.formats.columns.ColumnChunk` (one-line puzzles of one shape as
an ``(N, n*n)`` array), a :class:`GridBatch` (grid puzzles of one shape as a template and
their givens) or a sequence of instances. A column chunk whose engine answers arrays
(``count_arrays``: the CP kernels, DLX) is answered by one array call with no object per
instance; everything else goes instance by instance, in order: a run of instances of one
shape (its kind's ``shape_key``) shares one engine opened for that shape when the shape
recurs in the chunk (or shared one before) and the engine says sharing pays
(``shares``): the SAT engines then load the empty grid's CNF once and pass givens as
assumptions, DLX preselects them in one structure. Every other instance goes to an engine
opened without a shape. Engines stay open in an :class:`EngineCache` from chunk to chunk.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> squares = [latin_square(np.array([[1, 0], [0, 0]])), latin_square(np.zeros((2, 2), int))]
>>> with EngineCache() as engines:
...     answer(RunSpec.of("count"), squares, engines).counts.tolist()
[1, 2]
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..counting import COUNTERS, counter_function
from ..errors import InstanceError, described
from ..formats.columns import ColumnChunk
from ..instances import GridPuzzle
from ..instances.grid import grids_from_rows
from ..problems import resolve
from ..solvers.engine import Outcome
from ..solvers.registry import open_engine, shares_within
from .answers import Answers
from .sizing import PIECE_SECONDS, TaskSizer
from .spec import RunSpec, shape_keys

__all__ = ["EngineCache", "GridBatch", "Run", "answer", "answer_chunks", "answer_parts",
           "cut_chunk", "instances_of", "pack"]


#: a run of a chunk: ``(start, stop, answer)``, ``answer`` None for the engines' road, else
#: the function answering the part on its own (see :func:`answer_chunks`)
Run = tuple[int, int, "Callable[[Any], Answers] | None"]


@dataclass(frozen=True)
class GridBatch:
    """Grid puzzles of one shape, compact for the trip to a worker: one ``template`` puzzle
    (its units) and the ``(N, n, n)`` givens; :meth:`puzzles` builds them back."""

    template: GridPuzzle
    givens: np.ndarray

    def __len__(self) -> int:
        return len(self.givens)

    def puzzles(self) -> list[GridPuzzle]:
        # checked when the input was read, as grids_from_rows builds them: not again
        return GridPuzzle.trusted_batch(self.template, self.givens)


def pack(instances: Sequence[Any]) -> GridBatch | list[Any]:
    """A :class:`GridBatch` for grid puzzles of one plain shape, else the list.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> packed = pack([latin_square(np.zeros((2, 2), int))] * 3)
    >>> len(packed), len(packed.puzzles())
    (3, 3)
    """
    first = instances[0] if len(instances) else None
    if (isinstance(first, GridPuzzle) and first.regions is None
            and all(type(p) is GridPuzzle and p.box == first.box
                    and p.variants == first.variants and p.regions is None
                    and p.givens.shape == first.givens.shape for p in instances)):
        return GridBatch(first.with_givens(first.givens), np.stack([p.givens for p in instances]))
    return list(instances)


def instances_of(chunk: Any) -> list[Any]:
    """The instances of a chunk (records give their instance)."""
    if isinstance(chunk, ColumnChunk):
        grids = grids_from_rows(chunk.values, chunk.box)  # as ColumnChunk.records builds them
        if grids is None:  # checked when the chunk was read
            raise RuntimeError("a column chunk holds an invalid puzzle (a bug)")
        return grids
    if isinstance(chunk, GridBatch):
        return chunk.puzzles()
    return [getattr(item, "instance", item) for item in chunk]


class EngineCache:
    """The engines a run has opened, kept open from chunk to chunk until :meth:`close`.

    ``arrays``: the dictionary that keeps the engines answering column chunks as arrays
    (a Dask worker passes one kept from task to task; by default this cache's own).
    """

    def __init__(self, arrays: dict[Any, Any] | None = None):
        self.engines: dict[tuple[Any, ...], Any] = {}
        self.arrays: dict[Any, Any] = {} if arrays is None else arrays
        self.owns_arrays = arrays is None
        self.checked: set[tuple[str, str]] = set()

    def check(self, spec: RunSpec, kinds: Iterable[str], names: Iterable[str]) -> None:
        """Each engine takes its instances' kind and the run's settings (once per pair)."""
        for kind, name in set(zip(kinds, names, strict=True)) - self.checked:
            spec.check(name)
            spec.check_task(name, kind)
            self.checked.add((kind, name))

    def for_run(self, spec: RunSpec, name: str, key: Any, first: Any, recurs: bool) -> Any:
        """The engine for a run of instances of shape ``key`` like ``first``: shared by the
        shape when it recurs (or was shared before) and the engine shares, else unshaped."""
        entry = spec.entry(name)
        engine_class: Any = resolve(entry.engine)
        shared = key is not None and ((name, key) in self.engines or (
            recurs and shares_within(engine_class, first, spec.encoding, spec.budget, spec.amo)))
        engine_key = (name, key) if shared else (name, None)
        if engine_key not in self.engines:
            self.engines[engine_key] = open_engine(entry, first if shared else None,
                                                   **spec.engine_options(name))
        return self.engines[engine_key]

    def for_arrays(self, spec: RunSpec, name: str, first: Any) -> Any:
        """The engine answering arrays of ``first``'s shape with engine ``name``, or None
        when that engine has no array call for it."""
        entry = spec.entry(name)
        if not entry.arrays:
            return None
        key = (name, spec.encoding, spec.amo, spec.options, first.kind, first.n, first.box)
        if key not in self.arrays:
            engine: Any = None
            engine_class: Any = resolve(entry.engine)
            if shares_within(engine_class, first, spec.encoding, spec.budget, spec.amo):
                engine = open_engine(entry, first, **spec.engine_options(name))
                if not engine.takes_arrays:
                    engine.close()
                    engine = None
            self.arrays[key] = engine
        return self.arrays[key]

    def close(self) -> None:
        engines = list(self.engines.values())
        if self.owns_arrays:
            engines += [engine for engine in self.arrays.values() if engine is not None]
            self.arrays.clear()
        self.engines.clear()
        for engine in engines:
            engine.close()

    def __enter__(self) -> EngineCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def answer_parts(spec: RunSpec, chunk: Any, engines: EngineCache,
                 pieces: TaskSizer | None = None) -> Iterator[Answers]:
    """The chunk's answers in consecutive parts, each as soon as its engine call returns
    (an unshared engine answers one instance per call, so a slow instance never holds back
    the ones before it).

    A column chunk answered as arrays is one kernel call and a shared engine takes its
    ``batch_size`` a call; given ``pieces`` (the serial run's, kept from chunk to chunk), the
    calls get pieces sized by the time measured so far instead
    (:class:`~sudokit.batch.sizing.TaskSizer`: one instance first, then about
    :data:`~sudokit.batch.sizing.PIECE_SECONDS` of work each), so in a
    chunk of hard instances each answer comes as soon as it is decided, while easy ones
    still go thousands to a call. Where the calls are cut changes no answer.
    """
    if not spec.enumerates:  # a model counter: one instance at a time
        for instance in instances_of(chunk):
            yield _counted(spec, [instance])
        return
    if isinstance(chunk, ColumnChunk) and len(chunk):
        first = chunk.instance(0)
        name = spec.engine_name(first)
        engines.check(spec, (chunk.kind,), (name,))
        engine = engines.for_arrays(spec, name, first)
        if engine is not None:
            yield from _array_pieces(spec, engine, chunk.values, pieces)
            return
    yield from _by_instances(spec, instances_of(chunk), engines, pieces)


def _array_pieces(spec: RunSpec, engine: Any, values: np.ndarray,
                  pieces: TaskSizer | None) -> Iterator[Answers]:
    """``values`` answered by ``engine``'s array call: whole, or cut as ``pieces`` says."""
    parts = getattr(engine, "count_array_parts", None)
    for start, stop in _spans(len(values), pieces):
        calls = ([engine.count_arrays(values[start:stop], spec.count_limit, spec.budget)]
                 if parts is None else parts(values[start:stop], spec.count_limit,
                                             spec.budget))
        for found in calls:
            if pieces is not None:
                pieces.measured(len(found.counts), found.seconds)
            yield Answers.from_arrays(found, spec.keep_solutions)


def _spans(size: int, pieces: TaskSizer | None, most: int | None = None
           ) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive pieces of ``size`` items: at most ``most`` items
    each, and as ``pieces`` sizes them (asked for the next size only once the piece before
    was answered and measured).

    >>> list(_spans(5, None, most=2))
    [(0, 2), (2, 4), (4, 5)]
    """
    start = 0
    while start < size:
        step = size - start if pieces is None else pieces.size(size - start)
        stop = start + (step if most is None else min(step, most))
        yield start, stop
        start = stop


def answer(spec: RunSpec, chunk: Any, engines: EngineCache | None = None) -> Answers:
    """The answers of every instance of ``chunk`` (see the module), in order.

    Examples
    --------
    >>> from sudokit.formats.columns import ColumnChunk
    >>> givens = np.zeros((2, 16), dtype=np.uint8)
    >>> chunk = ColumnChunk(givens, np.array([1, 2]), "sudoku", (2, 2))
    >>> answer(RunSpec.of("count", limit=3), chunk).counts.tolist()
    [3, 3]
    """
    if not isinstance(spec, RunSpec):
        raise InstanceError(f"answer takes a RunSpec (RunSpec.of(\"count\", ...)), not "
                            f"{described(spec)}; sudokit.run_batch answers a list of problems")
    if engines is None:
        with EngineCache() as own:
            return answer(spec, chunk, own)
    parts = list(answer_parts(spec, chunk, engines))
    return Answers.concat(parts) if parts else Answers.concat([_empty(spec)])


def answer_chunks(spec: RunSpec, chunks: Iterable[Any],
                  progress: Callable[[int], None] | None = None,
                  apart: Callable[[Any], Iterable[Run]] | None = None
                  ) -> Iterator[tuple[Any, Answers]]:
    """The serial run: ``(part, answers)`` for consecutive parts of each chunk, in order, as
    each part is answered (``part``: the chunk's items it answers, records or a column
    chunk; arrays in pieces, see :func:`answer_parts`); ``progress`` gets the number of
    instances answered so far.

    ``apart(chunk)`` (``count --method``) cuts a chunk into runs ``(start, stop, answer)``:
    ``answer`` None for a run the engines answer here, else the function that answers that
    part on its own (an empty grid a counting method counts), whose answers come in the
    same order.
    """
    done = 0
    pieces = TaskSizer(first=1, seconds=PIECE_SECONDS)
    with EngineCache() as engines:
        for chunk in chunks:
            runs = [(0, len(chunk), None)] if apart is None else apart(chunk)
            for start, stop, answer_apart in runs:
                run = cut_chunk(chunk, start, stop)
                parts = (answer_parts(spec, run, engines, pieces) if answer_apart is None
                         else [answer_apart(run)])
                offset = 0
                for found in parts:
                    part = cut_chunk(run, offset, offset + len(found))
                    offset += len(found)
                    done += len(found)
                    yield part, found
                    if progress is not None:
                        progress(done)

def _by_instances(spec: RunSpec, instances: list[Any], engines: EngineCache,
                  pieces: TaskSizer | None) -> Iterator[Answers]:
    kinds = [instance.kind for instance in instances]
    shapes = shape_keys(instances, kinds)
    names = spec.engine_names(instances, shapes)
    keys = list(zip(names, shapes, strict=True))
    repeats = Counter(keys)
    engines.check(spec, kinds, names)
    for start, stop in _runs(keys):
        name, key = keys[start]
        run = instances[start:stop]
        engine = engines.for_run(spec, name, key, run[0], repeats[keys[start]] > 1)
        for begin, end in _spans(len(run), pieces, most=engine.batch_size):
            began = time.perf_counter()
            for outcomes in _outcome_parts(spec, engine, run[begin:end]):
                if pieces is not None:
                    pieces.measured(len(outcomes), time.perf_counter() - began)
                yield Answers.from_outcomes(outcomes, spec.keep_solutions)
                began = time.perf_counter()


def _outcome_parts(spec: RunSpec, engine: Any, part: list[Any]) -> Iterable[list[Outcome]]:
    """The outcomes of ``part`` in consecutive parts: as the engine's ``count_parts`` or
    ``solve_parts`` gives them, each as soon as it is decided, or all at once
    (``count_many``, ``solve_many``) from an engine without them."""
    counting = spec.task == "count"
    parts = getattr(engine, "count_parts" if counting else "solve_parts", None)
    if parts is not None:
        found: Iterable[list[Outcome]] = (parts(part, spec.limit, spec.budget) if counting
                                          else parts(part, spec.budget))
        return found
    return [engine.count_many(part, spec.limit, spec.budget) if counting
            else engine.solve_many(part, spec.budget)]


def _counted(spec: RunSpec, instances: list[Any]) -> Answers:
    """A model counter's answers (:data:`~sudokit.counting.COUNTERS`)."""
    count = counter_function(spec.counter)
    taken = COUNTERS[spec.counter].options
    given = {"limit": spec.limit, "encoding": spec.encoding, "amo": spec.amo,
             **dict(spec.options)}
    kwargs = {key: value for key, value in given.items() if key in taken and value is not None}
    return Answers.from_counts([count(instance, spec.budget, **kwargs)
                                for instance in instances], spec.counter)


def _empty(spec: RunSpec) -> Answers:
    return Answers(np.zeros(0, np.int8), np.zeros(0, np.int64),
                   [] if spec.keep_solutions else None, np.zeros(0))


def cut_chunk(chunk: Any, start: int, stop: int) -> Any:
    """Items ``start .. stop-1`` of a chunk (a column chunk cut along its rows)."""
    if isinstance(chunk, ColumnChunk):
        if start == 0 and stop == len(chunk):
            return chunk
        return ColumnChunk(chunk.values[start:stop], chunk.lines[start:stop], chunk.kind,
                           chunk.box)
    if start == 0 and stop == len(chunk):
        return chunk
    return chunk[start:stop]


def _runs(keys: list[Any]) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of each run of equal consecutive keys."""
    start = 0
    for index in range(1, len(keys) + 1):
        if index == len(keys) or keys[index] != keys[start]:
            yield start, index
            start = index

