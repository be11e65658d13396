# The dictionary group of cli_test.sh (sourced): -D for compression,
# decompression, -t and -b, --no-dictID, -lv's DictID, and the failures
# (missing, wrong, corrupt dictionary): a clear error, exit status 1, no
# output left, the input kept. The system zstd trains the dictionaries and
# reads and writes the other side of every frame.

# Writes `count` JSON messages of one kind into DIR (files m0.json ...).
make_messages() {  # dir count kind
    local dir=$1 count=$2 kind=$3 i
    mkdir -p "$dir"
    for ((i = 0; i < count; i++)); do
        printf '{"kind":"%s","id":%d,"user":"user%d","mail":"user%d@example.com","roles":["reader","%s"],"score":%d,"active":%s}\n' \
            "$kind" "$i" "$((i * 37 % 1000))" "$((i * 37 % 1000))" "$kind" "$((i * 7 % 100))" \
            "$([ $((i % 3)) = 0 ] && echo true || echo false)" >"$dir/m$i.json"
        printf '{"kind":"%s","event":"login","at":"2024-02-%02d","ok":true}\n' "$kind" "$((1 + i % 28))" >>"$dir/m$i.json"
    done
}

group_dictionary() {
    local d
    d=$(fresh_dir)
    make_messages "$d/train" 400 alpha
    make_messages "$d/other" 400 beta
    make_messages "$d/msgs" 20 alpha
    "$ZSTD" -q --train "$d"/train/*.json -o "$d/dict" --maxdict=4096 2>/dev/null || { fail "zstd --train"; return; }
    "$ZSTD" -q --train "$d"/other/*.json -o "$d/other.dict" --maxdict=4096 2>/dev/null || { fail "zstd --train"; return; }

    local f n
    for f in "$d"/msgs/m1*.json; do
        n=$(basename "$f" .json)
        # zest -D writes, zstd -D reads; and the reverse.
        z -q -D "$d/dict" "$f" -o "$d/$n.zest.zst"
        expect_rc 0 "zest -D $n"
        "$ZSTD" -dq -D "$d/dict" "$d/$n.zest.zst" -o "$d/$n.a" 2>/dev/null && pass || fail "zstd -d -D on zest's $n"
        expect_same "$d/$n.a" "$f" "zest -D then zstd -d -D: $n"
        "$ZSTD" -q -D "$d/dict" "$f" -o "$d/$n.zstd.zst" 2>/dev/null
        z -dq -D "$d/dict" "$d/$n.zstd.zst" -o "$d/$n.b"
        expect_rc 0 "zest -d -D on zstd's $n"
        expect_same "$d/$n.b" "$f" "zstd -D then zest -d -D: $n"
        z -tq -D "$d/dict" "$d/$n.zstd.zst"
        expect_rc 0 "zest -t -D on zstd's $n"
    done
    # The dictionary pays: smaller than without it.
    z -q -D "$d/dict" "$d/msgs/m3.json" -c >"$d/with.zst"
    z -q "$d/msgs/m3.json" -c >"$d/without.zst"
    if [ "$(wc -c <"$d/with.zst")" -lt "$(wc -c <"$d/without.zst")" ]; then pass; else
        fail "-D: $(wc -c <"$d/with.zst") bytes, without: $(wc -c <"$d/without.zst")"
    fi
    # The frame names the dictionary, as zstd's does (-lv); --no-dictID leaves it out.
    local id
    id=$("$ZSTD" -lv "$d/m10.zstd.zst" 2>/dev/null | sed -n 's/^Dictionary ID: *//p; s/^DictID: *//p' | head -1)
    z -lv "$d/m10.zest.zst" >"$d/list" 2>&1
    if [ -n "$id" ] && grep -q "^DictID: $id\$" "$d/list"; then pass; else fail "-lv: $(grep DictID "$d/list"), zstd: '$id'"; fi
    z -q -D "$d/dict" --no-dictID "$d/msgs/m4.json" -o "$d/noid.zst"
    z -lv "$d/noid.zst" >"$d/list" 2>&1
    grep -q "^DictID: 0\$" "$d/list" && pass || fail "--no-dictID: $(grep DictID "$d/list")"
    "$ZSTD" -dq -D "$d/dict" "$d/noid.zst" -o "$d/noid" 2>/dev/null && pass || fail "zstd -d -D on a frame without ID"
    expect_same "$d/noid" "$d/msgs/m4.json" "--no-dictID round trip"

    # Without the dictionary, or with another: exit 1, a message naming the
    # dictionary, no output, the input kept (even with --rm).
    cp "$d/m10.zstd.zst" "$d/keep.zst"
    z -d --rm "$d/keep.zst" -o "$d/none.out"
    expect_rc 1 "-d without the dictionary"
    grep -qi "dictionary" "$ERR" && pass || fail "-d without the dictionary: message '$(cat "$ERR")'"
    expect_missing "$d/none.out" "-d without the dictionary"
    expect_exists "$d/keep.zst" "-d --rm without the dictionary"
    z -d --rm -D "$d/other.dict" "$d/keep.zst" -o "$d/wrong.out"
    expect_rc 1 "-d with another dictionary"
    grep -qi "dictionary" "$ERR" && pass || fail "-d with another dictionary: message '$(cat "$ERR")'"
    expect_missing "$d/wrong.out" "-d with another dictionary"
    expect_exists "$d/keep.zst" "-d --rm with another dictionary"
    zr -d -D "$d/other.dict" "$d/keep.zst" -o "$d/wrong.zstd"
    [ "$ZRC" -ne 0 ] && pass || fail "zstd accepts another dictionary (the oracle changed?)"
    z -t -D "$d/other.dict" "$d/keep.zst"
    expect_rc 1 "-t with another dictionary"

    # A dictionary that cannot be used: refused before any output exists.
    # zstd's statuses, which scripts can tell apart: 11 for a dictionary it
    # cannot load, 31 for a missing one, 32 for one that is not a regular
    # file (a directory, a pipe: /proc/self/fd/0 or -D - on a pipe).
    head -c 40 "$d/dict" >"$d/cut.dict"
    z -q -D "$d/cut.dict" "$d/msgs/m5.json" -o "$d/cut.zst"
    expect_rc 11 "-D with a truncated dictionary"
    grep -q "cut.dict" "$ERR" && pass || fail "truncated dictionary: message '$(cat "$ERR")'"
    expect_missing "$d/cut.zst" "-D with a truncated dictionary"
    zr -q -D "$d/cut.dict" "$d/msgs/m5.json" -c >/dev/null
    expect_rc_as_zstd "-D with a truncated dictionary"
    z -q -D "$d/no-such-dict" "$d/msgs/m5.json" -o "$d/nodict.zst"
    expect_rc 31 "-D with a missing file"
    expect_missing "$d/nodict.zst" "-D with a missing file"
    zr -q -D "$d/no-such-dict" "$d/msgs/m5.json" -c >/dev/null
    expect_rc_as_zstd "-D with a missing file"
    "$ZSTD" -q -D "$d/dict" "$d/msgs/m5.json" -o "$d/m5.zst" 2>/dev/null
    mkdir -p "$d/dict.dir"
    local op
    for op in "" -d -t; do
        rm -f "$d/m5.out"
        if [ -z "$op" ]; then set -- "$d/msgs/m5.json" -o "$d/m5.out"; else set -- "$op" "$d/m5.zst" -o "$d/m5.out"; fi
        z -q -f -D "$d/dict.dir" "$@"
        expect_rc 32 "$op -D DIRECTORY"
        expect_missing "$d/m5.out" "$op -D DIRECTORY"
        zr -q -f -D "$d/dict.dir" "$@"
        expect_rc_as_zstd "$op -D DIRECTORY"
        rm -f "$d/m5.out"
        RC=0
        cat "$d/dict" | "$ZEST" -q -f -D /proc/self/fd/0 "$@" 2>"$ERR" || RC=$?
        expect_rc 32 "$op -D /proc/self/fd/0 on a pipe"
        grep -q "regular file" "$ERR" && pass || fail "$op -D /proc/self/fd/0 on a pipe: message '$(cat "$ERR")'"
        expect_missing "$d/m5.out" "$op -D /proc/self/fd/0 on a pipe"
        ZRC=0
        cat "$d/dict" | "$ZSTD" -q -f -D /proc/self/fd/0 "$@" 2>/dev/null || ZRC=$?
        expect_rc_as_zstd "$op -D /proc/self/fd/0 on a pipe"
        RC=0
        cat "$d/dict" | "$ZEST" -q -f -D - "$@" 2>"$ERR" || RC=$?
        expect_rc 32 "$op -D - on a pipe"
        expect_missing "$d/m5.out" "$op -D - on a pipe"
    done
    set --
    # A regular file on standard input is one: -D - reads it (zstd refuses
    # the name -).
    z -q -f -D - "$d/msgs/m5.json" -o "$d/m5.out" <"$d/dict"
    expect_rc 0 "-D - from a regular file"
    "$ZSTD" -dq -D "$d/dict" -c "$d/m5.out" 2>/dev/null | cmp -s - "$d/msgs/m5.json" && pass ||
        fail "-D - from a regular file: zstd -d -D does not restore the input"
    z -b -i0 -D "$d/dict.dir" "$d/msgs/m5.json" >/dev/null
    expect_rc 1 "-b -D DIRECTORY"
    z -q -D
    expect_rc 1 "-D without a file name"

    # Raw content: any file is a dictionary (ID 0), both tools agree.
    z -q -D "$d/msgs/m7.json" "$d/msgs/m8.json" -o "$d/raw.zst"
    expect_rc 0 "-D with raw content"
    "$ZSTD" -dq -D "$d/msgs/m7.json" "$d/raw.zst" -o "$d/raw" 2>/dev/null && pass || fail "zstd -d with raw content"
    expect_same "$d/raw" "$d/msgs/m8.json" "raw content round trip"

    # Inputs of several blocks, their size known (a file, or --stream-size
    # on a pipe) or not, with every kind of dictionary: a known size above
    # one block once never finished. Each run is timed out, so that a hang
    # fails here rather than the suite.
    local dict n mode
    printf 'some dictionary content here' >"$d/raw.dict"
    z -q --train "$d"/train/*.json -o "$d/zest.dict"
    cat "$d"/train/*.json "$d"/other/*.json >"$d/big.src"
    while [ "$(wc -c <"$d/big.src")" -lt 1048576 ]; do cat "$d/big.src" "$d/big.src" >"$d/big.2" && mv "$d/big.2" "$d/big.src"; done
    for n in 0 1 131071 131072 131073 1048576; do
        head -c "$n" "$d/big.src" >"$d/in"
        for dict in dict raw.dict zest.dict; do
            for mode in file pledged unknown; do
                rm -f "$d/in.zst"
                case $mode in
                    file) RC=0; timeout 120 "$ZEST" -q -f -D "$d/$dict" "$d/in" -o "$d/in.zst" 2>"$ERR" || RC=$? ;;
                    pledged) RC=0; timeout 120 "$ZEST" -q -D "$d/$dict" --stream-size="$n" -c <"$d/in" >"$d/in.zst" 2>"$ERR" || RC=$? ;;
                    unknown) RC=0; timeout 120 "$ZEST" -q -D "$d/$dict" -c <"$d/in" >"$d/in.zst" 2>"$ERR" || RC=$? ;;
                esac
                expect_rc 0 "-D $dict, $n bytes, size $mode"
                "$ZSTD" -dq -D "$d/$dict" -c "$d/in.zst" >"$d/back" 2>/dev/null && pass ||
                    fail "zstd -d -D $dict on zest's $n bytes, size $mode"
                expect_same "$d/back" "$d/in" "-D $dict, $n bytes, size $mode"
            done
        done
    done

    # An input that is also the dictionary is refused (zstd does the same),
    # by device and inode: under another name too, and --rm keeps it.
    cp "$d/msgs/m11.json" "$d/self"
    ln "$d/self" "$d/self.link"
    z -q --rm -D "$d/self" "$d/self"
    expect_rc 1 "-D FILE FILE"
    grep -q "self" "$ERR" && grep -qi "dictionary" "$ERR" && pass || fail "-D FILE FILE: message '$(cat "$ERR")'"
    expect_exists "$d/self" "--rm -D FILE FILE"
    expect_missing "$d/self.zst" "-D FILE FILE"
    z -q --rm -D "$d/self" "$d/self.link" "$d/msgs/m12.json" -o "$d/both.zst" -f
    expect_rc 1 "-D FILE on a hard link to it"
    expect_exists "$d/self.link" "--rm -D FILE on a hard link to it"
    zr -q -D "$d/self" "$d/self" -c
    [ "$ZRC" -ne 0 ] && pass || fail "zstd accepts an input that is its dictionary (the oracle changed?)"
    z -q -D "$d/self" -c <"$d/self" >"$d/stdin.zst"
    expect_rc 0 "-D FILE with FILE on standard input (not a named input)"

    # Standard streams, and -b with the dictionary.
    z -q -D "$d/dict" -c <"$d/msgs/m9.json" | "$ZSTD" -dq -D "$d/dict" -c >"$d/pipe" 2>/dev/null
    expect_same "$d/pipe" "$d/msgs/m9.json" "-D through pipes"
    z -b1 -e3 -i0 -D "$d/dict" "$d"/msgs/m1*.json >"$d/bench" 2>&1
    expect_rc 0 "-b with -D"
    [ "$(grep -c '#' "$d/bench")" -ge 3 ] && pass || fail "-b with -D: $(cat "$d/bench")"
    # -b -d: the decompression of frames made with the dictionary, which
    # fails without it.
    z -b -d -i0 -D "$d/dict" "$d/m10.zstd.zst" "$d/m11.zstd.zst" >"$d/bench"
    expect_rc 0 "-b -d with -D"
    grep -qE '^ 0# 2 files|^ 0#2 files' "$d/bench" && pass || fail "-b -d with -D: $(cat "$d/bench")"
    z -b -d -i0 "$d/m10.zstd.zst" >"$d/bench"
    expect_rc 1 "-b -d without the frames' dictionary"
}

# --train: zest's dictionaries work with zstd -D and compress about as well
# as zstd --train's; the options; failures leave no file (and an existing
# one untouched).
group_train() {
    local d
    d=$(fresh_dir)
    make_messages "$d/train" 500 alpha
    make_messages "$d/held" 40 alpha
    z --train "$d"/train/*.json -o "$d/zdict"
    expect_rc 0 "--train"
    expect_exists "$d/zdict" "--train"
    "$ZSTD" -q --train "$d"/train/*.json -o "$d/sdict" 2>/dev/null || { fail "zstd --train"; return; }
    local f zsum=0 ssum=0
    for f in "$d"/held/m*.json; do
        "$ZSTD" -q -D "$d/zdict" -c "$f" >"$d/z.zst" 2>/dev/null
        "$ZSTD" -dq -D "$d/zdict" -c "$d/z.zst" >"$d/z.out" 2>/dev/null
        expect_same "$d/z.out" "$f" "zstd -D with zest's dictionary"
        zsum=$((zsum + $(wc -c <"$d/z.zst")))
        "$ZSTD" -q -D "$d/sdict" -c "$f" >"$d/s.zst" 2>/dev/null
        ssum=$((ssum + $(wc -c <"$d/s.zst")))
    done
    # Within 5% of zstd's own dictionary (measured equal or better on these).
    if [ $((zsum * 100)) -le $((ssum * 105)) ]; then pass; else fail "--train: $zsum bytes with zest's dictionary, $ssum with zstd's"; fi
    z -q -D "$d/zdict" "$d/held/m1.json" -o "$d/m1.zst"
    "$ZSTD" -dq -D "$d/zdict" "$d/m1.zst" -o "$d/m1" 2>/dev/null
    expect_same "$d/m1" "$d/held/m1.json" "zest -D with zest's dictionary, zstd -d"

    # Options: size, ID, the two trainers with parameters, directories.
    z --train --maxdict=2000 --dictID=777 "$d"/train/*.json -o "$d/small"
    expect_rc 0 "--maxdict --dictID"
    [ "$(wc -c <"$d/small")" -le 2000 ] && pass || fail "--maxdict=2000: $(wc -c <"$d/small") bytes"
    z -q -D "$d/small" "$d/held/m2.json" -o "$d/m2.zst"
    z -lv "$d/m2.zst" >"$d/list" 2>&1
    grep -q "^DictID: 777\$" "$d/list" && pass || fail "--dictID=777: $(grep DictID "$d/list")"
    z --train-cover=k=200,d=8,steps=2 "$d"/train/m1*.json -o "$d/cover"
    expect_rc 0 "--train-cover"
    z --train-fastcover=k=300,d=6,f=18,steps=2,split=80,accel=2 "$d"/train/*.json -o "$d/fast"
    expect_rc 0 "--train-fastcover with parameters"
    "$ZSTD" -q -D "$d/fast" -c "$d/held/m3.json" 2>/dev/null | "$ZSTD" -dq -D "$d/fast" -c 2>/dev/null >"$d/m3"
    expect_same "$d/m3" "$d/held/m3.json" "zstd with --train-fastcover's dictionary"
    # shrink[=#], as zstd takes it, without effect (zstd's trainers ignore it
    # too: the same dictionary with or without it).
    z -q --train-fastcover=k=300,d=6,steps=2 "$d"/train/*.json -o "$d/noshrink"
    for args in "--train-fastcover=k=300,d=6,steps=2,shrink" "--train-fastcover=shrink=5,k=300,d=6,steps=2"; do
        z -q "$args" "$d"/train/*.json -o "$d/shrunk"
        expect_rc 0 "$args"
        expect_same "$d/shrunk" "$d/noshrink" "$args"
    done
    z -q --train-cover=k=200,d=8,steps=2,shrink=1 "$d"/train/m1*.json -o "$d/shrunk"
    expect_rc 0 "--train-cover=...,shrink=1"
    expect_same "$d/shrunk" "$d/cover" "--train-cover=...,shrink=1"
    for args in "--train-cover=shrinkX" "--train-fastcover=shrink=x"; do
        z -q "$args" "$d"/train/*.json -o "$d/badshrink"
        expect_rc 1 "$args"
        expect_missing "$d/badshrink" "$args"
    done
    z --train -r "$d/train" -o "$d/rec"
    expect_rc 0 "--train -r"
    # -B# cuts each file into samples of # bytes (as zstd); -M# loads no
    # more than # bytes of them.
    z -v --train -B64 "$d"/train/*.json -o "$d/chunked"
    expect_rc 0 "--train -B64"
    local whole chunked limited
    whole=$(ls "$d"/train/*.json | wc -l)
    chunked=$(sed -n 's/^Training on \([0-9]*\) samples.*/\1/p' "$ERR")
    [ -n "$chunked" ] && [ "$chunked" -gt $((whole * 2)) ] && pass ||
        fail "--train -B64: '$chunked' samples from $whole files: $(cat "$ERR")"
    z -q -D "$d/chunked" "$d/held/m4.json" -o "$d/m4.zst"
    "$ZSTD" -dq -D "$d/chunked" "$d/m4.zst" -o "$d/m4" 2>/dev/null
    expect_same "$d/m4" "$d/held/m4.json" "zstd -d with the -B64 dictionary"
    z -v --train -M16K "$d"/train/*.json -o "$d/limited"
    expect_rc 0 "--train -M16K"
    limited=$(sed -n 's/^Training on \([0-9]*\) samples of \([0-9]*\) bytes.*/\2/p' "$ERR")
    [ -n "$limited" ] && [ "$limited" -le 16384 ] && pass ||
        fail "--train -M16K: '$limited' bytes of samples: $(cat "$ERR")"
    # zstd's lines for --memory, which its playTests.sh greps for.
    local big_corpus=$d/big-corpus
    for i in $(seq 1 400); do cat "$d"/train/*.json; done | head -c 3200000 >"$big_corpus"
    for args in "--memory=2MB" "--memory=1M -q"; do
        # shellcheck disable=SC2086
        z --train -B2K "$big_corpus" -o "$d/memdict" $args -f
        expect_rc 0 "--train -B2K $args"
        # shellcheck disable=SC2086
        zr --train -B2K "$big_corpus" -o "$d/memdict.ref" $args -f
        for line in "setting manual memory limit for dictionary training data at" "Training samples set too large"; do
            zl=$(grep -F "$line" "$ERR" | sed 's/ *$//') zstd_l=$(grep -F "$line" "$ZERR" | sed 's/ *$//')
            [ "$zl" = "$zstd_l" ] && pass || fail "--train $args: '$zl', zstd's '$zstd_l'"
        done
    done
    expect_exists "$d/rec" "--train -r"

    # Failures: nothing written, an existing file untouched.
    echo keep >"$d/existing"
    z --train "$d/train/m1.json" "$d/train/m2.json" -o "$d/existing"
    expect_rc 14 "--train on two samples"
    grep -q "too few" "$ERR" && pass || fail "--train on two samples: message '$(cat "$ERR")'"
    [ "$(cat "$d/existing")" = keep ] && pass || fail "a failed --train changed its output file"
    # How many samples, as zstd counts them: fewer than 5 in all (empty
    # files count for none) is status 14; fewer than 5 left to train on
    # after the split is status 1 (--train and --train-fastcover keep 75% to
    # train when they search k; --train-cover 100%; all when k and d are
    # given). Samples of about 10 KB, as zstd wants 100 times --maxdict.
    local i j count args
    mkdir "$d/few"
    for i in 1 2 3 4 5 6 7; do
        for j in $(seq $((i * 50)) $((i * 50 + 49))); do cat "$d/train/m$j.json"; done >"$d/few/s$i"
    done
    : >"$d/few/empty"
    for args in "4 --train" "5 --train" "6 --train" "7 --train" "5 --train-fastcover" "7 --train-fastcover" \
                "5 --train-fastcover=k=100" "5 --train-fastcover=k=100,d=8" "5 --train-fastcover=split=100" \
                "5 --train-cover" "7 --train-cover=split=50" "5 --train-cover=k=100,d=8"; do
        count=${args%% *}
        args=${args#* }
        rm -f "$d/few.dict" "$d/few.zstd"
        z -q $args "$d/few/empty" $(seq -f "$d/few/s%g" 1 "$count") --maxdict=1K -o "$d/few.dict"
        zr -q $args "$d/few/empty" $(seq -f "$d/few/s%g" 1 "$count") --maxdict=1K -o "$d/few.zstd"
        expect_rc_as_zstd "$args on $count samples"
        if [ -e "$d/few.zstd" ]; then expect_exists "$d/few.dict" "$args on $count samples"
        else expect_missing "$d/few.dict" "$args on $count samples"; fi
    done
    z -q --train "$d"/few/s[1-6] --maxdict=1K -o "$d/existing"
    expect_rc 1 "--train on 6 samples"
    [ "$(cat "$d/existing")" = keep ] && pass || fail "--train on 6 samples changed its output file"
    z -q --train "$d"/few/s[1-4] "$d/few/empty" -o "$d/few.dict"
    expect_rc 14 "--train on 4 samples and an empty file"
    # -B2K with --memory=10K: 5 samples are loaded, 3 of them to train on.
    cat "$d"/few/s* >"$d/few.all"
    rm -f "$d/few.dict" "$d/few.zstd"
    z -q --train -B2K --memory=10K "$d/few.all" --maxdict=1K -o "$d/few.dict"
    zr -q --train -B2K --memory=10K "$d/few.all" --maxdict=1K -o "$d/few.zstd"
    expect_rc 1 "--train -B2K --memory=10K"
    expect_rc_as_zstd "--train -B2K --memory=10K"
    expect_missing "$d/few.dict" "--train -B2K --memory=10K"
    z --train "$d"/train/*.json --maxdict=100 -o "$d/tiny"
    expect_rc 1 "--maxdict=100"
    expect_missing "$d/tiny" "--maxdict=100"
    z --train-fastcover=d=7 "$d"/train/*.json -o "$d/bad"
    expect_rc 1 "--train-fastcover=d=7"
    expect_missing "$d/bad" "--train-fastcover=d=7"
    z --train-cover=nope=1 "$d"/train/*.json -o "$d/bad"
    expect_rc 1 "--train-cover with an unknown parameter"
    z --train -o "$d/none"
    expect_rc 14 "--train without samples"
    expect_missing "$d/none" "--train without samples"
}
