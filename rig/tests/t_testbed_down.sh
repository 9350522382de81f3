#!/bin/sh
# `brnf testbed down [NAME]` (rig/src/cmd_testbed.c) removes one test bed that
# `brnf testbed up` kept: the one NAME is (its prefix, or one of its namespaces as up
# printed them), else the newest, as show and flags pick theirs; other kept test beds
# (another user's, another test's on this machine) stay. It holds the run lock, as up
# and a run do: while someone else holds it, down refuses and removes nothing. It used
# to take no lock and remove every kept test bed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool ip flock

# up FILE: a kept test bed, its "role namespace" lines in FILE; its prefix on stdout
up() {
	"$BRNF" testbed up > "$1"
	awk '$1 == "ap" { sub(/-ap$/, "", $2); print $2 }' "$1"
}
holder=
P1= P2= P3=
cleanup() {
	[ -z "$holder" ] || kill "$holder" 2> /dev/null || true
	for p in $P1 $P2 $P3; do
		"$BRNF" testbed down "$p" > /dev/null 2>&1 || true
	done
	cleanup_tmp
}
trap cleanup EXIT
# bed_up PREFIX: its three namespaces are there; bed_gone PREFIX: none is
bed_up() { for r in ap sta pc; do [ -e "/run/netns/$1-$r" ] || return 1; done; }
bed_gone() { for r in ap sta pc; do [ ! -e "/run/netns/$1-$r" ] || return 1; done; }

P1=$(up "$TMPD/tb1")
P2=$(up "$TMPD/tb2")
check "two kept test beds up ($P1, $P2)" sh -c "[ -n '$P1' ] && [ -n '$P2' ] &&
	[ '$P1' != '$P2' ]"

# the run lock held by someone else (as a run holds it): refused, nothing removed
(exec 9<> /run/brnf/lock && flock 9 && exec sleep 600) > /dev/null 2>&1 &
holder=$!
wait_for 10 sh -c '! flock -n /run/brnf/lock true' || true
run_rc "$BRNF" testbed down "$P1-ap" > "$TMPD/out" 2> "$TMPD/err"
check "down while the lock is held: exit 1" test "$rc" -eq 1
one_line "down while the lock is held: one line saying who holds it" "$TMPD/err" \
	'^brnf: another brnf run (pid .*) holds /run/brnf/lock'
check "down while the lock is held: both test beds intact" sh -c \
	"for r in ap sta pc; do [ -e /run/netns/$P1-\$r ] && [ -e /run/netns/$P2-\$r ] || exit 1; done"
kill "$holder"
wait "$holder" 2> /dev/null || true
holder=

# down NAME: that one alone, named by a namespace of it
run_rc "$BRNF" testbed down "$P1-ap" > "$TMPD/out" 2> "$TMPD/err"
check "down $P1-ap: exit 0, says what it removed" \
	sh -c "[ $rc -eq 0 ] && grep -qx 'removed $P1' '$TMPD/out'"
check "down $P1-ap: its namespaces are gone" bed_gone "$P1"
check "down $P1-ap: the other kept test bed ($P2) is intact" bed_up "$P2"
check "down $P1-ap: the other one still answers (ip link in its ap)" \
	sh -c "ip netns exec '$P2-ap' ip link show br-lan > /dev/null"
run_rc "$BRNF" testbed down "$P1" > /dev/null 2> "$TMPD/err"
check "down of a test bed that is gone: exit 1" test "$rc" -eq 1
one_line "down of a test bed that is gone: one line naming it" "$TMPD/err" \
	"^brnf: testbed down: $P1 is no test bed that brnf testbed up keeps\$"
P1=
for bad in ../etc brnf brnf1-lab 'brnf1 brnf2' brnf1/../x; do
	run_rc "$BRNF" testbed down "$bad" > /dev/null 2> "$TMPD/err"
	check "down '$bad': exit 2, one line" sh -c "[ $rc -eq 2 ] &&
		[ \$(wc -l < '$TMPD/err') -eq 1 ] && grep -q 'is no test bed name' '$TMPD/err'"
done
check "the bad names removed nothing ($P2 intact)" bed_up "$P2"

# down without a name: the newest (a kept test bed's age is its .keep file's mtime,
# in seconds: the third is made a second later)
sleep 1.1
P3=$(up "$TMPD/tb3")
run_rc "$BRNF" testbed down > "$TMPD/out" 2> "$TMPD/err"
check "down: exit 0, removed the newest ($P3)" \
	sh -c "[ $rc -eq 0 ] && grep -qx 'removed $P3' '$TMPD/out'"
check "down: the newest's namespaces are gone" bed_gone "$P3"
check "down: the older one ($P2) is intact" bed_up "$P2"
P3=
run_rc "$BRNF" testbed down "$P2" > /dev/null
check "down $P2: exit 0" test "$rc" -eq 0
check "down $P2: its namespaces are gone" bed_gone "$P2"
P2=
check "the lock is free" lock_free
