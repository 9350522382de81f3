#!/bin/sh
# arch-smoke: the smoke test of the foreign-architecture guests (suite arch of
# scripts/test-all, run by make test-arch; make test leaves it out).
# For each ARCH (default: arm64 mipsel): build its userspace and controller (make rootfs)
# and its 6.12 ondemand kernel, boot that under icount and check inside
# (scripts/tests/arch-guest.sh) that the userspace is the guest's own and that a bridge's
# nf_call_iptables registers br_netfilter's hooks and clearing it keeps them; then one
# short flow through the test bed of the controller: scripts/ab-matrix --arch ARCH with a
# one-row matrix (ondemand, br-lan's nf_call_*), 5000 pktgen frames and one TCP flow of 1 s
# each way, one boot (--max-boots 1: no further rounds), whose row must come back verified
# and render. That boot runs on the host's clock (--clock realtime): it checks the path,
# not a figure. The first boot is under icount for arm64; mipsel's under icount spends
# about 3 minutes of wall time measuring its counter against the RTC in guest time
# (scripts/arch.sh, -rtc clock=vm), so make test boots it on the host's clock too.
#
# usage: scripts/tests/arch-smoke.sh [ARCH...]
# Prints "ok N - ..." / "not ok N - ..", the wall time of every step, and ends with
# "N passed, N failed". Logs: BUILD/arch-smoke/ARCH/.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
export BUILD
. "$TOP/scripts/arch.sh"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $*"; }
notok() { fail=$((fail + 1)); echo "not ok $((pass + fail)) - $*"; }
t0=0
step() { t0=$(date +%s); }
took() { echo "$(( $(date +%s) - t0 ))s"; }

[ $# -gt 0 ] || set -- arm64 mipsel
for a in "$@"; do
	arch_set "$a" || { notok "$a: unknown architecture"; continue; }
	case $arch in
	arm64) machine=aarch64 ;;
	mipsel) machine=mips ;;
	*) notok "$arch: not a foreign architecture"; continue ;;
	esac
	logs=$BUILD/arch-smoke/$arch
	rm -rf "$logs"
	mkdir -p "$logs"

	step
	if make -s -C "$TOP" rootfs ARCH="$arch" >"$logs/rootfs.log" 2>&1; then
		ok "$arch: userspace and controller built ($(took); make rootfs)"
	else
		notok "$arch: make rootfs failed ($(took)); see $logs/rootfs.log"
		tail -n 5 "$logs/rootfs.log" | sed 's/^/#   /'
		continue
	fi
	step
	if sh "$TOP/scripts/kernel-build" --arch "$arch" 6.12 ondemand >"$logs/kernel.log" 2>&1; then
		ok "$arch: 6.12 ondemand kernel built ($(took), lock waits included)"
	else
		notok "$arch: 6.12 ondemand kernel build failed ($(took)); see $logs/kernel.log"
		tail -n 5 "$logs/kernel.log" | sed 's/^/#   /'
		continue
	fi
	img=$(sh "$TOP/scripts/kernel-build" --arch "$arch" --print-image 6.12 ondemand)

	# under icount, unless its icount boot is slow (mipsel: -rtc clock=vm, whose calibration
	# takes wall time at every boot): make test checks the path, the matrix (make matrix
	# ARCH=mipsel) boots mipsel under icount
	step
	rc=0
	clk=--icount clkname="under icount"
	[ "$q_icount_boot_slow" = 0 ] || clk= clkname="on the host's clock"
	# shellcheck disable=SC2086
	sh "$TOP/scripts/qemu-run" --arch "$arch" --kernel "$img" $clk --quiet --fail-on-warn \
		--timeout 900 --out "$logs/guest" -- sh "$TOP/scripts/tests/arch-guest.sh" "$machine" \
		>"$logs/guest.log" 2>&1 || rc=$?
	con=$logs/guest/console.log
	tr -d '\r' <"$con" 2>/dev/null | grep -E '^(not )?ok [0-9]+ - ' | sed "s/^/# $arch guest: /"
	line=$(tr -d '\r' <"$con" 2>/dev/null | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	gp=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	if [ "$rc" -eq 0 ] && [ "${gp:-0}" -gt 0 ]; then
		ok "$arch: guest boots $clkname, its own userspace, hooks come and go ($line; $(took))"
	else
		notok "$arch: guest checks: exit $rc, ${line:-no result line} ($(took)); see $con"
		sed 's/^/#   /' "$logs/guest.log"
	fi

	step
	printf 'kernel=ondemand global=0 local=br-lan\n' >"$logs/smoke.matrix"
	rc=0
	sh "$TOP/scripts/ab-matrix" --arch "$arch" --series 6.12 --clock realtime \
		--matrix "$logs/smoke.matrix" --workloads pps64,tcp --packets 5000 --flows 1 --time 1 --omit 0 --boots 1 --reps 1 \
		--max-boots 1 --jobs 1 --out "$logs/ab" >"$logs/ab.log" 2>&1 || rc=$?
	nm() { find "$logs/ab/raw" -path "*$1*" -name record.json 2>/dev/null | wc -l; }
	npps=$(nm -pps64-) ntcp=$(nm -tcp-) nver=$(nm -verify)
	v=$(jq -r '.rows[0].verified' "$logs/ab/matrix.json" 2>/dev/null)
	q=$(jq -r '.qemu_options' "$logs/ab/raw/ondemand-boot1/qemu.json" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$npps" -eq 2 ] && [ "$ntcp" -eq 2 ] && [ "$nver" -eq 1 ] &&
		[ "$v" = yes ] && echo "$q" | grep -q -- "-machine $q_machine -cpu $q_cpu"; then
		ok "$arch: pktgen and one TCP flow each way through the test bed, filtering verified ($(took))"
	else
		notok "$arch: ab-matrix exit $rc, records pps64 $npps tcp $ntcp verify $nver, verified '$v', '$q' ($(took)); see $logs/ab.log"
		tail -n 15 "$logs/ab.log" | sed 's/^/#   /'
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
