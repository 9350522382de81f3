/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pps workloads' flow (pktgen.h: UDP, port PKTGEN_UDP_PORT both ways) as the AP's
 * connection tracking sees it, read with conntrack(8) from conntrack-tools: is there an
 * entry, and has a flowtable offloaded it ("[OFFLOAD]")? The verification pass of a row
 * whose ruleset tracks connections asks this after priming the flow (cells.c).
 */
#ifndef BRNF_CTFLOW_H
#define BRNF_CTFLOW_H

#include <stdbool.h>
#include "host.h"

struct ct_flow {
	bool tracked;			/* conntrack has an entry of the flow */
	bool offloaded;			/* ... marked [OFFLOAD] */
	char entry[320];		/* conntrack -L's line of it ("" when none) */
};

/* Delete the flow's entry, if there is one, so that the next frames make a new one
 * under the ruleset loaded now. 0, or -errno after one line. */
int ct_flow_forget(const struct host *ap);
/* Read the flow's entry. 0, or -errno after one line. */
int ct_flow_read(const struct host *ap, struct ct_flow *f);

#endif
