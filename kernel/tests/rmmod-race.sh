#!/bin/sh
# rmmod-race.sh: unload and load br_netfilter in a loop while other processes write the
# bridge-nf-call-* sysctls and the bridges' nf_call_* flags and frames cross the bridges,
# and the debug kernel must report nothing. Meant for br_netfilter as a module (debug-m:
# KASAN, lockdep, kmemleak), booted by scripts/race-test. Run as root in a guest.
#
# usage: rmmod-race.sh [ROUNDS] [NAMESPACES]   (default 5 rounds, 8 namespaces)
#
# Each of NAMESPACES namespaces has a bridge with two veth ports whose peers, in two
# more namespaces, ping each other through it. Per namespace, one writer sets the three
# sysctls to 1 and now and then to 0, another flips the bridge's nf_call_iptables
# (sysfs) and nf_call_arptables (netlink). Each round: rmmod br_netfilter, then
#   - no hook may be left at the hook points br_netfilter uses (bridge family, and
#     priority INT_MIN at IPv4/IPv6 PRE_ROUTING), in any namespace: a hook left behind
#     by an unloaded module points into freed memory;
#   - modprobe br_netfilter again.
# After the last round: writers and traffic stopped, the kernel log must hold no splat
# (BUG, WARNING, KASAN, lockdep, RCU, refcount, Oops) and kmemleak must report no
# unreferenced object. Exit 0 pass, 1 fail, 4 skip.
set -u

rounds=${1:-5}
nns=${2:-8}
P=brnfrace$$
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "must run as root"
for t in ip nft modprobe rmmod ping; do
	command -v "$t" >/dev/null || skip "$t not installed"
done
[ -e /proc/modules ] || skip "kernel without module support"
grep -q '^br_netfilter ' /proc/modules || modprobe br_netfilter 2>/dev/null ||
	skip "br_netfilter is not a loadable module here"

# kmemleak: forget what boot left, so that only this test's leaks are counted
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	echo clear >/sys/kernel/debug/kmemleak
fi

pids=
cleanup() {
	[ -z "$pids" ] || kill $pids 2>/dev/null
	wait 2>/dev/null
	for n in $(ip netns list | sed -n "s/^\($P-[^ ]*\).*/\1/p"); do
		ip netns del "$n"
	done
}
trap cleanup EXIT

i=0
while [ $i -lt "$nns" ]; do
	b=$P-b$i
	ip netns add "$b" && ip netns add "$b-x" && ip netns add "$b-y" ||
		{ fail "cannot create namespaces"; exit 1; }
	ip -n "$b" link add br0 type bridge stp_state 0 forward_delay 0
	ip -n "$b" link set br0 up
	for s in x y; do
		ip link add "p$s" netns "$b" type veth peer name eth0 netns "$b-$s"
		ip -n "$b" link set "p$s" master br0 up
		ip -n "$b-$s" link set eth0 up
	done
	ip -n "$b-x" addr add "198.18.$((10 + i)).1/24" dev eth0
	ip -n "$b-y" addr add "198.18.$((10 + i)).2/24" dev eth0
	i=$((i + 1))
done

n=$(brnf_hooks "$P-b0")
[ "$n" -gt 0 ] && ok "hooks registered with a bridge and the default sysctls ($n)" ||
	fail "no hook registered with a bridge and the default sysctls"

i=0
while [ $i -lt "$nns" ]; do
	b=$P-b$i
	ip netns exec "$b-x" ping -q -i 0.01 "198.18.$((10 + i)).2" >/dev/null 2>&1 &
	pids="$pids $!"
	ip netns exec "$b" sh -c '
		n=0
		while :; do
			v=1
			[ $((n % 4)) = 3 ] && v=0
			for t in iptables ip6tables arptables; do
				echo $v >/proc/sys/net/bridge/bridge-nf-call-$t
			done
			n=$((n + 1))
		done' >/dev/null 2>&1 &
	pids="$pids $!"
	ip netns exec "$b" sh -c '
		while :; do
			echo 1 >/sys/class/net/br0/bridge/nf_call_iptables
			ip link set br0 type bridge nf_call_arptables 1
			echo 0 >/sys/class/net/br0/bridge/nf_call_iptables
			ip link set br0 type bridge nf_call_arptables 0
		done' >/dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
sleep 2

r=1
left=0
while [ $r -le "$rounds" ]; do
	if ! rmmod br_netfilter; then
		fail "round $r: rmmod br_netfilter"
		break
	fi
	i=0
	bad=
	while [ $i -lt "$nns" ]; do
		n=$(brnf_hooks "$P-b$i")
		[ "$n" = 0 ] || bad="$bad b$i:$n"
		i=$((i + 1))
	done
	if [ -n "$bad" ]; then
		fail "round $r: hooks left behind after rmmod (namespace:hooks$bad)"
		left=$((left + 1))
	fi
	if ! modprobe br_netfilter; then
		fail "round $r: modprobe br_netfilter"
		break
	fi
	# progress on the console: a guest killed by its timeout shows how far it got
	echo "# round $r of $rounds done at $(cut -d' ' -f1 /proc/uptime) s"
	r=$((r + 1))
done
[ "$left" = 0 ] && [ $r -gt "$rounds" ] &&
	ok "$rounds rounds of rmmod/modprobe under writers and traffic: no hook left behind"

kill $pids 2>/dev/null
wait 2>/dev/null
pids=
n=$(brnf_hooks "$P-b0")
[ "$n" -gt 0 ] && ok "after the last modprobe: hooks registered again ($n)" ||
	fail "after the last modprobe: no hook registered"
i=0
while [ $i -lt "$nns" ]; do
	ip netns exec "$P-b$i-x" ping -q -c 2 -i 0.2 -W 2 "198.18.$((10 + i)).2" >/dev/null ||
		fail "ping through bridge $i after the rounds"
	i=$((i + 1))
done
cleanup
trap - EXIT

# kmemleak: objects must be at least 5 s old to be reported
if [ -w /sys/kernel/debug/kmemleak ]; then
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	nleak=$(grep -c 'unreferenced object' /sys/kernel/debug/kmemleak)
	if [ "$nleak" = 0 ]; then
		ok "kmemleak: no unreferenced object"
	else
		fail "kmemleak: $nleak unreferenced object(s)"
		head -n 40 /sys/kernel/debug/kmemleak
	fi
else
	echo "# kmemleak: not in this kernel (not checked)"
fi

pat='BUG:|WARNING:|KASAN:|UBSAN:|Oops|general protection fault|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|refcount_t:|list_(add|del) corruption|unable to handle'
if dmesg | grep -E "$pat" >/dev/null; then
	fail "kernel log: $(dmesg | grep -c -E "$pat") splat line(s)"
	dmesg | grep -E -A 20 "$pat" | head -n 60
else
	ok "kernel log: no splat"
fi

echo "rmmod-race: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
