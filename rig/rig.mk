# rig/rig.mk: the controller brnf (RIG-CORE: run side; RIG-DATA: data side, unit tests).
# Targets: rig (build/bin/brnf), rig-unit (cmocka unit tests), rig-itest (root
# integration tests on the running kernel, rig/tests/*.sh).

RIG_DIR := $(TOP)/rig
RIG_OBJDIR := $(BUILD)/rig
RIG_SRCS := $(wildcard $(RIG_DIR)/src/*.c)
RIG_OBJS := $(patsubst $(RIG_DIR)/src/%.c,$(RIG_OBJDIR)/%.o,$(RIG_SRCS))
RIG_VERSION := $(shell git -C $(TOP) describe --always --dirty --tags 2>/dev/null || echo unknown)

RIG_CC ?= cc
RIG_CFLAGS ?= -O2 -g
RIG_CFLAGS += -std=gnu11 -Wall -Wextra -Werror -MMD -MP \
	$(shell pkg-config --cflags libmnl json-c libcrypto 2>/dev/null)
RIG_LIBS := $(shell pkg-config --libs libmnl json-c libcrypto 2>/dev/null || echo -lmnl -ljson-c -lcrypto) -lm

.PHONY: rig rig-unit rig-itest
rig: $(BUILD)/bin/brnf

$(BUILD)/bin/brnf: $(RIG_OBJS)
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_CFLAGS) -o $@ $^ $(RIG_LIBS)

# The version is baked into version.o only; rebuild it when HEAD moves.
$(RIG_OBJDIR)/version.o: RIG_CFLAGS += -DBRNF_VERSION='"$(RIG_VERSION)"' \
	-DBRNF_DATADIR='"$(RIG_DIR)"'
$(RIG_OBJDIR)/version.o: $(wildcard $(TOP)/.git/HEAD $(TOP)/.git/index)

$(RIG_OBJDIR)/%.o: $(RIG_DIR)/src/%.c
	@mkdir -p $(dir $@)
	$(RIG_CC) $(RIG_CFLAGS) -c -o $@ $<

-include $(RIG_OBJS:.o=.d)

# Unit tests (RIG-DATA fills this in).
rig-unit:

# Integration tests: root, running kernel, network namespaces only.
rig-itest: rig
	BRNF=$(BUILD)/bin/brnf sh $(RIG_DIR)/tests/run.sh
