#!/bin/sh
# The test runners themselves (rig/tests/run.sh, scripts/storm/tests/run.sh): a script
# that exits non-zero fails the run even when it printed only "ok" lines before it
# died (both runners used to report tee's exit status instead of the script's); an
# "ok ... # SKIP" is no pass (the storm's runner fails on one, even beside passes); a
# run without a check fails; a clean script passes. Their output goes to files here,
# so that the outer runner counts only these checks.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir "$TMPD/t"
cat > "$TMPD/t/t_dies.sh" <<'EOS'
echo "ok - a check before the script dies"
exit 3
EOS
printf 'echo "ok - feature missing # SKIP"\n' > "$TMPD/t/t_skips.sh"
printf 'echo "ok - a check"\n' > "$TMPD/t/t_passes.sh"
printf 'echo "# no check here"\n' > "$TMPD/t/t_silent.sh"

# runner NAME SCRIPT TEST...: run it, its output in $TMPD/NAME.out, status in $rc
runner() {
	_n=$1
	_s=$2
	shift 2
	set +e
	sh "$_s" "$@" > "$TMPD/$_n.out" 2>&1
	rc=$?
	set -e
}
STORM_RUN=$TOPDIR/scripts/storm/tests/run.sh
RIG_RUN=$TOPDIR/rig/tests/run.sh

runner rig-dies "$RIG_RUN" "$TMPD/t/t_passes.sh" "$TMPD/t/t_dies.sh"
check "rig run.sh: a script that dies after an ok line fails the run" test "$rc" -ne 0
check "rig run.sh: says which script exited and how" \
	grep -qx 'not ok - t_dies.sh exited with status 3' "$TMPD/rig-dies.out"
check "rig run.sh: counts it as failed" grep -qx '2 passed, 1 failed' "$TMPD/rig-dies.out"
runner rig-skip "$RIG_RUN" "$TMPD/t/t_skips.sh"
check "rig run.sh: a SKIP alone is no pass (exit != 0)" test "$rc" -ne 0
check "rig run.sh: counts the SKIP as skipped" grep -qx '1 skipped' "$TMPD/rig-skip.out"
check "rig run.sh: 0 passed" grep -qx '0 passed, 0 failed' "$TMPD/rig-skip.out"
runner rig-pass "$RIG_RUN" "$TMPD/t/t_passes.sh"
check "rig run.sh: a clean script passes (exit 0)" test "$rc" -eq 0
runner rig-silent "$RIG_RUN" "$TMPD/t/t_silent.sh"
check "rig run.sh: no check at all fails the run (exit != 0)" test "$rc" -ne 0

runner storm-dies "$STORM_RUN" "$TMPD/t/t_passes.sh" "$TMPD/t/t_dies.sh"
check "storm run.sh: a script that dies after an ok line fails the run" test "$rc" -ne 0
check "storm run.sh: says which script exited and how" \
	grep -qx 'not ok - t_dies.sh exited with status 3' "$TMPD/storm-dies.out"
runner storm-skip "$STORM_RUN" "$TMPD/t/t_passes.sh" "$TMPD/t/t_skips.sh"
check "storm run.sh: a SKIP fails the run, even beside a pass (exit != 0)" test "$rc" -ne 0
check "storm run.sh: the SKIP is no pass" grep -qx 'storm-test: 1 passed, 0 failed' \
	"$TMPD/storm-skip.out"
check "storm run.sh: says it skipped one" grep -q '^storm-test: 1 skipped' "$TMPD/storm-skip.out"
runner storm-silent "$STORM_RUN" "$TMPD/t/t_silent.sh"
check "storm run.sh: no check at all fails the run (exit != 0)" test "$rc" -ne 0
check "storm run.sh: counts nothing" grep -qx 'storm-test: 0 passed, 0 failed' \
	"$TMPD/storm-silent.out"
runner storm-pass "$STORM_RUN" "$TMPD/t/t_passes.sh"
check "storm run.sh: a clean script passes (exit 0)" test "$rc" -eq 0
