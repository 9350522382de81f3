#!/bin/sh
# A guest that panics or hangs in the middle of a storm is detected by scripts/qemu-run
# within a bounded time (exit 125 / 124) with its console log kept; one whose console
# falls silent is stopped by --stall with its state, and --watch names a stuck task; the
# hook check is not vacuous (vanilla judged as "ondemand" fails it); storm-all keeps going
# past a failed variant and keeps the others' results. Needs a built 6.12 kernel
# (ondemand or vanilla); without one each check says so and fails.
# needs: qemu
set -eu
. "$(dirname "$0")/lib.sh"

K=$(kernel_of ondemand vanilla debug) || {
	not_ok "no 6.12 ondemand/vanilla/debug kernel built (make kernel SERIES=6.12 VARIANT=ondemand)"
	exit 0
}
QR="$TOP/scripts/qemu-run"
cd "$TOP"

# The three guests of 1, 2 and 2b mostly wait (for a timeout, a stall, a panic): they
# run side by side, each with its own output directory, and are checked in turn. The
# hang and the stall wait in a loop that never ends, not one long sleep: on a busy host a
# TCG guest can miscalibrate its TSC at boot, and a guest clock that runs fast ended a
# `sleep 3600` after 79 s of wall time once (qemu-run exit 0 where 124 was due).
bg panic sh "$QR" --kernel "$K" --smp 2 --timeout 180 --quiet --out "$TMPD/panic" -- sh -c \
	"'$STORM' --short >/dev/console 2>&1 & sleep 8; echo c >/proc/sysrq-trigger; sleep 60"
bg hang sh "$QR" --kernel "$K" --smp 2 --timeout 40 --quiet --out "$TMPD/hang" -- sh -c \
	"'$STORM' --short >/dev/console 2>&1; while :; do sleep 3600; done"
mkdir -p "$TMPD/stall"
stall_cc=0
if cc -Wall -Wextra -Werror -o "$TMPD/stall/dstate" "$TOP/scripts/storm/tests/dstate.c"; then
	stall_cc=1
	bg stall sh "$QR" --kernel "$K" --timeout 300 --stall 30 --watch 2 --quiet \
		--out "$TMPD/stall" -- \
		sh -c '/mnt/out/dstate & sleep 10; echo dstate-started; while :; do sleep 3600; done'
fi
wait

# 1. panic mid-storm: sysrq 'c' eight seconds into a short storm
rc=$(cat "$TMPD/panic.rc")
echo "# panic mid-storm: qemu-run returned after $(cat "$TMPD/panic.secs")s"
check "panic mid-storm: qemu-run exits 125 (got $rc)" test "$rc" -eq 125
# (125, not 124, shows the panic was caught before the --timeout bound, whatever the wall time)
check "panic mid-storm: qemu-run names the panic" grep -q 'kernel panic' "$TMPD/panic.out"
check "panic mid-storm: the console log has the storm's start and the crash" sh -c \
	"grep -q '^brnf-storm: kernel ' '$TMPD/panic/console.log' && grep -q 'sysrq: Trigger a crash' '$TMPD/panic/console.log'"

# 2. hang mid-storm: the command never returns; the guest is killed at --timeout
rc=$(cat "$TMPD/hang.rc")
secs=$(cat "$TMPD/hang.secs")
check "hang: qemu-run exits 124 (got $rc)" test "$rc" -eq 124
echo "# hang: killed after ${secs}s (--timeout 40)"
check "hang: qemu-run says timeout" grep -q 'timeout after 40 s' "$TMPD/hang.out"
check "hang: the console log is kept" grep -q '^brnf-storm: kernel ' "$TMPD/hang/console.log"

# 2b. a guest that stalls: its console silent for --stall s, its state recorded (QEMU's
#     monitor, and every task dumped by the guest's watcher), killed long before
#     --timeout; and --watch names a task stuck in state D (dstate.c), with its kernel
#     stack and the kernel's blocked tasks
if [ "$stall_cc" = 1 ]; then
	rc=$(cat "$TMPD/stall.rc")
	check "stall: qemu-run exits 124 (got $rc)" test "$rc" -eq 124
	echo "# stall: killed after $(cat "$TMPD/stall.secs")s (--stall 30, --timeout 300)"
	check "stall: qemu-run says stalled" grep -q 'stalled: console silent for 30 s' "$TMPD/stall.out"
	check "stall: stall.txt has the VM's status and five PC samples" sh -c \
		"grep -q '^VM status: running' '$TMPD/stall/stall.txt' && grep -q '^pc sample 5: [0-9a-f]' '$TMPD/stall/stall.txt'"
	check "stall: stall.txt has 100 PC samples by kernel symbol, the idle loop's on top" sh -c \
		"grep -A1 '^== 100 PC samples, by symbol' '$TMPD/stall/stall.txt' | grep -q '^ *[0-9]* .*idle'"
	check "stall: stall.txt has jiffies before and after the samples, the clock moving" sh -c \
		"grep '^jiffies: ' '$TMPD/stall/stall.txt' | awk '\$2 ~ /^[0-9]+\$/ && \$6 > \$2 { ok = 1 } END { exit !ok }'"
	check "stall: stall.txt has both 9p devices' interrupt status and ring indices" sh -c \
		"[ \$(grep -c '^ *isr: *[01]\$' '$TMPD/stall/stall.txt') -eq 2 ] &&
		[ \$(grep -c '^ *last_avail_idx: *[0-9]' '$TMPD/stall/stall.txt') -eq 2 ]"
	check "watch: the task in state D is named with its wait channel" \
		grep -q 'guest-watch: pid [0-9]* (dstate) state D for over 2 s, wchan ' "$TMPD/stall/console.log"
	check "watch: its kernel stack is on the console" \
		grep -q 'guest-watch:   .*vfork' "$TMPD/stall/console.log"
	check "stall: the watcher's dump of every task is on the console (init, sh, dstate)" sh -c \
		"grep -q 'guest-watch: dump asked for by the host' '$TMPD/stall/console.log' &&
		grep -q 'guest-watch: pid 1 (' '$TMPD/stall/console.log' &&
		grep -q 'guest-watch: pid [0-9]* (dstate) state D, wchan ' '$TMPD/stall/console.log' &&
		grep -q 'guest-watch: dump done' '$TMPD/stall/console.log'"
	check "stall: stall.txt has the watcher's dump too (pid 1, dstate in D, done)" sh -c \
		"grep -q '^guest-watch: pid 1 (' '$TMPD/stall/stall.txt' &&
		grep -q '^guest-watch: pid [0-9]* (dstate) state D, wchan ' '$TMPD/stall/stall.txt' &&
		grep -q '^guest-watch: dump done' '$TMPD/stall/stall.txt'"
	check "stall: stall.txt says whether a break on the serial line revived the console" \
		grep -q '^console.log: [0-9]* bytes more within 20 s' "$TMPD/stall/stall.txt"
	check "stall: no guest-dump.txt left in the output directory" test ! -e "$TMPD/stall/guest-dump.txt"
	check "watch: the kernel's blocked tasks (sysrq w) are on the console" \
		grep -q 'task:dstate .*state:D' "$TMPD/stall/console.log"
else
	not_ok "cc dstate.c failed: the stall and watch checks did not run"
fi

# 3. the hook check can fail: vanilla keeps its hooks, so "ondemand" must not match
if V=$(kernel_of vanilla); then
	rc=0
	sh "$TOP/scripts/storm/qemu-storm" --variant vanilla --kernel "$V" --short \
		--out "$TMPD/mismatch" -- --ops 200 --expect ondemand >"$TMPD/mm.out" 2>&1 || rc=$?
	check "vanilla judged as ondemand: exit status 1 (got $rc)" test "$rc" -eq 1
	check "vanilla judged as ondemand: the hook check fails" \
		grep -q '^hooks check: [1-9][0-9]* failed' "$TMPD/mismatch/storm.log"
	check "vanilla judged as ondemand: no other failure (flows, operations, splats)" \
		grep -q 'failed operations 0, flows failed 0, bytes [1-9][0-9]*, splats 0, leaks n/a, hooks FAIL' \
		"$TMPD/mismatch/storm.log"
	check "qemu-storm wrote provenance.json with the seed" \
		grep -q '"seed": [0-9]' "$TMPD/mismatch/provenance.json"
else
	not_ok "no vanilla kernel: the mismatch check did not run"
fi

# 4. storm-all: a variant that cannot run does not stop the next one
rc=0
v=$(basename "$(dirname "$(dirname "$(dirname "$(dirname "$K")")")")")
sh "$TOP/scripts/storm/storm-all" --short --out "$TMPD/all" nosuchvariant "$v" \
	>"$TMPD/all.out" 2>&1 || rc=$?
check "storm-all: exit status 1 with one failed variant (got $rc)" test "$rc" -eq 1
check "storm-all: 1 passed, 1 failed" grep -q '^storm: 1 passed, 1 failed' "$TMPD/all.out"
check "storm-all: the $v result after the failure is kept" \
	grep -q '^PASS' "$TMPD/all/$v-short/storm.log"
exit 0
