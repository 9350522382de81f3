# lib.sh: helpers for the storm's tests (POSIX sh, root). Each check prints
# "ok - what" or "not ok - what"; run.sh counts them.
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=${BUILD:-$TOP/build}
STORM=${STORM:-$BUILD/bin/brnf-storm}
# ok, not_ok, check, wait_for: the controller's tests' own
. "$TOP/rig/tests/checklib.sh"
BRNF=${BRNF:-$BUILD/bin/brnf}
# no /tmp/brnfstorm<n>.* directory (traffic.c's)
no_storm_tmp() {
	for _d in /tmp/brnfstorm[0-9]*.*; do
		[ -e "$_d" ] && return 1
	done
	return 0
}
# no brnfstorm namespace in /run/netns
no_storm_netns() {
	for _n in /run/netns/brnfstorm*; do
		[ -e "$_n" ] && return 1
	done
	return 0
}
# no claim or journal of a storm in /run/brnf (rig/src/lock.h, journal.h)
no_storm_claim() {
	for _c in /run/brnf/brnfstorm*; do
		[ -e "$_c" ] && return 1
	done
	return 0
}
# the root namespace's links, bridge sysctls and rules, which a storm must not touch
root_state() {
	ip -o link | sed 's/ qlen [0-9]*//' | grep -v -E ': (veth|vnet|tap)[^:]*:'
	sysctl -a 2>/dev/null | grep -E '^net\.bridge\.' || true
	nft list ruleset 2>/dev/null | grep -v -E 'packets [0-9]+ bytes' || true
}
TMPD=$(mktemp -d /tmp/brnf-storm-t.XXXXXX)
trap 'rm -rf "$TMPD"' EXIT
# the newest built 6.12 kernel of the given variants, for the QEMU tests
kernel_of() {
	for _v in "$@"; do
		_k=$BUILD/kernel/6.12/$_v/arch/x86/boot/bzImage
		[ -f "$_k" ] && { echo "$_k"; return 0; }
	done
	return 1
}
# bg NAME CMD...: CMD in the background (the environment given before bg goes with it),
# its output in TMPD/NAME.out, its exit status and seconds in TMPD/NAME.rc and .secs;
# `wait` for it
bg() {
	_n=$1
	shift
	{
		_s0=$(date +%s)
		_rc=0
		"$@" >"$TMPD/$_n.out" 2>&1 || _rc=$?
		echo "$_rc" >"$TMPD/$_n.rc"
		echo "$(( $(date +%s) - _s0 ))" >"$TMPD/$_n.secs"
	} &
}
