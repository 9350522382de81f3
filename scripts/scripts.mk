# scripts/scripts.mk: the project's main jobs (included by the top Makefile).
#
#   make matrix [MATRIX=alternatives] [AB_OPTS="--time 20 --boots 5"] [SERIES=6.1]
#        [CLOCK=realtime] [ARCH=arm64]
#        builds what is missing (the kernels the matrix's rows name), runs the A/B matrix
#        across kernel variants under QEMU (scripts/ab-matrix --help lists AB_OPTS) and
#        prints the table. MATRIX: a name under rig/matrices/ (alternatives:
#        rig/matrices/alternatives.matrix) or the path of a matrix file; default ab.
#        ARCH=arm64 or mipsel: on that architecture's guests (scripts/arch.mk)
#   make matrix-netns [RUN_OPTS="--reps 5"]
#        the seed's rows on the running kernel, in network namespaces (brnf run --help)
#   make icount-load [LOAD_VARIANT=ondemand] [LOAD_OPTS="--boots 5"]
#        benchmark: the same small icount matrix on an idle and on a loaded host
#        (scripts/icount-load --help), prints both and their difference
#   make checkpatch           scripts/checkpatch.pl --strict over every patch, from its own tree
#   make test                 every test suite (scripts/test-all), ends with "N passed, N failed"
#   make test-arch            the arm64 and mipsel smoke tests alone (suite arch of make
#                             test: two cross-built kernels and Debian userspaces)
#   make publish DIR=results/...   re-render tables and plots from the raw data alone (and
#                             profile.md/.csv where raw/*/insn-profile.txt are: brnf profile)
#   make apply KERNEL=path [VARIANT=ondemand] [SERIES=6.12]   patch your own kernel tree
#   make openwrt OPENWRT=path [VARIANT=ondemand] [SERIES=6.12] pending patches for OpenWrt
#   make upstream SIGNOFF="Name <address>" [SERIES=6.12] [UPSTREAM_TREE=git tree]
#        [UPSTREAM_OUT=dir] [UPSTREAM_OPTS=--no-build]   the ondemand series for nf-next,
#        signed by the submitter (FROM= works too; else git config user.name/email, and a
#        placeholder is refused), checked: checkpatch, git am, each prefix builds =y/=m

AB_SERIES = $(if $(filter command line environment,$(origin SERIES)),$(SERIES),6.12)
# MATRIX=NAME is rig/matrices/NAME.matrix, anything else with a / or .matrix a path
AB_MATRIX = $(if $(MATRIX),$(if $(or $(findstring /,$(MATRIX)),$(filter %.matrix,$(MATRIX))),$(MATRIX),$(TOP)/rig/matrices/$(MATRIX).matrix),$(TOP)/rig/matrices/ab.matrix)
AB_CLOCK = $(if $(CLOCK),$(CLOCK),icount)
TEST_VARIANTS := vanilla legacy bypass ondemand ondemand-m
LOAD_VARIANT ?= vanilla

.PHONY: checkpatch test test-arch test-kernels matrix matrix-netns icount-load publish apply openwrt upstream

test:
	@sh $(TOP)/scripts/deps.sh all
	@$(MAKE) -s rig
	@sh $(TOP)/scripts/test-all

# The arch suite alone (make test runs it last, its kernels built in the background).
test-arch:
	@sh $(TOP)/scripts/deps.sh rig kernel arm64 mipsel
	@$(MAKE) -s rig
	@sh $(TOP)/scripts/test-all arch

checkpatch:
	@sh $(TOP)/scripts/checkpatch-series

# The 6.12 kernels the tests boot (ondemand-m for kernel-test-m); kernel-test compiles net/bridge/ of each 6.1 series.
test-kernels:
	@$(MAKE) -s kernels SERIES=6.12 VARIANTS="$(TEST_VARIANTS)"

matrix:
	@test -r "$(AB_MATRIX)" || { echo "make matrix: MATRIX=$(MATRIX): no matrix file $(AB_MATRIX)" \
		"(a name under rig/matrices/ or a path)" >&2; exit 2; }
	@sh $(TOP)/scripts/deps.sh rig kernel $(ARCH_NAME)
	@$(MAKE) -s guest-deps
	@v=$$($(BUILD)/bin/brnf matrix-kernels "$(AB_MATRIX)") && \
	 $(MAKE) -s kernels SERIES=$(AB_SERIES) VARIANTS="$$(echo $$v)"
	@sh $(TOP)/scripts/ab-matrix --series $(AB_SERIES) --clock $(AB_CLOCK) \
		--matrix "$(AB_MATRIX)" $(AB_OPTS)

icount-load:
	@sh $(TOP)/scripts/deps.sh all
	@$(MAKE) -s rig
	@$(MAKE) -s kernels SERIES=$(AB_SERIES) VARIANTS="$(LOAD_VARIANT)"
	@sh $(TOP)/scripts/icount-load --series $(AB_SERIES) --variant $(LOAD_VARIANT) $(LOAD_OPTS)

matrix-netns:
	@sh $(TOP)/scripts/deps.sh rig
	@$(MAKE) -s rig
	@$(BUILD)/bin/brnf run $(RUN_OPTS)

publish:
	@test -n "$(DIR)" || { echo "make publish: DIR=results/... is required" >&2; exit 2; }
	@$(BUILD)/bin/brnf render $(DIR); rc=$$?; \
	 [ $$rc -eq 0 ] || [ $$rc -eq 3 ] || exit $$rc; \
	 sh $(TOP)/scripts/plot $(DIR) || exit $$?; \
	 if ls $(DIR)/raw/*/insn-profile.txt >/dev/null 2>&1; then \
		$(BUILD)/bin/brnf profile $(DIR) >/dev/null || exit $$?; fi

apply:
	@test -n "$(KERNEL)" || { echo "make apply: KERNEL=<kernel tree> is required" >&2; exit 2; }
	@sh $(TOP)/scripts/apply-series $(if $(filter command line environment,$(origin SERIES)),--series $(SERIES)) \
		--variant $(if $(VARIANT),$(VARIANT),ondemand) $(KERNEL)

openwrt:
	@test -n "$(OPENWRT)" || { echo "make openwrt: OPENWRT=<openwrt tree> is required" >&2; exit 2; }
	@sh $(TOP)/scripts/openwrt-export --series $(AB_SERIES) \
		--variant $(if $(VARIANT),$(VARIANT),ondemand) $(OPENWRT)

upstream:
	@sh $(TOP)/scripts/upstream-export --series $(AB_SERIES) \
		$(if $(or $(SIGNOFF),$(FROM)),--signoff '$(or $(SIGNOFF),$(FROM))') \
		$(if $(UPSTREAM_TREE),--tree $(UPSTREAM_TREE)) $(if $(UPSTREAM_OUT),--out $(UPSTREAM_OUT)) \
		$(UPSTREAM_OPTS)
