#!/bin/sh
# rig/profile/markers: the profile window's markers picked from a kernel's symbols, for
# the shapes gcc leaves: pktgen_run a function of its own; inlined, with pktgen_xmit
# (6.12); inlined with pktgen_xmit too (7.2: the first pktgen_alloc_skb); and none
# (exit 1, nothing printed). Data or undefined symbols of those names do not count.
set -eu
. "$(dirname "$0")/lib.sh"
M="$TOPDIR/rig/profile/markers"
S=$TMPD/syms

# syms TYPE NAME...: an nm -n -S list of those symbols
syms() {
	_t=$1; shift
	_a=1
	for _n in "$@"; do
		printf 'ffffffff8155%04x 0000000000000010 %s %s\n' "$_a" "$_t" "$_n"
		_a=$((_a + 16))
	done >>"$S"
}
picks() {
	run_rc sh "$M" "$S" >/dev/null 2>&1
	out=$(sh "$M" "$S" 2>&1 || true)
	check "$1: exit 0" test "$rc" -eq 0
	check "$1: $2 (got '$out')" test "$out" = "$2"
	: >"$S"
}
refuses() {
	run_rc sh "$M" "$S" >/dev/null 2>&1
	out=$(sh "$M" "$S" 2>&1 || true)
	check "$1: exit 1" test "$rc" -eq 1
	check "$1: prints nothing (got '$out')" test -z "$out"
	: >"$S"
}
: >"$S"

syms t pktgen_run pgctrl_write pktgen_xmit pktgen_stop_device
picks "pktgen_run a function" "start=pktgen_run,end=pktgen_stop_device"
syms t pgctrl_write pktgen_alloc_skb pktgen_xmit pktgen_stop_device.isra.0
picks "pktgen_run inlined (6.12)" "arm=pgctrl_write,start=pktgen_xmit,end=pktgen_stop_device.isra.0"
syms t pgctrl_write pktgen_alloc_skb pktgen_thread_worker pktgen_stop_device.isra.0
picks "pktgen_xmit inlined too (7.2)" \
	"arm=pgctrl_write,start=pktgen_alloc_skb,end=pktgen_stop_device.isra.0"
syms T pgctrl_write pktgen_alloc_skb pktgen_stop_device
picks "global text symbols count" "arm=pgctrl_write,start=pktgen_alloc_skb,end=pktgen_stop_device"

syms t pgctrl_write pktgen_thread_worker pktgen_stop_device.isra.0
refuses "no pktgen_xmit nor pktgen_alloc_skb"
syms t pktgen_xmit pktgen_alloc_skb pktgen_stop_device
refuses "no pgctrl_write to arm the window"
syms t pktgen_run pgctrl_write pktgen_xmit
refuses "no pktgen_stop_device"
syms d pktgen_run
syms r pgctrl_write
syms U pktgen_xmit
syms t pktgen_stop_device
refuses "data and undefined symbols do not count"
printf '\n' >"$S"
refuses "an empty list (a kernel without NET_PKTGEN)"

# the kernels in the machine's cache, where there are any: every one has markers (one
# check, whatever the cache holds, so that the suite's count does not depend on it)
n=0
bad=
for f in "${BRNF_CACHE:-$HOME/.cache/brnf}"/kernel/*/*/System.map; do
	[ -r "$f" ] || continue
	grep -q ' pgctrl_write$' "$f" || continue
	n=$((n + 1))
	sh "$M" "$f" >/dev/null || bad="$bad ${f%/System.map}"
done
check "every kernel with pktgen in the machine's cache has markers ($n kernels)" test -z "$bad"
[ -z "$bad" ] || echo "# without markers:$bad"
exit "$FAILED"
