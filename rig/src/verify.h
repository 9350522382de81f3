/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filtering verification: counting rules on the AP (any transport), one per counted
 * bridge port, that count the frames a bridge-layer filter was given; a bridge's count
 * is the sum of its ports'. The counted ports: the rig's port of each bridge (sta's of
 * br-wlan, pc's of br-lan), and on the test bed with sta2 also sta2's port of br-wlan
 * (wlan1), where a path=wlan flow's frames from sta2 enter.
 *
 * - physdev (br_netfilter): iptables rules `-m physdev --physdev-in <port>` in chain
 *   brnf_count of the mangle table (jumped to from PREROUTING). physdev only matches
 *   frames br_netfilter handed to iptables, so a count > 0 proves the bridge's frames
 *   went through iptables.
 * - iif (no br_netfilter, no bridge-family filter): the same-shaped chain matches
 *   `-i <bridge>`; nothing is proven, the result is n/a.
 * - nft-bridge (a row whose ruleset filters in the bridge family, matrix.h): nft rules
 *   `iifname "<port>" counter comment "brnf_count"` inserted at the head of the
 *   ruleset's own chain, table bridge filter, chain stateful, which its base chains
 *   jump to for the bridges they filter: a count > 0 proves the bridge's frames reached
 *   the stateful filter (and, as its ct state vmap drops invalid frames and the flows
 *   completed, that nf_conntrack_bridge tracked them).
 *
 * The rules cost every packet a rule or a trip through iptables, so they are loaded only
 * for a row's verification pass, never while a run measures (cells.c).
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
/* The bridge-family chain a ruleset's bridge filter jumps to (rig/rulesets/bridge-*.nft) */
#define VERIFY_BRIDGE_CHAIN "bridge filter stateful"

enum verify_mode { VERIFY_PHYSDEV, VERIFY_IIF, VERIFY_NFT_BRIDGE, VERIFY_NMODES };

#define VERIFY_MAX_PORTS (BRNF_NBRIDGES + 1)
struct verify_ports {
	unsigned int n;
	unsigned int bridge[VERIFY_MAX_PORTS];	/* brnf_bridge_names index */
	const char *port[VERIFY_MAX_PORTS];
};
/* The rig's port of each bridge (brnf_bridge_names[] order), then extra (NULL: none), a
 * port of br-wlan. */
void verify_ports_init(struct verify_ports *vp, const char *const port[BRNF_NBRIDGES],
		       const char *extra_wlan);
/* record.json's "rules": "physdev", "iif", "nft-bridge" */
extern const char *const verify_mode_names[VERIFY_NMODES];

/* Load the rules into the AP (after the ruleset: nft flush ruleset removes them; with
 * nft-bridge, the ruleset's chain stateful must exist). Counters start at 0. */
int verify_install(const struct host *h, const struct verify_ports *vp, enum verify_mode mode);
/* Packets counted per bridge (brnf_bridge_names[] order): the sum over its ports
 * (iif: its one rule). */
int verify_read(const struct host *h, const struct verify_ports *vp, enum verify_mode mode,
		uint64_t pkts[BRNF_NBRIDGES]);
/* Zero the counters (physdev, iif). */
int verify_zero(const struct host *h);
/* Remove the rules again, and nothing else. The caller loads the row's ruleset
 * afterwards (nft flush ruleset), which also removes the mangle table iptables-nft left
 * behind. */
int verify_remove(const struct host *h, enum verify_mode mode);

#endif
