#!/bin/sh
# Run the cmocka unit test binaries and add up their results.
# usage: run.sh PLAIN_BIN... -- SANITIZER_BIN...
# Each binary prints cmocka's own summary; a binary that dies without one (e.g. a
# sanitizer report) counts as one failed test. Ends with "N passed, N failed" and exits
# non-zero when anything failed.
set -eu

passed=0
failed=0
kind=plain
log=$(mktemp "${TMPDIR:-/tmp}/brnf-unit.XXXXXX")
trap 'rm -f "$log"' EXIT

for bin in "$@"; do
	if [ "$bin" = "--" ]; then
		kind="ASan+UBSan"
		continue
	fi
	echo "== $(basename "$bin") ($kind)"
	rc=0
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$bin" >"$log" 2>&1 || rc=$?
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$(basename "$bin") ($kind): exit status $rc without a cmocka failure: counted as 1 failed"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
