"""Start-up machinery of the compiled kernels: where they are cached, whom a cache is trusted
from, and how the command line gets them compiled before it needs them.

* :mod:`.numba_cache` -- :func:`~.numba_cache.njit`, the decorator of every kernel: numba's
  disk cache in sudokit's own folders, stamped with the content of every kernel source.
* :mod:`.native` -- the hottest kernels as object files linked without importing numba.
* :mod:`.locations` -- the prebuilt folder (filled by ``pip install``) and the user folder,
  and the ownership and mode checks every cache file passes before it is loaded.
* :mod:`.families` -- markers that say which kernel families are compiled for this
  environment, and the lock that serialises writes to a cache.
* :mod:`.sources` -- the digest of the kernel sources and of the environment.
* :mod:`.mode` -- the command line's behaviour, switched on by one ``with
  mode.command_line(...)`` around each command.

Nothing here imports the rest of the package; the command line's registry of kernel families
and what compiles each is :mod:`sudokit.cli.kernels`.
"""
