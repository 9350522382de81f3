/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filtering verification: iptables counting rules on the AP (any transport), one
 * per bridge port, `-m physdev --physdev-in <port>` in chain brnf_count of
 * the mangle table (jumped to from PREROUTING). physdev only matches frames
 * br_netfilter handed to iptables, so a count > 0 proves the bridge's frames
 * went through iptables. Without br_netfilter the same-shaped chain matches
 * `-i <bridge>` (so every row pays the same rule cost) and the result is n/a.
 */
#ifndef BRNF_VERIFY_H
#define BRNF_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include "host.h"
#include "testbed.h"

#define VERIFY_CHAIN "brnf_count"

enum verify_mode { VERIFY_PHYSDEV, VERIFY_IIF };

/* Load the chain into ns (after the ruleset: nft flush ruleset removes it).
 * Counters start at 0. */
int verify_install(const struct host *h, const char *const port[BRNF_NBRIDGES],
		   enum verify_mode mode);
/* Packets counted per bridge (brnf_bridge_names[] order). */
int verify_read(const struct host *h, const char *const port[BRNF_NBRIDGES],
		enum verify_mode mode, uint64_t pkts[BRNF_NBRIDGES]);
/* Zero the counters. */
int verify_zero(const struct host *h);

#endif
