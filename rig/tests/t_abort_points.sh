#!/bin/sh
# SIGINT, SIGTERM and SIGKILL at several points of a run (while the test bed is
# built, while rulesets are checked, during flows, near the end): afterwards no
# namespace, no lock holder and no complete-looking results directory is left
# (after a SIGKILL, once the next `brnf cleanup` ran).
set -eu
. "$(dirname "$0")/lib.sh"

printf 'global=0 local=-\nglobal=0 local=br-lan ruleset=openwrt\n' > "$TMPD/m"
# Delays in seconds after the start; the run itself takes about 4 s.
POINTS="0.02 0.1 0.3 0.8 1.5 2.5 3.5"

for sig in INT TERM KILL; do
	for t in $POINTS; do
		out="$TMPD/r-$sig-$t"
		"$BRNF" run --matrix "$TMPD/m" --time 1 --omit 0 --reps 1 --flows 2 \
			--no-render --out "$out" > /dev/null 2>&1 &
		pid=$!
		sleep "$t"
		kill -"$sig" "$pid" 2>/dev/null || true
		set +e
		wait "$pid"
		rc=$?
		set -e
		if [ "$sig" = KILL ]; then
			# a child killed brnf left mid-fork (making a namespace) still holds
			# the lock's descriptor; clean up once it is gone, as the next run would
			lock_free_within || true
			"$BRNF" cleanup > /dev/null 2>&1 || true
		fi
		if [ -e "$out" ]; then
			# Finished before the signal: then it must be complete.
			if [ "$rc" -eq 0 ] && [ -s "$out/raw/running/provenance.json" ]; then
				ok "SIG$sig at ${t}s: run had finished; result complete"
			else
				not_ok "SIG$sig at ${t}s: $out exists but the run did not finish (rc $rc)"
			fi
		else
			case $sig in INT) want=130 ;; TERM) want=143 ;; KILL) want=137 ;; esac
			check "SIG$sig at ${t}s: exit status $want (128 + the signal)" test "$rc" -eq "$want"
		fi
		check "SIG$sig at ${t}s: no namespaces left" no_brnf_netns
		check "SIG$sig at ${t}s: lock free (within 5 s)" lock_free_within
		check "SIG$sig at ${t}s: no iperf3 left (within 5 s)" wait_for 5 no_iperf3
		if [ "$sig" != KILL ]; then
			check "SIG$sig at ${t}s: no temporary results left" \
				sh -c "! ls -d '$out'.tmp.* 2>/dev/null"
		fi
		rm -rf "$out" "$out".tmp.*
	done
done
check "no claim or journal left in /run/brnf" \
	sh -c "! ls -d /run/brnf/*.claim /run/brnf/*.journal 2>/dev/null"

# SIGKILL right after each kind of step the journal records on the test bed
# (BRNF_FAULT_KILL, rig/src/journal.h), then `brnf cleanup`: the root namespace's
# sysctls, links and firewall, the namespaces, /run/brnf and the results' parent are
# byte for byte as before
host_state() {
	root_state
	ip netns list
	ls /run/brnf
	ls "$TMPD" | grep -v "^state\\."
}
for kind in claim ns results; do
	host_state > "$TMPD/state.before"
	run_rc env BRNF_FAULT_KILL=$kind "$BRNF" run --matrix "$TMPD/m" --time 1 --omit 0 \
		--reps 1 --flows 2 --no-render --out "$TMPD/kill" > /dev/null 2> "$TMPD/state.err"
	check "killed after the step $kind (exit 137)" sh -c "test $rc -eq 137 &&
		grep -q 'BRNF_FAULT_KILL=$kind: killed' '$TMPD/state.err'"
	host_state > "$TMPD/state.killed"
	check "killed after the step $kind: something is left to undo" \
		sh -c "! cmp -s '$TMPD/state.before' '$TMPD/state.killed'"
	case $kind in
	claim) check "killed after the step claim: its claim is left" \
		sh -c "ls /run/brnf/brnf[0-9]*.claim > /dev/null 2>&1" ;;
	ns) check "killed after the step ns: its first namespace is left" \
		sh -c "ip netns list | grep -q '^brnf[0-9]*-'" ;;
	results) check "killed after the step results: its temporary results are left" \
		sh -c "ls -d '$TMPD'/kill.tmp.* > /dev/null 2>&1" ;;
	esac
	run_rc "$BRNF" cleanup > /dev/null
	check "killed after the step $kind: brnf cleanup exit 0" test "$rc" -eq 0
	host_state > "$TMPD/state.after"
	same_file "killed after the step $kind, brnf cleanup: byte-identical to before" \
		"$TMPD/state.before" "$TMPD/state.after"
	rm -f "$TMPD"/state.*
done
