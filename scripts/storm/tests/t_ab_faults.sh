#!/bin/sh
# The A/B matrix (scripts/ab-matrix) with one guest that panics and one that hangs in
# the middle of their runs (scripts/storm/tests/qemu-fault arms sysrq-c or SIGSTOP of
# every process 15 s after boot): both are detected within the time limit and reported
# with their console log, the third kernel's results are kept and rendered, and the
# exit status is non-zero (--retries 0). Then a guest that stalls once: its state is
# recorded, another boot replaces it and the matrix is complete (exit status 0). And a
# matrix stopped by TERM stops its guests. The TERM case runs first; then the faulty
# matrix and the stalling one side by side, as their guests mostly wait (a hang's time
# limit, a stall's silence) and compute at different times; then the checks in turn.
# Needs 6.12 ondemand, vanilla and legacy kernels.
# needs: qemu
set -eu
. "$(dirname "$0")/lib.sh"

for v in ondemand vanilla legacy; do
	kernel_of "$v" >/dev/null || { not_ok "no 6.12 $v kernel built: the fault test did not run"; exit 0; }
done
[ -x "$BUILD/bin/brnf" ] || { not_ok "build/bin/brnf is not built (make rig)"; exit 0; }

# TERM while two guests run: the matrix exits and takes its guests with it, before
# they end their runs (60 s flows)
printf 'kernel=ondemand global=0\nkernel=vanilla global=0\n' >"$TMPD/m2"
sh "$TOP/scripts/ab-matrix" --matrix "$TMPD/m2" --clock realtime --jobs 2 --boots 1 --reps 1 \
	--workloads tcp --time 60 --target-workloads none --out "$TMPD/ab2" >"$TMPD/ab2.out" 2>&1 &
apid=$!
running() { [ "$(pgrep -f -c "qemu-system-x86_64 .*ab-matrix.$apid/")" -ge 2 ]; }
wait_for 120 running || true
check "ab-matrix: two guests run before the TERM" running
sleep 5
kill -TERM "$apid"
rc=0
wait "$apid" || rc=$?
check "ab-matrix: TERM while its guests run: exit status 143 (got $rc)" test "$rc" -eq 143
check "ab-matrix: TERM: no guest ran to its end" sh -c "! grep -q 'boot 1: done in' '$TMPD/ab2.out'"
# (ab-matri[x]: a pattern that does not match the sh -c running pgrep)
check "ab-matrix: TERM: no guest of it is left running" sh -c "! pgrep -f 'ab-matri[x].$apid/' >/dev/null"
check "ab-matrix: TERM: no work or results directory is left" \
	sh -c "test ! -e '$BUILD/ab-matrix.$apid' && test ! -e '$TMPD/ab2' && ! ls -d '$TMPD'/ab2.tmp.* >/dev/null 2>&1"

# a matrix whose vanilla guest panics and whose legacy guest hangs (checked below); the
# healthy ondemand guest shares the time limit, 120 s, and beside make test's other
# lanes it runs slower than alone
printf 'kernel=ondemand global=0\nkernel=vanilla global=0\nkernel=legacy global=0\n' >"$TMPD/m"
FAULT_PANIC_KERNEL=$(kernel_of vanilla) FAULT_HANG_KERNEL=$(kernel_of legacy) \
QEMU="$TOP/scripts/storm/tests/qemu-fault" \
	bg ab sh "$TOP/scripts/ab-matrix" --matrix "$TMPD/m" --clock realtime --boots 1 --reps 1 --flows 1 \
	--workloads tcp --target-workloads none --time 10 --omit 0 --timeout 120 --retries 0 --out "$TMPD/ab"

# beside it, a guest that stalls once (every process stopped 15 s after boot, --stall
# 30) and the boot that replaces it; --watch 0, as the stopped watcher would not
# answer (t_qemu.sh checks its dump). Two 10 s flows: the stop falls inside them (two
# 5 s flows ended before it on a fast host, and the guest never stalled)
printf 'kernel=legacy global=0\n' >"$TMPD/m1"
FAULT_HANG_KERNEL=$(kernel_of legacy) FAULT_HANG_ONCE=$TMPD/hang-once \
QEMU="$TOP/scripts/storm/tests/qemu-fault" \
	bg ab1 sh "$TOP/scripts/ab-matrix" --matrix "$TMPD/m1" --clock realtime --boots 1 --reps 1 --flows 1 \
	--workloads tcp --target-workloads none --time 10 --omit 0 --timeout 600 --stall 30 --watch 0 \
	--retries 1 --out "$TMPD/ab1"
wait

rc=$(cat "$TMPD/ab.rc")
check "ab-matrix with a panicking and a hanging guest: exit status != 0 (got $rc)" test "$rc" -ne 0
echo "# ab-matrix with the faulty guests took $(cat "$TMPD/ab.secs")s"
check "ab-matrix: the panic is reported as a dead kernel with its console log" \
	grep -q 'vanilla boot 1: kernel died (panic or crash); console log: ' "$TMPD/ab.out"
check "ab-matrix: the hang is reported as hung after the time limit" \
	grep -q 'legacy boot 1: hung (timeout after 120 s)' "$TMPD/ab.out"
check "ab-matrix: the end of the panicking guest's console log is printed" \
	grep -q -E '^  vanilla: .*(sysrq: Trigger a crash|Kernel panic)' "$TMPD/ab.out"
check "ab-matrix: the results of ondemand are kept" test -d "$TMPD/ab/raw/ondemand-boot1"
check "ab-matrix: no part of the failed guests looks complete" \
	sh -c "test ! -e '$TMPD/ab/raw/vanilla-boot1' && test ! -e '$TMPD/ab/raw/legacy-boot1'"
check "ab-matrix: the failures are listed in the results" test -s "$TMPD/ab/failures.txt"
check "ab-matrix: the matrix is rendered from what was kept" test -s "$TMPD/ab/matrix.md"

rc=$(cat "$TMPD/ab1.rc")
check "ab-matrix with a guest that stalls once: exit status 0 (got $rc)" test "$rc" -eq 0
check "ab-matrix: the stall is reported as such, before the time limit" \
	grep -q 'legacy boot 1: stalled (console silent for 30 s' "$TMPD/ab1.out"
check "ab-matrix: boot 2 replaces it" grep -q 'boot 2 of legacy runs in its place' "$TMPD/ab1.out"
check "ab-matrix: failures.txt says so" grep -q 'legacy boot 1: stalled .*replaced by boot 2' "$TMPD/ab1/failures.txt"
check "ab-matrix: the stalled guest's state is kept (the PC sampled, named by the vmlinux's symbols)" \
	grep -q '^pc sample 5: [0-9a-f]* [A-Za-z_]' "$TMPD/ab1/failed-guests/legacy-boot1/stall.txt"
check "ab-matrix: the stalled guest's console is kept" test -s "$TMPD/ab1/failed-guests/legacy-boot1/console.log"
check "ab-matrix: the replacement's part is kept, the stalled one's is not" \
	sh -c "test -d '$TMPD/ab1/raw/legacy-boot2' && test ! -e '$TMPD/ab1/raw/legacy-boot1'"
check "ab-matrix: run.txt counts the retry" grep -q 'retries=1 retries_used=1' "$TMPD/ab1/run.txt"
check "ab-matrix: realtime keeps the rows taking turns (run.txt order=reps)" grep -q ' order=reps ' "$TMPD/ab1/run.txt"

exit 0
