#!/bin/sh
# arch-prebuild: what the arch suite (scripts/tests/arch-smoke.sh) boots, made ahead:
# each ARCH's userspace and controller (make rootfs) and its 6.12 ondemand kernel.
# scripts/test-all runs it in the background at nice 19, the userspaces from the start
# (they take no kernel lock) and the kernels after the x86_64 ones, while the suites that
# boot one-vCPU guests leave a core idle; the arch suite then finds everything up to
# date, and builds or reports whatever this did not make (its log is only for reading).
#
# usage: scripts/tests/arch-prebuild.sh rootfs|kernels|all [ARCH...]   (default: arm64 mipsel)
# Exit status: 0 when every step succeeded, 1 when one failed, 2 on bad usage.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:-}
case $what in
rootfs|kernels|all) shift ;;
*) echo "arch-prebuild: usage: arch-prebuild.sh rootfs|kernels|all [ARCH...]" >&2; exit 2 ;;
esac
rc=0
[ $# -gt 0 ] || set -- arm64 mipsel
for a in "$@"; do
	if [ "$what" != kernels ]; then
		t0=$(date +%s)
		make -s -C "$TOP" rootfs ARCH="$a" || rc=1
		echo "arch-prebuild: $a: make rootfs, exit $rc, $(( $(date +%s) - t0 )) s"
	fi
	if [ "$what" != rootfs ]; then
		t0=$(date +%s)
		sh "$TOP/scripts/kernel-build" --arch "$a" 6.12 ondemand || rc=1
		echo "arch-prebuild: $a: 6.12 ondemand kernel, exit $rc, $(( $(date +%s) - t0 )) s"
	fi
done
exit $rc
