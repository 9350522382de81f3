#!/bin/sh
# SIGINT, SIGTERM and SIGKILL at several points of a storm (building the bed, starting
# the traffic, in the middle of the toggling): after INT/TERM the storm exits non-zero
# within a bounded time and leaves no namespace, directory or child; after KILL the next
# storm removes the namespaces and the directory the killed one left and passes.
set -eu
. "$(dirname "$0")/lib.sh"

POINTS="0.05 0.4 1.5 4"
for sig in INT TERM KILL; do
	for t in $POINTS; do
		"$STORM" --ops 4000 --flow-time 2 >"$TMPD/o" 2>&1 &
		pid=$!
		sleep "$t"
		kill -"$sig" "$pid" 2>/dev/null || true
		s0=$(date +%s)
		rc=0
		wait "$pid" || rc=$?
		secs=$(( $(date +%s) - s0 ))
		check "SIG$sig at ${t}s: exit status != 0 (got $rc)" test "$rc" -ne 0
		if [ "$sig" != KILL ]; then
			echo "# SIG$sig at ${t}s: ended after ${secs}s"
			check "SIG$sig at ${t}s: no brnfstorm$pid namespace left" no_storm_netns "$pid"
			check "SIG$sig at ${t}s: no /tmp/brnfstorm$pid.* directory left" no_storm_tmp "$pid"
			check "SIG$sig at ${t}s: no process of the storm left" \
				wait_for 5 sh -c "! pgrep -P $pid >/dev/null"
		else
			# workers and iperf3 die with their parent (PR_SET_PDEATHSIG)
			check "SIGKILL at ${t}s: no worker or iperf3 of the storm left" \
				wait_for 5 sh -c "! pgrep -P $pid >/dev/null"
			left=$(ls /run/netns 2>/dev/null | grep -c "^brnfstorm$pid-" || true)
			dirs=$(ls -d /tmp/brnfstorm"$pid".* 2>/dev/null | wc -l)
			rc=0
			"$STORM" --ops 50 --flows 0 --no-ping >"$TMPD/next" 2>&1 || rc=$?
			check "SIGKILL at ${t}s: the next storm passes" test "$rc" -eq 0
			if [ "$left" -gt 0 ]; then
				check "SIGKILL at ${t}s: the next storm removed the $left namespace(s) left" \
					grep -q "removed network namespace brnfstorm$pid-" "$TMPD/next"
			fi
			if [ "$dirs" -gt 0 ]; then
				check "SIGKILL at ${t}s: the next storm removed the directory left" \
					grep -q "removed directory /tmp/brnfstorm$pid\." "$TMPD/next"
			fi
			check "SIGKILL at ${t}s: no brnfstorm$pid namespace left" no_storm_netns "$pid"
			check "SIGKILL at ${t}s: no /tmp/brnfstorm$pid.* directory left" no_storm_tmp "$pid"
		fi
	done
done

# what the next storm removes from /tmp: a directory of ours named like a gone storm's,
# never another user's or a symbolic link (pids above the kernel's pid_max)
mine=/tmp/brnfstorm4999998.t$$ theirs=/tmp/brnfstorm4999999.t$$ link=/tmp/brnfstorm4999997.t$$
mkdir "$mine" "$theirs" && chown nobody "$theirs" && ln -s "$mine" "$link"
rc=0
"$STORM" --ops 50 --flows 0 --no-ping >"$TMPD/reap" 2>&1 || rc=$?
check "reap: the next storm passes (got $rc)" test "$rc" -eq 0
check "reap: it removed the directory of ours and said so" \
	sh -c "test ! -e '$mine' && grep -q 'removed directory $mine ' '$TMPD/reap'"
check "reap: it left another user's directory and a symbolic link alone" \
	sh -c "test -d '$theirs' && test -L '$link'"
rm -rf "$mine" "$theirs" "$link"
exit 0
