// SPDX-License-Identifier: GPL-2.0
/* Readers of kernel and tool output for the storm (see parse.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "parse.h"
#include "util.h"

#define TB_MAX 127	/* above IFLA_MAX, IFLA_INFO_MAX and IFLA_BR_MAX */

/* What counts as a splat: the first line of each report. */
const char *const splat_patterns[] = {
	"BUG:", "WARNING:", "KASAN:", "UBSAN:", "Oops", "general protection fault",
	"kernel BUG at", "possible circular locking dependency",
	"possible recursive locking", "inconsistent lock state",
	"possible irq lock inversion", "deadlock", "suspicious RCU usage",
	"sleeping function called from invalid context", "refcount_t:",
	"unreferenced object", "list_add corruption", "list_del corruption",
	"detected stalls on CPUs", "soft lockup", "hard LOCKUP", "hung_task",
	"blocked for more than", "unregister_netdevice: waiting for",
	"Kernel panic",
	NULL
};

int parse_kmsg_record(char *rec, unsigned long long *ts, char **msg)
{
	char *m, *nl;
	unsigned int i;

	*ts = 0;
	m = strchr(rec, ';');
	if (!m)
		return -1;
	*m++ = '\0';
	nl = strchr(m, '\n');
	if (nl)
		*nl = '\0';
	if (sscanf(rec, "%*u,%*u,%llu", ts) != 1)
		*ts = 0;
	*msg = m;
	for (i = 0; splat_patterns[i]; i++)
		if (strstr(m, splat_patterns[i]))
			return i;
	return strstr(m, "Call Trace:") ? SPLAT_TRACE : SPLAT_NONE;
}

void parse_hooks(char *text, struct hooks *h)
{
	bool in = false, fwd = false, post = false, sab = false;
	char *l, *save;

	memset(h, 0, sizeof(*h));
	for (l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		if (strstr(l, "brnfstorm"))
			h->supported = true;
		if (strstr(l, "br_nf_") || strstr(l, "ip_sabotage_in"))
			h->nbrnf++;
		h->pre |= !!strstr(l, "br_nf_pre_routing");
		in |= !!strstr(l, "br_nf_local_in");
		fwd |= !!strstr(l, "br_nf_forward");
		post |= !!strstr(l, "br_nf_post_routing");
		sab |= !!strstr(l, "ip_sabotage_in");
	}
	h->complete = h->pre && in && fwd && post && sab;
}

bool parse_nl_buf_ok(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	struct nlmsghdr h;

	while (len >= sizeof(h)) {
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return false;
		if (MNL_ALIGN(h.nlmsg_len) >= len)
			return true;
		p += MNL_ALIGN(h.nlmsg_len);
		len -= MNL_ALIGN(h.nlmsg_len);
	}
	return true;
}

int parse_ping(const char *text, unsigned long long *tx, unsigned long long *rx)
{
	const char *p = strstr(text, " packets transmitted, ");

	*tx = *rx = 0;
	if (!p)
		return -1;
	while (p > text && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (sscanf(p, "%llu packets transmitted, %llu", tx, rx) != 2) {
		*tx = *rx = 0;
		return -1;
	}
	return 0;
}

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= TB_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

int parse_link_dump(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TB_MAX + 1] = {}, *li[TB_MAX + 1] = {}, *br[TB_MAX + 1] = {};
	static const int attr[BRNF_NFAMILIES] = {
		IFLA_BR_NF_CALL_IPTABLES, IFLA_BR_NF_CALL_IP6TABLES, IFLA_BR_NF_CALL_ARPTABLES,
	};
	struct ap_state *s = data;
	const char *name;
	bool flagged = false;
	unsigned int f;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(struct ifinfomsg), attr_cb, tb);
	if (!tb[IFLA_IFNAME] || mnl_attr_validate(tb[IFLA_IFNAME], MNL_TYPE_NUL_STRING) < 0)
		return MNL_CB_OK;
	name = mnl_attr_get_str(tb[IFLA_IFNAME]);
	if (!strncmp(name, "ss", 2) && s->nlinks_extra < ARRAY_SIZE(s->extra))
		snprintf(s->extra[s->nlinks_extra++], sizeof(s->extra[0]), "%s", name);
	if (!tb[IFLA_LINKINFO])
		return MNL_CB_OK;
	mnl_attr_parse_nested(tb[IFLA_LINKINFO], attr_cb, li);
	if (!li[IFLA_INFO_KIND] || mnl_attr_validate(li[IFLA_INFO_KIND], MNL_TYPE_STRING) < 0 ||
	    strcmp(mnl_attr_get_str(li[IFLA_INFO_KIND]), "bridge"))
		return MNL_CB_OK;
	if (li[IFLA_INFO_DATA]) {
		mnl_attr_parse_nested(li[IFLA_INFO_DATA], attr_cb, br);
		for (f = 0; f < BRNF_NFAMILIES; f++)
			if (br[attr[f]] && mnl_attr_validate(br[attr[f]], MNL_TYPE_U8) == 0 &&
			    mnl_attr_get_u8(br[attr[f]]))
				flagged = true;
	}
	if (s->nbridges < MAX_BRIDGES)
		snprintf(s->names[s->nbridges], sizeof(s->names[0]), "%s%s", name,
			 flagged ? "*" : "");
	s->nbridges++;
	s->nflagged += flagged;
	return MNL_CB_OK;
}

