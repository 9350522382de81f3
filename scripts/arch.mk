# scripts/arch.mk: guests of other architectures (included by the top Makefile after
# rig/rig.mk and scripts/storm.mk). ARCH=x86_64 (default), arm64 or mipsel is read by
# every kernel and QEMU target (scripts/arch.sh says what each one is). The ###
# comment above each target says what it does (make help).

ARCH_NAME = $(or $(ARCH),x86_64)
arch_sh = me='make $@' && . $(TOP)/scripts/arch.sh && arch_set $(ARCH_NAME)

.PHONY: rootfs guest-deps

### rootfs ARCH=arm64
###   build/rootfs/ARCH: the guest's own Debian 12 userspace (scripts/rootfs-build,
###   made once and cached), and in its /usr/local/bin the controller and the storm,
###   cross-compiled (build/ARCH/bin/) against the tree's libmnl, json-c and libcrypto
###   (--sysroot; the tree holds their -dev packages)
rootfs:
	@set -e; $(arch_sh) || exit 2; \
	[ "$$foreign" = 1 ] || { echo "make rootfs: $$arch guests run the host's userspace" >&2; exit 2; }; \
	sh $(TOP)/scripts/rootfs-build --arch $$arch; \
	r=$$(sh $(TOP)/scripts/rootfs-build --arch $$arch --print-dir); \
	PKG_CONFIG_SYSROOT_DIR=$$r \
	PKG_CONFIG_LIBDIR=$$r/usr/lib/$${k_cross%-}/pkgconfig:$$r/usr/share/pkgconfig \
		$(MAKE) -s --no-print-directory rig storm-bin BUILD=$(BUILD)/$$arch RIG_MAN= \
		RIG_CC="$${k_cross}gcc --sysroot=$$r" RIG_AR="$${k_cross}ar"; \
	for b in brnf brnf-storm; do \
		cmp -s $(BUILD)/$$arch/bin/$$b $$r/usr/local/bin/$$b || \
			install -D -m 755 $(BUILD)/$$arch/bin/$$b $$r/usr/local/bin/$$b; \
	done

### guest-deps [ARCH=arm64]
###   what booting ARCH's guests needs besides the kernels: the host's controller
###   (make rig), on a foreign ARCH make rootfs
guest-deps: rig
	@set -e; $(arch_sh) || exit 2; \
	[ "$$foreign" = 0 ] || $(MAKE) -s --no-print-directory rootfs
