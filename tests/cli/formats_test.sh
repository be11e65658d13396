#!/usr/bin/env bash
# Tests of the zest CLI's other formats (gzip, xz, lzma, lz4): what zest
# writes, the formats' own tools (gzip, xz, lz4) decode byte for byte; what
# they write, zest decodes; and zest behaves as zstd does with them (output
# names, program names, concatenations, the same bytes at the same level),
# with the system zstd as the oracle when it was built with the formats.
#
# Usage: formats_test.sh ZEST ZEST_NO_FORMATS ZSTD "FORMATS" [GROUP...]
#   ZEST_NO_FORMATS: the tool built without any format library;
#   FORMATS: the formats the build found ("gzip xz lzma lz4", or fewer).
# Exits 0 when every check passes, 1 otherwise, 77 (skip) without zstd.
set -u
umask 022

usage="usage: formats_test.sh ZEST ZEST_NO_FORMATS ZSTD FORMATS [GROUP...]"
ZEST=${1:?$usage}
ZEST_NONE=${2:?$usage}
ZSTD=${3:?$usage}
BUILT=${4-}
shift 4
ALL_GROUPS=(build compress decompress multi boundaries errors test pipes empty names list missing memory)
GROUPS_TO_RUN=("$@")
[ ${#GROUPS_TO_RUN[@]} -eq 0 ] && GROUPS_TO_RUN=("${ALL_GROUPS[@]}")

if ! "$ZSTD" --version >/dev/null 2>&1; then
    echo "SKIP: reference zstd not usable at '$ZSTD'"
    exit 77
fi
for b in "$ZEST" "$ZEST_NONE"; do
    [ -x "$b" ] || { echo "FAIL: zest binary not found at '$b'"; exit 1; }
done
ZEST=$(cd "$(dirname "$ZEST")" && pwd)/$(basename "$ZEST")  # cases change directory
ZEST_NONE=$(cd "$(dirname "$ZEST_NONE")" && pwd)/$(basename "$ZEST_NONE")
exec </dev/null  # no question may wait on a terminal

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zest-formats-test.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
ERR=$WORK/stderr
checks=0
failures=0
skipped=0
group=setup

# shellcheck source=check_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
skip() {  # reason: a check this machine cannot make (said once per reason)
    echo "SKIP [$group]: $*"
    skipped=$((skipped + 1))
}
fresh_dir() { mktemp -d "$WORK/case.XXXXXX"; }
flip_byte() {  # file offset: invert one byte in place
    local old
    old=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %03o $((old ^ 255)))" | dd of="$1" bs=1 seek="$2" count=1 conv=notrunc status=none
}
size_of() { stat -c %s "$1"; }

# ---------------------------------------------------------------------------
# What this machine has: the formats built into zest, their tools, and the
# formats the system zstd was built with.
built_in() { [[ " $BUILT " == *" $1 "* ]]; }
suffix_of() {
    case $1 in gzip) echo gz ;; *) echo "$1" ;; esac
}
# The format's own decoder, reading stdin and writing stdout.
tool_decode() {
    case $1 in
        gzip) gzip -dc ;;
        xz) xz -dc ;;
        lzma) xz --format=lzma -dc ;;
        lz4) lz4 -dc ;;
    esac
}
# The format's own encoder at a level (stdin to stdout).
tool_encode() {  # format level
    case $1 in
        gzip) gzip -c "-$2" ;;
        xz) xz -c "-$2" ;;
        lzma) xz --format=lzma -c "-$2" ;;
        lz4) lz4 -c -q "-$2" ;;
    esac
}
have_tool() {
    case $1 in
        gzip) command -v gzip >/dev/null ;;
        xz | lzma) command -v xz >/dev/null ;;
        lz4) command -v lz4 >/dev/null ;;
    esac
}
zstd_supports() { "$ZSTD" -vV 2>/dev/null | grep -q "supports:.*[ ,]$1\\b"; }
FORMATS=()     # built in and with their own tool here
for f in gzip xz lzma lz4; do
    if ! built_in "$f"; then
        echo "NOTE: zest was built without $f; only its 'not built in' message is tested"
    elif ! have_tool "$f"; then
        echo "NOTE: no $f tool on this machine (scripts/deps.sh installs it): $f is not tested"
    else
        FORMATS+=("$f")
    fi
done

C=$WORK/corpus
mkdir "$C"
seq 1 200000 >"$C/text"
head -c 1500000 "$ZEST" >"$C/binary"
head -c 3000000 /dev/zero >"$C/zeros"
head -c 300000 "$C/text" >"$C/mid"
printf 'hello, zest\n' >"$C/small"
: >"$C/empty"
CORPUS=(text binary zeros small)
# The format's tool's own file for a corpus entry (NAME-1 and NAME-9: at
# those levels, otherwise 6), written on first use: each group pays only
# for what it reads.
tool_file() {  # name format: prints the path
    local s level=6 plain=$1
    s=$(suffix_of "$2")
    case $1 in *-1) level=1 plain=${1%-1} ;; *-9) level=9 plain=${1%-9} ;; esac
    if [ ! -e "$C/$1.$s" ]; then
        tool_encode "$2" "$level" <"$C/$plain" >"$C/$1.$s.part" && mv "$C/$1.$s.part" "$C/$1.$s"
        [ -s "$C/$1.$s" ] || { echo "FAIL [setup]: the $2 tool did not write $1.$s" >&2; exit 1; }
    fi
    echo "$C/$1.$s"
}
"$ZSTD" -q "$C/small" -o "$C/small.zst"
plain_of() {  # corpus entry -> the plain file it decodes to
    case $1 in text*) echo "$C/text" ;; *) echo "$C/$1" ;; esac
}

# ---------------------------------------------------------------------------
# The build: zest lists what it was built with (zest -vV, as zstd -vV).
group_build() {
    local line want f
    line=$("$ZEST" -vV 2>/dev/null | grep '^\*\*\* supports:')
    want="*** supports: zstd"
    for f in gzip lz4 lzma xz; do built_in "$f" && want="$want, $f"; done
    if [ "$line" = "$want" ]; then pass; else fail "zest -vV says '$line', expected '$want'"; fi
    line=$("$ZEST_NONE" -vV 2>/dev/null | grep '^\*\*\* supports:')
    if [ "$line" = "*** supports: zstd" ]; then pass; else fail "the build without formats says '$line'"; fi
}

# zest --format=F: the format's tool restores the input; the output has
# zstd's name and, level for level, zstd's very bytes (same libraries,
# same settings: this is what holds the level mapping to zstd's).
group_compress() {
    local f s d n lv
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        for n in "${CORPUS[@]}"; do
            cp "$C/$n" "$d/$n"
            z -q --format="$f" "$d/$n"
            expect_rc 0 "--format=$f on $n"
            expect_same "$d/$n" "$C/$n" "--format=$f keeps the input $n"
            tool_decode "$f" <"$d/$n.$s" >"$d/$n.back" 2>"$ERR"
            expect_same "$d/$n.back" "$C/$n" "the $f tool decodes zest's $n.$s"
        done
        expect_no_temp "$d" "--format=$f"
        z -q --format="$f" -c "$C/text" >"$d/c.out"
        expect_rc 0 "--format=$f -c"
        expect_same "$d/c.out" "$d/text.$s" "--format=$f -c writes what FILE.$s holds"
        z -q --format="$f" "$C/text" -o "$d/named.out"
        expect_rc 0 "--format=$f -o"
        expect_same "$d/named.out" "$d/text.$s" "--format=$f -o writes what FILE.$s holds"
        z -q -d "$d/named.out" -o "$d/named.back"
        expect_rc 0 "zest -d on its own $f"
        expect_same "$d/named.back" "$C/text" "zest -d on its own $f"
        # --format=zstd after it wins, as any later option does.
        z -q --format="$f" --format=zstd -c "$C/small" >"$d/z.out"
        if [ "$(od -An -tx1 -N4 "$d/z.out" | tr -d ' ')" = 28b52ffd ]; then pass; else fail "--format=$f --format=zstd"; fi

        if ! zstd_supports "$f"; then
            skip "the system zstd has no $f: zest's $f bytes are not compared with zstd's"
            continue
        fi
        for lv in "" -1 -3 -6 -9 -12 -19 --fast=1 --fast=3; do
            [ "$f" = gzip ] && [ "$lv" = --fast=3 ] && continue  # zstd fails there (see the errors group)
            "$ZSTD" -q --format="$f" $lv -c "$C/mid" >"$d/ref" 2>/dev/null
            z -q --format="$f" $lv -c "$C/mid" >"$d/mine"
            expect_rc 0 "--format=$f $lv"
            expect_same "$d/mine" "$d/ref" "--format=$f ${lv:-(default level)}: zest's bytes are zstd's"
        done
        "$ZSTD" -q --format="$f" --no-check -c "$C/binary" >"$d/ref" 2>/dev/null
        z -q --format="$f" --no-check -c "$C/binary" >"$d/mine"
        expect_same "$d/mine" "$d/ref" "--format=$f --no-check: zest's bytes are zstd's"
        # A pipe: no size known (lz4 declares none), the same bytes as zstd's.
        cat "$C/text" | "$ZSTD" -q --format="$f" -c >"$d/ref" 2>/dev/null
        cat "$C/text" | z -q --format="$f" >"$d/mine"
        expect_same "$d/mine" "$d/ref" "--format=$f from a pipe: zest's bytes are zstd's"
    done
    # gzip: --fast=1 is zlib's default level (6); lower ones do not exist.
    if [[ " ${FORMATS[*]} " == *" gzip "* ]]; then
        d=$(fresh_dir)
        cp "$C/text" "$d/t"
        z --format=gzip --fast=2 "$d/t"
        expect_rc 1 "--format=gzip --fast=2"
        expect_error_line "$d/t" "--format=gzip --fast=2"
        expect_missing "$d/t.gz" "--format=gzip --fast=2 writes nothing"
        z -q --format=gzip --fast=1 -c "$d/t" >"$d/f1"
        z -q --format=gzip -6 -c "$d/t" >"$d/l6"
        expect_same "$d/f1" "$d/l6" "--format=gzip --fast=1 is level 6"
    fi
    # lz4 honours --no-content-size (zstd declares a file's size regardless).
    if [[ " ${FORMATS[*]} " == *" lz4 "* ]]; then
        d=$(fresh_dir)
        z -q --format=lz4 -c "$C/text" >"$d/sized"
        z -q --format=lz4 --no-content-size -c "$C/text" >"$d/unsized"
        # Frame descriptor FLG, bit 3: content size present.
        if [ $(($(od -An -tu1 -j4 -N1 "$d/sized") & 8)) -ne 0 ] &&
           [ $(($(od -An -tu1 -j4 -N1 "$d/unsized") & 8)) -eq 0 ]; then pass; else
            fail "lz4 content size flag: with $(od -An -tu1 -j4 -N1 "$d/sized"), without $(od -An -tu1 -j4 -N1 "$d/unsized")"
        fi
        lz4 -dc "$d/unsized" 2>/dev/null | cmp -s - "$C/text" && pass || fail "lz4 --no-content-size does not decode"
    fi
}

# The formats' own files decode with zest -d, found by their content;
# output names drop the suffix, the short tar forms become .tar, as zstd.
group_decompress() {
    local f s d n
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        for n in "${CORPUS[@]}" text-1 text-9; do
            cp "$(tool_file "$n" "$f")" "$d/$n.$s"
            z -q -d "$d/$n.$s"
            expect_rc 0 "-d on the $f tool's $n.$s"
            expect_same "$d/$n" "$(plain_of "$n")" "-d on the $f tool's $n.$s"
            expect_same "$d/$n.$s" "$(tool_file "$n" "$f")" "-d keeps the input $n.$s"
        done
        expect_no_temp "$d" "-d on $f files"
        # Found by magic number whatever the name; -d -o and -dc.
        cp "$(tool_file text "$f")" "$d/disguised.zst"
        z -q -d "$d/disguised.zst"
        expect_rc 0 "$f data named .zst"
        expect_same "$d/disguised" "$C/text" "$f data named .zst"
        cp "$(tool_file text "$f")" "$d/noname"
        z -q -dc "$d/noname" >"$d/noname.out"
        expect_rc 0 "-dc on $f data without a suffix"
        expect_same "$d/noname.out" "$C/text" "-dc on $f data without a suffix"
        z -q -d "$d/noname" -o "$d/noname.o"
        expect_same "$d/noname.o" "$C/text" "-d -o on $f data without a suffix"
        z -d "$d/noname"
        expect_rc 1 "-d on $f data without a suffix"
        expect_stderr_has "unknown suffix (.zst, .tzst, .zstd, .gz, .tgz, .xz, .txz, .lzma, .lz4 or .tlz4 expected)" "-d without a known suffix"
    done
    # Output names, compared with zstd's where it has the format.
    local pair in out
    for pair in gzip:a.gz:a gzip:b.tgz:b.tar xz:c.xz:c xz:d.txz:d.tar lzma:e.lzma:e lz4:f.lz4:f lz4:g.tlz4:g.tar \
                gzip:h.tar.gz:h.tar; do
        IFS=: read -r f in out <<<"$pair"
        [[ " ${FORMATS[*]} " == *" $f "* ]] || continue
        d=$(fresh_dir)
        mkdir "$d/zest" "$d/zstd"
        cp "$(tool_file small "$f")" "$d/zest/$in"
        cp "$(tool_file small "$f")" "$d/zstd/$in"
        (cd "$d/zest" && "$ZEST" -q -d "$in") 2>"$ERR"
        expect_same "$d/zest/$out" "$C/small" "-d names $in's output $out"
        if zstd_supports "$f"; then
            (cd "$d/zstd" && "$ZSTD" -q -d "$in") 2>/dev/null
            if [ "$(ls "$d/zest")" = "$(ls "$d/zstd")" ]; then pass; else
                fail "-d on $in: zest left $(ls "$d/zest" | tr '\n' ' '), zstd $(ls "$d/zstd" | tr '\n' ' ')"
            fi
        fi
    done
    # -r -d takes the formats' names; --exclude-compressed skips them.
    d=$(fresh_dir)
    mkdir "$d/tree" "$d/tree/sub"
    cp "$C/small" "$d/tree/plain"
    local want="plain"
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        cp "$(tool_file small "$f")" "$d/tree/sub/$f.$s"
        want="$want $f $f.$s"
    done
    z -q -d -r "$d/tree"
    expect_rc 0 "-r -d on the formats' names"
    local got
    got=$(find "$d/tree" -type f -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
    want=$(printf '%s\n' $want | LC_ALL=C sort -u | tr '\n' ' ')
    if [ "$got" = "$want" ]; then pass; else fail "-r -d left '$got', expected '$want'"; fi
    if [ ${#FORMATS[@]} -gt 0 ]; then
        s=$(suffix_of "${FORMATS[0]}")
        d=$(fresh_dir)
        cp "$C/small" "$d/a.$s"
        z -q --exclude-compressed "$d/a.$s"
        expect_rc 0 "--exclude-compressed on a .$s name"
        expect_missing "$d/a.$s.zst" "--exclude-compressed skips .$s"
    fi
    # Options of the formats' tools that zstd's writer never uses.
    d=$(fresh_dir)
    if [[ " ${FORMATS[*]} " == *" xz "* ]]; then
        for opt in --check=none --check=crc32 --check=sha256 -e "--lzma2=preset=1,lc=0,lp=2,pb=0" "--x86 --lzma2"; do
            # shellcheck disable=SC2086
            xz -c $opt <"$C/binary" >"$d/opt.xz"
            z -q -dc "$d/opt.xz" >"$d/opt.out"
            expect_rc 0 "xz $opt"
            expect_same "$d/opt.out" "$C/binary" "xz $opt"
        done
    fi
    if [[ " ${FORMATS[*]} " == *" lz4 "* ]]; then
        for opt in -B4 -B7 -BD --content-size --no-frame-crc -BX --favor-decSpeed; do
            lz4 -q -c "$opt" <"$C/binary" >"$d/opt.lz4"
            z -q -dc "$d/opt.lz4" >"$d/opt.out"
            expect_rc 0 "lz4 $opt"
            expect_same "$d/opt.out" "$C/binary" "lz4 $opt"
        done
    fi
    if [[ " ${FORMATS[*]} " == *" gzip "* ]]; then
        cp "$C/small" "$d/named"
        gzip -N -c "$d/named" >"$d/named.gz"   # a name and time in the header
        z -q -dc "$d/named.gz" >"$d/named.out"
        expect_same "$d/named.out" "$C/small" "gzip -N (a name in the header)"
    fi
}

# Concatenations: gzip members, xz and lzma streams, lz4 frames, and all of
# them mixed with zstd frames, as zstd reads them.
group_multi() {
    local f s d
    d=$(fresh_dir)
    cat "$C/small" >"$d/expected"
    cp "$C/small.zst" "$d/mixed"
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        cat "$(tool_file text "$f")" "$(tool_file small "$f")" "$(tool_file empty "$f")" "$(tool_file binary "$f")" >"$d/multi.$s"
        cat "$C/text" "$C/small" "$C/binary" >"$d/multi.plain"
        z -q -f -d "$d/multi.$s" -o "$d/multi.out"
        expect_rc 0 "concatenated $f"
        expect_same "$d/multi.out" "$d/multi.plain" "concatenated $f (members, streams or frames)"
        z -q -t "$d/multi.$s"
        expect_rc 0 "-t on concatenated $f"
        # .lzma has no concatenation of its own (xz stops after the first
        # stream); zest reads on, as zstd does.
        if [ "$f" != lzma ]; then
            tool_decode "$f" <"$d/multi.$s" >"$d/tool.out" 2>/dev/null
            expect_same "$d/tool.out" "$d/multi.plain" "the $f tool agrees on concatenated $f"
        fi
        if zstd_supports "$f"; then
            "$ZSTD" -q -dc "$d/multi.$s" >"$d/zstd.out" 2>/dev/null
            expect_same "$d/zstd.out" "$d/multi.plain" "zstd agrees on concatenated $f"
        fi
        cat "$(tool_file text "$f")" "$C/small.zst" >>"$d/mixed"
        cat "$C/text" "$C/small" >>"$d/expected"
    done
    printf '\x50\x2a\x4d\x18\x02\x00\x00\x00ok' >>"$d/mixed"   # a skippable frame
    z -q -dc "$d/mixed" >"$d/mixed.out"
    expect_rc 0 "formats mixed with zstd frames"
    expect_same "$d/mixed.out" "$d/expected" "formats mixed with zstd frames"
    if "$ZSTD" -vV 2>/dev/null | grep -q 'supports:.*gzip.*lz4.*lzma.*xz'; then
        "$ZSTD" -q -dc "$d/mixed" >"$d/zstd.out" 2>/dev/null
        expect_same "$d/mixed.out" "$d/zstd.out" "formats mixed with zstd frames, as zstd decodes them"
    fi
}

# A zstd frame whose content ends where the tool's output buffer fills
# (k x 128 KiB), or a byte either side, or is empty, then another format's
# data, or plain data passed through with -dcf: all of it decoded, from a
# file and from a pipe, and -t agrees. (A frame ending on a full buffer
# once made the decoder read the next format's magic as a zstd frame.)
group_boundaries() {
    local d n f s what
    d=$(fresh_dir)
    printf 'plain, not compressed\n' >"$d/plain"
    for n in 0 1 131071 131072 131073 262143 262144 262145; do
        head -c "$n" "$C/text" >"$d/content"
        z -q -c "$d/content" >"$d/frame.zst"
        for f in "${FORMATS[@]}" plain; do
            what="a frame of $n bytes then $f"
            if [ "$f" = plain ]; then
                cat "$d/frame.zst" "$d/plain" >"$d/input"
                cat "$d/content" "$d/plain" >"$d/expected"
                z -q -dcf "$d/input" >"$d/out"
                expect_rc 0 "-dcf: $what"
                expect_same "$d/out" "$d/expected" "-dcf: $what"
                z -q -dcf <"$d/input" >"$d/out"
                expect_rc 0 "-dcf from a pipe: $what"
                expect_same "$d/out" "$d/expected" "-dcf from a pipe: $what"
                continue
            fi
            s=$(suffix_of "$f")
            cat "$d/frame.zst" "$(tool_file small "$f")" >"$d/input"
            cat "$d/content" "$C/small" >"$d/expected"
            z -q -dc "$d/input" >"$d/out"
            expect_rc 0 "-dc: $what"
            expect_same "$d/out" "$d/expected" "-dc: $what"
            z -q -dc <"$d/input" >"$d/out"
            expect_rc 0 "-dc from a pipe: $what"
            expect_same "$d/out" "$d/expected" "-dc from a pipe: $what"
            z -q -t "$d/input"
            expect_rc 0 "-t: $what"
            z -q -t <"$d/input"
            expect_rc 0 "-t from a pipe: $what"
            if zstd_supports "$f"; then
                "$ZSTD" -q -dc "$d/input" >"$d/zstd.out" 2>/dev/null
                expect_same "$d/out" "$d/zstd.out" "$what, as zstd decodes it"
            fi
        done
    done
}

# Damaged data: "zest: FILE: reason", status 1, no output left, the input
# kept (with --rm too).
group_errors() {
    local f s d kind reason
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        cp "$(tool_file text "$f")" "$d/corrupt.$s"
        flip_byte "$d/corrupt.$s" $(($(size_of "$d/corrupt.$s") / 2))
        head -c $(($(size_of "$(tool_file text "$f")") / 2)) "$(tool_file text "$f")" >"$d/truncated.$s"
        head -c 10 "$(tool_file text "$f")" >"$d/header.$s"
        cp "$(tool_file text "$f")" "$d/checksum.$s"
        case $f in
            gzip) flip_byte "$d/checksum.$s" $(($(size_of "$d/checksum.$s") - 6)) ;;  # CRC-32 in the trailer
            lz4) flip_byte "$d/checksum.$s" $(($(size_of "$d/checksum.$s") - 2)) ;;   # content checksum
            *) flip_byte "$d/checksum.$s" $(($(size_of "$d/checksum.$s") - 30)) ;;    # index or check
        esac
        { cat "$(tool_file small "$f")"; printf 'trailing garbage'; } >"$d/garbage.$s"
        : >"$d/emptyfile.$s"
        for kind in corrupt truncated header checksum garbage emptyfile; do
            cp "$d/$kind.$s" "$d/keep"
            z -d "$d/$kind.$s"
            expect_rc 1 "-d on a $kind $f file"
            expect_error_line "$d/$kind.$s" "-d on a $kind $f file"
            expect_missing "$d/$kind" "-d on a $kind $f file leaves no output"
            expect_no_temp "$d" "-d on a $kind $f file"
            z -d --rm "$d/$kind.$s"
            expect_rc 1 "-d --rm on a $kind $f file"
            expect_same "$d/$kind.$s" "$d/keep" "-d --rm on a $kind $f file keeps the input"
            z -t "$d/$kind.$s"
            expect_rc 1 "-t on a $kind $f file"
            expect_error_line "$d/$kind.$s" "-t on a $kind $f file"
        done
        # The reason names the format where the damage is inside its data.
        for kind in corrupt truncated; do
            z -d -c "$d/$kind.$s" >/dev/null
            reason=$(sed -n "s|^zest: $d/$kind.$s: ||p" "$ERR")
            case $reason in
                *"$f"*) pass ;;
                *) fail "-d on a $kind $f file: the reason '$reason' does not say $f" ;;
            esac
        done
    done
}

# -t: decodes and verifies, writes nothing.
group_test() {
    local f s d n
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        for n in "${CORPUS[@]}" empty; do
            cp "$(tool_file "$n" "$f")" "$d/$n.$s"
            z -q -t "$d/$n.$s"
            expect_rc 0 "-t on $n.$s"
        done
        if [ "$(ls "$d" | wc -l)" -eq 5 ]; then pass; else fail "-t on $f files wrote: $(ls "$d" | tr '\n' ' ')"; fi
        z -t "$d/text.$s" -v
        expect_stderr_has "text.$s" "-t -v names the file"
        expect_stderr_has ": 1288895 bytes" "-t -v gives the decoded size"
    done
}

# Pipes: standard input to standard output both ways; memory stays bounded
# (streaming); decoded output is written while the input still arrives.
group_pipes() {
    local f s d limit="ulimit -v 200000" n
    # A sanitizer build reserves terabytes of address space: then no limit.
    if ! bash -c "$limit; \"\$1\" -V; exit \$?" probe "$ZEST" >/dev/null 2>&1; then limit=true; fi
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        "$ZEST" -q --format="$f" <"$C/text" >"$d/p.$s" 2>"$ERR"
        tool_decode "$f" <"$d/p.$s" >"$d/p.back" 2>/dev/null
        expect_same "$d/p.back" "$C/text" "--format=$f stdin to stdout, decoded by the $f tool"
        "$ZEST" -q -d <"$(tool_file text "$f")" >"$d/d.out" 2>"$ERR"
        expect_same "$d/d.out" "$C/text" "-d stdin to stdout on the $f tool's data"
        cat "$C/binary" | "$ZEST" -q --format="$f" - | "$ZEST" -q -d - >"$d/rt.out" 2>"$ERR"
        expect_same "$d/rt.out" "$C/binary" "--format=$f | -d through pipes"
        # 200 MiB of zeros (64 MiB for the slower lzma coders) under a memory limit.
        n=200
        case $f in xz | lzma) n=64 ;; esac
        (eval "$limit"; head -c ${n}M /dev/zero | "$ZEST" -q --format="$f" -c >"$d/big.$s") 2>"$ERR"
        (eval "$limit"; "$ZEST" -q -dc "$d/big.$s" | wc -c >"$d/n") 2>"$ERR"
        if [ "$(cat "$d/n")" = $((n * 1048576)) ]; then pass; else
            fail "$n MiB through $f under a memory limit: $(cat "$d/n") bytes back"
        fi
        tool_decode "$f" <"$d/big.$s" 2>/dev/null | cmp -s - <(head -c ${n}M /dev/zero) && pass ||
            fail "$n MiB through $f: the $f tool disagrees"
    done
    # A stalled writer: what was sent so far comes out.
    for f in gzip lz4; do
        [[ " ${FORMATS[*]} " == *" $f "* ]] || continue
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        mkfifo "$d/fifo"
        "$ZEST" -dq -c <"$d/fifo" >"$d/partial" 2>"$ERR" &
        local pid=$! got=0
        exec 3>"$d/fifo"
        # Everything but the member's or frame's last bytes.
        head -c $(($(size_of "$(tool_file zeros "$f")") - 8)) "$(tool_file zeros "$f")" >&3
        for _ in $(seq 1 50); do
            got=$(size_of "$d/partial")
            [ "$got" -ge 2900000 ] && break
            sleep 0.1
        done
        if [ "$got" -ge 2900000 ]; then pass; else fail "$f, stalled input: only $got bytes decoded"; fi
        tail -c 8 "$(tool_file zeros "$f")" >&3
        exec 3>&-
        wait "$pid"
        expect_same "$d/partial" "$C/zeros" "$f, stalled input, then completed"
    done
}

# Empty inputs: a valid empty member, stream or frame, both ways.
group_empty() {
    local f s d
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        cp "$C/empty" "$d/e"
        z -q --format="$f" "$d/e"
        expect_rc 0 "--format=$f on an empty file"
        tool_decode "$f" <"$d/e.$s" >"$d/e.back" 2>"$ERR"
        expect_same "$d/e.back" "$C/empty" "the $f tool decodes zest's empty $f"
        z -q --format="$f" <"$C/empty" >"$d/pipe.$s"
        tool_decode "$f" <"$d/pipe.$s" >"$d/pipe.back" 2>"$ERR"
        expect_same "$d/pipe.back" "$C/empty" "the $f tool decodes zest's empty $f from a pipe"
        if zstd_supports "$f"; then
            "$ZSTD" -q --format="$f" -c "$C/empty" >"$d/ref" 2>/dev/null
            expect_same "$d/e.$s" "$d/ref" "--format=$f on an empty file: zstd's bytes"
        fi
        cp "$(tool_file empty "$f")" "$d/tool.$s"
        z -q -d "$d/tool.$s"
        expect_rc 0 "-d on the $f tool's empty file"
        expect_same "$d/tool" "$C/empty" "-d on the $f tool's empty file"
    done
}

# Program names: a link called gzip, gunzip, ... behaves as zstd does under
# that name (level, suffix, inputs removed or kept, stdout).
group_names() {
    local d name args t
    local cases=(
        "gzip|text"  "gzip|-k text"  "gzip|-c text"  "gzip|--best -c text"  "gzip|-d small.gz"
        "gunzip|small.gz"  "gunzip|-k small.gz"  "gunzip|-c small.gz"
        "gzcat|small.gz"  "zcat|small.gz"  "zcat|plain"  "gzcat|small.zst"
        "xz|text"  "unxz|small.xz"  "lzma|text"  "unlzma|small.lzma"
        "lz4|text"  "unlz4|small.lz4"  "lz4|-d small.lz4"  "xz|-d -k small.xz"
    )
    for t in "${cases[@]}"; do
        name=${t%%|*}
        args=${t#*|}
        local f
        case $name in
            *gz* | zcat) f=gzip ;;
            *xz) f=xz ;;
            *lzma) f=lzma ;;
            *lz4) f=lz4 ;;
        esac
        [[ " ${FORMATS[*]} " == *" $f "* ]] || continue
        if ! zstd_supports "$f"; then
            skip "the system zstd has no $f: '$name $args' is not compared"
            continue
        fi
        d=$(fresh_dir)
        local tool
        for tool in zest zstd; do
            mkdir -p "$d/bin-$tool" "$d/$tool"
            if [ $tool = zest ]; then ln -s "$ZEST" "$d/bin-$tool/$name"; else ln -s "$(command -v "$ZSTD")" "$d/bin-$tool/$name"; fi
            cp "$C/text" "$C/small.zst" "$d/$tool/"
            cp "$C/small" "$d/$tool/plain"
            local g
            for g in "${FORMATS[@]}"; do cp "$(tool_file small "$g")" "$d/$tool/"; done
            # shellcheck disable=SC2086
            (cd "$d/$tool" && "$d/bin-$tool/$name" -q $args >"$d/$tool.stdout" 2>"$d/$tool.stderr"; echo $? >"$d/$tool.rc")
        done
        if [ "$(cat "$d/zest.rc")" = "$(cat "$d/zstd.rc")" ]; then pass; else
            fail "'$name $args': exit status $(cat "$d/zest.rc"), zstd's $(cat "$d/zstd.rc")"
        fi
        if [ "$(cd "$d/zest" && ls)" = "$(cd "$d/zstd" && ls)" ]; then pass; else
            fail "'$name $args': zest left $(cd "$d/zest" && ls | tr '\n' ' '), zstd $(cd "$d/zstd" && ls | tr '\n' ' ')"
        fi
        local file ok=1
        for file in $(cd "$d/zest" && ls); do
            cmp -s "$d/zest/$file" "$d/zstd/$file" || { ok=0; fail "'$name $args': $file differs from zstd's"; }
        done
        [ $ok = 1 ] && pass
        expect_same "$d/zest.stdout" "$d/zstd.stdout" "'$name $args': stdout as zstd's"
    done
    # --best and --no-name belong to gzip's name only.
    z --best -c "$C/small" >/dev/null
    expect_rc 1 "--best without gzip's name"
}

# -l lists zstd frames only; other formats get zstd's "not compressed by zstd" row (status 1).
group_list() {
    local f s
    for f in "${FORMATS[@]}"; do
        s=$(suffix_of "$f")
        z -l "$(tool_file text "$f")" >"$WORK/list.out"
        expect_rc 1 "-l on a $f file"
        grep -qxF "File \"$(tool_file text "$f")\" not compressed by zstd " "$WORK/list.out" && pass ||
            fail "-l on a $f file: stdout $(cat "$WORK/list.out")"
    done
}

# A format left out of the build: said per file, nothing written, input kept.
group_missing() {
    local f s d bin label
    for f in gzip xz lzma lz4; do
        s=$(suffix_of "$f")
        for bin in "$ZEST_NONE" "$ZEST"; do
            [ "$bin" = "$ZEST" ] && built_in "$f" && continue
            label="$(basename "$bin"), $f"
            d=$(fresh_dir)
            cp "$C/small" "$d/in"
            RC=0
            "$bin" --format="$f" "$d/in" 2>"$ERR" || RC=$?
            expect_rc 1 "$label: --format=$f"
            expect_stderr_has "zest: $d/in: $f support was not built in" "$label: --format=$f"
            expect_missing "$d/in.$s" "$label: --format=$f writes nothing"
            expect_same "$d/in" "$C/small" "$label: --format=$f keeps the input"
            expect_no_temp "$d" "$label: --format=$f"
            # Data in the format (any writer; the tool's where there is none).
            if have_tool "$f"; then tool_encode "$f" 6 <"$C/small" >"$d/data.$s"; else
                case $f in
                    gzip) printf '\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00' ;;
                    xz) printf '\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4F' ;;
                    lzma) printf '\x5d\x00\x00\x80\x00\xff\xff\xff\xff\xff\xff\xff\xff\x00' ;;
                    lz4) printf '\x04\x22\x4d\x18\x64\x40\xa7\x00\x00\x00\x00' ;;
                esac >"$d/data.$s"
            fi
            cp "$d/data.$s" "$d/keep"
            RC=0
            "$bin" -d --rm "$d/data.$s" 2>"$ERR" || RC=$?
            expect_rc 1 "$label: -d"
            expect_stderr_has "zest: $d/data.$s: $f support was not built in" "$label: -d"
            expect_missing "$d/data" "$label: -d writes nothing"
            expect_same "$d/data.$s" "$d/keep" "$label: -d --rm keeps the input"
            RC=0
            "$bin" -t "$d/data.$s" 2>"$ERR" || RC=$?
            expect_rc 1 "$label: -t"
            expect_stderr_has "$f support was not built in" "$label: -t"
        done
    done
}

# xz and lzma dictionaries are held to the window limit, as zstd windows are.
group_memory() {
    local d f s opt
    for f in xz lzma; do
        [[ " ${FORMATS[*]} " == *" $f "* ]] || continue
        s=$(suffix_of "$f")
        d=$(fresh_dir)
        opt=--lzma2
        [ "$f" = lzma ] && opt=--lzma1
        xz --format="$f" -c "$opt=preset=0,dict=256MiB" <"$C/small" >"$d/big.$s"
        z -d "$d/big.$s" -o "$d/out"
        expect_rc 1 "$f with a 256 MiB dictionary, default limit"
        expect_stderr_has "zest: $d/big.$s: $f data needs 257 MiB of memory" "$f with a 256 MiB dictionary"
        expect_missing "$d/out" "$f with a 256 MiB dictionary leaves no output"
        for opt in --memory=256MB --long=28 -M300M; do
            z -q -d "$opt" "$d/big.$s" -o "$d/out$opt"
            expect_rc 0 "$f with a 256 MiB dictionary, $opt"
            expect_same "$d/out$opt" "$C/small" "$f with a 256 MiB dictionary, $opt"
        done
        # xz -9 (64 MiB) passes the default limit.
        xz --format="$f" -9 -c <"$C/small" >"$d/nine.$s"
        z -q -dc "$d/nine.$s" >"$d/nine"
        expect_same "$d/nine" "$C/small" "$f -9 under the default limit"
    done
}

for group in "${GROUPS_TO_RUN[@]}"; do
    if ! declare -F "group_$group" >/dev/null; then
        echo "FAIL: unknown group '$group'"
        failures=$((failures + 1))
        continue
    fi
    "group_$group"
done
group=summary
echo "$checks checks passed, $failures failed, $skipped skipped (groups: ${GROUPS_TO_RUN[*]})"
[ "$failures" -eq 0 ]
