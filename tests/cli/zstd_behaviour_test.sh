# Groups of cli_test.sh (sourced by it, with its helpers and corpus): where
# zest used to differ from zstd 1.5.4 — levels, pass-through, program names,
# the environment, file lists, suffixes, parameters shown, options accepted
# and refused — compared with zstd wherever its behaviour is the spec.
# shellcheck shell=bash

# A level is one number: -12345 is level 12345, capped at the highest with
# zstd's warning; a number past 32 bits is an error, as in zstd.
group_level_parsing() {
    local d args
    d=$(fresh_dir)
    local here=$PWD
    cd "$d" || return  # a refusal that fails must not write where the suite runs
    head -c 300000 "$C/text" >"$d/in"
    z -q -19 -c "$d/in" >"$d/l19.zst"
    z -q --ultra -22 -c "$d/in" >"$d/l22.zst"
    z -q --fast=131072 -c "$d/in" >"$d/fastest.zst"
    z -q -1 -c "$d/in" >"$d/l1.zst"
    for args in -12345 -99 -20 "-1 -12345" -19999 "--fast=3 -12345"; do
        # shellcheck disable=SC2086
        z $args -c "$d/in" >"$d/out.zst"
        expect_rc 0 "zest $args"
        expect_stderr_has "Warning : compression level higher than max, reduced to 19" "zest $args"
        expect_same "$d/out.zst" "$d/l19.zst" "zest $args is level 19"
        # shellcheck disable=SC2086
        zr $args -c "$d/in" >/dev/null
        expect_rc_as_zstd "zest $args, as zstd"
        if grep -q "reduced to 19" "$ZERR"; then pass; else fail "zstd $args: no warning (the test's premise)"; fi
    done
    z --ultra -12345 -c "$d/in" >"$d/out.zst"
    expect_stderr_has "reduced to 22" "--ultra -12345"
    expect_same "$d/out.zst" "$d/l22.zst" "--ultra -12345 is level 22"
    z -q -12345 -1 -c "$d/in" >"$d/out.zst"
    expect_same "$d/out.zst" "$d/l1.zst" "-12345 -1: the last level counts"
    z -q -c -1 -q5 "$d/in" >"$d/out.zst"
    z -q -c -5 "$d/in" >"$d/l5.zst"
    expect_same "$d/out.zst" "$d/l5.zst" "-q5: a level inside a cluster"
    # Past 32 bits: an error, as zstd's.
    for args in -5000000000 -4294967296 -19999999999 --fast=4294967296 "--fast -4294967296" -T4294967296 \
                -b4294967296 -e4294967296; do
        # shellcheck disable=SC2086
        z $args -c "$d/in" >"$d/out.zst"
        expect_rc 1 "zest $args"
        if grep -q "^zest: .*overflows" "$ERR"; then pass; else fail "zest $args: no overflow error"; fi
        if [ ! -s "$d/out.zst" ]; then pass; else fail "zest $args wrote output"; fi
        # shellcheck disable=SC2086
        zr $args -c "$d/in" >/dev/null
        expect_rc_as_zstd "zest $args, as zstd"
    done
    # --fast=N past the lowest level is held at it, as zstd does.
    for args in --fast=131073 --fast=200000 --fast=4294967295 --fast=1M; do
        z -q "$args" -c "$d/in" >"$d/out.zst"
        expect_rc 0 "zest $args"
        expect_same "$d/out.zst" "$d/fastest.zst" "zest $args is --fast=131072"
        zr -q "$args" -c "$d/in" >/dev/null
        expect_rc_as_zstd "zest $args, as zstd"
    done
    # 2^31 to 2^32-1: zstd wraps these around to negative levels; zest
    # takes them as large levels (capped at 19 with the warning).
    z -4294967295 -c "$d/in" >"$d/out.zst"
    expect_rc 0 "zest -4294967295"
    expect_same "$d/out.zst" "$d/l19.zst" "zest -4294967295 is level 19"
    # Refused acceleration values, as zstd refuses them.
    for args in --fast=0 --fast= --fast=abc --fastx; do
        z "$args" -c "$d/in" >/dev/null
        expect_rc 1 "zest $args"
        if grep -q "^zest: " "$ERR"; then pass; else fail "zest $args: no 'zest: ' error"; fi
        zr "$args" -c "$d/in" >/dev/null
        expect_rc_as_zstd "zest $args, as zstd"
    done
    # (zstd reads --fast=5x as --fast=5; zest refuses what is not a number.)
    z --fast=5x -c "$d/in" >/dev/null
    expect_rc 1 "zest --fast=5x"
    # -0 is the default level, as in zstd.
    z -q -0 -c "$d/in" >"$d/out.zst"
    z -q -3 -c "$d/in" >"$d/l3.zst"
    expect_same "$d/out.zst" "$d/l3.zst" "-0 is level 3"
    # -q: no warning, as zstd.
    z -q -20 -c "$d/in" >/dev/null
    expect_stderr_empty "-q -20: the warning is silenced"
    # Benchmarks go up to 22 without --ultra (zstd's -b), silently.
    z -b20 -i0 "$d/in" >"$d/bench"
    expect_rc 0 "-b20"
    if grep -q '^20#' "$d/bench"; then pass; else fail "-b20 does not benchmark level 20: $(head -2 "$d/bench")"; fi
    cd "$here" || return
}

# -df passes data that is not zstd through when the output is standard
# output (-c, or standard input alone without -o): zstd's rule.
group_pass_through() {
    local d args n=0 input
    d=$(fresh_dir)
    printf 'plain text, not zstd\n' >"$d/plain"
    for args in "-df plain" "-df -o out plain" "-df" "-d" "-df -o out" "-dfc plain" "-dt -f plain.zst" \
                "-tf plain.zst" "-df -" "-df - -o out" "-df plain plain2" "-df plain -c" "-df --no-pass-through" \
                "-d --pass-through" "-dc --pass-through plain" "-d --pass-through plain.zst" "-dcf plain plain.zst"; do
        n=$((n + 1))
        make_twins "$d/twin$n" "$d/plain"
        for t in zest zstd; do
            cp "$d/plain" "$d/twin$n/$t/plain2"
            cp "$d/plain" "$d/twin$n/$t/plain.zst"
        done
        # shellcheck disable=SC2086
        run_twins "$d/twin$n" "$d/plain" -q $args
        expect_as_zstd "$d/twin$n" "zest $args (not zstd) as zstd"
        expect_same "$d/twin$n/zest.stdout" "$d/twin$n/zstd.stdout" "zest $args: stdout as zstd's"
    done
    # What passes through is the data itself.
    (cd "$d" && z -df <plain >out; exit "$RC")
    RC=$?
    expect_rc 0 "-df from stdin"
    expect_same "$d/out" "$d/plain" "-df from stdin copies the data"
    # zstd deletes an existing output it was about to replace when the input
    # turns out not to be zstd (-df plain.zst destroys plain); zest keeps it.
    cp "$d/plain" "$d/keep.zst"
    echo precious >"$d/keep"
    z -q -df "$d/keep.zst"
    expect_rc 1 "-df on a non-zstd file with an existing output"
    if [ "$(cat "$d/keep")" = precious ]; then pass; else fail "-df: the existing output was lost"; fi
}

# The program's name chooses its mode as zstd's does: zstdcat/zcat are
# -dcf (quiet), unzstd is -d, zstdmt is -T0; zestcat, unzest and zestmt
# are zest's own names for them.
group_program_names() {
    local d name ref args
    d=$(fresh_dir)
    mkdir "$d/bin" "$d/refbin"
    for name in zestcat zstdcat zcat unzest unzstd zestmt zstdmt zest zstdcat.exe; do
        ln -s "$ZEST" "$d/bin/$name"
    done
    for name in zstdcat zcat unzstd zstdmt; do ln -s "$(command -v "$ZSTD")" "$d/refbin/$name"; done
    cp "$C/small.zst" "$C/text.zst" "$d/"
    printf 'plain\n' >"$d/plain"
    for name in zestcat zstdcat zcat zstdcat.exe; do
        (cd "$d" && "bin/$name" text.zst small.zst plain >"$d/out" 2>"$ERR"; exit $?)
        RC=$?
        expect_rc 0 "$name FILES"
        cat "$C/text" "$C/small" "$d/plain" | cmp -s - "$d/out" && pass || fail "$name FILES: not -dcf's output"
        expect_stderr_empty "$name FILES: quiet"
        expect_missing "$d/text" "$name writes no file"
        (cd "$d" && "bin/$name" <small.zst >"$d/out" 2>"$ERR"; exit $?)
        RC=$?
        expect_rc 0 "$name <FILE"
        expect_same "$d/out" "$C/small" "$name <FILE"
    done
    # The same statuses and outputs as zstd's own links, for a few cases.
    for args in "text.zst" "plain" "missing.zst" "-o out small.zst" "-v small.zst" "-q garbage.zst"; do
        for name in zstdcat unzstd; do
            rm -rf "$d/twin"
            make_twins "$d/twin" "$d/text.zst" "$d/small.zst" "$d/plain" "$C/garbage.zst"
            # shellcheck disable=SC2086
            (cd "$d/twin/zest" && "$d/bin/$name" $args </dev/null >"$d/twin/zest.stdout" 2>"$ERR"; exit $?)
            RC=$?
            # shellcheck disable=SC2086
            (cd "$d/twin/zstd" && "$d/refbin/$name" $args </dev/null >"$d/twin/zstd.stdout" 2>"$ZERR"; exit $?)
            ZRC=$?
            expect_as_zstd "$d/twin" "$name $args as zstd's $name"
            expect_same "$d/twin/zest.stdout" "$d/twin/zstd.stdout" "$name $args: stdout as zstd's"
        done
    done
    # unzest: -d.
    cp "$C/small.zst" "$d/u.zst"
    (cd "$d" && bin/unzest -q u.zst 2>"$ERR"; exit $?)
    RC=$?
    expect_rc 0 "unzest FILE"
    expect_same "$d/u" "$C/small" "unzest FILE"
    expect_exists "$d/u.zst" "unzest keeps its input"
    # zestmt and zstdmt: -T0, the same frame (zest works on one thread).
    cp "$C/text" "$d/m"
    "$d/bin/zestmt" -q -c "$d/m" >"$d/m1.zst" 2>"$ERR"
    RC=$?
    expect_rc 0 "zestmt"
    "$ZEST" -q -c "$d/m" >"$d/m2.zst"
    expect_same "$d/m1.zst" "$d/m2.zst" "zestmt compresses as zest"
    "$d/bin/zstdmt" -q -c "$d/m" >"$d/m3.zst" 2>"$ERR"
    expect_same "$d/m3.zst" "$d/m2.zst" "zstdmt compresses as zest"
    # The command line overrides the name: zestcat -o FILE writes a file.
    (cd "$d" && bin/zestcat -o named small.zst 2>"$ERR"; exit $?)
    RC=$?
    expect_rc 0 "zestcat -o FILE"
    expect_same "$d/named" "$C/small" "zestcat -o FILE"
    # Other names change nothing: zest is zest.
    "$d/bin/zest" -q -c "$d/m" >"$d/m4.zst" 2>"$ERR"
    expect_same "$d/m4.zst" "$d/m2.zst" "a link named zest"
    # A terminal is not read from: zstdcat's -f does not lift that.
    if command -v script >/dev/null 2>&1; then
        RC=0
        script -qec "'$d/bin/zestcat'" /dev/null </dev/null >"$ERR" 2>&1 || RC=$?
        expect_rc 1 "zestcat with a terminal as input"
        expect_stderr_has "terminal" "zestcat with a terminal as input"
    fi
}

# ZSTD_CLEVEL and ZSTD_NBTHREADS, read as zstd reads them: defaults the
# command line overrides, bad values ignored with zstd's warning.
group_environment() {
    local d v
    d=$(fresh_dir)
    head -c 300000 "$C/text" >"$d/in"
    z -q -1 -c "$d/in" >"$d/l1.zst"
    z -q -3 -c "$d/in" >"$d/l3.zst"
    z -q -7 -c "$d/in" >"$d/l+7.zst"
    z -q -19 -c "$d/in" >"$d/l19.zst"
    z -q --fast=5 -c "$d/in" >"$d/l-5.zst"
    for v in 19 -5 +7; do
        ZSTD_CLEVEL=$v z -q -c "$d/in" >"$d/out.zst"
        expect_rc 0 "ZSTD_CLEVEL=$v"
        expect_same "$d/out.zst" "$d/l$v.zst" "ZSTD_CLEVEL=$v sets the level"
    done
    ZSTD_CLEVEL=19 z -q -1 -c "$d/in" >"$d/out.zst"
    expect_same "$d/out.zst" "$d/l1.zst" "ZSTD_CLEVEL=19 -1: the command line wins"
    ZSTD_CLEVEL=0 z -q -c "$d/in" >"$d/out.zst"
    expect_same "$d/out.zst" "$d/l3.zst" "ZSTD_CLEVEL=0 is the default level"
    ZSTD_CLEVEL=25 z -c "$d/in" >"$d/out.zst"
    expect_stderr_has "Warning : compression level higher than max, reduced to 19" "ZSTD_CLEVEL=25"
    expect_same "$d/out.zst" "$d/l19.zst" "ZSTD_CLEVEL=25 is level 19"
    for v in abc 5x "" " 5" - 1.5 99999999999 -99999999999; do
        ZSTD_CLEVEL=$v z -c "$d/in" >"$d/out.zst"
        expect_rc 0 "ZSTD_CLEVEL='$v'"
        expect_same "$d/out.zst" "$d/l3.zst" "ZSTD_CLEVEL='$v' is ignored"
        ZSTD_CLEVEL=$v zr -c "$d/in" >/dev/null
        if [ -s "$ERR" ] && [ "$(head -1 "$ERR" | sed 's/ *$//')" = "$(head -1 "$ZERR" | sed 's/ *$//')" ]; then pass; else
            fail "ZSTD_CLEVEL='$v': warning '$(head -1 "$ERR")', zstd's '$(head -1 "$ZERR")'"
        fi
    done
    # -q does not silence these warnings: zstd prints them before it reads
    # the command line (cli-tests' compression/levels.sh expects them).
    for q in -q -qq; do
        ZSTD_CLEVEL=abc z $q -c "$d/in" >/dev/null
        # The line ends with a space, as zstd's does.
        expect_stderr_has "Ignore environment variable setting ZSTD_CLEVEL=abc: not a valid integer value " "ZSTD_CLEVEL=abc $q"
        ZSTD_NBTHREADS=x z $q -c "$d/in" >/dev/null
        expect_stderr_has "Ignore environment variable setting ZSTD_NBTHREADS=x" "ZSTD_NBTHREADS=x $q"
        ZSTD_CLEVEL=abc zr $q -c "$d/in" >/dev/null
        if grep -q "ZSTD_CLEVEL=abc" "$ZERR"; then pass; else fail "zstd $q is silent (the test's premise)"; fi
    done
    # Printed before the command line is read: a usage error still shows it.
    ZSTD_CLEVEL=abc z --no-such-option >/dev/null
    expect_stderr_has "Ignore environment variable setting ZSTD_CLEVEL=abc" "ZSTD_CLEVEL=abc before a usage error"
    for v in 4 0 1; do
        ZSTD_NBTHREADS=$v z -c "$d/in" >"$d/out.zst"
        expect_rc 0 "ZSTD_NBTHREADS=$v"
        expect_stderr_empty "ZSTD_NBTHREADS=$v"
        expect_same "$d/out.zst" "$d/l3.zst" "ZSTD_NBTHREADS=$v: the same frame"
    done
    for v in -1 abc 5x "" +2 99999999999; do
        ZSTD_NBTHREADS=$v z -c "$d/in" >"$d/out.zst"
        expect_rc 0 "ZSTD_NBTHREADS='$v'"
        ZSTD_NBTHREADS=$v zr -c "$d/in" >/dev/null
        if [ -s "$ERR" ] && [ "$(head -1 "$ERR" | sed 's/ *$//')" = "$(head -1 "$ZERR" | sed 's/ *$//')" ]; then pass; else
            fail "ZSTD_NBTHREADS='$v': warning '$(head -1 "$ERR")', zstd's '$(head -1 "$ZERR")'"
        fi
    done
    # Decompression with threads warns, as zstd; -T1 on the command line wins.
    ZSTD_NBTHREADS=4 z -d -f "$C/small.zst" -o "$d/s"
    expect_rc 0 "ZSTD_NBTHREADS=4 -d"
    expect_stderr_has "Warning : decompression does not support multi-threading" "ZSTD_NBTHREADS=4 -d"
    ZSTD_NBTHREADS=4 zr -d -f "$C/small.zst" -o "$d/s"
    if grep -q "does not support multi-threading" "$ZERR"; then pass; else fail "zstd does not warn (the test's premise)"; fi
    ZSTD_NBTHREADS=4 z -d -T1 -f "$C/small.zst" -o "$d/s"
    expect_stderr_lacks "multi-threading" "ZSTD_NBTHREADS=4 -d -T1"
    z -d -T4 --single-thread -f "$C/small.zst" -o "$d/s"
    expect_stderr_lacks "multi-threading" "-d -T4 --single-thread"
}

# --filelist FILE: more inputs, one name per line, after those of the
# command line, as zstd.
group_filelist() {
    local d args n=0
    d=$(fresh_dir)
    mkdir "$d/set"
    printf 'aaa\n' >"$d/set/a"
    printf 'bbb\n' >"$d/set/b"
    printf 'ccc\n' >"$d/set/c"
    printf 'a\nb\n' >"$d/set/list"
    printf 'missing\na\n' >"$d/set/list-missing"
    printf 'a\nb' >"$d/set/list-noeol"
    : >"$d/set/empty"
    ln -s a "$d/set/la"
    printf 'la\n' >"$d/set/list-link"
    cp "$C/small.zst" "$d/set/s.zst"
    printf 's.zst\n' >"$d/set/list-zst"
    for args in "--filelist list" "--filelist=list" "--filelist list c" "--filelist list-missing" \
                "--filelist list-noeol" "--filelist empty" "--filelist nolist" "--filelist list --filelist list-noeol" \
                "--filelist list-link" "-c --filelist=list" "-d --filelist list-zst" "--rm --filelist list" \
                "--filelist"; do
        n=$((n + 1))
        make_twins "$d/twin$n" "$d/set/"*
        # shellcheck disable=SC2086
        run_twins "$d/twin$n" /dev/null -q -f $args
        expect_as_zstd "$d/twin$n" "zest $args as zstd"
        expect_same_data "$d/twin$n/zest.stdout" "$d/twin$n/zstd.stdout" "zest $args: stdout as zstd's"
    done
    expect_exists "$d/twin1/zest/a.zst" "--filelist: a.zst"
    expect_exists "$d/twin1/zest/b.zst" "--filelist: b.zst"
    # The command line's files come first, then the list's.
    (cd "$d/twin3/zest" && z -f -v --filelist list c; exit "$RC")
    RC=$?
    if [ "$(grep -oE '^[abc] ' "$ERR" | tr -d ' \n')" = cab ]; then pass; else
        fail "--filelist order: $(grep -oE '^[abc] ' "$ERR" | tr -d ' \n'), expected cab"
    fi
    (cd "$d/twin6" && z --filelist empty; exit "$RC")
    RC=$?
    expect_rc 1 "--filelist with an empty list"
    expect_error_line "empty" "--filelist with an empty list"
    # Empty lines name nothing (zstd 1.5.4 tries a file named "").
    printf 'a\n\nb\n\n' >"$d/set/list-blank"
    (cd "$d/set" && z -q -f --filelist list-blank; exit "$RC")
    RC=$?
    expect_rc 0 "--filelist with empty lines"
    expect_exists "$d/set/b.zst" "--filelist with empty lines"
}

# .zstd is a zstd suffix like .zst: decompressed names, -d -r, and
# --exclude-compressed (group option_effects).
group_suffix_zstd() {
    local d
    d=$(fresh_dir)
    cp "$C/small.zst" "$d/x.zstd"
    z -q -d "$d/x.zstd"
    expect_rc 0 "-d x.zstd"
    expect_same "$d/x" "$C/small" "-d x.zstd writes x"
    zr -q -d "$d/x.zstd" -o "$d/x.ref"
    expect_rc_as_zstd "-d x.zstd, as zstd"
    mkdir -p "$d/tree/sub"
    cp "$C/small.zst" "$d/tree/sub/y.zstd"
    cp "$C/text.zst" "$d/tree/t.zst"
    cp "$C/small" "$d/tree/plain"
    z -q -d -r "$d/tree"
    expect_rc 0 "-d -r with .zstd files"
    expect_same "$d/tree/sub/y" "$C/small" "-d -r: sub/y.zstd"
    expect_same "$d/tree/t" "$C/text" "-d -r: t.zst"
    z -d "$d/tree/plain"
    expect_rc 1 "-d on an unknown suffix"
    expect_stderr_has "unknown suffix (.zst, .tzst, .zstd, .gz, .tgz, .xz, .txz, .lzma, .lz4 or .tlz4 expected)" "-d on an unknown suffix"
    cp "$C/small.zst" "$d/.zstd"
    z -q -d "$d/.zstd"
    expect_rc 1 "-d on a file named .zstd (no name before the suffix)"
}

# --show-default-cparams prints what zstd prints (zest's level table is
# the reference's); -vv shows the parameters zest compresses with.
group_cparams() {
    local d args
    d=$(fresh_dir)
    head -c 66383 "$C/text" >"$d/r"
    cp "$C/text" "$d/t"
    cp "$C/small" "$d/s"
    for args in "" "-1" "-19" "--fast=3" "--ultra -22" "-5" "-12"; do
        # shellcheck disable=SC2086
        (cd "$d" && z -q -f --show-default-cparams $args r t s; exit "$RC")
        RC=$?
        # shellcheck disable=SC2086
        (cd "$d" && zr -q -f --show-default-cparams $args r t s; exit "$ZRC")
        ZRC=$?
        expect_rc_as_zstd "--show-default-cparams $args, as zstd"
        if [ -s "$ERR" ] && cmp -s "$ERR" "$ZERR"; then pass; else
            fail "--show-default-cparams $args: $(diff "$ERR" "$ZERR" | head -4 | tr '\n' ' ')"
        fi
    done
    # Standard input and a missing file: parameters for an unknown size.
    (cd "$d" && z -q --show-default-cparams -c <r >/dev/null; exit "$RC")
    (cd "$d" && zr -q --show-default-cparams -c <r >/dev/null; exit "$ZRC")
    if [ "$(sed 1d "$ERR")" = "$(sed 1d "$ZERR")" ] && grep -q '(src size unknown)' "$ERR"; then pass; else
        fail "--show-default-cparams on stdin: $(head -3 "$ERR" | tr '\n' ' ')"
    fi
    (cd "$d" && z --show-default-cparams -c missing >/dev/null; exit "$RC")
    RC=$?
    expect_rc 1 "--show-default-cparams on a missing file"
    expect_stderr_has "missing (src size unknown)" "--show-default-cparams on a missing file"
    # Refused when decompressing, as zstd; ignored by -t.
    z -d --show-default-cparams "$C/small.zst" -c >/dev/null
    expect_rc 1 "-d --show-default-cparams"
    if grep -q '^zest: ' "$ERR"; then pass; else fail "-d --show-default-cparams: no 'zest: ' error"; fi
    zr -d --show-default-cparams "$C/small.zst" -c >/dev/null
    expect_rc_as_zstd "-d --show-default-cparams, as zstd"
    z -t --show-default-cparams "$C/small.zst"
    expect_rc 0 "-t --show-default-cparams"
    expect_stderr_lacks "windowLog" "-t --show-default-cparams"
    # -vv: a --zstd= line of the parameters used, as zstd -vv prints it.
    for args in -1 -3 -19; do
        (cd "$d" && z -vv -f "$args" r; exit "$RC")
        (cd "$d" && zr -vv -f "$args" r; exit "$ZRC")
        local mine ref
        mine=$(grep -o -- '--zstd=.*' "$ERR")
        ref=$(grep -o -- '--zstd=.*' "$ZERR")
        if [ -n "$mine" ]; then pass; else fail "-vv $args: no --zstd= line"; fi
        if [ "$mine" = "$ref" ]; then pass; else fail "-vv $args: '$mine', zstd's '$ref'"; fi
    done
    cat "$d/r" | "$ZEST" -vv --size-hint=1000 -c 2>"$ERR" >/dev/null
    if grep -q -- '--zstd=wlog=10,' "$ERR"; then pass; else fail "-vv --size-hint=1000: $(grep -o -- '--zstd=.*' "$ERR")"; fi
    z -v -f "$d/r"
    expect_stderr_lacks "--zstd=" "-v shows no parameters"
}

# Options zstd accepts that change nothing in zest (documented in
# docs/cli.md): the same frame as without them, as zstd accepts them.
group_accepted() {
    local d args
    d=$(fresh_dir)
    local here=$PWD
    cd "$d" || return  # a refusal that fails must not write where the suite runs
    head -c 300000 "$C/text" >"$d/in"
    z -q -c "$d/in" >"$d/plain.zst"
    for args in --compress-literals --no-compress-literals --row-match-finder --no-row-match-finder \
                --auto-threads=physical --auto-threads=logical "--auto-threads logical" --single-thread \
                --asyncio --no-asyncio --no-dictID -n "-T0 --auto-threads=logical" "--threads 3" --memlimit=64M \
                "--memory 64M" --block-size=1M "--block-size 1M" -B64K -B1MiB -B2KB; do
        # shellcheck disable=SC2086
        z -q -c $args "$d/in" >"$d/out.zst"
        expect_rc 0 "zest $args"
        expect_same "$d/out.zst" "$d/plain.zst" "zest $args changes nothing"
        # shellcheck disable=SC2086
        zr -q -c $args "$d/in" >/dev/null
        expect_rc_as_zstd "zest $args, as zstd"
    done
    # (zstd 1.5.4 takes --memlimit-decompress for --memlimit followed by junk.)
    z -q -c --memlimit-decompress=64M "$d/in" >"$d/out.zst"
    expect_rc 0 "zest --memlimit-decompress=64M"
    z -q -d -c --no-compress-literals "$d/plain.zst" >"$d/out"
    expect_rc 0 "-d --no-compress-literals"
    expect_same "$d/out" "$d/in" "-d --no-compress-literals"
    cd "$here" || return
}

# Invalid uses are refused with "zest: ..." and status 1, nothing written;
# where zstd refuses too, its status is compared.
group_refusals() {
    local d args
    d=$(fresh_dir)
    local here=$PWD
    cd "$d" || return  # a refusal that fails must not write where the suite runs
    cp "$C/small" "$d/in"
    for args in "--threads=x" "--threads" "--memory=lots" "-Mx" "-M5x" "--long=40" "--stream-size=1x" \
                "--output-dir-flat=" "--output-dir-mirror" "--filelist=" "--row-match-finder=1" \
                "--compress-literals=0" "--auto-threads" "--no-check=1" "--bogus" "-y" "-o" "--block-size=x" \
                "--threads -4" "--fast=-1" "--ultra=1" "--checksum"; do
        # shellcheck disable=SC2086
        z $args -c "$d/in" >"$d/out"
        expect_rc 1 "zest $args"
        if [ "$(head -c 6 "$ERR")" = "zest: " ]; then pass; else fail "zest $args: stderr starts '$(head -c 30 "$ERR")'"; fi
        if [ ! -s "$d/out" ]; then pass; else fail "zest $args wrote output"; fi
        # shellcheck disable=SC2086
        zr $args -c "$d/in" >/dev/null
        expect_failure_as_zstd "zest $args, as zstd"
    done
    # Stricter than zstd, which reads these as 0 or ignores what follows
    # the digits.
    for args in "--auto-threads=foo" "--fast=5x" "--memory=0" "-M" "--long=x" "--size-hint=" "-e"; do
        # shellcheck disable=SC2086
        z $args -c "$d/in" >"$d/out"
        expect_rc 1 "zest $args (zstd accepts it)"
        if [ "$(head -c 6 "$ERR")" = "zest: " ]; then pass; else fail "zest $args: stderr starts '$(head -c 30 "$ERR")'"; fi
    done
    expect_missing "$d/in.zst" "refusals write no file"
    cd "$here" || return
}

# An output that is the input itself is refused at once, without asking
# about overwriting it, as zstd refuses it.
group_same_file() {
    local d args n=0
    d=$(fresh_dir)
    cp "$C/small" "$d/a"
    cp "$C/small.zst" "$d/f.zst"
    ln -s a "$d/la"
    for args in "a -o a" "-f a -o a" "-q a -o a" "-d f.zst -o f.zst" "-df f.zst -o f.zst" "a -o la" "-f a -o la" \
                "-o a a"; do
        n=$((n + 1))
        make_twins "$d/twin$n" "$d/a" "$d/f.zst" "$d/la"
        # shellcheck disable=SC2086
        run_twins "$d/twin$n" "$YES" $args
        expect_as_zstd "$d/twin$n" "zest $args as zstd"
        expect_stderr_lacks "overwrite (y/n)" "zest $args asks no question"
        expect_stderr_has "is the input file" "zest $args"
    done
    expect_same "$d/twin1/zest/a" "$C/small" "a -o a keeps a"
    expect_no_temp "$d/twin1/zest" "a -o a"
}
