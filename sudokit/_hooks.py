"""Hooks the command line sets for the library, kept in a module that imports nothing.

``compile_notice``: called once per process, with the kernel's module name, when a numba
kernel about to be compiled is not in the disk cache (the first run after installing or
upgrading takes several seconds there; the CLI says so on stderr). None: say nothing, as a
library should.

``quick_numba_start``: see below.
"""

from __future__ import annotations

from collections.abc import Callable

compile_notice: Callable[[str], None] | None = None

#: True in the command line's own process: :mod:`sudokit._numba` may then set numba's target up
#: without its BLAS probe, which imports ``scipy.linalg`` (0.3-0.5 s) for ``np.dot`` on floats,
#: a thing no kernel of the package does. A library leaves numba's behaviour alone.
quick_numba_start: bool = False
