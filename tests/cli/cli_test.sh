#!/usr/bin/env bash
# Tests of the `zest` command-line tool, with the system zstd as the oracle:
# what zstd writes, `zest -d` must restore byte for byte, and the tool must
# behave like `zstd -d` (output names, overwrite refusal, exit statuses,
# "zest: FILE: reason" errors, no partial output after a failure).
#
# Usage: cli_test.sh ZEST ZSTD [GROUP...]   (no GROUP runs them all)
# Exits 0 when every check passes, 1 otherwise, 77 (skip) without zstd.
set -u
umask 022

ZEST=${1:?usage: cli_test.sh ZEST ZSTD [GROUP...]}
ZSTD=${2:?usage: cli_test.sh ZEST ZSTD [GROUP...]}
shift 2
ALL_GROUPS=(roundtrip stdio multi test errors overwrite options compress signals
            list recursive levels messages bench interop progress signals_compress streaming
            compat fsize fsize_library sizes output_dir option_effects list_damaged progress_decompress
            level_parsing pass_through program_names environment filelist suffix_zstd cparams
            accepted refusals same_file zstd_params long dictionary train threads)
GROUPS_TO_RUN=("$@")
[ ${#GROUPS_TO_RUN[@]} -eq 0 ] && GROUPS_TO_RUN=("${ALL_GROUPS[@]}")

if ! "$ZSTD" --version >/dev/null 2>&1; then
    echo "SKIP: reference zstd not usable at '$ZSTD'"
    exit 77
fi
[ -x "$ZEST" ] || { echo "FAIL: zest binary not found at '$ZEST'"; exit 1; }
ZEST=$(cd "$(dirname "$ZEST")" && pwd)/$(basename "$ZEST")  # cases change directory

# Like zstd, zest asks before overwriting a file (or concatenating several
# inputs into one -o file) and reads the answer from standard input, whatever
# it is: no question may wait on the terminal of whoever runs the suite. A
# case that answers gives its answer explicitly (z ... <"$YES").
exec </dev/null

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zest-cli-test.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
ERR=$WORK/stderr
ZERR=$WORK/zstd-stderr
YES=$WORK/answer-yes   # an answer line for zest's and zstd's questions
NO=$WORK/answer-no
printf 'y\n' >"$YES"
printf 'n\n' >"$NO"
checks=0
failures=0
group=setup

# shellcheck source=check_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
expect_stderr_empty() {
    if [ ! -s "$ERR" ]; then pass; else fail "$1: stderr not empty"; fi
}
expect_stderr_lacks() {  # text description
    if grep -qF -- "$1" "$ERR"; then fail "$2: stderr has '$1'"; else pass; fi
}

# Runs the reference zstd as z runs zest: status in ZRC, stderr in $ZERR.
zr() {
    ZRC=0
    "$ZSTD" "$@" 2>"$ZERR" || ZRC=$?
}
# Twin cases: the same files in DIR/zest and DIR/zstd, each tool run in its
# own copy with the same (relative) arguments and the same standard input.
make_twins() {  # dir file...: copies the files and trees (links as links) into both
    local dir=$1 t
    shift
    for t in zest zstd; do
        mkdir -p "$dir/$t"
        [ $# -eq 0 ] || cp -RP -- "$@" "$dir/$t/"
    done
}
run_twins() {  # dir stdin-file args...: RC and $ERR from zest, ZRC and $ZERR from zstd
    local dir=$1 input=$2
    shift 2
    (cd "$dir/zest" && z "$@" <"$input"; exit "$RC") >"$dir/zest.stdout"
    RC=$?
    (cd "$dir/zstd" && zr "$@" <"$input"; exit "$ZRC") >"$dir/zstd.stdout"
    ZRC=$?
}
expect_rc_as_zstd() {  # description
    if [ "$RC" -eq "$ZRC" ]; then pass; else fail "$1: exit status $RC, zstd's $ZRC"; fi
}
# The same names in both twins, the same contents (compressed files, whose
# frames differ between the tools, the same once decoded by zstd).
expect_twin_files() {  # dir description
    local a b f
    a=$(cd "$1/zest" && find . | LC_ALL=C sort)
    b=$(cd "$1/zstd" && find . | LC_ALL=C sort)
    if [ "$a" != "$b" ]; then
        fail "$2: zest left ${a//$'\n'/ }, zstd ${b//$'\n'/ }"
        return
    fi
    pass
    while IFS= read -r f; do
        cmp -s "$1/zest/$f" "$1/zstd/$f" && continue
        if "$ZSTD" -dq -c "$1/zest/$f" >"$1/zest.decoded" 2>/dev/null &&
           "$ZSTD" -dq -c "$1/zstd/$f" >"$1/zstd.decoded" 2>/dev/null &&
           cmp -s "$1/zest.decoded" "$1/zstd.decoded"; then
            continue
        fi
        fail "$2: $f differs from zstd's"
        return
    done < <(cd "$1/zest" && find . -type f)
    pass
}
expect_as_zstd() {  # dir description: same status, same files left behind
    expect_rc_as_zstd "$2"
    expect_twin_files "$1" "$2"
}
fresh_dir() {  # a new empty directory for one case
    local d
    d=$(mktemp -d "$WORK/case.XXXXXX")
    echo "$d"
}
z_in() {  # dir args...: z, run in dir
    local dir=$1
    shift
    RC=0
    (cd "$dir" && "$ZEST" "$@") 2>"$ERR" || RC=$?
}
flip_byte() {  # file offset: invert one byte in place
    local old
    old=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %03o $((old ^ 255)))" |
        dd of="$1" bs=1 seek="$2" count=1 conv=notrunc status=none
}

# ---------------------------------------------------------------------------
# Corpus: plain files and what the reference makes of them.
C=$WORK/corpus
mkdir "$C"
seq 1 200000 >"$C/text"
cp "$ZEST" "$C/binary"
head -c 3000000 /dev/zero >"$C/zeros"
printf 'hello, zest\n' >"$C/small"
: >"$C/empty"
"$ZSTD" -q -3 "$C/text" -o "$C/text.zst"
"$ZSTD" -q -1 "$C/text" -o "$C/text-1.zst"
"$ZSTD" -q -19 "$C/text" -o "$C/text-19.zst"
"$ZSTD" -q --no-check "$C/text" -o "$C/text-nocheck.zst"
"$ZSTD" -q -c <"$C/text" >"$C/text-nosize.zst"     # streamed: no content size
"$ZSTD" -q "$C/binary" -o "$C/binary.zst"
"$ZSTD" -q "$C/zeros" -o "$C/zeros.zst"
"$ZSTD" -q "$C/small" -o "$C/small.zst"
"$ZSTD" -q "$C/empty" -o "$C/empty.zst"
cat "$C/text.zst" "$C/small.zst" >"$C/multi.zst"        # two frames
cat "$C/text" "$C/small" >"$C/multi"
{ printf '\x50\x2a\x4d\x18\x04\x00\x00\x00skip'; cat "$C/small.zst"; } >"$C/skippable.zst"
"$ZSTD" -q -c --long=28 <"$C/small" >"$C/bigwindow.zst"  # declares a 256 MiB window
for f in text text-1 text-19 text-nocheck text-nosize binary zeros small empty multi skippable; do
    [ -s "$C/$f.zst" ] || { echo "FAIL [setup]: zstd did not produce $f.zst"; exit 1; }
done
expected_of() {  # name of the plain file a corpus entry decodes to
    case $1 in
        text*) echo "$C/text" ;;
        skippable) echo "$C/small" ;;
        *) echo "$C/$1" ;;
    esac
}
cp "$C/text.zst" "$C/corrupt.zst"
flip_byte "$C/corrupt.zst" $(($(stat -c %s "$C/corrupt.zst") / 2))
cp "$C/text.zst" "$C/badsum.zst"                         # last 4 bytes: XXH64 checksum
flip_byte "$C/badsum.zst" $(($(stat -c %s "$C/badsum.zst") - 2))
head -c $(($(stat -c %s "$C/text.zst") - 100)) "$C/text.zst" >"$C/truncated.zst"
printf 'this is not zstd data at all\n' >"$C/garbage.zst"
: >"$C/emptyfile.zst"

# ---------------------------------------------------------------------------
group_roundtrip() {
    local d f
    for f in text text-1 text-19 text-nocheck text-nosize binary zeros small empty multi skippable; do
        d=$(fresh_dir)
        z -d -q "$C/$f.zst" -o "$d/out"
        expect_rc 0 "-d -o on $f.zst"
        expect_same "$d/out" "$(expected_of $f)" "-d -o on $f.zst"

        cp "$C/$f.zst" "$d/$f.zst"
        z -d -q "$d/$f.zst"
        expect_rc 0 "-d on $f.zst"
        expect_same "$d/$f" "$(expected_of $f)" "-d on $f.zst (output name from input)"
        expect_same "$d/$f.zst" "$C/$f.zst" "-d keeps the input $f.zst"
        expect_no_temp "$d" "-d on $f.zst"
    done

    d=$(fresh_dir)
    cp "$C/text.zst" "$d/archive.tzst"
    z -d -q "$d/archive.tzst"
    expect_rc 0 ".tzst input"
    expect_same "$d/archive.tar" "$C/text" ".tzst decodes to .tar"

    d=$(fresh_dir)
    cp "$C/text.zst" "$d/k.zst"
    z -d -q -k "$d/k.zst"
    expect_rc 0 "-k"
    expect_exists "$d/k.zst" "-k keeps the input"

    d=$(fresh_dir)
    cp "$C/text.zst" "$d/r.zst"
    z -d -q --rm "$d/r.zst"
    expect_rc 0 "--rm"
    expect_same "$d/r" "$C/text" "--rm output"
    expect_missing "$d/r.zst" "--rm removes the input after success"

    cp "$C/text.zst" "$d/r.zst"
    z -d -q --rm "$d/r.zst" -o /dev/null
    expect_rc 0 "--rm -o /dev/null"
    expect_exists "$d/r.zst" "--rm keeps the input when the output is /dev/null"
    z -dc -q --rm "$d/r.zst" >/dev/null
    expect_rc 0 "--rm -c"
    expect_exists "$d/r.zst" "--rm keeps the input when writing to stdout"

    cp "$C/truncated.zst" "$d/bad.zst"
    z -d -q --rm "$d/bad.zst"
    expect_rc 1 "--rm on a bad input"
    expect_exists "$d/bad.zst" "--rm keeps an input that failed"

    # Permissions and modification time follow the input, as with zstd.
    d=$(fresh_dir)
    cp "$C/text.zst" "$d/m.zst"
    chmod 640 "$d/m.zst"
    touch -d '2001-02-03 04:05:06' "$d/m.zst"
    z -d -q "$d/m.zst"
    expect_rc 0 "metadata case"
    if [ "$(stat -c '%a %Y' "$d/m")" = "$(stat -c '%a %Y' "$d/m.zst")" ]; then pass; else
        fail "mode/mtime not copied: $(stat -c '%a %Y' "$d/m") vs $(stat -c '%a %Y' "$d/m.zst")"
    fi

    # A larger input: several blocks and a multi-megabyte output.
    d=$(fresh_dir)
    for _ in 1 2 3 4 5 6 7 8; do cat "$C/text" "$C/binary"; done >"$d/big"
    "$ZSTD" -q "$d/big" -o "$d/big.zst"
    mv "$d/big" "$d/big.orig"
    z -d -q "$d/big.zst"
    expect_rc 0 "big input"
    expect_same "$d/big" "$d/big.orig" "big input"
}

group_stdio() {
    local d
    d=$(fresh_dir)
    z -dc "$C/text.zst" >"$d/out"
    expect_rc 0 "-dc"
    expect_same "$d/out" "$C/text" "-dc"
    expect_missing "$C/text.zst.out" "-dc writes no file"

    z --decompress --stdout "$C/binary.zst" >"$d/out2"
    expect_rc 0 "--decompress --stdout"
    expect_same "$d/out2" "$C/binary" "--decompress --stdout"

    z -d <"$C/text.zst" >"$d/out3"
    expect_rc 0 "stdin to stdout"
    expect_same "$d/out3" "$C/text" "stdin to stdout"

    z -d - <"$C/text-nosize.zst" >"$d/out4"
    expect_rc 0 "'-' is stdin"
    expect_same "$d/out4" "$C/text" "'-' is stdin"

    (cd "$d" && z -d -o fromstdin <"$C/small.zst"; exit "$RC")
    RC=$?
    expect_rc 0 "stdin to -o"
    expect_same "$d/fromstdin" "$C/small" "stdin to -o"
    if [ "$(stat -c %a "$d/fromstdin" 2>/dev/null)" = 644 ]; then pass; else
        fail "stdin to -o: mode $(stat -c %a "$d/fromstdin" 2>/dev/null), expected 644 (0666 & ~umask)"
    fi

    z -dcf "$C/small.zst" >"$d/out5"
    expect_rc 0 "combined flags -dcf"
    expect_same "$d/out5" "$C/small" "combined flags -dcf"

    z -d "$C/small.zst" -o - >"$d/out6"
    expect_rc 0 "-o - is stdout"
    expect_same "$d/out6" "$C/small" "-o - is stdout"

    z -dc "$C/text.zst" "$C/small.zst" >"$d/out7"
    expect_rc 0 "-c with two inputs"
    expect_same "$d/out7" "$C/multi" "-c concatenates"

    cp "$C/small.zst" "$d/-dash.zst"
    (cd "$d" && z -d -q -- -dash.zst; exit "$RC")
    RC=$?
    expect_rc 0 "-- ends options"
    expect_same "$d/-dash" "$C/small" "-- ends options"

    z -dc "$C/text.zst" >/dev/full
    expect_rc 1 "write error on stdout"
    expect_error_line "(stdout)" "write error on stdout"

    # Pass-through, as zstd -dcf (like zcat -f): from where a frame should
    # start but does not, the input is copied to stdout as it is.
    printf 'this is plain text, not zstd\n' >"$d/plain"
    printf 'ab' >"$d/two"
    printf '\x28\xb5\x2f' >"$d/magic3"      # 3 bytes of a frame's magic number
    cat "$C/small.zst" "$d/plain" >"$d/frame-then-plain"
    cat "$C/text.zst" "$C/skippable.zst" "$d/two" >"$d/frames-then-two"
    cat "$C/small.zst" "$C/garbage.zst" "$C/small.zst" >"$d/frame-garbage-frame"
    local f
    for f in plain two magic3 frame-then-plain frames-then-two frame-garbage-frame; do
        z -dcf "$d/$f" >"$d/pt.out"
        expect_rc 0 "-dcf on $f"
        zr -dcf "$d/$f" >"$d/pt.ref"
        expect_rc_as_zstd "-dcf on $f, as zstd"
        expect_same "$d/pt.out" "$d/pt.ref" "-dcf on $f, as zstd"
        z -dcf <"$d/$f" >"$d/pt.out"
        expect_rc 0 "-dcf on $f from stdin"
        expect_same "$d/pt.out" "$d/pt.ref" "-dcf on $f from stdin, as zstd"
    done
    cat "$C/small" "$C/garbage.zst" "$C/small.zst" >"$d/pt.want"
    expect_same "$d/pt.out" "$d/pt.want" "-dcf copies all that follows non-zstd data as it is"
    z -dcf "$d/plain" >"$d/pt.out"
    expect_same "$d/pt.out" "$d/plain" "-dcf on a plain file copies it"
    { cat "$C/small"; cat "$d/plain"; } >"$d/pt.want"
    z -dcf "$d/frame-then-plain" >"$d/pt.out"
    expect_same "$d/pt.out" "$d/pt.want" "-dcf: frames decoded, then the rest copied"
    z -dcf "$C/emptyfile.zst" >"$d/pt.out"
    expect_rc 1 "-dcf on an empty file"
    zr -dcf "$C/emptyfile.zst" >"$d/pt.ref"
    expect_rc_as_zstd "-dcf on an empty file, as zstd"
    z -dc "$d/plain" >/dev/null
    expect_rc 1 "-dc (no -f) on non-zstd data"
    z -dcf --no-pass-through "$d/plain" >/dev/null
    expect_rc 1 "-dcf --no-pass-through on non-zstd data"
    zr -dcf --no-pass-through "$d/plain" >/dev/null
    expect_rc_as_zstd "-dcf --no-pass-through, as zstd"
    z -dc --pass-through "$d/plain" >"$d/pt.out"
    expect_rc 0 "-dc --pass-through"
    expect_same "$d/pt.out" "$d/plain" "-dc --pass-through"
    z -d --pass-through "$d/frame-then-plain" -o "$d/pt.file"
    expect_rc 0 "-d --pass-through -o FILE"
    expect_same "$d/pt.file" "$d/pt.want" "-d --pass-through -o FILE"
    zr -d --pass-through "$d/frame-then-plain" -o "$d/pt.file.ref"
    expect_rc_as_zstd "-d --pass-through -o FILE, as zstd"
    expect_same "$d/pt.file" "$d/pt.file.ref" "-d --pass-through -o FILE, as zstd"
    # zstd copies the rest and returns: no 'FILE : N bytes' line for it.
    z -d --pass-through "$d/plain" -o "$d/pt.plain" -f
    expect_rc 0 "-d --pass-through -o FILE on a plain file"
    expect_stderr_lacks " bytes" "-d --pass-through -o FILE prints no summary, as zstd"
    z -d --pass-through "$d/frame-then-plain" -o "$d/pt.file" -f
    expect_stderr_lacks " bytes" "-d --pass-through: frames then plain data, no summary, as zstd"
    zr -d --pass-through "$d/plain" -o "$d/pt.plain.ref" -f
    if [ -s "$ZERR" ]; then fail "zstd printed a summary for a file passed through"; else pass; fi
    z -d -f "$d/plain" -o "$d/pt.f"
    expect_rc 1 "-d -f -o FILE (no -c) does not pass through"
    expect_missing "$d/pt.f" "-d -f -o FILE (no -c) does not pass through"

    if command -v script >/dev/null 2>&1; then
        RC=0
        script -qec "'$ZEST' -d" /dev/null </dev/null >"$ERR" 2>&1 || RC=$?
        expect_rc 1 "refuses compressed data from a terminal"
        expect_stderr_has "terminal" "refuses compressed data from a terminal"
    fi
}

group_multi() {
    local d
    d=$(fresh_dir)
    cp "$C/text.zst" "$C/small.zst" "$C/binary.zst" "$d/"
    z -d "$d/text.zst" "$d/small.zst" "$d/binary.zst"
    expect_rc 0 "three inputs"
    expect_same "$d/text" "$C/text" "three inputs: text"
    expect_same "$d/small" "$C/small" "three inputs: small"
    expect_same "$d/binary" "$C/binary" "three inputs: binary"

    # Several inputs into one -o file: as zstd 1.5.4, a warning, then a
    # question (no answer: no) unless -f; -q without -f refuses outright.
    local warn1="zest: WARNING: all input files will be processed and concatenated into a single output file: $d/cat"
    local warn2="The concatenated output CANNOT regenerate original file names nor directory structure."
    z -d "$C/text.zst" "$C/small.zst" -o "$d/cat"
    expect_rc 1 "-o with two inputs, no answer"
    expect_missing "$d/cat" "-o with two inputs, no answer"
    expect_stderr_has "$warn1" "-o with two inputs warns"
    expect_stderr_has "$warn2" "-o with two inputs warns"
    expect_stderr_has "Proceed? (y/n): Aborting..." "-o with two inputs asks"
    z -d "$C/text.zst" "$C/small.zst" -o "$d/cat" <"$NO"
    expect_rc 1 "-o with two inputs, answer n"
    expect_missing "$d/cat" "-o with two inputs, answer n"
    z -d "$C/text.zst" "$C/small.zst" -o "$d/cat" <"$YES"
    expect_rc 0 "-o with two inputs, answer y"
    expect_same "$d/cat" "$C/multi" "-o with two inputs, answer y"
    rm -f "$d/cat"
    z -q -d "$C/text.zst" "$C/small.zst" -o "$d/cat" <"$YES"
    expect_rc 1 "-q -o with two inputs"
    expect_missing "$d/cat" "-q -o with two inputs"
    expect_stderr_has "zest: $d/cat: concatenating several inputs into one output loses their names; aborting (use -f)" "-q -o with two inputs"
    expect_stderr_lacks "Proceed?" "-q does not ask"
    z -d "$C/small.zst" - -o "$d/cat" <"$C/text.zst"
    expect_rc 1 "-o with stdin among the inputs"
    expect_stderr_has "stdin is an input - not proceeding." "-o with stdin among the inputs"
    expect_missing "$d/cat" "-o with stdin among the inputs"
    z -t "$C/text.zst" "$C/small.zst" -o "$d/cat"
    expect_rc 0 "-t with two inputs and -o asks nothing"
    expect_stderr_lacks "WARNING" "-t with two inputs and -o asks nothing"

    z -d -f "$C/text.zst" "$C/small.zst" -o "$d/cat"
    expect_rc 0 "-o -f with two inputs"
    expect_same "$d/cat" "$C/multi" "-o -f concatenates"
    expect_stderr_has "$warn1" "-o -f with two inputs still warns"
    expect_stderr_lacks "Proceed?" "-o -f with two inputs does not ask"
    z -q -d -f "$C/text.zst" "$C/small.zst" -o "$d/cat2"
    expect_rc 0 "-q -o -f with two inputs"
    expect_same "$d/cat2" "$C/multi" "-q -o -f concatenates"
    expect_stderr_empty "-q -o -f with two inputs"
    # --rm with one output for several inputs: the inputs stay, as with zstd.
    cp "$C/text.zst" "$C/small.zst" "$d/"
    z -d -f --rm "$d/text.zst" "$d/small.zst" -o "$d/cat3"
    expect_rc 0 "--rm -o -f with two inputs"
    expect_same "$d/cat3" "$C/multi" "--rm -o -f with two inputs"
    expect_exists "$d/text.zst" "--rm -o -f with two inputs keeps them"
    expect_exists "$d/small.zst" "--rm -o -f with two inputs keeps them"
    expect_stderr_has "Since it's a destructive operation, input files will not be removed." "--rm -o -f with two inputs"
    rm -f "$d/text.zst" "$d/small.zst"

    # The same cases through zstd: same status, same files afterwards.
    local input args n=0 t
    for input in /dev/null "$YES" "$NO"; do
        for args in "a b -o out" "-q a b -o out" "-f a b -o out" "-q -f a b -o out" "--rm a b -o out" \
                    "-f --rm a b -o out" "-d a.zst b.zst -o out" "-q -d a.zst b.zst -o out" \
                    "-d -f --rm a.zst b.zst -o out" "--rm -d a.zst b.zst -o out" "-t a.zst b.zst -o out"; do
            n=$((n + 1))
            make_twins "$d/twin$n"
            for t in zest zstd; do
                cp "$C/text" "$d/twin$n/$t/a"
                cp "$C/small" "$d/twin$n/$t/b"
                cp "$C/text.zst" "$d/twin$n/$t/a.zst"
                cp "$C/small.zst" "$d/twin$n/$t/b.zst"
            done
            # shellcheck disable=SC2086
            run_twins "$d/twin$n" "$input" $args
            expect_as_zstd "$d/twin$n" "zest $args <$(basename "$input") as zstd"
        done
    done
    n=$((n + 1))
    make_twins "$d/twin$n" "$C/small.zst"
    run_twins "$d/twin$n" "$C/text.zst" -d small.zst - -o out
    expect_as_zstd "$d/twin$n" "zest -d FILE - -o out as zstd"

    # A failure does not stop the other files, but sets the exit status.
    d=$(fresh_dir)
    cp "$C/corrupt.zst" "$d/bad.zst"
    cp "$C/small.zst" "$d/good.zst"
    z -d -q "$d/bad.zst" "$d/good.zst"
    expect_rc 1 "bad then good"
    expect_error_line "$d/bad.zst" "bad then good"
    expect_same "$d/good" "$C/small" "good file after a bad one"
    expect_missing "$d/bad" "no output for the bad file"
    expect_no_temp "$d" "bad then good"

    # With -o every input feeds one output: a failure leaves none.
    z -d -f "$C/small.zst" "$C/truncated.zst" -o "$d/joined"
    expect_rc 1 "-o -f with a bad input"
    expect_missing "$d/joined" "-o -f with a bad input"
    expect_no_temp "$d" "-o -f with a bad input"
}

group_test() {
    local d
    d=$(fresh_dir)
    cp "$C/text.zst" "$d/good.zst"
    z -t "$d/good.zst"
    expect_rc 0 "-t on a good file"
    expect_missing "$d/good" "-t writes no output"
    z --test -q "$d/good.zst" "$C/multi.zst" "$C/skippable.zst"
    expect_rc 0 "--test on good files"
    expect_stderr_empty "--test -q on good files"

    for f in corrupt badsum truncated garbage; do
        cp "$C/$f.zst" "$d/$f.zst"
        z -t "$d/$f.zst"
        expect_rc 1 "-t on $f.zst"
        expect_error_line "$d/$f.zst" "-t on $f.zst"
        expect_missing "$d/$f" "-t on $f.zst writes nothing"
    done
    z -t "$d/good.zst" "$d/badsum.zst"
    expect_rc 1 "-t on a good and a bad file"
    z -t <"$C/truncated.zst"
    expect_rc 1 "-t on a truncated stdin"
    expect_error_line "(stdin)" "-t on a truncated stdin"

    # --no-check: the content checksum is not verified (badsum.zst differs
    # from text.zst in its checksum only), as with zstd; -C is --check.
    z -d --no-check -c "$d/badsum.zst" >"$d/nc.out"
    expect_rc 0 "-d --no-check on a wrong checksum"
    expect_same "$d/nc.out" "$C/text" "-d --no-check on a wrong checksum"
    zr -d --no-check -c "$d/badsum.zst" >"$d/nc.ref"
    expect_rc_as_zstd "-d --no-check -c on a wrong checksum, as zstd"
    expect_same "$d/nc.out" "$d/nc.ref" "-d --no-check -c on a wrong checksum, as zstd"
    z -t --no-check "$d/badsum.zst"
    expect_rc 0 "-t --no-check on a wrong checksum"
    zr -t --no-check "$d/badsum.zst"
    expect_rc_as_zstd "-t --no-check on a wrong checksum, as zstd"
    z -d -c "$d/badsum.zst" >/dev/null
    expect_rc 1 "-d -c on a wrong checksum"
    expect_error_line "$d/badsum.zst" "-d -c on a wrong checksum"
    z -d -C -c "$d/badsum.zst" >/dev/null
    expect_rc 1 "-d -C on a wrong checksum"
    z -d --no-check --check -c "$d/badsum.zst" >/dev/null
    expect_rc 1 "-d --no-check --check: the last one counts"
    zr -d --no-check --check -c "$d/badsum.zst" >/dev/null
    expect_rc_as_zstd "-d --no-check --check, as zstd"
    local args
    for args in "-d --no-check bad.zst" "-d bad.zst" "-d --no-check bad.zst -o out" "-t --no-check bad.zst" \
                "-dC bad.zst"; do
        make_twins "$d/twin"
        cp "$C/badsum.zst" "$d/twin/zest/bad.zst"
        cp "$C/badsum.zst" "$d/twin/zstd/bad.zst"
        # shellcheck disable=SC2086
        run_twins "$d/twin" /dev/null $args
        expect_as_zstd "$d/twin" "zest $args (a wrong checksum) as zstd"
        rm -rf "$d/twin"
    done
}

group_errors() {
    local d f
    for f in corrupt badsum truncated garbage emptyfile; do
        d=$(fresh_dir)
        cp "$C/$f.zst" "$d/$f.zst"
        z -d "$d/$f.zst"
        expect_rc 1 "-d on $f.zst"
        expect_error_line "$d/$f.zst" "-d on $f.zst"
        expect_missing "$d/$f" "-d on $f.zst leaves no output"
        expect_no_temp "$d" "-d on $f.zst"
        expect_same "$d/$f.zst" "$C/$f.zst" "-d on $f.zst keeps the input"

        z -d "$d/$f.zst" -o "$d/named"
        expect_rc 1 "-d -o on $f.zst"
        expect_missing "$d/named" "-d -o on $f.zst leaves no output"
        expect_no_temp "$d" "-d -o on $f.zst"
    done

    z -d "$C/truncated.zst" -c >/dev/null
    expect_rc 1 "-c on a truncated file"
    expect_error_line "$C/truncated.zst" "-c on a truncated file"

    d=$(fresh_dir)
    z -d "$d/missing.zst"
    expect_rc 1 "missing input"
    expect_error_line "$d/missing.zst" "missing input"

    mkdir "$d/dir.zst"
    z -d "$d/dir.zst"
    expect_rc 1 "directory input"
    expect_error_line "$d/dir.zst" "directory input"

    cp "$C/small.zst" "$d/small.foo"
    z -d "$d/small.foo"
    expect_rc 1 "unknown suffix"
    expect_error_line "$d/small.foo" "unknown suffix"
    expect_stderr_has "unknown suffix" "unknown suffix"
    expect_missing "$d/small" "unknown suffix writes nothing"
    z -d "$d/small.foo" -o "$d/small.out"
    expect_rc 0 "unknown suffix with -o"
    expect_same "$d/small.out" "$C/small" "unknown suffix with -o"

    z -d "$C/small.zst" -o "$d/no/such/dir/out"
    expect_rc 1 "-o into a missing directory"
    expect_error_line "$d/no/such/dir/out" "-o into a missing directory"

    cp "$C/small.zst" "$d/self.zst"
    z -d -f "$d/self.zst" -o "$d/self.zst"
    expect_rc 1 "-o naming the input"
    expect_same "$d/self.zst" "$C/small.zst" "-o naming the input keeps it intact"
    expect_no_temp "$d" "-o naming the input"

    # Window limit: 128 MiB by default; --long/--memory/-M raise it.
    z -d "$C/bigwindow.zst" -o "$d/w0"
    expect_rc 1 "window above the default limit"
    expect_error_line "$C/bigwindow.zst" "window above the default limit"
    expect_missing "$d/w0" "window above the default limit"
    z -d --long=28 "$C/bigwindow.zst" -o "$d/w1"
    expect_rc 0 "--long=28"
    expect_same "$d/w1" "$C/small" "--long=28"
    z -d --memory=256MB "$C/bigwindow.zst" -o "$d/w2"
    expect_rc 0 "--memory=256MB"
    expect_same "$d/w2" "$C/small" "--memory=256MB"
    z -d -M256MiB "$C/bigwindow.zst" -o "$d/w3"
    expect_rc 0 "-M256MiB"
    z -d --memory=128MB "$C/bigwindow.zst" -o "$d/w4"
    expect_rc 1 "--memory=128MB"
}

# An existing output without -f: like zstd 1.5.4, zest asks on stderr and
# reads an answer line from standard input (y or Y: overwrite); no answer,
# -q, or standard input being an input itself: the file is left alone.
group_overwrite() {
    local d answer
    d=$(fresh_dir)
    cp "$C/small.zst" "$d/f.zst"
    echo "precious" >"$d/f"
    z -d "$d/f.zst"
    expect_rc 1 "existing output without -f, no answer"
    expect_stderr_has "zest: $d/f already exists; overwrite (y/n) ? " "existing output without -f asks"
    expect_stderr_has "Not overwritten" "existing output without -f, no answer"
    if [ "$(cat "$d/f")" = precious ]; then pass; else fail "existing output was modified"; fi
    expect_no_temp "$d" "existing output without -f"

    for answer in n N no "" x " y"; do
        z -d "$d/f.zst" <<<"$answer"
        expect_rc 1 "answer '$answer'"
        expect_stderr_has "Not overwritten" "answer '$answer'"
        if [ "$(cat "$d/f")" = precious ]; then pass; else fail "answer '$answer' modified the existing output"; fi
    done
    for answer in y Y yes; do
        echo "precious" >"$d/f"
        z -d "$d/f.zst" <<<"$answer"
        expect_rc 0 "answer '$answer'"
        expect_same "$d/f" "$C/small" "answer '$answer' overwrites"
        expect_stderr_lacks "Not overwritten" "answer '$answer'"
        expect_no_temp "$d" "answer '$answer'"
    done

    # One answer line per question.
    cp "$C/text.zst" "$d/g.zst"
    echo "precious" >"$d/f"
    echo "precious" >"$d/g"
    z -d "$d/f.zst" "$d/g.zst" < <(printf 'n\ny\n')
    expect_rc 1 "two questions, no then yes"
    if [ "$(cat "$d/f")" = precious ]; then pass; else fail "two questions: the first answer was not no"; fi
    expect_same "$d/g" "$C/text" "two questions: the second answer is yes"

    # -q: no question, a plain refusal.
    echo "precious" >"$d/f"
    z -q -d "$d/f.zst" <"$YES"
    expect_rc 1 "-q: existing output"
    expect_stderr_has "zest: $d/f: already exists; not overwritten" "-q: existing output"
    expect_stderr_lacks "overwrite (y/n)" "-q does not ask"
    if [ "$(cat "$d/f")" = precious ]; then pass; else fail "-q: the existing output was modified"; fi

    # Standard input as an input cannot also answer.
    z -d -o "$d/f" - <"$C/small.zst"
    expect_rc 1 "'-' as input, existing -o output"
    expect_stderr_has "zest: $d/f already exists; stdin is an input - not proceeding." "'-' as input, existing -o output"
    z -d -o "$d/f" <"$C/small.zst"
    expect_rc 1 "stdin as input, existing -o output"
    expect_stderr_has "zest: $d/f already exists; stdin is an input - not proceeding." "stdin as input, existing -o output"
    if [ "$(cat "$d/f")" = precious ]; then pass; else fail "stdin as input: the existing output was modified"; fi

    z -d -f "$d/f.zst"
    expect_rc 0 "existing output with -f"
    expect_same "$d/f" "$C/small" "existing output with -f"

    echo "precious" >"$d/g"
    z -d "$C/text.zst" -o "$d/g"
    expect_rc 1 "existing -o without -f"
    if [ "$(cat "$d/g")" = precious ]; then pass; else fail "existing -o output was modified"; fi
    z -d "$C/text.zst" -o "$d/g" <"$YES"
    expect_rc 0 "existing -o, answer y"
    expect_same "$d/g" "$C/text" "existing -o, answer y"
    echo "precious" >"$d/g"
    z -d --force "$C/text.zst" -o "$d/g"
    expect_rc 0 "existing -o with --force"
    expect_same "$d/g" "$C/text" "existing -o with --force"

    # zstd takes the same answers: same status, same files afterwards.
    local n=0 input args
    for input in /dev/null "$YES" "$NO" "$C/small.zst"; do
        for args in "-d f.zst" "-q -d f.zst" "-qq -d f.zst" "-d -o f -" "f" "-q f"; do
            n=$((n + 1))
            # f.zst and f both exist: -d f.zst meets f, and f meets f.zst.
            echo "precious" >"$d/f"
            make_twins "$d/twin$n" "$C/small.zst" "$d/f"
            mv "$d/twin$n/zest/small.zst" "$d/twin$n/zest/f.zst"
            mv "$d/twin$n/zstd/small.zst" "$d/twin$n/zstd/f.zst"
            # shellcheck disable=SC2086
            run_twins "$d/twin$n" "$input" $args
            expect_as_zstd "$d/twin$n" "zest $args <$(basename "$input") as zstd"
        done
    done

    # A device is written in place, never replaced by a file.
    z -d "$C/text.zst" -o /dev/null
    expect_rc 0 "-o /dev/null"
    if [ -c /dev/null ]; then pass; else fail "/dev/null is no longer a character device"; fi
}

# Byte 4 of a frame (the frame header descriptor): bit 2 is the checksum flag.
has_checksum_flag() {  # frame
    local fhd
    fhd=$(od -An -tu1 -j4 -N1 "$1" | tr -d ' ')
    [ $((fhd & 4)) -ne 0 ]
}

group_compress() {
    local d size
    d=$(fresh_dir)
    cp "$C/text" "$d/text"
    z "$d/text"
    expect_rc 0 "compress a file"
    expect_exists "$d/text" "the input is kept"
    "$ZSTD" -dq -c "$d/text.zst" >"$d/ref.out" 2>/dev/null
    expect_same "$d/ref.out" "$C/text" "zstd decodes zest's FILE.zst"
    if has_checksum_flag "$d/text.zst"; then pass; else fail "default compression has no checksum (zstd adds one)"; fi
    z -d -c "$d/text.zst" >"$d/zest.out"
    expect_rc 0 "zest decodes its own frame"
    expect_same "$d/zest.out" "$C/text" "zest decodes its own frame"

    z "$d/text"
    expect_rc 1 "existing FILE.zst without -f"
    expect_stderr_has "zest: $d/text.zst already exists; overwrite (y/n) ? Not overwritten" "existing FILE.zst without -f"
    z "$d/text" <"$YES"
    expect_rc 0 "existing FILE.zst, answer y"
    z -f "$d/text"
    expect_rc 0 "existing FILE.zst with -f"

    # As zstd 1.5.4: FILE.zst is compressed again, to FILE.zst.zst...
    z "$d/text.zst"
    expect_rc 0 "an input that already has .zst"
    expect_stderr_lacks "already has .zst suffix" "an input that already has .zst"
    "$ZSTD" -dq -c "$d/text.zst.zst" >"$d/zz.out" 2>/dev/null
    expect_same "$d/zz.out" "$d/text.zst" "FILE.zst.zst decodes to FILE.zst"
    make_twins "$d/twin" "$C/small.zst"
    cp "$C/small.zst" "$d/twin/zest/s.tzst"
    cp "$C/small.zst" "$d/twin/zstd/s.tzst"
    run_twins "$d/twin" /dev/null -q small.zst s.tzst
    expect_as_zstd "$d/twin" "compressing .zst and .tzst inputs, as zstd"
    # ... unless --exclude-compressed, which skips *.zst and *.tzst silently.
    z --exclude-compressed "$d/text.zst.zst"
    expect_rc 0 "--exclude-compressed on a .zst input"
    expect_missing "$d/text.zst.zst.zst" "--exclude-compressed on a .zst input"
    expect_stderr_empty "--exclude-compressed skips silently"
    make_twins "$d/twin2" "$C/small.zst" "$C/text"
    cp "$C/small.zst" "$d/twin2/zest/s.tzst"
    cp "$C/small.zst" "$d/twin2/zstd/s.tzst"
    run_twins "$d/twin2" /dev/null -q --exclude-compressed small.zst s.tzst text
    expect_as_zstd "$d/twin2" "--exclude-compressed, as zstd"
    expect_exists "$d/twin2/zest/text.zst" "--exclude-compressed still compresses other files"
    expect_missing "$d/twin2/zest/small.zst.zst" "--exclude-compressed: no .zst.zst"
    expect_missing "$d/twin2/zest/s.tzst.zst" "--exclude-compressed: no .tzst.zst"
    # zstd's list since 1.5.6 (the playTests step): media, archives,
    # documents; the last suffix counts, case included, as in zstd.
    local e kept
    mkdir "$d/excl"
    for e in mp3 png zip flac mov 7z bz2 jpg docx woff2 lz tlz tar.gz zstd txt MP3 tar mp3.txt; do
        echo hi >"$d/excl/in.$e"
    done
    z -q --exclude-compressed "$d"/excl/in.*
    expect_rc 0 "--exclude-compressed on media, archives and documents"
    kept=$(cd "$d/excl" && ls *.zst | LC_ALL=C sort | tr '\n' ' ')
    [ "$kept" = "in.MP3.zst in.mp3.txt.zst in.tar.zst in.txt.zst " ] && pass ||
        fail "--exclude-compressed compressed $kept, expected in.MP3.zst in.mp3.txt.zst in.tar.zst in.txt.zst"

    # Levels, --fast, --no-check, stdin to stdout, -o, -c.
    for level in -1 -2 -3 -4 -9 -19 --fast --fast=3 --fast=7; do
        z $level -c "$C/binary" >"$d/l.zst"
        expect_rc 0 "level $level"
        "$ZSTD" -dq -c "$d/l.zst" >"$d/l.out" 2>/dev/null
        expect_same "$d/l.out" "$C/binary" "zstd decodes level $level"
    done
    z --no-check -o "$d/nc.zst" "$C/small"
    expect_rc 0 "--no-check -o"
    if has_checksum_flag "$d/nc.zst"; then fail "--no-check wrote a checksum"; else pass; fi
    "$ZSTD" -dq -c "$d/nc.zst" >"$d/nc.out" 2>/dev/null
    expect_same "$d/nc.out" "$C/small" "zstd decodes --no-check output"
    z <"$C/binary" >"$d/stdin.zst"
    expect_rc 0 "stdin to stdout"
    "$ZSTD" -dq -c "$d/stdin.zst" >"$d/stdin.out" 2>/dev/null
    expect_same "$d/stdin.out" "$C/binary" "zstd decodes stdin-compressed output"

    : >"$d/empty"
    z "$d/empty"
    expect_rc 0 "an empty file"
    "$ZSTD" -dq -c "$d/empty.zst" >"$d/empty.out" 2>/dev/null
    size=$(stat -c %s "$d/empty.out" 2>/dev/null || echo missing)
    if [ "$size" = 0 ]; then pass; else fail "empty file: zstd decoded '$size' bytes"; fi

    # zstd 1.5.4 lowers a level above 19 without --ultra to 19, with a warning.
    z -20 -c "$C/small" >"$d/u.zst"
    expect_rc 0 "-20 without --ultra"
    expect_stderr_has "reduced to 19" "-20 without --ultra warns"
    "$ZSTD" -dq -c "$d/u.zst" 2>/dev/null | cmp -s - "$C/small" && pass || fail "-20 without --ultra: zstd cannot decode"
    z --ultra -20 -c "$C/small" >"$d/u.zst"
    expect_rc 0 "--ultra -20"
    z --fast=0 -c "$C/small" >"$d/f.zst"
    expect_rc 1 "--fast=0"

    # --rm removes an input only once its output is complete.
    cp "$C/small" "$d/gone"
    z --rm "$d/gone"
    expect_rc 0 "--rm"
    expect_missing "$d/gone" "--rm removes the input"
    "$ZSTD" -dq -c "$d/gone.zst" >"$d/gone.out" 2>/dev/null
    expect_same "$d/gone.out" "$C/small" "--rm output is complete"
    mkdir "$d/dir"
    z --rm "$d/dir"
    expect_rc 1 "a directory"
    expect_exists "$d/dir" "a directory is left alone"
    expect_missing "$d/dir.zst" "a directory makes no output"
    expect_no_temp "$d" "no temporary files after compression"

    # A terminal: as zstd 1.5.4, -c writes to it when asked; only output
    # going to a terminal unasked (no -c, no -o) is refused.
    if command -v script >/dev/null 2>&1; then
        local tool name magic
        magic=$(head -c 4 "$C/small.zst")
        for tool in "$ZEST" "$ZSTD"; do
            name=$(basename "$tool")
            RC=0
            script -qec "'$tool' -q -c '$C/small'" /dev/null >"$ERR" 2>&1 || RC=$?
            expect_rc 0 "$name -c to a terminal"
            if LC_ALL=C grep -qF -- "$magic" "$ERR"; then pass; else fail "$name -c wrote no frame to the terminal"; fi
            RC=0
            script -qec "'$tool' -q <'$C/small'" /dev/null >"$ERR" 2>&1 || RC=$?
            expect_rc 1 "$name <FILE with stdout a terminal"
            [ "$tool" = "$ZEST" ] && expect_stderr_has "is a terminal" "zest <FILE with stdout a terminal"
        done
    fi
}

group_options() {
    local d
    d=$(fresh_dir)
    for opt in -V --version; do
        z "$opt" >"$d/out"
        expect_rc 0 "$opt"
        if grep -q '^\*\*\* zest CLI .* v[0-9]' "$d/out"; then pass; else fail "$opt prints no version banner on stdout"; fi
    done
    z -qV >"$d/out"
    if grep -qx '[0-9][0-9.]*' "$d/out"; then pass; else fail "-qV prints more than the version number"; fi
    for opt in -h -H --help; do
        z "$opt" >"$d/out"
        expect_rc 0 "$opt"
        if grep -q 'Usage' "$d/out"; then pass; else fail "$opt prints no usage on stdout"; fi
    done

    for bad in -x --bogus --memory=lots --long=40 "-o"; do
        z -d $bad
        expect_rc 1 "bad usage: $bad"
        if grep -q '^zest: ' "$ERR"; then pass; else fail "bad usage $bad: no 'zest: ' message"; fi
    done

    cp "$C/small.zst" "$d/v.zst"
    z -d -v "$d/v.zst" -f
    expect_rc 0 "-v"
    if grep -qE "^$d/v.zst *: $(stat -c %s "$C/small") bytes" "$ERR"; then pass; else fail "-v prints no 'FILE : N bytes' line"; fi
    z -d -q -f "$d/v.zst"
    expect_rc 0 "-q"
    expect_stderr_empty "-q on success"
    z -d -q -f "$d/missing.zst"
    expect_rc 1 "-q on an error"
    expect_error_line "$d/missing.zst" "-q still prints errors"
    z -d -qq "$d/missing.zst"
    expect_rc 1 "-qq on an error"
    expect_stderr_empty "-qq prints nothing"
}

# Signals while decompressing, like zstd 1.5.4: SIGINT while a file is
# being written removes it, ends the line on stderr and exits with status 2;
# SIGTERM dies of the signal (143), zest removing the partial file too (zstd
# leaves it). SIGINT with nothing to remove (-c) dies of it (130), as in zstd.
group_signals() {
    # zest creates its temporary output before reading: block it on an empty
    # FIFO, kill it, and check that the temporary file goes with it.
    local d pid status found sig want
    for sig in TERM INT; do
        d=$(fresh_dir)
        mkfifo "$d/fifo"
        # A background job of a script starts with SIGINT ignored (and zest,
        # like zstd, leaves ignored signals alone): restore the default first.
        env --default-signal=INT "$ZEST" -d -o "$d/out" - <"$d/fifo" 2>"$ERR" &
        pid=$!
        exec 3>"$d/fifo"   # unblocks zest's stdin; no data follows yet
        found=
        for _ in $(seq 1 100); do
            if [ -n "$(find "$d" -maxdepth 1 -name '*zest-tmp*')" ]; then found=1; break; fi
            sleep 0.1
        done
        if [ -n "$found" ]; then pass; else fail "SIG$sig: no temporary file appeared while writing $d/out"; fi
        kill -"$sig" "$pid"
        sh -c 'sleep 10; kill -KILL "$1" 2>/dev/null' guard "$pid" >/dev/null 2>&1 &
        status=0
        wait "$pid" || status=$?
        exec 3>&-
        want=143
        [ "$sig" = INT ] && want=2
        if [ "$status" -eq "$want" ]; then pass; else fail "SIG$sig while decompressing: exit status $status, expected $want"; fi
        expect_missing "$d/out" "SIG$sig leaves no output"
        expect_no_temp "$d" "SIG$sig removes the temporary file"
        if [ "$sig" = INT ]; then
            if [ "$(od -An -c "$ERR" | tr -d ' ')" = '\n' ]; then pass; else fail "SIGINT: stderr is not one newline, as zstd's"; fi
        fi
    done
    # Some output already written to a file before the interrupt.
    d=$(fresh_dir)
    mkfifo "$d/fifo"
    env --default-signal=INT "$ZEST" -d -o "$d/out" - <"$d/fifo" 2>"$ERR" &
    pid=$!
    exec 3>"$d/fifo"
    head -c $(($(stat -c %s "$C/text.zst") / 2)) "$C/text.zst" >&3
    found=
    for _ in $(seq 1 100); do
        if [ -n "$(find "$d" -maxdepth 1 -name '*zest-tmp*' -size +0)" ]; then found=1; break; fi
        sleep 0.1
    done
    if [ -n "$found" ]; then pass; else fail "SIGINT after data: nothing decoded yet"; fi
    kill -INT "$pid"
    sh -c 'sleep 10; kill -KILL "$1" 2>/dev/null' guard "$pid" >/dev/null 2>&1 &
    status=0
    wait "$pid" || status=$?
    exec 3>&-
    if [ "$status" -eq 2 ]; then pass; else fail "SIGINT after data: exit status $status, expected 2"; fi
    expect_missing "$d/out" "SIGINT after data leaves no output"
    expect_no_temp "$d" "SIGINT after data removes the temporary file"
    # To standard output there is nothing to remove.
    d=$(fresh_dir)
    mkfifo "$d/fifo"
    env --default-signal=INT "$ZEST" -dc - <"$d/fifo" >"$d/out" 2>"$ERR" &
    pid=$!
    exec 3>"$d/fifo"
    sleep 0.3
    kill -INT "$pid"
    sh -c 'sleep 10; kill -KILL "$1" 2>/dev/null' guard "$pid" >/dev/null 2>&1 &
    status=0
    wait "$pid" || status=$?
    exec 3>&-
    if [ "$status" -eq 130 ]; then pass; else fail "SIGINT with -c: exit status $status, expected 130 (as zstd)"; fi
}

# ---------------------------------------------------------------------------
# -l: the table must match zstd -l's line for line (same columns, same
# rounding); errors set the exit status without hiding the other files.
group_list() {
    local d f out ref
    d=$(fresh_dir)
    for f in text text-nocheck text-nosize multi skippable zeros empty; do
        cp "$C/$f.zst" "$d/$f.zst"
    done
    for f in text text-nocheck text-nosize multi zeros empty; do
        out=$(cd "$d" && "$ZEST" -l "$f.zst" 2>"$ERR")
        ref=$(cd "$d" && "$ZSTD" -l "$f.zst" 2>/dev/null)
        if [ "$out" = "$ref" ]; then pass; else fail "-l $f.zst: got '$out', zstd says '$ref'"; fi
    done
    # Several files: rows plus a totals line.
    out=$(cd "$d" && "$ZEST" -l text.zst multi.zst zeros.zst 2>"$ERR")
    ref=$(cd "$d" && "$ZSTD" -l text.zst multi.zst zeros.zst 2>/dev/null)
    if [ "$out" = "$ref" ]; then pass; else fail "-l three files: got '$out', zstd says '$ref'"; fi
    # Skippable frames are counted in Frames too, and in their own column.
    out=$(cd "$d" && "$ZEST" -l skippable.zst 2>"$ERR" | tail -1)
    if [ "$(echo "$out" | awk '{print $1, $2}')" = "2 1" ]; then pass; else fail "-l skippable: '$out'"; fi
    # The Check column says XXH64 when any frame has a checksum; the totals
    # row only when every file's does. Byte for byte as zstd -l.
    cat "$C/text.zst" "$C/text-nocheck.zst" >"$d/sum-nosum.zst"
    cat "$C/text-nocheck.zst" "$C/text.zst" >"$d/nosum-sum.zst"
    { printf '\x50\x2a\x4d\x18\x04\x00\x00\x00skip'; cat "$C/text-nocheck.zst"; } >"$d/skip-nosum.zst"
    local args
    for args in skippable.zst sum-nosum.zst nosum-sum.zst skip-nosum.zst "skippable.zst multi.zst" \
                "text.zst text-nocheck.zst" "text-nocheck.zst text.zst" "sum-nosum.zst nosum-sum.zst" \
                "text-nocheck.zst skip-nosum.zst" "text-nocheck.zst text-nocheck.zst"; do
        # shellcheck disable=SC2086
        out=$(cd "$d" && "$ZEST" -l $args 2>"$ERR")
        # shellcheck disable=SC2086
        ref=$(cd "$d" && "$ZSTD" -l $args 2>/dev/null)
        if [ "$out" = "$ref" ]; then pass; else fail "-l $args: got '$out', zstd says '$ref'"; fi
    done
    out=$(cd "$d" && "$ZEST" -l text.zst sum-nosum.zst 2>"$ERR" | tail -1)
    if [ "$(echo "$out" | awk '{print $(NF-2)}')" = XXH64 ]; then pass; else fail "-l totals with XXH64 in every row: '$out'"; fi
    out=$(cd "$d" && "$ZEST" -l text.zst text-nocheck.zst 2>"$ERR" | tail -1)
    if echo "$out" | grep -q XXH64; then fail "-l totals with a None row: '$out'"; else pass; fi

    # A file that is not zstd (or is empty) is a row on stdout, as zstd
    # prints it: 'File "NAME" not compressed by zstd ' (-q too; -lv adds a
    # blank line); the totals follow even when no file could be listed.
    printf 'not zstd\n' >"$d/plain.zst"
    : >"$d/void.zst"
    local args
    for args in "plain.zst text.zst" "plain.zst" "-q plain.zst text.zst void.zst" "void.zst" \
                "plain.zst void.zst" "missing.zst other-missing.zst" "-lv plain.zst"; do
        out=$(cd "$d" && "$ZEST" -l $args 2>"$ERR"; echo "rc=$?")
        ref=$(cd "$d" && "$ZSTD" -l $args 2>/dev/null; echo "rc=$?")
        if [ "$out" = "$ref" ]; then pass; else fail "-l $args: got '$out', zstd says '$ref'"; fi
    done
    z -l "$d/plain.zst" "$d/text.zst" >"$d/out"
    expect_rc 1 "-l on a non-zstd file"
    grep -qxF "File \"$d/plain.zst\" not compressed by zstd " "$d/out" && pass ||
        fail "-l on a non-zstd file: stdout $(cat "$d/out")"
    if grep -q 'text.zst$' "$d/out"; then pass; else fail "-l lists the good file after a bad one"; fi
    z -l "$C/truncated.zst" >/dev/null
    expect_rc 1 "-l on a truncated file"
    z -l "$d/missing.zst" >/dev/null
    expect_rc 1 "-l on a missing file"
    z -l <"$C/text.zst" >/dev/null
    expect_rc 1 "-l on standard input"
    expect_stderr_has "does not support reading from standard input" "-l on standard input"

    # -lv: a block per file, then one line per frame with its window and checksum.
    z -lv "$d/multi.zst" >"$d/out"
    expect_rc 0 "-lv"
    if grep -q '^# Zstandard Frames: 2$' "$d/out"; then pass; else fail "-lv: frame count"; fi
    if grep -q '^Window Size: ' "$d/out"; then pass; else fail "-lv: window size"; fi
    if grep -q "^Decompressed Size: .*($(cat "$C/multi" | wc -c) B)\$" "$d/out"; then pass; else fail "-lv: decompressed size"; fi
    local sum
    sum=$(tail -c 4 "$C/small.zst" | od -An -tx4 | tr -d ' ')
    if grep -q "XXH64 $sum\$" "$d/out"; then pass; else fail "-lv: per-frame checksum $sum not shown"; fi
    if [ "$(grep -c ' zstd ' "$d/out")" = 2 ]; then pass; else fail "-lv: one line per frame"; fi
    z -lv "$d/text-nosize.zst" >"$d/out"
    if grep -q ' unknown ' "$d/out" && ! grep -q '^Decompressed Size' "$d/out"; then pass; else fail "-lv: unknown size"; fi
    # The Check: line, as zstd -lv's: with the checksum when the file has one
    # zstd frame (skippable frames aside) that has one.
    sum=$(tail -c 4 "$C/text.zst" | od -An -tx4 | tr -d ' ')
    z -lv "$d/text.zst" >"$d/out"
    if grep -qx "Check: XXH64 $sum" "$d/out"; then pass; else fail "-lv: 'Check: XXH64 $sum' missing: $(grep Check: "$d/out")"; fi
    for f in text text-nocheck skippable multi sum-nosum nosum-sum skip-nosum; do
        out=$("$ZEST" -lv "$d/$f.zst" 2>"$ERR" | grep '^Check:')
        ref=$("$ZSTD" -lv "$d/$f.zst" 2>/dev/null | grep '^Check:')
        if [ -n "$ref" ] && [ "$out" = "$ref" ]; then pass; else fail "-lv $f.zst: '$out', zstd says '$ref'"; fi
    done
}

# -r: every regular file below a directory; compression takes them all (as
# zstd 1.5.4: x.zst makes x.zst.zst) unless --exclude-compressed, -d and -t
# take only *.zst and *.tzst; outputs land next to the inputs.
group_recursive() {
    local d t
    d=$(fresh_dir)
    mkdir -p "$d/tree/sub/deeper"
    cp "$C/text" "$d/tree/a"
    cp "$C/small" "$d/tree/sub/b"
    cp "$C/binary" "$d/tree/sub/deeper/c"
    cp "$C/small.zst" "$d/tree/old.zst"
    cp "$C/small.zst" "$d/tree/sub/arch.tzst"
    make_twins "$d/twin" "$d/tree"
    make_twins "$d/twin2" "$d/tree"
    z -q -r "$d/tree"
    expect_rc 0 "-r compress"
    for f in a sub/b sub/deeper/c old.zst sub/arch.tzst; do
        expect_exists "$d/tree/$f.zst" "-r compress: $f.zst"
        "$ZSTD" -dq -c "$d/tree/$f.zst" 2>/dev/null | cmp -s - "$d/tree/$f" && pass || fail "-r compress: $f.zst does not decode to $f"
    done
    run_twins "$d/twin" /dev/null -q -r tree
    expect_as_zstd "$d/twin" "-r compress, as zstd"
    run_twins "$d/twin2" /dev/null -q -r --exclude-compressed tree
    expect_as_zstd "$d/twin2" "-r --exclude-compressed, as zstd"
    expect_exists "$d/twin2/zest/tree/a.zst" "-r --exclude-compressed: a.zst"
    expect_missing "$d/twin2/zest/tree/old.zst.zst" "-r --exclude-compressed skips .zst files"
    expect_missing "$d/twin2/zest/tree/sub/arch.tzst.zst" "-r --exclude-compressed skips .tzst files"
    rm -f "$d/tree/a" "$d/tree/sub/b" "$d/tree/sub/deeper/c" "$d/tree/old.zst.zst" "$d/tree/sub/arch.tzst.zst"
    z -t -r "$d/tree"
    expect_rc 0 "-t -r"
    z -d -q -r "$d/tree"
    expect_rc 0 "-d -r"
    expect_same "$d/tree/a" "$C/text" "-d -r: a"
    expect_same "$d/tree/sub/b" "$C/small" "-d -r: sub/b"
    expect_same "$d/tree/sub/deeper/c" "$C/binary" "-d -r: sub/deeper/c"
    expect_same "$d/tree/old" "$C/small" "-d -r: old"
    expect_same "$d/tree/sub/arch.tar" "$C/small" "-d -r: sub/arch.tzst"
    # What -r compression made, -d -r restores as zstd does (x.zst.zst gives
    # x.zst). (zstd -d -r also tries files of other names, which fail.)
    for t in zest zstd; do
        rm "$d/twin/$t/tree/a" "$d/twin/$t/tree/sub/b" "$d/twin/$t/tree/sub/deeper/c" \
           "$d/twin/$t/tree/old.zst" "$d/twin/$t/tree/sub/arch.tzst"
    done
    run_twins "$d/twin" /dev/null -q -d -r tree
    expect_as_zstd "$d/twin" "-d -r, as zstd"
    expect_rc 0 "-d -r on a compressed tree"
    expect_same "$d/twin/zest/tree/old.zst" "$C/small.zst" "-d -r: old.zst.zst"
    expect_same "$d/twin/zest/tree/sub/arch.tzst" "$C/small.zst" "-d -r: sub/arch.tzst.zst"
    # Without -r a directory is an error, and the other inputs still go through.
    cp "$C/small" "$d/lone"
    z -q "$d/tree" "$d/lone"
    expect_rc 1 "a directory without -r"
    expect_exists "$d/lone.zst" "a directory without -r does not stop the next input"
    # A corrupt file below the tree: the others are decoded, the status is 1.
    d=$(fresh_dir)
    mkdir -p "$d/t2"
    cp "$C/corrupt.zst" "$d/t2/bad.zst"
    cp "$C/small.zst" "$d/t2/good.zst"
    z -d -q -r "$d/t2"
    expect_rc 1 "-d -r with a corrupt file"
    expect_same "$d/t2/good" "$C/small" "-d -r with a corrupt file: good one decoded"
    expect_missing "$d/t2/bad" "-d -r with a corrupt file: no output for it"
}

# Levels and thread counts: every level makes frames zstd decodes; -T# and
# --threads=# are accepted (zest is single-threaded for now) and change nothing.
group_levels() {
    local d l
    d=$(fresh_dir)
    head -c 300000 "$C/text" >"$d/in"
    for l in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
        z -q "-$l" -c "$d/in" >"$d/l$l.zst"
        expect_rc 0 "-$l"
        "$ZSTD" -dq -c "$d/l$l.zst" 2>/dev/null | cmp -s - "$d/in" && pass || fail "-$l: zstd does not restore the input"
    done
    for l in 20 21 22; do
        z -q --ultra "-$l" -c "$d/in" >"$d/u$l.zst"
        expect_rc 0 "--ultra -$l"
        "$ZSTD" -dq --long=31 -c "$d/u$l.zst" 2>/dev/null | cmp -s - "$d/in" && pass || fail "--ultra -$l: zstd does not restore the input"
    done
    z -q -c -T4 "$d/in" >"$d/t4.zst"
    expect_rc 0 "-T4"
    z -q -c --threads=2 "$d/in" >"$d/t2.zst"
    expect_rc 0 "--threads=2"
    z -q -c -T0 "$d/in" >"$d/t0.zst"
    expect_rc 0 "-T0"
    z -q -c "$d/in" >"$d/t1.zst"
    expect_same "$d/t4.zst" "$d/t1.zst" "-T4 output"
    expect_same "$d/t2.zst" "$d/t1.zst" "--threads=2 output"
    # -T alone is -T0 (all cores), as in zstd.
    z -q -c -T "$d/in" >"$d/t.zst"
    expect_rc 0 "-T without a number"
    expect_same "$d/t.zst" "$d/t1.zst" "-T output"
    z -q -c -T -5 "$d/in" >"$d/t5.zst"
    expect_rc 0 "-T then a level"
    z -q -c -5 "$d/in" >"$d/l5.zst"
    expect_same "$d/t5.zst" "$d/l5.zst" "-T -5: the level is not taken as a thread count"
    z -q -c --threads=x "$d/in" >/dev/null
    expect_rc 1 "--threads=x"
    # -0 is the default level (3), as in zstd.
    z -q -0 -c "$d/in" >"$d/l0.zst"
    expect_rc 0 "-0"
    expect_same "$d/l0.zst" "$d/l3.zst" "-0 is -3"
    z -q -c "$d/in" >"$d/ldef.zst"
    expect_same "$d/ldef.zst" "$d/l3.zst" "the default level is 3"
    # -k is the default: the input stays.
    z -q "$d/in"
    expect_exists "$d/in" "-k is the default"
    # The level changes the output (19 is smaller than 1 on text).
    if [ "$(stat -c %s "$d/l19.zst")" -lt "$(stat -c %s "$d/l1.zst")" ]; then pass; else fail "-19 not smaller than -1"; fi
}

# Exit statuses and messages, like zstd: 1 for any error, the other files go on.
group_messages() {
    local d
    d=$(fresh_dir)
    z --bogus
    expect_rc 1 "unknown long option"
    expect_stderr_has "--bogus" "unknown long option named"
    z -y
    expect_rc 1 "unknown short option"
    cp "$C/small" "$d/one"
    cp "$C/small" "$d/two"
    z -q "$d/one" "$d/missing" "$d/two"
    expect_rc 1 "a missing file among others"
    expect_error_line "$d/missing" "a missing file among others"
    expect_exists "$d/one.zst" "the file before a missing one"
    expect_exists "$d/two.zst" "the file after a missing one"
    z "$d/one"
    expect_rc 1 "refusing to overwrite without -f"
    expect_stderr_has "already exists" "refusing to overwrite without -f"
    z -qq "$d/one"
    expect_rc 1 "-qq: still status 1"
    expect_stderr_empty "-qq prints nothing"
    z -f -q "$d/one"
    expect_rc 0 "-f overwrites"
    expect_stderr_empty "-q prints nothing on success"
    # Summary line for several files; -v adds a line per file.
    z -f "$d/one" "$d/two"
    expect_stderr_has "2 files compressed" "summary of two files"
    z -f -v "$d/one" "$d/two"
    expect_stderr_has "$d/one.zst" "-v: line per file names the output"
    expect_stderr_has "*** zest CLI" "-v starts with the banner, like zstd -v"
    # -- ends options: a file named -v.
    (cd "$d" && cp "$C/small" ./-v && z -q -- -v; exit "$RC")
    expect_rc 0 "-- then a file named -v"
    expect_exists "$d/-v.zst" "-- then a file named -v"
    z -d "$C/garbage.zst" -c >/dev/null
    expect_rc 1 "corrupt input"
    expect_error_line "$C/garbage.zst" "corrupt input"
    z -h >/dev/null
    expect_rc 0 "-h"
}

# Benchmark mode: one line per level, like zstd -b.
group_bench() {
    local d n
    d=$(fresh_dir)
    z -b1 -e3 -i0 "$C/text" >"$d/out"
    expect_rc 0 "-b1 -e3 -i0 FILE"
    n=$(grep -cE '^ ?[0-9]+#text +: +1288895 -> +[0-9]+ \(x[0-9.]+\), +[0-9.]+ MB/s, +[0-9.]+ MB/s$' "$d/out")
    if [ "$n" = 3 ]; then pass; else fail "-b1 -e3: $n result lines, expected 3: $(head -3 "$d/out")"; fi
    z -b2 -i0 >"$d/out"
    expect_rc 0 "-b2 on the synthetic sample"
    if grep -qE '^ 2#Synthetic' "$d/out"; then pass; else fail "-b2 synthetic: $(cat "$d/out")"; fi
    z -b1 -i0 "$d/missing" >/dev/null
    expect_rc 1 "-b on a missing file"
    # Only the levels asked for: --fast=2 -b is level -2 alone, and an end
    # (-e) below the start (-b) runs the start only.
    z --fast=2 -b -i0 "$C/text" >"$d/out"
    expect_rc 0 "--fast=2 -b"
    n=$(grep -c '#' "$d/out")
    if [ "$n" = 1 ] && grep -q -- '-2#text ' "$d/out"; then pass; else fail "--fast=2 -b: expected one '-2#' line: $(head -3 "$d/out")"; fi
    z -b5 -e3 -i0 "$C/text" >"$d/out"
    expect_rc 0 "-b5 -e3"
    n=$(grep -c '#' "$d/out")
    if [ "$n" = 1 ] && grep -qE '^ 5#text ' "$d/out"; then pass; else fail "-b5 -e3: expected one ' 5#' line: $(head -3 "$d/out")"; fi
    # -qq: nothing on stdout; -q: a header line, then one line per level.
    z -qq -b1 -i0 "$C/text" >"$d/out"
    expect_rc 0 "-qq -b1"
    if [ ! -s "$d/out" ]; then pass; else fail "-qq -b1 prints: $(head -3 "$d/out")"; fi
    z -q -b1 -e2 -i0 "$C/text" >"$d/out"
    expect_rc 0 "-q -b1 -e2"
    if head -1 "$d/out" | grep -q '^bench ' && [ "$(wc -l <"$d/out")" = 3 ] &&
       [ "$(grep -cE '^-[12] +[0-9]+ \(' "$d/out")" = 2 ]; then
        pass
    else
        fail "-q -b1 -e2: expected a 'bench ' header and two result lines: $(head -4 "$d/out")"
    fi

    # Another format than zstd's is refused as zstd refuses it (status 1),
    # before anything is measured.
    local f
    for f in gzip xz lzma lz4; do
        z --format=$f -b -i0 "$C/small" >"$d/out"
        expect_rc 1 "--format=$f -b"
        expect_stderr_has "only compatible with zstd format" "--format=$f -b"
        [ ! -s "$d/out" ] && pass || fail "--format=$f -b printed: $(head -2 "$d/out")"
        zr --format=$f -b -i0 "$C/small" >/dev/null
        expect_rc_as_zstd "--format=$f -b"
    done
    z --format=gzip --format=zstd -b -i0 "$C/small" >"$d/out"
    expect_rc 0 "--format=gzip --format=zstd -b"

    # -d with -b, in either order, benchmarks the decompression of the
    # compressed files (zstd -b -d): one line at level 0, from their decoded
    # size to theirs, no compression speed; nothing is written, not even
    # with -f over an existing file of the decoded name.
    local csize files
    csize=$(stat -c %s "$C/text.zst")
    cp "$C/text.zst" "$C/multi.zst" "$C/skippable.zst" "$C/text-nosize.zst" "$C/garbage.zst" "$d/"
    echo keep-me >"$d/text"
    files=$(cd "$d" && ls | LC_ALL=C sort | tr '\n' ' ')
    for args in "-b -d -f" "-d -b" "-b -d" "-b3 -e5 -d"; do
        z_in "$d" $args -i0 text.zst -o text >"$d/../bench.out"
        expect_rc 0 "$args -i0 FILE.zst"
        n=$(grep -cE "^ 0#text.zst +: +1288895 -> +$csize \(x[0-9.]+\), +0.00 MB/s, +[0-9.]+ MB/s\$" "$d/../bench.out")
        if [ "$n" = 1 ] && [ "$(wc -l <"$d/../bench.out")" = 1 ]; then pass; else
            fail "$args FILE.zst: expected one decode-only line ' 0#text.zst : 1288895 -> $csize': $(head -3 "$d/../bench.out")"
        fi
        [ "$(cat "$d/text")" = keep-me ] && pass || fail "$args FILE.zst wrote over FILE"
        [ "$(cd "$d" && ls | LC_ALL=C sort | tr '\n' ' ')" = "$files" ] && pass ||
            fail "$args FILE.zst left $(cd "$d" && ls | tr '\n' ' '), expected $files"
    done
    # All frames of a file count, skippable ones for nothing; -q: zstd's
    # header with the compressed size, then the line at -0.
    z_in "$d" -q -b -d -i0 multi.zst skippable.zst >"$d/../bench.out"
    expect_rc 0 "-q -b -d on two files"
    n=$(($(stat -c %s "$d/multi.zst") + $(stat -c %s "$d/skippable.zst")))
    if head -1 "$d/../bench.out" | grep -q "^bench .* input $n bytes" &&
       grep -qE "^-0 +$n \([0-9.]+\) +0.00 MB/s +[0-9.]+ MB/s  2 files\$" "$d/../bench.out"; then
        pass
    else
        fail "-q -b -d on two files: $(cat "$d/../bench.out")"
    fi
    z_in "$d" -b -d -i0 multi.zst >"$d/../bench.out"
    grep -qE "^ 0#multi.zst +: +$(($(stat -c %s "$C/multi"))) -> " "$d/../bench.out" && pass ||
        fail "-b -d on two frames: $(cat "$d/../bench.out")"
    # Refused as zstd refuses them (status 1, nothing written): data that is
    # not zstd, a frame without its size, no file (the synthetic sample).
    for f in garbage.zst text-nosize.zst "text.zst garbage.zst"; do
        z_in "$d" -b -d -i0 $f >"$d/../bench.out"
        expect_rc 1 "-b -d on $f"
        expect_error_line "${f##* }" "-b -d on $f"
    done
    z_in "$d" -b -d -i0 >"$d/../bench.out"
    expect_rc 1 "-b -d without files"
    [ "$(cd "$d" && ls | LC_ALL=C sort | tr '\n' ' ')" = "$files" ] && pass ||
        fail "-b -d failures left $(cd "$d" && ls | tr '\n' ' ')"
}

# Interoperation with the system zstd, both directions, through pipes.
group_interop() {
    local d
    d=$(fresh_dir)
    for f in text binary zeros small empty; do
        "$ZEST" -q -c <"$C/$f" 2>/dev/null | "$ZSTD" -dq -c 2>/dev/null >"$d/$f.a" && pass || fail "zest -c | zstd -d: $f"
        expect_same "$d/$f.a" "$C/$f" "zest -c | zstd -d: $f"
        "$ZSTD" -q -c <"$C/$f" 2>/dev/null | "$ZEST" -dq -c 2>/dev/null >"$d/$f.b" && pass || fail "zstd -c | zest -d: $f"
        expect_same "$d/$f.b" "$C/$f" "zstd -c | zest -d: $f"
    done
    # Frames from both tools concatenated, read by each tool.
    { "$ZEST" -q -c "$C/text"; "$ZSTD" -q -c "$C/small"; "$ZEST" -q -c --no-check "$C/binary"; } >"$d/mix.zst"
    cat "$C/text" "$C/small" "$C/binary" >"$d/mix"
    z -dq -c "$d/mix.zst" >"$d/mix.a"
    expect_same "$d/mix.a" "$d/mix" "mixed frames through zest"
    "$ZSTD" -dq -c "$d/mix.zst" >"$d/mix.b" 2>/dev/null
    expect_same "$d/mix.b" "$d/mix" "mixed frames through zstd"
    # zstd -t accepts what zest writes at several levels, and zstd -l reads it.
    for l in 1 3 9 19; do
        "$ZEST" -q "-$l" -c "$C/text" >"$d/t$l.zst" 2>/dev/null
        "$ZSTD" -tq "$d/t$l.zst" 2>/dev/null && pass || fail "zstd -t on zest -$l output"
    done
    "$ZSTD" -l "$d/t3.zst" >"$d/l.out" 2>&1 && grep -q XXH64 "$d/l.out" && pass || fail "zstd -l on zest output"
    # Files written by zest: zstd -d makes the same file.
    cp "$C/text" "$d/f"
    z -q "$d/f"
    "$ZSTD" -dq "$d/f.zst" -o "$d/f.back" 2>/dev/null
    expect_same "$d/f.back" "$C/text" "zest FILE then zstd -d"
}

# The progress line: never on a stderr that is not a terminal (a slow
# stdin of a few seconds would otherwise show it), and with `script`
# providing a terminal it appears for work of more than a second.
group_progress() {
    local d
    d=$(fresh_dir)
    { cat "$C/text"; sleep 2; cat "$C/text"; } | "$ZEST" -c >"$d/out.zst" 2>"$ERR"
    if grep -q $'\r' "$ERR"; then fail "progress shown while stderr is not a terminal"; else pass; fi
    { cat "$C/text"; sleep 2; cat "$C/text"; } | "$ZEST" -c --progress >"$d/out2.zst" 2>"$ERR"
    if grep -q $'\r' "$ERR" && grep -q 'MB/s' "$ERR"; then pass; else fail "--progress shows no progress line"; fi
    # As zstd, --progress outweighs -q (-qq silences everything).
    { cat "$C/text"; sleep 2; cat "$C/text"; } | "$ZEST" -q -c --progress >"$d/out3.zst" 2>"$ERR"
    if grep -q 'MB/s' "$ERR"; then pass; else fail "-q --progress shows no progress line, zstd's does"; fi
    { cat "$C/text"; sleep 2; cat "$C/text"; } | "$ZEST" -qq -c --progress >"$d/out3.zst" 2>"$ERR"
    expect_stderr_empty "-qq --progress prints nothing"
    if command -v script >/dev/null 2>&1; then
        cat "$C/text" "$C/text" >"$d/twice"
        script -qec "{ cat '$C/text'; sleep 2; cat '$C/text'; } | '$ZEST' -o '$d/out4.zst'" /dev/null >"$d/tty" 2>&1
        if grep -q 'MB/s' "$d/tty"; then pass; else fail "no progress line on a terminal"; fi
        "$ZSTD" -dq -c "$d/out4.zst" 2>/dev/null | cmp -s - "$d/twice" && pass || fail "output made under a terminal"
    fi
}

# Streaming: memory stays bounded whatever the input's size (200 MiB through
# a process limited to ~80 MB of address space), in both directions, and
# decoded output appears before the compressed input has ended.
group_streaming() {
    local d limit="ulimit -v 80000"
    d=$(fresh_dir)
    # A sanitizer build reserves terabytes of address space at start-up and
    # cannot run under a memory limit: then the same runs go unlimited.
    if ! bash -c "$limit; \"\$1\" -V; exit \$?" probe "$ZEST" >/dev/null 2>&1; then limit=true; fi
    (eval "$limit"; head -c 200M /dev/zero | "$ZEST" -q -c >"$d/z.zst") 2>"$ERR"
    "$ZSTD" -tq "$d/z.zst" 2>/dev/null && pass || fail "200 MiB compressed under a memory limit"
    (eval "$limit"; "$ZEST" -dq -c "$d/z.zst" | wc -c >"$d/n") 2>"$ERR"
    if [ "$(cat "$d/n")" = 209715200 ]; then pass; else fail "200 MiB decoded under a memory limit: $(cat "$d/n") bytes"; fi
    (eval "$limit"; "$ZSTD" -q -c "$C/text" | "$ZEST" -dq -c) >"$d/t" 2>"$ERR"
    expect_same "$d/t" "$C/text" "zstd stream decoded under a memory limit"
    # A stalled writer: what was sent so far comes out (flushed per block).
    mkfifo "$d/fifo"
    "$ZEST" -dq -c <"$d/fifo" >"$d/partial" 2>"$ERR" &
    local pid=$!
    exec 3>"$d/fifo"
    "$ZSTD" -q -c "$C/zeros" >&3 2>/dev/null
    local got=0
    for _ in $(seq 1 50); do
        got=$(stat -c %s "$d/partial")
        [ "$got" -ge 3000000 ] && break
        sleep 0.1
    done
    if [ "$got" -ge 3000000 ]; then pass; else fail "stalled input: only $got bytes decoded"; fi
    exec 3>&-
    wait "$pid"
    expect_same "$d/partial" "$C/zeros" "stalled input, then closed"
}

# Signals while compressing: the output being written disappears; SIGINT
# exits with status 2 and SIGTERM dies of the signal, as with zstd.
group_signals_compress() {
    local d pid status found sig
    for sig in INT TERM; do
        d=$(fresh_dir)
        mkfifo "$d/fifo"
        # A background job of a script starts with SIGINT ignored (and zest,
        # like zstd, leaves ignored signals alone): restore the default first.
        env --default-signal=INT "$ZEST" -o "$d/out.zst" - <"$d/fifo" 2>"$ERR" &
        pid=$!
        exec 3>"$d/fifo"
        cat "$C/text" >&3   # some data, then the feeder stalls
        found=
        for _ in $(seq 1 100); do
            if [ -n "$(find "$d" -maxdepth 1 -name '*zest-tmp*')" ]; then found=1; break; fi
            sleep 0.1
        done
        if [ -n "$found" ]; then pass; else fail "SIG$sig: no temporary file while compressing"; fi
        kill -"$sig" "$pid"
        # A zest that ignores the signal fails, not hangs. The guard is a
        # separate program, left to expire: a bash subshell killed right
        # after its fork would run this script's EXIT trap (and delete $WORK).
        sh -c 'sleep 10; kill -KILL "$1" 2>/dev/null' guard "$pid" >/dev/null 2>&1 &
        status=0
        wait "$pid" || status=$?
        exec 3>&-
        local want=143
        [ "$sig" = INT ] && want=2   # zstd's status after SIGINT
        if [ "$status" -eq "$want" ]; then pass; else fail "SIG$sig while compressing: exit status $status, expected $want"; fi
        expect_missing "$d/out.zst" "SIG$sig while compressing leaves no output"
        expect_no_temp "$d" "SIG$sig while compressing removes the temporary file"
    done
    # --rm: the input goes only once its output is complete; a failing
    # output (a full device) keeps it.
    d=$(fresh_dir)
    cp "$C/text.zst" "$d/keep.zst"
    z -d -q --rm -f "$d/keep.zst" -o /dev/full
    expect_rc 1 "--rm onto /dev/full"
    expect_exists "$d/keep.zst" "--rm onto /dev/full keeps the input"
    cp "$C/text" "$d/plain"
    z -q --rm "$d/plain"
    expect_rc 0 "--rm compress"
    expect_missing "$d/plain" "--rm compress removes the input"
    "$ZSTD" -dq -c "$d/plain.zst" 2>/dev/null | cmp -s - "$C/text" && pass || fail "--rm compress: output incomplete"
    # The order of --rm: output synced, renamed into place, directory synced,
    # and only then the input unlinked.
    if command -v strace >/dev/null 2>&1; then
        cp "$C/text" "$d/traced"
        strace -o "$d/trace" -e trace=fsync,rename,renameat2,unlink,unlinkat "$ZEST" -q --rm "$d/traced" 2>/dev/null
        local order
        order=$(grep -oE '^(fsync|rename|renameat2|unlink|unlinkat)' "$d/trace" | tr '\n' ' ')
        if [ "$order" = "fsync renameat2 fsync unlink " ] || [ "$order" = "fsync rename fsync unlink " ]; then
            pass
        else
            fail "--rm: system calls in the order '$order'"
        fi
        cp "$C/text" "$d/traced2"
        strace -o "$d/trace2" -e trace=fsync,unlink "$ZEST" -q "$d/traced2" 2>/dev/null
        if grep -qE '^(fsync|unlink)\(' "$d/trace2"; then fail "without --rm: fsync or unlink called"; else pass; fi
    fi
}

# Behaviours taken from zstd 1.5.4, compared with it where they can be:
# symbolic links on the command line, and options accepted for compatibility.
group_compat() {
    local d args opt
    # A symbolic link named on the command line is only followed with -f.
    d=$(fresh_dir)
    mkdir "$d/setup"
    cp "$C/small" "$d/setup/a"
    cp "$C/small.zst" "$d/setup/b.zst"
    ln -s a "$d/setup/la"
    ln -s b.zst "$d/setup/lb.zst"
    (cd "$d/setup" && z la; exit "$RC")
    RC=$?
    expect_rc 1 "a symbolic link without -f"
    expect_stderr_has "zest: la: is a symbolic link -- ignored (use -f to follow it)" "a symbolic link without -f"
    expect_missing "$d/setup/la.zst" "a symbolic link without -f"
    (cd "$d/setup" && z -q la; exit "$RC")
    RC=$?
    expect_rc 1 "-q: a symbolic link without -f"
    expect_stderr_empty "-q: a symbolic link without -f"
    (cd "$d/setup" && z -d lb.zst; exit "$RC")
    RC=$?
    expect_rc 1 "-d: a symbolic link without -f"
    expect_stderr_has "zest: lb.zst: is a symbolic link -- ignored (use -f to follow it)" "-d: a symbolic link without -f"
    expect_missing "$d/setup/lb" "-d: a symbolic link without -f"
    (cd "$d/setup" && z -c la; exit "$RC") >"$d/stdout"
    RC=$?
    expect_rc 1 "-c: a symbolic link without -f"
    if [ ! -s "$d/stdout" ]; then pass; else fail "-c: a symbolic link without -f writes data"; fi
    (cd "$d/setup" && z -f la; exit "$RC")
    RC=$?
    expect_rc 0 "a symbolic link with -f"
    "$ZSTD" -dq -c "$d/setup/la.zst" 2>/dev/null | cmp -s - "$C/small" && pass || fail "a symbolic link with -f: la.zst"
    (cd "$d/setup" && z -d -f lb.zst; exit "$RC")
    RC=$?
    expect_rc 0 "-d: a symbolic link with -f"
    expect_same "$d/setup/lb" "$C/small" "-d: a symbolic link with -f"
    # A link to a pipe is not dropped, as in zstd: bash's <(command) is one
    # (/dev/fd/N), and so is one made with ln -s.
    z -q -c <(cat "$C/small") >"$d/procsub.zst"
    expect_rc 0 "-c <(command)"
    "$ZSTD" -dq -c "$d/procsub.zst" 2>/dev/null | cmp -s - "$C/small" && pass || fail "-c <(command): output"
    z -q -dc <(cat "$C/small.zst") >"$d/procsub"
    expect_rc 0 "-dc <(command)"
    expect_same "$d/procsub" "$C/small" "-dc <(command)"
    mkfifo "$d/setup/fifo"
    ln -s fifo "$d/setup/lfifo"
    timeout 20 sh -c 'cat "$1" >"$2"' sh "$C/small" "$d/setup/fifo" &  # ends even if nobody reads
    (cd "$d/setup" && z -q -c lfifo; exit "$RC") >"$d/lfifo.zst"
    RC=$?
    wait
    expect_rc 0 "-c LINK-TO-A-FIFO"
    "$ZSTD" -dq -c "$d/lfifo.zst" 2>/dev/null | cmp -s - "$C/small" && pass || fail "-c LINK-TO-A-FIFO: output"
    rm -f "$d/setup/fifo" "$d/setup/lfifo"
    local n=0
    for args in "la" "-q la" "-c la" "-d lb.zst" "-dc lb.zst" "-t lb.zst" "-f la" "-d -f lb.zst" "-df --rm lb.zst"; do
        n=$((n + 1))
        make_twins "$d/twin$n" "$d/setup/a" "$d/setup/b.zst" "$d/setup/la" "$d/setup/lb.zst"
        # shellcheck disable=SC2086
        run_twins "$d/twin$n" /dev/null $args
        expect_as_zstd "$d/twin$n" "zest $args (a symbolic link) as zstd"
        expect_same "$d/twin$n/zest.stdout" "$d/twin$n/zstd.stdout" "zest $args (a symbolic link): stdout as zstd's"
    done
    # A link among other files: only the link is ignored (zstd's status is 0
    # then, zest's 1: only the files are compared).
    n=$((n + 1))
    make_twins "$d/twin$n" "$d/setup/a" "$d/setup/la" "$C/text"
    run_twins "$d/twin$n" /dev/null -q la text
    expect_twin_files "$d/twin$n" "zest la text (a symbolic link among files) as zstd"
    expect_exists "$d/twin$n/zest/text.zst" "a symbolic link among files: the file is compressed"

    # Options accepted without effect: the same frame as without them.
    d=$(fresh_dir)
    head -c 300000 "$C/text" >"$d/in"
    z -q -c "$d/in" >"$d/plain.zst"
    for opt in -C --check --single-thread --sparse --no-sparse -B0 -B1M --block-size=1M --content-size; do
        z -q -c "$opt" "$d/in" >"$d/opt.zst"
        expect_rc 0 "$opt"
        expect_same "$d/opt.zst" "$d/plain.zst" "$opt changes nothing"
        zr -q -c "$opt" "$d/in" >/dev/null
        expect_rc_as_zstd "$opt, as zstd"
    done
    z -q -d -c --sparse "$d/plain.zst" >"$d/out"
    expect_rc 0 "-d --sparse"
    expect_same "$d/out" "$d/in" "-d --sparse"
    # -C is --check: after --no-check, it brings the checksum back.
    z -q -c --no-check -C "$d/in" >"$d/opt.zst"
    expect_rc 0 "--no-check -C"
    expect_same "$d/opt.zst" "$d/plain.zst" "--no-check -C writes the checksum"
    # --no-content-size: the frame does not declare the size (its header
    # descriptor as zstd's), and still decodes; zstd -lv shows no size.
    z -q -c --no-content-size "$d/in" >"$d/ncs.zst"
    expect_rc 0 "--no-content-size"
    "$ZSTD" -dq -c "$d/ncs.zst" 2>/dev/null | cmp -s - "$d/in" && pass || fail "--no-content-size: zstd does not restore the input"
    if "$ZSTD" -lv "$d/ncs.zst" 2>/dev/null | grep -q '^Decompressed Size'; then
        fail "--no-content-size: zstd -lv finds a content size"
    else
        pass
    fi
    if "$ZSTD" -lv "$d/plain.zst" 2>/dev/null | grep -q '^Decompressed Size: .*(300000 B)'; then pass; else
        fail "zest's default frame does not declare its content size"
    fi
    "$ZSTD" -q -c --no-content-size "$d/in" >"$d/ncs.ref" 2>/dev/null
    if [ "$(od -An -tx1 -j4 -N1 "$d/ncs.zst")" = "$(od -An -tx1 -j4 -N1 "$d/ncs.ref")" ]; then pass; else
        fail "--no-content-size: frame header descriptor $(od -An -tx1 -j4 -N1 "$d/ncs.zst"), zstd's $(od -An -tx1 -j4 -N1 "$d/ncs.ref")"
    fi
}

# The groups of the options zstd users type and of zstd's behaviours.
# shellcheck source=zstd_options_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/zstd_options_test.sh"
# shellcheck source=zstd_behaviour_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/zstd_behaviour_test.sh"
# shellcheck source=dictionary_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/dictionary_test.sh"

for group in "${GROUPS_TO_RUN[@]}"; do
    if ! declare -F "group_$group" >/dev/null; then
        echo "FAIL: unknown group '$group'"
        failures=$((failures + 1))
        continue
    fi
    "group_$group"
done
group=summary
echo "$checks checks passed, $failures failed (groups: ${GROUPS_TO_RUN[*]})"
[ "$failures" -eq 0 ]
