#!/bin/sh
# path=wlan (cost follows the bridge): a row whose flows stay on br-wlan, bridged between sta and a
# second station sta2, never routed, so br-lan carries none of them.
#
#  sta  wlan0 ==veth== wlan0 -[br-wlan]  ap routes  [br-lan]- eth0 ==veth== eth0  pc
#  sta2 wlan1 ==veth== wlan1 -'
#
# A tiny matrix with path=wlan rows on the running kernel's namespaces: brnf<n>-sta2
# exists while the run runs (configured: its addresses, the permanent neighbour
# entries, br-wlan's static fdb entries) and is gone after it; the records say
# path=wlan; sta2 received the frames (pps64: received == sent; without pktgen,
# tcp-bytes: the flows crossed sta2's port); nothing of them crossed br-lan's link (the
# AP's eth0 counters, since it was made, hold only link-local chatter; pc's TCP, UDP
# and foreign IPv4 counters are 0), and br-lan's verification count is 0, reported off
# the path (n/a), not "no". A matrix without path=wlan makes no sta2; SIGTERM removes sta2 like the
# others; path=bogus is one line naming the matrix line.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq ip bridge

if [ -w /proc/net/pktgen/pgctrl ]; then
	wl=pps64
	wlopts="--workloads pps64 --packets 2000"
	min=2000
else
	wl=tcp-bytes
	wlopts="--workloads tcp-bytes --bytes 1048576 --flows 1"
	min=700		# 1 MiB in segments of at most 1448 bytes, each way
	ok "no pktgen in this kernel: tcp-bytes instead of pps64 # SKIP pps64 on path=wlan"
fi

# row 1 is the case perbridge is for: br-lan filters, the flow crosses br-wlan alone
printf '%s\n' '# path=wlan rows (t_path_wlan.sh)' \
	'global=0 local=br-lan path=wlan' 'global=0 local=br-wlan path=wlan' > "$TMPD/w.matrix"

ns_exists() { [ -e "/run/netns/$1" ]; }
# rx + tx packets of a link in a namespace ("" when it cannot be read)
link_packets() {
	ip netns exec "$1" sh -c "echo \$((\$(cat /sys/class/net/$2/statistics/rx_packets) + \
		\$(cat /sys/class/net/$2/statistics/tx_packets)))" 2>/dev/null || true
}
jqe() { jq -e "$@" > /dev/null; }
# pc's TCP and UDP segments in and out, and IPv4 packets it received for another host
# or forwarded (/proc/net/snmp, counted since its namespace was made): what a flow that
# crossed br-lan's link would leave there; IGMP and IPv6 chatter leave none of it
pc_l4() {
	ip netns exec "$1" cat /proc/net/snmp 2>/dev/null | awk '
		$1 == p { for (i = 2; i <= NF; i++) v[p h[i]] = $i; p = ""; n++; next }
		{ p = $1; for (i = 2; i <= NF; i++) h[i] = $i }
		END {
			s = v["Tcp:InSegs"] + v["Tcp:OutSegs"] + v["Udp:InDatagrams"]
			s += v["Udp:NoPorts"] + v["Udp:OutDatagrams"]
			s += v["Ip:InAddrErrors"] + v["Ip:ForwDatagrams"]
			if (n) print s
		}'
}
configured() {
	ip -n "$1-sta2" -4 addr show dev wlan1 2>/dev/null | grep -q '198\.18\.1\.3/24' &&
		bridge -n "$1-ap" fdb show br br-wlan 2>/dev/null | grep -q static
}

# --- a run with sta2, sampled from outside while it runs
"$BRNF" run --matrix "$TMPD/w.matrix" $wlopts --reps 1 --out "$TMPD/w" --no-render \
	> /dev/null 2> "$TMPD/err.w" &
pid=$!
p=$(prefix_of "$pid") || true
if wait_for 30 configured "$p"; then
	ok "sta2 exists while the run runs ($p-sta2, wlan1 198.18.1.3/24)"
else
	not_ok "sta2 exists while the run runs ($p-sta2)"
fi
# what the test bed gave sta2, sta and the AP, while it is there
ip -n "$p-sta" neigh show dev wlan0 > "$TMPD/neigh.sta" 2>&1 || true
ip -n "$p-sta2" neigh show dev wlan1 > "$TMPD/neigh.sta2" 2>&1 || true
bridge -n "$p-ap" fdb show br br-wlan > "$TMPD/fdb" 2>&1 || true
ip -n "$p-ap" -o link show wlan1 > "$TMPD/ap.wlan1" 2>&1 || true
# the links' counters count from when they were made: the last look before the test bed
# is gone holds the whole run
lan= wl1= l4=
while kill -0 "$pid" 2>/dev/null; do
	l=$(link_packets "$p-ap" eth0)
	w=$(link_packets "$p-ap" wlan1)
	c=$(pc_l4 "$p-pc")
	[ -z "$l" ] || lan=$l
	[ -z "$w" ] || wl1=$w
	[ -z "$c" ] || l4=$c
	sleep 0.05
done
wait_rc "$pid"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.w" | tail -5
check "path=wlan run exits 0" test "$rc" -eq 0
check "sta2 is gone after the run" test ! -e "/run/netns/$p-sta2"
check "and so is every namespace of the run" sh -c "! ls /run/netns 2>/dev/null | grep -q '^$p-'"
check "its claim is gone too" sh -c "! ls -d /run/brnf/$p.claim /run/brnf/$p.journal 2> /dev/null"
check "the AP's wlan1 is a port of br-wlan" grep -q 'master br-wlan' "$TMPD/ap.wlan1"
check "sta: permanent neighbour entry for sta2 (198.18.1.3 02:00:c6:12:04:01)" \
	grep -q '^198\.18\.1\.3 lladdr 02:00:c6:12:04:01 PERMANENT' "$TMPD/neigh.sta"
check "sta2: permanent neighbour entry for sta (198.18.1.2 02:00:c6:12:02:01)" \
	grep -q '^198\.18\.1\.2 lladdr 02:00:c6:12:02:01 PERMANENT' "$TMPD/neigh.sta2"
check "br-wlan: static fdb entries for sta on wlan0 and sta2 on wlan1" \
	sh -c "grep -q '^02:00:c6:12:02:01 dev wlan0 .*static' '$TMPD/fdb' &&
		grep -q '^02:00:c6:12:04:01 dev wlan1 .*static' '$TMPD/fdb'"

W=$TMPD/w
check "4 measured runs and 2 verification passes" \
	test "$(measured_runs "$W" | wc -l) $(verify_records "$W" | wc -l)" = "4 2"
check "every record says path=wlan" \
	test "$(jq -r .row.path "$W"/raw/running/runs/*/record.json | sort -u)" = wlan
check "provenance.json names sta2's namespace and its veths" \
	jqe --arg n "$p-sta2" '.testbed.namespaces.sta2 == $n and
		(.testbed.offloads | has("sta2/wlan1") and has("ap/wlan1"))' \
	"$W/raw/running/provenance.json"
if [ "$wl" = pps64 ]; then
	check "pps64 upload (sta -> sta2): sta2 received every frame sent" \
		test "$(jq -r 'select(.direction == "upload") | .pktgen
			| "\(.sent == .received and .sent == 2000)"' \
			$(measured_runs "$W" | sed 's,$,record.json,') | sort -u)" = true
	check "pps64 download (sta2 -> sta): sta received every frame sent" \
		test "$(jq -r 'select(.direction == "download") | .pktgen
			| "\(.sent == .received and .sent == 2000)"' \
			$(measured_runs "$W" | sed 's,$,record.json,') | sort -u)" = true
else
	check "tcp-bytes: the flows received bytes both ways" \
		test "$(jq -r '.end.sum_received.bytes > 0' \
			$(measured_runs "$W" | sed 's,$,flow-0.json,') | sort -u)" = true
fi
check "the frames crossed sta2's port wlan1 (AP: ${wl1:-?} packets, >= 2 x $min)" \
	test "${wl1:-0}" -ge "$((2 * min))"
check "br-lan's port eth0 did not carry them (AP: ${lan:-?} packets in all, chatter < 50)" \
	test -n "$lan" -a "${lan:-99}" -lt 50
check "br-lan's link: pc saw no TCP, UDP or foreign IPv4 packet (${l4:-?})" \
	test "${l4:-x}" = 0

# the verification pass: br-lan off the path (n/a, count 0), br-wlan judged
v1=$(verify_records "$W" | head -n 1)
v2=$(verify_records "$W" | tail -n 1)
check "verification: br-lan is off the path, nothing expected, 0 counted (both rows)" \
	test "$(jq -c '.verify.bridges["br-lan"]' "$v1" "$v2" | sort -u)" = \
		'{"on_path":false,"expected":null,"packets":0}'
if [ -d /proc/sys/net/bridge ]; then
	check "verification: local=br-lan, br-wlan expected no and counted 0: yes" \
		test "$(jq -c '[.verify.bridges["br-wlan"].expected,
			.verify.bridges["br-wlan"].packets, .verify.result]' "$v1")" = '[false,0,"yes"]'
	check "verification: local=br-wlan, the bridged frames counted on br-wlan: yes" \
		jqe '.verify.bridges["br-wlan"].expected == true and
			.verify.bridges["br-wlan"].packets > 0 and .verify.result == "yes"' "$v2"
else
	ok "no br_netfilter # SKIP the physdev counts of a bridged flow"
fi
run_rc "$BRNF" render "$W" > "$TMPD/render.out" 2>&1
check "brnf render of the path=wlan run: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/render.out" | tail -5
check "the tables show the path" grep -q '| wlan ' "$W/matrix.md"

# --- a matrix without path=wlan makes no sta2
printf 'global=0 local=-\n' > "$TMPD/r.matrix"
"$BRNF" run --matrix "$TMPD/r.matrix" --workloads tcp-bytes --bytes 65536 --flows 1 \
	--reps 1 --out "$TMPD/r" --no-render > /dev/null 2> "$TMPD/err.r" &
pid=$!
p=$(prefix_of "$pid") || true
seen=no
while kill -0 "$pid" 2>/dev/null; do
	! ns_exists "$p-sta2" || seen=yes
	sleep 0.05
done
wait_rc "$pid"
check "routed-only run exits 0" test "$rc" -eq 0
check "routed-only run: no sta2 was made" test "$seen" = no
check "routed-only run: provenance.json has no sta2" \
	jqe '.testbed.namespaces | has("sta2") | not' "$TMPD/r/raw/running/provenance.json"
check "routed-only run: records say path=routed" \
	test "$(jq -r .row.path "$TMPD"/r/raw/running/runs/*/record.json | sort -u)" = routed

# --- SIGTERM while sta2 exists: the ledger removes it with the others
"$BRNF" run --matrix "$TMPD/w.matrix" --workloads tcp --time 30 --omit 0 --flows 1 \
	--reps 1 --out "$TMPD/t" > /dev/null 2> "$TMPD/err.t" &
pid=$!
p=$(prefix_of "$pid") || true
wait_for 30 configured "$p" || true
check "SIGTERM case: sta2 made" ns_exists "$p-sta2"
sleep 1
kill -TERM "$pid"
wait_rc "$pid"
check "SIGTERM: exit 143" test "$rc" -eq 143
check "SIGTERM: sta2 and the other namespaces removed" \
	sh -c "! ls /run/netns 2>/dev/null | grep -q '^$p-'"
check "SIGTERM: lock released (within 5 s)" lock_free_within

# --- path=bogus: one line naming the matrix file and line, nothing made
printf 'global=0\nglobal=0 path=bogus\n' > "$TMPD/bad.matrix"
run_rc "$BRNF" run --matrix "$TMPD/bad.matrix" --out "$TMPD/bad" > /dev/null 2> "$TMPD/err.b"
check "path=bogus: exit status non-zero (got $rc)" test "$rc" -ne 0
one_line "path=bogus: one line naming FILE:LINE" "$TMPD/err.b" \
	"bad.matrix:2: bad path 'bogus' (routed or wlan)"
check "path=bogus: nothing written" test ! -e "$TMPD/bad"
