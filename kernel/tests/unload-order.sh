#!/bin/sh
# unload-order.sh: br_netfilter's module exit while a bridge's nf_call_iptables flips
# (no hook may be registered again during the unload). For debug-m (br_netfilter a
# module, kprobe events, DEBUG_NET), booted by scripts/race-test --script unload-order.
# Run as root in a guest.
# It tests the series before the latch (the second version, which perbridge carries;
# scripts/race-test --patches-rev builds it): the latch, like vanilla, removes the hooks
# in the pernet exit during rmmod, which the second check below counts as a failure.
#
# usage: unload-order.sh [ROUNDS]   (default 20)
#
# The bug it looks for: br_netfilter_fini() used to clear nf_br_ops before it
# unregistered its netdevice notifier. A flip in between was never reported, the
# notifier's replay uncounted the bridge with its new state, the count of bridges with
# an option wrapped and the replay registered the hooks again, during the unload;
# brnf_exit_net() then removed them without waiting for the frames inside them.
#
#   ns A: br0, bridge-nf-call-* 0, a writer flipping nf_call_iptables 1/0 (sysfs)
#   two more writers: unshare -n in a loop, so that namespace cleanups keep
#   pernet_ops_rwsem, which unregister_netdevice_notifier() waits for, busy
#
# Kprobe events with a stack trace on nf_register_net_hooks and nf_unregister_net_hook
# record who (un)registers hooks. Each round rmmod, then modprobe br_netfilter; fail when
#   - rmmod's own task registered hooks (a stack through delete_module), or
#   - rmmod's task unregistered them from the pernet exit (delete_module and
#     unregister_pernet_subsys in one stack): the hooks outlived the notifier;
#   - a hook is left at br_netfilter's hook points after rmmod;
# and, after the last round, when the kernel log has a WARNING (DEBUG_NET checks that
# no more bridges are counted with an option than there are bridges), BUG or KASAN.
# The stacks go by core kernel symbols: br_netfilter's own are gone once it is unloaded.
# Exit 0 pass, 1 fail, 4 skip.
set -u

rounds=${1:-20}
P=brnfuo$$
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "must run as root"
for t in ip nft modprobe rmmod unshare; do
	command -v "$t" >/dev/null || skip "$t not installed"
done
[ -e /proc/modules ] || skip "kernel without module support"
grep -q '^br_netfilter ' /proc/modules || modprobe br_netfilter 2>/dev/null ||
	skip "br_netfilter is not a loadable module here"
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
[ -w $T/kprobe_events ] || skip "no kprobe events (CONFIG_KPROBE_EVENTS)"

pids=
cleanup() {
	[ -z "$pids" ] || kill $pids 2>/dev/null
	wait 2>/dev/null
	echo 0 >$T/events/kprobes/enable 2>/dev/null
	echo >$T/kprobe_events 2>/dev/null
	ip netns del "$P-a" 2>/dev/null
}
trap cleanup EXIT

echo >$T/kprobe_events
echo 'p:brnf_reg nf_register_net_hooks' >>$T/kprobe_events &&
echo 'p:brnf_unreg nf_unregister_net_hook' >>$T/kprobe_events ||
	skip "cannot place kprobes on nf_register_net_hooks/nf_unregister_net_hook"
for e in brnf_reg brnf_unreg; do
	echo stacktrace >$T/events/kprobes/$e/trigger
done
echo 1 >$T/events/kprobes/enable
echo 16384 >$T/buffer_size_kb

ip netns add "$P-a" || { fail "cannot create namespace $P-a"; exit 1; }
ip -n "$P-a" link add br0 type bridge
ip -n "$P-a" link set br0 up
for t in arptables iptables ip6tables; do
	ip netns exec "$P-a" sysctl -qw "net.bridge.bridge-nf-call-$t=0"
done

# nf_call_iptables through sysfs: the sysctls come and go with the module, the
# bridge's option stays; a write while the module is away just sets the bit
ip netns exec "$P-a" sh -c '
	f=/sys/class/net/br0/bridge/nf_call_iptables
	while :; do echo 1 >$f; echo 0 >$f; done' >/dev/null 2>&1 &
pids="$pids $!"
for i in 1 2; do
	sh -c 'while :; do unshare -n true; done' >/dev/null 2>&1 &
	pids="$pids $!"
done

# bad TRACEFILE: the stacks of rmmod's task that (un)registered where it must not
bad() {
	awk '
	function judge() {
		if (ev == "brnf_reg" && dm) print "registration during the unload"
		if (ev == "brnf_unreg" && dm && pn) print "unregistration from the pernet exit"
	}
	/: brnf_(un)?reg: / {
		judge()
		ev = ($0 ~ /: brnf_reg: /) ? "brnf_reg" : "brnf_unreg"
		dm = pn = 0
		next
	}
	/=> .*delete_module/ { dm = 1 }
	/=> unregister_pernet_(subsys|operations)/ { pn = 1 }
	END { judge() }' "$1" | sort | uniq -c | sed 's/^ *//'
}

r=1
nbad=0
while [ "$r" -le "$rounds" ]; do
	echo >$T/trace
	if ! rmmod br_netfilter; then
		fail "round $r: rmmod br_netfilter"
		break
	fi
	cat $T/trace >/tmp/$P.trace
	b=$(bad /tmp/$P.trace)
	if [ -n "$b" ]; then
		fail "round $r: rmmod's task: $(echo "$b" | tr '\n' ';' | sed 's/;$//')"
		sed -n '/: brnf_/,$p' /tmp/$P.trace | grep -B2 -A25 'delete_module' | head -n 80
		nbad=$((nbad + 1))
	fi
	n=$(brnf_hooks "$P-a")
	[ "$n" = 0 ] || fail "round $r: $n hooks left at br_netfilter's hook points after rmmod"
	if ! modprobe br_netfilter; then
		fail "round $r: modprobe br_netfilter"
		break
	fi
	ip netns exec "$P-a" sh -c \
		'for t in arptables iptables ip6tables; do sysctl -qw net.bridge.bridge-nf-call-$t=0; done'
	echo "# round $r of $rounds done at $(cut -d' ' -f1 /proc/uptime) s"
	r=$((r + 1))
done
rm -f /tmp/$P.trace
[ "$nbad" = 0 ] && [ "$r" -gt "$rounds" ] &&
	ok "$rounds unloads under nf_call_iptables flips: no hook (un)registered out of order"

kill $pids 2>/dev/null
wait 2>/dev/null
pids=
splat=$(dmesg | grep -E 'WARNING:|BUG:|KASAN|Oops|underflow' | head -n 3)
[ -z "$splat" ] && ok "no WARNING, BUG or KASAN report in the kernel log" ||
	fail "kernel log: $splat"
echo "# $npass passed, $nfail failed"
exit $ret
