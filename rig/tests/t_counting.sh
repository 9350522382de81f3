#!/bin/sh
# Measured runs carry no instrumentation: while a run measures, the AP holds no counting
# rules (the row's ruleset alone, here none: an empty nft ruleset); they exist only during
# the row's verification pass, which comes after the measured runs.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq nft

printf 'global=1 local=-\n' > "$TMPD/one.matrix"
"$BRNF" run --matrix "$TMPD/one.matrix" --time 3 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/c" --no-render > /dev/null 2> "$TMPD/err" &
pid=$!
ap=brnf$pid-ap
# Sample the AP's ruleset, then the newest run directory: the verification pass makes its
# directory before it loads the rules, so rules seen with a measured run's directory
# newest were loaded while that run measured.
: > "$TMPD/samples"
while kill -0 "$pid" 2>/dev/null; do
	rules=$(ip netns exec "$ap" nft list ruleset 2>/dev/null | wc -l)
	counting=$(ip netns exec "$ap" nft list ruleset 2>/dev/null | grep -c brnf_count || true)
	run=$(ls "$TMPD"/c.tmp.*/raw/running/runs 2>/dev/null | tail -n 1)
	[ -z "$run" ] || echo "$run $rules $counting" >> "$TMPD/samples"
	sleep 0.05
done
set +e
wait "$pid"
rc=$?
set -e
check "the run exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -5
check "the AP was sampled while a measured run ran" \
	grep -q -- '-tcp-[a-z]* ' "$TMPD/samples"
check "no rule at all in the AP while a run measured (ruleset none)" \
	sh -c "! grep -v -- '-verify ' '$TMPD/samples' | grep -v ' 0 0\$'"
check "the verification pass counted with the rules (yes)" test "$(verdicts "$TMPD/c")" = yes
check "measured records say counting_rules false" \
	test "$(jq -r .counting_rules $(measured_runs "$TMPD/c" | sed 's,$,record.json,') | sort -u)" = false
