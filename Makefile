# brnf: bridge-netfilter overhead, kernel patches and A/B rig.
# Each part keeps its own rules in a fragment; this file only ties them together.
.DEFAULT_GOAL := help
TOP := $(abspath .)
BUILD := $(TOP)/build

include rig/rig.mk
include scripts/storm.mk
include scripts/arch.mk
include kernel/kernel.mk
include scripts/scripts.mk
include rig/profile/profile.mk

.PHONY: help deps
help:
	@echo "make matrix     run the default A/B matrix and print the table"
	@echo "make test       install what is missing, build and run every test"
	@echo "make test-arch  the arm64 and mipsel smoke tests alone (the last suite of make test)"
	@echo "make kernels    build every kernel variant under build/"
	@echo "make publish DIR=results/...  re-render tables and plots from raw data"
	@echo "make profile    the idle rows with instructions per packet by kernel symbol"

deps:
	sh scripts/deps.sh
