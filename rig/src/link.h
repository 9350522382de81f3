/* SPDX-License-Identifier: GPL-2.0 */
/* Links over rtnetlink: veth pairs, bridges (and their nf_call_* switches), ports, up,
 * addresses, routes, neighbours. */
#ifndef BRNF_LINK_H
#define BRNF_LINK_H

#include <stdbool.h>
#include "matrix.h"
#include "nl.h"

/* veth <name> here, its peer <peer> created directly in the namespace peer_ns_fd (-1:
 * here); mac, peer_mac: their MAC addresses (NULL: random, the kernel's choice). */
int link_add_veth(struct nl *nl, const char *name, const unsigned char *mac, const char *peer,
		  const unsigned char *peer_mac, int peer_ns_fd);
/* Bridge with STP off and forward_delay 0, so ports forward at once; nf_call: its
 * nf_call_{iptables,ip6tables,arptables} (NULL: the kernel's defaults). */
int link_add_bridge(struct nl *nl, const char *name, const bool nf_call[BRNF_NFAMILIES]);
int link_del(struct nl *nl, const char *name);
int link_set_master(struct nl *nl, const char *name, const char *master);
int link_set_up(struct nl *nl, const char *name);
/* Fix the MAC address (a bridge's would follow its ports otherwise). */
int link_set_address(struct nl *nl, const char *name, const unsigned char mac[6]);
/* "198.18.1.1/24" or "2001:2:0:1::1/64"; IPv6 ones with IFA_F_NODAD. */
int addr_add(struct nl *nl, const char *name, const char *cidr);
/* Default route via gw ("198.18.1.1" or "2001:2:0:1::1"). */
int route_add_default(struct nl *nl, const char *gw);
/* A permanent neighbour entry (ARP or ND) for ip on link name: it never goes stale,
 * so no packet waits for or pays for neighbour resolution while a run measures. */
int neigh_add_permanent(struct nl *nl, const char *name, const char *ip,
			const unsigned char mac[6]);
/* A static entry of the bridge's forwarding database for mac on port (one of its ports):
 * it never ages out, so a one-way bridged flow is forwarded, never flooded, whenever a
 * run measures it. */
int fdb_add_static(struct nl *nl, const char *port, const unsigned char mac[6]);
/* ifindex of name in the current namespace, or -ENODEV (with a message). */
int link_index(const char *name);
/* A bridge's nf_call_{iptables,ip6tables,arptables} (IFLA_BR_NF_CALL_*): set those
 * of the families in which (NULL: all) to v; read all back. The read returns
 * -EOPNOTSUPP (silently) when the kernel does not report them (no
 * CONFIG_BRIDGE_NETFILTER). */
int link_bridge_nf_call_set(struct nl *nl, const char *bridge, const bool v[BRNF_NFAMILIES],
			    const bool which[BRNF_NFAMILIES]);
int link_bridge_nf_call_get(struct nl *nl, const char *bridge, bool v[BRNF_NFAMILIES]);

#endif
