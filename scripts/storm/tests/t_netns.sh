#!/bin/sh
# The storm on the running kernel, in namespaces: a short seeded run passes, prints its
# seed and counts, leaves no namespace and does not touch the root namespace; two
# storms at once do not meet (each has its own brnfstorm<n>-* bed); bad options
# exit 2 with one line.
set -eu
. "$(dirname "$0")/lib.sh"

root_state >"$TMPD/root.before"
rc=0
"$STORM" --ops 400 --flow-time 2 --seed 42 --out "$TMPD/s1" >"$TMPD/s1.out" 2>&1 || rc=$?
check "400 operations on $(uname -r): exit status 0 (got $rc)" test "$rc" -eq 0
check "the summary prints the seed and every operation" \
	grep -q '^summary: seed 42, operations 400/400, failed operations 0, flows failed 0' "$TMPD/s1.out"
check "the verdict is PASS" sh -c "tail -n 1 '$TMPD/s1.out' | grep -qx PASS"
check "bytes moved > 0" sh -c "grep '^bytes moved: ' '$TMPD/s1.out' | grep -qv 'moved: 0 '"
check "the per-worker operation logs add up to 400" \
	sh -c "test \$(cat '$TMPD'/s1/ops-*.log | wc -l) -eq 400"
check "summary.txt, kernel.log and hooks.txt are written" \
	test -s "$TMPD/s1/summary.txt" -a -f "$TMPD/s1/kernel.log" -a -s "$TMPD/s1/hooks.txt"
check "no brnfstorm namespace is left" no_storm_netns
root_state >"$TMPD/root.after"
check "the root namespace's links, bridge sysctls and rules are unchanged" \
	cmp -s "$TMPD/root.before" "$TMPD/root.after"

# same seed, same operation mix per worker (the order is the seed's; timing is not)
"$STORM" --ops 400 --flows 0 --no-ping --seed 42 --out "$TMPD/s2" >"$TMPD/s2.out" 2>&1 || true
check "the same seed gives the same operation counts" sh -c \
	"test \"\$(grep '^operations: sysctl' '$TMPD/s1.out')\" = \"\$(grep '^operations: sysctl' '$TMPD/s2.out')\""

# two at once
r1=0 r2=0
"$STORM" --ops 200 --flow-time 2 >"$TMPD/a.out" 2>&1 &
p1=$!
"$STORM" --ops 200 --flow-time 2 >"$TMPD/b.out" 2>&1 &
p2=$!
wait "$p1" || r1=$?
wait "$p2" || r2=$?
check "two storms at once both pass (exit $r1 and $r2)" test "$r1" -eq 0 -a "$r2" -eq 0
check "two storms at once: no namespace left" no_storm_netns

rc=0
"$STORM" --ops x >"$TMPD/u.out" 2>&1 || rc=$?
check "--ops x: exit status 2 and one line naming the option" \
	sh -c "test $rc -eq 2 && grep -q -- \"--ops 'x'\" '$TMPD/u.out'"
rc=0
"$STORM" --expect sometimes >"$TMPD/u.out" 2>&1 || rc=$?
check "--expect sometimes: exit status 2" test "$rc" -eq 2
exit 0
