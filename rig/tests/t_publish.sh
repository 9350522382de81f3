#!/bin/sh
# Publishing a results directory: brnf render, then scripts/plot, patch-table,
# clock-compare and readme-results on what it wrote, with the raw schema 2 unit fixture
# (rig/tests/unit/data/resdir2: nobrnf and vanilla, 3 boots, pps64 and tcp-bytes) and a
# schema 1 one (data/resdir, one part). No network, no root needed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq gnuplot cmp
S=$TOPDIR/scripts
D=$TMPD/r2
cp -R "$TOPDIR/rig/tests/unit/data/resdir2" "$D"
cp -R "$TOPDIR/rig/tests/unit/data/resdir" "$TMPD/r1"

check "plot refuses a directory not rendered yet" sh -c "! sh '$S/plot' '$D' 2>'$TMPD/err'"
check "and says what to do" grep -q "matrix.json: not found (run brnf render" "$TMPD/err"
check "brnf render (schema 2)" sh -c "'$BRNF' render '$D' >/dev/null"
check "brnf render (schema 1)" sh -c "'$BRNF' render '$TMPD/r1' >/dev/null"

# the plot: PNG and SVG, one panel per workload and direction, rows labelled with the
# kernel and its flags, the same bytes when drawn again
check "plot (schema 2)" sh "$S/plot" "$D"
check "matrix.png is a PNG" sh -c "head -c 4 '$D/matrix.png' | od -An -c | grep -q 'P   N   G'"
check "matrix.svg is an SVG" grep -q '^<svg' "$D/matrix.svg"
for p in "pps64 download" "pps64 upload" "tcp-bytes download" "tcp-bytes upload"; do
	check "the plot has a panel '$p'" grep -q ">$p: " "$D/matrix.svg"
done
check "rows are labelled with kernel and flags" grep -q '>vanilla · global 0 · br-lan<' "$D/matrix.svg"
check "the baseline row says so" grep -q '>nobrnf · global 0 · no iface (baseline)<' "$D/matrix.svg"
cp "$D/matrix.png" "$TMPD/p1"
cp "$D/matrix.svg" "$TMPD/s1"
sh "$S/plot" "$D"
check "plotting again gives the same PNG" cmp -s "$TMPD/p1" "$D/matrix.png"
check "plotting again gives the same SVG" cmp -s "$TMPD/s1" "$D/matrix.svg"
check "plot (schema 1, one part)" sh "$S/plot" "$TMPD/r1"
check "no temporary file left" test -z "$(find "$D" "$TMPD/r1" -name '*.tmp*')"

# patch-table: the rendered figures, rounded; the workload must exist
sh "$S/patch-table" --workload pps64 "$D" vanilla >"$TMPD/pt" 2>&1 || true
check "patch-table --workload pps64: the baseline row" \
	grep -qx '  nobrnf    0   -                    6008.3           6102.7' "$TMPD/pt"
check "patch-table --workload pps64: a row with its changes" \
	grep -qx '  vanilla   0   br-lan               6620.0 +10.2%    6706.0 +9.9%' "$TMPD/pt"
check "patch-table says how many boots" grep -q 'ns per packet, mean of 3 boots;' "$TMPD/pt"
check "patch-table: a workload the directory lacks is an error" \
	sh -c "! sh '$S/patch-table' '$D' vanilla 2>'$TMPD/err'"
check "and names it" grep -q "matrix.json: no tcp runs" "$TMPD/err"

# clock-compare: a matrix against itself ranks alike
cp -R "$D" "$TMPD/r2b"
check "clock-compare --workload pps64" sh -c "sh '$S/clock-compare' --workload pps64 '$D' \
	'$TMPD/r2b' >'$TMPD/cc'"
check "clock-compare: rho 1 against itself" \
	grep -q 'over 3 rows: download 1.00, upload 1.00' "$TMPD/cc"

# matrix-compare: the same changes against itself; a moved interval is found; run.txt
check "matrix-compare: a matrix against itself, exit status 0" sh -c \
	"sh '$S/matrix-compare' '$D' '$TMPD/r2b' >'$TMPD/mc'"
check "matrix-compare: a row with its intervals" grep -q \
	'^| vanilla · global 0 · br-lan | download | +10.18% \[+9.44, +10.92\] | +10.18% \[+9.44, +10.92\] | +0.00 | yes |$' \
	"$TMPD/mc"
check "matrix-compare: nothing differs but the wall time" \
	grep -q 'run.txt differs in (A / B): nothing but the wall time' "$TMPD/mc"
jq '(.rows[] | select(.key | test("local=br-lan")) | .cells[] |
	select(.workload == "pps64" and .direction == "upload")) |=
	(.change_pct += 5 | .change_low_pct += 5 | .change_high_pct += 5)' \
	"$D/matrix.json" >"$TMPD/r2b/matrix.json"
sed 's/boots=3/boots=3 verify=before/' "$D/run.txt" >"$TMPD/r2b/run.txt"
sh "$S/matrix-compare" "$D" "$TMPD/r2b" >"$TMPD/mc" 2>&1 && rc=0 || rc=$?
check "matrix-compare: intervals 5 points apart, exit status 1 (got $rc)" test "$rc" -eq 1
check "matrix-compare: that row says no" grep -q '^| vanilla · global 0 · br-lan | upload | .* | +5.00 | no |$' "$TMPD/mc"
check "matrix-compare: and the parameter that differs" \
	grep -q 'run.txt differs in (A / B): verify: (unset) / before' "$TMPD/mc"
sh "$S/matrix-compare" --workload tcp "$D" "$TMPD/r2b" >/dev/null 2>"$TMPD/err" && rc=0 || rc=$?
check "matrix-compare: a workload neither has, exit status 2 (got $rc)" test "$rc" -eq 2
check "and one line naming the file" sh -c "test \$(wc -l <'$TMPD/err') -eq 1 &&
	grep -q 'r2/matrix.json: no tcp runs' '$TMPD/err'"

# boot-levels: each cell's lowest busy time per frame, then every run's excess, by boot
check "boot-levels on the fixture" sh -c "sh '$S/boot-levels' '$D' >'$TMPD/bl'"
check "boot-levels: a cell, its lowest value and its runs in boot order" grep -qx \
	'vanilla 000 br-lan pps64 download              6598.5  +0.0/+20.0 +10.0/+0.0 +50.0/+40.0' \
	"$TMPD/bl"
check "boot-levels: one line per cell" test "$(grep -c ' pps64 ' "$TMPD/bl")" -eq 6
sh "$S/boot-levels" "$TMPD/r1" >/dev/null 2>"$TMPD/err" && rc=0 || rc=$?
check "boot-levels: a directory without pps records, exit status 1 (got $rc)" test "$rc" -eq 1
check "and one line naming it" sh -c "test \$(wc -l <'$TMPD/err') -eq 1 &&
	grep -q 'r1: no pps record' '$TMPD/err'"
check "boot-levels: not a results directory is an error" \
	sh -c "! sh '$S/boot-levels' '$TMPD/nothing' 2>'$TMPD/err' && grep -q 'nothing: no raw/' '$TMPD/err'"

# seed-compare: the seed's table beside a published matrix with the seed's rows (the
# committed 6.12 x86_64 one); a matrix without them is an error naming the row
R3=$TOPDIR/results/2026-12-01-6.12-icount-3
check "seed-compare --workload pps64 on $R3" sh -c \
	"sh '$S/seed-compare' --workload pps64 '$R3' >'$TMPD/sc'"
check "seed-compare: the seed's cost change beside the rig's, with its interval" grep -q \
	'^| brfilter-local · global 0 · br-lan br-wlan | download | +50.4% | +16.2% \[+16.1, +16.2\] agrees |$' \
	"$TMPD/sc"
check "seed-compare: ten cells counted" \
	grep -q '^Agreement in sign, of 10 cells: 2026-12-01-6.12-icount-3 (x86_64) 10 agree, 0 none, 0 opposite.$' "$TMPD/sc"
check "seed-compare: a statement the rig does not bear out says no" grep -q \
	'^| 2 filtering off: with and without the bypass about the same | 185 / 243 against 187 / 243 | no / no |$' \
	"$TMPD/sc"
check "seed-compare: tcp-bytes, the seed's own unit" sh -c \
	"sh '$S/seed-compare' '$R3' '$R3' >'$TMPD/sc2' && grep -q '^| brfilter-global · global 1 · no iface | upload | -39.6% | ' '$TMPD/sc2'"
sh "$S/seed-compare" --workload pps64 "$D" >/dev/null 2>"$TMPD/err" && rc=0 || rc=$?
check "seed-compare: a matrix without the seed's rows, exit status 2 (got $rc)" test "$rc" -eq 2
check "and one line naming the file and the row" sh -c "test \$(wc -l <'$TMPD/err') -eq 1 &&
	grep -q 'r2/matrix.json: no pps64 row label=default global=0 local=-' '$TMPD/err'"

# readme-results into a README of our own
printf '# x\n\n<!-- summary:begin -->\nold\n<!-- summary:end -->\n\ntext\n\n<!-- results:begin -->\nold\n<!-- results:end -->\nend\n' \
	>"$TMPD/README.md"
check "readme-results" sh -c "BRNF_README='$TMPD/README.md' sh '$S/readme-results' \
	--summary '$D' '$D' '$TMPD/r1'"
check "the short table: idle cost of vanilla, pps64, with intervals" \
	grep -q '^| 6.12, -cpu max | vanilla | pps64 | +2.5% \[+1.9, +3.0\] | +2.5% \[+2.3, +2.7\] | - | - |$' \
	"$TMPD/README.md"
check "the short table names its source" grep -q "^\[$D\]($D/matrix.md);\?\.\?$" "$TMPD/README.md"
check "the full tables, one per workload" sh -c "grep -c '^#### ' '$TMPD/README.md' | grep -qx 3"
check "the text around the blocks is kept" sh -c "grep -qx text '$TMPD/README.md' && grep -qx end '$TMPD/README.md'"
check "the old blocks are gone" sh -c "! grep -qx old '$TMPD/README.md'"
printf '# x\n' >"$TMPD/README2.md"
check "readme-results: a README without markers is an error" \
	sh -c "! BRNF_README='$TMPD/README2.md' sh '$S/readme-results' '$D' 2>'$TMPD/err'"
check "and says which" grep -q "no <!-- results:begin --> / <!-- results:end --> markers" "$TMPD/err"
