/* SPDX-License-Identifier: GPL-2.0 */
/* What an RTM_NEWLINK answer says about a link: its name, whether it is a bridge, and a
 * bridge's nf_call_* switches. Read through nl.h's checked attributes. */
#ifndef BRNF_LINK_MSG_H
#define BRNF_LINK_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include "matrix.h"

struct nlmsghdr;

/* IFLA_BR_NF_CALL_{IPTABLES,IP6TABLES,ARPTABLES}, by enum brnf_family. */
extern const uint16_t link_nf_call_attr[BRNF_NFAMILIES];

struct link_msg {
	const char *name;		/* IFLA_IFNAME, inside the message; NULL: none */
	bool bridge;			/* IFLA_INFO_KIND "bridge" */
	bool nf_call_seen[BRNF_NFAMILIES];	/* reported (CONFIG_BRIDGE_NETFILTER) */
	bool nf_call[BRNF_NFAMILIES];
};

/*
 * Read an RTM_NEWLINK message into m. 0; 1 for a message of another type (m cleared);
 * -EBADMSG or -EINVAL (nl_parse()) when an attribute is cut short or not of its type:
 * an answer read wrong is an error, not a link without flags.
 */
int link_msg_read(const struct nlmsghdr *nlh, struct link_msg *m);

#endif
