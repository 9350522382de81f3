// SPDX-License-Identifier: GPL-2.0
/*
 * Links over rtnetlink, as iproute2 ip/link_veth.c, ip/iplink_bridge.c,
 * ip/ipaddress.c and ip/iproute.c build their requests.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_addr.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "link.h"
#include "link_msg.h"
#include "nl.h"
#include "util.h"

int link_index(const char *name)
{
	unsigned int idx = if_nametoindex(name);

	if (!idx) {
		pr_err("no link %s in this namespace", name);
		return -ENODEV;
	}
	return idx;
}

static struct nlmsghdr *link_hdr(struct nl *nl, uint16_t type, uint16_t flags,
				 struct ifinfomsg **ifm)
{
	struct nlmsghdr *nlh;
	void *hdr;

	nlh = nl_req(nl, type, flags, sizeof(**ifm), &hdr);
	*ifm = hdr;
	(*ifm)->ifi_family = AF_UNSPEC;
	return nlh;
}

/* A request (RTM_NEWLINK, RTM_GETLINK, RTM_DELLINK) about the existing link name: AF_UNSPEC,
 * its index in *ifm. NULL, with a message, when there is no such link. */
static struct nlmsghdr *link_req(struct nl *nl, uint16_t type, const char *name,
				 struct ifinfomsg **ifm)
{
	struct nlmsghdr *nlh;
	int idx;

	idx = link_index(name);
	if (idx < 0)
		return NULL;
	nlh = link_hdr(nl, type, 0, ifm);
	(*ifm)->ifi_index = idx;
	return nlh;
}

/* Send nlh and wait for the ack; what (printf) names the request in errors. */
static int link_talk(struct nl *nl, struct nlmsghdr *nlh, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return nl_talk(nl, nlh, NULL, NULL, what);
}

/* RTM_NEWLINK creating name of kind; IFLA_LINKINFO and IFLA_INFO_DATA left open. */
static struct nlmsghdr *newlink_kind(struct nl *nl, const char *name, const char *kind,
				     struct nlattr **linkinfo, struct nlattr **data)
{
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;

	nlh = link_hdr(nl, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifm);
	nl_put_strz(nlh, IFLA_IFNAME, name);
	*linkinfo = nl_nest_start(nlh, IFLA_LINKINFO);
	nl_put_strz(nlh, IFLA_INFO_KIND, kind);
	*data = nl_nest_start(nlh, IFLA_INFO_DATA);
	return nlh;
}

int link_add_veth(struct nl *nl, const char *name, const unsigned char *mac, const char *peer,
		  const unsigned char *peer_mac, int peer_ns_fd)
{
	struct nlattr *linkinfo, *data, *peer_nest;
	struct ifinfomsg *pifm;
	struct nlmsghdr *nlh;

	nlh = newlink_kind(nl, name, "veth", &linkinfo, &data);
	peer_nest = nl_nest_start(nlh, VETH_INFO_PEER);
	/* The peer's own ifinfomsg, then its attributes (ip/link_veth.c). */
	pifm = nl_put_header(nlh, sizeof(*pifm));
	pifm->ifi_family = AF_UNSPEC;
	nl_put_strz(nlh, IFLA_IFNAME, peer);
	if (peer_mac)
		nl_put(nlh, IFLA_ADDRESS, ETH_ALEN, peer_mac);
	if (peer_ns_fd >= 0)
		nl_put_u32(nlh, IFLA_NET_NS_FD, peer_ns_fd);
	nl_nest_end(nlh, peer_nest);
	nl_nest_end(nlh, data);
	nl_nest_end(nlh, linkinfo);
	/* IFLA_ADDRESS of this end after IFLA_LINKINFO, as ip(8) may put it anywhere */
	if (mac)
		nl_put(nlh, IFLA_ADDRESS, ETH_ALEN, mac);
	return link_talk(nl, nlh, "add veth %s peer %s", name, peer);
}

/* The bridge's own netfilter switches (ip/iplink_bridge.c: nf_call_iptables ...). */
/* IFLA_BR_NF_CALL_* = v of the families in which (NULL: all). */
static void nf_call_put(struct nlmsghdr *nlh, const bool v[BRNF_NFAMILIES],
			const bool which[BRNF_NFAMILIES])
{
	unsigned int f;

	for (f = 0; f < BRNF_NFAMILIES; f++)
		if (!which || which[f])
			nl_put_u8(nlh, link_nf_call_attr[f], v[f]);
}

int link_add_bridge(struct nl *nl, const char *name, const bool nf_call[BRNF_NFAMILIES])
{
	struct nlattr *linkinfo, *data;
	struct nlmsghdr *nlh;
	char what[96];

	nlh = newlink_kind(nl, name, "bridge", &linkinfo, &data);
	nl_put_u32(nlh, IFLA_BR_STP_STATE, 0);
	nl_put_u32(nlh, IFLA_BR_FORWARD_DELAY, 0);
	if (nf_call) {
		nf_call_put(nlh, nf_call, NULL);
		snprintf(what, sizeof(what), "add bridge %s with nf_call_* %d%d%d", name,
			 nf_call[0], nf_call[1], nf_call[2]);
	} else {
		snprintf(what, sizeof(what), "add bridge %s", name);
	}
	nl_nest_end(nlh, data);
	nl_nest_end(nlh, linkinfo);
	return nl_talk(nl, nlh, NULL, NULL, what);
}

int link_bridge_nf_call_set(struct nl *nl, const char *bridge, const bool v[BRNF_NFAMILIES],
			    const bool which[BRNF_NFAMILIES])
{
	struct nlattr *linkinfo, *data;
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;

	nlh = link_req(nl, RTM_NEWLINK, bridge, &ifm);
	if (!nlh)
		return -ENODEV;
	linkinfo = nl_nest_start(nlh, IFLA_LINKINFO);
	nl_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	data = nl_nest_start(nlh, IFLA_INFO_DATA);
	nf_call_put(nlh, v, which);
	nl_nest_end(nlh, data);
	nl_nest_end(nlh, linkinfo);
	return link_talk(nl, nlh, "set nf_call_* of %s", bridge);
}

struct getlink {
	struct link_msg m;
	bool seen;
};

static int getlink_cb(const struct nlmsghdr *nlh, void *data)
{
	struct getlink *g = data;
	struct link_msg m;
	int err;

	err = link_msg_read(nlh, &m);
	if (err < 0)
		return err;
	if (!err) {
		g->m = m;
		g->seen = true;
	}
	return 0;
}

int link_bridge_nf_call_get(struct nl *nl, const char *bridge, bool v[BRNF_NFAMILIES])
{
	struct getlink g = {};
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;
	char what[96];
	unsigned int f;
	int err;

	nlh = link_req(nl, RTM_GETLINK, bridge, &ifm);
	if (!nlh)
		return -ENODEV;
	snprintf(what, sizeof(what), "get link %s", bridge);
	err = nl_talk(nl, nlh, getlink_cb, &g, what);
	if (err)
		return err;
	if (!g.seen || !g.m.bridge) {
		pr_err("%s is not a bridge", bridge);
		return -EINVAL;
	}
	for (f = 0; f < BRNF_NFAMILIES; f++) {
		if (!g.m.nf_call_seen[f])
			return -EOPNOTSUPP;	/* no CONFIG_BRIDGE_NETFILTER; caller says */
		v[f] = g.m.nf_call[f];
	}
	return 0;
}

int link_del(struct nl *nl, const char *name)
{
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;

	nlh = link_req(nl, RTM_DELLINK, name, &ifm);
	if (!nlh)
		return -ENODEV;
	return link_talk(nl, nlh, "delete link %s", name);
}

int link_set_master(struct nl *nl, const char *name, const char *master)
{
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;
	int idx, midx;

	idx = link_index(name);
	midx = link_index(master);
	if (idx < 0 || midx < 0)
		return -ENODEV;
	nlh = link_hdr(nl, RTM_NEWLINK, 0, &ifm);
	ifm->ifi_index = idx;
	nl_put_u32(nlh, IFLA_MASTER, midx);
	return link_talk(nl, nlh, "set %s master %s", name, master);
}

int link_set_up(struct nl *nl, const char *name)
{
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;

	nlh = link_req(nl, RTM_NEWLINK, name, &ifm);
	if (!nlh)
		return -ENODEV;
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	return link_talk(nl, nlh, "set %s up", name);
}

int link_set_address(struct nl *nl, const char *name, const unsigned char mac[6])
{
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;

	nlh = link_req(nl, RTM_NEWLINK, name, &ifm);
	if (!nlh)
		return -ENODEV;
	nl_put(nlh, IFLA_ADDRESS, 6, mac);
	return link_talk(nl, nlh, "set address of %s", name);
}

/* "addr/len" into family, bytes and prefix length. */
static int parse_prefix(const char *s, int *family, unsigned char addr[16], unsigned int *plen,
			bool need_len)
{
	char buf[64], *slash;
	unsigned long l;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -EINVAL;
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	else if (need_len)
		return -EINVAL;
	if (inet_pton(AF_INET, buf, addr) == 1)
		*family = AF_INET;
	else if (inet_pton(AF_INET6, buf, addr) == 1)
		*family = AF_INET6;
	else
		return -EINVAL;
	if (slash) {
		if (parse_uint(slash, 0, *family == AF_INET ? 32 : 128, &l))
			return -EINVAL;
		*plen = l;
	}
	return 0;
}

int addr_add(struct nl *nl, const char *name, const char *cidr)
{
	unsigned char addr[16];
	struct ifaddrmsg *ifa;
	struct nlmsghdr *nlh;
	unsigned int plen = 0;
	int family, idx;
	void *hdr;

	if (parse_prefix(cidr, &family, addr, &plen, true)) {
		pr_err("internal error: bad address %s", cidr);
		return -EINVAL;
	}
	idx = link_index(name);
	if (idx < 0)
		return idx;
	nlh = nl_req(nl, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, sizeof(*ifa), &hdr);
	ifa = hdr;
	ifa->ifa_family = family;
	ifa->ifa_prefixlen = plen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = idx;
	nl_put(nlh, IFA_LOCAL, family == AF_INET ? 4 : 16, addr);
	nl_put(nlh, IFA_ADDRESS, family == AF_INET ? 4 : 16, addr);
	if (family == AF_INET6) {
		/* Usable at once: no duplicate address detection. */
		ifa->ifa_flags = IFA_F_NODAD;
		nl_put_u32(nlh, IFA_FLAGS, IFA_F_NODAD);
	}
	return link_talk(nl, nlh, "add address %s dev %s", cidr, name);
}

int route_add_default(struct nl *nl, const char *gw)
{
	unsigned char addr[16];
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	unsigned int plen;
	int family;
	void *hdr;

	if (parse_prefix(gw, &family, addr, &plen, false)) {
		pr_err("internal error: bad gateway %s", gw);
		return -EINVAL;
	}
	nlh = nl_req(nl, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL, sizeof(*rtm), &hdr);
	rtm = hdr;
	rtm->rtm_family = family;
	rtm->rtm_dst_len = 0;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	rtm->rtm_type = RTN_UNICAST;
	nl_put_u32(nlh, RTA_TABLE, RT_TABLE_MAIN);
	nl_put(nlh, RTA_GATEWAY, family == AF_INET ? 4 : 16, addr);
	return link_talk(nl, nlh, "add default route via %s", gw);
}

int neigh_add_permanent(struct nl *nl, const char *name, const char *ip,
			const unsigned char mac[6])
{
	unsigned char addr[16];
	struct nlmsghdr *nlh;
	struct ndmsg *ndm;
	unsigned int plen;
	int family, idx;
	void *hdr;

	if (parse_prefix(ip, &family, addr, &plen, false)) {
		pr_err("internal error: bad neighbour address %s", ip);
		return -EINVAL;
	}
	idx = link_index(name);
	if (idx < 0)
		return idx;
	/* ip/ipneigh.c: ip neigh replace IP lladdr MAC dev NAME nud permanent */
	nlh = nl_req(nl, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE, sizeof(*ndm), &hdr);
	ndm = hdr;
	ndm->ndm_family = family;
	ndm->ndm_ifindex = idx;
	ndm->ndm_state = NUD_PERMANENT;
	ndm->ndm_type = RTN_UNICAST;
	nl_put(nlh, NDA_DST, family == AF_INET ? 4 : 16, addr);
	nl_put(nlh, NDA_LLADDR, ETH_ALEN, mac);
	return link_talk(nl, nlh, "add neighbour %s on %s", ip, name);
}

int fdb_add_static(struct nl *nl, const char *port, const unsigned char mac[6])
{
	struct nlmsghdr *nlh;
	struct ndmsg *ndm;
	int idx;
	void *hdr;

	idx = link_index(port);
	if (idx < 0)
		return idx;
	/* bridge/fdb.c: bridge fdb replace MAC dev PORT master static */
	nlh = nl_req(nl, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE, sizeof(*ndm), &hdr);
	ndm = hdr;
	ndm->ndm_family = PF_BRIDGE;
	ndm->ndm_ifindex = idx;
	ndm->ndm_state = NUD_NOARP;
	ndm->ndm_flags = NTF_MASTER;
	nl_put(nlh, NDA_LLADDR, ETH_ALEN, mac);
	return link_talk(nl, nlh, "add static fdb entry %02x:%02x:%02x:%02x:%02x:%02x on %s",
			 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], port);
}
