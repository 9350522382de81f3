#!/bin/sh
# The tests that run something as another user (nobody), from a clone where only root
# can read: a copy of the repository as a fresh clone is, under a directory of mode 700
# as root's home is. Its controller is built there and its own t_cli, t_safety, t_errors
# and t_make run; their checks are reported here with "home: " before them. Each of
# those copies what nobody runs to a place nobody can read (for_nobody in lib.sh); run
# without that copy, they fail here as they failed for a clone in root's home.
set -eu
. "$(dirname "$0")/lib.sh"
checktool make git tar setpriv

HOME_DIR=$TMPD/home
C=$HOME_DIR/brnf
mkdir -p "$C"
chmod 700 "$TMPD" "$HOME_DIR"
(cd "$TOPDIR" && git ls-files -z --cached --others --exclude-standard -- . ':!results' |
	tar --null -T - -cf -) | tar -C "$C" -xf -
git -C "$C" init -q
git -C "$C" add -A
git -C "$C" -c user.name=t -c user.email=t@example.invalid commit -q -m copy
check "the clone's directory: mode 700" test "$(stat -c %a "$HOME_DIR")" = 700
check "the clone's files: nobody cannot read them" \
	sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups cat '$C/Makefile' 2>/dev/null"

set +e
make -s -C "$C" rig > "$TMPD/build.log" 2>&1
rc=$?
set -e
check "the clone's controller builds" test "$rc" -eq 0
[ "$rc" -eq 0 ] || { sed 's/^/# /' "$TMPD/build.log" | tail -n 5; exit 1; }

for t in t_cli t_safety t_errors t_make; do
	set +e
	# BRNF from the environment would be this repository's controller, not the clone's
	env -u BRNF sh "$C/rig/tests/$t.sh" > "$TMPD/$t.out" 2>&1
	rc=$?
	set -e
	sed -n 's/^\(not \)\{0,1\}ok - /&home: /p' "$TMPD/$t.out"
	check "home: $t.sh from the clone: exit status 0" test "$rc" -eq 0
	check "home: $t.sh from the clone: some checks ran" grep -q '^ok - ' "$TMPD/$t.out"
done
