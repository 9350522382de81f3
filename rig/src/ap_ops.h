/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two backends of the AP (apctl.h): what differs between an AP brnf
 * reaches with rtnetlink and /proc/sys in its namespace (ap_netns.c) and one it
 * reaches with POSIX sh through a transport (ap_sh.c). Only apctl.c and the
 * backends include this.
 */
#ifndef BRNF_AP_OPS_H
#define BRNF_AP_OPS_H

#include <stdbool.h>
#include "matrix.h"

struct ap;
struct readback;

struct ap_ops {
	/* uname -a and br_netfilter into ap; bridges and tools present (one line
	 * naming what is missing) */
	int (*probe)(struct ap *ap);
	int (*switches_get)(const struct ap *ap, struct readback *rb);
	int (*switches_set)(const struct ap *ap, bool set_global,
			    const bool global[BRNF_NFAMILIES],
			    const bool set_bridge[BRNF_NBRIDGES],
			    const bool bridge[BRNF_NBRIDGES][BRNF_NFAMILIES]);
	void (*sysctls_read)(const struct ap *ap, const char *const names[], unsigned int n,
			     char (*vals)[64]);
};

extern const struct ap_ops ap_netns_ops;
extern const struct ap_ops ap_sh_ops;

#endif
