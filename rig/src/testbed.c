// SPDX-License-Identifier: GPL-2.0
/* The namespace test bed: three namespaces, two veth pairs, two bridges. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "link.h"
#include "lock.h"
#include "netns.h"
#include "nl.h"
#include "sysctl.h"
#include "testbed.h"
#include "util.h"

const char *const tb_role_names[TB_NROLES] = { "ap", "sta", "pc" };
/* br-lan, br-wlan (brnf_bridge_names) */
const char *const tb_bridge_port[BRNF_NBRIDGES] = { "eth0", "wlan0" };
static const enum tb_role bridge_peer[BRNF_NBRIDGES] = { TB_PC, TB_STA };

static const struct tb_veth veths[TB_NVETHS] = {
	{ TB_AP, "wlan0", {} }, { TB_AP, "eth0", {} },
	{ TB_STA, "wlan0", {} }, { TB_PC, "eth0", {} },
};

/* One host side: its link, addresses and default routes. */
static const struct {
	enum tb_role role;
	const char *ifname;
	const char *addr[2];
	const char *gw[2];
} hosts[] = {
	{ TB_STA, "wlan0", { "198.18.1.2/24", "2001:2:0:1::2/64" },
	  { "198.18.1.1", "2001:2:0:1::1" } },
	{ TB_PC, "eth0", { "198.18.2.2/24", "2001:2:0:2::2/64" },
	  { "198.18.2.1", "2001:2:0:2::1" } },
};

static const char *const bridge_addr[BRNF_NBRIDGES][2] = {
	{ "198.18.2.1/24", "2001:2:0:2::1/64" },
	{ "198.18.1.1/24", "2001:2:0:1::1/64" },
};

void testbed_names(struct testbed *tb, const char *prefix)
{
	unsigned int r;

	snprintf(tb->prefix, sizeof(tb->prefix), "%s", prefix);
	for (r = 0; r < TB_NROLES; r++)
		snprintf(tb->ns[r], sizeof(tb->ns[r]), "%s-%s", prefix, tb_role_names[r]);
	memcpy(tb->veth, veths, sizeof(veths));
}

/* Settings every namespace gets: no DAD, lo up. */
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
 * TB_CHURN: a bridge takes the lowest MAC address of its ports unless one is set.
 * The storm's workers add and remove ports with random addresses, so br-wlan's
 * MAC would change under sta's ARP cache (IPv4 sends no gratuitous ARP on a change
 * unless arp_notify is set; IPv6 sends an unsolicited NA) and IPv4 would stall: fix it.
 */
static const unsigned char bridge_mac[BRNF_NBRIDGES][6] = {
	{ 0x02, 0x00, 0xc6, 0x12, 0x00, 0x02 },
	{ 0x02, 0x00, 0xc6, 0x12, 0x00, 0x01 },
};

static int ap_setup(struct testbed *tb, struct nl *nl, unsigned int flags)
{
	int err, fd, i;

	err = sysctl_write("net.ipv4.ip_forward", "1");
	if (!err)
		err = sysctl_write("net.ipv6.conf.all.forwarding", "1");
	if (err)
		return err;
	for (i = 0; i < BRNF_NBRIDGES; i++) {
		fd = netns_open(tb->ns[bridge_peer[i]]);
		if (fd < 0)
			return fd;
		err = link_add_veth(nl, tb_bridge_port[i], tb_bridge_port[i], fd);
		close(fd);
		if (!err)
			err = link_add_bridge(nl, brnf_bridge_names[i], NULL);
		if (!err && (flags & TB_CHURN))
			err = link_set_address(nl, brnf_bridge_names[i], bridge_mac[i]);
		if (!err)
			err = link_set_master(nl, tb_bridge_port[i], brnf_bridge_names[i]);
		if (!err)
			err = link_set_up(nl, tb_bridge_port[i]);
		if (!err)
			err = link_set_up(nl, brnf_bridge_names[i]);
		if (!err)
			err = addr_add(nl, brnf_bridge_names[i], bridge_addr[i][0]);
		if (!err)
			err = addr_add(nl, brnf_bridge_names[i], bridge_addr[i][1]);
		if (err)
			return err;
	}
	/*
	 * TB_CHURN: the workers' extra ports are veths whose other end stays in ap:
	 * without this, ap would answer sta's ARP for 198.18.1.1 through them, sta
	 * would send to a MAC that is gone a moment later, and IPv4 would stall. Only
	 * links made from now on get it, not the two bridges.
	 */
	if (flags & TB_CHURN) {
		err = sysctl_write("net.ipv4.conf.default.arp_ignore", "8");
		if (err)
			return err;
	}
	tb->br_netfilter = sysctl_have_br_netfilter();
	return 0;
}

static int host_setup(struct nl *nl, unsigned int h)
{
	int err, i;

	err = link_set_up(nl, hosts[h].ifname);
	for (i = 0; i < 2 && !err; i++)
		err = addr_add(nl, hosts[h].ifname, hosts[h].addr[i]);
	for (i = 0; i < 2 && !err; i++)
		err = route_add_default(nl, hosts[h].gw[i]);
	return err;
}

static int offloads_setup(struct testbed *tb, enum tb_role role)
{
	unsigned int i;
	int err;

	for (i = 0; i < TB_NVETHS; i++) {
		if (tb->veth[i].role != role)
			continue;
		err = offload_set(tb->veth[i].ifname, tb->offloads_on);
		if (!err)
			err = offload_get(tb->veth[i].ifname, tb->veth[i].offload);
		if (err)
			return err;
	}
	return 0;
}

/* Configure one namespace from inside it. */
static int role_setup(struct testbed *tb, enum tb_role role, unsigned int flags)
{
	struct nl *nl;
	int err;

	nl = nl_enter(tb->ns[role], &err);
	if (!nl)
		return err;
	err = ns_common(nl);
	if (!err && role == TB_AP)
		err = ap_setup(tb, nl, flags);
	else if (!err)
		err = host_setup(nl, role == TB_STA ? 0 : 1);
	if (!err && (flags & TB_OFFLOADS))
		err = offloads_setup(tb, role);
	nl_leave(nl);
	return err;
}

int testbed_make(struct testbed *tb, unsigned int flags)
{
	unsigned int r;
	int err;

	for (r = 0; r < TB_NROLES; r++) {
		err = netns_add(tb->ns[r]);
		if (err)
			goto out_remove;
		tb->created[r] = true;
	}
	/* The hosts first: the ap moves the veth peers into them. */
	err = role_setup(tb, TB_AP, flags);
	if (!err)
		err = role_setup(tb, TB_STA, flags);
	if (!err)
		err = role_setup(tb, TB_PC, flags);
	if (err)
		goto out_remove;
	return 0;

out_remove:
	testbed_remove(tb);
	return err;
}

int testbed_up(struct testbed *tb, bool offloads_on, bool keep)
{
	const char *ns[TB_NROLES];
	char prefix[32];
	unsigned int r;
	int err;

	memset(tb, 0, sizeof(*tb));
	snprintf(prefix, sizeof(prefix), NETNS_PREFIX "%d", getpid());
	testbed_names(tb, prefix);
	tb->offloads_on = offloads_on;
	for (r = 0; r < TB_NROLES; r++)
		ns[r] = tb->ns[r];
	err = lock_claim(tb->prefix, ns, TB_NROLES, keep);
	if (err)
		return err;
	err = testbed_make(tb, TB_OFFLOADS);
	if (err)
		lock_unclaim(tb->prefix);
	return err;
}

void testbed_remove(struct testbed *tb)
{
	unsigned int r;

	/* Deleting the namespaces deletes the veths and bridges in them. */
	for (r = 0; r < TB_NROLES; r++)
		if (netns_del(tb->ns[r]) == 0)
			tb->created[r] = false;
}

void testbed_down(struct testbed *tb)
{
	testbed_remove(tb);
	lock_unclaim(tb->prefix);
}

int testbed_find_kept(char *prefix, size_t len)
{
	struct dirent *de;
	time_t best = 0;
	struct stat st;
	char path[300];
	DIR *d;

	prefix[0] = '\0';
	d = opendir(BRNF_RUN_DIR);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		char *dot = strrchr(de->d_name, '.');

		if (!dot || strcmp(dot, ".keep"))
			continue;
		snprintf(path, sizeof(path), BRNF_RUN_DIR "/%s", de->d_name);
		if (stat(path, &st) || st.st_mtime < best)
			continue;
		best = st.st_mtime;
		snprintf(prefix, len, "%.*s", (int)(dot - de->d_name), de->d_name);
	}
	closedir(d);
	return prefix[0] ? 0 : -ENOENT;
}
