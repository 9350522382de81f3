# arch.sh: what each target architecture of the brnf guests is (sourced by
# kernel-build, qemu-run, kernel-test, ab-matrix, rootfs-build and qemu-storm).
#
#   . "$TOP/scripts/arch.sh"; arch_set "${ARCH:-x86_64}" || exit 1
#
# ARCH is x86_64 (default; x86 and amd64 mean the same), arm64 or mipsel. arch_set sets:
#   arch         the canonical name (x86_64, arm64, mipsel)
#   k_arch       the kernel's ARCH= (x86, arm64, mips)
#   k_cross      CROSS_COMPILE= ("" on x86_64: the host's gcc), k_gcc_pkg its package
#   k_target     the make target of the image, k_image its path below the O= dir
#   k_prefix     prefix of the O= dir name below build/kernel/SERIES/ ("" on x86_64,
#                so that the x86_64 kernels stay where they always were)
#   q_bin, q_machine, q_cpu, q_console, q_mem   QEMU and its defaults; q_pkg its package
#   q_icount_append   kernel command line the guest needs under -icount sleep=off
#   q_icount_opts     QEMU options the guest needs under -icount sleep=off
#   q_icount_boot_slow  1 when a boot under icount spends long in wall time before
#                     the command starts (mipsel: -rtc clock=vm's calibration)
#   q_9p_root, q_9p_out  extra -device options of the two virtio-9p-pci shares (their
#                     PCI address where the default would make them share an interrupt)
#   deb_arch     Debian's name of the architecture
#   arch_pkgs    the Debian packages that build and boot its kernels (gcc, QEMU)
#   foreign      1 when the guest needs its own userspace (build/rootfs/ARCH), else 0
# Every guest has one vCPU under icount; the CPUs are those of routers: Cortex-A53
# (MediaTek Filogic, Rockchip RK3328), MIPS 74Kf (the seed's QCA9558 is a 74Kc) and, on
# x86_64, an Atom C3000 (Denverton, Goldmont cores: network appliances), QEMU's
# Denverton-v2 less the features QEMU 7.2's TCG does not implement (it would warn and
# drop them), so the guest's CPUID is what the model says (the guest records its flags
# in results.json, host.cpu_flags).
# shellcheck disable=SC2034  # the variables are for the scripts that source this file
arch_set() {
	case $1 in
	x86_64|x86|amd64)
		arch=x86_64 k_arch=x86 k_cross='' k_gcc_pkg=gcc k_target=bzImage
		k_image=arch/x86/boot/bzImage k_prefix='' q_bin=qemu-system-x86_64 q_machine=pc
		q_cpu=Denverton-v2,-tsc-deadline,-rdseed,-sha-ni,-spec-ctrl,-arch-capabilities,-ssbd,-3dnowprefetch,-xsavec
		q_console=ttyS0 q_mem=1G deb_arch=amd64 q_pkg=qemu-system-x86
		q_icount_append='' q_icount_opts='' q_icount_boot_slow=0 foreign=0
		q_9p_root='' q_9p_out='' ;;
	arm64|aarch64)
		arch=arm64 k_arch=arm64 k_cross=aarch64-linux-gnu- k_gcc_pkg=gcc-aarch64-linux-gnu
		k_target=Image k_image=arch/arm64/boot/Image k_prefix=arm64-
		q_bin=qemu-system-aarch64 q_machine=virt q_cpu=cortex-a53 q_console=ttyAMA0
		q_mem=1G deb_arch=arm64 q_pkg=qemu-system-arm q_icount_append='' q_icount_opts=''
		q_icount_boot_slow=0 foreign=1 q_9p_root='' q_9p_out='' ;;
	mipsel)
		# malta maps 256 MiB of low memory; more would need HIGHMEM. nowait: under
		# -icount sleep=off QEMU 7.2's malta guest, idle in the WAIT instruction, never
		# saw its 9p replies arrive (the boot stopped after init started); without
		# WAIT the idle loop runs instructions and the guest boots. -rtc clock=vm: malta's
		# kernel measures its CP0 counter's frequency against the RTC's seconds at boot;
		# on the host's clock (QEMU's default) that made the guest's clock run about four
		# times faster than its instructions under icount, and every ns/packet with it.
		# The shares in PCI slots 18 and 20: malta routes those to IRQ 10 and 11. In the
		# first free slots both were on IRQ 10, edge-triggered at the 8259 (ELCR 0, no
		# firmware sets it): a completion raised while the other device held the line
		# made no edge, and the guest waited for 9p replies for ever (QEMU: isr 1, ring
		# empty; results/2026-12-02-6.12-icount-mipsel-3, failed-guests/)
		arch=mipsel k_arch=mips k_cross=mipsel-linux-gnu- k_gcc_pkg=gcc-mipsel-linux-gnu
		k_target=vmlinux k_image=vmlinux k_prefix=mipsel- q_bin=qemu-system-mipsel
		q_machine=malta q_cpu=74Kf q_console=ttyS0 q_mem=256M deb_arch=mipsel
		q_pkg=qemu-system-mips q_icount_append=nowait q_icount_opts='-rtc clock=vm'
		q_icount_boot_slow=1 foreign=1 q_9p_root=,addr=12.0 q_9p_out=,addr=14.0 ;;
	*)
		echo "${me:-${0##*/}}: ARCH '$1' unknown (x86_64, arm64 or mipsel)" >&2
		return 1 ;;
	esac
	arch_pkgs="$k_gcc_pkg $q_pkg"
}

# q_clock_opts icount|realtime [SMP]: QEMU's clock and vCPU options for a guest of the
# architecture arch_set chose (qemu-run's command, ab-matrix's provenance)
q_clock_opts() {
	if [ "$1" = icount ]; then
		echo "-icount shift=0,sleep=off -smp 1${q_icount_opts:+ $q_icount_opts}"
	else
		echo "-smp ${2:-1}"
	fi
}
