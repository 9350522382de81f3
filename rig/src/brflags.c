// SPDX-License-Identifier: GPL-2.0
/*
 * Bridge-netfilter switches. Per bridge: RTM_NEWLINK with
 * IFLA_LINKINFO/IFLA_INFO_DATA/IFLA_BR_NF_CALL_*, read back with RTM_GETLINK
 * (link.c, as iproute2 ip/iplink_bridge.c). Global: /proc/sys/net/bridge.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "brflags.h"
#include "link.h"
#include "sysctl.h"

int brflags_family(const char *name)
{
	unsigned int f;

	for (f = 0; f < BRNF_NFAMILIES; f++)
		if (!strcmp(name, brnf_family_names[f]))
			return f;
	return -1;
}

int brflags_set(struct nl *nl, const char *bridge, const bool v[BRNF_NFAMILIES])
{
	return link_bridge_nf_call_set(nl, bridge, v, NULL);
}

int brflags_set_one(struct nl *nl, const char *bridge, enum brnf_family f, bool val)
{
	bool v[BRNF_NFAMILIES] = {}, which[BRNF_NFAMILIES] = {};

	v[f] = val;
	which[f] = true;
	return link_bridge_nf_call_set(nl, bridge, v, which);
}

int brflags_get(struct nl *nl, const char *bridge, bool v[BRNF_NFAMILIES])
{
	return link_bridge_nf_call_get(nl, bridge, v);
}

/* net.bridge.bridge-nf-call-<family> */
static void global_name(char *buf, size_t len, unsigned int f)
{
	snprintf(buf, len, "net.bridge.bridge-nf-call-%s", brnf_family_names[f]);
}

int brflags_global_set(const bool v[BRNF_NFAMILIES])
{
	char name[64];
	unsigned int f;
	int err;

	for (f = 0; f < BRNF_NFAMILIES; f++) {
		global_name(name, sizeof(name), f);
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
		global_name(name, sizeof(name), f);
		err = sysctl_read_bool(name, &v[f]);
		if (err)
			return err;
	}
	return 0;
}
