#!/bin/sh
# module-cycle.sh: br_netfilter as a module (a NAME-m kernel, scripts/qemu-run --modules):
# loaded, unloaded and loaded again, twice, while a namespace has a bridge with frames
# crossing it and the default sysctls ask for the hooks. Run as root in a guest.
#
# Checks, each round:
#   loaded   => br_netfilter in /proc/modules, its sysctls there, all its hooks
#               registered in the namespace ("nft list hooks"), pings cross the bridge,
#               an iptables physdev rule (xt_physdev, loaded on demand through the
#               kernel's modprobe) counts them
#   unloaded => rmmod succeeds, no br_netfilter sysctl and no hook left at the points
#               br_netfilter uses (bridge family, and priority INT_MIN at IPv4/IPv6
#               PRE_ROUTING: ip_sabotage_in), pings still cross the bridge
# Exit 0 pass, 1 fail, 4 skip (br_netfilter is not a module here).
set -u

. "$(dirname "$0")/brnf-topo.sh"

[ "$(id -u)" = 0 ] || skip "must run as root"
need_tools ip nft iptables modprobe rmmod
[ -e /proc/modules ] || skip "kernel without module support"
if ! grep -q '^br_netfilter ' /proc/modules; then
	modprobe br_netfilter 2>/dev/null || skip "br_netfilter is not a loadable module here"
fi

trap topo_cleanup EXIT
topo_setup

loaded() {	# loaded ROUND
	grep -q '^br_netfilter ' /proc/modules && ok "$1: br_netfilter loaded" ||
		fail "$1: br_netfilter not in /proc/modules"
	ip netns exec "$NS_AP" test -e /proc/sys/net/bridge/bridge-nf-call-iptables &&
		ok "$1: bridge-nf-call-iptables sysctl present" ||
		fail "$1: no bridge-nf-call-iptables sysctl"
	# six on 6.12, seven on 6.1 (FORWARD for IP and for ARP); the same each round
	n=$(brnf_hooks "$NS_AP")
	[ -n "$nhooks" ] || nhooks=$n
	[ "$n" -ge 6 ] && [ "$n" = "$nhooks" ] && ok "$1: $n br_netfilter hooks registered" ||
		fail "$1: $n hooks at br_netfilter's hook points, want $nhooks (at least 6)"
	ipt_zero
	ping_count ipt
	[ "${l:-0}" -ge 5 ] && [ "${w:-0}" -ge 5 ] &&
		ok "$1: iptables physdev counts bridged frames (lan $l, wlan $w)" ||
		fail "$1: iptables physdev counted lan ${l:-?}, wlan ${w:-?}, want >= 5 each"
}

unloaded() {	# unloaded ROUND
	if rmmod br_netfilter; then
		ok "$1: rmmod br_netfilter"
	else
		fail "$1: rmmod br_netfilter failed"
		return
	fi
	ip netns exec "$NS_AP" test -e /proc/sys/net/bridge/bridge-nf-call-iptables &&
		fail "$1: bridge-nf-call-iptables still there after rmmod" ||
		ok "$1: sysctls gone"
	n=$(brnf_hooks "$NS_AP")
	[ "$n" = 0 ] && ok "$1: no hook left at br_netfilter's hook points" ||
		fail "$1: $n hooks left at br_netfilter's hook points after rmmod"
	f0=$nfail
	ping_lan
	ping_wlan
	[ "$nfail" = "$f0" ] && ok "$1: pings cross the bridges without br_netfilter"
}

nhooks=
for round in 1 2; do
	loaded "round $round, loaded"
	unloaded "round $round"
	if modprobe br_netfilter; then
		ok "round $round: modprobe br_netfilter again"
	else
		fail "round $round: modprobe br_netfilter failed"
		break
	fi
done
loaded "after two rounds"

if dmesg | grep -E 'BUG:|WARNING:|KASAN:|refcount_t:|suspicious RCU usage|possible circular locking' \
	>/dev/null; then
	fail "dmesg: a splat"
	dmesg | grep -E 'BUG:|WARNING:|KASAN:|refcount_t:|suspicious RCU|possible circular' | head -5
else
	ok "dmesg: no splat"
fi

echo "module-cycle: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
