#!/bin/sh
# scripts/kernel-build's variant names (NAME[-m][:N][+distro|+openwrt|+trace]): the O= directory each
# one is built in, and a one-line error for a name it cannot build. --print-dir builds
# nothing and needs no kernel source. No root or network needed.
set -eu
. "$(dirname "$0")/lib.sh"
KB=$TOPDIR/scripts/kernel-build
B=$TMPD/build

dir_is() {
	[ "$(BUILD=$B sh "$KB" --print-dir "$1" "$2")" = "$B/kernel/$1/$3" ]
}
check "vanilla: its own directory" dir_is 6.12 vanilla vanilla
check "ondemand:2: the first two patches, ':' as '-'" dir_is 6.12 ondemand:2 ondemand-2
check "ondemand-m: br_netfilter a module" dir_is 7.2 ondemand-m ondemand-m
check "nobrnf+distro: kernel/distro.config merged last" dir_is 6.12 nobrnf+distro nobrnf+distro
check "ondemand-m:2+distro: all three at once" dir_is 6.1 ondemand-m:2+distro ondemand-m-2+distro
check "ARCH=arm64: the arm64- prefix" sh -c \
	"[ \"\$(ARCH=arm64 BUILD='$B' sh '$KB' --print-dir 6.12 vanilla+distro)\" = '$B/kernel/6.12/arm64-vanilla+distro' ]"
check "vanilla-m+openwrt: kernel/openwrt.config merged last" dir_is 6.12 vanilla-m+openwrt vanilla-m+openwrt
for f in distro openwrt; do
	check "kernel/$f.config sets XFRM and MPTCP" sh -c \
		"grep -qx 'CONFIG_XFRM=y' '$TOPDIR/kernel/$f.config' && grep -qx 'CONFIG_MPTCP=y' '$TOPDIR/kernel/$f.config'"
done
check "kernel/openwrt.config unsets JUMP_LABEL, as OpenWrt's generic config" \
	grep -qx '# CONFIG_JUMP_LABEL is not set' "$TOPDIR/kernel/openwrt.config"
check "ondemand:1+trace: kernel/trace.config merged last" dir_is 6.12 ondemand:1+trace ondemand-1+trace
check "kernel/trace.config has kprobe events and no function tracer" sh -c \
	"grep -qx 'CONFIG_KPROBE_EVENTS=y' '$TOPDIR/kernel/trace.config' && ! grep -q 'FUNCTION_TRACER=y' '$TOPDIR/kernel/trace.config'"

# bad_name "what" SERIES VARIANT PATTERN: exit 1, one line on stderr matching PATTERN,
# nothing written under BUILD
bad_name() {
	run_rc env BUILD="$B" sh "$KB" --print-dir "$2" "$3" > "$TMPD/out" 2> "$TMPD/err"
	check "$1: exit 1" test "$rc" -eq 1
	one_line "$1: one line naming it" "$TMPD/err" "$4"
	check "$1: nothing written" test ! -e "$B"
}
bad_name "an unknown +suffix" 6.12 vanilla+foo "unknown '+foo' in 'vanilla+foo'"
bad_name "vanilla+trace+distro" 6.12 vanilla+trace+distro "'vanilla+trace+distro': one +distro, +openwrt or +trace at most"
bad_name "nftbridge+distro" 6.12 nftbridge+distro "'nftbridge+distro': nftbridge takes no +distro"
bad_name "two suffixes" 6.12 vanilla+distro+openwrt "'vanilla+distro+openwrt': one +distro, +openwrt or +trace at most"
bad_name "nobrnf-m+distro" 6.12 nobrnf-m+distro "variant 'nobrnf' has no br_netfilter"
bad_name "a patch count of 0" 6.12 ondemand:0+distro "bad patch count in 'ondemand:0+distro'"
bad_name "vanilla:1 (no series)" 6.12 vanilla:1 "variant 'vanilla' has no patch series"
bad_name "an unknown variant" 6.12 fast+distro "unknown variant 'fast'"
bad_name "an unknown series" 6.6 vanilla "unknown series '6.6'"
exit "$FAILED"
