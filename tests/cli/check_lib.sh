# Checks shared by the CLI test scripts (cli_test.sh, formats_test.sh),
# sourced after they set ZEST, ERR, checks, failures and group. Each check
# counts a pass, or prints "FAIL [group]: ..." with the first lines of
# zest's stderr and counts a failure.
# shellcheck shell=bash

fail() {
    echo "FAIL [$group]: $*"
    if [ -s "$ERR" ]; then sed 's/^/    stderr: /' "$ERR" | head -5; fi
    failures=$((failures + 1))
}
pass() { checks=$((checks + 1)); }

# Runs zest; its exit status lands in RC and its stderr in $ERR.
z() {
    RC=0
    "$ZEST" "$@" 2>"$ERR" || RC=$?
}

expect_rc() {  # expected description
    if [ "$RC" -eq "$1" ]; then pass; else fail "$2: exit status $RC, expected $1"; fi
}
expect_same() {  # actual expected description
    if cmp -s -- "$1" "$2"; then pass; else fail "$3: $1 differs from $2"; fi
}
expect_missing() {  # path description
    if [ ! -e "$1" ] && [ ! -L "$1" ]; then pass; else fail "$2: $1 exists"; fi
}
expect_exists() {  # path description
    if [ -e "$1" ]; then pass; else fail "$2: $1 missing"; fi
}
expect_no_temp() {  # directory description
    local leftovers
    leftovers=$(find "$1" -maxdepth 1 -name '*zest-tmp*' | head -3)
    if [ -z "$leftovers" ]; then pass; else fail "$2: temporary files left: $leftovers"; fi
}
expect_error_line() {  # subject description: stderr has "zest: SUBJECT: reason"
    if grep -qF -- "zest: $1: " "$ERR" && grep -q '^zest: ' "$ERR" &&
       [ -n "$(grep -F -- "zest: $1: " "$ERR" | sed "s/^zest: .*: //")" ]; then
        pass
    else
        fail "$2: stderr lacks 'zest: $1: <reason>'"
    fi
}
expect_stderr_has() {  # text description
    if grep -qF -- "$1" "$ERR"; then pass; else fail "$2: stderr lacks '$1'"; fi
}
