// SPDX-License-Identifier: GPL-2.0
/* An RTM_NEWLINK answer read (link_msg.h): a policy for each level of attributes, as
 * iproute2 and ethtool check theirs before reading them. */
#include <errno.h>
#include <string.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "link_msg.h"
#include "nl.h"

const uint16_t link_nf_call_attr[BRNF_NFAMILIES] = {
	[BRNF_IPTABLES] = IFLA_BR_NF_CALL_IPTABLES,
	[BRNF_IP6TABLES] = IFLA_BR_NF_CALL_IP6TABLES,
	[BRNF_ARPTABLES] = IFLA_BR_NF_CALL_ARPTABLES,
};

/* what is read of each level; the other types are skipped, unchecked */
static const enum nl_attr_kind link_policy[IFLA_MAX + 1] = {
	[IFLA_IFNAME] = NL_ATTR_STR,
	[IFLA_LINKINFO] = NL_ATTR_NESTED,
};
static const enum nl_attr_kind info_policy[IFLA_INFO_MAX + 1] = {
	[IFLA_INFO_KIND] = NL_ATTR_STR,
	[IFLA_INFO_DATA] = NL_ATTR_NESTED,
};
static const enum nl_attr_kind bridge_policy[IFLA_BR_MAX + 1] = {
	[IFLA_BR_NF_CALL_IPTABLES] = NL_ATTR_U8,
	[IFLA_BR_NF_CALL_IP6TABLES] = NL_ATTR_U8,
	[IFLA_BR_NF_CALL_ARPTABLES] = NL_ATTR_U8,
};

int link_msg_read(const struct nlmsghdr *nlh, struct link_msg *m)
{
	const struct nlattr *tb[IFLA_MAX + 1], *li[IFLA_INFO_MAX + 1], *br[IFLA_BR_MAX + 1];
	const char *kind;
	unsigned int f;
	uint8_t v;
	int err;

	memset(m, 0, sizeof(*m));
	if (nl_msg_type(nlh) != RTM_NEWLINK)
		return 1;
	err = nl_parse(nlh, sizeof(struct ifinfomsg), tb, IFLA_MAX, link_policy);
	if (!err)
		err = nl_parse_nested(tb[IFLA_LINKINFO], li, IFLA_INFO_MAX, info_policy);
	if (err)
		return err;
	m->name = nl_get_str(tb[IFLA_IFNAME]);
	kind = nl_get_str(li[IFLA_INFO_KIND]);
	m->bridge = kind && !strcmp(kind, "bridge");
	if (!m->bridge)
		return 0;
	err = nl_parse_nested(li[IFLA_INFO_DATA], br, IFLA_BR_MAX, bridge_policy);
	if (err)
		return err;
	for (f = 0; f < BRNF_NFAMILIES; f++)
		if (nl_get_u8(br[link_nf_call_attr[f]], &v)) {
			m->nf_call_seen[f] = true;
			m->nf_call[f] = v;
		}
	return 0;
}
