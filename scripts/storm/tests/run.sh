#!/bin/sh
# run.sh: run the storm's tests (scripts/storm/tests/t_*.sh, root), count their
# "ok - ..." and "not ok - ..." lines, end with "storm-test: N passed, N failed".
# usage: scripts/storm/tests/run.sh [TEST...]
set -u
dir=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "storm-test: must run as root (namespaces, QEMU)" >&2; exit 1; }
tests=${*:-$(ls "$dir"/t_*.sh)}
log=$(mktemp /tmp/brnf-storm-test.XXXXXX)
trap 'rm -f "$log" "$log.rc"' EXIT
for t in $tests; do
	echo "# $(basename "$t")"
	# the script's own status, not tee's (rig/tests/t_runner.sh proves it)
	{ rc=0; sh "$t" 2>&1 || rc=$?; echo "$rc" > "$log.rc"; } | tee -a "$log"
	rc=$(cat "$log.rc")
	[ "$rc" -eq 0 ] || echo "not ok - $(basename "$t") exited with status $rc" | tee -a "$log"
done
p=$(grep -c '^ok - ' "$log")
f=$(grep -c '^not ok - ' "$log")
echo "storm-test: $p passed, $f failed"
[ "$f" -eq 0 ]
