"""Kernels run without importing numba: numba's machine code for a kernel, kept as an object
file and linked in with llvmlite alone.

A command that runs a numba kernel pays about 0.15-0.2 s before the kernel starts:
``import numba`` (0.15 s here) and loading its cached kernels. For the uniqueness check of a
file of 9x9 puzzles that is a fifth of the whole run. So the hottest kernel of the command
line, the batch count of :mod:`sudokit.solvers.takano` (the default engine of grids up to
16x16), and the DLX kernels that counting exact-cover instances takes
(:mod:`sudokit.solvers.dlx`), are also compiled by numba as C-callable functions: each a
``cfunc`` that takes a pointer and the shape of each array and calls the kernel on
``numba.carray`` views of them. The parameters are numba's own: the one signature numba
compiled the kernel for in the building process (:func:`signature`), recorded in the file.
Its object code (the kernel and everything it calls, compiled in) is written to a cache
file. The next process reads that file and links the
object into an llvmlite MCJIT engine (about 30 ms, importing llvmlite included) and calls
the function through ctypes: the same machine code, without numba.

* **Built** when ``pip install`` builds the package (into the prebuilt folder), and by the
  command line (:func:`sudokit._accel.mode.command_line`) in a process that ran the kernel
  through numba without finding its file (:func:`after_numba`, about 1-2 s a kernel with
  numba already loaded; a kernel not run yet waits for a process that runs it). A library
  never builds.
* **Used** (:func:`native_kernel`) only while numba is not imported: where numba is loaded
  already, its own dispatcher is as fast to call.
* **Keyed** (:func:`cache_key`) on the kernels' sources (their content:
  :func:`~sudokit._accel.sources.sources_digest`), Python, numba and llvmlite, and the CPU
  (name and features): any change misses and the kernel runs through numba, which builds the
  file again.
* **Safe to load**: only from a private file (:func:`~sudokit._accel.locations.read_private`:
  this user's, or root's in the prebuilt folder, and writable by nobody else); the file
  records its checksum and every symbol the object needs. Each symbol must resolve before
  the object is linked (numba's C helpers, read from numba's extension
  modules without importing numba; the C library and Python's C API from this process), or
  the kernel runs through numba. ``SUDOKIT_NATIVE=0`` turns all of this off.

The files live in ``native/`` of the prebuilt and the user folder
(:mod:`sudokit._accel.locations`).

Examples
--------
>>> KERNELS["takano-batch"].kernel
'sudokit.solvers.takano:batch'
>>> len(cache_key(KERNELS["takano-batch"]))
64
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import json
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import locations, mode
from .sources import environment_digest

__all__ = ["KERNELS", "NativeKernel", "after_numba", "build", "build_quietly", "cache_key",
           "load", "native_kernel", "signature"]

_MAGIC = b"sudokit-native-1\n"


@dataclass(frozen=True)
class NativeKernel:
    """A kernel that can run without numba: ``kernel`` names an ``njit`` kernel
    (``"module:function"``) that allocates nothing and returns an integer or nothing (then
    the function returns 0). Its parameters are read from numba when it is built
    (:func:`signature`): integers and C-contiguous arrays."""

    name: str
    kernel: str


_DLX = "sudokit.solvers.dlx_kernel:"

#: the kernels that run without numba, by name: takano's batch count (the default engine of
#: grids up to 16x16) and what counting exact-cover instances with DLX takes
KERNELS: dict[str, NativeKernel] = {kernel.name: kernel for kernel in (
    NativeKernel("takano-batch", "sudokit.solvers.takano:batch"),
    NativeKernel("dlx-fill-links", _DLX + "_fill_links"),
    NativeKernel("dlx-cover-preselected", _DLX + "cover_preselected"),
    NativeKernel("dlx-count-slice", _DLX + "count_slice"),
    NativeKernel("dlx-unwind", _DLX + "unwind"),
    NativeKernel("dlx-uncover-preselected", _DLX + "uncover_preselected"),
    NativeKernel("dlx-solve-batch", _DLX + "solve_batch"),
)}


def signature(kernel: NativeKernel) -> tuple[list[str], bool] | None:
    """The parameters of ``kernel`` as numba compiled it in this process, each ``"int"`` (an
    integer, passed as int64) or ``"<dtype>:<ndim>"`` (a C-contiguous array), and whether it
    returns a value; None unless numba compiled it for exactly one such signature here (it
    has not run yet, or ran with arguments a C function cannot take as they are).

    Examples
    --------
    >>> found = signature(KERNELS["dlx-unwind"])   # None until numba ran it in this process
    >>> found is None or found == (["int32:1"] * 6 + ["int64:1"], False)
    True
    """
    from numba.core import types

    module_name, function_name = kernel.kernel.split(":")
    dispatcher: Any = getattr(sys.modules.get(module_name), function_name, None)
    if not hasattr(dispatcher, "nopython_signatures"):   # not imported, or plain Python
        return None
    star = dispatcher.py_func.__code__.co_flags & inspect.CO_VARARGS   # f(*args): one tuple
    found = set()
    for compiled in dispatcher.nopython_signatures:
        args: Any = compiled.args
        if star and len(args) == 1 and isinstance(args[0], types.BaseTuple):
            args = args[0]
        params = tuple(_param(arg, types) for arg in args)
        returned = compiled.return_type
        if None not in params and (returned == types.none
                                   or isinstance(returned, types.Integer)):
            found.add((params, returned != types.none))
    if len(found) != 1:
        return None
    params, returns = found.pop()
    return [str(param) for param in params], returns


def _param(arg: Any, types: Any) -> str | None:
    """A parameter's numba type as :func:`signature` names it; None when a C function cannot
    take it as it is."""
    if isinstance(arg, types.Integer):
        return "int"
    if isinstance(arg, types.Array) and arg.layout == "C" and isinstance(arg.dtype,
                                                                         types.Integer):
        return f"{arg.dtype}:{arg.ndim}"
    return None


def _arrays(params: list[str]) -> dict[int, tuple[str, int]]:
    """``{position: (dtype, ndim)}`` of the array parameters."""
    found = {}
    for position, param in enumerate(params):
        if param != "int":
            dtype, ndim = param.split(":")
            found[position] = (dtype, int(ndim))
    return found


_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _valid(params: Any) -> bool:
    """Whether ``params`` read from a cache file are parameters :func:`signature` gives."""
    if not isinstance(params, list):
        return False
    for param in params:
        dtype, _, ndim = str(param).partition(":")
        if param != "int" and not (dtype in _DTYPES and ndim.isdigit() and 0 < int(ndim) <= 8):
            return False
    return True


def _enabled() -> bool:
    """On unless ``SUDOKIT_NATIVE=0`` or ``NUMBA_DISABLE_JIT`` asks for the kernels as plain
    Python; Linux only (where this process's own symbols, the C library's and Python's, are
    looked up with ``dlsym``, and where it is tested)."""
    return (os.environ.get("SUDOKIT_NATIVE", "1") != "0"
            and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")
            and sys.platform.startswith("linux"))


@functools.cache
def native_kernel(name: str) -> Callable[..., int] | None:
    """The kernel ``name`` of :data:`KERNELS` as a function of the njit kernel's arguments,
    run without numba; None when numba is imported already, when this is off
    (``SUDOKIT_NATIVE=0``), or when no sound cache file is there (then run the njit kernel)."""
    if not _enabled() or "numba" in sys.modules:
        return None
    return load(KERNELS[name])


def load(kernel: NativeKernel, root: Path | None = None) -> Callable[..., int] | None:
    """Link ``kernel``'s cache file (from ``root``, else the cache folders) and return its
    function, or None when there is no sound file for this key or a symbol is missing."""
    try:
        import llvmlite.binding as llvm
    except ImportError:
        return None
    key = cache_key(kernel)
    for folder, allow_root in [(root, False)] if root is not None else _roots():
        path = folder / _file_name(kernel, key)
        try:
            data = locations.read_private(path, allow_root)
        except OSError:
            continue
        header, _, obj = data[len(_MAGIC):].partition(b"\n")
        try:
            meta = json.loads(header)
        except ValueError:
            return None
        if not (data.startswith(_MAGIC) and isinstance(meta, dict) and meta.get("key") == key
                and hashlib.sha256(obj).hexdigest() == meta.get("sha256")):
            return None
        params, returns = meta.get("params"), meta.get("returns")
        if not (isinstance(params, list) and _valid(params) and isinstance(returns, bool)):
            return None
        try:
            address = _link(llvm, obj, str(meta["symbol"]), list(meta["externals"]))
        except Exception:  # noqa: BLE001 - a cache file llvmlite refuses: numba runs it
            return None
        return None if address is None else _caller(kernel, address, params, returns)
    return None


def build(kernel: NativeKernel, root: Path | None = None) -> Path | None:
    """Compile ``kernel`` as a C-callable function (with numba, for the one signature numba
    compiled it for in this process: :func:`signature`) and write its cache file to ``root``
    (else the first writable cache folder); the file, or None when the kernel has no such
    signature yet, the file cannot be written or the object needs a symbol this module
    cannot give."""
    import numba
    from numba import types

    found = signature(kernel)
    if found is None:
        return None
    params, returns = found
    module_name, function_name = kernel.kernel.split(":")
    target = getattr(importlib.import_module(module_name), function_name)
    names: list[str] = []
    argtypes: list[Any] = []
    call: list[str] = []
    arrays = _arrays(params)
    for position in range(len(params)):
        if position not in arrays:
            names.append(f"a{position}")
            argtypes.append(types.int64)
            call.append(f"a{position}")
            continue
        dtype, ndim = arrays[position]
        shape = [f"a{position}_{axis}" for axis in range(ndim)]
        names += [f"a{position}", *shape]
        argtypes += [types.CPointer(getattr(types, dtype)), *[types.int64] * ndim]
        call.append(f"carray(a{position}, ({', '.join(shape)},))")
    namespace: dict[str, Any] = {"kernel": target, "carray": numba.carray,
                                 "__name__": __name__}
    body = f"kernel({', '.join(call)})"
    body = f"return {body}" if returns else f"{body}\n    return 0"
    exec(f"def entry({', '.join(names)}):\n    {body}\n", namespace)  # noqa: S102
    compiled: Any = numba.cfunc(types.int64(*argtypes))(namespace["entry"])
    library = compiled._library
    externals = _externals(library.get_llvm_str())
    if not externals <= _resolvable(externals):
        return None
    obj = library._get_compiled_object()
    meta = {"key": cache_key(kernel), "symbol": compiled._wrapper_name,
            "externals": sorted(externals), "sha256": hashlib.sha256(obj).hexdigest(),
            "params": params, "returns": returns}
    payload = _MAGIC + json.dumps(meta).encode() + b"\n" + obj
    for folder in [root] if root is not None else _writable_roots():
        try:
            locations.make_private_folder(folder)
            path = folder / _file_name(kernel, meta["key"])
            locations.write_private(path, payload)  # whole or absent, whoever builds too
            # files of older keys for this CPU go (a folder shared by machines keeps theirs)
            for stale in folder.glob(f"{kernel.name}-{_cpu_tag()}-*.bin"):
                if stale != path:
                    stale.unlink(missing_ok=True)
            return path
        except OSError:
            continue
    return None


def after_numba(*names: str) -> None:
    """In the command line (:func:`sudokit._accel.mode.command_line`), once numba has run
    the kernels ``names``: build the copies that are missing (:func:`build_quietly`), so the
    next runs skip numba. Elsewhere, or while numba is not loaded, nothing."""
    if mode.active() and "numba" in sys.modules:
        for name in names:
            build_quietly(name)


_SETTLED: set[str] = set()   # the kernels build_quietly found or built (or failed to)


def build_quietly(name: str) -> None:
    """Build kernel ``name`` unless a cache file for its key is there (once per process,
    once numba has run it here; for the command line). A failure to build is a warning: the
    kernel runs through numba."""
    if name in _SETTLED:
        return
    kernel = KERNELS[name]
    key = cache_key(kernel)
    if any((folder / _file_name(kernel, key)).is_file() for folder, _ in _roots()):
        _SETTLED.add(name)
        return
    if signature(kernel) is None:
        return                    # not run through numba here yet: a later call builds it
    _SETTLED.add(name)
    try:
        build(kernel)
    except Exception as err:  # noqa: BLE001 - numba's internals changed: the copy is optional
        warnings.warn(f"sudokit: cannot build the numba-free copy of {name} ({err}); the "
                      "kernel runs through numba", RuntimeWarning, stacklevel=2)


def cache_key(kernel: NativeKernel) -> str:
    """What a cache file must have been built with (see the module)."""
    digest = hashlib.sha256(environment_digest().encode())
    digest.update(repr(kernel).encode())
    return digest.hexdigest()


def _file_name(kernel: NativeKernel, key: str) -> str:
    return f"{kernel.name}-{_cpu_tag()}-{key[:20]}.bin"


@functools.cache
def _cpu_tag() -> str:
    """This machine's CPU in a file name: its name and a digest of its features."""
    import llvmlite.binding as llvm

    features = hashlib.sha256(llvm.get_host_cpu_features().flatten().encode()).hexdigest()
    return f"{llvm.get_host_cpu_name()}.{features[:8]}".replace(os.sep, "_")


def _roots() -> list[tuple[Path, bool]]:
    """The folders to load from, each with whether root may own its files: the prebuilt
    folder first, then the user's."""
    found = [(root / "native", True) for root in [locations.prebuilt_root()] if root]
    return found + [(folder, False) for folder in _writable_roots()]


def _writable_roots() -> list[Path]:
    user = locations.user_root()
    return [] if user is None else [user / "native"]


def _externals(ir: str) -> set[str]:
    """The symbols an LLVM module's text declares but does not define (intrinsics aside)."""
    found = set()
    for line in ir.splitlines():
        if line.startswith("declare "):
            name = line.split("@", 1)[1].split("(", 1)[0]
        elif line.startswith("@") and " = external " in line:
            name = line[1:].split(" ", 1)[0]
        else:
            continue
        name = name.strip('"')
        if not name.startswith("llvm."):
            found.add(name)
    return found


#: numba's C helpers: (extension module, its file under numba's folder, symbol prefix)
_HELPERS = (("numba._helperlib", "_helperlib", "numba_"),
            ("numba.core.runtime._nrt_python", "core/runtime/_nrt_python", "NRT_"))


@functools.cache
def _helper_symbols() -> dict[str, int]:
    """numba's C helpers by symbol name, read from its extension modules (imported alone,
    without the numba package, when numba is not loaded)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return {}
    folder = Path(spec.origin).parent
    symbols: dict[str, int] = {}
    for module_name, relative, prefix in _HELPERS:
        module = sys.modules.get(module_name)
        if module is None:
            files = [path for suffix in importlib.machinery.EXTENSION_SUFFIXES
                     if (path := folder / (relative + suffix)).is_file()]
            if not files:
                continue
            loader = importlib.machinery.ExtensionFileLoader(module_name, str(files[0]))
            module = importlib.util.module_from_spec(
                importlib.util.spec_from_loader(module_name, loader))  # type: ignore[arg-type]
            loader.exec_module(module)
        symbols.update({prefix + name: int(address)
                        for name, address in getattr(module, "c_helpers", {}).items()})
    return symbols


def _resolvable(names: set[str]) -> set[str]:
    """Those of ``names`` that numba's helpers or this process (the C library, Python's C
    API) define."""
    return {name for name in names if _symbol_address(name) is not None}


def _symbol_address(name: str) -> int | None:
    """Where numba's helpers or this process define ``name``, or None."""
    import ctypes

    helpers = _helper_symbols()
    if name in helpers:
        return helpers[name]
    try:
        return ctypes.cast(ctypes.CDLL(None)[name], ctypes.c_void_p).value
    except AttributeError:
        return None


_ENGINES: list[Any] = []  # the MCJIT engines linked, kept alive with their code


def _link(llvm: Any, obj: bytes, symbol: str, externals: list[str]) -> int | None:
    for name in externals:
        if llvm.address_of_symbol(name):
            continue
        address = _symbol_address(name)
        if address is None:
            return None  # linking would stop the process: the kernel runs through numba
        llvm.add_symbol(name, address)
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(),
        codemodel="jitdefault")
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
    engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    address = engine.get_function_address(symbol)
    if not address:
        return None
    _ENGINES.append(engine)
    return int(address)


def _caller(kernel: NativeKernel, address: int, params: list[str],
            returns: bool) -> Callable[..., int]:
    """A Python function of the njit kernel's arguments (``params``) that calls the C
    function at ``address`` (arrays checked for their dtype, rank and layout: a wrong one
    would be read as the wrong memory)."""
    import ctypes

    import numpy as np

    pointer, integer = ctypes.c_void_p, ctypes.c_int64
    argtypes: list[Any] = []
    arrays = {position: (np.dtype(dtype), ndim)
              for position, (dtype, ndim) in _arrays(params).items()}
    for position in range(len(params)):
        argtypes += [integer] if position not in arrays else \
            [pointer, *[integer] * arrays[position][1]]
    function = ctypes.CFUNCTYPE(integer, *argtypes)(address)

    def call(*args: Any) -> int:
        if len(args) != len(params):
            raise TypeError(f"{kernel.name} takes {len(params)} arguments")
        flat: list[Any] = []
        for position, value in enumerate(args):
            if position not in arrays:
                flat.append(int(value))
                continue
            dtype, ndim = arrays[position]
            if not (isinstance(value, np.ndarray) and value.dtype == dtype and
                    value.ndim == ndim and value.flags.c_contiguous):
                raise TypeError(f"{kernel.name}: argument {position} must be a C-contiguous "
                                f"{dtype} array of {ndim} dimensions")
            flat += [value.ctypes.data, *value.shape]
        return int(function(*flat))

    call.__name__ = kernel.name
    call.params = tuple(params)  # type: ignore[attr-defined]
    return call
