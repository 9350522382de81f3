#!/bin/sh
# Results directories: a run without --out never fails, and never writes into a
# directory that exists, because another run took its name (scripts/ab-matrix,
# scripts/icount-load: scripts/results-dir; brnf run: its own default). --out still
# chooses, and an existing --out gets a new part (brnf run) or is refused (the scripts).
set -eu
. "$(dirname "$0")/lib.sh"
RD="sh $TOPDIR/scripts/results-dir"

# --- scripts/results-dir
B=$TMPD/res/2026-01-01-6.12-icount
mkdir -p "$TMPD/res"
check "results-dir: a free name as it is" test "$($RD "$B")" = "$B"
mkdir "$B"
check "results-dir: a taken name gets -2" test "$($RD "$B")" = "$B-2"
mkdir "$B-2" "$B-3.tmp.4242"
check "results-dir: -3 is being written (.tmp.<pid>): -4" test "$($RD "$B")" = "$B-4"
check "results-dir: no argument is an error" sh -c "! $RD 2> /dev/null"

# --- brnf run without --out, twice in the same second or beside a directory that
# exists: every name it could pick in the next two minutes is taken, so it must
# write <name>-2 and leave the others alone.
mkdir -p "$TMPD/cwd/results"
now=$(date +%s)
i=0
while [ "$i" -lt 120 ]; do
	mkdir "$TMPD/cwd/results/$(date -u -d "@$((now + i))" +%Y-%m-%dT%H%M%SZ)-$(uname -r)-netns"
	i=$((i + 1))
done
printf 'global=0 local=-\n' > "$TMPD/one.matrix"
set +e
(cd "$TMPD/cwd" && "$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
	--no-render > /dev/null 2> "$TMPD/err")
rc=$?
set -e
check "brnf run, default directory taken: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -5
new=$(ls -d "$TMPD"/cwd/results/*-netns-2 2> /dev/null || true)
check "brnf run, default directory taken: it wrote <name>-2" test -s "$new/raw/running/provenance.json"
check "brnf run, default directory taken: it says so" grep -q "is taken; this run writes results/.*-netns-2" "$TMPD/err"
check "brnf run, default directory taken: the taken ones are untouched (empty)" \
	test "$(find "$TMPD/cwd/results" -mindepth 2 -maxdepth 2 | grep -v -- '-netns-2/' | wc -l)" -eq 0
