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

# brnf levels: levels.md and levels.csv from raw/ alone, the same bytes again (its
# permutation test has a fixed seed); a directory without pps runs is one line, exit 1
check "brnf levels (schema 2)" sh -c "'$BRNF' levels '$D' >/dev/null"
cp "$D/levels.md" "$TMPD/levels.md.1"
check "brnf levels again: levels.md byte-identical" sh -c \
	"'$BRNF' levels '$D' >/dev/null && cmp -s '$D/levels.md' '$TMPD/levels.md.1'"
check "levels.md: the independence test" grep -q 'permutation p = [0-9.]* over the boots (10000 random' "$D/levels.md"
check "levels.csv: one line per pps cell and a header" test "$(wc -l < "$D/levels.csv")" -eq 7
run_rc "$BRNF" levels "$TMPD/r1" 2>"$TMPD/err"
check "brnf levels without pps runs: exit 1 (got $rc)" test "$rc" -eq 1
one_line "brnf levels without pps runs: one line naming the directory" "$TMPD/err" \
	"r1: no pps runs"
check "brnf levels without pps runs: no file left" sh -c "! ls '$TMPD/r1' | grep -q levels"
run_rc "$BRNF" levels 2>"$TMPD/err"
check "brnf levels without DIR: exit 2 (got $rc)" test "$rc" -eq 2

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
check "the title names series, CPU, clock and run, once" sh -c "test \$(grep -c \
	'>6.12 · x86_64 -cpu max · clock icount (QEMU -icount shift=0,sleep=off, one vCPU) · r2<' \
	'$D/matrix.svg') -eq 1"
check "vanilla in its own colour (scripts/plot-lib.sh)" grep -q 'rgb(213,  94,   0)' "$D/matrix.svg"
check "nobrnf in its own colour" grep -q 'rgb(  0,   0,   0)' "$D/matrix.svg"
cp "$D/matrix.png" "$TMPD/p1"
cp "$D/matrix.svg" "$TMPD/s1"
sh "$S/plot" "$D"
check "plotting again gives the same PNG" cmp -s "$TMPD/p1" "$D/matrix.png"
check "plotting again gives the same SVG" cmp -s "$TMPD/s1" "$D/matrix.svg"
check "plot (schema 1, one part)" sh "$S/plot" "$TMPD/r1"
# ab-matrix plots its results while they are in OUT.tmp.PID: the title names OUT
cp -R "$D" "$TMPD/r3.tmp.4242"
sh "$S/plot" "$TMPD/r3.tmp.4242"
check "plotted in OUT.tmp.PID, the title names OUT" grep -q '<text>.* · r3</text>' "$TMPD/r3.tmp.4242/matrix.svg"
rm -rf "$TMPD/r3.tmp.4242"
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

# matrix-compare: against itself every change is brnf render's and every Δ 0; Δ's Welch
# interval on a pair computed by hand; a moved baseline; the exit status follows Δ
mc() { sh "$S/matrix-compare" "$@" >"$TMPD/mc" 2>&1 && rc=0 || rc=$?; }
# cell KEY DIRECTION JQ: D's matrix.json with that pps64 cell updated by JQ
cell() {
	jq --arg k "$1" --arg d "$2" "(.rows[] | select(.key == \$k) | .cells[] |
		select(.workload == \"pps64\" and .direction == \$d)) |= ($3)" "$D/matrix.json"
}
NB="kernel=nobrnf global=0 local=- ruleset=none"
VL="kernel=vanilla global=0 local=br-lan ruleset=none"
mc "$D" "$TMPD/r2b"
check "matrix-compare: a matrix against itself, exit status 0 (got $rc)" test "$rc" -eq 0
jq -r '.rows[] | select(.baseline | not) | .cells[] | select(.workload == "pps64") |
	"\(.direction) \(.change_pct) \(.change_low_pct) \(.change_high_pct)"' "$D/matrix.json" |
	while read -r dir c lo hi; do
		x=$(printf '%+.2f%% [%+.2f, %+.2f]' "$c" "$lo" "$hi")
		check "matrix-compare: $dir $x, brnf render's change, in both runs, Δ +0.00" \
			grep -qF "| $dir | $x | $x | +0.00 [" "$TMPD/mc"
	done
check "matrix-compare: a row with its intervals" grep -q \
	'^| vanilla · global 0 · br-lan | download | +10.18% \[+9.44, +10.92\] | +10.18% \[+9.44, +10.92\] | +0.00 \[-0.85, +0.85\] | yes |$' \
	"$TMPD/mc"
check "matrix-compare: the baseline with its mean, unmoved" grep -q \
	'^| nobrnf · global 0 · no iface | upload | 6102.67 ± 12.50 ns/packet | 6102.67 ± 12.50 ns/packet | +0.00% \[-0.19, +0.19\] |$' \
	"$TMPD/mc"
check "matrix-compare: nothing differs but the wall time" \
	grep -q 'run.txt differs in (A / B): nothing but the wall time' "$TMPD/mc"
# --suffixes: B's kernels renamed NAME+x (scripts/kernel-build's VARIANT+EXTRA) match A's
mkdir -p "$TMPD/sx"
cp "$D/run.txt" "$TMPD/sx/"
jq '.rows[] |= (.key |= sub("^kernel=(?<k>[^ ]*)"; "kernel=\(.k)+x") | .kernel += "+x")' \
	"$D/matrix.json" >"$TMPD/sx/matrix.json"
mc "$D" "$TMPD/sx"
check "matrix-compare: NAME+x matches no row of NAME without --suffixes (exit 2, got $rc)" \
	test "$rc" -eq 2
mc --suffixes "" +x "$D" "$TMPD/sx"
check "matrix-compare --suffixes '' +x: exit status 0 (got $rc)" test "$rc" -eq 0
check "matrix-compare --suffixes: the row named as in both runs, its changes as before" grep -q \
	'^| vanilla / vanilla+x · global 0 · br-lan | download | +10.18% \[+9.44, +10.92\] | +10.18% \[+9.44, +10.92\] | +0.00 \[-0.85, +0.85\] | yes |$' \
	"$TMPD/mc"
check "matrix-compare --suffixes: every row of A matched" test \
	"$(grep -c '^| [a-z-]* / [a-z-]*+x · .* | yes |$' "$TMPD/mc")" -eq \
	"$(jq '[.rows[] | select(.baseline | not) | .cells[] | select(.workload == "pps64" and .change_pct != null)] | length' "$D/matrix.json")"

# By hand, upload: both baselines 1000 ns, sd 0; the br-lan row 1100 ns in A, 1110 in B,
# sd √300, n 3. Each change: 100 / 1000 · √(300 / 3) = 1 point of standard error, 2
# degrees of freedom, t 4.3027: A +10 ± 4.30, B +11 ± 4.30. Δ = +1, standard error √2,
# Welch-Satterthwaite 2² / (1² / 2 + 1² / 2) = 4 degrees of freedom, t 2.7764: ± 3.93.
# With 1150 in B: +15 [+10.70, +19.30], Δ +5 [+1.07, +8.93].
s300=$(awk 'BEGIN { printf "%.17g", sqrt(300) }')
mkdir -p "$TMPD/ka" "$TMPD/kb" "$TMPD/kc"
for k in ka kb kc; do cp "$D/run.txt" "$TMPD/$k/"; done
cell "$NB" upload '.mean = 1000 | .sd = 0 | .ci95 = 0' >"$TMPD/base.json"
for m in ka:1100 kb:1110 kc:1150; do
	jq --arg k "$VL" --argjson m "${m#*:}" --argjson s "$s300" '(.rows[] | select(.key == $k) |
		.cells[] | select(.workload == "pps64" and .direction == "upload")) |=
		(.mean = $m | .sd = $s | .n = 3)' "$TMPD/base.json" >"$TMPD/${m%:*}/matrix.json"
done
mc "$TMPD/ka" "$TMPD/kb"
check "matrix-compare: Δ +1 [-2.93, +4.93] holds 0, exit status 0 (got $rc)" test "$rc" -eq 0
check "matrix-compare: the changes and Δ computed by hand" grep -q \
	'^| vanilla · global 0 · br-lan | upload | +10.00% \[+5.70, +14.30\] | +11.00% \[+6.70, +15.30\] | +1.00 \[-2.93, +4.93\] | yes |$' \
	"$TMPD/mc"
check "matrix-compare: a baseline without spread, a point" grep -q \
	'^| nobrnf · global 0 · no iface | upload | 1000.00 ± 0.00 ns/packet | 1000.00 ± 0.00 ns/packet | +0.00% \[+0.00, +0.00\] |$' \
	"$TMPD/mc"
mc "$TMPD/ka" "$TMPD/kc"
check "matrix-compare: Δ +5 [+1.07, +8.93] misses 0, exit status 1 (got $rc)" test "$rc" -eq 1
check "matrix-compare: that row says no" grep -q \
	'^| vanilla · global 0 · br-lan | upload | +10.00% \[+5.70, +14.30\] | +15.00% \[+10.70, +19.30\] | +5.00 \[+1.07, +8.93\] | no |$' \
	"$TMPD/mc"
check "matrix-compare: the other rows still say yes" \
	test "$(grep -c ' | yes |$' "$TMPD/mc")" -eq 3

# every download cell 5% slower in B, sd and interval too: the baseline moved +5.00%,
# the changes did not
jq '(.rows[].cells[] | select(.workload == "pps64" and .direction == "download")) |=
	(.mean *= 1.05 | .sd *= 1.05 | .ci95 *= 1.05)' "$D/matrix.json" >"$TMPD/r2b/matrix.json"
mc "$D" "$TMPD/r2b"
check "matrix-compare: a baseline that moved, the changes equal, exit status 0 (got $rc)" \
	test "$rc" -eq 0
x=$(jq -r '.rows[] | select(.baseline) | .cells[] |
	select(.workload == "pps64" and .direction == "download") | "\(.mean) \(.ci95)"' \
	"$D/matrix.json" | awk '{ printf "| download | %.2f ± %.2f ns/packet | %.2f ± %.2f ns/packet | +5.00%% [",
	$1, $2, 1.05 * $1, 1.05 * $2 }')
check "matrix-compare: the baseline's move, +5.00%" grep -qF "$x" "$TMPD/mc"
check "matrix-compare: its interval misses 0" grep -q \
	'^| nobrnf · global 0 · no iface | download | .* | +5.00% \[+[0-9.]*, +[0-9.]*\] |$' "$TMPD/mc"
check "matrix-compare: and no row's change moved" \
	test "$(grep -c '| download | \(.*\) | \1 | +0.00 \[-[0-9.]*, +[0-9.]*\] | yes |$' "$TMPD/mc")" -eq 2
# B's upload baseline is A's vanilla row: its move is that row's change as brnf rendered it
cell "$NB" upload ". + $(jq -c --arg k "kernel=vanilla global=0 local=- ruleset=none" \
	'.rows[] | select(.key == $k) | .cells[] | select(.workload == "pps64" and
	.direction == "upload") | {mean, sd, n, ci95}' "$D/matrix.json")" >"$TMPD/r2b/matrix.json"
mc "$D" "$TMPD/r2b"
x=$(jq -r '.rows[] | select(.key == "kernel=vanilla global=0 local=- ruleset=none") |
	.cells[] | select(.workload == "pps64" and .direction == "upload") |
	"\(.change_pct) \(.change_low_pct) \(.change_high_pct)"' "$D/matrix.json" |
	awk '{ printf "%+.2f%% [%+.2f, %+.2f]", $1, $2, $3 }')
check "matrix-compare: the baseline's move is brnf render's interval ($x)" grep -q \
	"^| nobrnf · global 0 · no iface | upload | .* | $(echo "$x" | sed 's/[][]/\\&/g') |\$" "$TMPD/mc"

# one boot in B: no interval, not counted; then a row 5 points apart; run.txt
cell "$VL" download '.n = 1 | .sd = null' >"$TMPD/r2b/matrix.json"
mc "$D" "$TMPD/r2b"
check "matrix-compare: a cell of one boot, exit status 0 (got $rc)" test "$rc" -eq 0
check "matrix-compare: its row has no interval" grep -q \
	'^| vanilla · global 0 · br-lan | download | +10.18% \[+9.44, +10.92\] | +10.18% (n/a) | +0.00 (n/a) | n/a |$' \
	"$TMPD/mc"
jq '(.rows[] | select(.baseline)) as $b | (.rows[] | select(.key | test("local=br-lan")) |
	.cells[] | select(.workload == "pps64" and .direction == "upload")) |=
	(.mean += 0.05 * ($b.cells[] | select(.workload == "pps64" and
	.direction == "upload")).mean)' "$D/matrix.json" >"$TMPD/r2b/matrix.json"
sed 's/boots=3/boots=3 verify=before/' "$D/run.txt" >"$TMPD/r2b/run.txt"
mc "$D" "$TMPD/r2b"
check "matrix-compare: a change 5 points apart, exit status 1 (got $rc)" test "$rc" -eq 1
check "matrix-compare: that row says no" \
	grep -q '^| vanilla · global 0 · br-lan | upload | .* | +5.00 \[+4\.[0-9]*, +5\.[0-9]*\] | no |$' "$TMPD/mc"
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
# committed 6.12 x86_64 one, rendered here as it was first published, with the boots'
# estimator); a matrix without them is an error naming the row
R3=$TMPD/2026-12-01-6.12-icount-3
cp -r "$TOPDIR/results/2026-12-01-6.12-icount-3" "$R3"
check "the seed's matrix rendered again with the boots' estimator" sh -c \
	"'$BRNF' render '$R3' --estimator boots >/dev/null"
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
check "seed-compare: a run rendered with the boots' estimator has 95% intervals" \
	grep -q '^95% interval in brackets' "$TMPD/sc"
# one rendered with the floor estimator: its brackets are the floor's bound, said so
RF=$TOPDIR/results/2026-12-05-6.12-icount-2
check "seed-compare: the floor estimator's run is named as a resolution bound" sh -c \
	"sh '$S/seed-compare' --workload pps64 '$R3' '$RF' | grep -q '^In brackets the run.s interval: for 2026-12-05-6.12-icount-2 the floor.s change ± one level, a resolution\$'"
sh "$S/seed-compare" --workload pps64 "$D" >/dev/null 2>"$TMPD/err" && rc=0 || rc=$?
check "seed-compare: a matrix without the seed's rows, exit status 2 (got $rc)" test "$rc" -eq 2
check "and one line naming the file and the row" sh -c "test \$(wc -l <'$TMPD/err') -eq 1 &&
	grep -q 'r2/matrix.json: no pps64 row label=default global=0 local=-' '$TMPD/err'"

# headline: the figure and the short table of the runs a sources file names (here the
# fixture twice: its absolute path, and with a note)
mkdir -p "$TMPD/summary"
printf '# a comment\n%s\n%s a note\n' "$D" "$D" >"$TMPD/summary/sources"
check "headline" sh "$S/headline" "$TMPD/summary"
check "headline: an SVG" grep -q '^<svg' "$TMPD/summary/headline.svg"
check "headline: a PNG" sh -c "head -c 4 '$TMPD/summary/headline.png' | od -An -c | grep -q 'P   N   G'"
check "headline: the title" grep -q ">br_netfilter's cost per 64-byte packet against a kernel without it (nobrnf)<" \
	"$TMPD/summary/headline.svg"
check "headline: a group names series, CPU and run" \
	grep -q '>6.12 · x86_64 -cpu max · r2 ²<' "$TMPD/summary/headline.svg"
check "headline: vanilla in its colour" grep -q 'rgb(213,  94,   0)' "$TMPD/summary/headline.svg"
check "headline: the short table, idle cost of vanilla as matrix.md prints it" \
	grep -q '^| 6.12, x86_64 ¹ | vanilla | +2.5% \[+1.9, +3.0\] | +2.5% \[+2.3, +2.7\] | - | - |$' \
	"$TMPD/summary/summary.md"
check "and matrix.md has that change" grep -q '| +2.5% \[+1.9, +3.0\] ' "$D/matrix.md"
check "headline: a run's note under the table" grep -q '^- ² \[.*r2\](\.\./r2/README.md): x86_64 -cpu max; a note; ' \
	"$TMPD/summary/summary.md"
check "headline: a run measured another way is marked" grep -q \
	"^- ¹ .*: x86_64 -cpu max; a boot's value is the mean of its 2 runs, not the best of three test beds; 50000 frames per pps run\.$" \
	"$TMPD/summary/summary.md"
cp "$TMPD/summary/headline.svg" "$TMPD/h1"
sh "$S/headline" "$TMPD/summary"
check "headline again: the same SVG" cmp -s "$TMPD/h1" "$TMPD/summary/headline.svg"
# a run of NAME+x kernels against nobrnf+x (kernel-build's +distro, +openwrt): drawn
# under NAME, the same cells ($TMPD/sx: matrix-compare's renamed copy above)
mkdir -p "$TMPD/sxsum"
printf '%s\n' "$TMPD/sx" >"$TMPD/sxsum/sources"
check "headline of a run against nobrnf+x" sh "$S/headline" "$TMPD/sxsum"
check "headline against nobrnf+x: vanilla+x drawn as vanilla, the same cell" \
	grep -q '^| 6.12, x86_64 ¹ | vanilla | +2.5% \[+1.9, +3.0\] | +2.5% \[+2.3, +2.7\] | - | - |$' \
	"$TMPD/sxsum/summary.md"
jq '(.rows[] | select(.baseline) | .kernel) = "vanilla"' "$TMPD/sx/matrix.json" >"$TMPD/sxb.json"
mv "$TMPD/sxb.json" "$TMPD/sx/matrix.json"
check "headline: a baseline other than nobrnf[+EXTRA] is an error naming it" sh -c \
	"! sh '$S/headline' '$TMPD/sxsum' 2>'$TMPD/err' && grep -q 'the baseline row is vanilla, not nobrnf' '$TMPD/err'"
printf '%s\n' "$TMPD/nothing" >"$TMPD/summary/sources"
check "headline: a source without matrix.json is an error naming it" \
	sh -c "! sh '$S/headline' '$TMPD/summary' 2>'$TMPD/err' && grep -q 'nothing/matrix.json: not found' '$TMPD/err'"

# readme-results into a README of our own
printf '# x\n\n<!-- summary:begin -->\nold\n<!-- summary:end -->\n\ntext\n\n<!-- results:begin -->\nold\n<!-- results:end -->\nend\n' \
	>"$TMPD/README.md"
check "readme-results" sh -c "BRNF_README='$TMPD/README.md' sh '$S/readme-results' \
	--summary '$TMPD/summary' '$D' '$TMPD/r1'"
check "the summary block: the headline figure, relative to the README" \
	grep -qx '!\[the headline figure: summary/headline.svg\](summary/headline.svg)' "$TMPD/README.md"
check "the summary block: the short table" grep -q '^| 6.12, x86_64 ¹ | vanilla | +2.5% ' "$TMPD/README.md"
check "the summary block: its links relative to the README" grep -q '](r2/README.md)' "$TMPD/README.md"
check "the full tables, one per workload" sh -c "grep -c '^#### ' '$TMPD/README.md' | grep -qx 3"
check "the text around the blocks is kept" sh -c "grep -qx text '$TMPD/README.md' && grep -qx end '$TMPD/README.md'"
check "the old blocks are gone" sh -c "! grep -qx old '$TMPD/README.md'"
printf '# x\n\n<!-- summary:begin -->\nold\n<!-- summary:end -->\n' >"$TMPD/README3.md"
check "readme-results --summary alone: no results markers needed" sh -c \
	"BRNF_README='$TMPD/README3.md' sh '$S/readme-results' --summary '$TMPD/summary' && ! grep -qx old '$TMPD/README3.md'"
printf '# x\n' >"$TMPD/README2.md"
check "readme-results: a README without markers is an error" \
	sh -c "! BRNF_README='$TMPD/README2.md' sh '$S/readme-results' '$D' 2>'$TMPD/err'"
check "and says which" grep -q "no <!-- results:begin --> / <!-- results:end --> markers" "$TMPD/err"
