"""How :mod:`sudokit.solvers.takano`'s kernels see a shape: the model arrays they take and
the scratch of a search, made with numpy alone (the engine sizes and fills them without
importing numba: :mod:`sudokit._accel.native` may run the kernel without it).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.unit_model import unit_model
>>> model = unit_model(sudoku(np.zeros((9, 9), dtype=int)))
>>> [a.shape for a in model_args(model)][:3], level_bytes(model)
([(82,), (1620,), (27, 9)], 1264)
"""

from __future__ import annotations

import weakref

import numpy as np

__all__ = ["grow", "heap_size", "level_bytes", "model_args", "slice_nodes", "work"]


def heap_size(num_values, words):
    """int64 words of a level's heap buckets (counts 0 to ``num_values``, ``words`` each):
    the segments' ORs follow them in ``bst[d]``. (The kernels' copy:
    :func:`sudokit.solvers.takano_rules.heap_size`.)"""
    return (num_values + 1) * words


_ARGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def model_args(model):
    """The model arrays the kernels take, in order: the peer lists and complete units as
    ``uint32``; the ``bits`` table of :mod:`~sudokit.solvers.takano_rules` (per cell its
    complete units and its segments, per segment those whose test reads its OR, as bit sets);
    the groups and links of locked candidates."""
    args = _ARGS.get(model)
    if args is None:
        cells, segments = model.num_cells, len(model.links)
        half = max(model.unit_bits.shape[1], (segments + 63) // 64, 1)
        bits = np.zeros((cells + segments, 2 * half), dtype=np.uint64)
        bits[:cells, :model.unit_bits.shape[1]] = model.unit_bits.view(np.uint64)
        for s in range(segments):
            one = np.uint64(1) << np.uint64(s % 64)
            for cell in model.groups[s]:
                bits[cell, half + s // 64] |= one
            for j in range(2):                       # s is in the rest of its side j's
                for part in model.links[s, j, 2:2 + model.links[s, j, 1]]:  # other segments
                    if part < segments:
                        bits[cells + part, s // 64] |= one
        args = (model.peer_starts.astype(np.uint32), model.peers.astype(np.uint32),
                model.hidden_units.astype(np.uint32), bits.view(np.int64), model.groups,
                model.links)
        _ARGS[model] = args
    return args


def work(model, depth):
    """Scratch for a search of ``depth`` levels: candidate masks; heap buckets and group ORs;
    open cells, branch cell and untried values per level; the queue of fixed cells, the
    ``marks`` of :mod:`~sudokit.solvers.takano_rules` and a clock (unused)."""
    cells = model.num_cells
    half = model_args(model)[3].shape[1] // 2
    return (np.zeros((depth, cells), dtype=np.int64),
            np.zeros((depth, heap_size(model.num_values, model.words) + len(model.groups)),
                     dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(cells + 1, dtype=np.int64),
            np.zeros(4 * half, dtype=np.int64), np.zeros(1, dtype=np.int64))


def grow(work, depth):
    """``work`` with ``depth`` levels, the levels so far copied."""
    return (*(_deeper(a, depth) for a in work[:5]), *work[5:])


def _deeper(levels, depth):
    more = np.zeros((depth, *levels.shape[1:]), dtype=levels.dtype)
    more[:len(levels)] = levels
    return more


def level_bytes(model):
    """Bytes per search level."""
    return 8 * (model.num_cells + heap_size(model.num_values, model.words) + len(model.groups)
                + 3)


def slice_nodes(model):
    """Nodes per kernel call between clock readings (a node costs about a pass over the
    cells)."""
    return max(64, (1 << 21) // max(model.num_cells, 1))
