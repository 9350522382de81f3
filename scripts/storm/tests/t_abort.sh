#!/bin/sh
# SIGINT, SIGTERM and SIGKILL at several points of a storm (building the bed, starting
# the traffic, in the middle of the toggling): after INT/TERM the storm exits non-zero
# within a bounded time and leaves no namespace, directory, claim or child; after KILL
# the next storm replays the killed one's journal (its namespaces and directory) and
# passes; a kill right after each kind of step leaves nothing brnf cleanup does not undo.
set -eu
. "$(dirname "$0")/lib.sh"

POINTS="0.05 0.4 1.5 4"
for sig in INT TERM KILL; do
	for t in $POINTS; do
		"$STORM" --ops 4000 --flow-time 2 >"$TMPD/o" 2>&1 &
		pid=$!
		sleep "$t"
		# its workers now: once it is killed they are init's, and pgrep -P finds none
		kids=$(pgrep -P "$pid" | tr '\n' ' ')
		kill -"$sig" "$pid" 2>/dev/null || true
		s0=$(date +%s)
		rc=0
		wait "$pid" || rc=$?
		secs=$(( $(date +%s) - s0 ))
		check "SIG$sig at ${t}s: exit status != 0 (got $rc)" test "$rc" -ne 0
		if [ "$sig" != KILL ]; then
			echo "# SIG$sig at ${t}s: ended after ${secs}s"
			check "SIG$sig at ${t}s: no brnfstorm namespace left" no_storm_netns
			check "SIG$sig at ${t}s: no /tmp/brnfstorm* directory left" no_storm_tmp
			check "SIG$sig at ${t}s: no claim or journal left" no_storm_claim
			check "SIG$sig at ${t}s: no process of the storm left" \
				wait_for 5 sh -c "! pgrep -P $pid >/dev/null"
		else
			# workers and iperf3 die with their parent (PR_SET_PDEATHSIG); on a busy
			# host a worker in a long netlink call takes a moment, and holds the
			# storm's claim until it has gone
			check "SIGKILL at ${t}s: no worker or iperf3 of the storm left" \
				wait_for 10 sh -c "! pgrep -P $pid >/dev/null &&
					for k in $kids; do ! kill -0 \$k 2>/dev/null || exit 1; done"
			left=$(ls /run/netns 2>/dev/null | grep -c "^brnfstorm[0-9]*-" || true)
			dirs=$(ls -d /tmp/brnfstorm* 2>/dev/null | wc -l)
			rc=0
			"$STORM" --ops 50 --flows 0 --no-ping >"$TMPD/next" 2>&1 || rc=$?
			check "SIGKILL at ${t}s: the next storm passes" test "$rc" -eq 0
			# both checks whatever the kill left (then "0 ..." holds at once), so
			# that the suite's count does not depend on where it fell
			check "SIGKILL at ${t}s: the next storm removed the $left namespace(s) left" \
				sh -c "[ $left -eq 0 ] ||
					grep -q 'removed network namespace brnfstorm[0-9]*-' '$TMPD/next'"
			check "SIGKILL at ${t}s: the next storm removed the $dirs directory left" \
				sh -c "[ $dirs -eq 0 ] || grep -q 'removed /tmp/brnfstorm[0-9]*\.' '$TMPD/next'"
			check "SIGKILL at ${t}s: no brnfstorm namespace left" no_storm_netns
			check "SIGKILL at ${t}s: no /tmp/brnfstorm* directory left" no_storm_tmp
			check "SIGKILL at ${t}s: no claim or journal left" no_storm_claim
		fi
	done
done

# SIGKILL right after each kind of step the journal records (BRNF_FAULT_KILL,
# rig/src/journal.h), then `brnf cleanup`: the root namespace, the namespaces, the
# claims and /tmp are as before, byte for byte
host_state() {
	root_state
	ip netns list
	ls /run/brnf 2>/dev/null || true
	ls -d /tmp/brnfstorm* 2>/dev/null || true
}
left() { ! "$@"; }	# left CHECK: what CHECK says is gone is there
for kind in claim ns traffic; do
	host_state > "$TMPD/before"
	rc=0
	BRNF_FAULT_KILL=$kind "$STORM" --ops 4000 --flow-time 2 >"$TMPD/o" 2>&1 || rc=$?
	check "killed after the step $kind (exit 137, got $rc)" \
		sh -c "test $rc -eq 137 && grep -q 'BRNF_FAULT_KILL=$kind: killed' '$TMPD/o'"
	host_state > "$TMPD/killed"
	check "killed after the step $kind: something is left to undo" \
		sh -c "! cmp -s '$TMPD/before' '$TMPD/killed'"
	case $kind in
	claim) check "killed after the step claim: its claim is left" left no_storm_claim ;;
	ns) check "killed after the step ns: its first namespace is left" left no_storm_netns ;;
	traffic) check "killed after the step traffic: its directory is left" left no_storm_tmp ;;
	esac
	rc=0
	"$BRNF" cleanup > /dev/null 2>"$TMPD/cleanup" || rc=$?
	check "killed after the step $kind: brnf cleanup exit 0" test "$rc" -eq 0
	host_state > "$TMPD/after"
	same_file "killed after the step $kind, brnf cleanup: byte-identical to before" \
		"$TMPD/before" "$TMPD/after"
done

# a directory named as a storm's that no journal names is never touched, whoever's
mine=/tmp/brnfstorm999.t$$ theirs=/tmp/brnfstorm998.t$$ link=/tmp/brnfstorm997.t$$
mkdir "$mine" "$theirs" && chown nobody "$theirs" && ln -s "$mine" "$link"
rc=0
"$STORM" --ops 50 --flows 0 --no-ping >"$TMPD/reap" 2>&1 || rc=$?
check "unjournaled: the next storm passes (got $rc)" test "$rc" -eq 0
check "unjournaled: a directory named as a storm's, another user's and a link all stay" \
	sh -c "test -d '$mine' && test -d '$theirs' && test -L '$link'"
rm -rf "$mine" "$theirs" "$link"
exit 0
