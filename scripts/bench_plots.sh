#!/usr/bin/env bash
# Regenerates the pictures of docs/benchmarks.md (docs/img/*.svg): zest's
# speed-up over libzstd as zest-bench measures it side by side, medians of
# several runs with their spread. The runs are against the system libzstd
# and, when ZEST_REFERENCE_LIBZSTD names a folder holding another
# libzstd.so.1 (the newest release, for example), against that one too,
# alternated so that a change in the machine's load hits both.
#
#   ZEST_REFERENCE_LIBZSTD=/path/to/libzstd-1.5.7 bash scripts/bench_plots.sh
#   bash scripts/bench_plots.sh --redraw   # draw again from the last runs' JSON files
#
# ZEST_PLOT_RUNS runs per library (default 3; each takes about 4 minutes on a
# quiet 2-core machine: the compression levels up to 22 take most of it),
# pinned to CPU ZEST_BENCH_CPU (default 1), then the threads set (about 4
# minutes more, not pinned: it times every core); ZEST_PLOT_KINDS picks some
# of "decode encode threads" (default all); ZEST_BUILD_DIR is the build tree
# (default build). The raw timings stay in BUILD/bench-plots/*.json, each
# run's load in runs.log there, the figures as Markdown tables in
# ratios.md. Needs matplotlib (Debian: python3-matplotlib). Extra arguments go
# to every zest-bench run. Run it on a machine as idle as you can find.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ZEST_BUILD_DIR:-build}
bin=$build/bench/zest-bench
[[ $bin == /* ]] || bin=./$bin
out=$build/bench-plots
runs=${ZEST_PLOT_RUNS:-3}
cpu=${ZEST_BENCH_CPU:-1}

py=python3
"$py" -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
"$py" -c 'import matplotlib' 2>/dev/null || {
    echo "bench_plots.sh: needs matplotlib (apt-get install python3-matplotlib)" >&2
    exit 1
}

redraw=0
if [[ ${1:-} == --redraw ]]; then
    redraw=1
    shift
fi

if ((!redraw)); then
    bash scripts/deps.sh >&2
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j "$(nproc)" --target zest_bench >&2
    if [[ -n ${ZEST_REFERENCE_LIBZSTD:-} && ! -e $ZEST_REFERENCE_LIBZSTD/libzstd.so.1 ]]; then
        echo "bench_plots.sh: no libzstd.so.1 in ZEST_REFERENCE_LIBZSTD=$ZEST_REFERENCE_LIBZSTD" >&2
        exit 1
    fi
    mkdir -p "$out"
    rm -f "$out"/*.json "$out/runs.log"
    # Decompression of every workload at the full run's sizes; compression at
    # the levels worth a point, on 1 MiB inputs (levels 16 to 22 take seconds
    # per call on larger ones).
    decode=(--pin "$cpu" -q -r 5 -s 4M
            --only '^context/d-|^columnar/|^corpus/[a-z]+-l[0-9]+$|^stream/sd-|^dictionary/.*-d-'
            context columnar corpus stream dictionary)
    encode=(--pin "$cpu" -q -r 3 -s 1M -l -5,-1,1,2,3,4,5,6,7,8,9,12,15,16,19,22 --only '^corpus/c-' corpus)
    threads=(-q -r 3 -s 4M threads)
    read -r -a kinds <<<"${ZEST_PLOT_KINDS:-decode encode threads}"
    libs=(system)
    [[ -n ${ZEST_REFERENCE_LIBZSTD:-} ]] && libs+=(reference)
    for ((i = 1; i <= runs; i++)); do
        for kind in "${kinds[@]}"; do
            for lib in "${libs[@]}"; do
                json=$out/$kind-$lib-$i.json
                echo "$(date -u +%FT%TZ) $kind $lib run $i: load average $(cut -d' ' -f1-3 /proc/loadavg)" |
                    tee -a "$out/runs.log" >&2
                env_args=()
                [[ $lib == reference ]] && env_args=(LD_LIBRARY_PATH="$ZEST_REFERENCE_LIBZSTD")
                case $kind in
                    decode) args=("${decode[@]}") ;;
                    encode) args=("${encode[@]}") ;;
                    threads) args=("${threads[@]}") ;;
                    *) echo "bench_plots.sh: ZEST_PLOT_KINDS: no kind '$kind'" >&2; exit 1 ;;
                esac
                env "${env_args[@]}" "$bin" "${args[@]}" "$@" --json "$json" >/dev/null
            done
        done
    done
fi

shopt -s nullglob
jsons=("$out"/*.json)
((${#jsons[@]})) || { echo "bench_plots.sh: no runs in $out to draw from" >&2; exit 1; }
mkdir -p docs/img
"$py" scripts/bench_plots.py docs/img "${jsons[@]}" | tee "$out/ratios.md"
