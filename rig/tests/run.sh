#!/bin/sh
# rig/tests/run.sh: run every rig/tests/t_*.sh (or the scripts given) as root on the
# running kernel, count their "ok"/"not ok" lines and end with "N passed, N failed"
# (and "N skipped": "ok ... # SKIP" lines are not passes). A script that exits
# non-zero is one more "not ok", whatever it printed before: one that dies before
# its checks must not pass (t_runner.sh proves it).
# usage: rig/tests/run.sh [TEST...]
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ]; then
	echo "$0: the integration tests need root" >&2
	exit 1
fi
tests=${*:-$(ls "$dir"/t_*.sh)}
out=$(mktemp /tmp/brnf-itest.XXXXXX)
rcf=$(mktemp /tmp/brnf-itest-rc.XXXXXX)
trap 'rm -f "$out" "$rcf"' EXIT
for t in $tests; do
	echo "# $(basename "$t")"
	t0=$(date +%s)
	# the script's own status, not tee's
	{ rc=0; sh "$t" 2>&1 || rc=$?; echo "$rc" > "$rcf"; } | tee -a "$out"
	rc=$(cat "$rcf")
	echo "# $(basename "$t") took $(($(date +%s) - t0)) s"
	if [ "$rc" != 0 ]; then
		echo "not ok - $(basename "$t") exited with status $rc" | tee -a "$out"
	fi
done
pass=$(grep '^ok' "$out" | grep -cv '# SKIP' || true)
skip=$(grep '^ok' "$out" | grep -c '# SKIP' || true)
fail=$(grep -c '^not ok' "$out" || true)
[ "$skip" -eq 0 ] || echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ] || exit 1
