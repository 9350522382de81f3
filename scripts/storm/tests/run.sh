#!/bin/sh
# run.sh: run the storm's tests (scripts/storm/tests/t_*.sh, root), count their
# "ok - ..." and "not ok - ..." lines, end with "storm-test: N passed, N failed".
# As rig/tests/run.sh: an "ok ... # SKIP" is no pass but one skipped, said on a line
# of its own; here a skipped check fails the suite (a storm check that did not run
# proves nothing), and so does a run without a single check.
# --only host|qemu: the scripts that boot QEMU guests (a line "# needs: qemu" in their
# header, before "set -eu"), which touch nothing of the host's, or the others, which run the storm in
# namespaces on the running kernel (scripts/test-all runs the two in different lanes)
# usage: scripts/storm/tests/run.sh [--only host|qemu] [TEST...]
set -u
dir=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "storm-test: must run as root (namespaces, QEMU)" >&2; exit 1; }
only=
if [ "${1:-}" = --only ]; then
	case ${2:-} in
	host|qemu) only=$2 ;;
	*) echo "storm-test: --only host or qemu, not '${2:-}'" >&2; exit 2 ;;
	esac
	shift 2
fi
tests=${*:-$(ls "$dir"/t_*.sh)}
if [ -n "$only" ]; then
	sel=
	for t in $tests; do
		if sed -n '1,/^set -eu$/p' "$t" | grep -q '^# needs: qemu$'; then k=qemu; else k=host; fi
		[ "$k" != "$only" ] || sel="$sel $t"
	done
	tests=$sel
fi
log=$(mktemp /tmp/brnf-storm-test.XXXXXX)
trap 'rm -f "$log" "$log.rc"' EXIT
for t in $tests; do
	echo "# $(basename "$t")"
	t0=$(date +%s)
	# the script's own status, not tee's (rig/tests/t_runner.sh proves it)
	{ rc=0; sh "$t" 2>&1 || rc=$?; echo "$rc" > "$log.rc"; } | tee -a "$log"
	rc=$(cat "$log.rc")
	echo "# $(basename "$t") took $(($(date +%s) - t0)) s"
	[ "$rc" -eq 0 ] || echo "not ok - $(basename "$t") exited with status $rc" | tee -a "$log"
done
p=$(grep '^ok - ' "$log" | grep -cv '# SKIP')
s=$(grep '^ok - ' "$log" | grep -c '# SKIP')
f=$(grep -c '^not ok - ' "$log")
[ "$s" -eq 0 ] || echo "storm-test: $s skipped (a skipped check fails the suite)"
echo "storm-test: $p passed, $f failed"
[ "$f" -eq 0 ] && [ "$s" -eq 0 ] && [ "$p" -gt 0 ]
