#!/usr/bin/env bash
# Runs zest's libFuzzer targets for N minutes each, one after the other, and
# prints what each found (fuzz/README.md).
#
#   bash scripts/fuzz.sh [--minutes N] [--jobs J] [--timeout S] [fuzzer...]
#
# fuzzers: decompress, stream, compress_roundtrip (or roundtrip), dictionary;
# all four when none is named. --minutes: per fuzzer (default 10); --jobs:
# fuzzing processes per fuzzer (libFuzzer's -fork, default 1: the machines
# have 2 cores); --timeout: seconds one input may take before libFuzzer
# reports it as a hang (default 25).
#
# Installs what is missing (scripts/deps.sh), builds the ASan + UBSan +
# libFuzzer build in build-fuzz/ (clang) with the seed corpora, then runs
# each fuzzer in libFuzzer's fork mode, which records a crash, a timeout or
# an out-of-memory input and goes on fuzzing. Kept per fuzzer under
# build-fuzz/fuzz/: the corpus (corpus/NAME, grown run after run), the
# inputs that failed (artifacts/NAME/) and the log (logs/NAME.log).
# Exits 1 when any fuzzer found something, 0 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=10 jobs=1 timeout=25
fuzzers=()
while (($#)); do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --minutes=*) minutes=${1#*=}; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    --timeout) timeout=$2; shift 2 ;;
    --timeout=*) timeout=${1#*=}; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    decompress|stream|compress_roundtrip|dictionary) fuzzers+=("$1"); shift ;;
    roundtrip) fuzzers+=(compress_roundtrip); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
((${#fuzzers[@]})) || fuzzers=(decompress stream compress_roundtrip dictionary)
[[ $minutes =~ ^[0-9]+$ && $minutes -gt 0 && $jobs =~ ^[0-9]+$ && $jobs -gt 0 && $timeout =~ ^[0-9]+$ ]] ||
  { echo "fuzz.sh: --minutes, --jobs and --timeout take positive integers" >&2; exit 2; }

bash scripts/deps.sh

dir=build-fuzz
if [[ ! -f $dir/CMakeCache.txt ]]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DZEST_FUZZ=ON -DZEST_SANITIZE=ON -DZEST_BUILD_BENCH=OFF -DZEST_BUILD_TOOLS=OFF
fi
# The machines are shared: a low priority, and no more compilers than cores.
nice -n 10 cmake --build "$dir" -j "$(nproc)" --target zest_fuzzers

work=$dir/fuzz
# Largest input each fuzzer is given: frames of a few blocks; the stream
# fuzzer's inputs repeat their payload up to 512 KiB, so they stay small.
declare -A max_len=([decompress]=262144 [stream]=65536 [compress_roundtrip]=160000 [dictionary]=140000)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "EDGES FEATURES" that the inputs of the given folders reach, from a merge
# into an empty folder (crash-resistant: a failing input is recorded in the
# artifacts and skipped). Fork mode's own `cov:` cannot serve: libFuzzer 14
# counts the initial merge's features in it, then adds edges.
coverage_of() {
  local bin=$1 name=$2 out=$tmp/merge.$2
  shift 2
  rm -rf "$out" && mkdir -p "$out"
  nice -n 10 "$bin" -merge=1 -timeout="$timeout" -rss_limit_mb=4096 -max_len="${max_len[$name]}" \
    -artifact_prefix="$work/artifacts/$name/" "$out" "$@" > "$out.log" 2>&1 || true
  local line
  line=$(grep -E 'new features added; [0-9]+ new coverage edges' "$out.log" | tail -1)
  sed -E 's/.* ([0-9]+) new features added; ([0-9]+) new coverage edges.*/\2 \1/' <<< "${line:-? ?}"
  rm -rf "$out"
}
summary=()
found_any=0
for name in "${fuzzers[@]}"; do
  bin=$work/zest_${name}_fuzzer
  corpus=$work/corpus/$name seeds=$work/seeds/$name artifacts=$work/artifacts/$name
  log=$work/logs/$name.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  start_mark=$tmp/start.$name
  touch "$start_mark"

  echo "== $name: coverage of the corpus and seeds so far"
  read -r start_edges start_ft < <(coverage_of "$bin" "$name" "$corpus" "$seeds")
  start_corp=$(find "$corpus" -type f | wc -l)
  echo "== $name: fuzzing for $minutes minute(s), $jobs process(es); log in $log"
  nice -n 10 "$bin" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time=$((minutes * 60)) -timeout="$timeout" -rss_limit_mb=4096 -max_len="${max_len[$name]}" \
    -artifact_prefix="$artifacts/" "$corpus" "$seeds" > "$log" 2>&1 || true
  # Fork mode's last progress line:
  # "#RUNS: cov: C ft: F corp: K exec/s E oom/timeout/crash: O/T/C time: Ss job: J ..."
  last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1 || true)
  runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$last")
  secs=$(sed -E 's/.* time: ([0-9]+)s .*/\1/' <<< "$last")
  if [[ -z $last ]]; then
    summary+=("$name: no progress line in $log (did the fuzzer start?)")
    found_any=1
    continue
  fi
  echo "== $name: coverage after the run"
  read -r edges ft < <(coverage_of "$bin" "$name" "$corpus" "$seeds")
  corp=$(find "$corpus" -type f | wc -l)
  line="$name: ${runs} executions in ${secs} s ($((runs / (secs > 0 ? secs : 1)))/s), coverage ${start_edges} -> ${edges} edges"
  [[ $start_edges =~ ^[0-9]+$ && $edges =~ ^[0-9]+$ ]] && line+=" (+$((edges - start_edges)))"
  line+=", features ${start_ft} -> ${ft}, corpus ${start_corp} -> ${corp} inputs"

  # What failed in this run (seeds that fail included: fork mode's initial
  # merge records them too): each file replayed once for its message,
  # grouped by message.
  mapfile -t failed < <(find "$artifacts" -maxdepth 1 -type f -newer "$start_mark" \
                          \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
  if ((${#failed[@]} == 0)); then
    summary+=("$line; no crash, timeout or out-of-memory input")
    continue
  fi
  found_any=1
  summary+=("$line; ${#failed[@]} failing input(s):")
  declare -A groups=()
  for f in "${failed[@]}"; do
    case "$(basename "$f")" in
      timeout-*) why="timeout: an input ran longer than ${timeout} s" ;;
      oom-*) why="out of memory (over 4096 MB)" ;;
      *) why=$(timeout $((timeout * 2)) "$bin" -runs=1 -rss_limit_mb=4096 "$f" 2>&1 |
                 grep -v -E 'NOTE: fuzzing was not performed|executed the target code|^\*\*\*$' |
                 grep -m1 -E '^([a-z_]+_fuzzer: |\*\*\* )|runtime error|ERROR: (Address|Leak|Undefined)Sanitizer' |
                 sed -E 's/^\*\*\* //; s/==[0-9]+==//' || true)
         [[ -n $why ]] || why="crash (see the log)" ;;
    esac
    groups[$why]+="$f "
  done
  for why in "${!groups[@]}"; do
    read -ra files <<< "${groups[$why]}"
    summary+=("    ${#files[@]} x $why")
    for f in "${files[@]:0:5}"; do summary+=("        $f"); done
    ((${#files[@]} <= 5)) || summary+=("        ... and $((${#files[@]} - 5)) more in $artifacts")
  done
  unset groups
done

echo
echo "== fuzzing summary (${minutes} min per fuzzer, timeout ${timeout} s)"
printf '%s\n' "${summary[@]}"
exit "$found_any"
