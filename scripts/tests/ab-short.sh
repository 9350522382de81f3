#!/bin/sh
# ab-short: a short A/B matrix through QEMU in icount (one second per flow, one boot, two
# variants, two rows) checking that the raw data comes back, that the tables render, that
# the legacy per-bridge row is flagged, and that re-rendering from raw data alone gives
# identical tables. Needs the 6.12 legacy and ondemand kernels (make kernels).
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
BRNF=$BUILD/bin/brnf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
	--flows 1 --time 1 --omit 0 --boots 1 --jobs 2 --out "$out" >"$work/log" 2>&1
rc=$?
sed 's/^/# /' "$work/log"
check "ab-matrix exits 0 (it was $rc)" [ "$rc" -eq 0 ]
check "ab-matrix published its results directory" [ -d "$out" ]
nrec=$(find "$out/raw" -name record.json 2>/dev/null | wc -l)
check "raw data of 2 rows x 2 directions came back from the guests ($nrec records)" [ "$nrec" -eq 4 ]
nflow=$(find "$out/raw" -name 'flow-*.json' 2>/dev/null | wc -l)
check "one iperf3 JSON per flow came back ($nflow)" [ "$nflow" -eq 4 ]
check "host provenance of both guests (qemu.json)" \
	[ "$(find "$out/raw" -name qemu.json | wc -l)" -eq 2 ]
check "guest provenance of both guests (provenance.json)" \
	[ "$(find "$out/raw" -name provenance.json | wc -l)" -eq 2 ]
for f in matrix.md matrix.csv matrix.json matrix.txt matrix.png matrix.svg; do
	check "$f rendered" [ -s "$out/$f" ]
done
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
