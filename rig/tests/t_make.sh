#!/bin/sh
# The top-level make targets a user meets first: `make help` (generated from the
# makefiles' ## comments by scripts/make-help) lists the main jobs before the developers'
# targets, every target it lists has a rule, and every .PHONY target is listed; the
# generator refuses a comment that documents no rule. Then, on a copy of the repository
# as a fresh clone is: make publish (it builds the controller; its scripts/deps.sh rig
# finds nothing to install where make test installed it), make clean, make distclean.
set -eu
. "$(dirname "$0")/lib.sh"
checktool make awk setpriv

set +e
make -s -C "$TOPDIR" help > "$TMPD/help" 2> "$TMPD/err"
rc=$?
set -e
check "make help: exit status 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$TMPD/err' ]"
# the targets listed, "user NAME" or "dev NAME", in the order of the text
awk '/^What users run:/ { s = "user" } /^For developers/ { s = "dev" }
	s && /^  make / { print s, $2 }' "$TMPD/help" > "$TMPD/listed"
check "make help lists $(wc -l < "$TMPD/listed") targets" test "$(wc -l < "$TMPD/listed")" -ge 30
for t in apply openwrt upstream matrix matrix-netns test publish clean; do
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

# make publish, make clean and distclean, in a copy of the repository as a fresh clone
# is (the files git tracks or would track, results/ aside, committed anew, no build/).
C=$TMPD/clone
mkdir -p "$C" "$TMPD/outside"
(cd "$TOPDIR" && git ls-files -z --cached --others --exclude-standard -- . ':!results' |
	tar --null -T - -cf -) | tar -C "$C" -xf -
mkdir -p "$C/results/old"
echo run > "$C/results/old/matrix.md"
git -C "$C" init -q
git -C "$C" add -A
git -C "$C" -c user.name=t -c user.email=t@example.invalid commit -q -m copy

# publish: builds the controller first (scripts/deps.sh rig installs what is missing)
cp -R "$TOPDIR/rig/tests/unit/data/resdir2" "$C/results/fixture"
set +e
make -s -C "$C" publish DIR=results/fixture > "$TMPD/out" 2>&1
rc=$?
set -e
check "make publish on a fresh clone: exit status 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/out" | tail -n 5
check "make publish on a fresh clone: built the controller" test -x "$C/build/bin/brnf"
for f in matrix.md matrix.json matrix.png matrix.svg levels.md levels.csv; do
	check "make publish on a fresh clone: $f" test -s "$C/results/fixture/$f"
done

# clean: a build/ made up of what the build makes, the caches it keeps, and links that
# lead outside
mkdir -p "$C/results/new" "$C/build/bin" "$C/build/ccache/0" "$C/build/rootfs/arm64/etc" \
	"$C/build/kernel/6.12/src" "$C/build/kernel/6.12/ondemand" "$C/build/upstream/6.12" \
	"$C/build/debian" "$C/build/apt"
echo uncommitted > "$C/results/new/matrix.md"
echo outside > "$TMPD/outside/file"
for f in bin/brnf ccache/0/obj rootfs/arm64/etc/os-release kernel/6.12/src/Makefile \
	kernel/6.12/.lock kernel/6.12/ondemand/vmlinux upstream/6.12/0001.patch \
	debian/linux-source.deb apt/state .hidden; do
	echo x > "$C/build/$f"
done
ln -s "$TMPD/outside" "$C/build/link"
ln -s "$TMPD/outside" "$C/build/kernel/6.12/ondemand/source"
set +e
make -s -C "$C" clean > "$TMPD/out" 2>&1
rc=$?
set -e
check "make clean: exit status 0" test "$rc" -eq 0
for f in bin/brnf kernel/6.12/ondemand upstream kernel/6.12/.lock link .hidden; do
	check "make clean removes build/$f" sh -c "[ ! -e '$C/build/$f' ] && [ ! -L '$C/build/$f' ]"
done
for f in ccache/0/obj rootfs/arm64/etc/os-release kernel/6.12/src/Makefile \
	debian/linux-source.deb apt/state; do
	check "make clean keeps build/$f" test -e "$C/build/$f"
done
check "make clean: results/ untouched" sh -c "[ \"\$(cat '$C/results/old/matrix.md' \
	'$C/results/new/matrix.md')\" = 'run
uncommitted' ]"
check "make clean: what links led to untouched" test -e "$TMPD/outside/file"
check "make clean: the tree git tracks untouched" \
	test -z "$(git -C "$C" status --porcelain -- . ':!results')"

# refused WHAT MESSAGE FILE [make arguments]: make clean exits non-zero, says MESSAGE
# and leaves FILE where it was
refused() {
	_what=$1 _msg=$2 _file=$3
	shift 3
	set +e
	make -s -C "$C" clean "$@" > /dev/null 2> "$TMPD/err"
	_rc=$?
	set -e
	check "make clean $_what: refused" \
		sh -c "[ $_rc -ne 0 ] && [ -e '$_file' ] && grep -q '$_msg' '$TMPD/err'"
}
refused "BUILD=<outside the repository>" "not inside the repository" "$TMPD/outside/file" \
	BUILD="$TMPD/outside"
refused "BUILD=results/..." "under results/" "$C/results/new/matrix.md" BUILD="$C/results/new"
refused "BUILD=<a directory git tracks>" "holds files git tracks" "$C/rig/rig.mk" BUILD="$C/rig"
if command -v flock > /dev/null; then
	# the lock held by the sleep itself, which kill ends
	(exec 9> "$C/build/kernel/6.12/.lock" && flock 9 && exec sleep 30) > /dev/null 2>&1 &
	busy=$!
	wait_for 5 sh -c "! flock -n '$C/build/kernel/6.12/.lock' true"
	refused "while a kernel build holds its series' lock" "a kernel build holds" \
		"$C/build/ccache/0/obj"
	kill "$busy" 2>/dev/null || true
fi
sleep 30 > /dev/null 2>&1 &
busy=$!
mkdir "$C/build/ab-matrix.$busy"
refused "while scripts/ab-matrix works in build/" "scripts/ab-matrix (pid $busy)" \
	"$C/build/ccache/0/obj"
kill "$busy" 2>/dev/null || true
check "make distclean: exit status 0" make -s -C "$C" distclean > /dev/null
check "make distclean: build/ is empty" test -z "$(ls -A "$C/build")"
check "make distclean: results/ untouched" test -e "$C/results/new/matrix.md"

# scripts/deps.sh asks for root only when something is missing (make publish as a user):
# a stand-in dpkg-query says every package is installed, or none is
mkdir -p "$TMPD/dpkg-all" "$TMPD/dpkg-none"
printf '#!/bin/sh\necho "install ok installed"\n' > "$TMPD/dpkg-all/dpkg-query"
printf '#!/bin/sh\nexit 1\n' > "$TMPD/dpkg-none/dpkg-query"
chmod +x "$TMPD/dpkg-all/dpkg-query" "$TMPD/dpkg-none/dpkg-query"
chmod 755 "$TMPD" "$TMPD/dpkg-all" "$TMPD/dpkg-none"
set +e
deps=$(for_nobody scripts/deps.sh scripts/arch.sh)
PATH="$TMPD/dpkg-all:$PATH" as_nobody sh "$deps" rig > /dev/null 2>&1
rc_all=$?
PATH="$TMPD/dpkg-none:$PATH" as_nobody sh "$deps" rig > /dev/null 2> "$TMPD/err"
rc_none=$?
set -e
check "deps.sh rig as a user with everything installed: exit 0" test "$rc_all" -eq 0
check "deps.sh rig as a user with libssl-dev missing: exit 1, names it" \
	sh -c "[ $rc_none -eq 1 ] && grep -q 'must run as root to install.* libssl-dev' '$TMPD/err'"
