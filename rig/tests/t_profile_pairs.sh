#!/bin/sh
# brnf profile's DIR/profile.pairs on a committed profiled run: each "ROW against BASE"
# line adds that comparison to profile.md and profile.csv beside every row's against
# its path's baseline, and the committed tables are what it writes; a line it cannot
# use is one error naming the file and line, exit status 1, the tables untouched.
set -eu
. "$(dirname "$0")/lib.sh"
checktool "$BRNF"
R=$TOPDIR/results/2026-12-07-7.2-icount-native-profile
D=$TMPD/run
cp -R "$R" "$D"

run_rc "$BRNF" profile "$D" >/dev/null 2>"$TMPD/err"
check "the committed pairs: exit 0 ($rc)" test "$rc" = 0
same_file "profile.md is the committed one" "$R/profile.md" "$D/profile.md"
same_file "profile.csv is the committed one" "$R/profile.csv" "$D/profile.csv"
sed 's/\\_/_/g' "$D/profile.md" >"$TMPD/md"
check "profile.md: the bridge family's policy on br-lan against nft inet's, upload" \
	grep -qx '## pps64 upload: kernel=ondemand+distro global=0 local=- ruleset=policy-bridge-lan against kernel=ondemand+distro global=0 local=br-lan ruleset=policy-inet-lan' \
	"$TMPD/md"
n=$(grep -c '^## .* against ' "$TMPD/md")
rm "$D/profile.pairs"
run_rc "$BRNF" profile "$D" >/dev/null 2>&1
check "without profile.pairs: 6 comparisons fewer ($n before)" \
	test "$(grep -c '^## .* against ' "$D/profile.md")" -eq $((n - 6))

# bad lines: one error naming the file and line, exit 1, profile.md as it was
cp "$D/profile.md" "$TMPD/before.md"
bad() {
	printf '# a comment\n%s\n' "$1" >"$D/profile.pairs"
	run_rc "$BRNF" profile "$D" >/dev/null 2>"$TMPD/err"
	check "$3: exit 1 ($rc)" test "$rc" = 1
	one_line "$3: one line naming the file and line" "$TMPD/err" "^brnf: $D/profile.pairs:2: $2"
	same_file "$3: profile.md untouched" "$TMPD/before.md" "$D/profile.md"
}
bad "kernel=ondemand+distro global=0 local=- ruleset=policy-bridge-lan" \
	"want 'ROW against BASE'" "no ' against '"
bad "kernel=nobrnf+distro global=0 local=- ruleset=none against kernel=x" \
	"no workload and direction with profiled runs of both" "an unknown row"
bad "kernel=x against kernel=x" "a row against itself" "a row against itself"
exit "$FAILED"
