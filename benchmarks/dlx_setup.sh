#!/usr/bin/env bash
# Create benchmarks/.venv-peers: a virtual environment for the DLX peer benchmark
# (benchmarks/dlx_peers.py) holding this checkout plus the peer exact-cover solvers
# `exact-cover` (C extension, import exact_cover) and `xcover` (numba).
# The peers are NOT sudokit dependencies; they live only in this venv.
#
# Usage (from anywhere):
#   bash benchmarks/dlx_setup.sh && benchmarks/.venv-peers/bin/python benchmarks/dlx_peers.py
#
# Re-running is safe: an existing venv is reused and the packages are (re)installed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv-peers"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv with $("$python" --version 2>&1)" >&2
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
echo "installing sudokit (editable, from $root) and the peers exact-cover, xcover" >&2
"$venv/bin/python" -m pip install --quiet -e "$root" exact-cover xcover
"$venv/bin/python" - <<'PY'
from importlib.metadata import version
for dist in ("sudokit", "exact-cover", "xcover", "numba", "numpy"):
    print(f"{dist} {version(dist)}")
import exact_cover, xcover, sudokit  # noqa: F401  (fail loudly if an import is broken)
PY
echo "ready: $venv/bin/python benchmarks/dlx_peers.py" >&2
