"""Bit counting for the search kernels: ``popcount`` and ``lowest_bit_index`` of an int64 mask.

The candidate sets of :mod:`sudokit.solvers.takano` and :mod:`sudokit.solvers.bitset` are
``int64`` masks (bit ``v - 1`` for value ``v``; bit 63 is the sign bit, which the bit
operations do not mind). Compiled, both functions are single LLVM instructions (``ctpop``,
``cttz``: POPCNT and TZCNT on x86-64); under ``NUMBA_DISABLE_JIT=1`` they are plain Python
with the same results, so the kernels give the same answers either way.

Examples
--------
>>> import numpy as np
>>> popcount(np.int64(0b1011)), lowest_bit_index(np.int64(0b1000))
(3, 3)
>>> popcount(np.int64(-1)), lowest_bit_index(np.int64(0))
(64, 64)
"""

from __future__ import annotations

import numba

__all__ = ["popcount", "lowest_bit_index"]

_MASK = (1 << 64) - 1

if getattr(numba.config, "DISABLE_JIT", False):
    def popcount(x):
        """Number of set bits of an int64 mask."""
        return (int(x) & _MASK).bit_count()

    def lowest_bit_index(x):
        """Index of the lowest set bit of an int64 mask (64 for 0)."""
        y = int(x) & _MASK
        return (y & -y).bit_length() - 1 if y else 64
else:
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba import types
    from numba.extending import intrinsic

    from .._accel.numba_cache import njit

    @intrinsic
    def _ctpop(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(x)

        def codegen(context, builder, signature, args):
            value = context.cast(builder, args[0], x, types.int64)
            fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
            return builder.call(fn, [value])
        return sig, codegen

    @intrinsic
    def _cttz(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(x)

        def codegen(context, builder, signature, args):
            value = context.cast(builder, args[0], x, types.int64)
            fn = builder.module.declare_intrinsic("llvm.cttz",
                                                  [ir.IntType(64), ir.IntType(1)])
            return builder.call(fn, [value, ir.Constant(ir.IntType(1), 0)])
        return sig, codegen

    @njit(inline="always")
    def popcount(x):
        """Number of set bits of an int64 mask (``llvm.ctpop``)."""
        return _ctpop(x)

    @njit(inline="always")
    def lowest_bit_index(x):
        """Index of the lowest set bit of an int64 mask, 64 for 0 (``llvm.cttz``)."""
        return _cttz(x)
