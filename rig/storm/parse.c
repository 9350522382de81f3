// SPDX-License-Identifier: GPL-2.0
/* Readers of kernel and tool output for the storm (see parse.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "link_msg.h"
#include "parse.h"
#include "util.h"

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

int parse_link_dump(const struct nlmsghdr *nlh, void *data)
{
	struct ap_state *s = data;
	struct link_msg m;
	unsigned int f;
	bool flagged = false;
	int err;

	err = link_msg_read(nlh, &m);
	if (err)
		return err < 0 ? err : 0;
	if (!m.name)
		return 0;
	if (!strncmp(m.name, "ss", 2) && s->nlinks_extra < ARRAY_SIZE(s->extra))
		snprintf(s->extra[s->nlinks_extra++], sizeof(s->extra[0]), "%s", m.name);
	if (!m.bridge)
		return 0;
	for (f = 0; f < BRNF_NFAMILIES; f++)
		flagged |= m.nf_call[f];
	if (s->nbridges < MAX_BRIDGES)
		snprintf(s->names[s->nbridges], sizeof(s->names[0]), "%s%s", m.name,
			 flagged ? "*" : "");
	s->nbridges++;
	s->nflagged += flagged;
	return 0;
}
