#!/bin/sh
# A flow that overruns its time: the AP starts dropping everything it forwards while
# the flow runs. brnf kills the client after time + 30 s, says so, and first prints
# both ends' view of the flow's TCP connection (ss), the report that tells a path that
# drops from an end that stopped reading. The run fails and leaves nothing behind.
set -eu
. "$(dirname "$0")/lib.sh"
checktool nft ss

printf 'kernel=running global=0\n' >"$TMPD/one.matrix"
"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --time 3 --omit 0 --flows 1 \
	--reps 1 --out "$TMPD/res" >"$TMPD/out" 2>"$TMPD/err" &
pid=$!
p=$(prefix_of "$pid") || true
# the flow's two connections (iperf3's control and its data stream) are up
flowing() {
	[ "$(ip netns exec "$p-sta" ss -Htn state established '( dport = :5201 )' \
		2>/dev/null | wc -l)" -ge 2 ]
}
wait_for 60 flowing || true
check "the flow's control and data connections are established" flowing
ip netns exec "$p-ap" nft -f - <<'NFT'
table inet brnftest {
	chain drop_all {
		type filter hook forward priority -500; policy drop;
	}
}
NFT
rc=0
wait "$pid" || rc=$?
check "brnf run fails (exit status $rc)" test "$rc" -ne 0
check "the client is reported as overrun" \
	grep -q 'flow 0 (port 5201): iperf3 client still running after 33 s; killed' "$TMPD/err"
check "ss on the client's end shows the flow's connection" \
	grep -q "flow 0: ss on sta .*ESTAB" "$TMPD/err"
check "ss on the server's end shows it too" grep -q "flow 0: ss on pc .*ESTAB" "$TMPD/err"
check "the report has TCP's own state (retransmissions or timers)" \
	grep -q -E 'flow 0: ss on .*(retrans|timer:)' "$TMPD/err"
check "no namespaces left" no_brnf_netns
check "lock released" lock_free
# brnf's own lines when a check failed (checklib.sh sets FAILED=1; it starts at 0)
[ "$FAILED" -eq 0 ] || sed "s/^/# /" "$TMPD/err"
