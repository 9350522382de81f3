#!/bin/sh
# The documentation a reader meets: every relative link and image of the READMEs and
# docs/ leads to a file that exists; the top-level README stays short, leads with the
# recommendation, the headline and the apply commands, keeps its two commands first,
# defines the terms its table uses, and shows the headline figure and short table
# exactly as scripts/readme-results writes them from results/summary; every cell of
# that table is the one its run's matrix.md prints; every results directory has a
# README with a fenced reproduce block. No network, no root needed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool awk grep sed cmp
R=$TOPDIR/README.md

# ---- links ------------------------------------------------------------------------
# FILE: every [text](target) and ![alt](target) whose target is relative (no scheme, not
# an anchor alone), with the line it is on; code spans and fenced blocks left out
links() {
	awk '
		/^```/ { fence = !fence; next }
		fence { next }
		{
			line = $0
			gsub(/`[^`]*`/, "", line)
			while (match(line, /\]\([^) ]+\)/)) {
				t = substr(line, RSTART + 2, RLENGTH - 3)
				line = substr(line, RSTART + RLENGTH)
				if (t ~ /^[a-z]+:/ || t ~ /^#/) continue
				sub(/#.*/, "", t)
				print FNR "\t" t
			}
		}' "$1"
}
docs=$(cd "$TOPDIR" && ls README.md docs/*.md patches/README.md rig/README.md \
	rig/profile/README.md kernel/README.md results/README.md results/*/README.md \
	results/summary/summary.md)
n=0 bad=
for f in $docs; do
	d=$(dirname "$TOPDIR/$f")
	while IFS='	' read -r line t; do
		n=$((n + 1))
		[ -e "$d/$t" ] || bad="$bad $f:$line:$t"
	done <<EOF
$(links "$TOPDIR/$f")
EOF
done
check "$n relative links and images in $(echo "$docs" | wc -l) documents lead to files${bad:+ (not:$bad)}" \
	test -z "$bad"

# ---- the README's first screen ----------------------------------------------------
lines=$(wc -l <"$R")
check "README.md has at most 250 lines ($lines)" test "$lines" -le 250
head -n 50 "$R" >"$TMPD/first"
for w in 'make apply' 'make openwrt' 'make upstream' 'ondemand' 'patches/7.2/ondemand' \
	'patches/6.12/ondemand' 'patches/6.1/ondemand' 'OpenWrt 25.12' \
	'ns\|nanoseconds per packet' '-icount' 'shift=0,sleep=off' 'one vCPU' \
	'No real'; do
	check "README's first 50 lines: '$w'" grep -q -e "$w" "$TMPD/first"
done
# the headline's figures are cells of the runs it names: ondemand's and vanilla's
# everything-off pps64 download (NAME or NAME+distro), each from the first run named that
# has the row, as that run's matrix.md prints them
for k in ondemand vanilla; do
	cell= hrun=
	for r in $(grep -o 'results/20[0-9][0-9]-[0-9a-z.-]*/README.md' "$TMPD/first"); do
		cell=$(awk -F '|' -v k="$k" '$2 ~ "^ *" k "(\\+distro)?( |$)" && $3 ~ /^ *0 *$/ &&
			$4 ~ /^ *- *$/ { gsub(/^ +| +$/, "", $6); print $6; exit }' \
			"$TOPDIR/${r%README.md}matrix.md" 2>/dev/null)
		hrun=$r
		[ -z "$cell" ] || break
	done
	check "README's headline: $k's idle download cell of ${hrun%/README.md} (${cell:-none})" \
		sh -c "[ -n '$cell' ] && tr '\n' ' ' <'$TMPD/first' | sed 's/  */ /g' | grep -qF -- '$cell'"
done
awk '/^```/ { if (f) exit; f = 1; next } f' "$R" >"$TMPD/cmds"
# (make -C DIR: they work from any directory)
check "README's first commands: make matrix, then make test" sh -c \
	"[ \"\$(sed 's/^make -C [^ ]* /make /' '$TMPD/cmds' | cut -d' ' -f1-2 | tr '\n' '|')\" = 'make matrix|make test|' ]"
check "README: the section on one bridge's filtering making every bridge pay" \
	grep -q '^## Cost follows the bridge' "$R"

# ---- every interval figure ("+0.09% [+0.01, +0.17]") in the READMEs, the docs and the
# cover letter's figures is a cell of a committed results table, not typed
for f in "$R" "$TOPDIR"/patches/README.md "$TOPDIR"/rig/README.md "$TOPDIR"/docs/*.md \
	"$TOPDIR"/patches/7.2/ondemand/measured; do
	[ -f "$f" ] || continue
	miss=$(grep -o '[+-][0-9]*\.[0-9]*% \[[+-][0-9.]*, [+-][0-9.]*\]' "$f" | sort -u |
		while read -r x; do
			cat "$TOPDIR"/results/*/matrix.md "$TOPDIR"/results/summary/*.md \
				"$TOPDIR"/results/*/make-matrix.log 2>/dev/null | grep -qF -- "$x" ||
				echo "$x"
		done)
	check "${f#$TOPDIR/}: every interval figure is a committed results cell${miss:+ (not: $miss)}" \
		test -z "$miss"
done

# ---- the glossary defines the terms the table and the README use -------------------
awk '/^## Glossary/ { g = 1; next } g && /^## / { exit } g' "$R" >"$TMPD/glossary"
for t in nobrnf vanilla legacy bypass ondemand ondemand-m perbridge idle 'everything off' \
	filtering global local pps64 pps1514 tcp download upload 'test bed' boot interval \
	icount seed indistinguishable; do
	check "glossary: $t" grep -q "\*\*$t\*\*\|\`$t\`" "$TMPD/glossary"
done

# ---- the summary block is what readme-results writes from results/summary ----------
# (a copy of the README beside a link to results/, so that its links resolve alike)
mkdir -p "$TMPD/top"
cp "$R" "$TMPD/top/README.md"
ln -s "$TOPDIR/results" "$TMPD/top/results"
BRNF_README="$TMPD/top/README.md" sh "$TOPDIR/scripts/readme-results" \
	--summary "$TMPD/top/results/summary" 2>"$TMPD/err" || true
check "README's figure and table are results/summary's (scripts/readme-results)" \
	cmp -s "$R" "$TMPD/top/README.md"
check "README embeds the headline SVG" \
	grep -q '^!\[.*\](results/summary/headline.svg)$' "$R"

# ---- every cell of the short table is its run's matrix.md cell ---------------------
# the run of each mark, from the notes under the table
S=$TOPDIR/results/summary/summary.md
sed -n 's/^- \([¹²³⁴⁵⁶⁷⁸⁹]\) \[\([^]]*\)\].*/\1\t\2/p' "$S" >"$TMPD/marks"
# matrix.md's pps64 table: kernel (without label), global, local, Δ download, Δ upload
pps64() {
	awk -F '|' '
		/^## pps64/ { t = 1; next } t && /^## / { exit }
		# (a floor-rendered table says "Δ download vs baseline (floor ± S + w)")
		t && /^\| kernel/ { for (i = 2; i <= NF; i++) { h = $i; gsub(/^ +| +$/, "", h)
			sub(/ \(floor .*/, "", h); col[h] = i }; next }
		t && /^\| / && !/^\|:/ {
			k = $2; sub(/ \(.*/, "", k); gsub(/^ +| +$/, "", k)
			g = $3; gsub(/ /, "", g); l = $4; gsub(/^ +| +$/, "", l)
			d = $(col["Δ download vs baseline"]); u = $(col["Δ upload vs baseline"])
			gsub(/^ +| +$/, "", d); gsub(/^ +| +$/, "", u)
			print k "\t" g "\t" l "\t" d "\t" u
		}' "$1"
}
n=0 bad=
while IFS='|' read -r _ run kern idl idu fd fu _; do
	mark=$(echo "$run" | awk '{ print $NF }')
	kern=$(echo "$kern" | sed 's/^ *//; s/ *$//')
	src=$(awk -F '\t' -v m="$mark" '$1 == m { print $2 }' "$TMPD/marks")
	[ -n "$src" ] || { bad="$bad $kern:no-run"; continue; }
	pps64 "$TOPDIR/$src/matrix.md" >"$TMPD/pps64"
	# a run against nobrnf+EXTRA shows its NAME+EXTRA kernels as NAME (scripts/headline)
	base=$(awk -F '\t' '$4 == "baseline" { print $1; exit }' "$TMPD/pps64")
	kern="$kern${base#nobrnf}"
	want=$(awk -F '\t' -v k="$kern" '$1 == k && $2 == "0" && $3 == "-" { print $4 "|" $5 }' "$TMPD/pps64")
	fl=-
	case $fd in *⁰*) fl='br-lan br-wlan' fg=0 ;; *) fg=1 ;; esac
	fwant=$(awk -F '\t' -v k="$kern" -v g="$fg" -v l="$fl" \
		'$1 == k && $2 == g && $3 == (g == "1" ? "-" : l) { print $4 "|" $5 }' "$TMPD/pps64")
	trim() { echo "$1" | sed 's/ ⁰//; s/^ *//; s/ *$//'; }
	got="$(trim "$idl")|$(trim "$idu")"
	fgot="$(trim "$fd")|$(trim "$fu")"
	n=$((n + 1))
	[ "$got" = "$want" ] || bad="$bad $src:$kern:idle"
	[ "$fgot" = "-|-" ] || [ "$fgot" = "$fwant" ] || bad="$bad $src:$kern:filtering"
done <<EOF
$(grep '^| [0-9]' "$S")
EOF
check "the short table's $n rows are their runs' matrix.md cells${bad:+ (not:$bad)}" \
	sh -c "[ $n -gt 0 ] && [ -z '$bad' ]"

# ---- every results directory: a README with a fenced reproduce block -----------------
bad=
for d in "$TOPDIR"/results/*/; do
	f=$d/README.md
	[ -r "$f" ] && awk '/^## Reproduce/ { r = 1 } r && /^```/ { found = 1 } END { exit !found }' "$f" ||
		bad="$bad $(basename "$d")"
done
check "every results directory has a README with a fenced Reproduce block${bad:+ (not:$bad)}" \
	test -z "$bad"
check "results/README.md indexes every results directory" sh -c '
	for d in "$1"/results/*/; do
		grep -q "](\($(basename "$d")\)/README.md)" "$1/results/README.md" || { echo "$d"; exit 1; }
	done' _ "$TOPDIR"
