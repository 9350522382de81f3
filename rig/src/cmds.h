/* SPDX-License-Identifier: GPL-2.0 */
/* Command handlers main.c dispatches to; each returns an exit code (util.h). */
#ifndef BRNF_CMDS_H
#define BRNF_CMDS_H

#include "opts.h"

int cmd_run(int argc, char **argv);
int cmd_testbed(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_matrix_kernels(int argc, char **argv);
int cmd_rig(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_levels(int argc, char **argv);

extern const struct opt run_opts[];
extern const struct opt testbed_up_opts[];
extern const struct opt render_opts[];
extern const struct opt matrix_kernels_opts[];
extern const struct opt rig_opts[];
extern const struct opt profile_opts[];
extern const struct opt levels_opts[];

#endif
