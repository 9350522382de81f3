# scripts/storm.mk: the toggle storm, included by the top Makefile after
# rig/rig.mk (it reuses the controller's objects and flags). The ### comment above
# each target says what it does (make help).

STORM_DIR := $(TOP)/rig/storm
STORM_OBJDIR := $(BUILD)/storm/obj
STORM_SRCS := $(wildcard $(STORM_DIR)/*.c)
STORM_OBJS := $(patsubst $(STORM_DIR)/%.c,$(STORM_OBJDIR)/%.o,$(STORM_SRCS))
# the controller's test bed, netlink, namespace, flag, sysctl and child-process code,
# and its data-side library (the matrix's bridge names, files, error lines)
STORM_RIG_OBJS := $(addprefix $(RIG_OBJDIR)/,testbed.o lock.o journal.o offload.o nl.o nl_msg.o netns.o \
	link.o link_msg.o brflags.o sysctl.o util.o proc.o ledger.o) $(RIG_DATA_LIB)
STORM_SERIES ?= 6.12
STORM_SHORT_VARIANT ?= ondemand
STORM_OPTS ?=

.PHONY: storm-bin storm-netns storm storm-m storm-short storm-test

### storm-bin
###   build/bin/brnf-storm
storm-bin: $(BUILD)/bin/brnf-storm

# (renamed over the old one, as the controller is: rig/rig.mk)
$(BUILD)/bin/brnf-storm: $(STORM_OBJS) $(STORM_RIG_OBJS)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_CFLAGS) -o $@.$$$$.tmp $^ $(RIG_LIBS) && mv -f $@.$$$$.tmp $@

$(STORM_OBJDIR)/%.o: $(STORM_DIR)/%.c
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_CFLAGS) -I$(RIG_DIR)/src -I$(RIG_DATA_DIR) -c -o $@ $<

-include $(STORM_OBJS:.o=.d)

### storm-netns [STORM_OPTS="--short"]
###   the storm on the running kernel, in namespaces
storm-netns: storm-bin
	$(BUILD)/bin/brnf-storm $(STORM_OPTS)

# The full storm: the debug kernel (on-demand hooks + KASAN, lockdep, PROVE_RCU,
# atomic-sleep checks), then vanilla as the control. Kernels are built if missing.
### storm
###   the full storm (10,000 operations) in QEMU on the 6.12 debug kernel, then on
###   vanilla as the control; results in build/storm/<variant>/
storm: storm-bin guest-deps
	@sh $(TOP)/scripts/storm/storm-all --build --series $(STORM_SERIES) debug vanilla

# The same with br_netfilter as a module, unloaded and loaded again during the storm.
### storm-m
###   the full storm with module churn (rmmod/modprobe of br_netfilter as an
###   operation) on debug-m, then vanilla-m as the control
storm-m: storm-bin
	@sh $(TOP)/scripts/storm/storm-all --build --series $(STORM_SERIES) debug-m vanilla-m

# The short storm for `make test`: 1,000 operations on ondemand (the debug kernel is a
# separate cold build of ~15+ min on 2 cores, see scripts/storm/README) and on vanilla.
### storm-short [STORM_SHORT_VARIANT=ondemand]
###   1,000 operations in QEMU on STORM_SHORT_VARIANT, then on vanilla
storm-short: storm-bin guest-deps
	@sh $(TOP)/scripts/storm/storm-all --build --short --series $(STORM_SERIES) \
		$(STORM_SHORT_VARIANT) vanilla

### storm-test [STORM_TESTS=host|qemu]
###   tests of the storm and of qemu-run's panic/hang detection; ends with
###   "N passed, N failed"; STORM_TESTS: only those in namespaces or only those in QEMU
storm-test: storm-bin $(BUILD)/bin/brnf
	@sh $(TOP)/scripts/storm/tests/run.sh $(if $(STORM_TESTS),--only $(STORM_TESTS))

# libFuzzer over the storm's readers of kernel and tool output (kmsg records,
# nft list hooks, ping's summary, rtnetlink link dumps read as brnf-storm reads them,
# through the controller's nl_msg.c and link_msg.c), STORM_FUZZ_SECONDS each run.
STORM_FUZZ_SECONDS ?= 30
STORM_FUZZ_SRCS := $(STORM_DIR)/parse.c $(RIG_DIR)/src/nl_msg.c $(RIG_DIR)/src/link_msg.c
$(BUILD)/fuzz/fuzz_storm_parse: $(STORM_DIR)/fuzz/fuzz_storm_parse.c $(STORM_FUZZ_SRCS) \
		$(STORM_DIR)/parse.h $(RIG_DIR)/src/nl.h $(RIG_DIR)/src/link_msg.h
	@mkdir -p $(dir $@)
	clang $(RIG_TEST_CFLAGS) -I$(STORM_DIR) -I$(RIG_DIR)/src \
		-I$(RIG_DATA_DIR) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< $(STORM_FUZZ_SRCS) $(call rig_pkg,--libs libmnl,-lmnl)

.PHONY: storm-fuzz
### storm-fuzz [STORM_FUZZ_SECONDS=30]
###   libFuzzer over the storm's parsers
storm-fuzz: $(BUILD)/fuzz/fuzz_storm_parse
	@rm -rf $(BUILD)/fuzz/work/storm_parse; mkdir -p $(BUILD)/fuzz/work/storm_parse
	@echo "fuzz storm_parse for $(STORM_FUZZ_SECONDS) s"
	@$< -max_total_time=$(STORM_FUZZ_SECONDS) -print_final_stats=1 -close_fd_mask=2 \
		-artifact_prefix=$(BUILD)/fuzz/storm_parse- $(BUILD)/fuzz/work/storm_parse \
		$(STORM_DIR)/fuzz/corpus 2>$(BUILD)/fuzz/storm_parse.log || \
		{ tail -40 $(BUILD)/fuzz/storm_parse.log; echo "fuzz storm_parse: FAILED"; \
		  echo "storm-fuzz: 0 passed, 1 failed"; exit 1; }
	@grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' $(BUILD)/fuzz/storm_parse.log
	@echo "storm-fuzz: 1 passed, 0 failed"
