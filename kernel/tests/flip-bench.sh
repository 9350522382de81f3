#!/bin/sh
# flip-bench.sh: the control-plane cost of turning bridge netfilter on and off (issue 22,
# point 3); a benchmark, it prints and asserts nothing about the figures. Run as root in
# a guest booted by scripts/flip-bench.
#
# usage: flip-bench.sh [FLIPS] [REPS]   (default 2000 flips, 3 repetitions)
#
# Cases, each REPS times, one line each:
#   netlink   an unprivileged user (nobody) in its own user and network namespace
#             (unshare -Urn) makes br0 and sends FLIPS `link set br0 type bridge
#             nf_call_iptables 1|0`, alternating, in one `ip -batch`
#   same      FLIPS writes of the value it already has (0) to that namespace's
#             bridge-nf-call-iptables, from one shell (what sysctl --system and
#             container engines do at boot)
#   sysctl    FLIPS writes alternating 1 and 0 to it
#   rtnl      FLIPS/2 `link add dN type dummy` + `link del dN` in one `ip -batch`, in
#             another namespace: an operation that takes RTNL and has nothing to do with
#             bridges, alone
#   rtnl+flip the same while the netlink case's flips run on the other vCPU
# Prints, per measurement:
#   bench case=C rep=R ops=N seconds=X
# (seconds: elapsed guest time of the N operations) and "bench: done" at the end.
# Exit 1 when a step fails.
set -u

flips=${1:-2000}
reps=${2:-3}
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
		t0=$(date +%s.%N)
		ip -batch "$1" || exit 1
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.6f\", b - a }"' sh "$tmp/flips.batch"
}

user_flips >/dev/null || die "an unprivileged user cannot flip nf_call_iptables in its own namespace"
ip netns add "${P}s" || die "ip netns add failed"
ip -n "${P}s" link add br0 type bridge || die "no bridge"
f=/proc/sys/net/bridge/bridge-nf-call-iptables
ip netns exec "${P}s" sh -c "echo 0 >$f" || die "$f: cannot write"
ip netns add "${P}r" || die "ip netns add failed"

r=1
while [ "$r" -le "$reps" ]; do
	s=$(user_flips) || die "netlink flips failed"
	echo "bench case=netlink rep=$r ops=$flips seconds=$s"

	for c in same sysctl; do
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
	done
	ip netns exec "${P}s" sh -c "echo 0 >$f"

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
