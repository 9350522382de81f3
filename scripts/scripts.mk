# scripts/scripts.mk: the project's main jobs (included by the top Makefile). What each
# target does is in the ## comment above it (make help).

AB_SERIES = $(if $(filter command line environment,$(origin SERIES)),$(SERIES),6.12)
# MATRIX=NAME is rig/matrices/NAME.matrix, anything else with a / or .matrix a path
AB_MATRIX = $(if $(MATRIX),$(if $(or $(findstring /,$(MATRIX)),$(filter %.matrix,$(MATRIX))),$(MATRIX),$(TOP)/rig/matrices/$(MATRIX).matrix),$(TOP)/rig/matrices/ab.matrix)
AB_CLOCK = $(if $(CLOCK),$(CLOCK),icount)
# in this order: each new O= dir starts from a copy of vanilla's (ondemand's for
# perbridge and ondemand-m). bypass, whose patch changes struct net (included by half
# the kernel), is only compiled (net/bridge/) by kernel-test, after these.
TEST_VARIANTS := vanilla legacy ondemand ondemand-m perbridge native
LOAD_VARIANT ?= vanilla

.PHONY: checkpatch test test-arch test-kernels matrix matrix-netns icount-load publish apply openwrt upstream

## apply KERNEL=path [VARIANT=ondemand] [SERIES=6.12]
##   patch your own kernel tree with a series (scripts/apply-series); the tree is
##   changed only when the whole series applies (VARIANT: ondemand, perbridge, bypass
##   or legacy)
apply:
	@test -n "$(KERNEL)" || { echo "make apply: KERNEL=<kernel tree> is required" >&2; exit 2; }
	@sh $(TOP)/scripts/apply-series $(if $(filter command line environment,$(origin SERIES)),--series $(SERIES)) \
		--variant $(if $(VARIANT),$(VARIANT),ondemand) $(KERNEL)

## openwrt OPENWRT=path SIGNOFF="Name <address>" [TARGET=x86] [KERNEL=tarball or tree]
##   the series for the kernel the OpenWrt tree's target builds, signed off, as its
##   generic pending patches, written only when it applies there after OpenWrt's own
##   generic patches (scripts/openwrt-export). SERIES= another kernel the tree has
##   generic patches for, VARIANT=bypass, OPENWRT_OPTS=--dry-run to check only
openwrt:
	@test -n "$(OPENWRT)" || { echo "make openwrt: OPENWRT=<openwrt tree> is required" >&2; exit 2; }
	@sh $(TOP)/scripts/openwrt-export $(if $(filter command line environment,$(origin SERIES)),--series $(SERIES)) \
		--variant $(if $(VARIANT),$(VARIANT),ondemand) $(if $(SIGNOFF),--signoff '$(SIGNOFF)') \
		$(if $(TARGET),--target $(TARGET)) $(if $(KERNEL),--kernel $(KERNEL)) $(OPENWRT_OPTS) $(OPENWRT)

## upstream SIGNOFF="Name <address>" [SERIES=7.2] [VARIANT=native]
##   the ondemand series for nf-next in build/upstream/SERIES, signed by the submitter
##   (FROM= works too; else git config user.name/email, and a placeholder is refused),
##   checked: checkpatch, git am, each prefix builds =y/=m (scripts/upstream-export).
##   VARIANT=native: the native path's patches as two submissions, the fix and its
##   selftest for nf, the rest for nf-next on top, in build/upstream/SERIES-native/nf
##   and nf-next (scripts/upstream-export-native; patches/SERIES/native/trees).
##   On 7.2 by default; the 6.12 and 6.1 backports only with UPSTREAM_TREE=git tree.
##   UPSTREAM_OUT=dir, UPSTREAM_OPTS=--no-build, RIG_URL=the public address of the
##   rig and raw data the cover letter cites (ondemand's)
upstream:
	@case '$(VARIANT)' in ''|ondemand|native) ;; *) echo "make upstream: VARIANT=$(VARIANT):" \
		"ondemand or native" >&2; exit 2 ;; esac
	@sh $(TOP)/scripts/upstream-export$(if $(filter native,$(VARIANT)),-native) \
		--series $(if $(filter command line environment,$(origin SERIES)),$(SERIES),7.2) \
		$(if $(or $(SIGNOFF),$(FROM)),--signoff '$(or $(SIGNOFF),$(FROM))') \
		$(if $(UPSTREAM_TREE),--tree $(UPSTREAM_TREE)) $(if $(UPSTREAM_OUT),--out $(UPSTREAM_OUT)) \
		$(UPSTREAM_OPTS)

## matrix [MATRIX=alternatives] [AB_OPTS="--time 20 --boots 5"] [SERIES=6.1] [CLOCK=realtime]
##   builds what is missing (the kernels the matrix's rows name), runs the A/B matrix
##   across kernel variants under QEMU (scripts/ab-matrix --help lists AB_OPTS) and
##   prints the table. MATRIX: a name under rig/matrices/ (alternatives:
##   rig/matrices/alternatives.matrix) or the path of a matrix file; default ab.
##   ARCH=arm64 or mipsel: on that architecture's guests (scripts/arch.mk)
matrix:
	@test -r "$(AB_MATRIX)" || { echo "make matrix: MATRIX=$(MATRIX): no matrix file $(AB_MATRIX)" \
		"(a name under rig/matrices/ or a path)" >&2; exit 2; }
	@sh $(TOP)/scripts/deps.sh rig kernel $(ARCH_NAME)
	@$(MAKE) -s guest-deps
	@v=$$($(BUILD)/bin/brnf matrix-kernels "$(AB_MATRIX)") && \
	 $(MAKE) -s kernels SERIES=$(AB_SERIES) VARIANTS="$$(echo $$v)"
	@sh $(TOP)/scripts/ab-matrix --series $(AB_SERIES) --clock $(AB_CLOCK) \
		--matrix "$(AB_MATRIX)" $(AB_OPTS)

## matrix-netns [RUN_OPTS="--reps 5"]
##   the seed's rows on the running kernel, in network namespaces (brnf run --help)
matrix-netns:
	@sh $(TOP)/scripts/deps.sh rig
	@$(MAKE) -s rig
	@$(BUILD)/bin/brnf run $(RUN_OPTS)

## publish DIR=results/...
##   re-render a results directory's tables and plots from its raw data alone
##   (scripts/publish: brnf render, scripts/plot, brnf profile); DIR=results/summary:
##   every run it names, then the headline figure and short table (scripts/headline).
##   Installs and builds what it needs first
publish:
	@test -n "$(DIR)" || { echo "make publish: DIR=results/... is required" >&2; exit 2; }
	@sh $(TOP)/scripts/deps.sh rig
	@$(MAKE) -s rig
	@BRNF=$(BUILD)/bin/brnf sh $(TOP)/scripts/publish $(DIR)

## test
##   install what is missing, build and run every test suite (scripts/test-all);
##   ends with "N passed, N failed"
test:
	@sh $(TOP)/scripts/deps.sh rig kernel
	@$(MAKE) -s rig
	@sh $(TOP)/scripts/test-all

### test-arch
###   the arm64 and mipsel smoke tests (not in make test: two cross-built kernels and
###   Debian userspaces, built first when missing)
test-arch:
	@sh $(TOP)/scripts/deps.sh rig kernel arm64 mipsel
	@$(MAKE) -s rig
	@sh $(TOP)/scripts/test-all arch

### checkpatch
###   scripts/checkpatch.pl --strict over every patch, from its own tree
checkpatch:
	@sh $(TOP)/scripts/checkpatch-series

### test-kernels
###   the 6.12 kernels the tests boot (ondemand-m for kernel-test-m), and bypass's
###   net/bridge/ that kernel-test compiles (here, before make test's arch builds take
###   the 6.12 tree's lock)
test-kernels:
	@$(MAKE) -s kernels SERIES=6.12 VARIANTS="$(TEST_VARIANTS)"
	@BUILD="$(BUILD)" sh $(TOP)/scripts/kernel-build --target net/bridge/ 6.12 bypass

### icount-load [LOAD_VARIANT=ondemand] [LOAD_OPTS="--boots 5"]
###   benchmark: the same small icount matrix on an idle and on a loaded host
###   (scripts/icount-load --help), prints both and their difference
icount-load:
	@sh $(TOP)/scripts/deps.sh all
	@$(MAKE) -s rig
	@$(MAKE) -s kernels SERIES=$(AB_SERIES) VARIANTS="$(LOAD_VARIANT)"
	@sh $(TOP)/scripts/icount-load --series $(AB_SERIES) --variant $(LOAD_VARIANT) $(LOAD_OPTS)
