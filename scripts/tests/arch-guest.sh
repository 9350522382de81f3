#!/bin/sh
# arch-guest: run inside a foreign-architecture guest by scripts/tests/arch-smoke.sh.
# Checks that the guest runs its own userspace (the Debian tree of scripts/rootfs-build,
# what its maintainer-script stand-ins made included), and that on the ondemand kernel a
# bridge's nf_call_iptables registers br_netfilter's hooks and clearing it keeps them (the
# latch; nft list hooks, in a namespace of its own with the bridge-nf-call-* sysctls at 0).
#
# usage: arch-guest.sh MACHINE     MACHINE: what uname -m must say (aarch64, mips)
# Prints "ok N - ..." / "not ok N - ..." and ends with "N passed, N failed".
set -u

[ $# -eq 1 ] || { echo "usage: $0 MACHINE" >&2; exit 1; }
machine=$1
ns=brnfarch$$
pass=0
fail=0
check() {	# check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok $((pass + fail)) - $d"
	else
		fail=$((fail + 1))
		echo "not ok $((pass + fail)) - $d"
	fi
}
cleanup() { ip netns del "$ns" 2>/dev/null; }
trap cleanup EXIT

m=$(uname -m)
check "uname -m is $machine ($m)" [ "$m" = "$machine" ]
# (a binary of the host's architecture would not even start)
check "iperf3 runs ($(command -v iperf3))" sh -c 'iperf3 --version >/dev/null'
check "nft runs ($(command -v nft))" sh -c 'nft --version >/dev/null'
check "ip runs ($(command -v ip))" sh -c 'ip -V >/dev/null'
check "ping runs ($(command -v ping))" sh -c 'ping -V >/dev/null'
check "brnf runs ($(command -v brnf))" sh -c 'brnf version >/dev/null'
v=$(iptables -V 2>&1)
check "iptables is iptables-nft, the alternative Debian picks ($v)" \
	sh -c "echo '$v' | grep -q nf_tables"
check "awk runs (mawk, an alternative)" [ "$(echo 1 2 | awk '{ print $2 }')" = 2 ]
check "/etc/passwd names root" grep -q '^root:' /etc/passwd
# the two 9p shares (root, output) each on an interrupt line of its own: sharing an
# edge-triggered line of malta's 8259 lost completions (scripts/arch.sh)
# (arm64's virt has MSI-X: a vector per queue)
v=$(grep virtio /proc/interrupts | awk '{ printf "%s%s:%s", s, $1, $NF; s = " " }')
check "no interrupt line shared by the virtio shares ($v)" \
	sh -c "grep -q virtio /proc/interrupts && ! grep -q 'virtio.*virtio' /proc/interrupts"

# the six hooks of br_netfilter, as the storm counts them
hooks() {
	ip netns exec "$ns" nft list hooks 2>/dev/null |
		grep -c -E 'br_nf_pre_routing|br_nf_local_in|br_nf_forward|br_nf_post_routing|ip_sabotage_in'
}
ip netns add "$ns"
for t in iptables ip6tables arptables; do
	ip netns exec "$ns" sh -c "echo 0 >/proc/sys/net/bridge/bridge-nf-call-$t"
done
ip -n "$ns" link add br0 type bridge
n=$(hooks)
check "a bridge with nf_call_iptables 0: no br_netfilter hook ($n)" [ "$n" -eq 0 ]
ip -n "$ns" link set br0 type bridge nf_call_iptables 1
n=$(hooks)
check "nf_call_iptables 1: the six br_netfilter hooks ($n)" [ "$n" -eq 6 ]
ip -n "$ns" link set br0 type bridge nf_call_iptables 0
n=$(hooks)
check "nf_call_iptables 0 again: the six hooks stay, the latch ($n)" [ "$n" -eq 6 ]
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
