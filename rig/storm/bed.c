// SPDX-License-Identifier: GPL-2.0
/*
 * The storm's test bed, the same topology as `brnf testbed up` but in namespaces
 * named brnfstorm<pid>-{ap,sta,pc}, so that `brnf cleanup` and the controller's
 * lock never see it (their names are brnf<digits>-*):
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
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "link.h"
#include "netns.h"
#include "proc.h"
#include "storm.h"
#include "sysctl.h"
#include "util.h"

static int ns_common(struct nl *nl)
{
	int err;

	err = sysctl_write("net.ipv6.conf.all.accept_dad", "0");
	if (!err)
		err = sysctl_write("net.ipv6.conf.default.accept_dad", "0");
	if (!err)
		err = link_set_up(nl, "lo");
	return err;
}

/*
 * A bridge takes the lowest MAC address of its ports unless one is set. The
 * workers add and remove ports with random addresses, so br-wlan's MAC would
 * change under sta's ARP cache (IPv4 sends no gratuitous ARP on a change unless
 * arp_notify is set; IPv6 sends an unsolicited NA) and IPv4 would stall: fix it.
 */
static const unsigned char bridge_mac[2][6] = {
	{ 0x02, 0x00, 0xc6, 0x12, 0x00, 0x01 },
	{ 0x02, 0x00, 0xc6, 0x12, 0x00, 0x02 },
};

static int ap_setup(struct storm_bed *bed, struct nl *nl)
{
	static const char *const br[2] = { "br-wlan", "br-lan" };
	static const char *const port[2] = { "wlan0", "eth0" };
	static const char *const addr[2][2] = {
		{ "198.18.1.1/24", "2001:2:0:1::1/64" },
		{ "198.18.2.1/24", "2001:2:0:2::1/64" },
	};
	int err, fd, i;

	err = sysctl_write("net.ipv4.ip_forward", "1");
	if (!err)
		err = sysctl_write("net.ipv6.conf.all.forwarding", "1");
	for (i = 0; i < 2 && !err; i++) {
		fd = netns_open(i == 0 ? bed->ns_sta : bed->ns_pc);
		if (fd < 0)
			return fd;
		err = link_add_veth(nl, port[i], port[i], fd);
		close(fd);
		if (!err)
			err = link_add_bridge(nl, br[i], NULL);
		if (!err)
			err = link_set_address(nl, br[i], bridge_mac[i]);
		if (!err)
			err = link_set_master(nl, port[i], br[i]);
		if (!err)
			err = link_set_up(nl, port[i]);
		if (!err)
			err = link_set_up(nl, br[i]);
		if (!err)
			err = addr_add(nl, br[i], addr[i][0]);
		if (!err)
			err = addr_add(nl, br[i], addr[i][1]);
	}
	/*
	 * The workers' extra ports are veths whose other end stays in ap: without
	 * this, ap would answer sta's ARP for 198.18.1.1 through them, sta would
	 * send to a MAC that is gone a moment later, and IPv4 would stall. Only
	 * links made from now on get it, not the two bridges.
	 */
	if (!err)
		err = sysctl_write("net.ipv4.conf.default.arp_ignore", "8");
	return err;
}

static int host_setup(struct nl *nl, bool sta)
{
	const char *ifn = sta ? "wlan0" : "eth0";
	int err;

	err = link_set_up(nl, ifn);
	if (!err)
		err = addr_add(nl, ifn, sta ? "198.18.1.2/24" : "198.18.2.2/24");
	if (!err)
		err = addr_add(nl, ifn, sta ? "2001:2:0:1::2/64" : "2001:2:0:2::2/64");
	if (!err)
		err = route_add_default(nl, sta ? "198.18.1.1" : "198.18.2.1");
	if (!err)
		err = route_add_default(nl, sta ? "2001:2:0:1::1" : "2001:2:0:2::1");
	return err;
}

static int setup_in(struct storm_bed *bed, const char *ns)
{
	struct nl *nl;
	int err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = netns_enter(ns);
	if (err)
		goto out_free;
	err = nl_open(nl);
	if (err) {
		pr_err("rtnetlink socket in %s: %s", ns, strerror(-err));
		goto out_leave;
	}
	err = ns_common(nl);
	if (!err && ns == bed->ns_ap)
		err = ap_setup(bed, nl);
	else if (!err)
		err = host_setup(nl, ns == bed->ns_sta);
	nl_close(nl);
out_leave:
	netns_leave();
out_free:
	free(nl);
	return err;
}

int bed_up(struct storm_bed *bed)
{
	int err;

	memset(bed, 0, sizeof(*bed));
	snprintf(bed->ns_ap, sizeof(bed->ns_ap), STORM_PREFIX "%d-ap", getpid());
	snprintf(bed->ns_sta, sizeof(bed->ns_sta), STORM_PREFIX "%d-sta", getpid());
	snprintf(bed->ns_pc, sizeof(bed->ns_pc), STORM_PREFIX "%d-pc", getpid());
	bed->made = true;
	err = netns_add(bed->ns_ap);
	if (!err)
		err = netns_add(bed->ns_sta);
	if (!err)
		err = netns_add(bed->ns_pc);
	if (!err)
		err = setup_in(bed, bed->ns_ap);
	if (!err)
		err = setup_in(bed, bed->ns_sta);
	if (!err)
		err = setup_in(bed, bed->ns_pc);
	if (err)
		bed_down(bed);
	return err;
}

void bed_down(struct storm_bed *bed)
{
	if (!bed->made)
		return;
	netns_del(bed->ns_ap);
	netns_del(bed->ns_sta);
	netns_del(bed->ns_pc);
	bed->made = false;
}

/* brnfstorm<pid>-* of a storm that is gone (killed with SIGKILL). */
int bed_reap_stale(void)
{
	struct dirent *de;
	char comm[64];
	int n = 0;
	DIR *d;

	d = opendir(NETNS_RUN_DIR);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *p = de->d_name + strlen(STORM_PREFIX);
		char path[64], *buf, *end;
		long pid;

		if (strncmp(de->d_name, STORM_PREFIX, strlen(STORM_PREFIX)))
			continue;
		pid = strtol(p, &end, 10);
		if (end == p || *end != '-' || pid <= 0)
			continue;
		comm[0] = '\0';
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		if (read_file(path, &buf, NULL) == 0) {
			snprintf(comm, sizeof(comm), "%s", buf);
			free(buf);
			chomp(comm);
		}
		if (pid == getpid() || !strcmp(comm, "brnf-storm"))
			continue;
		if (netns_del(de->d_name) == 0) {
			fprintf(stderr, "brnf-storm: removed network namespace %s of a storm that"
				" ended (pid %ld)\n", de->d_name, pid);
			n++;
		}
	}
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

		err = run_in(bed->ns_ap, a1);
		if (!err)
			err = run_in(bed->ns_ap, a2);
		if (!err)
			err = run_in(bed->ns_ap, a3);
	}
	if (!err)
		err = run_in(bed->ns_ap, nftc);
	return err;
}
