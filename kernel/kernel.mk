# kernel/kernel.mk: build and test the brnf kernels (included by the top Makefile;
# TOP and BUILD come from there). The work is done by scripts/kernel-build,
# scripts/kernel-test and scripts/qemu-run; this file only names the targets.
#
#   make kernels                         every variant of SERIES (default: 6.12 and 6.1;
#                                        nftbridge links nobrnf's image, kernel/README.md)
#   make kernels SERIES=6.12 VARIANTS="vanilla ondemand"
#   make kernel SERIES=6.12 VARIANT=ondemand      one variant (VARIANT may be NAME:N,
#                                                 the first N patches of a series)
#   make kernel-config SERIES=6.12 VARIANT=debug  source branch and .config only
#   make kernel-test                     boot the 6.12 kernels and run the kselftests,
#                                        compile net/bridge/ of every 6.1 series
#   make kernel-test-debug               the same on the debug kernel (KASAN, lockdep,
#                                        kmemleak, failslab) plus kernel/tests/enomem.sh
#   make kernel-shell SERIES=6.12 VARIANT=vanilla CMD="nft list hooks"
#                                        run one command in a guest

KERNEL_ALL_VARIANTS := nobrnf vanilla legacy bypass ondemand nftbridge debug

# SERIES/VARIANT(S) only count when given on the command line or in the environment,
# so that another fragment's defaults cannot change what `make kernels` builds.
k_given = $(if $(filter command line environment,$(origin $(1))),$($(1)),$(2))
K_SERIES = $(call k_given,SERIES,6.12 6.1)
K_VARIANTS = $(call k_given,VARIANTS,$(KERNEL_ALL_VARIANTS))
K_VARIANT = $(call k_given,VARIANT,vanilla)

.PHONY: kernels kernel kernel-config kernel-test kernel-test-debug kernel-shell

kernels:
	@set -e; t0=$$(date +%s); \
	for s in $(K_SERIES); do for v in $(K_VARIANTS); do \
		BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" "$$s" "$$v"; \
	done; done; \
	echo "make kernels: $(K_SERIES) x $(K_VARIANTS): done in $$(( $$(date +%s) - t0 ))s"

kernel:
	@set -e; for s in $(K_SERIES); do for v in $(K_VARIANT); do \
		BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" "$$s" "$$v"; \
	done; done

kernel-config:
	@set -e; for s in $(K_SERIES); do for v in $(K_VARIANT); do \
		BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" --prepare "$$s" "$$v"; \
	done; done

kernel-test:
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-test"

kernel-test-debug:
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-test" --no-6.1 --kernels debug --timeout 2400

kernel-shell:
	@set -e; s=$(firstword $(K_SERIES)); v=$(firstword $(K_VARIANT)); \
	BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" "$$s" "$$v"; \
	sh "$(TOP)/scripts/qemu-run" \
		--kernel "$$(BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" --print-image "$$s" "$$v")" \
		-- sh -c '$(if $(CMD),$(CMD),uname -a; nft list hooks)'
