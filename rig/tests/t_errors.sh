#!/bin/sh
# Errors are one line and a non-zero exit: bad matrix file (FILE:LINE), unknown
# command, bad option, not root, a second concurrent run.
set -eu
. "$(dirname "$0")/lib.sh"

printf 'global=0 local=-\nglobal=2 local=br-lan\n' > "$TMPD/bad.matrix"
set +e
"$BRNF" run --matrix "$TMPD/bad.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/res" > "$TMPD/out" 2> "$TMPD/err"
rc=$?
set -e
check "bad matrix file: exit status != 0" test "$rc" -ne 0
check "bad matrix file: error names FILE:LINE" grep -q "bad.matrix:2:" "$TMPD/err"
check "bad matrix file: one line" test "$(wc -l < "$TMPD/err")" -eq 1
check "bad matrix file: nothing created" sh -c "! ls -d '$TMPD'/res* 2>/dev/null"
check "bad matrix file: no namespaces" no_brnf_netns

set +e
"$BRNF" frobnicate 2> "$TMPD/err"; rc=$?
set -e
check "unknown command: exit 2" test "$rc" -eq 2
check "unknown command: says so" grep -q 'Object "frobnicate" is unknown, try "brnf help"' "$TMPD/err"

set +e
"$BRNF" run --flows zero 2> "$TMPD/err"; rc=$?
set -e
check "bad option value: exit 2" test "$rc" -eq 2
one_line "bad option value: one line naming the option, the value and what it wants" \
	"$TMPD/err" '^brnf: option "--flows": "zero" is wrong (--flows N: parallel iperf3 flows'

printf 'global=0 local=-\n' > "$TMPD/jn.matrix"
set +e
"$BRNF" run --json --no-render --matrix "$TMPD/jn.matrix" --time 1 --omit 0 --reps 1 \
	--flows 1 --out "$TMPD/jn" > /dev/null 2> "$TMPD/err"; rc=$?
set -e
check "--json with --no-render: exit 2, one line, nothing run" sh -c "[ $rc -eq 2 ] &&
	grep -q -- '--json: not with --no-render' '$TMPD/err' && [ \$(wc -l < '$TMPD/err') -eq 1 ] &&
	[ ! -e '$TMPD/jn' ]"

if command -v setpriv >/dev/null; then
	set +e
	as_nobody "$(for_nobody "$BRNF")" run 2> "$TMPD/err"; rc=$?
	set -e
	check "not root: exit 1 with a message" sh -c "[ $rc -eq 1 ] && grep -q 'needs root' '$TMPD/err'"
fi

# A kernel without flowtables (CONFIG_NF_FLOW_TABLE unset), whatever this one has: an nft
# on PATH that refuses a transaction with a flowtable as nft does on such a kernel
# (EOPNOTSUPP, at the flowtable's line of its input) and is the real nft otherwise.
# brnf must name the ruleset, its file and line and the option it needs, exit 1, and
# leave nothing behind.
mkdir "$TMPD/noft"
cat > "$TMPD/noft/nft" <<EOS
#!/bin/sh
in=\$(cat)
line=\$(printf '%s\\n' "\$in" | grep -n '^[[:space:]]*flowtable ' | head -n 1 | cut -d: -f1)
if [ -n "\$line" ]; then
	echo "\$2:\$line:2-10: Error: Could not process rule: Operation not supported" >&2
	exit 1
fi
printf '%s\\n' "\$in" | exec $(command -v nft) "\$@"
EOS
chmod +x "$TMPD/noft/nft"
n=$(grep -n '^[[:space:]]*flowtable ' "$TOPDIR/rig/rulesets/openwrt-flowtable.nft" | head -n 1 |
	cut -d: -f1)
printf 'ruleset=openwrt-flowtable\n' > "$TMPD/ft.matrix"
run_rc env PATH="$TMPD/noft:$PATH" "$BRNF" run --matrix "$TMPD/ft.matrix" --workloads tcp \
	--time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/ft" 2> "$TMPD/err"
check "ruleset a kernel without flowtables cannot load: exit 1" test "$rc" -eq 1
one_line "ruleset a kernel without flowtables cannot load: one line naming it, its line $n and CONFIG_NF_FLOW_TABLE" \
	"$TMPD/err" "ruleset openwrt-flowtable (.*/openwrt-flowtable.nft) does not load on this kernel (flowtables need CONFIG_NF_FLOW_TABLE.*/openwrt-flowtable.nft:$n:.*Operation not supported"
check "ruleset a kernel without flowtables cannot load: nothing left" \
	sh -c "! ls /run/netns 2>/dev/null | grep -q '^brnf[0-9]' && ! ls -d '$TMPD'/ft.tmp.* '$TMPD'/ft 2>/dev/null"

# A ruleset this kernel refuses (a nat chain on the forward hook: EOPNOTSUPP when the
# transaction is committed, not when nft parses it), from a copy of the data directory:
# one line naming the ruleset and the file's own line, exit 1, nothing left.
mkdir "$TMPD/data"
cp -r "$TOPDIR/rig/rulesets" "$TOPDIR/rig/rigs" "$TOPDIR/rig/matrices" "$TMPD/data/"
n=$(wc -l < "$TMPD/data/rulesets/openwrt.nft")
printf 'table ip brnf_refused {\n\tchain c {\n\t\ttype nat hook forward priority 0;\n\t}\n}\n' \
	>> "$TMPD/data/rulesets/openwrt.nft"
printf 'ruleset=openwrt\n' > "$TMPD/refused.matrix"
run_rc env BRNF_DATADIR="$TMPD/data" "$BRNF" run --matrix "$TMPD/refused.matrix" --workloads tcp \
	--time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/rf" 2> "$TMPD/err"
check "ruleset the kernel refuses: exit 1" test "$rc" -eq 1
one_line "ruleset the kernel refuses: one line naming the file and its line $((n + 2))" \
	"$TMPD/err" "ruleset openwrt (.*/openwrt.nft) does not load on this kernel .*/openwrt.nft:$((n + 2)):.*Operation not supported"
check "ruleset the kernel refuses: cleaned up" sh -c "no_ns() { ! ls /run/netns 2>/dev/null | grep -q '^brnf[0-9]'; }; no_ns && ! ls -d '$TMPD'/rf.tmp.* '$TMPD'/rf 2>/dev/null"

# A failing flow (iperf3 client error JSON, exit 1) and a missing iperf3:
# stand-ins on PATH, the real nft/iptables next to them.
mkdir -p "$TMPD/noiperf"
failing_iperf3 "$TMPD/bin"
printf 'global=0 local=-\n' > "$TMPD/one.matrix"
set +e
PATH="$TMPD/bin:$PATH" "$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 \
	--flows 1 --out "$TMPD/ff" > /dev/null 2> "$TMPD/err"
rc=$?
set -e
check "failed flow: exit 1" test "$rc" -eq 1
check "failed flow: one line naming the flow and iperf3's error" \
	grep -q 'flow 0 (download, port 5201) failed: .*unable to connect' "$TMPD/err"
check "failed flow: cleaned up" sh -c "no_ns() { ! ls /run/netns 2>/dev/null | grep -q '^brnf[0-9]'; }; no_ns && ! ls -d '$TMPD'/ff* 2>/dev/null"

# A flow that fails after two measured runs (the third client start): the error, exit 1,
# and the two runs before it kept (hours of them on a real matrix), the failed one not;
# provenance.json says why the part is incomplete, and it renders.
failing_iperf3 "$TMPD/bin3" 3
run_rc env PATH="$TMPD/bin3:$PATH" "$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp \
	--time 1 --omit 0 --reps 2 --flows 1 --out "$TMPD/kept" --no-render > /dev/null 2> "$TMPD/err"
check "flow failing at run 3: exit 1" test "$rc" -eq 1
check "flow failing at run 3: the error names the flow" \
	grep -q 'flow 0 (download, port 5201) failed: .*unable to connect' "$TMPD/err"
check "flow failing at run 3: says the 2 runs before it are kept" \
	grep -q "the 2 runs before it are kept in $TMPD/kept " "$TMPD/err"
check "flow failing at run 3: 2 measured runs kept, the failed one not" \
	test "$(ls "$TMPD/kept/raw/running/runs" | tr '\n' ' ')" = "0000-tcp-download 0001-tcp-upload "
check "flow failing at run 3: provenance.json says why it is incomplete" \
	test "$(jq -r '(.incomplete | startswith("run 2 failed: ")), .runs' \
		"$TMPD/kept/raw/running/provenance.json" | tr '\n' ' ')" = "true 2 "
check "flow failing at run 3: the part renders (no verification pass: missing)" \
	sh -c "'$BRNF' render '$TMPD/kept' > /dev/null && test -s '$TMPD/kept/matrix.md'"
check "flow failing at run 3: no namespaces left" no_brnf_netns

for t in nft iptables iptables-restore ip6tables; do
	ln -sf "$(command -v $t)" "$TMPD/noiperf/$t"
done
set +e
PATH="$TMPD/noiperf" "$BRNF" run --matrix "$TMPD/one.matrix" --out "$TMPD/ni" 2> "$TMPD/err"
rc=$?
set -e
check "iperf3 missing: exit 1 with one line" sh -c "[ $rc -eq 1 ] && [ \$(wc -l < '$TMPD/err') -eq 1 ] && grep -q 'iperf3 not found' '$TMPD/err'"

# matrix-kernels (scripts/ab-matrix): kernels in order, row counts, FILE:LINE errors.
run_rc "$BRNF" matrix-kernels "$TOPDIR/rig/matrices/ab.matrix" > "$TMPD/out"
check "matrix-kernels lists the kernels of ab.matrix (exit 0)" \
	test "$rc $(tr '\n' ' ' < "$TMPD/out")" = "0 nobrnf legacy vanilla bypass ondemand "
run_rc "$BRNF" matrix-kernels --rows-of vanilla "$TOPDIR/rig/matrices/ab.matrix" > "$TMPD/out"
check "matrix-kernels --rows-of (exit 0)" test "$rc $(cat "$TMPD/out")" = "0 3"
set +e
"$BRNF" matrix-kernels "$TMPD/bad.matrix" 2> "$TMPD/err"; rc=$?
set -e
check "matrix-kernels on a bad file: FILE:LINE and exit 1" \
	sh -c "[ $rc -eq 1 ] && grep -q 'bad.matrix:2:' '$TMPD/err'"
