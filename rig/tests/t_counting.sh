#!/bin/sh
# Measured runs carry no instrumentation: while a run measures, the AP holds no counting
# rules (the row's ruleset alone, here none: an empty nft ruleset); they exist only during
# the row's verification pass, which comes after the measured runs. Nor does brnf wake up
# while it waits for a measured flow (it polled every 20 ms, which in a one-CPU guest is
# measured time): its voluntary context switches are sampled too. Loading the counting
# chain leaves the AP's own rules of the mangle table in place (iptables-restore
# --noflush; without it the whole table was replaced).
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq nft

printf 'global=1 local=-\n' > "$TMPD/one.matrix"
# run_sampled OUT [OPTIONS]: a run of one.matrix while the AP's ruleset is sampled between
# two looks at the newest run directory, kept when both looks agree: the verification pass
# makes its directory before it loads the rules and removes them before the next run makes
# its own, so rules seen with a measured run's directory newest on both sides were there
# while it measured.
run_sampled() {
	out=$1
	shift
	"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --time 3 --omit 0 --reps 1 \
		--flows 1 --out "$out" --no-render "$@" > /dev/null 2> "$TMPD/err" &
	pid=$!
	ap=$(prefix_of "$pid")-ap || true
	: > "$out.samples"
	: > "$out.ctxt"
	while kill -0 "$pid" 2>/dev/null; do
		before=$(ls "$out".tmp.*/raw/running/runs 2>/dev/null | tail -n 1)
		ruleset=$(ip netns exec "$ap" nft list ruleset 2>/dev/null || true)
		rules=$(printf '%s' "$ruleset" | grep -c . || true)
		counting=$(printf '%s' "$ruleset" | grep -c brnf_count || true)
		run=$(ls "$out".tmp.*/raw/running/runs 2>/dev/null | tail -n 1)
		[ -z "$run" ] || [ "$run" != "$before" ] ||
			echo "$run $rules $counting" >> "$out.samples"
		sw=$(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		[ -z "$run" ] || [ -z "$sw" ] || echo "$run $sw $(date +%s.%N)" >> "$out.ctxt"
		sleep 0.05
	done
	set +e
	wait "$pid"
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -5
	return 0
}

for when in after before; do
	c=$TMPD/c-$when
	run_sampled "$c" --verify $when
	check "--verify $when: the run exits 0" test "$rc" -eq 0
	check "--verify $when: the AP was sampled while a measured run ran" \
		grep -q -- '-tcp-[a-z]* ' "$c.samples"
	check "--verify $when: no rule at all in the AP while a run measured (ruleset none)" \
		sh -c "! grep -v -- '-verify ' '$c.samples' | grep -v ' 0 0\$'"
	check "--verify $when: the verification pass counted with the rules (yes)" \
		test "$(verdicts "$c")" = yes
	check "--verify $when: measured records say counting_rules false" \
		test "$(jq -r .counting_rules $(measured_runs "$c" | sed 's,$,record.json,') |
			sort -u)" = false
	check "--verify $when: provenance.json says so" \
		test "$(jq -r .params.verify "$c/raw/running/provenance.json")" = $when
	# brnf's wakeups per second over the samples of the first measured run (3 s of flow)
	rate=$(awk '$1 ~ /-tcp-/ { if (!r) r = $1; if ($1 == r) { if (!t0) { s0 = $2; t0 = $3 }
		s1 = $2; t1 = $3 } } END { if (t1 - t0 >= 1) printf "%.0f", (s1 - s0) / (t1 - t0);
		else print "none" }' "$c.ctxt")
	check "--verify $when: brnf sleeps while a flow is measured ($rate wakeups/s, < 10)" \
		sh -c "[ '$rate' != none ] && [ '$rate' -lt 10 ]"
done
first=$(ls "$TMPD/c-before/raw/running/runs" | head -n 1)
check "--verify before: the verification is the first run ($first)" \
	sh -c "echo '$first' | grep -q -- '-verify\$'"
last=$(ls "$TMPD/c-after/raw/running/runs" | tail -n 1)
check "--verify after: the verification is the last run ($last)" \
	sh -c "echo '$last' | grep -q -- '-verify\$'"
set +e
"$BRNF" run --matrix "$TMPD/one.matrix" --verify sometimes --out "$TMPD/bad" \
	> /dev/null 2> "$TMPD/bad.err"
rc=$?
set -e
check "--verify sometimes: exit status 2 (got $rc)" test "$rc" -eq 2
check "--verify sometimes: one line naming the option" \
	sh -c "test \$(wc -l < '$TMPD/bad.err') -eq 1 && grep -q -- --verify '$TMPD/bad.err'"
check "--verify sometimes: nothing written" test ! -e "$TMPD/bad"

# The AP's own rules in the mangle table stay while the counting chain is loaded: an
# iptables-restore on PATH that puts a rule of its own in the AP's mangle FORWARD
# first, then is the real one with brnf's arguments and rules, notes whether that rule
# is still there, and takes it out again (the AP's ruleset is empty while a run
# measures, checked above).
mkdir "$TMPD/bin"
cat > "$TMPD/bin/iptables-restore" <<EOS
#!/bin/sh
iptables -w -t mangle -A FORWARD -m comment --comment brnf_test_own
rc=0
$(command -v iptables-restore) "\$@" || rc=\$?
if iptables -w -t mangle -C FORWARD -m comment --comment brnf_test_own 2> /dev/null; then
	echo kept
else
	echo replaced
fi >> "$TMPD/own.log"
iptables -w -t mangle -D FORWARD -m comment --comment brnf_test_own 2> /dev/null || true
exit \$rc
EOS
chmod +x "$TMPD/bin/iptables-restore"
run_rc env PATH="$TMPD/bin:$PATH" "$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp \
	--time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/own" --no-render > /dev/null 2> "$TMPD/err"
check "the AP's own mangle rule: the run exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -5
check "the AP's own mangle rule: the counting chain loaded twice (preflight, verification)" \
	test "$(wc -l < "$TMPD/own.log")" -eq 2
check "the AP's own mangle rule: still there after each load (--noflush)" \
	test "$(sort -u "$TMPD/own.log")" = kept
check "the AP's own mangle rule: the verification counted with the rules (yes)" \
	test "$(verdicts "$TMPD/own")" = yes
