# kernel/kernel.mk: build and test the brnf kernels (included by the top Makefile;
# TOP and BUILD come from there). The work is done by scripts/kernel-build,
# scripts/kernel-test and scripts/qemu-run; this file only names the targets (the ##
# comment above each says what it does: make help).
# ARCH=arm64 or ARCH=mipsel on every target: that architecture's kernels and guests
# (scripts/arch.mk).

KERNEL_ALL_VARIANTS := nobrnf vanilla legacy bypass ondemand perbridge nftbridge debug \
	vanilla-m legacy-m bypass-m ondemand-m perbridge-m debug-m

# SERIES/VARIANT(S) only count when given on the command line or in the environment,
# so that another fragment's defaults cannot change what `make kernels` builds.
k_given = $(if $(filter command line environment,$(origin $(1))),$($(1)),$(2))
K_SERIES = $(call k_given,SERIES,6.12 6.1)
K_VARIANTS = $(call k_given,VARIANTS,$(KERNEL_ALL_VARIANTS))
K_VARIANT = $(call k_given,VARIANT,vanilla)

.PHONY: kernels kernel kernel-config kernel-test kernel-test-m kernel-test-debug kernel-test-race \
	kernel-shell \
	bridge-del-bench flip-bench

## kernels [SERIES=6.12] [VARIANTS="vanilla ondemand"] [ARCH=arm64]
##   build every variant of SERIES (default: 6.12 and 6.1) under build/kernel/, each
##   with br_netfilter also as a module (NAME-m); nftbridge links nobrnf's image
##   (kernel/README.md)
kernels:
	@set -e; t0=$$(date +%s); \
	for s in $(K_SERIES); do for v in $(K_VARIANTS); do \
		BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" "$$s" "$$v"; \
	done; done; \
	echo "make kernels: $(K_SERIES) x $(K_VARIANTS): done in $$(( $$(date +%s) - t0 ))s"

## kernel SERIES=6.12 VARIANT=ondemand
##   one variant (VARIANT may be NAME:N, the first N patches of a series; NAME+distro,
##   NAME+openwrt: shaped like Debian's or OpenWrt's kernels, kernel/README.md)
kernel:
	@set -e; for s in $(K_SERIES); do for v in $(K_VARIANT); do \
		BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" "$$s" "$$v"; \
	done; done

### kernel-config SERIES=6.12 VARIANT=debug
###   source branch and .config only
kernel-config:
	@set -e; for s in $(K_SERIES); do for v in $(K_VARIANT); do \
		BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" --prepare "$$s" "$$v"; \
	done; done

### kernel-test
###   boot the 6.12 kernels and run the kselftests, compile net/bridge/ of the 7.2 and
###   6.1 ondemand series
kernel-test: guest-deps
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-test"

### kernel-test-m
###   the same on ondemand-m (br_netfilter a module): every guest loads it,
###   module-cycle.sh unloads it
kernel-test-m: guest-deps
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-test" --no-6.1 --no-7.2 --kernels ondemand-m

### kernel-test-debug
###   the same on the debug kernel (KASAN, lockdep, kmemleak, failslab), built in and as
###   a module (debug-m), plus kernel/tests/enomem.sh
kernel-test-debug: guest-deps
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-test" --no-6.1 --no-7.2 --kernels "debug debug-m" \
		--timeout 2400

### kernel-test-race [RACE_REV=rev] [RACE_SCRIPT=unload-order]
###   kernel/tests/rmmod-race.sh on debug-m: rmmod and modprobe in a loop under
###   sysctl/flag writers and traffic; RACE_REV builds the ondemand series of that git
###   revision instead (scripts/race-test); RACE_SCRIPT=unload-order:
###   kernel/tests/unload-order.sh, rmmod against nf_call_* flips
kernel-test-race:
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/race-test" $(if $(RACE_REV),--patches-rev $(RACE_REV)) \
		$(if $(RACE_SCRIPT),--script $(RACE_SCRIPT))

### kernel-shell SERIES=6.12 VARIANT=vanilla CMD="nft list hooks"
###   run one command in a guest
kernel-shell: guest-deps
	@set -e; s=$(firstword $(K_SERIES)); v=$(firstword $(K_VARIANT)); \
	BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" "$$s" "$$v"; \
	m=$$(BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" --print-modules "$$s" "$$v" \
		2>/dev/null || true); \
	sh "$(TOP)/scripts/qemu-run" $${m:+--modules "$$m"} \
		--kernel "$$(BUILD="$(BUILD)" sh "$(TOP)/scripts/kernel-build" --print-image "$$s" "$$v")" \
		-- sh -c '$(if $(CMD),$(CMD),uname -a; nft list hooks)'

### flip-bench [BENCH_REV=rev] [BENCH_OPTS="--reps 5"]
###   benchmark: the control plane, flips of nf_call_iptables and the sysctls per second
###   and an unrelated RTNL operation beside them, on vanilla and ondemand (and the
###   ondemand series of BENCH_REV), QEMU realtime with 2 vCPUs; prints a table;
###   BENCH_OPTS=--trace: on VARIANT+trace kernels, how long each flip holds RTNL too
flip-bench:
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/flip-bench" --series $(firstword $(K_SERIES)) \
		$(if $(BENCH_REV),--old-rev $(BENCH_REV)) $(BENCH_OPTS)

### bridge-del-bench [BENCH_REV=rev] [BENCH_OPTS="--reps 5"]
###   benchmark: guest time to delete 1,000 bridges at once on vanilla and ondemand (and
###   the ondemand series of BENCH_REV), QEMU -icount; prints a table
bridge-del-bench:
	@BUILD="$(BUILD)" sh "$(TOP)/scripts/bridge-del-bench" --series $(firstword $(K_SERIES)) \
		$(if $(BENCH_REV),--old-rev $(BENCH_REV)) $(BENCH_OPTS)
