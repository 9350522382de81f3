#!/bin/sh
# Aborts and concurrency: SIGTERM mid-run cleans up everything and leaves no
# results directory; a second run refuses while one is active; a test bed left
# by a SIGKILLed run is removed by the next run.
set -eu
. "$(dirname "$0")/lib.sh"

printf 'global=0 local=-\nglobal=1 local=-\n' > "$TMPD/m"
started() { ls -d "$1".tmp.*/raw/running/runs/0000-* >/dev/null 2>&1; }

# --- SIGTERM mid-run
"$BRNF" run --matrix "$TMPD/m" --time 5 --omit 0 --reps 2 --flows 2 --out "$TMPD/t" \
	> /dev/null 2> "$TMPD/err.t" &
pid=$!
if wait_for 20 started "$TMPD/t"; then ok "run started (SIGTERM case)"; else not_ok "run started"; fi

# --- a second run while the first is active
set +e
"$BRNF" run --matrix "$TMPD/m" --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/second" \
	2> "$TMPD/err.2"
rc=$?
set -e
check "second concurrent run refuses (exit != 0)" test "$rc" -ne 0
check "second concurrent run says who holds the lock" grep -q "another brnf run (pid $pid)" "$TMPD/err.2"
check "second concurrent run created nothing" sh -c "! ls -d '$TMPD'/second* 2>/dev/null"

sleep 1
kill -TERM "$pid"
set +e
wait "$pid"
rc=$?
set -e
check "SIGTERM: exit 143 (128 + SIGTERM)" test "$rc" -eq 143
check "SIGTERM: says it was interrupted" grep -q interrupted "$TMPD/err.t"
check "SIGTERM: no namespaces left" no_brnf_netns
check "SIGTERM: lock released (within 5 s)" lock_free_within
check "SIGTERM: no results directory claims to be complete" test ! -e "$TMPD/t"
check "SIGTERM: temporary directory removed" sh -c "! ls -d '$TMPD'/t.tmp.* 2>/dev/null"
check "SIGTERM: no iperf3 left" no_iperf3

# --- SIGKILL mid-run, then the next run removes what it left
"$BRNF" run --matrix "$TMPD/m" --time 5 --omit 0 --reps 2 --flows 2 --out "$TMPD/k" \
	> /dev/null 2>&1 &
pid=$!
p=$(prefix_of "$pid") || true
if wait_for 20 started "$TMPD/k"; then ok "run started (SIGKILL case)"; else not_ok "run started"; fi
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
check "SIGKILL leaves its namespaces (the case to clean)" \
	sh -c "ls /run/netns | grep -q '^$p-'"
set +e
"$BRNF" run --matrix "$TMPD/m" --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/next" \
	--no-render > /dev/null 2> "$TMPD/err.n"
rc=$?
set -e
check "next run succeeds" test "$rc" -eq 0
check "next run reports removing the stale test bed" grep -q "$p-ap of a run that ended" "$TMPD/err.n"
check "stale namespaces gone" sh -c "! ls /run/netns 2>/dev/null | grep -q '^$p-'"
check "no namespaces left at all" no_brnf_netns
check "no iperf3 of the killed run left" no_iperf3
# The killed run's temporary results stay as .tmp (never renamed to complete).
check "killed run's results never look complete" test ! -e "$TMPD/k"
rm -rf "$TMPD"/k.tmp.*

# --- brnf cleanup removes a kept test bed
"$BRNF" testbed up > /dev/null
"$BRNF" cleanup > /dev/null
check "brnf cleanup removes a test bed of testbed up" no_brnf_netns
