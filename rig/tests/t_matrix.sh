#!/bin/sh
# A one-second run of the default matrix: every record's filtering
# verification agrees with its configuration, the results directory is
# complete, nothing is left behind, and the root namespace's sysctls, links
# and firewall are the same before and after.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq iptables-save nft sysctl

root_state > "$TMPD/before"
OUT="$TMPD/res"
set +e
"$BRNF" run --time 1 --omit 0 --reps 1 --flows 1 --out "$OUT" > "$TMPD/out" 2> "$TMPD/err"
rc=$?
set -e
check "default matrix run exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err"
root_state > "$TMPD/after"
if diff -u "$TMPD/before" "$TMPD/after" > "$TMPD/diff"; then
	ok "root namespace sysctls, links and firewall unchanged"
else
	not_ok "root namespace sysctls, links and firewall unchanged"
	sed 's/^/# /' "$TMPD/diff" | head -40
fi
check "no namespaces left" no_brnf_netns
check "lock released" lock_free
check "no temporary results directory left" sh -c "! ls -d '$OUT'.tmp.* 2>/dev/null"
for f in matrix.md matrix.csv matrix.json raw/running/provenance.json; do
	check "results have $f" test -s "$OUT/$f"
done
check "the table was printed" grep -q 'filtering verified' "$TMPD/out"
# 3 rows against the baseline x 2 directions, one run each: no intervals, nothing judged
check "brnf run ends with the one-line verdict" sh -c "tail -n 1 '$TMPD/out' |
	grep -q '^verdict: 0 of 6 changes against .*; 6 without an interval (one unit); no row'"
check "brnf render --json: the same verdict, 6 changes" sh -c "'$BRNF' render '$OUT' --json |
	jq -e '.verdict.changes == 6 and .verdict.no_interval == 6 and (.changes | length) == 6
		and (.verdict.text | startswith(\"verdict: 0 of 6 \"))' > /dev/null"

check "8 measured runs (4 rows x 2 directions x 1 rep; no pktgen here: tcp)" \
	test "$(measured_runs "$OUT" | wc -l)" -eq 8
check "4 verification passes, one per row" test "$(verify_records "$OUT" | wc -l)" -eq 4
check "the verification passes come after every measured run" \
	test "$(ls "$OUT"/raw/running/runs | tail -n 4 | grep -c -- '-verify$')" -eq 4
# flags read back as the row configured them, in every record
readback_ok() {
	jq -r '.row as $r | .readback as $rb
		| ($rb.global == $r.global)
		  and ([ "br-lan", "br-wlan" ] | map(. as $b
			| $rb.bridges[$b] == (if ($r.local | index($b)) != null
					      then [1,1,1] else [0,0,0] end)) | all)' "$1"
}
for rec in $(verify_records "$OUT"); do
	run=$(basename "$(dirname "$rec")")
	# expected = global iptables OR the bridge's own flag; counted > 0 iff expected
	res=$(jq -r '
		.row as $r | .verify as $v
		| [ "br-lan", "br-wlan" ]
		| map(. as $b
			| ($r.global[0] == 1 or (($r.local | index($b)) != null)) as $want
			| ($v.bridges[$b].expected == $want)
			  and (($v.bridges[$b].packets > 0) == $want))
		| all' "$rec")
	desc=$(jq -r '"global=\(.row.global[0]) local=\(.row.local | join(","))"' "$rec")
	check "$run ($desc): counters agree with the configuration" test "$res" = true
	check "$run ($desc): verify.result yes, rules physdev" \
		test "$(jq -r '.verify.result + " " + .rules' "$rec")" = "yes physdev"
	check "$run ($desc): flags read back as configured" test "$(readback_ok "$rec")" = true
	# The verification flow is iperf3 -n 1048576: the client can be done writing before
	# the server has read a byte, and then the server's count it reports is 0 (seen
	# with the host loaded: sum_sent 1048576 bytes in 0.4 ms, sum_received 0). That
	# the frames crossed is what the counters above say; here: iperf3 sent them all.
	for d in download upload; do
		check "$run: $d/flow-0.json is iperf3 output that sent 1 MiB" \
			test "$(jq '.end.sum_sent.bytes >= 1048576' "$(dirname "$rec")/$d/flow-0.json")" = true
	done
done
for dir in $(measured_runs "$OUT"); do
	rec=$dir/record.json
	run=$(basename "$dir")
	desc=$(jq -r '"global=\(.row.global[0]) local=\(.row.local | join(",")) \(.direction)"' "$rec")
	check "$run ($desc): kind measure, workload tcp, no counting rules" \
		test "$(jq -r '[.kind, .workload, .counting_rules, has("verify")] | join(" ")' "$rec")" = \
		"measure tcp false false"
	check "$run ($desc): flags read back as configured" test "$(readback_ok "$rec")" = true
	check "$run: flow-0.json is iperf3 output with a received rate" \
		test "$(jq '.end.sum_received.bits_per_second > 0' "$dir/flow-0.json")" = true
done
check "brnf render re-renders from raw data" sh -c "'$BRNF' render '$OUT' > /dev/null"

# Offloads: off by default (read back and recorded), on with --offloads on;
# a second part added to an existing results directory.
check "offloads off by default (read back)" test "$(jq '[.testbed.offloads[] | .tso, .gso, .gro] | any' \
	"$OUT/raw/running/provenance.json")" = false
printf 'global=0 local=-\n' > "$TMPD/one.matrix"
set +e
"$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 --flows 1 --offloads on \
	--out "$OUT" --part offloads-on --no-render > /dev/null 2> "$TMPD/err"
rc=$?
set -e
check "second part into the existing results directory" test "$rc" -eq 0 -a -s "$OUT/raw/offloads-on/provenance.json"
check "offloads on when asked (read back)" test "$(jq '[.testbed.offloads[] | .tso, .gso] | all' \
	"$OUT/raw/offloads-on/provenance.json")" = true
check "no temporary part left" sh -c "! ls -d '$OUT'/raw/*.tmp.* 2>/dev/null"
set +e
"$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$OUT" --part offloads-on --no-render > /dev/null 2> "$TMPD/err"
rc=$?
set -e
check "an existing part is never overwritten" sh -c "[ $rc -ne 0 ] && grep -q 'exists already' '$TMPD/err'"

# --ruleset is the ruleset of rows that name none; a row's own ruleset= wins.
printf 'global=0 local=br-lan\nglobal=0 local=br-lan ruleset=none # own\n' > "$TMPD/rs.matrix"
set +e
"$BRNF" run --matrix "$TMPD/rs.matrix" --ruleset openwrt --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/rs" --no-render > /dev/null 2> "$TMPD/err"
rc=$?
set -e
check "--ruleset run exits 0" test "$rc" -eq 0
check "--ruleset applies to rows without ruleset=" test "$(jq -r 'select(.row.index == 0) | .row.ruleset' \
	"$TMPD"/rs/raw/running/runs/*/record.json | sort -u)" = openwrt
check "a row's own ruleset= wins over --ruleset" test "$(jq -r 'select(.row.index == 1) | .row.ruleset' \
	"$TMPD"/rs/raw/running/runs/*/record.json | sort -u)" = none
check "verification holds with the OpenWrt ruleset" test "$(verdicts "$TMPD/rs")" = yes
check "provenance records the ruleset digests" test "$(jq -r '.rulesets.openwrt.sha256' \
	"$TMPD/rs/raw/running/provenance.json")" = "$(sha256sum "$TOPDIR/rig/rulesets/openwrt.nft" | cut -d' ' -f1)"

# --json: the summary alone on stdout (progress and errors on stderr), two rows
printf 'global=0 local=-\nglobal=0 local=br-lan\n' > "$TMPD/two.matrix"
set +e
"$BRNF" run --matrix "$TMPD/two.matrix" --time 1 --omit 0 --reps 1 --flows 1 --json \
	--out "$TMPD/json" > "$TMPD/out" 2> "$TMPD/err"
rc=$?
set -e
check "brnf run --json: exit 0" test "$rc" -eq 0
check "brnf run --json: stdout is one JSON summary, 2 changes, the results directory" \
	sh -c "jq -e --arg d '$TMPD/json' '.verdict.changes == 2 and .dir == \$d' \
		'$TMPD/out' > /dev/null"
check "brnf run --json: the tables are written all the same" test -s "$TMPD/json/matrix.md"
check "brnf run --json: no namespaces left" no_brnf_netns
