#!/bin/sh
# rig/tests/fuzz/run.sh: run libFuzzer harnesses, JOBS at a time (default 2: each is one
# process on one core), each for SECONDS over a copy of its seed corpus; every harness
# runs even when one fails. Reports in the order given; the last line is
# "rig-fuzz: N passed, N failed".
# usage: rig/tests/fuzz/run.sh BUILD SECONDS CORPUS_DIR NAME...
#   runs BUILD/fuzz/fuzz_NAME over CORPUS_DIR/NAME, in BUILD/fuzz/work/NAME, log
#   BUILD/fuzz/NAME.log, crashes as BUILD/fuzz/NAME-*; JOBS from the environment
set -u
[ $# -ge 4 ] || { echo "usage: $0 BUILD SECONDS CORPUS_DIR NAME..." >&2; exit 2; }
build=$1 secs=$2 corpus=$3
shift 3
jobs=${JOBS:-2}
case $jobs in ''|*[!0-9]*|0) echo "$0: JOBS='$jobs': 1 or more" >&2; exit 2 ;; esac

one() {	# one NAME: the harness, its status in BUILD/fuzz/NAME.rc
	rm -rf "$build/fuzz/work/$1"
	mkdir -p "$build/fuzz/work/$1"
	rc=0
	"$build/fuzz/fuzz_$1" -max_total_time="$secs" -print_final_stats=1 -close_fd_mask=2 \
		-artifact_prefix="$build/fuzz/$1-" "$build/fuzz/work/$1" "$corpus/$1" \
		2>"$build/fuzz/$1.log" || rc=$?
	echo "$rc" >"$build/fuzz/$1.rc"
}

running=0
for t in "$@"; do
	rm -f "$build/fuzz/$t.rc"
	echo "fuzz $t for $secs s"
	one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
p=0 f=0
for t in "$@"; do
	if [ "$(cat "$build/fuzz/$t.rc" 2>/dev/null)" = 0 ]; then
		echo "fuzz $t:"
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$build/fuzz/$t.log"
		p=$((p + 1))
	else
		tail -n 40 "$build/fuzz/$t.log"
		echo "fuzz $t: FAILED (exit status $(cat "$build/fuzz/$t.rc" 2>/dev/null || echo lost))"
		f=$((f + 1))
	fi
done
echo "rig-fuzz: $p passed, $f failed"
[ "$f" -eq 0 ]
