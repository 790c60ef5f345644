"""The package's numba decorator, :func:`njit`: numba's disk cache in sudokit's own folders.

Every kernel is ``numba.njit`` with a :class:`KernelCache`, a ``numba.core.caching``
``FunctionCache`` that differs from numba's own in three ways:

* **Where.** It reads the prebuilt folder that ``pip install`` fills and the user folder
  (:mod:`sudokit._accel.locations`), and writes only the user folder: never next to the
  sources, so nothing is left inside site-packages and an editable install shares the
  kernels an installed copy compiled.
* **When it is stale.** numba stamps a kernel with its own source file only. A kernel that
  calls kernels of other modules is compiled with those callees inside it (the grading
  engine calls the BC and HAC kernels, shaving calls the engine), so an edit to a callee must
  make the caller compile again. The stamp here is one digest of every file a kernel can
  depend on (:func:`~sudokit._accel.sources.kernel_sources`: the modules that define kernels
  and, transitively, what they import from the package); it is content, not file times, so a
  copy installed by pip matches the kernels compiled when it was built.
* **Whom it trusts.** Index and data files are read only when they are private to this user
  (or, in the prebuilt folder, root's) and written 0600 without following links
  (:func:`~sudokit._accel.locations.read_private`); a file that fails is ignored, and the
  kernel compiles.

In the command line (:func:`sudokit._accel.command_line`), a kernel found in a cache is loaded
without numba's target refresh first (which imports and registers every implementation
numba has, ~0.1 s, although cached machine code needs none of them) and without numba's BLAS
probe (``scipy.linalg``, 0.2-0.5 s).

"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
import warnings
from pathlib import Path

import numba
import numba.core.caching as caching
import numba.core.event

from . import families, locations, mode
from .sources import sources_digest

__all__ = ["KernelCache", "njit"]

_PACKAGE = Path(__file__).resolve().parent.parent


class _PrivateIndexFile(caching.IndexDataCacheFile):
    """numba's index and data files, read and written as private files only."""

    def __init__(self, cache_path: str, filename_base: str, source_stamp: str,
                 allow_root: bool) -> None:
        super().__init__(cache_path, filename_base, source_stamp)
        self._allow_root = allow_root

    def _load_index(self) -> dict:
        try:
            data = locations.read_private(self._index_path, self._allow_root)
        except OSError:           # missing, or not private: nothing cached here
            return {}
        try:
            stream = io.BytesIO(data)
            if pickle.load(stream) != self._version:   # another numba: do not unpickle on
                return {}
            stamp, overloads = pickle.loads(stream.read())
        except Exception:  # noqa: BLE001 - a damaged index is an empty one
            return {}
        return overloads if stamp == self._source_stamp else {}

    def _load_data(self, name: str):
        return pickle.loads(locations.read_private(self._data_path(name), self._allow_root))

    def _save_index(self, overloads: dict) -> None:
        data = pickle.dumps(self._version, protocol=-1) + self._dump(
            (self._source_stamp, overloads))
        locations.write_private(self._index_path, data)

    def _save_data(self, name: str, data) -> None:
        locations.write_private(self._data_path(name), self._dump(data))


class KernelCache(caching.FunctionCache):
    """numba's per-function disk cache, in sudokit's folders (see the module)."""

    def __init__(self, py_func) -> None:  # numba's Cache.__init__ picks numba's own places
        self._name = repr(py_func)
        self._py_func = py_func
        self._lineno = py_func.__code__.co_firstlineno
        self._module_folder = Path(py_func.__code__.co_filename).resolve().parent
        module = py_func.__module__.rpartition(".")[2]   # a factory's kernels: their method's
        qualname = py_func.__qualname__.replace("<", "").replace(">", "")
        self._filename_base = (f"{module}.{qualname}-{self._lineno}.py{sys.version_info[0]}"
                               f"{sys.version_info[1]}{getattr(sys, 'abiflags', '')}")
        self._files = [self._file(root, allow_root=True)
                       for root in [locations.prebuilt_root()] if root is not None]
        user = locations.user_root()
        self._writable = self._file(user, allow_root=False) if user is not None else None
        if self._writable is not None:
            self._files.insert(0, self._writable)
        self._cache_path = str(self._folder(user)) if user is not None else ""
        self._impl = _Impl(py_func, self)
        self.enable()

    def _folder(self, root: Path) -> Path:
        relative = self._module_folder.relative_to(_PACKAGE) if self._module_folder.is_relative_to(
            _PACKAGE) else Path("_elsewhere", hashlib.sha256(
                str(self._module_folder).encode()).hexdigest()[:16])
        # one folder per version of the kernel sources: two installations of different code
        # (two venvs, two checkouts) sharing the user folder would otherwise overwrite each
        # other's index at every run and compile again each time
        return root / "numba" / sources_digest()[:16] / relative

    def _file(self, root: Path, allow_root: bool) -> _PrivateIndexFile:
        return _PrivateIndexFile(str(self._folder(root)), self._filename_base,
                                 sources_digest(), allow_root)

    def _index_key(self, sig, codegen):
        """numba's key, but a closure's kernels (:func:`sudokit.solvers.cp_search.search_kernels`)
        keyed by their names: numba pickles a closure's cells, and a pickled kernel carries an
        id new in every process, so its entry would never be found again. Their content is in
        the stamp (:func:`~sudokit._accel.sources.sources_digest`)."""
        closure = self._py_func.__closure__
        if not closure:
            return super()._index_key(sig, codegen)
        names = []
        for cell in closure:
            value = cell.cell_contents
            func = getattr(value, "py_func", None)
            names.append(f"{func.__module__}:{func.__qualname__}" if func is not None
                         else repr(value))
        return (sig, codegen.magic_tuple(), (
            hashlib.sha256(self._py_func.__code__.co_code).hexdigest(),
            hashlib.sha256(repr(names).encode()).hexdigest()))

    def load_overload(self, sig, target_context):
        if mode.active():
            # cached machine code needs the runtime (NRT) only, not numba's whole target;
            # anything amiss, and numba's own way below decides
            try:
                from numba.core.runtime import rtsys

                rtsys.initialize(target_context)
                found = self._load_overload(sig, target_context)
                if found is not None:
                    return found
            except Exception:  # noqa: BLE001
                pass
            mode.refresh_target_without_blas_probe()
        target_context.refresh()
        return self._load_overload(sig, target_context)

    def _load_overload(self, sig, target_context):
        if not self._enabled:
            return None
        key = self._index_key(sig, target_context.codegen())
        for file in self._files:
            data = file.load(key)
            if data is not None:
                return self._impl.rebuild(target_context, data)
        return None

    def save_overload(self, sig, data) -> None:
        if not self._enabled or self._writable is None or not self._impl.check_cachable(data):
            return
        try:
            locations.make_private_folder(Path(self._cache_path))
            with families.locked(Path(self._cache_path)):
                self._writable.save(self._index_key(sig, data.codegen), self._impl.reduce(data))
        except OSError as err:
            warnings.warn(f"sudokit: cannot cache a compiled kernel in {self._cache_path} "
                          f"({err})", RuntimeWarning, stacklevel=2)

    def flush(self) -> None:
        if self._writable is not None:
            self._writable.flush()


class _Impl(caching.CompileResultCacheImpl):
    """numba's (de)serialisation of compiled kernels, without its search for a place."""

    def __init__(self, py_func, cache: KernelCache) -> None:  # noqa: D107 - no locator search
        self._lineno = cache._lineno
        self._filename_base = cache._filename_base
        self._locator = _Where(py_func)


class _Where:
    """What numba's warning about an uncachable kernel reads of a locator."""

    def __init__(self, py_func) -> None:
        self._py_file = py_func.__code__.co_filename


class _CompileNotice(numba.core.event.Listener):
    """Tells :func:`sudokit._accel.mode.compiling` when one of the package's kernels starts
    and ends compiling in this process (numba raises ``numba:compile`` only when a kernel is
    not found in a cache)."""

    def on_start(self, event) -> None:
        module = _kernel_module(event)
        if module:
            mode.compiling(module, True)

    def on_end(self, event) -> None:
        module = _kernel_module(event)
        if module:
            mode.compiling(module, False)


def _kernel_module(event) -> str:
    data = event.data if isinstance(event.data, dict) else {}
    func = getattr(data.get("dispatcher"), "py_func", None)
    module = getattr(func, "__module__", "") or ""
    return module if module.startswith("sudokit.") else ""


numba.core.event.register("numba:compile", _CompileNotice())


def njit(func=None, **options):
    """``numba.njit`` with the package's disk cache (:class:`KernelCache`): the decorator of
    every kernel. Used as ``@njit`` or ``@njit(**options)`` (passed on to numba).

    Examples
    --------
    >>> @njit
    ... def twice(x):
    ...     return 2 * x
    >>> twice(21)
    42
    """
    if func is None:
        return lambda f: njit(f, **options)
    dispatcher = numba.njit(**options)(func)
    if numba.config.DISABLE_JIT:
        return dispatcher        # the kernels as plain Python: nothing to cache
    dispatcher._cache = KernelCache(dispatcher.py_func)
    return dispatcher
