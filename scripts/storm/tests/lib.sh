# lib.sh: helpers for the storm's tests (POSIX sh, root). Each check prints
# "ok - what" or "not ok - what"; run.sh counts them.
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=${BUILD:-$TOP/build}
STORM=${STORM:-$BUILD/bin/brnf-storm}
# ok, not_ok, check, wait_for: the controller's tests' own
. "$TOP/rig/tests/checklib.sh"
# no /tmp/brnfstorm<pid>.* directory of storm pid $1 (traffic.c's)
no_storm_tmp() {
	for _d in /tmp/brnfstorm"$1".*; do
		[ -e "$_d" ] && return 1
	done
	return 0
}
# no brnfstorm namespace (of storm pid $1 if given) in /run/netns
no_storm_netns() {
	for _n in /run/netns/brnfstorm${1:+$1-}*; do
		[ -e "$_n" ] && return 1
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
