/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filtering verification: iptables counting rules on the AP (any transport), one
 * per bridge port, `-m physdev --physdev-in <port>` in chain brnf_count of
 * the mangle table (jumped to from PREROUTING). physdev only matches frames
 * br_netfilter handed to iptables, so a count > 0 proves the bridge's frames
 * went through iptables. Without br_netfilter the same-shaped chain matches
 * `-i <bridge>` and the result is n/a.
 *
 * The rules cost every packet a trip through iptables, so they are loaded only for a
 * row's verification pass, never while a run measures (cells.c).
 */
#ifndef BRNF_VERIFY_H
#define BRNF_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include "host.h"
#include "testbed.h"

#define VERIFY_CHAIN "brnf_count"
/* POSIX sh that removes the counting chain (and its jump), wherever it is loaded */
#define VERIFY_UNCHAIN_SH \
	"while iptables -w -t mangle -D PREROUTING -j " VERIFY_CHAIN " 2>/dev/null; " \
	"do :; done\n" \
	"iptables -w -t mangle -F " VERIFY_CHAIN " 2>/dev/null\n" \
	"iptables -w -t mangle -X " VERIFY_CHAIN " 2>/dev/null\n"

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
/* Remove the chain again. The caller loads the row's ruleset afterwards (nft flush
 * ruleset), which also removes the mangle table iptables-nft left behind. */
int verify_remove(const struct host *h);

#endif
