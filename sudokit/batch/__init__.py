"""Many instances in order: the one road by which ``solve``, ``count`` and the library
answer a batch, serially or on a Dask cluster.

- :mod:`.spec`: :class:`RunSpec`, the run's settings, built once and checked once;
- :mod:`.answers`: :class:`Answers`, a chunk's answers as arrays;
- :mod:`.run`: :func:`answer`, the one function that answers a chunk (the serial loop
  :func:`answer_chunks` and every Dask worker call it), and the engines kept open;
- :mod:`.sizing`: how many instances a Dask task or a piece of the serial array road gets;
- :mod:`.functions`: :func:`run_batch` and :func:`count_arrays`, the road as plain calls;
- :mod:`.tasks` (what a worker runs), :mod:`.dask` (cutting and ordering tasks),
  :mod:`.ordered` and :mod:`.cluster` (the Dask client): ``--jobs N`` and ``--scheduler``.
  Needs the ``dask`` extra; nothing here imports dask until a client opens.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> [r.count for r in run_batch([latin_square(np.zeros((2, 2), int))] * 2, task="count")]
[2, 2]
"""

from .answers import STATUSES, Answers
from .functions import InstanceResult, count_arrays, run_batch
from .run import EngineCache, GridBatch, answer, answer_chunks, answer_parts, pack
from .spec import OptionNotTaken, RunSpec

__all__ = ["Answers", "EngineCache", "GridBatch", "InstanceResult", "OptionNotTaken",
           "RunSpec", "STATUSES", "answer", "answer_chunks", "answer_parts", "count_arrays",
           "pack", "run_batch"]
