#!/bin/sh
# flip-bench.sh: the control-plane cost of turning bridge netfilter on and off (RTNL
# held, grace periods waited); a benchmark, it prints and asserts nothing about the
# figures. Run as root in a guest booted by scripts/flip-bench.
#
# usage: flip-bench.sh [FLIPS] [REPS]   (default 2000 flips, 3 repetitions)
#
# Every namespace with a bridge sets its three bridge-nf-call-* sysctls to 0 first (as
# OpenWrt's kmod-br-netfilter does): at their default 1 the hooks stay registered
# whatever one of them or a bridge's flag says, and no flip would be an edge on ondemand.
# Cases, each REPS times, one line each:
#   netlink   an unprivileged user (nobody) in its own user and network namespace
#             (unshare -Urn) makes br0, sets the sysctls to 0 and sends FLIPS `link set
#             br0 type bridge nf_call_iptables 1|0`, alternating, in one `ip -batch`
#   same      FLIPS writes of the value it already has (0) to another namespace's
#             bridge-nf-call-iptables, from one shell (what sysctl --system and
#             container engines do at boot)
#   sysctl    FLIPS writes alternating 1 and 0 to it
#   rtnl      FLIPS/2 `link add dN type dummy` + `link del dN` in one `ip -batch`, in
#             another namespace: an operation that takes RTNL and has nothing to do with
#             bridges, alone
#   rtnl+flip the same while the netlink case's flips run on the other vCPU
#   first     25 namespaces (unshare -Urn, as nobody), each with its sysctls set to 0
#             before `link add br0 type bridge`, then one `link set br0 type bridge
#             nf_call_iptables 1`: the first ask (with kprobe events: first-add, the
#             holds of the bridges' creation, and first, those of the flips)
# Prints first how many of br_netfilter's hooks `nft list hooks` shows in that namespace
# with everything 0, with bridge-nf-call-iptables 1 and with br0's nf_call_iptables 1
# (on ondemand 0, then all of them: each flip is an edge; on vanilla always all):
#   edges off=N sysctl=N flag=N
# then, per measurement:
#   bench case=C rep=R ops=N seconds=X
# (seconds: elapsed guest time of the N operations) and "bench: done" at the end.
# On a kernel with kprobe events (VARIANT+trace, kernel/trace.config), also how long the
# netlink, same and sysctl cases held RTNL: every hold of the case's own processes (comm
# ip or sh), from the return of rtnl_lock() (or of a successful rtnl_trylock() or
# rtnl_lock_killable()) to the entry of __rtnl_unlock(), paired per task, in nanoseconds
# of the trace's clock (x86-tsc: TSC ticks, nanoseconds under -icount); netlink: the
# holds in which br_changelink() ran, from rtnl_newlink()'s entry (rtnl-holds.awk says
# why):
#   bench case=C-rtnl rep=R ops=N seconds=X   X: the holds' sum; per op in the table
#   bench case=netlink-rtnl-on|-off ...       the same for the flips to 1 and to 0, when
#                                             the flips held RTNL once each
#   holds case=C rep=R ops=N count=H p50_ns=M max_ns=X clock=CLOCK
# The probes' own cost is in every hold, on every kernel alike.
# Exit 1 when a step fails.
set -u

flips=${1:-2000}
reps=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
P=brnfflip$$
tmp=/tmp/$P
mkdir -p "$tmp"

die() { echo "flip-bench.sh: $*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }

cleanup() {
	touch "$tmp/stop" 2>/dev/null
	wait 2>/dev/null
	ip netns del "${P}s" 2>/dev/null
	ip netns del "${P}r" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# RTNL holds from kprobe events, when the kernel has them
T=/sys/kernel/tracing
hold=0
[ -e "$T/kprobe_events" ] || mount -t tracefs nodev "$T" 2>/dev/null
if [ -w "$T/kprobe_events" ]; then
	echo 0 >"$T/tracing_on"
	# x86-tsc where there is one: whole ticks, one per nanosecond and instruction under
	# -icount (sched_clock, behind local and global, runs in jiffies once the
	# clocksource watchdog has found a TCG guest's TSC unstable); else mono
	clk=mono
	grep -qw x86-tsc "$T/trace_clock" && clk=x86-tsc
	echo "$clk" >"$T/trace_clock" || die "$T/trace_clock: cannot set $clk"
	{ echo 'r:brnf/acq rtnl_lock' && echo 'p:brnf/rel __rtnl_unlock' &&
	  echo 'r:brnf/tacq rtnl_trylock ret=$retval' &&
	  echo 'r:brnf/kacq rtnl_lock_killable ret=$retval' &&
	  echo 'p:brnf/newlink rtnl_newlink' && echo 'p:brnf/chg br_changelink'; } \
		>>"$T/kprobe_events" ||
		die "$T/kprobe_events: cannot add the RTNL probes"
	echo 1 >"$T/events/brnf/enable" || die "$T/events/brnf: cannot enable"
	hold=1
fi
hold_start() {
	[ "$hold" = 1 ] || return 0
	: >"$T/trace"
	echo 1 >"$T/tracing_on"
}
# hold_end CASE REP OPS COMM [EVENT [ALL]]: the holds of processes named COMM since
# hold_start; with EVENT only those in which it fired; ALL=1: of every such process, not
# only the one that held RTNL most often (rtnl-holds.awk)
hold_end() {
	[ "$hold" = 1 ] || return 0
	echo 0 >"$T/tracing_on"
	awk -v comm="$4" -v need="${5:-}" -v all="${6:-}" -f "$here/rtnl-holds.awk" "$T/trace" \
		>"$tmp/holds" || die "$T/trace: cannot read"
	! grep -q 'LOST' "$T/trace" || die "$1: the trace lost events"
	sort -n "$tmp/holds" >"$tmp/holds.sorted"
	awk -v c="$1" -v r="$2" -v n="$3" -v sorted="$tmp/holds.sorted" -v clk="$clk" '
		{ sum += $1; if (NR % 2) on += $1; else off += $1 }
		END {
			printf "bench case=%s-rtnl rep=%d ops=%d seconds=%.9f\n", c, r, n, sum / 1e9
			if (NR == n && n % 2 == 0) {
				printf "bench case=%s-rtnl-on rep=%d ops=%d seconds=%.9f\n", c, r, n / 2, on / 1e9
				printf "bench case=%s-rtnl-off rep=%d ops=%d seconds=%.9f\n", c, r, n / 2, off / 1e9
			}
			k = 0
			while ((getline v < sorted) > 0) x[++k] = v
			printf "holds case=%s rep=%d ops=%d count=%d p50_ns=%s max_ns=%s clock=%s\n", c,
				r, n, k, k ? x[int((k + 1) / 2)] : "-", k ? x[k] : "-", clk
		}' "$tmp/holds"
}

i=0
while [ $i -lt "$flips" ]; do
	echo "link set br0 type bridge nf_call_iptables $(( (i + 1) % 2 ))"
	i=$((i + 1))
done >"$tmp/flips.batch"
chmod a+r "$tmp/flips.batch"
chmod a+x "$tmp"
i=0
while [ $((i * 2)) -lt "$flips" ]; do
	echo "link add d$i type dummy"
	echo "link del d$i"
	i=$((i + 1))
done >"$tmp/rtnl.batch"
rtnl_ops=$((i * 2))

# one ip -batch of flips as nobody in a user namespace of its own; prints seconds
user_flips() {
	setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urn sh -c '
		ip link add br0 type bridge || exit 1
		for s in iptables ip6tables arptables; do
			echo 0 >/proc/sys/net/bridge/bridge-nf-call-$s || exit 1
		done
		t0=$(date +%s.%N)
		ip -batch "$1" || exit 1
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.6f\", b - a }"' sh "$tmp/flips.batch"
}

# the first ask, FIRST times, each in a user and network namespace of its own whose
# three sysctls are 0 before its bridge exists (as on a router that boots with them at
# 0): the bridge made by ip, then its nf_call_iptables set by ip copied as ipflip, so
# that the two RTNL holds are told apart by the process's name. On the latch the flip
# registers the namespace's hooks; on vanilla the bridge's creation did.
nfirst=25	# odd: hold_end's -on/-off split is for alternating flips
cp "$(command -v ip)" "$tmp/ipflip" || die "cannot copy ip"
chmod a+rx "$tmp/ipflip"
first_asks() {
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '
		i=0
		while [ $i -lt "$1" ]; do
			unshare -Urn sh -c "
				for s in iptables ip6tables arptables; do
					echo 0 >/proc/sys/net/bridge/bridge-nf-call-\$s || exit 1
				done
				ip link add br0 type bridge || exit 1
				\"\$1\" link set br0 type bridge nf_call_iptables 1" sh "$2" || exit 1
			i=$((i + 1))
		done' sh "$nfirst" "$tmp/ipflip"
}

user_flips >/dev/null || die "an unprivileged user cannot flip nf_call_iptables in its own namespace"
ip netns add "${P}s" || die "ip netns add failed"
ip -n "${P}s" link add br0 type bridge || die "no bridge"
f=/proc/sys/net/bridge/bridge-nf-call-iptables
for s in iptables ip6tables arptables; do
	ip netns exec "${P}s" sh -c "echo 0 >${f%iptables}$s" || die "${f%iptables}$s: cannot write"
done
ip netns add "${P}r" || die "ip netns add failed"
# br_netfilter's hooks in ${P}s now, with the sysctl and with br0's flag
hooks_now() {
	ip netns exec "${P}s" nft list hooks 2>/dev/null | grep -c 'br_nf_\|ip_sabotage_in'
}
e_off=$(hooks_now)
ip netns exec "${P}s" sh -c "echo 1 >$f" || die "$f: cannot write"
e_sysctl=$(hooks_now)
ip netns exec "${P}s" sh -c "echo 0 >$f"
ip -n "${P}s" link set br0 type bridge nf_call_iptables 1 || die "cannot set nf_call_iptables"
e_flag=$(hooks_now)
ip -n "${P}s" link set br0 type bridge nf_call_iptables 0
echo "edges off=$e_off sysctl=$e_sysctl flag=$e_flag"

r=1
while [ "$r" -le "$reps" ]; do
	hold_start
	s=$(user_flips) || die "netlink flips failed"
	echo "bench case=netlink rep=$r ops=$flips seconds=$s"
	hold_end netlink "$r" "$flips" ip chg

	for c in same sysctl; do
		hold_start
		s=$(ip netns exec "${P}s" sh -c '
			f=$1 n=$2 c=$3 i=0 v=0
			t0=$(date +%s.%N)
			while [ $i -lt "$n" ]; do
				[ "$c" = sysctl ] && v=$(( (i + 1) % 2 ))
				echo $v >"$f" || exit 1
				i=$((i + 1))
			done
			t1=$(date +%s.%N)
			awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.6f\", b - a }"' \
			sh "$f" "$flips" "$c") || die "sysctl writes ($c) failed"
		echo "bench case=$c rep=$r ops=$flips seconds=$s"
		hold_end "$c" "$r" "$flips" sh
	done
	ip netns exec "${P}s" sh -c "echo 0 >$f"

	hold_start
	t0=$(now)
	first_asks || die "first asks failed"
	echo "bench case=first rep=$r ops=$nfirst seconds=$(secs "$t0" "$(now)")"
	hold_end first-add "$r" "$nfirst" ip newlink 1
	hold_end first "$r" "$nfirst" ipflip chg 1

	t0=$(now)
	ip -n "${P}r" -batch "$tmp/rtnl.batch" || die "dummy add/del failed"
	echo "bench case=rtnl rep=$r ops=$rtnl_ops seconds=$(secs "$t0" "$(now)")"

	# flips in a loop on the other vCPU for as long as the dummies take
	rm -f "$tmp/stop"
	( while [ ! -e "$tmp/stop" ]; do user_flips >/dev/null || exit 1; done ) &
	bg=$!
	sleep 1
	t0=$(now)
	ip -n "${P}r" -batch "$tmp/rtnl.batch" || die "dummy add/del during flips failed"
	s=$(secs "$t0" "$(now)")
	touch "$tmp/stop"
	wait "$bg" || die "netlink flips beside the dummies failed"
	bg=
	echo "bench case=rtnl+flip rep=$r ops=$rtnl_ops seconds=$s"
	r=$((r + 1))
done
echo "bench: done"
