#!/bin/sh
# enomem.sh: on the on-demand kernel, a flag write whose hook registration runs out of
# memory must fail with ENOMEM and change nothing. Needs the debug
# variant (CONFIG_FAILSLAB, FAULT_INJECTION_DEBUG_FS, FAULT_INJECTION_STACKTRACE_FILTER)
# and debugfs at /sys/kernel/debug. Run as root in a guest (scripts/qemu-run).
#
# The failure is injected with the task's /proc/self/fail-nth: the N-th slab allocation
# made inside nf_register_net_hooks() (failslab's stack filter, require-start/end set
# to that function) fails. br_netfilter registers five hooks there, each with one
# allocation of a new hook array, then its entry hook (br_nf_pre_routing) through
# nf_register_net_hook(), outside the filter; failing them one registration at a time
# checks the rollback of the hooks already added; a larger N lets the write succeed. (With kmemleak, each
# array allocation is followed by one for kmemleak's own record, which kmemleak
# survives by falling back to its pool: then every other N fails a hook.) N runs from
# 1 to 16. For each of the three ways to ask for
# the hooks (the sysctl, the bridge's sysfs file, rtnetlink via ip link) and each N:
#   failed write  => error "Cannot allocate memory" (sysctl, sysfs) or the extack
#                    message (netlink), the value reads back 0, no br_netfilter hook
#   write ok      => the value reads back 1, all six hooks; then cleared, they stay
#                    (the latch: registered at the first ask, kept)
# Every attempt asks in a namespace of its own, made with the sysctls at 0 before its
# bridge, since a namespace that asked once keeps its hooks. Each way must see at least
# five failed writes, one per hook of nf_register_net_hooks(), and one that succeeds.
# Exit 0 pass, 1 fail, 4 skip.
set -u

NS=brnfenomem
FS=/sys/kernel/debug/failslab
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "must run as root"
[ -d "$FS" ] || skip "$FS missing (kernel without CONFIG_FAILSLAB or debugfs not mounted)"
[ -e "$FS/require-start" ] || skip "$FS/require-start missing (no FAULT_INJECTION_STACKTRACE_FILTER)"
[ -e /proc/self/fail-nth ] || skip "/proc/self/fail-nth missing"
for t in ip nft; do
	command -v "$t" >/dev/null || skip "$t not installed"
done

# [start, end) of nf_register_net_hooks: its address and the next text symbol's
range=$(awk '$2 ~ /^[tT]$/ { print $1, $3 }' /proc/kallsyms | sort |
	awk 'found { print start, $1; exit } $2 == "nf_register_net_hooks" { start = $1; found = 1 }')
[ -n "$range" ] || skip "nf_register_net_hooks not in /proc/kallsyms"
start=$(echo "$range" | cut -d' ' -f1)
end=$(echo "$range" | cut -d' ' -f2)
[ "$start" != 0000000000000000 ] || skip "/proc/kallsyms hides addresses (kptr_restrict)"

saved=
cleanup() {
	ip netns del "$NS" 2>/dev/null
	[ -z "$saved" ] || {
		echo 0 >"$FS/probability"
		echo "$saved" >"$FS/ignore-gfp-wait"
		echo 0 >"$FS/require-start"
		echo 0xffffffffffffffff >"$FS/require-end"
	}
}
trap cleanup EXIT
saved=$(cat "$FS/ignore-gfp-wait")
# fail-nth ignores probability, task filter and times, but not the stack filter and not
# ignore-gfp-wait: GFP_KERNEL allocations must be candidates
echo 0 >"$FS/probability"
echo N >"$FS/ignore-gfp-wait"
echo 0x"$start" >"$FS/require-start"
echo 0x"$end" >"$FS/require-end"
echo "# failing inside nf_register_net_hooks, 0x$start..0x$end"

nsx() { ip netns exec "$NS" "$@"; }
nhooks() { nsx nft list hooks 2>/dev/null | grep -c -E 'br_nf_|ip_sabotage_in'; }
# a namespace of its own for each attempt: the sysctls at 0 before its bridge
fresh_ns() {
	ip netns del "$NS" 2>/dev/null
	ip netns add "$NS" || return 1
	for f in iptables ip6tables arptables; do
		nsx sh -c "echo 0 >/proc/sys/net/bridge/bridge-nf-call-$f" || return 1
	done
	nsx ip link add br0 type bridge && nsx ip link set br0 up
}
fresh_ns || skip "cannot make a namespace with a bridge and the sysctls at 0"
[ "$(nhooks)" = 0 ] || { fail "all flags 0: br_netfilter hooks registered ($(nhooks))"; exit 1; }

SYSCTL=/proc/sys/net/bridge/bridge-nf-call-iptables
SYSFS=/sys/class/net/br0/bridge/nf_call_iptables
get() {
	case $1 in
	sysctl) nsx cat "$SYSCTL" ;;
	sysfs) nsx cat "$SYSFS" ;;
	netlink) nsx ip -d link show br0 | sed -n 's/.* nf_call_iptables \([01]\).*/\1/p' ;;
	esac
}
# set WAY VALUE N: the write, with the N-th allocation in nf_register_net_hooks failing
# (N = 0: none); prints the error message, returns the writer's status
set_with() {
	nsx sh -c '
		way=$1 v=$2 n=$3
		[ "$n" = 0 ] || echo "$n" >/proc/self/fail-nth
		# the writer is exec-ed: the armed task itself writes, and an external echo
		# reports the errno (the shell builtin only says "I/O error")
		case $way in
		sysctl) exec /bin/echo "$v" >'"$SYSCTL"' ;;
		sysfs) exec /bin/echo "$v" >'"$SYSFS"' ;;
		netlink) exec ip link set br0 type bridge nf_call_iptables "$v" ;;
		esac' sh "$1" "$2" "$3" 2>&1
}

for way in sysctl sysfs netlink; do
	nfailed=0
	nok=0
	n=1
	while [ "$n" -le 16 ]; do
		fresh_ns || { fail "$way, allocation $n: cannot make the namespace"; break; }
		msg=$(set_with "$way" 1 "$n")
		rc=$?
		v=$(get "$way")
		h=$(nhooks)
		if [ "$rc" -ne 0 ]; then
			nfailed=$((nfailed + 1))
			case $way in
			netlink) want="Failed to register bridge netfilter hooks" ;;
			*) want="Cannot allocate memory" ;;
			esac
			case $msg in
			*"$want"*) ok "$way, allocation $n fails: the write fails ($want)" ;;
			*) fail "$way, allocation $n fails: error without '$want': $msg" ;;
			esac
			if [ "$v" = 0 ] && [ "$h" = 0 ]; then
				ok "$way, allocation $n fails: value 0, no hook left registered"
			else
				fail "$way, allocation $n fails: value $v, $h hook(s) registered (want 0, 0)"
			fi
		else
			nok=$((nok + 1))
			if [ "$v" = 1 ] && [ "$h" = 6 ]; then
				ok "$way, allocation $n not reached: value 1, six hooks"
			else
				fail "$way, allocation $n not reached: value $v, $h hook(s) (want 1, 6)"
			fi
			set_with "$way" 0 0 >/dev/null || fail "$way: clearing the flag failed"
			h=$(nhooks)
			[ "$h" = 6 ] && ok "$way: cleared, the six hooks stay (the latch)" ||
				fail "$way: cleared, $h hook(s) registered, want the six kept"
		fi
		n=$((n + 1))
	done
	[ "$nfailed" -ge 5 ] && ok "$way: $nfailed injected failures reported (five hooks)" ||
		fail "$way: $nfailed injected failure(s) reached the writer, want at least 5"
	[ "$nok" -gt 0 ] && ok "$way: the write succeeds once the allocation is not reached" ||
		fail "$way: the write never succeeded"
done

# the kernel log: every injected failure was in nf_register_net_hooks, and no splat
if dmesg | grep -q 'FAULT_INJECTION: forcing a failure'; then
	ok "dmesg: failslab reported the forced failures"
else
	fail "dmesg: no 'FAULT_INJECTION: forcing a failure' line"
fi
if dmesg | grep -E 'BUG:|WARNING:|KASAN:|refcount_t:|suspicious RCU usage|possible circular locking' |
   grep -v 'FAULT_INJECTION' >/dev/null; then
	fail "dmesg: a splat after the injected failures"
	dmesg | grep -E 'BUG:|WARNING:|KASAN:|refcount_t:|suspicious RCU|possible circular' | head -5
else
	ok "dmesg: no splat"
fi

echo "enomem: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
