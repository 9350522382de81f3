#!/bin/sh
# Errors are one line and a non-zero exit: bad matrix file (FILE:LINE), unknown
# command, bad option, not root, a second concurrent run.
set -eu
. "$(dirname "$0")/lib.sh"

printf 'global=0 local=-\nglobal=2 local=br-lan\n' > "$TMPD/bad.matrix"
set +e
"$BRNF" run --matrix "$TMPD/bad.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/res" > "$TMPD/out" 2> "$TMPD/err"
rc=$?
set -e
check "bad matrix file: exit status != 0" test "$rc" -ne 0
check "bad matrix file: error names FILE:LINE" grep -q "bad.matrix:2:" "$TMPD/err"
check "bad matrix file: one line" test "$(wc -l < "$TMPD/err")" -eq 1
check "bad matrix file: nothing created" sh -c "! ls -d '$TMPD'/res* 2>/dev/null"
check "bad matrix file: no namespaces" no_brnf_netns

set +e
"$BRNF" frobnicate 2> "$TMPD/err"; rc=$?
set -e
check "unknown command: exit 2" test "$rc" -eq 2
check "unknown command: says so" grep -q 'Object "frobnicate" is unknown, try "brnf help"' "$TMPD/err"

set +e
"$BRNF" run --flows zero 2> "$TMPD/err"; rc=$?
set -e
check "bad option value: exit 2" test "$rc" -eq 2

if command -v setpriv >/dev/null; then
	set +e
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BRNF" run 2> "$TMPD/err"; rc=$?
	set -e
	check "not root: exit 1 with a message" sh -c "[ $rc -eq 1 ] && grep -q 'needs root' '$TMPD/err'"
fi

printf 'ruleset=openwrt-flowtable\n' > "$TMPD/ft.matrix"
if [ -e /proc/config.gz ] && zcat /proc/config.gz | grep -q '^CONFIG_NF_FLOW_TABLE=[ym]'; then
	ok "flowtable supported here; missing-feature error not testable # SKIP"
else
	set +e
	"$BRNF" run --matrix "$TMPD/ft.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
		--out "$TMPD/ft" 2> "$TMPD/err"; rc=$?
	set -e
	check "ruleset the kernel cannot load: exit 1" test "$rc" -eq 1
	check "ruleset the kernel cannot load: error names it" \
		grep -q 'ruleset openwrt-flowtable .* does not load' "$TMPD/err"
	check "ruleset the kernel cannot load: cleaned up" no_brnf_netns
fi
