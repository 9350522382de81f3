#!/bin/sh
# bridge-del-bench.sh: the cost of deleting N bridges of one namespace at once (what
# br_netfilter adds to it), as guest time; a benchmark, it prints and asserts nothing
# about the figures. Run as root in a guest booted by scripts/bridge-del-bench (QEMU
# -icount: guest time counts instructions).
#
# usage: bridge-del-bench.sh [N] [REPS] [METHODS]
#   (default 1000 bridges, 3 repetitions, methods "batch group")
#
# For the bridge-nf-call-* sysctls at 1 (default) and at 0, REPS times: a fresh namespace
# gets N bridges (one `ip -batch`), then they are deleted at once, two ways:
#   batch: one `ip -batch` with N `link del` (N RTNL operations, one event each)
#   group: `ip link del group G` (one RTNL operation, N unregister events)
# Prints one line per measurement (seconds: elapsed guest time; busy_seconds: the CPU's
# non-idle time in it, at clock-tick resolution):
#   bench sysctls=S method=M rep=R bridges=N seconds=X busy_seconds=Y
# and "bench: done" at the end. Exit 1 when a step fails (a bridge left, a command error).
set -u

n=${1:-1000}
reps=${2:-3}
methods=${3:-batch group}
for method in $methods; do
	case $method in
	batch|group) ;;
	*) echo "bridge-del-bench.sh: method '$method' is not batch or group" >&2; exit 1 ;;
	esac
done
NS=brnfbench$$
G=7

now() { cut -d' ' -f1 /proc/uptime; }
# the CPU's busy time so far, in clock ticks: /proc/stat's first line without idle and
# iowait. Under -icount the guest clock also jumps over idle time (RCU grace periods,
# sleeps), which the elapsed time counts and this does not. It is sampled by the tick,
# and with sleep=off an idle CPU's clock jumps to the next tick, which then finds it
# idle: busy stretches shorter than a tick are not counted. It measures one long busy
# stretch (a group deletion), not many short ones (a batch of deletions reads 0).
hz=$(getconf CLK_TCK)
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
die() { echo "bench: $*"; ip netns del "$NS" 2>/dev/null; exit 1; }

mkbatch() {	# mkbatch add|del FILE
	i=0
	while [ $i -lt "$n" ]; do
		if [ "$1" = add ]; then
			echo "link add name b$i group $G type bridge"
		else
			echo "link del b$i"
		fi
		i=$((i + 1))
	done >"$2"
}

mkbatch add /tmp/bench-add
mkbatch del /tmp/bench-del

for s in 1 0; do
	for method in $methods; do
		r=1
		while [ $r -le "$reps" ]; do
			ip netns add "$NS" || die "cannot create $NS"
			for f in iptables ip6tables arptables; do
				ip netns exec "$NS" sh -c \
					"echo $s >/proc/sys/net/bridge/bridge-nf-call-$f" ||
					die "no bridge-nf-call-$f sysctl"
			done
			ip -n "$NS" -batch /tmp/bench-add || die "adding $n bridges failed"
			t0=$(now)
			b0=$(busy)
			if [ "$method" = batch ]; then
				ip -n "$NS" -batch /tmp/bench-del || die "ip -batch link del failed"
			else
				ip -n "$NS" link del group $G || die "ip link del group $G failed"
			fi
			t1=$(now)
			b1=$(busy)
			left=$(ip -n "$NS" -o link show type bridge | wc -l)
			[ "$left" = 0 ] || die "$left bridges left after deleting"
			ip netns del "$NS"
			echo "bench sysctls=$s method=$method rep=$r bridges=$n seconds=$(echo "$t1 $t0" |
				awk '{ printf "%.2f", $1 - $2 }') busy_seconds=$(echo "$b1 $b0 $hz" |
				awk '{ printf "%.2f", ($1 - $2) / $3 }')"
			r=$((r + 1))
		done
	done
done
echo "bench: done"
