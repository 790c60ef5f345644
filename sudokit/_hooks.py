"""Hooks the command line sets for the library, kept in a module that imports nothing.

``compile_notice``: called once per process, with the kernel's module name, when a numba
kernel about to be compiled is not in the disk cache (the first run after installing or
upgrading takes several seconds there; the CLI says so on stderr). None: say nothing, as a
library should.
"""

from __future__ import annotations

from collections.abc import Callable

compile_notice: Callable[[str], None] | None = None
