#!/bin/sh
# The command line about itself: --help wherever an option may stand after a
# command (not as an option's argument), `brnf help COMMAND`, and the manual page
# brnf --man writes from the same tables (build/man/man1/brnf.1): valid roff, every
# command and every option of `brnf help` in it. No root needed: the checks that
# could start something (a run, a cleanup) if --help were not seen do so as nobody,
# where those stop at once ("needs root").
set -eu
. "$(dirname "$0")/lib.sh"
checktool groff setpriv
NBRNF=$(for_nobody "$BRNF")
nobody() { as_nobody "$@"; }

run_rc "$BRNF" help > "$TMPD/help"
check "brnf help: exit 0" test "$rc" -eq 0
sed -n 's/^  brnf \([a-z-]*\).*/\1/p' "$TMPD/help" > "$TMPD/cmds"
check "brnf help: $(wc -l < "$TMPD/cmds") commands" test "$(wc -l < "$TMPD/cmds")" -ge 8
while read -r c; do
	run_rc nobody "$NBRNF" "$c" --help > "$TMPD/one" 2>&1
	rc1=$rc
	run_rc nobody "$NBRNF" help "$c" > "$TMPD/two" 2>&1
	check "brnf $c --help and brnf help $c: exit 0, that command's usage alone" \
		sh -c "[ $rc1 -eq 0 ] && [ $rc -eq 0 ] && head -n 1 '$TMPD/one' | grep -q '^  brnf $c\\( \\|\$\\)' &&
		! grep -v '^  brnf $c' '$TMPD/one' | grep -q '^  brnf ' && cmp -s '$TMPD/one' '$TMPD/two'"
done < "$TMPD/cmds"
set +e
"$BRNF" help frobnicate > /dev/null 2> "$TMPD/err"
rc=$?
set -e
check "brnf help <unknown command>: exit 2, says so" \
	sh -c "[ $rc -eq 2 ] && grep -q 'Object \"frobnicate\" is unknown' '$TMPD/err'"

# --help after other options and arguments: the usage, exit 0, nothing run
run_rc nobody "$NBRNF" run --help > "$TMPD/run-help"
check "brnf run --help: exit 0" test "$rc" -eq 0
for args in "--reps 3 --help" "--matrix $TOPDIR/rig/matrices/ab.matrix --time 1 -h" \
	"--reps 3 --help --flows zero"; do
	set +e
	# shellcheck disable=SC2086
	nobody "$NBRNF" run $args > "$TMPD/out" 2> "$TMPD/err"
	rc=$?
	set -e
	check "brnf run $args: run's usage, exit 0, nothing on stderr" \
		sh -c "[ $rc -eq 0 ] && cmp -s '$TMPD/out' '$TMPD/run-help' && [ ! -s '$TMPD/err' ]"
done
set +e
nobody "$NBRNF" testbed flags br-lan iptables=1 --help > "$TMPD/out" 2>&1
rc=$?
set -e
check "brnf testbed flags BRIDGE FAMILY=1 --help: testbed's usage" \
	sh -c "[ $rc -eq 0 ] && head -n 1 '$TMPD/out' | grep -q '^  brnf testbed up'"
# the argument of an option is not a request for help, whatever it looks like
check "brnf matrix-kernels --rows-of --help FILE: --help is the variant" \
	test "$("$BRNF" matrix-kernels --rows-of --help "$TOPDIR/rig/matrices/ab.matrix")" = 0
set +e
"$BRNF" render "$TMPD/none" --baseline --help > "$TMPD/out" 2> "$TMPD/err"
rc=$?
set -e
check "brnf render DIR --baseline --help: --help is the baseline, DIR's error" \
	sh -c "[ $rc -ne 0 ] && ! grep -q '^  brnf render' '$TMPD/out' && grep -q '$TMPD/none' '$TMPD/err'"

# the manual page
run_rc "$BRNF" --man > "$TMPD/brnf.1"
check "brnf --man: exit 0" test "$rc" -eq 0
check "brnf --man: a man(7) page of section 1" grep -q '^\.TH BRNF 1 ' "$TMPD/brnf.1"
run_rc groff -man -ww -z "$TMPD/brnf.1" > "$TMPD/groff" 2>&1
check "brnf --man: groff -man -ww reads it without a warning (exit 0)" \
	sh -c "[ $rc -eq 0 ] && [ ! -s '$TMPD/groff' ]"
sed 's/^/# /' "$TMPD/groff" | head -n 5
check "brnf --man: every line starting with . is a request the page uses" \
	test -z "$(grep '^[.'"'"']' "$TMPD/brnf.1" | grep -v -E '^\.(TH|SH|SS|TP|PP|nf|fi|B|I|br)( |$)')"
while read -r c; do
	check "brnf --man: a subsection for brnf $c" \
		grep -q "^\\.SS \"brnf $(echo "$c" | sed 's/-/\\\\-/g')[ \"]" "$TMPD/brnf.1"
done < "$TMPD/cmds"
# every option brnf help lists, as \fB\-\-name\fR
sed -n 's/^      \(--[a-z0-9-]*\).*/\1/p' "$TMPD/help" | sort -u > "$TMPD/opts"
sed -n 's/^\\fB\(\\-\\-[a-z0-9\\-]*\)\\fR.*/\1/p' "$TMPD/brnf.1" | sed 's/\\-/-/g' |
	sort -u > "$TMPD/man-opts"
check "brnf --man: the $(wc -l < "$TMPD/opts") options of brnf help, each one" \
	sh -c "[ -s '$TMPD/opts' ] && cmp -s '$TMPD/opts' '$TMPD/man-opts'"
for s in "MATRIX FILE" "EXIT STATUS"; do
	check "brnf --man: section $s" grep -q "^\\.SH $s\$" "$TMPD/brnf.1"
done
man1=$(dirname "$(dirname "$BRNF")")/man/man1/brnf.1
check "the build wrote $man1, what brnf --man says" cmp -s "$man1" "$TMPD/brnf.1"
if command -v man > /dev/null; then
	run_rc env MANWIDTH=80 man -l "$TMPD/brnf.1" > "$TMPD/man.txt" 2> "$TMPD/err"
	check "man -l brnf.1: exit 0, shows brnf run --reps" \
		sh -c "[ $rc -eq 0 ] && grep -q -- '--reps R' '$TMPD/man.txt' && [ ! -s '$TMPD/err' ]"
fi
