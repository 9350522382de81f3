#!/bin/sh
# bypass-per-bridge.sh: what the "bypass" and "perbridge" kernels must keep from mainline
# while they skip br_netfilter's idle hooks: each bridge's own flags, the sysctls, nft
# bridge chains and ebtables work as before. Should pass on vanilla and ondemand as well.
# Run as root in a guest (scripts/qemu-run); topology and helpers in brnf-topo.sh. Exit
# 0 when every check holds, 1 otherwise, 4 to skip.
#
#  1. global sysctls 0, no bridge flag: iptables sees no bridged frame
#  2. global 0, br-lan nf_call_*=1: iptables counts br-lan frames only
#  3. same plus an nft bridge-family forward chain: the chain counts the frames of both
#     bridges, iptables still only those of br-lan
#  5. sysctls 1 and a flagged bridge in another namespace change nothing here
#  6. flags, sysctls and an nft bridge table toggled while traffic flows: the traffic
#     keeps flowing and the kernel logs no WARNING/BUG
#  7. br-lan's flags toggled while br-wlan carries traffic: br-wlan's keeps flowing and
#     is never handed to iptables, br-lan's is while flagged
#  8. global 1, no flag: iptables counts both bridges; back to 0: neither
#  4. (last) global 0, no flag: an ebtables-legacy FORWARD rule counts frames (if
#     installed)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/brnf-topo.sh"

NS_X=$P-x
cleanup() {
	[ -z "${bgpid:-}" ] || kill "$bgpid" 2>/dev/null || true
	ip netns del "$NS_X" 2>/dev/null || true
	topo_cleanup
}
trap cleanup EXIT
need_tools nft
topo_setup

kmsg_bad() { dmesg 2>/dev/null | grep -cE 'WARNING:|BUG:|refcount_t:|leak' || true; }
bad0=$(kmsg_bad)

# 1
set_global 0
ping_count ipt
if both_zero; then
	ok "global 0, no flag: iptables saw no bridged frame"
else
	fail "global 0, no flag: expected 0/0, got br-lan ${l:-?}, br-wlan ${w:-?}"
fi

# 2
set_bridge br-lan 1
ipt_zero
ping_count ipt
if [ "${l:-0}" -gt 0 ] && [ "${w:-x}" = 0 ]; then
	ok "global 0, br-lan flagged: iptables counts br-lan only (br-lan $l, br-wlan 0)"
else
	fail "global 0, br-lan flagged: expected br-lan > 0 and br-wlan 0, got ${l:-?}/${w:-?}"
fi

# 3
nft_bridge_add
ipt_zero
ping_lan
ping_wlan
nl=$(nft_bridge_count lan) nw=$(nft_bridge_count wlan)
l=$(ipt_count lan) w=$(ipt_count wlan)
if [ "${nl:-0}" -gt 0 ] && [ "${nw:-0}" -gt 0 ]; then
	ok "nft bridge forward chain sees both bridges (lan $nl, wlan $nw)"
else
	fail "nft bridge forward chain should see both bridges, got lan ${nl:-?}, wlan ${nw:-?}"
fi
if [ "${l:-0}" -gt 0 ] && [ "${w:-x}" = 0 ]; then
	ok "with the nft chain, iptables still counts br-lan only (br-lan $l, br-wlan 0)"
else
	fail "with the nft chain, expected br-lan > 0 and br-wlan 0, got ${l:-?}/${w:-?}"
fi
nft_bridge_del

# 5
set_bridge br-lan 0
ip netns add "$NS_X"
ip -n "$NS_X" link add br0 type bridge nf_call_iptables 1 nf_call_ip6tables 1 \
	nf_call_arptables 1
ip -n "$NS_X" link set br0 up
for f in iptables ip6tables arptables; do
	ip netns exec "$NS_X" sysctl -qw "net.bridge.bridge-nf-call-$f=1"
done
ipt_zero
ping_count ipt
if both_zero; then
	ok "sysctls 1 and a flagged bridge in another namespace: nothing counted here"
else
	fail "another namespace's flags leaked: got br-lan ${l:-?}, br-wlan ${w:-?}"
fi

# 6
ip netns exec "$NS_L1" ping -q -i 0.01 -c 1000 -W 2 198.18.1.2 >/dev/null 2>&1 &
bgpid=$!
i=0
while [ $i -lt 20 ]; do
	set_bridge br-lan 1
	set_global 1
	nft_bridge_add
	set_bridge br-lan 0
	set_global 0
	nft_bridge_del
	i=$((i + 1))
done
if wait "$bgpid"; then
	ok "toggling flags, sysctls and an nft bridge table under traffic: traffic kept flowing"
else
	fail "toggling under traffic: the background ping got no reply"
fi
bgpid=
ping_lan

# 7
set_global 0
set_bridge br-lan 0
ipt_zero
ip netns exec "$NS_W1" ping -q -i 0.01 -c 1000 -W 2 198.18.2.2 >/dev/null 2>&1 &
bgpid=$!
i=0
while [ $i -lt 20 ]; do
	set_bridge br-lan 1
	ping_lan
	set_bridge br-lan 0
	i=$((i + 1))
done
if wait "$bgpid"; then
	ok "toggling br-lan under br-wlan traffic: br-wlan traffic kept flowing"
else
	fail "toggling br-lan under br-wlan traffic: the background ping got no reply"
fi
bgpid=
l=$(ipt_count lan) w=$(ipt_count wlan)
if [ "${l:-0}" -gt 0 ] && [ "${w:-x}" = 0 ]; then
	ok "while br-lan toggled, iptables counted br-lan only (br-lan $l, br-wlan 0)"
else
	fail "while br-lan toggled, expected br-lan > 0 and br-wlan 0, got ${l:-?}/${w:-?}"
fi
# 8
set_bridge br-lan 0
set_global 1
ipt_zero
ping_count ipt
if [ "${l:-0}" -gt 0 ] && [ "${w:-0}" -gt 0 ]; then
	ok "global 1, no flag: iptables counts both bridges (br-lan $l, br-wlan $w)"
else
	fail "global 1, no flag: expected both > 0, got ${l:-?}/${w:-?}"
fi
set_global 0
ipt_zero
ping_count ipt
if both_zero; then
	ok "global back to 0: iptables sees no bridged frame again"
else
	fail "global back to 0: expected 0/0, got br-lan ${l:-?}, br-wlan ${w:-?}"
fi
# 4 (last: ebtables-legacy's filter table stays registered at three hook points,
# where br_netfilter is then no longer alone)
set_bridge br-lan 0
if command -v ebtables-legacy >/dev/null 2>&1 &&
   ip netns exec "$NS_AP" ebtables-legacy -A FORWARD -i wlan1 -j ACCEPT 2>/dev/null; then
	ping_wlan
	c=$(ip netns exec "$NS_AP" ebtables-legacy -L FORWARD --Lc |
		awk '/-i wlan1/ { for (i = 1; i < NF; i++) if ($i == "pcnt") { print $(i + 2); exit } }')
	if [ "${c:-0}" -gt 0 ]; then
		ok "global 0, no flag: ebtables-legacy FORWARD rule counts ($c)"
	else
		fail "global 0, no flag: ebtables-legacy FORWARD rule should count, got ${c:-?}"
	fi
	ip netns exec "$NS_AP" ebtables-legacy -F FORWARD
else
	echo "# ebtables-legacy unavailable: check 4 not run"
fi

bad1=$(kmsg_bad)
if [ "$bad1" = "$bad0" ]; then
	ok "no new WARNING/BUG/refcount/leak line in the kernel log"
else
	fail "kernel log has new WARNING/BUG/refcount/leak lines"
	dmesg | grep -E 'WARNING:|BUG:|refcount_t:|leak' | tail -20
fi

echo "# bridge hooks in $NS_AP:"
ip netns exec "$NS_AP" nft list hooks bridge 2>/dev/null | sed 's/^/#   /' || true
if [ $ret -ne 0 ]; then
	ip netns exec "$NS_AP" iptables -L FORWARD -v -n -x || true
fi
exit $ret
