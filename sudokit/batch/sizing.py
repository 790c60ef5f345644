"""How many instances the next piece of a batch gets, by the work measured so far.

:class:`TaskSizer` sizes the tasks a Dask cluster gets (:mod:`sudokit.batch.dask`: about
:data:`TASK_SECONDS` of engine time each) and the pieces the serial array road cuts a chunk
into (:mod:`sudokit.batch.run`: about :data:`PIECE_SECONDS`, starting from one instance, so
a chunk of hard instances answers each as soon as it is decided, and a chunk of easy ones
still goes in a few kernel calls). Where a batch is cut changes no answer: each instance is
answered alone.

Examples
--------
>>> pieces = TaskSizer(first=1, seconds=PIECE_SECONDS)
>>> pieces.size(16384)
1
>>> pieces.measured(1, 30.0)            # a hard instance: the next piece is one again
>>> pieces.size(16384)
1
"""

from __future__ import annotations

import math

__all__ = ["MAX_TASK", "PIECE_SECONDS", "TASK_SECONDS", "TASK_SIZE", "TaskSizer"]

#: instances in each of the first tasks of ``solve`` and ``count`` (before the engine's time
#: per instance is known)
TASK_SIZE = 2048

#: the engine time a task of ``solve`` or ``count`` aims at once its speed is measured
TASK_SECONDS = 0.5

#: the most instances a task of ``solve`` or ``count`` gets (a reader's chunk: 16,384)
MAX_TASK = 1 << 14

#: the engine time a piece of the serial array road aims at: answers reach the output (and the
#: progress line) at least about this often, whatever the chunk holds
PIECE_SECONDS = 0.25


class TaskSizer:
    """How many instances the next task of a chunk gets (see the module). Until a task has
    finished, each task is twice the one before (``first``, then ``2*first``, ...: the tasks
    in flight before the first answer are few and not all small); then the time per
    instance is measured over the finished tasks, the first left out once there are others
    (a fresh worker's first task also loads its engine's kernels).

    >>> sizer = TaskSizer(first=2048, workers=2)
    >>> sizer.size(16384), sizer.size(16384), sizer.size(16384)
    (2048, 4096, 8192)
    >>> sizer.measured(2048, 0.032)   # 16 µs an instance: 0.5 s is 32,000, half a chunk
    >>> sizer.size(16384), sizer.size(1000)
    (8192, 500)
    >>> TaskSizer(fixed=256).size(16384)
    256
    """

    def __init__(self, first: int = TASK_SIZE, workers: int = 1,
                 seconds: float = TASK_SECONDS, fixed: int | None = None):
        self.first, self.workers, self.seconds, self.fixed = first, workers, seconds, fixed
        self.items = 0
        self.spent = 0.0
        self.opening: tuple[int, float] | None = None  # the first task measured
        self.blind = 0  # tasks sized before any was measured

    def measured(self, items: int, seconds: float) -> None:
        """A finished task of ``items`` instances took the engine ``seconds``."""
        if self.opening is None:
            self.opening = (items, seconds)
        self.items += items
        self.spent += seconds

    def size(self, window: int) -> int:
        """The size of the next task of a chunk of ``window`` instances."""
        if self.fixed is not None:
            return self.fixed
        share = min(MAX_TASK, math.ceil(window / self.workers))  # every worker gets some
        if self.opening is None:  # nothing measured yet: 2,048, then twice as many each time
            self.blind += 1
            return min(self.first << (self.blind - 1), max(share, self.first), window)
        items, spent = self.items, self.spent
        if items > self.opening[0]:  # others measured: the first left out
            items, spent = items - self.opening[0], spent - self.opening[1]
        if spent <= 0:
            return share
        wanted = int(self.seconds * items / spent)
        return max(1, min(share, max(wanted, self.first // 8)))
