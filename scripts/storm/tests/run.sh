#!/bin/sh
# run.sh: run the storm's tests (scripts/storm/tests/t_*.sh, root), count their
# "ok - ..." and "not ok - ..." lines, end with "storm-test: N passed, N failed".
# As rig/tests/run.sh: an "ok ... # SKIP" is no pass but one skipped, said on a line
# of its own; here a skipped check fails the suite (a storm check that did not run
# proves nothing), and so does a run without a single check.
# usage: scripts/storm/tests/run.sh [TEST...]
set -u
dir=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "storm-test: must run as root (namespaces, QEMU)" >&2; exit 1; }
tests=${*:-$(ls "$dir"/t_*.sh)}
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
