#!/bin/sh
# Trains a dictionary with the system zstd on generated JSON messages, then
# runs the dictionary checks built against zest and libzstd with it, and the
# reference's dictionary examples (built against zest) both ways with `zstd -D`.
#   dict_check.sh ZSTD_CLI WORKDIR CHECK... [-- EXAMPLE_COMPRESS EXAMPLE_DECOMPRESS]
set -eu
zstd=$1; work=$2; shift 2
rm -rf "$work"; mkdir -p "$work/samples" "$work/files"
i=0
while [ $i -lt 600 ]; do
  j=0; : > "$work/samples/m$i.json"
  while [ $j -lt $((3 + i % 7)) ]; do
    printf '{"ts":"2024-01-%02d T%02d:%02d:00","level":"%s","path":"/api/v1/%s","user":%d,"status":%d}\n' \
      $((1 + i % 28)) $((j % 24)) $((i % 60)) "$( [ $((i % 3)) = 0 ] && echo warn || echo info )" \
      "$( [ $((j % 2)) = 0 ] && echo users || echo orders )" $((10000 + i * 7 % 5000)) 200 >> "$work/samples/m$i.json"
    j=$((j + 1))
  done
  i=$((i + 1))
done
"$zstd" -q --train "$work"/samples/m[0-4]*.json -o "$work/dict" --maxdict=8192
checks=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do "$1" "$work/dict"; shift; done
[ $# -gt 0 ] || exit 0
shift
compress_example=$1; decompress_example=$2
for f in "$work"/samples/m5*.json; do cp "$f" "$work/files/"; done
# The example writes FILE.zst next to each file, with the dictionary.
"$compress_example" "$work"/files/*.json "$work/dict" > /dev/null
for z in "$work"/files/*.zst; do
  "$zstd" -q -d -D "$work/dict" "$z" -o "$z.out" -f
  cmp "$z.out" "${z%.zst}"
done
# And zstd's frames through the decompression example.
for f in "$work"/files/*.json; do "$zstd" -q -f -D "$work/dict" "$f" -o "$f.zst"; done
"$decompress_example" "$work"/files/*.zst "$work/dict" > /dev/null
echo "dict_check.sh: $(ls "$work"/files/*.json | wc -l) files through the examples and zstd -D"
