#!/bin/sh
# ab-short: a short A/B matrix through QEMU in icount (two variants, two rows; pps64 with
# 5000 frames and one TCP flow of one second, twice per boot, the second time on the test
# bed built anew; one boot, then, with a target no interval can reach, one more boot of
# each kernel for pps64 alone) checking that the raw data
# comes back, that the boots loop stops at --max-boots, that the measured runs carried no
# counting rules and the verification passes did, that the tables render, that the legacy
# per-bridge row is flagged, and that re-rendering from raw data alone gives identical
# tables; then a run whose --budget no further round fits stops after the first boots.
# Needs the 6.12 legacy and ondemand kernels (make kernels).
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
BRNF=$BUILD/bin/brnf
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $*"; }
notok() { fail=$((fail + 1)); echo "not ok $((pass + fail)) - $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }

cat >"$work/short.matrix" <<'M'
kernel=legacy   global=0 local=br-lan expect=mismatch
kernel=ondemand global=0 local=br-lan
M
out=$work/res
sh "$TOP/scripts/ab-matrix" --series 6.12 --matrix "$work/short.matrix" --clock icount \
	--workloads pps64,tcp --packets 5000 --flows 1 --time 1 --omit 0 --reps 2 \
	--boots 1 --max-boots 2 --target 0.0001 --part-value best --budget 0 --jobs 2 --out "$out" >"$work/log" 2>&1
rc=$?
sed 's/^/# /' "$work/log"
check "ab-matrix exits 0 (it was $rc)" [ "$rc" -eq 0 ]
check "ab-matrix published its results directory" [ -d "$out" ]
parts=$(ls "$out/raw" 2>/dev/null | tr '\n' ' ')
check "two boots of each kernel: the second for the target ($parts)" \
	[ "$parts" = "legacy-boot1 legacy-boot2 ondemand-boot1 ondemand-boot2 " ]
check "run.txt: 2 rounds, target 0.0001 for pps64" \
	grep -q 'rounds=2 ' "$out/run.txt"
check "run.txt: the boots stopped at --max-boots" grep -qx 'budget_s=0 stop=max-boots' "$out/run.txt"
nm() { find "$out/raw" -path "*$1*" -name record.json 2>/dev/null | wc -l; }
check "pps64 in every boot (16 records: 4 boots x 2 directions x 2 reps)" [ "$(nm -pps64-)" -eq 16 ]
check "tcp in the first boots only, in their first repetition (4 records)" [ "$(nm -tcp-)" -eq 4 ]
check "tcp records are all repetition 1 (pps64 alone is repeated)" [ "$(jq -r .repetition \
	$(find "$out/raw" -path '*-tcp-*' -name record.json) | sort -u)" = 1 ]
check "run.txt: repeat_workloads=pps64 (the target workload, the default)" \
	grep -q ' repeat_workloads=pps64 ' "$out/run.txt"
check "run.txt and matrix.json: a boot's value is its best run (part_value=best, as asked: the boots' rounds)" \
	sh -c "grep -q ' part_value=best ' '$out/run.txt' &&
		[ \"\$(jq -r .run.part_value '$out/matrix.json')\" = best ]"
check "icount: every row's repetitions before the next row's (run.txt order=rows, brnf run --order rows)" \
	sh -c "grep -q ' order=rows ' '$out/run.txt' &&
		[ \"\$(jq -r .params.order \$(find '$out/raw' -name provenance.json) </dev/null | cut -d: -f1 | sort -u)\" = 'for row' ]"
check "every boot built its test bed anew for the second rep (provenance fresh_testbed)" \
	[ "$(jq -r .params.fresh_testbed $(find "$out/raw" -name provenance.json) | sort -u)" = true ]
check "one verification pass per row and boot (4)" [ "$(nm -verify)" -eq 4 ]
nflow=$(find "$out/raw" -path '*-tcp-*' -name 'flow-*.json' 2>/dev/null | wc -l)
check "one iperf3 JSON per tcp flow came back ($nflow)" [ "$nflow" -eq 4 ]
check "every pps64 run: 5000 frames sent and received" [ "$(jq -r \
	'"\(.pktgen.sent) \(.pktgen.received)"' $(find "$out/raw" -path '*-pps64-*' \
	-name record.json) | sort -u)" = "5000 5000" ]
check "no pps64 run primed its flow (no row has a ruleset that tracks connections)" \
	[ "$(jq -r .pktgen.primed $(find "$out/raw" -path '*-pps64-*' -name record.json) | sort -u)" = false ]
check "no measured run carried counting rules" [ "$(jq -r .counting_rules $(find "$out/raw" \
	-name record.json -path '*-tcp-*' -o -name record.json -path '*-pps64-*') | sort -u)" = false ]
check "host provenance of every guest (qemu.json)" \
	[ "$(find "$out/raw" -name qemu.json | wc -l)" -eq 4 ]
check "guest provenance of every guest (provenance.json)" \
	[ "$(find "$out/raw" -name provenance.json | wc -l)" -eq 4 ]
for f in matrix.md matrix.csv matrix.json matrix.txt matrix.png matrix.svg; do
	check "$f rendered" [ -s "$out/$f" ]
done
n=$(jq -r '.rows[] | select(.kernel == "ondemand") | .cells[]
	| select(.workload == "pps64") | .n_parts' "$out/matrix.json" 2>/dev/null | sort -u)
check "matrix.json: pps64 cells over 2 boots ($n)" [ "$n" = 2 ]
n=$(jq -r '.rows[] | select(.kernel == "ondemand") | .cells[]
	| select(.workload == "pps64") | .part_runs | map(tostring) | join(",")' "$out/matrix.json" 2>/dev/null | sort -u)
check "matrix.json: a boot is the mean of its 2 runs (part_runs $n)" [ "$n" = 2,2 ]
v=$(jq -r '.rows[] | select(.kernel == "legacy") | .verified' "$out/matrix.json" 2>/dev/null)
check "the legacy per-bridge row is flagged (verified: $v)" [ "$v" = "no (expected)" ]
v=$(jq -r '.rows[] | select(.kernel == "ondemand") | .verified' "$out/matrix.json" 2>/dev/null)
check "the ondemand per-bridge row is verified (verified: $v)" [ "$v" = yes ]
check "the Markdown table marks the legacy row" grep -q '^| legacy.*| no (expected) *|$' "$out/matrix.md"
mkdir -p "$work/before"
cp "$out"/matrix.md "$out"/matrix.csv "$out"/matrix.json "$out"/matrix.txt "$work/before/"
"$BRNF" render "$out" >/dev/null 2>&1
for f in matrix.md matrix.csv matrix.json matrix.txt; do
	check "re-rendering $f from the raw data gives identical bytes" cmp -s "$work/before/$f" "$out/$f"
done
# --budget: a round that would not end within the budget does not start.
out2=$work/res-budget
sh "$TOP/scripts/ab-matrix" --series 6.12 --matrix "$work/short.matrix" --clock icount \
	--workloads pps64 --packets 5000 --boots 1 --max-boots 4 --target 0.0001 --part-value best --budget 1 \
	--jobs 2 --out "$out2" >"$work/log2" 2>&1
rc=$?
sed 's/^/# /' "$work/log2"
check "ab-matrix --budget 1 exits 0 (it was $rc)" [ "$rc" -eq 0 ]
parts=$(ls "$out2/raw" 2>/dev/null | tr '\n' ' ')
check "--budget 1: the first boots only ($parts)" [ "$parts" = "legacy-boot1 ondemand-boot1 " ]
check "run.txt: 1 round, stopped by the budget" \
	sh -c "grep -q 'rounds=1 ' '$out2/run.txt' && grep -qx 'budget_s=1 stop=budget' '$out2/run.txt'"
check "ab-matrix said why it stopped" grep -q 'budget 1 s: one more round would take' "$work/log2"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
