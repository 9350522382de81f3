#!/bin/sh
# The top-level make targets a user meets first: `make help` (generated from the
# makefiles' ## comments by scripts/make-help) lists the main jobs before the developers'
# targets, every target it lists has a rule, and every .PHONY target is listed; the
# generator refuses a comment that documents no rule. No root or network needed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool make awk

set +e
make -s -C "$TOPDIR" help > "$TMPD/help" 2> "$TMPD/err"
rc=$?
set -e
check "make help: exit status 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$TMPD/err' ]"
# the targets listed, "user NAME" or "dev NAME", in the order of the text
awk '/^What users run:/ { s = "user" } /^For developers/ { s = "dev" }
	s && /^  make / { print s, $2 }' "$TMPD/help" > "$TMPD/listed"
check "make help lists $(wc -l < "$TMPD/listed") targets" test "$(wc -l < "$TMPD/listed")" -ge 30
for t in apply openwrt upstream matrix matrix-netns test publish; do
	check "make help lists $t among what users run" grep -qx "user $t" "$TMPD/listed"
done
check "make help: apply, openwrt and upstream come first" \
	test "$(head -n 3 "$TMPD/listed" | tr '\n' ' ')" = "user apply user openwrt user upstream "
check "make help: users' targets before developers'" \
	sh -c "cut -d' ' -f1 '$TMPD/listed' | uniq | tr '\n' ' ' | grep -qx 'user dev '"
check "make help: no target listed twice" \
	test -z "$(cut -d' ' -f2 "$TMPD/listed" | sort | uniq -d)"

# make's own data base: each target with a rule (a recipe or prerequisites), and .PHONY
make -C "$TOPDIR" -pRrq __brnf_no_such_target__ > "$TMPD/db" 2>/dev/null || true
awk '
/^# Not a target:/ { skip = 1; next }
/^[A-Za-z0-9_.%-]+:/ && $0 !~ /^[^:]*:[:!]?=/ {
	if (name != "" && (deps || recipe)) print name
	name = skip ? "" : substr($0, 1, index($0, ":") - 1)
	deps = ($0 ~ /^[^:]*: *[^ ]/); recipe = 0; skip = 0; next
}
/^\t/ && name != "" { recipe = 1 }
/^$/ { if (name != "" && (deps || recipe)) print name; name = ""; skip = 0 }
' "$TMPD/db" | sort -u > "$TMPD/rules"
sed -n 's/^\.PHONY: //p' "$TMPD/db" | tr ' ' '\n' | grep . | sort -u > "$TMPD/phony"
check "make's data base: $(wc -l < "$TMPD/rules") targets with rules, $(wc -l < "$TMPD/phony") phony" \
	sh -c "[ -s '$TMPD/rules' ] && [ -s '$TMPD/phony' ]"
cut -d' ' -f2 "$TMPD/listed" | sort -u > "$TMPD/names"
missing=$(comm -23 "$TMPD/names" "$TMPD/rules" | tr '\n' ' ')
check "every target make help lists has a rule${missing:+ (not: $missing)}" test -z "$missing"
undoc=$(comm -23 "$TMPD/phony" "$TMPD/names" | tr '\n' ' ')
check "every .PHONY target is in make help${undoc:+ (not: $undoc)}" test -z "$undoc"

# the generator's own checks, on makefiles made for them
mh() { sh "$TOPDIR/scripts/make-help" "$@"; }
printf '## all\n##   everything\nall:\n\techo\n### lib\n###   a part\nlib: all\n' > "$TMPD/good.mk"
mh "$TMPD/good.mk" > "$TMPD/good" 2>&1 || true
check "make-help: a user's target and a developer's, each in its section" \
	test "$(grep -E '^(What|For|  make)' "$TMPD/good" | tr '\n' '|')" = \
	"What users run:|  make all|For developers (parts, tests, benchmarks):|  make lib|"
printf 'x := 1\n## all\n##   everything\n\nall:\n' > "$TMPD/gap.mk"
set +e
mh "$TMPD/gap.mk" > /dev/null 2> "$TMPD/err"
rc=$?
set -e
check "make-help: a ## block not right above a rule is an error with FILE:LINE" \
	sh -c "[ $rc -eq 1 ] && grep -q 'gap.mk:2: a ## block not right above a rule' '$TMPD/err'"
printf '## al\n##   everything\nall:\n' > "$TMPD/name.mk"
check "make-help: a block naming another target than its rule's is an error" \
	sh -c "! sh '$TOPDIR/scripts/make-help' '$TMPD/name.mk' >/dev/null 2>&1"
printf '## all\n###   everything\nall:\n' > "$TMPD/mixed.mk"
check "make-help: a block mixing ## and ### is an error" \
	sh -c "! sh '$TOPDIR/scripts/make-help' '$TMPD/mixed.mk' >/dev/null 2>&1"
printf 'all:\n## all\n' > "$TMPD/end.mk"
check "make-help: a block at the end of a file is an error" \
	sh -c "! sh '$TOPDIR/scripts/make-help' '$TMPD/end.mk' '$TMPD/good.mk' >/dev/null 2>&1"
