/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The namespace test bed (the seed's topology):
 *
 *   sta: wlan0 ==veth== wlan0 -[br-wlan]  ap  [br-lan]- eth0 ==veth== eth0 :pc
 *        198.18.1.2/24       198.18.1.1/24     198.18.2.1/24          198.18.2.2/24
 *        2001:2:0:1::2/64    2001:2:0:1::1/64  2001:2:0:2::1/64       2001:2:0:2::2/64
 *
 * ap routes between br-wlan and br-lan (IPv4 and IPv6 forwarding on). Every link has a
 * fixed MAC address and every host its peers' in permanent neighbour entries.
 *
 * With TB_WITH_STA2 (a matrix with path=wlan rows) a fourth namespace, a second
 * station on br-wlan, whose flows with sta are bridged, never routed:
 *
 *   sta2: wlan1 ==veth== wlan1 -[br-wlan]      (198.18.1.3/24, 2001:2:0:1::3/64)
 *
 * sta and sta2 then have each other's addresses in permanent neighbour entries, and
 * br-wlan static forwarding entries for both, so that a one-way bridged flow is
 * forwarded, never flooded, whenever it is measured.
 */
#ifndef BRNF_TESTBED_H
#define BRNF_TESTBED_H

#include <stdbool.h>
#include "ledger.h"
#include "lock.h"
#include "matrix.h"
#include "netns.h"
#include "offload.h"

enum tb_role { TB_AP, TB_STA, TB_PC, TB_STA2, TB_NROLES };
extern const char *const tb_role_names[TB_NROLES];	/* "ap", "sta", "pc", "sta2" */

#define TB_NVETHS 6		/* the last two (sta2's link) only with TB_WITH_STA2 */
/* The port of each bridge (brnf_bridge_names order): "eth0", "wlan0" */
extern const char *const tb_bridge_port[BRNF_NBRIDGES];
#define TB_PC_ADDR4 "198.18.2.2"	/* where the iperf3 servers listen */
#define TB_STA_ADDR4 "198.18.1.2"
#define TB_STA2_ADDR4 "198.18.1.3"	/* path=wlan: where the iperf3 servers listen */
#define TB_STA2_PORT "wlan1"		/* sta2's port of br-wlan in ap */

struct tb_veth {
	enum tb_role role;
	const char *ifname;
	bool sta2;			/* sta2's link: made only with TB_WITH_STA2 */
	bool offload[OFFLOAD_N];	/* read back after setting */
};

struct testbed;
/* The undo of one namespace made (the ledger's argument). */
struct tb_undo {
	struct testbed *tb;
	enum tb_role role;
};

struct testbed {
	char prefix[32];			/* brnf<n> (lock_claim()) */
	char ns[TB_NROLES][48];			/* brnf<n>-ap, ... */
	struct netns_id id[TB_NROLES];		/* each namespace as made */
	struct claim claim;			/* fd -1: none (brnf-storm's) */
	struct ledger *undo;			/* where testbed_make() pushes its undos */
	int undo_id[TB_NROLES];			/* -1: not made */
	struct tb_undo undo_arg[TB_NROLES];
	bool offloads_on;
	bool dynamic_neigh;			/* no permanent neighbour entries */
	bool br_netfilter;			/* /proc/sys/net/bridge in ap */
	bool sta2;				/* made with TB_WITH_STA2 */
	struct tb_veth veth[TB_NVETHS];
};

/* Is role made in this test bed (sta2 only with TB_WITH_STA2)? */
bool testbed_has(const struct testbed *tb, enum tb_role role);
/* Is veth i (tb->veth) made? */
bool testbed_has_veth(const struct testbed *tb, unsigned int i);

/* The way of a pps run through the test bed. path routed: download is pc -> sta, upload
 * sta -> pc; path wlan (TB_WITH_STA2): download is sta2 -> sta, upload sta -> sta2. */
struct tb_path {
	enum tb_role tx, rx;
	const char *tx_dev, *rx_dev;	/* the sender's and the receiver's link */
	const char *dst_ip;		/* the receiver's IPv4 address */
	char dst_mac[18];		/* the frames' destination: routed, the sender's
					 * gateway (the AP bridge it hangs off); wlan, the
					 * receiver itself */
};
void testbed_path(enum brnf_path path, bool download, struct tb_path *p);

/* Claim a new prefix (lock.h) and build the test bed under it; the claim and each
 * namespace push their undo on l as they succeed (ledger.h: the caller unwinds on
 * error). keep: `testbed up`. sta2: with the second station (TB_WITH_STA2). */
int testbed_up(struct testbed *tb, bool offloads_on, bool dynamic_neigh, bool sta2, bool keep,
	       struct ledger *l);
/* The same test bed built again: its namespaces deleted (their undos run) and made
 * anew (same names, same claim), so that state a namespace draws when it is made (hash
 * seeds, addresses of its tables) is drawn again. Nothing runs in it then. */
int testbed_renew(struct testbed *tb);

/* testbed_make() flags */
#define TB_OFFLOADS	(1U << 0)	/* set the veths' offloads to offloads_on, read back */
#define TB_CHURN	(1U << 1)	/* ports come and go in ap (the storm): arp_ignore 8 on
					 * links made later */
#define TB_DYNAMIC_NEIGH (1U << 2)	/* leave neighbour resolution to ARP and ND, as
					 * before: for measuring what it costs (and bridge
					 * forwarding to learning: no static fdb entries) */
#define TB_WITH_STA2	(1U << 3)	/* the second station sta2 on br-wlan (path=wlan) */
/* The namespaces named by testbed_names(), configured, each recorded in tb->claim
 * when there is one. Every namespace made pushes its undo on l, which deletes it
 * only if it still is the namespace made (netns_del_id()): a name that exists
 * already is refused, never taken over or deleted. */
int testbed_make(struct testbed *tb, unsigned int flags, struct ledger *l);
/* Fill tb from a prefix (for `testbed flags` of a kept one, brnf-storm); no claim. */
void testbed_names(struct testbed *tb, const char *prefix);
/* The newest kept test bed's prefix, for the debugging subcommands. */
int testbed_find_kept(char *prefix, size_t len);

#endif
