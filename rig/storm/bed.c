// SPDX-License-Identifier: GPL-2.0
/*
 * The storm's test bed: the controller's (testbed.c, testbed_make() with TB_CHURN)
 * in namespaces named brnfstorm<pid>-{ap,sta,pc}, so that `brnf cleanup` and the
 * controller's lock never see it (their names are brnf<digits>-*):
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

#include "netns.h"
#include "proc.h"
#include "storm.h"
#include "testbed.h"
#include "util.h"

int bed_up(struct storm_bed *bed)
{
	char prefix[32];
	int err;

	memset(bed, 0, sizeof(*bed));
	snprintf(prefix, sizeof(prefix), STORM_PREFIX "%d", getpid());
	testbed_names(&bed->tb, prefix);
	err = testbed_make(&bed->tb, TB_CHURN, &bed->undo);
	bed->made = true;
	if (err)
		bed_down(bed);
	return err;
}

void bed_down(struct storm_bed *bed)
{
	if (!bed->made)
		return;
	ledger_unwind(&bed->undo);
	bed->made = false;
}

/*
 * The pid in NAME, brnfstorm<pid> followed by SEP, when no storm runs under it any
 * more (it was killed with SIGKILL); else 0.
 */
static long gone_storm(const char *name, char sep)
{
	const char *p = name + strlen(STORM_PREFIX);
	char path[64], comm[64] = "", *buf, *end;
	long pid;

	if (strncmp(name, STORM_PREFIX, strlen(STORM_PREFIX)))
		return 0;
	pid = strtol(p, &end, 10);
	if (end == p || *end != sep || pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (read_file(path, &buf, NULL) == 0) {
		snprintf(comm, sizeof(comm), "%s", buf);
		free(buf);
		chomp(comm);
	}
	if (pid == getpid() || !strcmp(comm, "brnf-storm"))
		return 0;
	return pid;
}

/*
 * What a storm that is gone left: its namespaces brnfstorm<pid>-* and its
 * directory /tmp/brnfstorm<pid>.XXXXXX (traffic.c).
 */
int bed_reap_stale(void)
{
	struct dirent *de;
	int n = 0;
	long pid;
	DIR *d;

	d = opendir(NETNS_RUN_DIR);
	while (d && (de = readdir(d))) {
		pid = gone_storm(de->d_name, '-');
		if (pid && netns_del(de->d_name) == 0) {
			fprintf(stderr, "brnf-storm: removed network namespace %s of a storm that"
				" ended (pid %ld)\n", de->d_name, pid);
			n++;
		}
	}
	if (d)
		closedir(d);
	/* only a directory of ours (mkdtemp's), never a link or another user's */
	d = opendir("/tmp");
	while (d && (de = readdir(d))) {
		char path[300];
		struct stat st;

		pid = gone_storm(de->d_name, '.');
		if (!pid)
			continue;
		snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (rm_rf(path) == 0) {
			fprintf(stderr, "brnf-storm: removed directory %s of a storm that ended"
				" (pid %ld)\n", path, pid);
			n++;
		}
	}
	if (d)
		closedir(d);
	return n;
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
