#!/usr/bin/env bash
# Regenerates the pictures of docs/benchmarks.md (docs/img/*.svg) from fresh
# zest-bench runs: one against the system libzstd and, when
# ZEST_REFERENCE_LIBZSTD names a folder holding another libzstd.so.1 (the
# newest release, for example), one against that one too.
#
#   ZEST_REFERENCE_LIBZSTD=/path/to/libzstd-1.5.7 bash scripts/bench_plots.sh
#
# The runs' raw timings stay in build/bench-plots/*.json. Needs matplotlib
# (Debian: python3-matplotlib). Extra arguments go to every zest-bench run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target zest_bench

py=python3
"$py" -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
"$py" -c 'import matplotlib' 2>/dev/null || {
    echo "bench_plots.sh: needs matplotlib (apt-get install python3-matplotlib)" >&2
    exit 1
}

out=build/bench-plots
mkdir -p "$out" docs/img
# Compression at every level for the speed/ratio picture; decompression of
# the frames of levels 1, 3 and 19, the columns, the streams and the
# messages for the per-workload ones.
args=(--pin "${ZEST_BENCH_CPU:-1}" -r 3 -s 1M -l -5,-1,1,2,3,4,5,6,7,8,9,12,15,16,17,18,19,22
      --only '^corpus/c-|^corpus/[a-z]+-l(1|3|19)$|^columnar/|^stream/sd-.*-l(1|3|19)$|^context/d-.*-(oneshot|reused)$'
      corpus columnar stream context "$@")
runs=()
./build/bench/zest-bench "${args[@]}" --json "$out/system.json"
runs+=("$out/system.json")
if [[ -n "${ZEST_REFERENCE_LIBZSTD:-}" ]]; then
    LD_LIBRARY_PATH="$ZEST_REFERENCE_LIBZSTD" ./build/bench/zest-bench "${args[@]}" --json "$out/reference.json"
    runs+=("$out/reference.json")
fi
"$py" scripts/bench_plots.py docs/img "${runs[@]}"
echo "bench_plots.sh: wrote docs/img/compression-levels.svg, decompression.svg, decompression-context.svg"
