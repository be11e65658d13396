#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test.
#   scripts/test.sh            Release build in build/ (g++), all tests
#   scripts/test.sh --sanitize the same suite under AddressSanitizer + UBSan (clang), in build-asan/
#   scripts/test.sh --threads  the tests of compression with workers (label "threads") under
#                              ThreadSanitizer (clang), in build-tsan/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

if [[ "${1:-}" == "--threads" ]]; then
  dir=build-tsan
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DZEST_TSAN=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
  cmake --build "$dir" -j "$(nproc)" --target zest_threads_test capi_workers_check_zest
  # libzstd's own check is not built here (it is not zest's threads).
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir "$dir" -L threads -E libzstd -j "$(nproc)" --output-on-failure --timeout 1500
  exit 0
fi
if [[ "${1:-}" == "--sanitize" ]]; then
  dir=build-asan
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DZEST_SANITIZE=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DZEST_BUILD_BENCH=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  dir=build
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" -j "$(nproc)" --output-on-failure --timeout 1500
