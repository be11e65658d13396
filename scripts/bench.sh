#!/usr/bin/env bash
# Installs what is missing, builds in Release, and runs the side-by-side
# benchmark against libzstd on built-in data: by default a run of about two
# minutes (context, columnar, corpus and dictionary sets, smaller inputs,
# fewer rounds), with a summary of the speed-ups first and the tables after.
#
#   bash scripts/bench.sh                 # the default run
#   bash scripts/bench.sh --full          # every set at full size (about five minutes)
#   bash scripts/bench.sh --pin 1 corpus  # other arguments go to zest-bench (--help lists them)
#
# ZEST_BUILD_DIR picks the build tree (default: build). Only the results go
# to stdout; the build's output and zest-bench's progress go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ZEST_BUILD_DIR:-build}
bash scripts/deps.sh >&2
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target zest_bench >&2
bin=$build/bench/zest-bench
[[ $bin == /* ]] || bin=./$bin
exec "$bin" "$@"
