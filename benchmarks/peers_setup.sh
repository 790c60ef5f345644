#!/usr/bin/env bash
# Set up every peer of benchmarks/cli_throughput.py, outside the repository:
#
#   * the Python peers exact-cover (C extension) and xcover (numba) in benchmarks/.venv-peers,
#     by running benchmarks/dlx_setup.sh (the same venv dlx_peers.py uses);
#   * tdoku (Tom Dillon's SIMD solver): its static library and its run_benchmark program, built
#     with CMake as its BUILD.sh does (-O3 -march=native), plus tdoku_count, a 40-line C driver
#     (written below, adapted from tdoku's example/solve.c) that prints the uniqueness verdict
#     (count with limit 2) of every puzzle of a file, single-threaded;
#   * QQwing 1.3.x (Stephen Ostermiller), its C++ command line program compiled directly with
#     g++ -O2 (autotools' default flags; its Makefile needs autoconf/automake, which are not
#     needed this way: config.h is written here).
#
# Native peers go to PEERS_DIR (default: the folder "peers" next to this checkout, i.e.
# <checkout>/../peers), never into the repository:
#   PEERS_DIR/src/{tdoku,qqwing}   sources (cloned from GitHub unless --tdoku/--qqwing is given)
#   PEERS_DIR/build/{tdoku,qqwing} build trees
#   PEERS_DIR/bin/                 tdoku_count, tdoku_run_benchmark, qqwing
#   PEERS_DIR/VERSIONS             commits, versions, compiler and build commands (key=value)
#
# Usage:
#   bash benchmarks/peers_setup.sh [--peers-dir DIR] [--tdoku SRC] [--qqwing SRC]
#                                  [--skip-python] [--skip-native]
#   SRC is an existing checkout (or unpacked source tree) to build from instead of cloning;
#   its commit is taken from git when it is a checkout, else from a file COMMIT in it.
#   PEERS_DIR, TDOKU_URL and QQWING_URL may also come from the environment.
# Needs: python3 (venv, pip), git (only to clone), cmake, make, gcc, g++.
# Re-running is safe: existing sources and the venv are reused, binaries are rebuilt.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
peers="${PEERS_DIR:-$(cd "$root/.." && pwd)/peers}"
tdoku_src="" qqwing_src="" python_peers=1 native_peers=1
TDOKU_URL="${TDOKU_URL:-https://github.com/t-dillon/tdoku}"
QQWING_URL="${QQWING_URL:-https://github.com/stephenostermiller/qqwing}"

while [ $# -gt 0 ]; do
    case "$1" in
        --peers-dir) peers="$2"; shift 2 ;;
        --tdoku) tdoku_src="$2"; shift 2 ;;
        --qqwing) qqwing_src="$2"; shift 2 ;;
        --skip-python) python_peers=0; shift ;;
        --skip-native) native_peers=0; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' \
                       "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "peers_setup.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

log() { echo "peers_setup: $*" >&2; }
run() { log "+ $*"; "$@"; }

case "$peers/" in
    "$root"/*) echo "peers_setup.sh: PEERS_DIR $peers is inside the repository; choose a" \
                    "folder outside it" >&2; exit 2 ;;
esac

if [ "$python_peers" = 1 ]; then
    log "Python peers (exact-cover, xcover) in $here/.venv-peers via dlx_setup.sh"
    bash "$here/dlx_setup.sh"
fi
[ "$native_peers" = 1 ] || exit 0

for tool in cmake make gcc g++; do
    command -v "$tool" >/dev/null || { echo "peers_setup.sh: $tool not found" >&2; exit 6; }
done
mkdir -p "$peers/src" "$peers/build" "$peers/bin"
peers="$(cd "$peers" && pwd)"

# source_dir NAME URL GIVEN -> prints the source folder (clones into PEERS_DIR/src/NAME when
# GIVEN is empty and no earlier clone exists)
source_dir() {
    local name="$1" url="$2" given="$3"
    if [ -n "$given" ]; then
        [ -d "$given" ] || { echo "peers_setup.sh: $given is not a folder" >&2; exit 3; }
        (cd "$given" && pwd)
    else
        if [ ! -d "$peers/src/$name" ]; then
            command -v git >/dev/null || { echo "peers_setup.sh: git not found" >&2; exit 6; }
            run git clone --quiet --depth 1 "$url" "$peers/src/$name" >&2
        fi
        echo "$peers/src/$name"
    fi
}

commit_of() {
    if [ -e "$1/.git" ]; then git -C "$1" rev-parse HEAD
    elif [ -f "$1/COMMIT" ]; then head -n 1 "$1/COMMIT"
    else echo unknown; fi
}

# ------------------------------------------------------------------------------------ tdoku
tsrc="$(source_dir tdoku "$TDOKU_URL" "$tdoku_src")"
tbuild="$peers/build/tdoku"
log "tdoku from $tsrc (commit $(commit_of "$tsrc"))"
# as tdoku's BUILD.sh: cmake with the project's defaults (OPT=O3, ARCH=native); note that
# tdoku's CMakeLists writes src/build_info.h into its source tree
tdoku_cmake="cmake -S $tsrc -B $tbuild -DOPT=O3 -DARCH=native"
run cmake -S "$tsrc" -B "$tbuild" -DOPT=O3 -DARCH=native >/dev/null
run cmake --build "$tbuild" --target tdoku_static run_benchmark -- -j2 >/dev/null
cp "$tbuild/run_benchmark" "$peers/bin/tdoku_run_benchmark"

cat > "$tbuild/tdoku_count.c" <<'EOF'
/* tdoku_count [--limit N] [FILE|-]: the uniqueness check of every puzzle of FILE with tdoku
 * (TdokuSolverDpllTriadSimd with limit 2, single-threaded). One line per puzzle, as
 * `sudokit count --limit 2` prints it: the puzzle, a space, the count (0, 1, or 2 = "2+").
 * '#' comment lines and blank lines are skipped, CR is stripped, '0' is read as '.';
 * a summary goes to stderr. Adapted from tdoku's example/solve.c, which also re-solves
 * each unique puzzle to print its grid (tdoku returns no grid with a limit above 1). */
#include "tdoku.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    size_t limit = 2;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--limit") && i + 1 < argc) limit = (size_t) atoll(argv[++i]);
        else path = argv[i];
    }
    FILE *in = (path && strcmp(path, "-")) ? fopen(path, "r") : stdin;
    if (!in) { perror(path); return 3; }
    char *line = NULL, solution[81];
    size_t cap = 0, guesses, tally[3] = {0, 0, 0};
    ssize_t len;
    while ((len = getline(&line, &cap, in)) != -1) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len == 0 || line[0] == '#') continue;
        if (len != 81) { fprintf(stderr, "tdoku_count: a line of %zd characters\n", len); return 4; }
        for (int i = 0; i < 81; i++) if (line[i] == '0') line[i] = '.';
        size_t count = TdokuSolverDpllTriadSimd(line, limit, 0, solution, &guesses);
        tally[count < 2 ? count : 2]++;
        printf("%s %zu\n", line, count);
    }
    fprintf(stderr, "tdoku_count: %zu puzzles: %zu with 0 solutions, %zu with 1, %zu with 2+\n",
            tally[0] + tally[1] + tally[2], tally[0], tally[1], tally[2]);
    return 0;
}
EOF
tdoku_driver="gcc -O3 -march=native -I $tsrc/include $tbuild/tdoku_count.c $tbuild/libtdoku_static.a -lstdc++ -lm -o $peers/bin/tdoku_count"
run gcc -O3 -march=native -I "$tsrc/include" "$tbuild/tdoku_count.c" "$tbuild/libtdoku_static.a" \
    -lstdc++ -lm -o "$peers/bin/tdoku_count"

# ----------------------------------------------------------------------------------- QQwing
qsrc="$(source_dir qqwing "$QQWING_URL" "$qqwing_src")"
qbuild="$peers/build/qqwing"
mkdir -p "$qbuild"
qversion="$(grep -oE 'AC_INIT\([^)]*\)' "$qsrc/build/configure.ac" | grep -oE '[0-9]+\.[0-9]+\.[0-9.]+' \
            | head -n 1 || true)"
qversion="${qversion:-unknown}"
log "QQwing $qversion from $qsrc (commit $(commit_of "$qsrc"))"
# what autotools' configure would put in config.h for main.cpp and qqwing.cpp
cat > "$qbuild/config.h" <<EOF
#define VERSION "$qversion"
#define PACKAGE_STRING "qqwing $qversion"
#define HAVE_GETTIMEOFDAY 1
EOF
qqwing_build="g++ -O2 -I $qbuild $qsrc/src/cpp/main.cpp $qsrc/src/cpp/qqwing.cpp -o $peers/bin/qqwing"
run g++ -O2 -I "$qbuild" "$qsrc/src/cpp/main.cpp" "$qsrc/src/cpp/qqwing.cpp" -o "$peers/bin/qqwing"

# ---------------------------------------------------------------------------------- record
{
    echo "tdoku_source=$tsrc"
    echo "tdoku_commit=$(commit_of "$tsrc")"
    echo "tdoku_build=$tdoku_cmake && cmake --build $tbuild --target tdoku_static run_benchmark && $tdoku_driver"
    echo "qqwing_source=$qsrc"
    echo "qqwing_commit=$(commit_of "$qsrc")"
    echo "qqwing_version=$qversion"
    echo "qqwing_build=$qqwing_build"
    echo "compiler=$(g++ --version | head -n 1)"
    echo "cmake=$(cmake --version | head -n 1)"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$peers/VERSIONS"

"$peers/bin/qqwing" --version >&2
log "ready: $peers/bin (tdoku_count, tdoku_run_benchmark, qqwing); versions in $peers/VERSIONS"
log "run: python benchmarks/cli_throughput.py --peers-dir $peers"
