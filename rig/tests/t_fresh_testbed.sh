#!/bin/sh
# --fresh-testbed: each repetition after the first runs on the namespace test bed built
# anew. A watcher reads the AP namespace's identity while the run goes on (the inode of
# its nsfs file and when that was made: inode numbers are reused): three repetitions
# are three namespaces. Between its creation and the bind mount, and between umount
# and unlink, /run/netns/<name> is an empty file on /run's own file system; the watcher
# may catch it there (CI once saw 4), so only what sits on another device (nsfs)
# counts. Every repetition is recorded, the verification pass runs once, nothing is
# left behind. With a rig file the option is refused before anything is made. With
# --order rows every repetition of a row comes before the next row, each on its own
# test bed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq stat

rundev=$(stat -c %d /run)
# the identities of brnf run $1's AP namespace while it runs, into $2; then its exit status in rc
watch_ap() {
	: >"$2"
	_p=$(prefix_of "$1") || true
	while kill -0 "$1" 2>/dev/null; do
		stat -L -c "%d %i %z" "/run/netns/$_p-ap" >>"$2" 2>/dev/null || true
		sleep 0.1
	done
	rc=0
	wait "$1" || rc=$?
}

printf 'kernel=running global=0\n' >"$TMPD/one.matrix"
OUT="$TMPD/res"
"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --time 1 --omit 0 --flows 1 \
	--reps 3 --fresh-testbed --out "$OUT" >"$TMPD/out" 2>"$TMPD/err" &
watch_ap $! "$TMPD/inodes"
check "brnf run --reps 3 --fresh-testbed exits 0 (it was $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err"
n=$(grep -v "^$rundev " "$TMPD/inodes" | sort -u | wc -l)
check "the AP namespace was made three times ($n distinct namespaces seen)" test "$n" -eq 3
check "6 measured runs (1 row x 2 directions x 3 reps)" \
	test "$(measured_runs "$OUT" | wc -l)" -eq 6
check "reps 1, 2 and 3 recorded" test "$(jq -r .repetition \
	"$OUT"/raw/running/runs/*-tcp-*/record.json | sort -u | tr '\n' ' ')" = "1 2 3 "
check "one verification pass (on the last test bed)" test "$(verify_records "$OUT" | wc -l)" -eq 1
check "its filtering verified" test "$(verdicts "$OUT")" = yes
check "provenance says fresh_testbed" \
	test "$(jq -r .params.fresh_testbed "$OUT/raw/running/provenance.json")" = true
check "no namespaces left" no_brnf_netns
check "lock released" lock_free

# --order rows: two rows, two repetitions: row 1's both, then row 2's, four test beds.
printf 'kernel=running global=0\nkernel=running global=0 local=br-lan\n' >"$TMPD/two.matrix"
"$BRNF" run --matrix "$TMPD/two.matrix" --workloads tcp --time 1 --omit 0 --flows 1 \
	--reps 2 --fresh-testbed --order rows --out "$TMPD/res5" >"$TMPD/out5" 2>"$TMPD/err5" &
watch_ap $! "$TMPD/inodes5"
check "--order rows --reps 2 --fresh-testbed, two rows: exit 0 (it was $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err5"
order=$(for d in $(measured_runs "$TMPD/res5"); do
	jq -r '"\(.row.index):\(.repetition)"' "$d/record.json"
done | tr '\n' ' ')
check "--order rows: runs in the order row:rep 0:1 0:1 0:2 0:2 1:1 1:1 1:2 1:2 (got $order)" \
	test "$order" = "0:1 0:1 0:2 0:2 1:1 1:1 1:2 1:2 "
n=$(grep -v "^$rundev " "$TMPD/inodes5" | sort -u | wc -l)
check "--order rows: the AP namespace was made four times ($n distinct namespaces seen)" test "$n" -eq 4
check "--order rows: one verification pass per row" test "$(verify_records "$TMPD/res5" | wc -l)" -eq 2
check "--order rows: provenance says so" test "$(jq -r .params.order \
	"$TMPD/res5/raw/running/provenance.json")" = \
	"for row: for rep: for workload: for direction (by row); then a verification pass per row"
check "--order rows: verified" test "$(verdicts "$TMPD/res5")" = yes
rc=0
"$BRNF" run --matrix "$TMPD/one.matrix" --order sideways --out "$TMPD/res6" >/dev/null \
	2>"$TMPD/err6" || rc=$?
check "--order sideways: exit 2, one line naming the option, no results directory (it was $rc)" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMPD/err6') -eq 1 ] &&
		grep -q -- '--order' '$TMPD/err6' && [ ! -e '$TMPD/res6' ]"
rc=0
sh "$TOPDIR/scripts/ab-matrix" --order sideways --out "$TMPD/res7" >/dev/null 2>"$TMPD/err7" || rc=$?
check "ab-matrix --order sideways: exit 1, one line naming the option, no results directory (it was $rc)" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMPD/err7') -eq 1 ] &&
		grep -q -- '--order must be rows or reps' '$TMPD/err7' && [ ! -e '$TMPD/res7' ]"
check "no namespaces left" no_brnf_netns

# A rig file's hosts are not brnf's to rebuild.
rc=0
"$BRNF" run --matrix "$TMPD/one.matrix" --rig "$TOPDIR/rig/rigs/openwrt-example.rig" --fresh-testbed \
	--out "$TMPD/res2" >"$TMPD/out2" 2>"$TMPD/err2" || rc=$?
check "--fresh-testbed with a rig file: exit 2 (it was $rc)" test "$rc" -eq 2
check "--fresh-testbed with a rig file: one line naming the option" \
	sh -c "[ \$(wc -l <'$TMPD/err2') -eq 1 ] && grep -q -- '--fresh-testbed: only for the namespace test bed' '$TMPD/err2'"
check "--fresh-testbed with a rig file: no results directory" test ! -e "$TMPD/res2"

# --repeat-workloads: repetitions 2..R measure only the workloads given; the others run once.
rc=0
"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp-bytes,tcp --bytes 1000000 --time 1 \
	--omit 0 --flows 1 --reps 2 --repeat-workloads tcp-bytes --fresh-testbed --out "$TMPD/res3" \
	>"$TMPD/out3" 2>"$TMPD/err3" || rc=$?
check "--repeat-workloads tcp-bytes --reps 2: exit 0 (it was $rc)" test "$rc" -eq 0
check "--repeat-workloads tcp-bytes: tcp-bytes in repetitions 1 and 2" test "$(jq -r .repetition \
	"$TMPD"/res3/raw/running/runs/*-tcp-bytes-*/record.json | sort | tr '\n' ' ')" = "1 1 2 2 "
check "--repeat-workloads tcp-bytes: tcp in repetition 1 only, both directions" test "$(jq -r .repetition \
	"$TMPD"/res3/raw/running/runs/*-tcp-download/record.json \
	"$TMPD"/res3/raw/running/runs/*-tcp-upload/record.json | tr '\n' ' ')" = "1 1 "
check "--repeat-workloads: provenance lists the repeated workloads" test "$(jq -c \
	.params.repeat_workloads "$TMPD/res3/raw/running/provenance.json")" = '["tcp-bytes"]'
for bad in "pps64" "nonsense"; do
	rc=0
	"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --repeat-workloads "$bad" \
		--out "$TMPD/res4" >/dev/null 2>"$TMPD/err4" || rc=$?
	check "--repeat-workloads $bad with --workloads tcp: exit 2, one line, no results directory (it was $rc)" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMPD/err4') -eq 1 ] &&
			grep -q -- '--repeat-workloads' '$TMPD/err4' && [ ! -e '$TMPD/res4' ]"
done
check "no namespaces left" no_brnf_netns
