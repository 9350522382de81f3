#!/bin/sh
# make openwrt (scripts/openwrt-export) on a fake minimal OpenWrt tree: a target whose
# kernel brnf has no series for is refused, --series only where the tree has that
# kernel's generic patches; no sign-off or a placeholder one is refused; a file of the
# prefix that the script did not write is refused and left as it is; a good run writes
# NNN-01.. with the signer's From: and Signed-off-by:; a second run replaces only the
# script's own files; a dry run writes nothing; no temporary file is left anywhere.
# With Debian's linux-source-6.12 unpacked (build/kernel/6.12/src, branch vanilla; BUILD=
# elsewhere) the apply check runs on a small linux-6.12.N.tar.xz made from it, with fake
# OpenWrt patches that apply, fail on the base, or conflict with ours; without it those
# checks are skipped and the good runs use --no-apply-check.
set -eu
. "$(dirname "$0")/lib.sh"
checktool awk patch tar xz git make

X=$TOPDIR/scripts/openwrt-export
OW=$TMPD/openwrt
G=$OW/target/linux/generic
P=$G/pending-6.12
ID='Test Dev <dev@openwrt.org>'
export TMPDIR="$TMPD/tmp"
mkdir -p "$TMPDIR"
unset SIGNOFF
KSRC=${BUILD:-$TOPDIR/build}/kernel/6.12/src

mkdir -p "$G/backport-6.12" "$P" "$G/hack-6.12" "$OW/target/linux/x86" "$OW/target/linux/ramips" \
	"$OW/include" "$OW/dl"
printf 'BOARD:=x86\nKERNEL_PATCHVER:=6.12\n\ninclude $(INCLUDE_DIR)/target.mk\n' >"$OW/target/linux/x86/Makefile"
printf 'BOARD:=ramips\nKERNEL_PATCHVER:=6.6\n' >"$OW/target/linux/ramips/Makefile"
printf 'LINUX_VERSION-6.6 = .93\n' >"$G/kernel-6.6"
# an OpenWrt patch of the same directory: it creates a file
OTHER=$(printf -- '--- /dev/null\n+++ b/net/bridge/owrt_630.c\n@@ -0,0 +1 @@\n+/* OpenWrt */\n')
echo "$OTHER" >"$P/630-other.patch"

# run ARGS...: the script; its status in $rc, stdout in $TMPD/out, stderr in $TMPD/err
run() {
	set +e
	sh "$X" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	set -e
}
# the state of the fake tree: every file with its checksum
state() { (cd "$OW" && find . -type f | LC_ALL=C sort | xargs md5sum) >"$1"; }
refused() { # WHAT PATTERN: a non-zero status, one line on stderr matching PATTERN, the tree as before
	check "$1: refused" test "$rc" -ne 0
	one_line "$1: one line that says why" "$TMPD/err" "$2"
	state "$TMPD/after"
	check "$1: the tree is as it was" cmp -s "$TMPD/before" "$TMPD/after"
}
no_temp() { # WHAT
	check "$1: no temporary file left" sh -c "[ -z \"\$(ls -A '$TMPDIR')\" ] &&
		[ -z \"\$(find '$OW' -name '.*' -o -name '*.orig' -o -name '*.rej')\" ]"
}

# ---- the apply check's kernel: a small tarball from Debian's 6.12, and fake patches --
sub=.80
if git -C "$KSRC" rev-parse -q --verify refs/heads/vanilla >/dev/null 2>&1; then
	have_src=1
	sub=.$(git -C "$KSRC" show vanilla:Makefile | sed -n 's/^SUBLEVEL = //p')
	files=$(cat "$TOPDIR"/patches/6.12/ondemand/*.patch | sed -n 's|^--- a/||p' | sort -u)
	mkdir -p "$TMPD/k"
	git -C "$KSRC" archive --format=tar --prefix="linux-6.12$sub/" vanilla -- Makefile $files \
		net/bridge/br_fdb.c | xz -0 -T1 >"$OW/dl/linux-6.12$sub.tar.xz"
	git -C "$KSRC" archive --format=tar vanilla -- net/bridge/br_fdb.c net/bridge/br_device.c |
		tar -x -C "$TMPD/k"
	# backport: applies, touches none of our files
	mkdir -p "$TMPD/k2/net/bridge"
	{ echo '/* OpenWrt backport */'; cat "$TMPD/k/net/bridge/br_fdb.c"; } >"$TMPD/k2/net/bridge/br_fdb.c"
	(cd "$TMPD" && diff -u --label a/net/bridge/br_fdb.c --label b/net/bridge/br_fdb.c \
		k/net/bridge/br_fdb.c k2/net/bridge/br_fdb.c) >"$G/backport-6.12/050-fdb.patch" || true
	# hack: patches a file OpenWrt copies from target/linux/generic/files
	mkdir -p "$G/files/net/bridge"
	printf 'one\ntwo\n' >"$G/files/net/bridge/owrt_extra.c"
	printf -- '--- a/net/bridge/owrt_extra.c\n+++ b/net/bridge/owrt_extra.c\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n' \
		>"$G/hack-6.12/700-extra.patch"
	# conflicts with our patch 1, which moves this line into a block
	sed 's|^\tnf_ops = rcu_dereference(nf_br_ops);$|\tnf_ops = rcu_dereference(nf_br_ops); /* OpenWrt */|' \
		"$TMPD/k/net/bridge/br_device.c" >"$TMPD/k2/net/bridge/br_device.c"
	(cd "$TMPD" && diff -u --label a/net/bridge/br_device.c --label b/net/bridge/br_device.c \
		k/net/bridge/br_device.c k2/net/bridge/br_device.c) >"$TMPD/650-conflict.patch" || true
	check "the conflicting fake patch changes one line" test "$(grep -c '^+	nf_ops' "$TMPD/650-conflict.patch")" -eq 1
	# applies neither on the base nor after ours
	printf -- '--- a/net/bridge/no_such_file.c\n+++ b/net/bridge/no_such_file.c\n@@ -1 +1 @@\n-a\n+b\n' \
		>"$P/620-stale.patch"
	chk=
else
	have_src=0
	chk=--no-apply-check
fi
printf 'LINUX_VERSION-6.12 = %s\nLINUX_KERNEL_HASH-6.12%s = 0\n' "$sub" "$sub" >"$G/kernel-6.12"

# ---- the version ----------------------------------------------------------------------
printf 'CONFIG_TARGET_BOARD="ramips"\n' >"$OW/.config"
state "$TMPD/before"
run --signoff "$ID" $chk "$OW"
refused "a target on Linux 6.6" "builds Linux 6\.6 .*series exists for 6\.1, 6\.12, 7\.2 only"
run --signoff "$ID" --series 6.1 $chk "$OW"
refused "--series 6.1 without the tree's pending-6.1" "no target/linux/generic/pending-6\.1 "
run --signoff "$ID" --series 6.12 --dry-run $chk "$OW"
check "--series 6.12 on a 6.6 target whose tree has pending-6.12: accepted ($rc)" test "$rc" -eq 0
check "--series 6.12: says the target builds 6.6" grep -q "builds Linux 6\.6; exporting the 6\.12 series" "$TMPD/out"
printf 'CONFIG_TARGET_BOARD="x86"\nCONFIG_TESTING_KERNEL=y\n' >"$OW/.config"
echo 'KERNEL_TESTING_PATCHVER:=6.18' >>"$OW/target/linux/x86/Makefile"
state "$TMPD/before"
run --signoff "$ID" $chk "$OW"
refused "CONFIG_TESTING_KERNEL=y on a target testing 6.18" "builds Linux 6\.18 (KERNEL_TESTING_PATCHVER in "
sed -i '/^KERNEL_TESTING_PATCHVER/d' "$OW/target/linux/x86/Makefile"
rm "$OW/.config"

# ---- the sign-off ---------------------------------------------------------------------
state "$TMPD/before"
run $chk "$OW"
refused "no sign-off" 'no sign-off.*SIGNOFF='
run --signoff 'Someone <someone@example.com>' $chk "$OW"
refused "a placeholder sign-off" 'placeholder domain'
run --signoff 'brnf developers <brnf@openwrt.org>' $chk "$OW"
refused "the patches' placeholder author as the signer" 'placeholder author'
set +e
make -s -C "$TOPDIR" openwrt OPENWRT="$OW" OPENWRT_OPTS="$chk" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
set -e
check "make openwrt without SIGNOFF: refused" test "$rc" -ne 0
one_line "make openwrt without SIGNOFF: one line from the script" "$TMPD/err" 'no sign-off.*SIGNOFF=' '^make[^ :]*: \*\*\*'
state "$TMPD/after"
check "make openwrt without SIGNOFF: the tree is as it was" cmp -s "$TMPD/before" "$TMPD/after"

# ---- foreign files of the prefix --------------------------------------------------------
printf 'Subject: [PATCH] somebody else'"'"'s 640\n---\n' >"$P/640-foo.patch"
state "$TMPD/before"
run --signoff "$ID" $chk "$OW"
refused "a foreign 640-foo.patch in pending-6.12" "pending-6\.12/640-foo\.patch: not written by openwrt-export"
rm "$P/640-foo.patch"
printf 'From: brnf developers <brnf@example.invalid>\n' >"$G/hack-6.12/640-hack.patch"
state "$TMPD/before"
run --signoff "$ID" $chk "$OW"
refused "a 640-hack.patch in hack-6.12" "hack-6\.12/640-hack\.patch: not written by openwrt-export"
rm "$G/hack-6.12/640-hack.patch"

# ---- the apply check --------------------------------------------------------------------
if [ "$have_src" = 1 ]; then
	cp "$TMPD/650-conflict.patch" "$P/"
	state "$TMPD/before"
	run --signoff "$ID" "$OW"
	refused "an OpenWrt patch that ours break" "650-conflict\.patch: OpenWrt's patch applies .* without ours but not after them"
	no_temp "the refused conflict"
	rm "$P/650-conflict.patch"
	cp "$TMPD/650-conflict.patch" "$G/backport-6.12/060-conflict.patch"
	state "$TMPD/before"
	run --signoff "$ID" "$OW"
	refused "ours after an OpenWrt patch they conflict with" \
		"640-01-net-bridge-call-br_netfilter.*: does not apply without fuzz (net/bridge/br_device.c) to linux-6\.12$sub\.tar\.xz after the 4 of OpenWrt's generic patches before it (3 of them applied)"
	rm "$G/backport-6.12/060-conflict.patch"

	mkdir "$TMPD/src"
	tar -xJf "$OW/dl/linux-6.12$sub.tar.xz" -C "$TMPD/src"
	state "$TMPD/before"
	run --signoff "$ID" --dry-run --kernel "$TMPD/src/linux-6.12$sub" "$OW"
	check "--kernel DIR: exit status 0 ($rc)" test "$rc" -eq 0
	check "--kernel DIR: checked on that tree" grep -q "apply check on $TMPD/src/linux-6\.12$sub: 3 of" "$TMPD/out"
	state "$TMPD/after"
	check "--kernel DIR: the tree is as it was" cmp -s "$TMPD/before" "$TMPD/after"

	mv "$OW/dl/linux-6.12$sub.tar.xz" "$TMPD/"
	state "$TMPD/before"
	run --signoff "$ID" --kernel /nonexistent/linux "$OW"
	refused "--kernel that does not exist" "no such file"
	set +e
	BUILD=/nonexistent sh "$X" --signoff "$ID" "$OW" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	set -e
	refused "no kernel source at all" "no Linux 6\.12 source .*KERNEL="
	set +e
	BUILD=$(dirname "$(dirname "$(dirname "$KSRC")")") sh "$X" --signoff "$ID" --dry-run "$OW" \
		>"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	set -e
	check "dry run on Debian's tree: exit status 0 ($rc)" test "$rc" -eq 0
	check "dry run on Debian's tree: says it is Debian's, not OpenWrt's" \
		grep -q "apply check on Debian's linux-source-6\.12 (.*not OpenWrt's kernel" "$TMPD/out"
	state "$TMPD/after"
	check "dry run on Debian's tree: the tree is as it was" cmp -s "$TMPD/before" "$TMPD/after"
	no_temp "dry run on Debian's tree"
	mv "$TMPD/linux-6.12$sub.tar.xz" "$OW/dl/"
fi

# ---- a dry run, then the first export ------------------------------------------------------
state "$TMPD/before"
run --signoff "$ID" --dry-run $chk "$OW"
check "dry run: exit status 0 ($rc)" test "$rc" -eq 0
check "dry run: says what it would write" grep -q "dry run: would write 4 patches" "$TMPD/out"
state "$TMPD/after"
check "dry run: the tree is as it was" cmp -s "$TMPD/before" "$TMPD/after"

run --signoff "$ID" $chk "$OW"
check "first export: exit status 0 ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err"
ls "$P" >"$TMPD/ls"
check "first export: 640-01 to 640-04 written, the selftest left out" test \
	"$(grep -c '^640-0[1-4]-.*\.patch$' "$TMPD/ls")/$(grep -c '^640-' "$TMPD/ls")" = 4/4
check "first export: 640-01 is the series' first patch" test -f \
	"$P/640-01-net-bridge-call-br_netfilter-from-br_dev_xmit-only-f.patch"
signed=0 from=0 mark=0 subj=0
for f in "$P"/640-*.patch; do
	[ "$(grep -cx "Signed-off-by: $ID" "$f")" -eq 1 ] && signed=$((signed + 1))
	[ "$(sed -n 2p "$f")" = "From: $ID" ] && from=$((from + 1))
	sed '/^diff /q' "$f" | sed -n '/^---$/,$p' | grep -q '^Exported by brnf scripts/openwrt-export ' &&
		mark=$((mark + 1))
	grep -q '^Subject: \[PATCH [1-4]/4\]' "$f" && subj=$((subj + 1))
done
check "first export: each has one Signed-off-by: $ID ($signed of 4)" test "$signed" -eq 4
check "first export: each is From: the signer ($from of 4)" test "$from" -eq 4
check "first export: each says below --- who wrote it ($mark of 4)" test "$mark" -eq 4
check "first export: [PATCH n/4] ($subj of 4)" test "$subj" -eq 4
check "first export: the Signed-off-by closes the message, above ---" sh -c \
	"sed -n '/^Signed-off-by:/{n;p;q}' '$P'/640-01-*.patch | grep -qx -- ---"
check "first export: 630-other.patch untouched" test "$(cat "$P/630-other.patch")" = "$OTHER"
if [ "$have_src" = 1 ]; then
	check "first export: the apply check names the tarball and counts OpenWrt's patches" \
		grep -q "apply check on linux-6\.12$sub\.tar\.xz: 3 of OpenWrt's 4 generic 6\.12 patches apply there, 1 fail there with or without ours (first: pending-6\.12/620-stale\.patch; they touch 0 of" "$TMPD/out"
	check "first export: ours apply after OpenWrt's" grep -q "our 4 apply in OpenWrt's order" "$TMPD/out"
else
	ok "apply check on a kernel tarball # SKIP no $KSRC (branch vanilla)"
fi
no_temp "first export"

# ---- the second export: only its own files are replaced ----------------------------------
cp "$P/640-02-"*.patch "$TMPD/02.before"
printf '%s\nan earlier export, with a patch this series no longer has\n' \
	'From: brnf developers <brnf@example.invalid>' >"$P/640-05-old-patch.patch"
sed -i '1a X-Refreshed: by quilt' "$P/640-02-"*.patch
printf 'somebody else'"'"'s 641\n' >"$P/641-other.patch"
run --signoff "$ID" $chk "$OW"
check "second export: exit status 0 ($rc)" test "$rc" -eq 0
check "second export: an earlier export's 640-05 removed, and said so" sh -c \
	"[ ! -e '$P/640-05-old-patch.patch' ] && grep -q 'removed from the earlier export: 640-05-old-patch.patch' '$TMPD/out'"
check "second export: its refreshed 640-02 replaced" cmp -s "$TMPD/02.before" "$P"/640-02-*.patch
check "second export: 630-other.patch untouched" test "$(cat "$P/630-other.patch")" = "$OTHER"
check "second export: 641-other.patch untouched" test "$(cat "$P/641-other.patch")" = "somebody else's 641"
set -- "$P"/640-*
check "second export: still four of ours ($#)" test "$#" -eq 4
no_temp "second export"

exit "$FAILED"
