#!/bin/sh
# scripts/profile-levels over a profiled run made here: a window that paid more than
# the boot's floor of the same row, workload and direction is listed with the functions
# that paid it, per packet; windows of another row or direction are never each other's
# floor; the per-kernel counts add up; a directory without run.txt, or whose windows
# and pps runs do not match, is one line and exit status 1. No root needed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq awk
PL=$TOPDIR/scripts/profile-levels
D=$TMPD/run

# run KERNEL-BOOT N ROW WORKLOAD DIRECTION: runs/N-WORKLOAD-DIRECTION/record.json
run() {
	mkdir -p "$D/raw/$1/runs/$2-$4-$5"
	printf '{"schema": 2, "kind": "measure", "workload": "%s", "direction": "%s", "row": {"index": %s}}\n' \
		"$4" "$5" "$3" >"$D/raw/$1/runs/$2-$4-$5/record.json"
}
# window N MEMCMP ROUTE: one window of 100 packets, MEMCMP and ROUTE instructions in
# two functions, 1000 in pktgen_xmit
window() {
	echo "window $1 $(($2 + $3 + 1000))"
	echo "1000 pktgen_xmit"
	[ "$2" = 0 ] || echo "$2 memcmp"
	[ "$3" = 0 ] || echo "$3 ip_finish_output2"
	echo "end $1"
}

mkdir -p "$D"
echo 'arch=x86_64 series=6.12 clock=icount' >"$D/run.txt"
echo 'workloads=pps64 packets=100 bytes=1 reps=2' >>"$D/run.txt"
# nobrnf boot 1: row 0 download twice (the second 6.4 per packet above the first),
# row 0 upload twice (equal), row 1 download once at 40 per packet more than row 0's
# floor (another row: not raised)
run nobrnf-boot1 0000 0 pps64 download
run nobrnf-boot1 0001 0 pps64 upload
run nobrnf-boot1 0002 0 pps64 download
run nobrnf-boot1 0003 0 pps64 upload
run nobrnf-boot1 0004 1 pps64 download
mkdir -p "$D/raw/nobrnf-boot1/runs/0005-verify"
{
	echo "brnf-insn-profile 1"
	window 1 0 500
	window 2 100 500
	window 3 640 500
	window 4 100 500
	window 5 4000 500
	echo "summary windows 5 restarts 0 stray_ends 0"
} >"$D/raw/nobrnf-boot1/insn-profile.txt"
# vanilla boot 1: row 0 download twice, the first 5 per packet above the second
run vanilla-boot1 0000 0 pps64 download
run vanilla-boot1 0001 0 pps64 download
{
	echo "brnf-insn-profile 1"
	window 1 0 1000
	window 2 0 500
} >"$D/raw/vanilla-boot1/insn-profile.txt"

run_rc sh "$PL" "$D" >"$TMPD/out" 2>"$TMPD/err"
check "a profiled run: exit status 0 ($rc)" test "$rc" = 0
check "the raised download window against its floor, +6.40 per packet" \
	grep -qx 'nobrnf-boot1 window 3 (r0/pps64-download) against window 1: +6.40 instructions per packet' "$TMPD/out"
check "  and the function that paid it" grep -qx '       +6.40 memcmp' "$TMPD/out"
check "equal windows and another row's window are not raised" \
	test "$(grep -c '^nobrnf-boot1 window' "$TMPD/out")" = 1
check "the other kernel's raised window, in ip_finish_output2" \
	grep -qx 'vanilla-boot1 window 1 (r0/pps64-download) against window 2: +5.00 instructions per packet' "$TMPD/out"
check "raised windows per kernel: nobrnf 1 of 5" grep -qx '  nobrnf       1 of 5' "$TMPD/out"
check "raised windows per kernel: vanilla 1 of 2" grep -qx '  vanilla      1 of 2' "$TMPD/out"
check "per function, windows per kernel" \
	grep -qx '  memcmp                                   nobrnf=1 vanilla=0' "$TMPD/out"
check "the distances from the floor add up to every window" \
	grep -qx '  nobrnf       \[< 1\] 4 \[1-3\] 0 \[3-8\] 1 \[8-20\] 0 \[20-50\] 0 \[>= 50\] 0' "$TMPD/out"
sh "$PL" "$D" >"$TMPD/out2" 2>&1
check "the same raw data gives the same bytes" cmp -s "$TMPD/out" "$TMPD/out2"

rm "$D/run.txt"
run_rc sh "$PL" "$D" >"$TMPD/out" 2>"$TMPD/err"
check "no run.txt: exit status 1 ($rc)" test "$rc" = 1
one_line "no run.txt: one line naming the file" "$TMPD/err" "$D/run.txt: missing"
echo 'packets=100' >"$D/run.txt"
run vanilla-boot1 0002 0 pps64 upload
run_rc sh "$PL" "$D" >"$TMPD/out" 2>"$TMPD/err"
check "a pps run without its window: exit status 1 ($rc)" test "$rc" = 1
one_line "a pps run without its window: one line naming the profile" "$TMPD/err" \
	"vanilla-boot1/insn-profile.txt: windows and runs do not match"
exit "$FAILED"
