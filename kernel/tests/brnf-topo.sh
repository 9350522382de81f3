# brnf-topo.sh: test bed shared by the kernel/tests/*.sh runtime tests (sourced, not run).
#
# One "AP" namespace with two bridges, each with two veth ports to client namespaces;
# every address is in 198.18.0.0/15:
#
#   l1 (198.18.1.1) --lan1-- [br-lan  in ap] --lan2-- l2 (198.18.1.2)
#   w1 (198.18.2.1) --wlan1- [br-wlan in ap] --wlan2- w2 (198.18.2.2)
#
# In ap, iptables FORWARD rules count the bridged IPv4 packets that enter each bridge
# through its first port (physdev match, comments "lan" and "wlan"); nothing else is
# filtered. The root namespace is never touched. Namespace names are brnf<pid>-<role>.
#
# Callers define nothing; they get: NS_AP NS_L1 NS_L2 NS_W1 NS_W2, topo_setup,
# topo_cleanup, set_global 0|1, set_bridge BRIDGE 0|1, ipt_count lan|wlan, ipt_zero,
# ping_lan, ping_wlan (5 echo requests each way they can), nft_bridge_add,
# nft_bridge_count lan|wlan, nft_bridge_del, ping_count ipt|nft, both_zero, and what
# lib.sh has (ok, fail, skip, $ret, $npass, $nfail, brnf_hooks).

. "$(dirname "$0")/lib.sh"

P=brnf$$
NS_AP=$P-ap NS_L1=$P-l1 NS_L2=$P-l2 NS_W1=$P-w1 NS_W2=$P-w2

need_tools() {
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || skip "$t missing"
	done
}

topo_cleanup() {
	for n in $NS_AP $NS_L1 $NS_L2 $NS_W1 $NS_W2; do
		ip netns del "$n" 2>/dev/null || true
	done
}

# add_client NS BRIDGE PORT ADDR
add_client() {
	ip link add "$3" netns "$NS_AP" type veth peer name eth0 netns "$1"
	ip -n "$1" link set lo up
	ip -n "$1" addr add "$4/24" dev eth0
	ip -n "$1" link set eth0 up
	ip -n "$NS_AP" link set "$3" master "$2" up
}

topo_setup() {
	need_tools ip iptables ping awk
	for n in $NS_AP $NS_L1 $NS_L2 $NS_W1 $NS_W2; do
		ip netns add "$n"
	done
	ip -n "$NS_AP" link set lo up
	for b in br-lan br-wlan; do
		ip -n "$NS_AP" link add "$b" type bridge stp_state 0 forward_delay 0
		ip -n "$NS_AP" link set "$b" up
	done
	add_client "$NS_L1" br-lan lan1 198.18.1.1
	add_client "$NS_L2" br-lan lan2 198.18.1.2
	add_client "$NS_W1" br-wlan wlan1 198.18.2.1
	add_client "$NS_W2" br-wlan wlan2 198.18.2.2
	ip netns exec "$NS_AP" test -e /proc/sys/net/bridge/bridge-nf-call-iptables ||
		skip "no net.bridge.bridge-nf-call-* sysctls (kernel without br_netfilter)"
	ip netns exec "$NS_AP" iptables -A FORWARD -m physdev --physdev-in lan1 \
		-m comment --comment lan -j ACCEPT 2>/dev/null ||
		skip "iptables physdev or comment match unavailable"
	ip netns exec "$NS_AP" iptables -A FORWARD -m physdev --physdev-in wlan1 \
		-m comment --comment wlan -j ACCEPT
}

# set_global 0|1: all three bridge-nf-call-* sysctls of the AP namespace
set_global() {
	for f in iptables ip6tables arptables; do
		ip netns exec "$NS_AP" sysctl -qw "net.bridge.bridge-nf-call-$f=$1"
	done
}

# set_bridge BRIDGE 0|1: the bridge's nf_call_{iptables,ip6tables,arptables}
set_bridge() {
	ip -n "$NS_AP" link set "$1" type bridge nf_call_iptables "$2" \
		nf_call_ip6tables "$2" nf_call_arptables "$2"
}

# ipt_count lan|wlan: packets counted by the iptables FORWARD rule of that bridge
ipt_count() {
	ip netns exec "$NS_AP" iptables -L FORWARD -v -n -x |
		awk -v c="/* $1 */" 'index($0, c) { print $1; exit }'
}

ipt_zero() { ip netns exec "$NS_AP" iptables -Z FORWARD; }

ping_lan() {
	ip netns exec "$NS_L1" ping -q -c 5 -i 0.2 -W 2 198.18.1.2 >/dev/null ||
		fail "ping l1 -> l2 over br-lan"
}

ping_wlan() {
	ip netns exec "$NS_W1" ping -q -c 5 -i 0.2 -W 2 198.18.2.2 >/dev/null ||
		fail "ping w1 -> w2 over br-wlan"
}

# nft_bridge_add: a bridge-family forward chain counting frames from lan1 and wlan1
nft_bridge_add() {
	ip netns exec "$NS_AP" nft -f - <<EOF
table bridge brnft {
	chain brfwd {
		type filter hook forward priority 0; policy accept;
		iifname "lan1" ether type ip counter comment "lan"
		iifname "wlan1" ether type ip counter comment "wlan"
	}
}
EOF
}

# nft_bridge_count lan|wlan
nft_bridge_count() {
	ip netns exec "$NS_AP" nft list chain bridge brnft brfwd |
		awk -v c="comment \"$1\"" 'index($0, c) {
			for (i = 1; i < NF; i++) if ($i == "packets") { print $(i + 1); exit }
		}'
}

nft_bridge_del() { ip netns exec "$NS_AP" nft delete table bridge brnft; }

# ping_count ipt|nft: ping_lan and ping_wlan, then set l and w to the packets counted
# for br-lan and br-wlan by the iptables rules (ipt_count) or the nft bridge chain
# (nft_bridge_count); empty when the counter cannot be read
ping_count() {
	ping_lan
	ping_wlan
	if [ "$1" = nft ]; then
		l=$(nft_bridge_count lan) w=$(nft_bridge_count wlan)
	else
		l=$(ipt_count lan) w=$(ipt_count wlan)
	fi
}

# both_zero: after ping_count, did neither bridge count anything?
both_zero() { [ "${l:-x}" = 0 ] && [ "${w:-x}" = 0 ]; }
