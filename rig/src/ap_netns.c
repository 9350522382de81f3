// SPDX-License-Identifier: GPL-2.0
/* The AP backend of a namespace: rtnetlink and /proc/sys inside it (ap_ops.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ap_ops.h"
#include "apctl.h"
#include "brflags.h"
#include "netns.h"
#include "nl.h"
#include "sysctl.h"
#include "util.h"

static int netns_probe(struct ap *ap)
{
	char *argv[] = { "uname", "-a", NULL }, *out = NULL;
	int err;

	err = netns_enter(ap->h.ns);
	if (err) {
		pr_err("%s: cannot enter the namespace", ap->h.what);
		return err;
	}
	ap->br_netfilter = sysctl_have_br_netfilter();
	netns_leave();
	if (host_run(&ap->h, argv, NULL, 0, &out, NULL, 10) == 0 && out) {
		chomp(out);
		snprintf(ap->uname, sizeof(ap->uname), "%s", out);
	}
	free(out);
	return 0;
}

static int netns_switches_get(const struct ap *ap, struct readback *rb)
{
	unsigned int b;
	struct nl *nl;
	int err;

	nl = nl_enter(ap->h.ns, &err);
	if (!nl)
		goto out_msg;
	if (ap->br_netfilter) {
		err = brflags_global_get(rb->global);
		if (err)
			goto out_leave;
		rb->have_global = true;
	}
	rb->have_bridges = true;
	for (b = 0; b < BRNF_NBRIDGES && !err; b++)
		err = brflags_get(nl, brnf_bridge_names[b], rb->bridge[b]);
	if (err == -EOPNOTSUPP) {
		rb->have_bridges = false;
		err = 0;
	}
out_leave:
	nl_leave(nl);
out_msg:
	if (err)
		pr_err("%s: cannot read the bridge-netfilter switches: %s", ap->h.what,
		       strerror(-err));
	return err;
}

static int netns_switches_set(const struct ap *ap, bool set_global,
			      const bool global[BRNF_NFAMILIES],
			      const bool set_bridge[BRNF_NBRIDGES],
			      const bool bridge[BRNF_NBRIDGES][BRNF_NFAMILIES])
{
	unsigned int b;
	struct nl *nl;
	int err = 0;

	nl = nl_enter(ap->h.ns, &err);
	if (!nl)
		return err;
	if (set_global)
		err = brflags_global_set(global);
	for (b = 0; b < BRNF_NBRIDGES && !err; b++)
		if (set_bridge[b])
			err = brflags_set(nl, brnf_bridge_names[b], bridge[b]);
	nl_leave(nl);
	return err;
}

static void netns_sysctls_read(const struct ap *ap, const char *const names[], unsigned int n,
			       char (*vals)[64])
{
	unsigned int i;

	for (i = 0; i < n; i++)
		vals[i][0] = '\0';
	if (netns_enter(ap->h.ns))
		return;
	for (i = 0; i < n; i++)
		if (sysctl_read(names[i], vals[i], sizeof(vals[i])))
			vals[i][0] = '\0';
	netns_leave();
}

const struct ap_ops ap_netns_ops = {
	.probe = netns_probe,
	.switches_get = netns_switches_get,
	.switches_set = netns_switches_set,
	.sysctls_read = netns_sysctls_read,
};
