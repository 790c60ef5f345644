"""Parallel and distributed batches on Dask: ``--jobs N`` (a local cluster of N worker
processes) and ``--scheduler ADDRESS`` (an existing cluster) run ``count``, ``solve``,
``grade`` and ``generate`` in chunks, with the serial run's output. Needs the ``dask``
extra (``pip install "sudokit[dask]"``); nothing here imports dask until a client opens."""

from .cluster import DASK, ClusterError, check_dask, dask_client, worker_count
from .ordered import Chunk, ordered_map
from .runs import (
    GRADE_TASK_SIZE,
    PUZZLES_PER_TASK,
    TASK_SECONDS,
    TASK_SIZE,
    TaskSizer,
    answer_pieces,
    chunk_seed,
    grade_parallel,
    puzzles_parallel,
    run_batch_parallel,
)
from .tasks import ArraySettings

__all__ = ["DASK", "GRADE_TASK_SIZE", "PUZZLES_PER_TASK", "TASK_SECONDS", "TASK_SIZE",
           "ArraySettings", "Chunk", "ClusterError", "TaskSizer", "answer_pieces",
           "check_dask", "chunk_seed", "dask_client", "grade_parallel",
           "ordered_map", "puzzles_parallel", "run_batch_parallel", "worker_count"]
