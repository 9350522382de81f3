#!/bin/sh
# The policy of rig/rulesets/policy-*.nft written three ways filters the same frames:
# iptables and ip6tables through br_netfilter (rig/policy/xt-*), nft inet through
# br_netfilter (policy-inet-*.nft), the nft bridge family with nf_conntrack_bridge
# (policy-bridge-*.nft), each on br-lan alone and on both bridges.
#
# brnf-topo.sh's AP, routing between its bridges (br-lan 198.18.1.254/24 and
# 2001:2:0:1::fe/64, br-wlan 198.18.2.254/24 and 2001:2:0:2::fe/64). nping sends one
# probe of each kind over each path, IPv4 and IPv6: bridged l1 -> l2 (br-lan) and
# w1 -> w2 (br-wlan), routed l1 -> w1 and w1 -> l1. The kinds: a TCP SYN to an allowed
# port (22) and to a port the policy drops (25), a UDP datagram to an allowed (53) and
# a dropped port (69), SYN+FIN to an allowed port (80: conntrack calls it invalid), an
# echo request, and a reply: the receiver's RST to a SYN for port 26 (dropped as 25 is)
# that entered by a bridge the policy does not filter, which the policy must let back
# as established.
# Each probe is counted where it arrives, by a counter in the receiver's own namespace,
# as arrived or not (nping may send an IPv6 probe twice).
#
# The reply probe of FROM-TO is the RST of FROM to a SYN from TO for port 26: it arrives
# when that SYN entered a bridge the policy does not filter (then the RST, entering a
# filtered one, passes as established), and not when the SYN was dropped.
#
# Checks: with no policy every probe arrives; each form and scope gives the counts the
# policy says (what entered a filtered bridge arrives only when allowed or established);
# the three forms give the same counts, probe for probe.
set -u
. "$(dirname "$0")/brnf-topo.sh"
# usage: policy-equiv.sh [RIG]: RIG the repository's rig/ (default: beside this script's
# directory; kernel-test copies the script elsewhere in the guest and names it)
RS=${1:-$(cd "$(dirname "$0")/../../rig" && pwd)}
[ -r "$RS/rulesets/policy-bridge-lan.nft" ] || { echo "not ok - $RS: no policy files"; exit 1; }
need_tools nping socat nft conntrack iptables-restore ip6tables-restore
T=$(mktemp -d)
trap 'topo_cleanup; rm -rf "$T"' EXIT
topo_setup
# per bridge only (nf_call_*): the global switches would hand every bridge's frames to
# the IP hooks
set_global 0
# brnf-topo.sh's own counting rules are not the policy's
ip netns exec "$NS_AP" iptables -F FORWARD

ip netns exec "$NS_AP" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
ip -n "$NS_AP" addr add 198.18.1.254/24 dev br-lan
ip -n "$NS_AP" addr add 198.18.2.254/24 dev br-wlan
ip -n "$NS_AP" addr add 2001:2:0:1::fe/64 dev br-lan nodad
ip -n "$NS_AP" addr add 2001:2:0:2::fe/64 dev br-wlan nodad
v6() {	# v6 NS NET HOST
	ip -n "$1" addr add "2001:2:0:$2::$3/64" dev eth0 nodad
	ip -n "$1" route add default via "198.18.$2.254"
	ip -n "$1" -6 route add default via "2001:2:0:$2::fe"
}
v6 "$NS_L1" 1 1
v6 "$NS_L2" 1 2
v6 "$NS_W1" 2 1
v6 "$NS_W2" 2 2

# count NS: the probes arriving in NS, one counter each; recount NS zeroes them
count() {
	ip netns exec "$1" nft -f - <<'EOF'
table inet probe {
	chain pre {
		type filter hook prerouting priority raw - 10; policy accept;
		tcp flags & (syn | fin | rst) == syn tcp dport 22 counter comment "syn-allowed"
		tcp flags & (syn | fin | rst) == syn tcp dport 25 counter comment "syn-dropped"
		udp dport 53 counter comment "udp-allowed"
		udp dport 69 counter comment "udp-dropped"
		tcp flags & (syn | fin) == syn | fin counter comment "syn-fin-invalid"
		icmp type echo-request counter comment "echo"
		icmpv6 type echo-request counter comment "echo"
		tcp flags & rst == rst tcp sport 26 counter comment "reply"
	}
}
EOF
}
for n in $NS_L1 $NS_L2 $NS_W1 $NS_W2; do count "$n"; done

# probe FROM TO-ADDR FAMILY: every kind but the reply, in the background (UDP with
# socat: nping -6 sends its UDP from the unspecified address)
probe() {
	ip netns exec "$1" nping $3 -q --tcp -p 22 --flags syn -c 1 "$2" > /dev/null 2>&1 &
	ip netns exec "$1" nping $3 -q --tcp -p 25 --flags syn -c 1 "$2" > /dev/null 2>&1 &
	if [ -z "$3" ]; then _u=UDP4-SENDTO:$2; else _u=UDP6-SENDTO:[$2]; fi
	echo probe | ip netns exec "$1" socat -u - "$_u:53" > /dev/null 2>&1 &
	echo probe | ip netns exec "$1" socat -u - "$_u:69" > /dev/null 2>&1 &
	ip netns exec "$1" nping $3 -q --tcp -p 80 --flags syn,fin -c 1 "$2" > /dev/null 2>&1 &
	ip netns exec "$1" ping $3 -q -c 1 -W 1 "$2" > /dev/null 2>&1 &
}
# reply FROM TO-ADDR FAMILY: a SYN for port 26, whose RST TO-ADDR sends back
reply() {
	ip netns exec "$1" nping $3 -q --tcp -p 26 --flags syn -c 1 "$2" > /dev/null 2>&1 &
}

# read_counts NS LABEL: "LABEL KIND 0|1" for each probe counter of NS (1: it arrived,
# once or more) and "LABEL-reply reply 0|1", then count anew
read_counts() {
	ip netns exec "$1" nft list chain inet probe pre |
		awk -v l="$2" '/counter packets/ {
			for (i = 1; i < NF; i++) if ($i == "packets") p = $(i + 1)
			c = $0; sub(/.*comment "/, "", c); sub(/".*/, "", c)
			n[c] += p } END { for (c in n) print (c == "reply" ? l "-reply" : l), c, (n[c] > 0) }' |
		sort
	# anew: nft reset counters resets named counters only
	ip netns exec "$1" nft delete table inet probe
	count "$1"
}

# run_probes FILE: every path, each family's probes all at once; the counts in FILE
run_probes() {
	: > "$1.t"
	for fam in 4 6; do
		if [ "$fam" = 4 ]; then f= l1=198.18.1.1 l2=198.18.1.2 w1=198.18.2.1 w2=198.18.2.2
		else f=-6 l1=2001:2:0:1::1 l2=2001:2:0:1::2 w1=2001:2:0:2::1 w2=2001:2:0:2::2; fi
		probe "$NS_L1" "$l2" "$f"
		probe "$NS_W1" "$w2" "$f"
		probe "$NS_L1" "$w1" "$f"
		probe "$NS_W1" "$l1" "$f"
		reply "$NS_W1" "$l1" "$f"	# the RST l1 sends back enters br-lan
		reply "$NS_L1" "$w1" "$f"	# and this one br-wlan
		wait
		read_counts "$NS_L2" "v$fam l1-l2" | grep -v -e '-reply ' >> "$1.t"
		read_counts "$NS_W2" "v$fam w1-w2" | grep -v -e '-reply ' >> "$1.t"
		read_counts "$NS_W1" "v$fam l1-w1" >> "$1.t"
		read_counts "$NS_L1" "v$fam w1-l1" >> "$1.t"
	done
	sort "$1.t" > "$1"
	rm -f "$1.t"
	ip netns exec "$NS_AP" conntrack -F > /dev/null 2>&1 || true
}

# expected SCOPE FILE: the counts the policy gives when it filters SCOPE's bridges
# (lan: br-lan; both): a probe that entered a filtered bridge arrives only when
# allowed (syn-allowed, udp-allowed, echo) or a reply; the rest arrive
expected() {
	awk -v scope="$1" '{
		# PATH is FROM-TO: the probe entered the bridge of FROM (l: br-lan, w:
		# br-wlan); FROM-TO-reply is the RST of FROM to a SYN that went the other
		# way, into the bridge of TO
		path = $2; kind = $3
		entry = (kind == "reply") ? substr(path, 4, 1) : substr(path, 1, 1)
		filtered = (entry == "l") || (scope == "both")
		want = 1
		if (filtered && (kind == "syn-dropped" || kind == "udp-dropped" ||
				 kind == "syn-fin-invalid" || kind == "reply"))
			want = 0
		print $1, $2, $3, want
	}' "$2"
}

flush_ap() {
	ip netns exec "$NS_AP" nft flush ruleset
	set_bridge br-lan 0
	set_bridge br-wlan 0
}

flush_ap
run_probes "$T/none"
n=$(wc -l < "$T/none")
if [ "$n" -eq 52 ] && ! awk '$4 != 1' "$T/none" | grep -q .; then
	ok "no policy: each of the 52 probes arrives once"
else
	fail "no policy: each of the 52 probes arrives once ($n counted)"
	sed 's/^/# /' "$T/none"
fi

for scope in lan both; do
	bridges=br-lan
	[ "$scope" = lan ] || bridges="br-lan br-wlan"
	expected "$scope" "$T/none" > "$T/want.$scope"
	for form in xt inet bridge; do
		flush_ap
		case $form in
		xt)	for b in $bridges; do set_bridge "$b" 1; done
			ip netns exec "$NS_AP" iptables-restore < "$RS/policy/xt-$scope.iptables" &&
			ip netns exec "$NS_AP" ip6tables-restore < "$RS/policy/xt-$scope.ip6tables" ;;
		inet)	for b in $bridges; do set_bridge "$b" 1; done
			ip netns exec "$NS_AP" nft -f "$RS/rulesets/policy-inet-$scope.nft" ;;
		bridge)	ip netns exec "$NS_AP" nft -f "$RS/rulesets/policy-bridge-$scope.nft" ;;
		esac || { fail "$form on $scope: the policy loads"; continue; }
		run_probes "$T/$form.$scope"
		if [ "$(wc -l < "$T/$form.$scope")" -eq 52 ] &&
		   cmp -s "$T/want.$scope" "$T/$form.$scope"; then
			ok "$form on $scope: the counts the policy gives, probe for probe"
		else
			fail "$form on $scope: the counts the policy gives, probe for probe"
			paste "$T/want.$scope" "$T/$form.$scope" | sed "s/^/# /"
		fi
	done
	if cmp -s "$T/xt.$scope" "$T/inet.$scope" &&
	   cmp -s "$T/xt.$scope" "$T/bridge.$scope"; then
		ok "$scope: iptables, nft inet and the bridge family agree on all 52 probes"
	else
		fail "$scope: iptables, nft inet and the bridge family agree on all 52 probes"
	fi
done
flush_ap
exit $ret
