// SPDX-License-Identifier: GPL-2.0
/*
 * Bridge-netfilter switches. Per bridge: RTM_NEWLINK with
 * IFLA_LINKINFO/IFLA_INFO_DATA/IFLA_BR_NF_CALL_*, read back with RTM_GETLINK
 * (as iproute2 ip/iplink_bridge.c). Global: /proc/sys/net/bridge.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "brflags.h"
#include "link.h"
#include "sysctl.h"
#include "util.h"

#define TB_MAX 127	/* above IFLA_MAX, IFLA_INFO_MAX and IFLA_BR_MAX */

static const int nf_call_attr[BRNF_NFAMILIES] = {
	[BRNF_IPTABLES] = IFLA_BR_NF_CALL_IPTABLES,
	[BRNF_IP6TABLES] = IFLA_BR_NF_CALL_IP6TABLES,
	[BRNF_ARPTABLES] = IFLA_BR_NF_CALL_ARPTABLES,
};

int brflags_family(const char *name)
{
	unsigned int f;

	for (f = 0; f < BRNF_NFAMILIES; f++)
		if (!strcmp(name, brnf_family_names[f]))
			return f;
	return -1;
}

void brflags_put_attrs(struct nlmsghdr *nlh, const bool v[BRNF_NFAMILIES],
		       const bool which[BRNF_NFAMILIES])
{
	unsigned int f;

	for (f = 0; f < BRNF_NFAMILIES; f++)
		if (!which || which[f])
			mnl_attr_put_u8(nlh, nf_call_attr[f], v[f]);
}

static int brflags_put(struct nl *nl, const char *bridge, const bool v[BRNF_NFAMILIES],
		       const bool which[BRNF_NFAMILIES])
{
	struct nlattr *linkinfo, *data;
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;
	char what[96];

	nlh = link_req(nl, RTM_NEWLINK, bridge, &ifm);
	if (!nlh)
		return -ENODEV;
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	brflags_put_attrs(nlh, v, which);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	snprintf(what, sizeof(what), "set nf_call_* of %s", bridge);
	return nl_talk(nl, nlh, NULL, NULL, what);
}

int brflags_set(struct nl *nl, const char *bridge, const bool v[BRNF_NFAMILIES])
{
	return brflags_put(nl, bridge, v, NULL);
}

int brflags_set_one(struct nl *nl, const char *bridge, enum brnf_family f, bool val)
{
	bool v[BRNF_NFAMILIES] = {}, which[BRNF_NFAMILIES] = {};

	v[f] = val;
	which[f] = true;
	return brflags_put(nl, bridge, v, which);
}

struct getlink {
	bool v[BRNF_NFAMILIES];
	bool seen[BRNF_NFAMILIES];
	bool is_bridge;
};

/* Skip attribute types newer than we know (libmnl data_attr_cb). */
static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > TB_MAX)
		return MNL_CB_OK;
	tb[type] = attr;
	return MNL_CB_OK;
}

static int getlink_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TB_MAX + 1] = {};
	const struct nlattr *li[TB_MAX + 1] = {};
	const struct nlattr *br[TB_MAX + 1] = {};
	struct getlink *g = data;
	unsigned int f;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(struct ifinfomsg), attr_cb, tb);
	if (!tb[IFLA_LINKINFO])
		return MNL_CB_OK;
	mnl_attr_parse_nested(tb[IFLA_LINKINFO], attr_cb, li);
	if (!li[IFLA_INFO_KIND] || mnl_attr_validate(li[IFLA_INFO_KIND], MNL_TYPE_STRING) < 0 ||
	    strcmp(mnl_attr_get_str(li[IFLA_INFO_KIND]), "bridge") || !li[IFLA_INFO_DATA])
		return MNL_CB_OK;
	g->is_bridge = true;
	mnl_attr_parse_nested(li[IFLA_INFO_DATA], attr_cb, br);
	for (f = 0; f < BRNF_NFAMILIES; f++) {
		const struct nlattr *a = br[nf_call_attr[f]];

		if (a && mnl_attr_validate(a, MNL_TYPE_U8) == 0) {
			g->v[f] = mnl_attr_get_u8(a);
			g->seen[f] = true;
		}
	}
	return MNL_CB_OK;
}

int brflags_get(struct nl *nl, const char *bridge, bool v[BRNF_NFAMILIES])
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
	if (!g.is_bridge) {
		pr_err("%s is not a bridge", bridge);
		return -EINVAL;
	}
	for (f = 0; f < BRNF_NFAMILIES; f++) {
		if (!g.seen[f])
			return -EOPNOTSUPP;	/* no CONFIG_BRIDGE_NETFILTER; caller says */
		v[f] = g.v[f];
	}
	return 0;
}

int brflags_global_set(const bool v[BRNF_NFAMILIES])
{
	char name[64];
	unsigned int f;
	int err;

	for (f = 0; f < BRNF_NFAMILIES; f++) {
		snprintf(name, sizeof(name), "net.bridge.bridge-nf-call-%s", brnf_family_names[f]);
		err = sysctl_write(name, v[f] ? "1" : "0");
		if (err)
			return err;
	}
	return 0;
}

int brflags_global_get(bool v[BRNF_NFAMILIES])
{
	char name[64];
	unsigned int f;
	int err;

	for (f = 0; f < BRNF_NFAMILIES; f++) {
		snprintf(name, sizeof(name), "net.bridge.bridge-nf-call-%s", brnf_family_names[f]);
		err = sysctl_read_bool(name, &v[f]);
		if (err)
			return err;
	}
	return 0;
}
