#!/bin/sh
# alternatives-short: the verification of the alternatives' rows on a brnf
# kernel, in one QEMU guest (icount, the 6.12 ondemand image that make test-kernels
# builds; every variant has NF_CONNTRACK_BRIDGE and the flowtable):
#   - rows whose ruleset filters in the bridge family (openwrt+bridge-lan,
#     openwrt+bridge-both) verified by the bridge table's counting rules: br-lan's frames
#     counted and br-wlan's not, both for bridge-both;
#   - rows whose ruleset tracks connections: the pps flow, primed one frame each way as a
#     measured run primes it, tracked by conntrack, and [OFFLOAD] iff the ruleset has a
#     flowtable; with br-lan's nf_call_* besides (physdev counters);
#   - measured pps runs say they were primed;
#   - failing case: "openwrt-flowtable" that has no flowtable (a copy of openwrt.nft, in a
#     data directory of the test) must verify "no" with exit status 3.
# A thousand frames and a one-second flow per row: minutes, not a benchmark.
#
# usage: scripts/tests/alternatives-short.sh   (ends with "N passed, N failed")
set -u

me=alternatives-short
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
BRNF=$BUILD/bin/brnf
img=$(sh "$TOP/scripts/kernel-build" --print-image 6.12 ondemand)
[ -x "$BRNF" ] || { echo "$me: $BRNF: not built (make rig)" >&2; exit 1; }
[ -r "$img" ] || { echo "$me: $img: missing (make test-kernels)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ok, not_ok, check
. "$TOP/rig/tests/checklib.sh"

cat >"$work/alt.matrix" <<'M'
kernel=ondemand global=0 ruleset=openwrt
kernel=ondemand global=0 ruleset=openwrt-flowtable
kernel=ondemand global=0 local=br-lan ruleset=openwrt-flowtable
kernel=ondemand global=0 ruleset=openwrt+bridge-lan
kernel=ondemand global=0 ruleset=openwrt+bridge-both
M
echo 'kernel=ondemand global=0 ruleset=openwrt-flowtable' >"$work/bad.matrix"
mkdir -p "$work/data/rulesets"
cp -r "$TOP/rig/rigs" "$work/data/"
cp "$TOP"/rig/rulesets/*.nft "$work/data/rulesets/"
cp "$TOP/rig/rulesets/openwrt.nft" "$work/data/rulesets/openwrt-flowtable.nft"
# the guest sees the host read-only and /mnt/out (= $work) read-write
cat >"$work/guest.sh" <<EOF
opts="--workloads pps64 --packets 1000 --time 1 --omit 0 --flows 1 --reps 1 --no-render"
"$BRNF" run --matrix /mnt/out/alt.matrix \$opts --out /mnt/out/alt --kernel-label ondemand
echo "alt rc=\$?"
BRNF_DATADIR=/mnt/out/data "$BRNF" run --matrix /mnt/out/bad.matrix \$opts --out /mnt/out/bad \\
	--kernel-label ondemand
echo "bad rc=\$?"
EOF
sh "$TOP/scripts/qemu-run" --kernel "$img" --icount --quiet --timeout 1200 --out "$work" \
	-- sh /mnt/out/guest.sh >"$work/log" 2>&1
rc=$?
grep -v "^\[" "$work/console.log" | grep -v "^cell " | sed "s/^/# /" | tail -n 40

checks() {
	check "the guest ran both runs (qemu-run exit status $rc)" [ "$rc" -eq 0 ]
	check "the alternatives' rows: brnf run exits 0" grep -q "^alt rc=0" "$work/console.log"

	# rec ROW-RULESET LOCAL JQ: a field of that row's verification record
	rec() {
		jq -r --arg rs "$1" --argjson n "$2" "select(.row.ruleset == \$rs and
			(.row.local | length) == \$n) | $3" "$work"/alt/raw/*/runs/*-verify/record.json \
			2>/dev/null
	}
	for row in "openwrt 0" "openwrt-flowtable 0" "openwrt-flowtable 1" "openwrt+bridge-lan 0" \
		"openwrt+bridge-both 0"; do
		set -- $row
		check "$1 (local: $2 bridges): verified yes" [ "$(rec "$1" "$2" .verify.result)" = yes ]
	done
	check "openwrt: the pps flow tracked, not offloaded" \
		[ "$(rec openwrt 0 '"\(.verify.flow.tracked) \(.verify.flow.offloaded)"')" = "true false" ]
	check "openwrt-flowtable: the pps flow offloaded" \
		[ "$(rec openwrt-flowtable 0 .verify.flow.offloaded)" = true ]
	check "openwrt-flowtable with br-lan: physdev counted br-lan only, the flow offloaded" \
		[ "$(rec openwrt-flowtable 1 '"\(.rules) \(.verify.bridges["br-lan"].packets > 0) \(.verify.bridges["br-wlan"].packets) \(.verify.flow.offloaded)"')" = "physdev true 0 true" ]
	check "openwrt+bridge-lan: nft-bridge counted br-lan's frames, not br-wlan's" \
		[ "$(rec openwrt+bridge-lan 0 '"\(.rules) \(.verify.bridges["br-lan"].packets > 0) \(.verify.bridges["br-wlan"].packets)"')" = "nft-bridge true 0" ]
	check "openwrt+bridge-both: nft-bridge counted both bridges' frames" \
		[ "$(rec openwrt+bridge-both 0 '"\(.rules) \([.verify.bridges[].packets > 0] | all)"')" = "nft-bridge true" ]
	check "openwrt+bridge-lan: the flow tracked (through the bridge), not offloaded" \
		[ "$(rec openwrt+bridge-lan 0 '"\(.verify.flow.tracked) \(.verify.flow.offloaded)"')" = "true false" ]
	n=$(jq -r .pktgen.primed "$work"/alt/raw/*/runs/*-pps64-*/record.json 2>/dev/null | sort | uniq -c |
		awk '{ printf "%s %s", $2, $1 }')
	check "every measured pps run was primed ($n)" [ "$n" = "true 10" ]

	check "a flowtable ruleset that offloads nothing: exit status 3" grep -q "^bad rc=3" "$work/console.log"
	v=$(jq -r '"\(.verify.result) \(.verify.flow.offloaded)"' "$work"/bad/raw/*/runs/*-verify/record.json 2>/dev/null)
	check "... its verification says no, the flow not offloaded ($v)" [ "$v" = "no false" ]
	check "... and the error says what the flow check found" grep -q \
		'filtering verification failed for row .*the pps flow: expected offloaded, conntrack has it, not offloaded' \
		"$work/console.log"
}
checks | tee "$work/results"
pass=$(grep -c '^ok' "$work/results")
fail=$(grep -c '^not ok' "$work/results")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
