# brnf: bridge-netfilter overhead, kernel patches and A/B rig.
# Each part keeps its own rules in a fragment; this file only ties them together.
# `make help` is generated from the comments above the rules (scripts/make-help):
# `## ` above a target users run, `### ` above one for developers.
.DEFAULT_GOAL := help
TOP := $(abspath .)
BUILD := $(TOP)/build

include rig/rig.mk
include scripts/storm.mk
include scripts/arch.mk
include kernel/kernel.mk
include scripts/scripts.mk
include rig/profile/profile.mk

.PHONY: help deps clean distclean

# the main jobs first, then the kernels, then the rest in the order they are included
HELP_MAKEFILES = scripts/scripts.mk kernel/kernel.mk \
	$(filter-out scripts/scripts.mk kernel/kernel.mk,$(filter Makefile %.mk,$(MAKEFILE_LIST)))

## help
##   this text, from the comments above the rules in the makefiles
help:
	@sh $(TOP)/scripts/make-help $(addprefix $(TOP)/,$(HELP_MAKEFILES))

### deps [PART=rig|kernel|x86_64|arm64|mipsel|all]
###   install the Debian packages a part needs (scripts/deps.sh; default all)
deps:
	sh scripts/deps.sh $(PART)

# What `make clean` keeps under build/: what came from outside the project and is
# slow to fetch or remake, none of it changed by brnf. distclean removes build/.
CLEAN_KEEP := ccache rootfs debian apt

## clean
##   remove what the build made under build/: the controller, the storm, unit and
##   fuzz binaries, test logs, exported series (build/upstream), the link build/kernel
##   to the machine's kernel cache (~/.cache/brnf/kernel, BRNF_CACHE: what every clone's
##   kernels are, kept). Keeps the caches from outside (build/ccache, the Debian
##   userspaces build/rootfs, fetched sources build/debian and build/apt); never
##   touches results/ or anything outside the repository
clean:
	@sh $(TOP)/scripts/clean --build "$(BUILD)" $(addprefix --keep ,$(CLEAN_KEEP) 'kernel/*/src')

## distclean
##   clean, and the caches too: all of build/ (the machine's kernel cache stays:
##   rm -rf ~/.cache/brnf removes it)
distclean:
	@sh $(TOP)/scripts/clean --build "$(BUILD)"
