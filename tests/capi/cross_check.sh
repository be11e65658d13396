#!/bin/sh
# cross_check.sh TEST_PROGRAM ZSTD_TOOL WORK_DIR
# Frames written by TEST_PROGRAM (through the library under test) must decode
# with the system zstd to the sample, and frames zstd writes of the sample
# must decode through the library under test.
set -eu
prog=$1 zstd=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
"$prog" write "$dir"
n=0
for f in "$dir"/out_*.zst; do
  "$zstd" -q -d -c "$f" > "$dir/decoded"
  if ! cmp -s "$dir/decoded" "$dir/sample.raw"; then
    echo "FAIL: zstd decodes $f to something else" >&2
    exit 1
  fi
  n=$((n + 1))
done
[ "$n" -ge 7 ] || { echo "FAIL: only $n frames written" >&2; exit 1; }
echo "zstd decoded $n frames written through the library"

"$zstd" -q -1 "$dir/sample.raw" -o "$dir/ref_1.zst"
"$zstd" -q -19 --check "$dir/sample.raw" -o "$dir/ref_19_check.zst"
"$zstd" -q --fast=5 "$dir/sample.raw" -o "$dir/ref_fast5.zst"
"$zstd" -q -3 --no-check -c < "$dir/sample.raw" > "$dir/ref_stdin.zst"   # size not declared
"$zstd" -q -3 -B65536 "$dir/sample.raw" -o "$dir/ref_blocks.zst"
# Two frames of halves, concatenated.
head -c 350000 "$dir/sample.raw" | "$zstd" -q -5 -c > "$dir/ref_concat.zst"
tail -c +350001 "$dir/sample.raw" | "$zstd" -q -2 -c >> "$dir/ref_concat.zst"
"$prog" verify "$dir" "$dir"/ref_*.zst
