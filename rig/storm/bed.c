// SPDX-License-Identifier: GPL-2.0
/*
 * The storm's test bed: the controller's (testbed.c, testbed_make() with TB_CHURN)
 * in namespaces named brnfstorm<n>-{ap,sta,pc}, claimed and journaled as the
 * controller's are (lock.h, journal.h), so that a storm that is SIGKILLed is cleaned
 * up by the next storm, the next run or `brnf cleanup`:
 *
 *   sta: wlan0 ==veth== wlan0 -[br-wlan]  ap  [br-lan]- eth0 ==veth== eth0 :pc
 *        198.18.1.2/24       198.18.1.1/24     198.18.2.1/24          198.18.2.2/24
 *        2001:2:0:1::2/64    2001:2:0:1::1/64  2001:2:0:2::1/64       2001:2:0:2::2/64
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lock.h"
#include "netns.h"
#include "proc.h"
#include "storm.h"
#include "testbed.h"
#include "util.h"

static int claim_undo(void *arg)
{
	lock_unclaim(arg);
	return 0;
}

int bed_up(struct storm_bed *bed)
{
	struct claim c;
	int err;

	memset(bed, 0, sizeof(*bed));
	/* claimed and journaled as the controller's test beds are (lock.h, journal.h) */
	err = lock_claim_as(&c, STORM_PREFIX, false);
	if (err)
		return err;
	testbed_names(&bed->tb, c.prefix);
	bed->tb.claim = c;
	bed->made = true;
	err = ledger_push(&bed->undo, "the storm's claim", claim_undo, &bed->tb.claim);
	if (err >= 0)
		err = testbed_make(&bed->tb, TB_CHURN, &bed->undo);
	if (err < 0)
		bed_down(bed);
	return err < 0 ? err : 0;
}

void bed_down(struct storm_bed *bed)
{
	if (!bed->made)
		return;
	ledger_unwind(&bed->undo);
	bed->made = false;
}

/*
 * What a storm or a brnf run that is gone left: the claims nobody holds, their
 * journals replayed (the storm's traffic directory) and their namespaces removed,
 * each only while it still is the one made (lock_reap_stale()). Kept test beds stay.
 */
int bed_reap_stale(void)
{
	return lock_reap_stale(false);
}

static int run_in(const char *ns, char *const argv[])
{
	char *err = NULL, line[200];
	int st;

	st = proc_run(ns, argv, NULL, &err, 30);
	if (st) {
		proc_first_error(err ? err : "", line, sizeof(line));
		pr_err("%s in %s: exit status %d: %s", argv[0], ns, st, line);
	}
	free(err);
	return st ? -EIO : 0;
}

/*
 * Rules that make the hooks do work without dropping anything: conntrack on
 * forwarded traffic, physdev counters that match only frames br_netfilter
 * handed to iptables, and an nftables bridge-family chain (which must see every
 * frame whatever br_netfilter does; it also tells whether `nft list hooks` works).
 */
int bed_rules(struct storm_bed *bed)
{
	static const char *const fams[2] = { "iptables", "ip6tables" };
	char *nftc[] = { "nft",
		"add table bridge brnfstorm; "
		"add chain bridge brnfstorm pre { type filter hook prerouting priority 0; }; "
		"add rule bridge brnfstorm pre counter",
		NULL };
	unsigned int i;
	int err = 0;

	for (i = 0; i < 2 && !err; i++) {
		char *a1[] = { (char *)fams[i], "-t", "mangle", "-A", "PREROUTING", "-m",
			"physdev", "--physdev-in", "wlan0", NULL };
		char *a2[] = { (char *)fams[i], "-t", "mangle", "-A", "PREROUTING", "-m",
			"physdev", "--physdev-in", "eth0", NULL };
		char *a3[] = { (char *)fams[i], "-A", "FORWARD", "-m", "conntrack",
			"--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT", NULL };

		err = run_in(bed->tb.ns[TB_AP], a1);
		if (!err)
			err = run_in(bed->tb.ns[TB_AP], a2);
		if (!err)
			err = run_in(bed->tb.ns[TB_AP], a3);
	}
	if (!err)
		err = run_in(bed->tb.ns[TB_AP], nftc);
	return err;
}
