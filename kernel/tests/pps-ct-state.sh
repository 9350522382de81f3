#!/bin/sh
# What the AP's conntrack and flowtable make of the pps workload's one-way UDP flow
# (the alternatives to br_netfilter), in a QEMU guest (icount) on the 6.12 nobrnf
# image, from the repository:
#   scripts/qemu-run --kernel build/kernel/6.12/nobrnf/arch/x86/boot/bzImage --icount \
#	-- sh kernel/tests/pps-ct-state.sh
# A measurement that asserts nothing; its output: kernel/tests/runs/*-pps-ct-state.log.
# 1. openwrt-flowtable, conntrack emptied, 50000 frames pc -> sta without priming:
#    conntrack -L after the run ([OFFLOAD] with [UNREPLIED]: offloaded without a reply).
# 2. openwrt (no flowtable), conntrack emptied: 50000 frames download (no reply seen),
#    then upload (the reverse: replies), then download again: pktgen's elapsed time.
set -u
B=${BRNF:-$PWD/build/bin/brnf}	# qemu-run starts in the host's current directory
R=$(dirname "$B")/../../rig/rulesets
$B testbed up >/dev/null || exit 1
ap=$(ls /run/netns | grep -- '-ap$'); sta=$(ls /run/netns | grep -- '-sta$'); pc=$(ls /run/netns | grep -- '-pc$')
nsx() { n=$1; shift; ip netns exec "$n" "$@"; }
pg() { # dl|ul: 50000 frames of 60 bytes, udp 9 -> 9, into a counting sink
	if [ "$1" = ul ]; then s=$sta dev=wlan0 r=$pc rdev=eth0 dst=198.18.2.2 gw=br-wlan
	else s=$pc dev=eth0 r=$sta rdev=wlan0 dst=198.18.1.2 gw=br-lan; fi
	mac=$(nsx "$ap" cat /sys/class/net/$gw/address)
	printf 'table netdev sink {\n chain c {\n  type filter hook ingress device %s priority 0;\n  udp dport 9 counter drop\n }\n}\n' "$rdev" |
		nsx "$r" nft -f -
	P=/proc/net/pktgen
	nsx "$s" sh -c "echo rem_device_all > $P/kpktgend_0; echo add_device $dev > $P/kpktgend_0
	  for c in 'count 50000' 'pkt_size 60' 'dst $dst' 'dst_mac $mac' 'udp_dst_min 9' 'udp_dst_max 9' 'udp_src_min 9' 'udp_src_max 9' 'clone_skb 0' 'delay 0' 'burst 1'; do echo \"\$c\" > $P/$dev; done
	  echo start > $P/pgctrl; grep -o 'OK: [0-9]*' $P/$dev | tr '\n' ' '"
	echo "usec, $1, received $(nsx "$r" nft list table netdev sink | grep -o 'packets [0-9]*')"
	nsx "$r" nft delete table netdev sink
}
echo "## uname: $(uname -r)"
echo "## 1. openwrt-flowtable, no priming"
nsx "$ap" nft -f "$R/openwrt-flowtable.nft"
nsx "$ap" conntrack -F 2>/dev/null
pg dl
nsx "$ap" conntrack -L -p udp 2>/dev/null
echo "## 2. openwrt, no priming: download, upload, download"
nsx "$ap" nft flush ruleset
nsx "$ap" nft -f "$R/openwrt.nft"
nsx "$ap" conntrack -F 2>/dev/null
pg dl; nsx "$ap" conntrack -L -p udp 2>/dev/null
pg ul; nsx "$ap" conntrack -L -p udp 2>/dev/null
pg dl; nsx "$ap" conntrack -L -p udp 2>/dev/null
$B testbed down >/dev/null
