#!/bin/sh
# A finish that fails keeps what was measured (rig/src/cmd_run.c, run_steps()): when
# provenance.json cannot be written (a full disk) or the results directory cannot be
# renamed into place, the runs stay in <out>.tmp.<pid>, one line says why and where,
# and brnf exits 1; the test bed and the lock go as always. The unwind used to remove
# them right after brnf had printed that they stay.
#
# The full disk is a tmpfs mounted in a mount namespace of the test's own (unshare -m,
# private: nothing reaches the host, and it goes when the namespace does). A first run
# on a roomy one counts the files a run writes; the second gets inodes for all of them
# but provenance.json, which is written last (a run's files are a fixed number, its
# bytes a few kB).
set -eu
. "$(dirname "$0")/lib.sh"
checktool unshare mount find jq

printf 'global=0 local=-\n' > "$TMPD/one.matrix"
# on_tmpfs NAME OPTS: a run of one.matrix (tcp, both directions, the verification
# pass: 3 runs) with --out on a tmpfs mounted with OPTS; its exit status in $rc, its
# stderr in $TMPD/err.NAME, the tmpfs's tree (find, sorted) in $TMPD/ls.NAME.
on_tmpfs() {
	mkdir "$TMPD/mnt.$1"
	run_rc unshare -m sh -c '
		mount -t tmpfs -o "$2" brnf-fulldisk "$1" || exit 99
		rc=0
		"$3" run --matrix "$4" --workloads tcp --time 1 --omit 0 --reps 1 --flows 1 \
			--out "$1/res" --no-render > /dev/null 2> "$5" || rc=$?
		(cd "$1" && find . | sort) > "$6"
		exit "$rc"' sh "$TMPD/mnt.$1" "$2" "$BRNF" "$TMPD/one.matrix" "$TMPD/err.$1" \
		"$TMPD/ls.$1"
}
# kept_runs LIST: how many runs of a tree LIST (on_tmpfs's) have their record.json in
# the temporary directory
kept_runs() {
	grep -c '^\./res\.tmp\.[0-9]*/raw/running/runs/000[0-2]-[a-z-]*/record\.json$' "$1"
}

on_tmpfs roomy size=4m
check "a run on a roomy tmpfs: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.roomy" | tail -5
check "a run on a roomy tmpfs: provenance.json written" \
	grep -qx './res/raw/running/provenance.json' "$TMPD/ls.roomy"
# every file and directory of it, the tmpfs's root among them, but provenance.json
inodes=$(($(wc -l < "$TMPD/ls.roomy") - 1))

on_tmpfs full "size=4m,nr_inodes=$inodes"
check "provenance.json on a full disk: exit 1" test "$rc" -eq 1
check "provenance.json on a full disk: the 3 runs kept, each with its record.json" \
	test "$(kept_runs "$TMPD/ls.full")" -eq 3
check "provenance.json on a full disk: no provenance.json, no final directory" \
	sh -c "! grep -q -e 'provenance.json\$' -e '^\./res\$' '$TMPD/ls.full'"
where="$TMPD/mnt.full/res.tmp.[0-9]*"
check "provenance.json on a full disk: one line says why and where they stay" \
	test "$(grep -c "^brnf: write $where/raw/running/provenance.json: No space left on device; the 3 runs stay in $where, not renamed into place\$" "$TMPD/err.full")" -eq 1
sed -n '/stay in/s/^/# /p' "$TMPD/err.full"
check "provenance.json on a full disk: no namespaces left" no_brnf_netns
check "provenance.json on a full disk: the lock is free" lock_free_within

# The rename: a directory made under --out's name while the run measures (rename(2)
# will not replace a directory that holds something).
"$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/rn" --no-render > /dev/null 2> "$TMPD/err.rn" &
pid=$!
wait_for 60 sh -c "ls -d '$TMPD'/rn.tmp.*/raw/running/runs/0000-* > /dev/null 2>&1" || true
mkdir -p "$TMPD/rn/in-the-way"
wait_rc "$pid"
check "the rename fails: exit 1" test "$rc" -eq 1
check "the rename fails: the 3 runs kept in rn.tmp.$pid" \
	test "$(ls "$TMPD/rn.tmp.$pid/raw/running/runs/"*/record.json | wc -l)" -eq 3
check "the rename fails: provenance.json is there too" \
	sh -c "jq -e '.runs == 3' '$TMPD/rn.tmp.$pid/raw/running/provenance.json' > /dev/null"
check "the rename fails: one line says why and where they stay" \
	test "$(grep -c "^brnf: rename $TMPD/rn.tmp.$pid to $TMPD/rn: Directory not empty; the 3 runs stay in $TMPD/rn.tmp.$pid, not renamed into place\$" "$TMPD/err.rn")" -eq 1
check "the rename fails: no namespaces left" no_brnf_netns
