#!/bin/sh
# rig/tests/run.sh: run every rig/tests/t_*.sh as root on the running kernel,
# count their "ok"/"not ok" lines and end with "N passed, N failed".
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ]; then
	echo "$0: the integration tests need root" >&2
	exit 1
fi
out=$(mktemp /tmp/brnf-itest.XXXXXX)
trap 'rm -f "$out"' EXIT
status=0
for t in "$dir"/t_*.sh; do
	echo "# $(basename "$t")"
	if ! sh "$t" 2>&1 | tee -a "$out"; then
		status=1
	fi
done
pass=$(grep -c '^ok' "$out" || true)
fail=$(grep -c '^not ok' "$out" || true)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ] || exit 1
