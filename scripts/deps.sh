#!/bin/sh
# Install the Debian packages a part of brnf needs, only those that are missing.
# usage: deps.sh [PART...]   PART: rig, kernel, x86_64, arm64, mipsel or all (default: all)
#   all: rig, kernel, arm64 and mipsel (`make test` needs rig and kernel, `make
#   test-arch` arm64 and mipsel too)
#   arm64, mipsel: Debian's cross gcc and QEMU for that architecture, and mmdebstrap for
#   its userspace (scripts/arch.sh); x86_64 needs nothing beyond kernel
set -eu
. "$(dirname "$0")/arch.sh"

rig_pkgs="build-essential pkg-config git libmnl-dev libjson-c-dev libssl-dev libcmocka-dev
	iperf3 nftables iptables conntrack iproute2 jq gnuplot-nox fonts-dejavu-core clang
	libclang-rt-14-dev openssh-server openssh-client procps busybox-static util-linux"
kernel_pkgs="linux-source-6.12 linux-source-6.1 qemu-system-x86 ccache flex bison bc
	libelf-dev libssl-dev cpio kmod rsync xz-utils perl ebtables socat iputils-ping nmap"

want=
for part in ${*:-all}; do
	case $part in
	rig)	want="$want $rig_pkgs" ;;
	kernel)	want="$want $kernel_pkgs" ;;
	all)	want="$want $rig_pkgs $kernel_pkgs mmdebstrap"
		for a in arm64 mipsel; do arch_set $a; want="$want $arch_pkgs"; done ;;
	*)	arch_set "$part" 2>/dev/null ||
			{ echo "deps.sh: unknown part '$part' (rig, kernel, x86_64, arm64, mipsel or all)" >&2; exit 2; }
		[ "$foreign" = 0 ] || want="$want $arch_pkgs mmdebstrap" ;;
	esac
done

missing=
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: must run as root to install$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
