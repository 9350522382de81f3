# rig/rig.mk: the controller brnf (RIG-CORE: run side; RIG-DATA: data side, unit tests).
# The ### comment above each target says what it does (make help).

RIG_DIR := $(TOP)/rig
RIG_OBJDIR := $(BUILD)/rig
RIG_SRCS := $(wildcard $(RIG_DIR)/src/*.c)
RIG_OBJS := $(patsubst $(RIG_DIR)/src/%.c,$(RIG_OBJDIR)/%.o,$(RIG_SRCS))
# The data side (rig/src/data): reads, computes and writes results, libc and json-c
# only, never a namespace, process or socket; a library of its own, linked by brnf,
# brnf-storm, the unit tests and the fuzzers. Its objects are compiled without
# -I rig/src, so a run-side header cannot be included there (t_structure.sh checks
# it from the sources too).
RIG_DATA_DIR := $(RIG_DIR)/src/data
RIG_DATA_SRCS := $(wildcard $(RIG_DATA_DIR)/*.c)
RIG_DATA_LIB := $(RIG_OBJDIR)/libbrnfdata.a
RIG_VERSION := $(shell git -C $(TOP) describe --always --dirty --tags 2>/dev/null || echo unknown)

RIG_CC ?= cc
RIG_AR ?= ar
# pkg-config runs only when a rule needs its answer, once, and quietly: `make test`
# and `make matrix` read this file before scripts/deps.sh installed json-c and
# cmocka, and must not print pkg-config's errors then (the fallbacks are the
# libraries' plain names).
rig_pkg = $(shell pkg-config $(1) 2>/dev/null || echo $(2))
RIG_PKG_CFLAGS = $(eval RIG_PKG_CFLAGS := $(call rig_pkg,--cflags libmnl json-c libcrypto,))$(RIG_PKG_CFLAGS)
RIG_CFLAGS ?= -O2 -g
RIG_CFLAGS += -std=gnu11 -Wall -Wextra -Werror -MMD -MP $(RIG_PKG_CFLAGS)
RIG_LIBS = $(eval RIG_LIBS := $(call rig_pkg,--libs libmnl json-c libcrypto,-lmnl -ljson-c -lcrypto) -lm)$(RIG_LIBS)

.PHONY: rig rig-unit rig-itest
# The manual page is written by the controller itself from its tables (brnf --man);
# a cross-built controller cannot run here, so its builds set RIG_MAN= (scripts/arch.mk).
RIG_MAN ?= $(BUILD)/man/man1/brnf.1

### rig
###   build the controller, build/bin/brnf, and its manual page build/man/man1/brnf.1
###   (man -l build/man/man1/brnf.1)
rig: $(BUILD)/bin/brnf $(RIG_MAN)

# linked beside it and renamed over it (as the library, the manual page and
# rulesets.inc are): a test running the controller meanwhile never finds it half
# written
$(BUILD)/bin/brnf: $(RIG_OBJS) $(RIG_DATA_LIB)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_CFLAGS) -o $@.$$$$.tmp $^ $(RIG_LIBS) && mv -f $@.$$$$.tmp $@

$(BUILD)/man/man1/brnf.1: $(BUILD)/bin/brnf
	@mkdir -p $(dir $@)
	$< --man > $@.$$$$.tmp && mv -f $@.$$$$.tmp $@

# The version is baked into version.o only; rebuild it when HEAD moves. Not through
# RIG_CFLAGS, which rig-itest-san sets on the command line (a relative data directory
# would send brnf looking for rig/ wherever it runs).
$(RIG_OBJDIR)/version.o: RIG_OBJ_FLAGS = -DBRNF_VERSION='"$(RIG_VERSION)"' \
	-DBRNF_DATADIR='"$(RIG_DIR)"'
# RIG_PINNED=1 (scripts/test-all, whose lanes run make side by side once the
# controller is built): a commit during the run rebuilds nothing.
RIG_GIT_DIR := $(shell git -C $(TOP) rev-parse --absolute-git-dir 2>/dev/null)
ifneq ($(RIG_PINNED),1)
$(RIG_OBJDIR)/version.o: $(wildcard $(RIG_GIT_DIR)/HEAD $(RIG_GIT_DIR)/index)
endif

# Objects of another source tree (one BUILD used from two checkouts) have .d files
# naming that tree's headers, so a header changed here would not rebuild them: a stamp
# per source tree, made anew when the tree changes, rebuilds every object then.
RIG_SRC_STAMP := $(RIG_OBJDIR)/.srcdir-$(subst /,_,$(RIG_DIR))
$(RIG_SRC_STAMP):
	@mkdir -p $(dir $@)
	@rm -f $(RIG_OBJDIR)/.srcdir-*
	@touch $@

$(RIG_OBJDIR)/%.o: $(RIG_DIR)/src/%.c $(RIG_SRC_STAMP)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_CFLAGS) -I$(RIG_DATA_DIR) $(RIG_OBJ_FLAGS) -c -o $@ $<

-include $(RIG_OBJS:.o=.d)

# rig_data_lib DIR,COMPILE: DIR/libbrnfdata.a of DIR/data/*.o, each made by COMPILE
# (compiler and flags; -I of the build directory for rulesets.inc alone). Three
# builds of it: brnf's (RIG_DATA_LIB, which the plain unit tests link too), the
# sanitized unit tests' and the fuzzers'.
define rig_data_lib
$(1)/data/%.o: $(RIG_DATA_DIR)/%.c $(RIG_SRC_STAMP)
	@mkdir -p $$(dir $$@)
	$(2) -MMD -MP -I$(RIG_OBJDIR) -c -o $$@ $$<
$(1)/data/matrix.o: $(RIG_RULESETS_INC)
$(1)/libbrnfdata.a: $(patsubst $(RIG_DATA_DIR)/%.c,$(1)/data/%.o,$(RIG_DATA_SRCS))
	$$(RIG_AR) rcs $$@.$$$$$$$$.tmp $$^ && mv -f $$@.$$$$$$$$.tmp $$@
-include $(patsubst $(RIG_DATA_DIR)/%.c,$(1)/data/%.d,$(RIG_DATA_SRCS))
endef

# What each ruleset does (brnf_rulesets[] in matrix.c) is read from the files by
# scripts/ruleset-facts, never written by hand; a file added, changed or removed
# remakes it (the directory's own time covers removal).
RIG_RULESETS_INC := $(RIG_OBJDIR)/rulesets.inc
$(RIG_RULESETS_INC): $(wildcard $(RIG_DIR)/rulesets/*.nft) $(RIG_DIR)/rulesets \
		$(TOP)/scripts/ruleset-facts
	@mkdir -p $(dir $@)
	sh $(TOP)/scripts/ruleset-facts $(RIG_DIR)/rulesets > $@.$$$$.tmp && mv -f $@.$$$$.tmp $@
$(eval $(call rig_data_lib,$(RIG_OBJDIR),$$(RIG_CC) $$(RIG_CFLAGS)))

# Unit tests (RIG-DATA): each rig/tests/unit/test_*.c is linked with the data-side
# library and cmocka, built twice (plain, with brnf's own RIG_DATA_LIB, and with
# ASan+UBSan, with a library built so) and run by rig/tests/unit/run.sh, which ends
# with "N passed, N failed".
RIG_UNIT_DIR := $(RIG_DIR)/tests/unit
RIG_DATA_HDRS := $(wildcard $(RIG_DATA_DIR)/*.h) $(RIG_UNIT_DIR)/unit.h $(RIG_RULESETS_INC)
RIG_UNIT_NAMES := $(basename $(notdir $(wildcard $(RIG_UNIT_DIR)/test_*.c)))
RIG_UNIT_PKG_CFLAGS = $(eval RIG_UNIT_PKG_CFLAGS := $(call rig_pkg,--cflags json-c cmocka,))$(RIG_UNIT_PKG_CFLAGS)
# the unit tests', the fuzzers' and their data libraries' common flags
RIG_TEST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror
RIG_UNIT_CFLAGS = $(RIG_TEST_CFLAGS) -I$(RIG_DATA_DIR) \
	-I$(RIG_DIR)/src -I$(RIG_OBJDIR) -DUNIT_DATA_DIR='"$(RIG_UNIT_DIR)/data"' \
	$(RIG_UNIT_PKG_CFLAGS)
RIG_UNIT_LIBS = $(eval RIG_UNIT_LIBS := $(call rig_pkg,--libs json-c cmocka,-ljson-c -lcmocka) -lm)$(RIG_UNIT_LIBS)
RIG_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
RIG_UNIT_PLAIN := $(addprefix $(BUILD)/unit/plain/,$(RIG_UNIT_NAMES))
RIG_UNIT_SAN := $(addprefix $(BUILD)/unit/san/,$(RIG_UNIT_NAMES))
RIG_DATA_SAN_LIB := $(BUILD)/unit/san-lib/libbrnfdata.a
RIG_DATA_SAN_CC = $(RIG_CC) $(RIG_TEST_CFLAGS) $(RIG_UNIT_PKG_CFLAGS) \
	$(RIG_SAN_FLAGS)
$(eval $(call rig_data_lib,$(BUILD)/unit/san-lib,$$(RIG_DATA_SAN_CC)))

# A unit test of run-side code that needs no root and no namespace names the sources
# it needs beyond the data side (RIG_UNIT_RUN_<test>, relative to rig/), and their
# flags and libraries (RIG_UNIT_RUNFLAGS_<test>, RIG_UNIT_RUNLIBS_<test>).
RIG_UNIT_RUN_test_nl := src/nl_msg.c src/link_msg.c storm/parse.c
RIG_UNIT_RUNFLAGS_test_nl = -I$(RIG_DIR)/storm
RIG_UNIT_RUNLIBS_test_nl = $(call rig_pkg,--libs libmnl,-lmnl)
RIG_UNIT_RUN_test_heredoc := src/heredoc.c
RIG_UNIT_RUN_test_ledger := src/ledger.c
RIG_UNIT_RUN_test_journal := src/journal.c src/proc.c src/netns.c src/util.c
RIG_UNIT_RUNLIBS_test_journal = $(call rig_pkg,--libs libcrypto,-lcrypto)
RIG_UNIT_RUN_test_proc := src/proc.c src/netns.c src/util.c
RIG_UNIT_RUNLIBS_test_proc = $(call rig_pkg,--libs libcrypto,-lcrypto)
rig_unit_run = $(addprefix $(RIG_DIR)/,$(RIG_UNIT_RUN_$(1)))
$(foreach t,$(RIG_UNIT_NAMES),$(if $(RIG_UNIT_RUN_$(t)),$(eval \
	$(BUILD)/unit/plain/$(t) $(BUILD)/unit/san/$(t): $(call rig_unit_run,$(t)) \
		$(wildcard $(RIG_DIR)/src/*.h $(dir $(call rig_unit_run,$(t)))*.h))))

$(BUILD)/unit/plain/%: $(RIG_UNIT_DIR)/%.c $(RIG_DATA_LIB) $(RIG_DATA_HDRS)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_UNIT_CFLAGS) $(RIG_UNIT_RUNFLAGS_$*) -o $@ $< \
		$(call rig_unit_run,$*) $(RIG_DATA_LIB) $(RIG_UNIT_LIBS) $(RIG_UNIT_RUNLIBS_$*)

$(BUILD)/unit/san/%: $(RIG_UNIT_DIR)/%.c $(RIG_DATA_SAN_LIB) $(RIG_DATA_HDRS)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_UNIT_CFLAGS) $(RIG_UNIT_RUNFLAGS_$*) $(RIG_SAN_FLAGS) -o $@ $< \
		$(call rig_unit_run,$*) $(RIG_DATA_SAN_LIB) $(RIG_UNIT_LIBS) $(RIG_UNIT_RUNLIBS_$*)

.PHONY: rig-unit-build rig-fuzz
### rig-unit-build
###   build the unit tests alone, plain and with ASan+UBSan
rig-unit-build: $(RIG_UNIT_PLAIN) $(RIG_UNIT_SAN)

### rig-unit
###   the cmocka unit tests of the data side, plain and with ASan+UBSan
rig-unit: rig-unit-build
	sh $(RIG_UNIT_DIR)/run.sh $(RIG_UNIT_PLAIN) -- $(RIG_UNIT_SAN)

# Fuzzing (RIG-DATA): libFuzzer harnesses rig/tests/fuzz/fuzz_<target>.c, each run for
# FUZZ_SECONDS over a copy of its seed corpus rig/tests/fuzz/corpus/<target>/.
FUZZ_SECONDS ?= 30
RIG_FUZZ_DIR := $(RIG_DIR)/tests/fuzz
RIG_FUZZ_NAMES := $(patsubst fuzz_%,%,$(basename $(notdir $(wildcard $(RIG_FUZZ_DIR)/fuzz_*.c))))
RIG_FUZZ_BINS := $(addprefix $(BUILD)/fuzz/fuzz_,$(RIG_FUZZ_NAMES))
RIG_DATA_FUZZ_LIB := $(BUILD)/fuzz/lib/libbrnfdata.a
RIG_DATA_FUZZ_CC = clang $(RIG_TEST_CFLAGS) \
	$(call rig_pkg,--cflags json-c,) -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all
$(eval $(call rig_data_lib,$(BUILD)/fuzz/lib,$$(RIG_DATA_FUZZ_CC)))

$(BUILD)/fuzz/fuzz_%: $(RIG_FUZZ_DIR)/fuzz_%.c $(RIG_DATA_FUZZ_LIB) $(RIG_DATA_HDRS)
	@mkdir -p $(dir $@)
	clang $(RIG_TEST_CFLAGS) -I$(RIG_DATA_DIR) -I$(RIG_OBJDIR) \
		$(call rig_pkg,--cflags json-c,) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(RIG_DATA_FUZZ_LIB) $(RIG_UNIT_LIBS)

# Every harness runs even when one fails, two at a time (rig/tests/fuzz/run.sh); the last
# line is "rig-fuzz: N passed, N failed".
### rig-fuzz [FUZZ_SECONDS=30]
###   libFuzzer over the data side's parsers, each harness FUZZ_SECONDS, two at a time
rig-fuzz: $(RIG_FUZZ_BINS)
	@sh $(RIG_FUZZ_DIR)/run.sh $(BUILD) $(FUZZ_SECONDS) $(RIG_FUZZ_DIR)/corpus $(RIG_FUZZ_NAMES)

# Integration tests: root, running kernel, network namespaces only.
### rig-itest
###   the integration tests, rig/tests/t_*.sh: root, the running kernel, network
###   namespaces only
rig-itest: rig
	BRNF=$(BUILD)/bin/brnf sh $(RIG_DIR)/tests/run.sh

# The same integration tests with brnf itself built with ASan+UBSan (a separate
# build tree, so the normal binary is untouched).
RIG_SAN_BUILD := $(BUILD)/san-brnf
.PHONY: rig-itest-san
### rig-itest-san
###   the same with brnf built with ASan+UBSan (build/san-brnf)
rig-itest-san:
	$(MAKE) --no-print-directory rig BUILD=$(RIG_SAN_BUILD) \
		RIG_CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
	BRNF=$(RIG_SAN_BUILD)/bin/brnf sh $(RIG_DIR)/tests/run.sh
