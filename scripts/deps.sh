#!/bin/sh
# Install the Debian packages a part of brnf needs, only those that are missing.
# usage: deps.sh [rig|kernel|all]   (default: all)
set -eu

rig_pkgs="build-essential pkg-config git libmnl-dev libjson-c-dev libcmocka-dev
	iperf3 nftables iptables conntrack iproute2 jq gnuplot-nox clang libclang-rt-14-dev
	openssh-server openssh-client procps busybox-static util-linux"
kernel_pkgs="linux-source-6.12 linux-source-6.1 qemu-system-x86 ccache flex bison bc
	libelf-dev libssl-dev cpio kmod rsync xz-utils perl ebtables socat iputils-ping"

case "${1:-all}" in
rig)	want=$rig_pkgs ;;
kernel)	want=$kernel_pkgs ;;
all)	want="$rig_pkgs $kernel_pkgs" ;;
*)	echo "deps.sh: unknown part '$1' (rig, kernel or all)" >&2; exit 2 ;;
esac

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: must run as root to install packages" >&2
	exit 1
fi

missing=
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -n "$missing" ] || exit 0

echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
