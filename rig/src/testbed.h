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
 */
#ifndef BRNF_TESTBED_H
#define BRNF_TESTBED_H

#include <stdbool.h>
#include "ledger.h"
#include "lock.h"
#include "matrix.h"
#include "netns.h"
#include "offload.h"

enum tb_role { TB_AP, TB_STA, TB_PC, TB_NROLES };
extern const char *const tb_role_names[TB_NROLES];	/* "ap", "sta", "pc" */

#define TB_NVETHS 4
/* The port of each bridge (brnf_bridge_names order): "eth0", "wlan0" */
extern const char *const tb_bridge_port[BRNF_NBRIDGES];
#define TB_PC_ADDR4 "198.18.2.2"	/* where the iperf3 servers listen */
#define TB_STA_ADDR4 "198.18.1.2"

struct tb_veth {
	enum tb_role role;
	const char *ifname;
	bool offload[OFFLOAD_N];	/* read back after setting */
};

struct testbed;
/* The undo of one namespace made (the ledger's argument). */
struct tb_undo {
	struct testbed *tb;
	enum tb_role role;
};

struct testbed {
	char prefix[32];			/* brnf<pid> (lock.h: brnf<pid>.<n>) */
	char ns[TB_NROLES][48];			/* brnf<pid>-ap, ... */
	struct netns_id id[TB_NROLES];		/* each namespace as made */
	struct claim claim;			/* fd -1: none (brnf-storm's) */
	struct ledger *undo;			/* where testbed_make() pushes its undos */
	int undo_id[TB_NROLES];			/* -1: not made */
	struct tb_undo undo_arg[TB_NROLES];
	bool offloads_on;
	bool dynamic_neigh;			/* no permanent neighbour entries */
	bool br_netfilter;			/* /proc/sys/net/bridge in ap */
	struct tb_veth veth[TB_NVETHS];
};

/* The path of a pps run through the test bed: download is pc -> sta, upload sta -> pc. */
struct tb_path {
	enum tb_role tx, rx;
	const char *tx_dev, *rx_dev;	/* the sender's and the receiver's link */
	const char *dst_ip;		/* the receiver's IPv4 address */
	char gw_mac[18];		/* the sender's gateway: the AP bridge it hangs off */
};
void testbed_path(bool download, struct tb_path *p);

/* Claim a new prefix (lock.h) and build the test bed under it; the claim and each
 * namespace push their undo on l as they succeed (ledger.h: the caller unwinds on
 * error). keep: `testbed up`. */
int testbed_up(struct testbed *tb, bool offloads_on, bool dynamic_neigh, bool keep,
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
					 * before: for measuring what it costs */
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
