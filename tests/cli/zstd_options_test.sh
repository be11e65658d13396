# Groups of cli_test.sh (sourced by it, with its helpers and corpus): the
# options zstd users type, and behaviours taken from zstd 1.5.4, compared
# with it wherever zstd's behaviour is the specification.
# shellcheck shell=bash

# Runs a command line of zest through `bash -c` (for redirections and
# ulimit, whose -f counts KiB in bash): status in RC, stderr in $ERR.
zsh_run() {  # script
    RC=0
    bash -c "$1" 2>"$ERR" || RC=$?
}

# zest fails with status 1 where zstd fails with its own codes (zstd's
# error 11 for a wrong --stream-size, say): both succeed or both fail.
expect_failure_as_zstd() {  # description
    if [ $((RC != 0)) = $((ZRC != 0)) ]; then pass; else fail "$1: exit status $RC, zstd's $ZRC"; fi
}

# Two outputs with the same content: equal, or frames that decode alike.
expect_same_data() {  # actual expected description
    if cmp -s -- "$1" "$2"; then pass; return; fi
    if [ -s "$1" ] && "$ZSTD" -dq -c "$1" >"$1.decoded" 2>/dev/null && "$ZSTD" -dq -c "$2" >"$2.decoded" 2>/dev/null &&
       cmp -s "$1.decoded" "$2.decoded"; then
        pass
    else
        fail "$3: $1 differs from $2"
    fi
}

# The "Window Size" zstd -lv reads from a frame.
window_of() {  # file
    "$ZSTD" -lv "$1" 2>/dev/null | sed -n 's/^Window Size: .*(\([0-9]*\) B)$/\1/p'
}
# The content size zstd -lv reads ("" when not declared).
content_size_of() {  # file
    "$ZSTD" -lv "$1" 2>/dev/null | sed -n 's/^Decompressed Size: .*(\([0-9]*\) B)$/\1/p'
}

# The output reaching the file-size limit (ulimit -f) is an error like a
# full disk: status 1, "zest: FILE: File too large", no temporary file, the
# input kept. (zstd 1.5.4 dies of SIGXFSZ and leaves the partial file.)
group_fsize() {
    local d
    d=$(fresh_dir)
    head -c 12000000 /dev/urandom >"$d/big"     # incompressible: 12 MB out
    head -c 12000000 /dev/zero >"$d/zeros"
    "$ZSTD" -q "$d/zeros" -o "$d/zeros.zst"
    rm "$d/zeros"
    cp "$d/big" "$d/big.orig"
    zsh_run "ulimit -f 8192; '$ZEST' '$d/big' -o '$d/out.zst'"
    expect_rc 1 "ulimit -f: compress -o"
    expect_stderr_has "zest: $d/out.zst: File too large" "ulimit -f: compress -o"
    expect_missing "$d/out.zst" "ulimit -f: compress -o"
    expect_no_temp "$d" "ulimit -f: compress -o"
    expect_same "$d/big" "$d/big.orig" "ulimit -f: compress -o keeps the input"
    zsh_run "ulimit -f 8192; '$ZEST' --rm '$d/big'"
    expect_rc 1 "ulimit -f: compress --rm"
    expect_stderr_has "zest: $d/big.zst: File too large" "ulimit -f: compress --rm"
    expect_missing "$d/big.zst" "ulimit -f: compress --rm"
    expect_same "$d/big" "$d/big.orig" "ulimit -f: --rm keeps an input whose output failed"
    expect_no_temp "$d" "ulimit -f: compress --rm"
    # Decompression: to a derived name, to -o, sparse or not.
    for args in "" "--no-sparse" "-o '$d/named'"; do
        zsh_run "ulimit -f 8192; '$ZEST' -d $args '$d/zeros.zst'"
        expect_rc 1 "ulimit -f: -d $args"
        expect_stderr_has "File too large" "ulimit -f: -d $args"
        expect_missing "$d/zeros" "ulimit -f: -d $args"
        expect_missing "$d/named" "ulimit -f: -d $args"
        expect_no_temp "$d" "ulimit -f: -d $args"
        expect_exists "$d/zeros.zst" "ulimit -f: -d $args keeps the input"
    done
    # Standard output redirected to a file: the error, no crash.
    zsh_run "ulimit -f 8192; '$ZEST' -c '$d/big' >'$d/stdout.zst'"
    expect_rc 1 "ulimit -f: -c > file"
    expect_stderr_has "zest: (stdout): File too large" "ulimit -f: -c > file"
    zsh_run "ulimit -f 8192; '$ZEST' -dc '$d/zeros.zst' >'$d/stdout'"
    expect_rc 1 "ulimit -f: -dc > file"
    expect_stderr_has "zest: (stdout): File too large" "ulimit -f: -dc > file"
    # Under the limit everything works.
    zsh_run "ulimit -f 8192; head -c 5000000 '$d/big' | '$ZEST' -q -c >'$d/small.zst'"
    expect_rc 0 "ulimit -f: output under the limit"
    head -c 5000000 "$d/big" >"$d/small"
    "$ZSTD" -dq -c "$d/small.zst" 2>/dev/null | cmp -s - "$d/small" && pass || fail "ulimit -f: output under the limit"
}

# A low file-size limit must not hurt compression whose output is small:
# the library's streaming buffers must not count as a file (they were a
# memfd, which SIGXFSZ killed at level 19 under ulimit -f 4096).
group_fsize_library() {
    local d l
    d=$(fresh_dir)
    for l in 1 3 19; do
        zsh_run "ulimit -f 4096; echo hello | '$ZEST' -$l -c >'$d/hello.zst'"
        expect_rc 0 "ulimit -f 4096: echo hello | zest -$l -c"
        if [ "$("$ZSTD" -dq -c "$d/hello.zst" 2>/dev/null)" = hello ]; then pass; else fail "ulimit -f 4096: -$l output"; fi
    done
    zsh_run "ulimit -f 4096; head -c 300000 '$C/text' | '$ZEST' -19 -c >'$d/text.zst'"
    expect_rc 0 "ulimit -f 4096: 300 KB through zest -19 -c"
    head -c 300000 "$C/text" >"$d/text"
    "$ZSTD" -dq -c "$d/text.zst" 2>/dev/null | cmp -s - "$d/text" && pass || fail "ulimit -f 4096: -19 output"
}

# --stream-size=# pledges the exact size of an input whose size is not
# known (standard input, a pipe): declared in the frame and checked, as
# zstd; --size-hint=# only tunes the parameters for such an input.
group_sizes() {
    local d n args
    d=$(fresh_dir)
    head -c 66383 "$C/text" >"$d/in"
    n=66383
    cat "$d/in" | "$ZEST" -q --stream-size=$n -c >"$d/s.zst" 2>"$ERR"
    RC=$?
    expect_rc 0 "--stream-size=N on a pipe"
    if [ "$(content_size_of "$d/s.zst")" = $n ]; then pass; else fail "--stream-size: size not declared"; fi
    "$ZSTD" -dq -c "$d/s.zst" 2>/dev/null | cmp -s - "$d/in" && pass || fail "--stream-size: output"
    cat "$d/in" | "$ZSTD" -q --stream-size=$n -c >"$d/s.ref" 2>/dev/null
    if [ "$(window_of "$d/s.zst")" = "$(window_of "$d/s.ref")" ]; then pass; else
        fail "--stream-size: window $(window_of "$d/s.zst"), zstd's $(window_of "$d/s.ref")"
    fi
    # The same status as zstd for every way of giving it; a named file's
    # own size wins, standard input and pipes take the pledge.
    # (zstd leaves an output file after a mismatch; zest leaves none.)
    for args in "--stream-size=$n" "--stream-size=$((n - 1))" "--stream-size=$((n + 1))" "--stream-size $n" \
                "--stream-size=64K" "--stream-size=0" "--stream-size=$n -o out" "--stream-size=$((n + 1)) in" \
                "--stream-size=$n --no-content-size"; do
        make_twins "$d/twin" "$d/in"
        # shellcheck disable=SC2086
        run_twins "$d/twin" "$d/in" -q $args
        expect_rc_as_zstd "zest $args <in (a file as stdin), as zstd"
        expect_twin_files "$d/twin" "zest $args <in, as zstd"
        # shellcheck disable=SC2086
        (cd "$d/twin/zest" && cat in | "$ZEST" -q $args -c >pipe.zst 2>/dev/null; exit $?)
        RC=$?
        # shellcheck disable=SC2086
        (cd "$d/twin/zstd" && cat in | "$ZSTD" -q $args -c >pipe.zst 2>/dev/null; exit $?)
        ZRC=$?
        expect_rc_as_zstd "cat in | zest $args, as zstd"
        rm -rf "$d/twin"
    done
    (cd "$d" && z --stream-size=$((n + 1)) -c <(cat in) >/dev/null; exit "$RC")
    RC=$?
    expect_rc 11 "--stream-size on a named pipe that is shorter"  # zstd's status
    cat "$d/in" | "$ZEST" --stream-size=$((n - 1)) -c >/dev/null 2>"$ERR"
    RC=$?
    expect_rc 11 "--stream-size mismatch"
    expect_error_line "(stdin)" "--stream-size mismatch"
    expect_stderr_has "differs from --stream-size=$((n - 1))" "--stream-size mismatch says why"
    # A mismatch leaves no output file.
    (cd "$d" && cat in | "$ZEST" --stream-size=$((n + 1)) -o out.zst 2>"$ERR"; exit $?)
    RC=$?
    expect_rc 11 "--stream-size mismatch -o"
    expect_missing "$d/out.zst" "--stream-size mismatch -o"
    expect_no_temp "$d" "--stream-size mismatch -o"
    # Standard input's size is never taken, even a redirected file's, as in
    # zstd: no size declared, the window of an unknown size (zstd's), and a
    # file whose size is not its length (/proc's say 0; or one that grows
    # while it is read) compresses whole.
    for args in -3 -19 "-19 --long"; do
        # shellcheck disable=SC2086
        z -q $args -c <"$d/in" >"$d/r.zst"
        # shellcheck disable=SC2086
        "$ZSTD" -q $args -c <"$d/in" >"$d/r.ref" 2>/dev/null
        expect_rc 0 "zest $args <file"
        if [ -z "$(content_size_of "$d/r.zst")" ]; then pass; else fail "zest $args <file declares a size"; fi
        if [ "$(window_of "$d/r.zst")" = "$(window_of "$d/r.ref")" ]; then pass; else
            fail "zest $args <file: window $(window_of "$d/r.zst"), zstd's $(window_of "$d/r.ref")"
        fi
    done
    z -q -c </proc/version >"$d/proc.zst"
    expect_rc 0 "zest </proc/version"
    "$ZSTD" -dq -c "$d/proc.zst" 2>/dev/null | cmp -s - /proc/version && pass || fail "zest </proc/version: output"
    # --no-content-size: the pledge chooses the parameters, nothing is declared.
    cat "$d/in" | "$ZEST" -q --stream-size=$n --no-content-size -c >"$d/nc.zst" 2>"$ERR"
    if [ -z "$(content_size_of "$d/nc.zst")" ]; then pass; else fail "--stream-size --no-content-size declares a size"; fi
    # Decompression ignores it, as zstd does.
    z -d --stream-size=5 -c "$d/s.zst" >"$d/back"
    expect_rc 0 "-d --stream-size"
    expect_same "$d/back" "$d/in" "-d --stream-size"

    # --size-hint: the window zstd picks for that size, the same data back;
    # ignored for a file of known size.
    for h in 1000 20000 66383 10M; do
        cat "$d/in" | "$ZEST" -q --size-hint=$h -c >"$d/h.zst" 2>"$ERR"
        RC=$?
        expect_rc 0 "--size-hint=$h"
        cat "$d/in" | "$ZSTD" -q --size-hint=$h -c >"$d/h.ref" 2>/dev/null
        if [ -n "$(window_of "$d/h.zst")" ] && [ "$(window_of "$d/h.zst")" = "$(window_of "$d/h.ref")" ]; then pass; else
            fail "--size-hint=$h: window $(window_of "$d/h.zst"), zstd's $(window_of "$d/h.ref")"
        fi
        if [ -z "$(content_size_of "$d/h.zst")" ]; then pass; else fail "--size-hint=$h declares a size"; fi
        "$ZSTD" -dq -c "$d/h.zst" 2>/dev/null | cmp -s - "$d/in" && pass || fail "--size-hint=$h: output"
    done
    if [ "$(window_of "$d/h.zst")" != 1024 ]; then pass; else fail "--size-hint: every window is 1 KiB"; fi
    cat "$d/in" | "$ZEST" -q --size-hint=1000 -c >"$d/h.zst" 2>"$ERR"
    if [ "$(window_of "$d/h.zst")" = 1024 ]; then pass; else fail "--size-hint=1000: window $(window_of "$d/h.zst")"; fi
    z -q -c --size-hint=1000 "$d/in" >"$d/hf.zst"
    z -q -c "$d/in" >"$d/f.zst"
    expect_same "$d/hf.zst" "$d/f.zst" "--size-hint on a file of known size changes nothing"
    cat "$d/in" | "$ZEST" -q --size-hint 1000 -c >"$d/h2.zst" 2>"$ERR"
    expect_same "$d/h2.zst" "$d/h.zst" "--size-hint N (separate argument)"
    # Refused values, as zstd refuses them.
    for args in --stream-size=abc --stream-size=12x --stream-size=99999999999999999999 --size-hint=x \
                --size-hint=-1 --stream-size; do
        z -q "$args" -c "$d/in" >/dev/null
        expect_rc 1 "zest $args"
        if grep -q "^zest: " "$ERR"; then pass; else fail "zest $args: no 'zest: ' error"; fi
        zr -q "$args" -c "$d/in" >/dev/null
        expect_rc_as_zstd "zest $args, as zstd"
    done
}

# --output-dir-flat DIR and --output-dir-mirror DIR (also =DIR), as zstd.
group_output_dir() {
    local d args n=0 input
    d=$(fresh_dir)
    mkdir -p "$d/setup/src/sub" "$d/setup/src/sub2" "$d/setup/out" "$d/setup/mir"
    cp "$C/text" "$d/setup/src/a"
    cp "$C/small" "$d/setup/src/sub/b"
    cp "$C/binary" "$d/setup/src/sub2/b"
    cp "$C/small.zst" "$d/setup/src/c.zst"
    for input in /dev/null "$YES"; do
        for args in "--output-dir-flat out src/a src/sub/b" "--output-dir-flat=out src/a" "--output-dir-flat out/ src/a" \
                    "--output-dir-flat out -r src/sub" "-f --output-dir-flat out src/sub/b src/sub2/b" \
                    "--output-dir-flat out src/sub/b src/sub2/b" "--output-dir-flat out --rm src/a" \
                    "--output-dir-mirror mir -r src" "--output-dir-mirror=mir src/sub/b" \
                    "--output-dir-mirror mir src/a src/sub/b" "--output-dir-mirror mir ./src/sub/b" \
                    "--output-dir-flat out --output-dir-mirror mir src/a" "--output-dir-flat out -c src/a" \
                    "--output-dir-flat out -o x src/a" "-d --output-dir-flat out src/c.zst" \
                    "-d --output-dir-mirror mir src/c.zst" "-t --output-dir-flat out src/c.zst" \
                    "--output-dir-flat out" "--output-dir-flat ''" \
                    "--output-dir-flat" "--output-dir-mirror mir src/../src/a"; do
            n=$((n + 1))
            make_twins "$d/twin$n" "$d/setup/src" "$d/setup/out" "$d/setup/mir"
            # shellcheck disable=SC2086
            eval "run_twins '$d/twin$n' '$input' -q $args"
            expect_as_zstd "$d/twin$n" "zest $args <$(basename "$input") as zstd"
            expect_same_data "$d/twin$n/zest.stdout" "$d/twin$n/zstd.stdout" "zest $args: stdout as zstd's"
        done
    done
    # What lands where (the twins only say "as zstd").
    expect_exists "$d/twin1/zest/out/a.zst" "--output-dir-flat: out/a.zst"
    expect_exists "$d/twin1/zest/out/b.zst" "--output-dir-flat: out/b.zst"
    expect_missing "$d/twin1/zest/src/a.zst" "--output-dir-flat: nothing next to the input"
    expect_exists "$d/twin8/zest/mir/src/sub2/b.zst" "--output-dir-mirror -r: mir/src/sub2/b.zst"
    expect_exists "$d/twin15/zest/out/c" "-d --output-dir-flat: out/c"
    "$ZSTD" -dq -c "$d/twin1/zest/out/a.zst" 2>/dev/null | cmp -s - "$C/text" && pass || fail "--output-dir-flat: out/a.zst"
    # Same names in a flat directory: zstd's warning, then the first stays
    # (or with -f the last).
    (cd "$d/twin6/zest" && z --output-dir-flat out src/sub/b src/sub2/b </dev/null; exit "$RC")
    RC=$?
    expect_stderr_has "the same name, b" "--output-dir-flat: same names warned"
    "$ZSTD" -dq -c "$d/twin5/zest/out/b.zst" 2>/dev/null | cmp -s - "$C/binary" && pass ||
        fail "--output-dir-flat -f: the last of the same names stays"
    # A missing directory is made (zstd 1.5.4 crashes), mirrored ones with
    # their source's permissions.
    d=$(fresh_dir)
    mkdir -p "$d/src/private"
    cp "$C/small" "$d/src/private/p"
    chmod 700 "$d/src/private"
    (cd "$d" && z -q --output-dir-flat new/deeper src/private/p; exit "$RC")
    RC=$?
    expect_rc 0 "--output-dir-flat into a missing directory"
    expect_exists "$d/new/deeper/p.zst" "--output-dir-flat into a missing directory"
    (cd "$d" && z -q --output-dir-mirror m src/private/p; exit "$RC")
    RC=$?
    expect_rc 0 "--output-dir-mirror into a missing directory"
    if [ "$(stat -c %a "$d/m/src/private" 2>/dev/null)" = 700 ]; then pass; else
        fail "--output-dir-mirror: mode $(stat -c %a "$d/m/src/private" 2>/dev/null) for a 700 directory"
    fi
    # An absolute input path is mirrored under the directory, as zstd does.
    z -q --output-dir-mirror "$d/abs" "$d/src/private/p"
    expect_rc 0 "--output-dir-mirror with an absolute path"
    expect_exists "$d/abs$d/src/private/p.zst" "--output-dir-mirror with an absolute path"
    (cd "$d" && z -q --output-dir-mirror m2 ../"$(basename "$d")"/src/private/p; exit "$RC")
    RC=$?
    expect_rc 1 "--output-dir-mirror refuses a path with .."
    expect_error_line "../$(basename "$d")/src/private/p" "--output-dir-mirror refuses a path with .."
    expect_missing "$d/m2" "--output-dir-mirror refuses a path with .."
    # A file in the way of the directory.
    : >"$d/blocker"
    z -q --output-dir-flat "$d/blocker" "$d/src/private/p"
    expect_rc 1 "--output-dir-flat onto a file"
    expect_error_line "$d/blocker" "--output-dir-flat onto a file"
}

# Options whose effect is zstd's on the same inputs: --exclude-compressed,
# --[no-]content-size, --[no-]sparse, and --[no-]progress's summary lines.
group_option_effects() {
    local d s args blocks size
    d=$(fresh_dir)
    mkdir "$d/set"
    # (Suffixes on which zstd 1.5.4, the oracle, and 1.5.6 agree: .bz2 and
    # the other 1.5.6 additions are checked in the compress group.)
    for s in gz tgz xz txz lzma lz4 tlz4 tzst zst Z ZST txt; do cp "$C/small" "$d/set/f.$s"; done
    make_twins "$d/twin" "$d/set/"*
    (cd "$d/twin/zest" && z -q -f --exclude-compressed f.*; exit "$RC")
    RC=$?
    (cd "$d/twin/zstd" && zr -q -f --exclude-compressed f.*; exit "$ZRC")
    ZRC=$?
    expect_as_zstd "$d/twin" "--exclude-compressed, as zstd"
    expect_exists "$d/twin/zest/f.txt.zst" "--exclude-compressed compresses f.txt"
    expect_missing "$d/twin/zest/f.gz.zst" "--exclude-compressed skips f.gz"
    # .zstd is a zstd file too for zest (zstd 1.5.4 compresses it again).
    cp "$C/small" "$d/set/g.zstd"
    z -q --exclude-compressed "$d/set/g.zstd"
    expect_rc 0 "--exclude-compressed on .zstd"
    expect_missing "$d/set/g.zstd.zst" "--exclude-compressed skips .zstd"
    z -q "$d/set/g.zstd"
    expect_exists "$d/set/g.zstd.zst" "without --exclude-compressed, .zstd is compressed"

    # --[no-]content-size on files and pipes: the frame header descriptor as zstd's.
    for args in "" "--content-size" "--no-content-size" "--no-content-size --content-size"; do
        z -q -c $args "$C/text" >"$d/c.zst"
        zr -q -c $args "$C/text" >"$d/c.ref"
        if [ "$(od -An -tx1 -j4 -N1 "$d/c.zst")" = "$(od -An -tx1 -j4 -N1 "$d/c.ref")" ]; then pass; else
            fail "zest -c $args FILE: descriptor $(od -An -tx1 -j4 -N1 "$d/c.zst"), zstd's $(od -An -tx1 -j4 -N1 "$d/c.ref")"
        fi
        if [ "$(content_size_of "$d/c.zst")" = "$(content_size_of "$d/c.ref")" ]; then pass; else
            fail "zest -c $args FILE: content size '$(content_size_of "$d/c.zst")', zstd's '$(content_size_of "$d/c.ref")'"
        fi
        cat "$C/text" | "$ZEST" -q -c $args >"$d/p.zst" 2>"$ERR"
        cat "$C/text" | "$ZSTD" -q -c $args >"$d/p.ref" 2>/dev/null
        if [ "$(content_size_of "$d/p.zst")" = "$(content_size_of "$d/p.ref")" ]; then pass; else
            fail "cat | zest $args: content size '$(content_size_of "$d/p.zst")', zstd's '$(content_size_of "$d/p.ref")'"
        fi
    done

    # --[no-]sparse: decompressed files skip blocks of zeros (on disk), as
    # zstd's do; standard output only with --sparse, and only when it is a
    # regular file (a pipe takes the zeros, where zstd fails).
    d=$(fresh_dir)
    { head -c 1000000 "$C/binary"; head -c 30000000 /dev/zero; printf 'end'; } >"$d/sp"
    size=$(stat -c %s "$d/sp")
    "$ZSTD" -q "$d/sp" -o "$d/sp.zst"
    truncate -s 30M "$d/probe"
    if [ "$(stat -c %b "$d/probe")" -gt 100 ]; then
        echo "note [$group]: $d holds no sparse files; sparse checks skipped"
    else
        for args in "" "--sparse" "--no-sparse"; do
            rm -f "$d/out" "$d/ref"
            z -q -d $args "$d/sp.zst" -o "$d/out"
            zr -q -d $args "$d/sp.zst" -o "$d/ref"
            expect_same "$d/out" "$d/sp" "-d $args -o FILE"
            blocks=$(($(stat -c '%b * %B' "$d/out") / 1000000))
            if [ $((blocks < 10)) = $(($(stat -c '%b * %B' "$d/ref") / 1000000 < 10)) ]; then pass; else
                fail "-d $args: $blocks MB on disk, zstd's file $(($(stat -c '%b * %B' "$d/ref") / 1000000)) MB"
            fi
            rm -f "$d/out" "$d/ref"
            z -q -d -c $args "$d/sp.zst" >"$d/out"
            zr -q -d -c $args "$d/sp.zst" >"$d/ref"
            expect_same "$d/out" "$d/sp" "-dc $args > FILE"
            blocks=$(($(stat -c '%b * %B' "$d/out") / 1000000))
            if [ $((blocks < 10)) = $(($(stat -c '%b * %B' "$d/ref") / 1000000 < 10)) ]; then pass; else
                fail "-dc $args > FILE: $blocks MB on disk, zstd's file $(($(stat -c '%b * %B' "$d/ref") / 1000000)) MB"
            fi
        done
        if [ "$(($(stat -c '%b * %B' "$d/out") / 1000000))" -gt 20 ]; then pass; else fail "--no-sparse: a sparse file"; fi
        # A file that ends with zeros still has its full length.
        head -c 5000000 /dev/zero >"$d/tail"
        "$ZSTD" -q "$d/tail" -o "$d/tail.zst"
        mv "$d/tail" "$d/tail.orig"
        z -q -d "$d/tail.zst"
        expect_same "$d/tail" "$d/tail.orig" "-d of zeros only (a file that is one hole)"
        # Appending and pipes: the zeros are written.
        printf 'head' >"$d/app"
        z -q -d -c --sparse "$d/sp.zst" >>"$d/app"
        expect_rc 0 "-dc --sparse >> FILE"
        { printf 'head'; cat "$d/sp"; } | cmp -s - "$d/app" && pass || fail "-dc --sparse >> FILE"
        "$ZEST" -q -d -c --sparse "$d/sp.zst" 2>"$ERR" | cmp -s - "$d/sp"
        if [ "${PIPESTATUS[*]}" = "0 0" ]; then pass; else fail "-dc --sparse | pipe: statuses ${PIPESTATUS[*]}"; fi
        # Over an existing file's bytes (<>): nothing of the old content shows.
        head -c "$size" /dev/urandom >"$d/old"
        z -q -d -c --sparse "$d/sp.zst" 1<>"$d/old"
        expect_same "$d/old" "$d/sp" "-dc --sparse 1<> FILE"
    fi

    # --progress outweighs -q for the result lines, as in zstd; -qq
    # silences everything; --no-progress keeps them.
    d=$(fresh_dir)
    cp "$C/text.zst" "$C/small.zst" "$C/text" "$d/"
    for args in "-d -q --progress -f text.zst -o out" "-d -q -f text.zst -o out" "-d -qq --progress -f text.zst -o out" \
                "-d -q --progress -f text.zst small.zst" "-d -f text.zst -o out" "-d --no-progress -f text.zst -o out" \
                "-q --progress -f text -o t.zst" "-dc -q --progress text.zst" "-dc --progress text.zst" "-dc text.zst" \
                "-t -q --progress text.zst" "-d -v -f text.zst small.zst"; do
        # shellcheck disable=SC2086
        (cd "$d" && z $args >/dev/null; exit "$RC")
        # shellcheck disable=SC2086
        (cd "$d" && zr $args >/dev/null; exit "$ZRC")
        local mine ref
        mine=$(tr '\r' '\n' <"$ERR" | grep -cE 'bytes|files|%')
        ref=$(tr '\r' '\n' <"$ZERR" | grep -cE 'bytes|files|%' )
        if [ "$((mine > 0))" = "$((ref > 0))" ]; then pass; else
            fail "zest $args: result lines '$(tr '\r' '\n' <"$ERR" | grep -E 'bytes|files|%' | head -2)', zstd's '$(tr '\r' '\n' <"$ZERR" | grep -E 'bytes|files|%' | head -2)'"
        fi
    done
    (cd "$d" && z -d -q --progress -f text.zst small.zst; exit "$RC")
    expect_stderr_has "2 files decompressed :" "-d -q --progress: the summary of two files"
    if grep -q "bytes total $" "$ERR"; then pass; else fail "the summary line ends with a space, as zstd's"; fi
    (cd "$d" && z -d -q --progress -f text.zst -o out; exit "$RC")
    expect_stderr_has "text.zst            : 1288895 bytes" "-d -q --progress: the result line"
}

# -l on damaged files says what it found: frames read, where it stopped.
group_list_damaged() {
    local d one two
    d=$(fresh_dir)
    cat "$C/small.zst" "$C/small.zst" "$C/text.zst" >"$d/three.zst"
    one=$(stat -c %s "$C/small.zst")
    two=$((2 * one))
    head -c $((two + 100)) "$d/three.zst" >"$d/cut.zst"
    z -l "$d/cut.zst" >/dev/null
    expect_rc 1 "-l on a truncated file"
    zr -l "$d/cut.zst" >/dev/null
    expect_rc_as_zstd "-l on a truncated file, as zstd"
    expect_stderr_has "zest: $d/cut.zst: truncated frame after 2 frames, at byte $two of $((two + 100))" \
        "-l on a truncated file"
    expect_stderr_lacks "not compressed by zstd" "-l on a truncated file"
    { cat "$C/small.zst"; printf 'trailing garbage'; } >"$d/tail.zst"
    z -l "$d/tail.zst" >/dev/null
    expect_rc 1 "-l with garbage after a frame"
    expect_stderr_has "after 1 frame, at byte $one of $((one + 16))" "-l with garbage after a frame"
    { cat "$C/small.zst"; printf 'ab'; } >"$d/short.zst"
    z -l "$d/short.zst" >/dev/null
    expect_stderr_has "after 1 frame, at byte $one of $((one + 2))" "-l with 2 bytes after a frame"
    head -c 10 "$C/text.zst" >"$d/head.zst"
    z -l "$d/head.zst" >/dev/null
    expect_rc 1 "-l on a cut frame header"
    expect_stderr_has "truncated frame at byte 0 of 10" "-l on a cut frame header"
    # A reserved block type: the first block header's type bits set to 3.
    cp "$C/small.zst" "$d/reserved.zst"
    local hdr
    hdr=$(od -An -tu1 -j6 -N1 "$d/reserved.zst" | tr -d ' ')   # small.zst: 6-byte frame header
    printf "\\$(printf %03o $((hdr | 6)))" | dd of="$d/reserved.zst" bs=1 seek=6 count=1 conv=notrunc status=none
    cat "$C/small.zst" "$d/reserved.zst" >"$d/second-bad.zst"
    z -l "$d/second-bad.zst" >/dev/null
    expect_rc 1 "-l on a reserved block type"
    expect_stderr_has "reserved block type after 1 frame, at byte $one of $((2 * one))" "-l on a reserved block type"
    # Not zstd at all: zstd's row on stdout.
    z -l "$C/garbage.zst" >"$d/out"
    expect_rc 1 "-l on garbage"
    grep -qxF "File \"$C/garbage.zst\" not compressed by zstd " "$d/out" && pass || fail "-l on garbage: $(cat "$d/out")"
    printf 'ab' >"$d/two.zst"
    z -l "$d/two.zst" >"$d/out"
    grep -qxF "File \"$d/two.zst\" not compressed by zstd " "$d/out" && pass || fail "-l on two bytes: $(cat "$d/out")"
}

# Reads 50 MiB from a FIFO, stalls 2 seconds, reads the rest (never waits
# more than a minute for a writer that does not come).
slow_reader() {  # fifo
    timeout 60 sh -c '{ head -c 50M >/dev/null; sleep 2; cat >/dev/null; } <"$1"' reader "$1"
}

# Decompression shows a progress line on a terminal as compression does,
# also while the output of one input buffer is being written (a few KiB of
# input make 200 MiB here, written to a reader that stalls).
group_progress_decompress() {
    local d mib pid
    d=$(fresh_dir)
    head -c 200M /dev/zero | "$ZSTD" -q -c >"$d/z.zst"
    mkfifo "$d/fifo"
    if command -v script >/dev/null 2>&1; then
        script -qec "'$ZEST' -d -f '$d/z.zst' -o '$d/fifo'" /dev/null >"$d/tty" 2>&1 &
        pid=$!
        slow_reader "$d/fifo"
        wait "$pid"
        if grep -q 'MB/s' "$d/tty"; then pass; else fail "-d on a terminal: no progress line: $(head -c 300 "$d/tty")"; fi
        mib=$(tr '\r' '\n' <"$d/tty" | sed -n 's/.*=> \([0-9]*\)\.[0-9] MiB.*/\1/p' | head -1)
        if [ -n "$mib" ] && [ "$mib" -lt 199 ]; then pass; else
            fail "-d on a terminal: no progress line while writing (first shows '$mib' MiB)"
        fi
        if grep -q '%' "$d/tty"; then pass; else fail "-d on a terminal: no percentage for a file of known size"; fi
    fi
    # --progress on a stderr that is not a terminal; --no-progress on one.
    "$ZEST" -d -f --progress "$d/z.zst" -o "$d/fifo" 2>"$ERR" &
    pid=$!
    slow_reader "$d/fifo"
    wait "$pid"
    if grep -q 'MB/s' "$ERR"; then pass; else fail "-d --progress: no progress line"; fi
    if command -v script >/dev/null 2>&1; then
        script -qec "'$ZEST' -d -f --no-progress '$d/z.zst' -o '$d/fifo'" /dev/null >"$d/tty" 2>&1 &
        pid=$!
        slow_reader "$d/fifo"
        wait "$pid"
        if grep -q 'MB/s' "$d/tty"; then fail "-d --no-progress on a terminal shows progress"; else pass; fi
        if grep -q 'z.zst *: 209715200 bytes' "$d/tty"; then pass; else fail "-d --no-progress: no result line"; fi
    fi
}

# --zstd=KEY=VALUE,...: the parameters beyond the level, with zstd's keys
# and value syntax. Frames written with them decode with the other tool,
# declare the windows zstd's declare, the -vv line shows them; what zstd
# refuses, zest refuses (status 1 where zstd says 1 or 11).
group_zstd_params() {
    local d args level levels op mine ref
    d=$(fresh_dir)
    local here=$PWD
    cd "$d" || return  # a refusal that fails must not write where the suite runs
    head -c 300000 "$C/binary" >"$d/bin"
    { head -c 300000 "$C/text"; cat "$d/bin"; } >"$d/in"   # 600 KB: above every size class
    for args in "wlog=20" "wlog=23" "wlog=12" "windowLog=19,chainLog=16,hashLog=17" "clog=6,hlog=6,slog=1" \
                "hlog=24,clog=24,wlog=16" "slog=3,mml=6,tlen=16,strat=1" "strat=1,tlen=100" "mml=7,strategy=1" \
                "strat=2" "strat=3" "strat=4" "strat=5" "strat=6" "strat=7" "strat=9" "searchLog=4,minMatch=5,targetLength=32,strat=5" \
                "tlen=1K,strat=4" "wlog=" "strat=0" "ovlog=5" "lhlog=20,lmml=64,lblog=3,lhrlog=4" \
                "overlapLog=9,ldmHashLog=6,ldmMinMatch=4096,ldmBucketSizeLog=8,ldmHashRateLog=25"; do
        levels="-3 --fast=1"
        case $args in wlog=20|strat=3|hlog=24*) levels="$levels -19" ;; esac
        for level in $levels; do
            z -q -f $level --no-content-size --zstd="$args" "$d/in" -o "$d/z.zst"
            expect_rc 0 "$level --zstd=$args"
            zr -q -f $level --no-content-size --zstd="$args" "$d/in" -o "$d/r.zst"
            if "$ZSTD" -dq -c "$d/z.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else
                fail "$level --zstd=$args: zstd does not decode zest's frame to the input"
            fi
            if "$ZEST" -dq -c "$d/r.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else
                fail "$level --zstd=$args: zest does not decode zstd's frame"
            fi
            if [ "$(window_of "$d/z.zst")" = "$(window_of "$d/r.zst")" ]; then pass; else
                fail "$level --zstd=$args: window $(window_of "$d/z.zst"), zstd's $(window_of "$d/r.zst")"
            fi
        done
    done
    # A window set is the frame's, shrunk to a smaller input like the level's.
    z -q -f --zstd=wlog=22 "$d/bin" -o "$d/small.zst" --no-content-size
    zr -q -f --zstd=wlog=22 "$d/bin" -o "$d/small.ref" --no-content-size
    if [ "$(window_of "$d/small.zst")" = 524288 ] && [ "$(window_of "$d/small.ref")" = 524288 ]; then pass; else
        fail "--zstd=wlog=22 on 300 KB: window $(window_of "$d/small.zst"), zstd's $(window_of "$d/small.ref")"
    fi
    # Several --zstd options add up; later values win.
    z -q -c --zstd=wlog=20,strat=1 "$d/in" >"$d/one.zst"
    z -q -c --zstd=wlog=18 --zstd=strat=1 --zstd=wlog=20 "$d/in" >"$d/many.zst"
    expect_same "$d/many.zst" "$d/one.zst" "--zstd options add up"
    # The keys zest takes without effect change nothing.
    z -q -c "$d/in" >"$d/plain.zst"
    z -q -c --zstd=ovlog=5,lhlog=20,lmml=64,lblog=3,lhrlog=4 "$d/in" >"$d/ldm.zst"
    expect_same "$d/ldm.zst" "$d/plain.zst" "--zstd=ovlog,lhlog,lmml,lblog,lhrlog change nothing"
    # Standard input, size unknown: the window set as it is.
    cat "$d/bin" | "$ZEST" -q -c --zstd=wlog=21 >"$d/pipe.zst"
    cat "$d/bin" | "$ZSTD" -q -c --zstd=wlog=21 >"$d/pipe.ref"
    if [ "$(window_of "$d/pipe.zst")" = "$(window_of "$d/pipe.ref")" ]; then pass; else
        fail "cat | --zstd=wlog=21: window $(window_of "$d/pipe.zst"), zstd's $(window_of "$d/pipe.ref")"
    fi
    # -vv: the --zstd= line shows the values set (these stay as set: below the input's size).
    args="hlog=15,clog=14,slog=3,mml=6,tlen=16,strat=1"
    z -vv -f --zstd=$args "$d/in" -o "$d/v.zst"
    zr -vvvv -f --zstd=$args "$d/in" -o "$d/v.ref"
    mine=$(grep -o -- '--zstd=wlog.*' "$ERR")
    ref=$(grep -o -- '--zstd=wlog.*' "$ZERR")
    if [ -n "$mine" ] && [ "$mine" = "$ref" ]; then pass; else fail "-vv --zstd=$args: '$mine', zstd's '$ref'"; fi
    # Refused by both: unknown keys, bad syntax, values beyond the bounds.
    for args in "foo=1" "wlog" "wlog=abc" "wlog=20x" "wlog=20," ",wlog=20" "wlog=20,,hlog=18" "wlog=20:hlog=18" \
                "WLOG=20" "windowlog=20" "wlo=20" "tlen=1k" "strat=btultra2" "wlog=4294967296" \
                "wlog=9" "wlog=32" "wlog=1K" "hlog=5" "hlog=31" "clog=5" "clog=31" "slog=31" "mml=2" "mml=8" \
                "tlen=131073" "strat=10" "strategy=4294967295" "lhlog=31" "lmml=3" "lblog=9" "lhrlog=26" ""; do
        # zstd's statuses: 1 for the syntax, 11 for a value its context
        # refuses (out of bounds).
        z --zstd="$args" -c "$d/bin" >"$d/out"
        if [ "$RC" -ne 0 ]; then pass; else fail "zest --zstd=$args: exit status 0"; fi
        if [ "$(head -c 6 "$ERR")" = "zest: " ]; then pass; else fail "zest --zstd=$args: stderr starts '$(head -c 30 "$ERR")'"; fi
        if [ ! -s "$d/out" ]; then pass; else fail "zest --zstd=$args wrote output"; fi
        zr --zstd="$args" -c "$d/bin" >/dev/null
        expect_rc_as_zstd "zest --zstd=$args, as zstd"
    done
    z -q --zstd=strat=10 "$d/bin" -o "$d/strat10.zst"
    expect_rc 11 "--zstd=strat=10"
    expect_missing "$d/strat10.zst" "--zstd=strat=10"
    z -q --zstd=strat=10 "$d/no-such-file" -o "$d/strat10.zst"
    expect_rc 11 "--zstd=strat=10 on a missing file"
    z -q --zstd=foo=1 -c "$d/bin" >/dev/null
    expect_stderr_has "Incorrect parameters" "--zstd=foo=1 says what zstd says"
    z -q --zstd=hlog=31 -c "$d/bin" >/dev/null
    expect_stderr_has "hashLog=31 is out of bounds (6..30)" "--zstd=hlog=31 names the parameter and its bounds"
    # Decoding: only wlog counts, as the largest window accepted (unless -M).
    "$ZSTD" -q -f --no-content-size --zstd=wlog=20 "$d/in" -o "$d/w20.zst"
    for args in "--zstd=wlog=20" "--zstd=wlog=19" "--zstd=wlog=9" "--zstd=wlog=19 -M2MB" "--zstd=hlog=31" \
                "--zstd=lhlog=31" "--long=27 --zstd=wlog=19" "--zstd=wlog=19 --long=27"; do
        for op in -d -t; do
            # shellcheck disable=SC2086
            z -q $op $args -c "$d/w20.zst" >/dev/null
            # shellcheck disable=SC2086
            zr -q $op $args -c "$d/w20.zst" >/dev/null
            expect_rc_as_zstd "$op $args, as zstd"
        done
    done
    # Benchmarks take them too.
    z -q -b1 -e2 -i0 --zstd=strat=1,mml=5 "$d/bin" >/dev/null
    expect_rc 0 "-b1 -e2 --zstd=strat=1,mml=5"
    z -q -b1 -i0 --zstd=hlog=31 "$d/bin" >/dev/null
    expect_rc 1 "-b1 --zstd=hlog=31"
    expect_missing "$d/bin.zst" "refusals write no file"
    cd "$here" || return
}

# --long[=#]: long-distance matching with a window of 2^# (27 without #).
# Two similar halves of 9 MiB: further apart than level 19's window (8 MiB),
# so only --long finds the second; zest's frame must be within 1% of
# zstd's, and each tool decodes the other's.
group_long() {
    local d zs rs
    d=$(fresh_dir)
    head -c 9M /dev/urandom >"$d/half"
    cp "$d/half" "$d/other"
    flip_byte "$d/other" 3000000
    flip_byte "$d/other" 7000000
    cat "$d/half" "$d/other" >"$d/in"
    z -q -f --long=27 -19 "$d/in" -o "$d/z.zst"
    expect_rc 0 "--long=27 -19"
    zr -q -f --long=27 -19 "$d/in" -o "$d/r.zst"
    zs=$(stat -c %s "$d/z.zst")
    rs=$(stat -c %s "$d/r.zst")
    if [ "$zs" -le $((rs + rs / 100)) ]; then pass; else fail "--long=27 -19: $zs bytes, zstd's $rs"; fi
    if [ "$zs" -lt $((9 * 1024 * 1024 + 65536)) ]; then pass; else fail "--long=27 -19: the second half cost $zs bytes"; fi
    if [ "$(window_of "$d/z.zst")" = "$(window_of "$d/r.zst")" ]; then pass; else
        fail "--long=27: window $(window_of "$d/z.zst"), zstd's $(window_of "$d/r.zst")"
    fi
    # Streamed (size unknown), the frame declares the 2^27 window as zstd's does.
    cat "$d/in" | "$ZEST" -q -c --long=27 -3 >"$d/s.zst"
    cat "$d/in" | "$ZSTD" -q -c --long=27 -3 >"$d/t.zst"
    if [ "$(window_of "$d/s.zst")" = 134217728 ] && [ "$(window_of "$d/t.zst")" = 134217728 ]; then pass; else
        fail "--long=27 streamed: window $(window_of "$d/s.zst"), zstd's $(window_of "$d/t.zst")"
    fi
    if [ "$(stat -c %s "$d/s.zst")" -lt $((9 * 1024 * 1024 + 65536)) ]; then pass; else fail "--long=27 streamed did not find the repeat"; fi
    if "$ZSTD" -dq --long=27 -c "$d/z.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else
        fail "--long=27 -19: zstd does not decode zest's frame"
    fi
    if "$ZEST" -dq --long=27 -c "$d/r.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else
        fail "--long=27 -19: zest does not decode zstd's frame"
    fi
    # --long alone: 2^27 as well; -t and -b take it too.
    z -q -f --long -3 "$d/in" -o "$d/l.zst"
    expect_rc 0 "--long -3"
    if [ "$(stat -c %s "$d/l.zst")" -lt $((9 * 1024 * 1024 + 65536)) ]; then pass; else fail "--long -3 did not find the repeat"; fi
    z -q -t --long "$d/l.zst"
    expect_rc 0 "-t --long"
    z -q -b3 -i0 --long "$d/in"
    expect_rc 0 "-b3 --long"
}

# -T#, -T0, ZSTD_NBTHREADS, -B#, --single-thread: compression with workers
# writes one ordinary frame that zstd reads, the same for every number of
# workers (a file and a pipe), and stdin of unknown size works.
group_threads() {
    local d t ref
    d=$(fresh_dir)
    seq 1 230000 | awk '{ print $1, $1 % 977, "frames and jobs", ($1 * 7919) % 1000003 }' >"$d/in"
    z -q -f -3 -B1M -T1 "$d/in" -o "$d/t1.zst"
    expect_rc 0 "-T1 -B1M"
    for t in 2 3 4 0; do
        z -q -f -3 -B1M -T$t "$d/in" -o "$d/t$t.zst"
        expect_rc 0 "-T$t -B1M"
        expect_same "$d/t$t.zst" "$d/t1.zst" "-T$t writes the frame of -T1"
    done
    ZSTD_NBTHREADS=3 "$ZEST" -q -f -3 -B1M "$d/in" -o "$d/env.zst" 2>"$ERR"
    expect_same "$d/env.zst" "$d/t1.zst" "ZSTD_NBTHREADS=3 writes the frame of -T1"
    z -q -f -3 --threads=2 --block-size=1MiB "$d/in" -o "$d/long.zst"
    expect_same "$d/long.zst" "$d/t1.zst" "--threads=2 --block-size=1MiB writes the frame of -T1 -B1M"
    if "$ZSTD" -dq -c "$d/t2.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else fail "zstd does not decode -T2's frame"; fi
    # From a pipe (no size known) and with a checksum check by zstd.
    cat "$d/in" | "$ZEST" -q -c -5 -B1M -T2 >"$d/p2.zst" 2>"$ERR"
    cat "$d/in" | "$ZEST" -q -c -5 -B1M -T4 >"$d/p4.zst" 2>"$ERR"
    expect_same "$d/p4.zst" "$d/p2.zst" "a pipe with -T4 writes the frame of -T2"
    if "$ZSTD" -tq "$d/p2.zst" 2>/dev/null && "$ZSTD" -dq -c "$d/p2.zst" | cmp -s - "$d/in"; then pass; else
        fail "zstd does not restore a piped -T2 frame"
    fi
    # --single-thread: all on the main thread, a valid frame as well.
    z -q -f -3 --single-thread "$d/in" -o "$d/s.zst"
    expect_rc 0 "--single-thread"
    if "$ZSTD" -dq -c "$d/s.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else fail "--single-thread frame"; fi
    # zstd's frame for the same input decodes, whatever its threads.
    "$ZSTD" -q -f -3 -T2 "$d/in" -o "$d/r.zst" 2>/dev/null
    if "$ZEST" -dq -c "$d/r.zst" 2>/dev/null | cmp -s - "$d/in"; then pass; else fail "zest does not decode zstd -T2"; fi
    # Sizes within 1% of zstd's at the same settings.
    ref=$(stat -c %s "$d/r.zst")
    z -q -f -3 -T2 "$d/in" -o "$d/d2.zst"
    if [ "$(stat -c %s "$d/d2.zst")" -le $((ref + ref / 100)) ]; then pass; else
        fail "-3 -T2: $(stat -c %s "$d/d2.zst") bytes, zstd's $ref"
    fi
    # -T0 counts physical cores unless --auto-threads=logical, as zstd does
    # (zstd reads /proc/cpuinfo, zest sysfs: the same count).
    for t in "" "--auto-threads=physical" "--auto-threads=logical"; do
        "$ZEST" -v -f -T0 $t "$d/in" -o "$d/v.zst" 2>"$ERR"
        "$ZSTD" -v -f -T0 $t "$d/in" -o "$d/w.zst" 2>"$d/zstd.err"
        got=$(grep -o 'Note: [0-9]* [a-z]* core(s) detected' "$ERR")
        want=$(grep -o 'Note: [0-9]* [a-z]* core(s) detected' "$d/zstd.err")
        if [ -n "$got" ] && [ "$got" = "$want" ]; then pass; else fail "-T0 $t: '$got', zstd '$want'"; fi
    done
    # --long with workers: the long matches reach across jobs (2 MiB with
    # --long), so a 3 MiB repeat costs little, with every thread count.
    head -c 3145728 /dev/urandom >"$d/rnd"
    cat "$d/rnd" "$d/rnd" >"$d/far"
    for t in 1 2 3; do
        z -q -f -3 --long=24 -T$t "$d/far" -o "$d/far$t.zst"
        expect_rc 0 "--long=24 -T$t"
    done
    expect_same "$d/far2.zst" "$d/far1.zst" "--long -T2 writes the frame of -T1"
    expect_same "$d/far3.zst" "$d/far1.zst" "--long -T3 writes the frame of -T1"
    if [ "$(stat -c %s "$d/far2.zst")" -lt $((3145728 + 3145728 / 20)) ]; then pass; else
        fail "--long -T2: $(stat -c %s "$d/far2.zst") bytes, the repeat was not found"
    fi
    if "$ZSTD" -dq --long=24 -c "$d/far2.zst" 2>/dev/null | cmp -s - "$d/far"; then pass; else
        fail "zstd does not decode --long -T2's frame"
    fi
    cat "$d/far" | "$ZEST" -q -c -3 --long=24 -T2 >"$d/farp.zst" 2>"$ERR"
    if [ "$(stat -c %s "$d/farp.zst")" -lt $((3145728 + 3145728 / 20)) ] &&
        "$ZSTD" -dq --long=24 -c "$d/farp.zst" 2>/dev/null | cmp -s - "$d/far"; then pass; else
        fail "--long -T2 from a pipe: $(stat -c %s "$d/farp.zst") bytes or not decoded"
    fi
}
