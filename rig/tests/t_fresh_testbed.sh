#!/bin/sh
# --fresh-testbed: each repetition after the first runs on the namespace test bed built
# anew. A watcher reads the AP namespace's identity while the run goes on (the inode of
# its nsfs file and when that was made: inode numbers are reused): three repetitions
# are three namespaces. Between its creation and the bind mount, and between umount
# and unlink, /run/netns/<name> is an empty file on /run's own file system; the watcher
# may catch it there (CI once saw 4), so only what sits on another device (nsfs)
# counts. Every repetition is recorded, the verification pass runs once, nothing is
# left behind. With a rig file the option is refused before anything is made.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq stat

printf 'kernel=running global=0\n' >"$TMPD/one.matrix"
OUT="$TMPD/res"
"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --time 1 --omit 0 --flows 1 \
	--reps 3 --fresh-testbed --out "$OUT" >"$TMPD/out" 2>"$TMPD/err" &
pid=$!
: >"$TMPD/inodes"
rundev=$(stat -c %d /run)
while kill -0 "$pid" 2>/dev/null; do
	stat -L -c "%d %i %z" "/run/netns/brnf$pid-ap" >>"$TMPD/inodes" 2>/dev/null || true
	sleep 0.1
done
rc=0
wait "$pid" || rc=$?
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
