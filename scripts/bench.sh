#!/usr/bin/env bash
# Installs what is missing, builds in Release, and runs the side-by-side
# benchmark against libzstd on built-in data. Extra arguments go to zest-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target zest_bench
./build/bench/zest-bench "$@"
