# rig/profile/profile.mk: the instruction profile (rig/profile/README.md).
# What each target does is in the ## comment above it (make help).

PROFILE_DIR := $(TOP)/rig/profile
PROFILE_PLUGIN := $(BUILD)/profile/insn-profile.so
QEMU_SRC := $(BUILD)/qemu-src
QEMU_PLUGIN_H := $(QEMU_SRC)/src/include/qemu/qemu-plugin.h
# the source version of the QEMU that boots the guests (a binNMU's +bN is not in it)
QEMU_SRC_VERSION = $(shell dpkg-query -W -f='$${source:Version}' qemu-system-common 2>/dev/null)
PROFILE_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
	-I$(QEMU_SRC)/src/include/qemu -I$(RIG_DATA_DIR)
PROFILE_MATRIX = $(if $(MATRIX),$(AB_MATRIX),$(RIG_DIR)/matrices/profile.matrix)
# the L1 cache models of make profile (cachesim.h; rig/profile/README.md says where the
# figures come from): a QCA9558's MIPS 74Kc and a Cortex-A53 with 32 KiB I and D
PROFILE_CACHES ?= 74kc:65536:4:32:32768:4:32 a53:32768:2:64:32768:4:64

.PHONY: profile profile-plugin qemu-plugin-h

### qemu-plugin-h
###   fetch Debian's qemu source at the installed version into build/qemu-src, for its
###   qemu-plugin.h (debian-fetch does nothing when it is there already)
qemu-plugin-h:
	@v='$(QEMU_SRC_VERSION)'; [ -n "$$v" ] || { echo "make $@: qemu-system-common is" \
		"not installed (scripts/deps.sh kernel)" >&2; exit 2; }; \
	sh $(TOP)/scripts/debian-fetch src "qemu=$$v" $(QEMU_SRC)

### profile-plugin
###   build/profile/insn-profile.so, the QEMU TCG plugin, built against qemu-plugin.h of
###   Debian's qemu source at the version of the installed qemu-system-common
###   (scripts/debian-fetch, into build/qemu-src; nothing else of that source is used)
profile-plugin: qemu-plugin-h
	@$(MAKE) -s --no-print-directory $(PROFILE_PLUGIN)

$(PROFILE_PLUGIN): $(PROFILE_DIR)/insn-profile.c $(RIG_DATA_DIR)/symtab.c $(RIG_DATA_DIR)/symtab.h \
		$(RIG_DATA_DIR)/cachesim.c $(RIG_DATA_DIR)/cachesim.h \
		$(RIG_DATA_DIR)/file.c $(RIG_DATA_DIR)/errbuf.c \
		$(QEMU_PLUGIN_H)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(PROFILE_CFLAGS) -o $@ $(PROFILE_DIR)/insn-profile.c $(RIG_DATA_DIR)/symtab.c \
		$(RIG_DATA_DIR)/cachesim.c $(RIG_DATA_DIR)/file.c $(RIG_DATA_DIR)/errbuf.c -lpthread

## profile [MATRIX=idle] [AB_OPTS="--boots 2"] [SERIES=6.12] [ARCH=arm64] [PROFILE_CACHES=...]
##   the matrix rig/matrices/profile.matrix (or MATRIX's), pps64 only, every guest with
##   the plugin (scripts/ab-matrix --profile), into results/<date>-<series>-icount-profile:
##   the matrix's tables, profile.md / profile.csv and the L1 cache models' cache.md /
##   cache.csv (brnf profile DIR; PROFILE_CACHES="" for none)
profile:
	@test -r "$(PROFILE_MATRIX)" || { echo "make profile: no matrix file $(PROFILE_MATRIX)" >&2; exit 2; }
	@sh $(TOP)/scripts/deps.sh rig kernel $(ARCH_NAME)
	@$(MAKE) -s guest-deps profile-plugin
	@v=$$($(BUILD)/bin/brnf matrix-kernels "$(PROFILE_MATRIX)") && \
	 $(MAKE) -s kernels SERIES=$(AB_SERIES) VARIANTS="$$(echo $$v)"
	@PROFILE_CACHES='$(PROFILE_CACHES)' sh $(TOP)/scripts/ab-matrix --series $(AB_SERIES) --clock icount \
		--matrix "$(PROFILE_MATRIX)" --workloads pps64 --profile $(AB_OPTS)
