// SPDX-License-Identifier: GPL-2.0
#include "cmds.h"
#include "util.h"
const struct opt run_opts[] = { { NULL, NULL, NULL, NULL } };
int cmd_run(int argc, char **argv) { (void)argc; (void)argv; return 1; }
