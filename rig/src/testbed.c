// SPDX-License-Identifier: GPL-2.0
/* The namespace test bed: three namespaces (four with sta2), two veth pairs (three),
 * two bridges. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "brflags.h"
#include "journal.h"
#include "link.h"
#include "lock.h"
#include "netns.h"
#include "nl.h"
#include "sysctl.h"
#include "testbed.h"
#include "util.h"

const char *const tb_role_names[TB_NROLES] = { "ap", "sta", "pc", "sta2" };
/* br-lan, br-wlan (brnf_bridge_names) */
const char *const tb_bridge_port[BRNF_NBRIDGES] = { "eth0", "wlan0" };
static const enum tb_role bridge_peer[BRNF_NBRIDGES] = { TB_PC, TB_STA };

static const struct tb_veth veths[TB_NVETHS] = {
	{ TB_AP, "wlan0", false, {} }, { TB_AP, "eth0", false, {} },
	{ TB_STA, "wlan0", false, {} }, { TB_PC, "eth0", false, {} },
	{ TB_AP, TB_STA2_PORT, true, {} }, { TB_STA2, "wlan1", true, {} },
};

/*
 * Every link of the test bed has a fixed, locally administered MAC address: a bridge
 * keeps its own whatever ports come and go (a bridge takes the lowest MAC of its ports
 * unless one is set), and the permanent neighbour entries below can name them.
 */
static const unsigned char bridge_mac[BRNF_NBRIDGES][6] = {
	{ 0x02, 0x00, 0xc6, 0x12, 0x00, 0x02 },		/* br-lan */
	{ 0x02, 0x00, 0xc6, 0x12, 0x00, 0x01 },		/* br-wlan */
};
static const unsigned char port_mac[BRNF_NBRIDGES][6] = {
	{ 0x02, 0x00, 0xc6, 0x12, 0x01, 0x02 },		/* ap eth0 */
	{ 0x02, 0x00, 0xc6, 0x12, 0x01, 0x01 },		/* ap wlan0 */
};
/* ap wlan1, sta2's port of br-wlan */
static const unsigned char sta2_port_mac[6] = { 0x02, 0x00, 0xc6, 0x12, 0x01, 0x03 };

/* One host side: its link and MAC, addresses, default routes, the bridge it hangs off.
 * sta2 (the last) is made only with TB_WITH_STA2. */
enum { H_STA, H_PC, H_STA2, H_N };
static const struct {
	enum tb_role role;
	const char *ifname;
	unsigned char mac[6];
	const char *addr[2];
	const char *ip[2];
	const char *gw[2];
	unsigned int bridge;		/* brnf_bridge_names index */
} hosts[H_N] = {
	{ TB_STA, "wlan0", { 0x02, 0x00, 0xc6, 0x12, 0x02, 0x01 },
	  { "198.18.1.2/24", "2001:2:0:1::2/64" }, { TB_STA_ADDR4, "2001:2:0:1::2" },
	  { "198.18.1.1", "2001:2:0:1::1" }, 1 },
	{ TB_PC, "eth0", { 0x02, 0x00, 0xc6, 0x12, 0x03, 0x02 },
	  { "198.18.2.2/24", "2001:2:0:2::2/64" }, { TB_PC_ADDR4, "2001:2:0:2::2" },
	  { "198.18.2.1", "2001:2:0:2::1" }, 0 },
	{ TB_STA2, "wlan1", { 0x02, 0x00, 0xc6, 0x12, 0x04, 0x01 },
	  { "198.18.1.3/24", "2001:2:0:1::3/64" }, { TB_STA2_ADDR4, "2001:2:0:1::3" },
	  { "198.18.1.1", "2001:2:0:1::1" }, 1 },
};

static const char *const bridge_addr[BRNF_NBRIDGES][2] = {
	{ "198.18.2.1/24", "2001:2:0:2::1/64" },
	{ "198.18.1.1/24", "2001:2:0:1::1/64" },
};

bool testbed_has(const struct testbed *tb, enum tb_role role)
{
	return role != TB_STA2 || tb->sta2;
}

bool testbed_has_veth(const struct testbed *tb, unsigned int i)
{
	return i < TB_NVETHS && (!tb->veth[i].sta2 || tb->sta2);
}

void testbed_path(enum brnf_path path, bool download, struct tb_path *p)
{
	unsigned int peer = path == BRNF_PATH_WLAN ? H_STA2 : H_PC;
	unsigned int tx = download ? peer : H_STA, rx = download ? H_STA : peer;
	/* routed: to the gateway, the bridge the sender hangs off; bridged: to the receiver */
	const unsigned char *m = path == BRNF_PATH_WLAN ? hosts[rx].mac :
				 bridge_mac[hosts[tx].bridge];

	p->tx = hosts[tx].role;
	p->rx = hosts[rx].role;
	p->tx_dev = hosts[tx].ifname;
	p->rx_dev = hosts[rx].ifname;
	p->dst_ip = hosts[rx].ip[0];
	snprintf(p->dst_mac, sizeof(p->dst_mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
}

void testbed_names(struct testbed *tb, const char *prefix)
{
	unsigned int r;

	snprintf(tb->prefix, sizeof(tb->prefix), "%s", prefix);
	for (r = 0; r < TB_NROLES; r++) {
		snprintf(tb->ns[r], sizeof(tb->ns[r]), "%s-%s", prefix, tb_role_names[r]);
		tb->undo_id[r] = -1;
	}
	tb->claim.fd = -1;
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

/* The host hanging off bridge b (hosts[] index): sta or pc. */
static unsigned int bridge_host(unsigned int b)
{
	return hosts[H_STA].bridge == b ? H_STA : H_PC;
}

/* The host side of a role other than ap (hosts[] index). */
static unsigned int host_of(enum tb_role role)
{
	unsigned int h;

	for (h = 0; h < H_N; h++)
		if (hosts[h].role == role)
			return h;
	return H_STA;	/* not reached: every role but ap has a host side */
}

/*
 * Permanent neighbour entries, IPv4 and IPv6, for the one peer of a link. With
 * dynamic ones, a forwarded one-way flow leaves an entry REACHABLE only until its
 * randomized reachable time runs out; then packets take the slower
 * neigh_resolve_output() path through STALE, DELAY and PROBE until the peer answers,
 * which shows as run-to-run modes of about 1% in guest time per packet.
 */
static int neighbours_add(struct nl *nl, const char *ifname, const char *const ip[2],
			  const unsigned char mac[6])
{
	int err, i;

	for (i = 0, err = 0; i < 2 && !err; i++)
		err = neigh_add_permanent(nl, ifname, ip[i], mac);
	return err;
}

/*
 * sta2's port of br-wlan, its neighbour entries on br-wlan, and static forwarding
 * entries for both stations: the bridge learns a MAC from the frames it receives, and a
 * one-way flow sta -> sta2 sends none from sta2, so without them the first frames (or
 * all, once the learned entry aged out after ageing_time) would be flooded, not
 * forwarded, a path of other cost.
 */
static int sta2_port_setup(struct testbed *tb, struct nl *nl, unsigned int flags)
{
	const unsigned int b = hosts[H_STA2].bridge;
	int err, fd;

	fd = netns_open(tb->ns[TB_STA2]);
	if (fd < 0)
		return fd;
	err = link_add_veth(nl, TB_STA2_PORT, sta2_port_mac, hosts[H_STA2].ifname,
			    hosts[H_STA2].mac, fd);
	close(fd);
	if (!err)
		err = link_set_master(nl, TB_STA2_PORT, brnf_bridge_names[b]);
	if (!err)
		err = link_set_up(nl, TB_STA2_PORT);
	if (err || (flags & TB_DYNAMIC_NEIGH))
		return err;
	err = neighbours_add(nl, brnf_bridge_names[b], hosts[H_STA2].ip, hosts[H_STA2].mac);
	if (!err)
		err = fdb_add_static(nl, tb_bridge_port[b], hosts[H_STA].mac);
	if (!err)
		err = fdb_add_static(nl, TB_STA2_PORT, hosts[H_STA2].mac);
	return err;
}

static int ap_setup(struct testbed *tb, struct nl *nl, unsigned int flags)
{
	int err, fd, i;

	err = sysctl_write("net.ipv4.ip_forward", "1");
	if (!err)
		err = sysctl_write("net.ipv6.conf.all.forwarding", "1");
	if (err)
		return err;
	/*
	 * Bridge netfilter off before the first bridge, as a router boots (OpenWrt
	 * applies kmod-br-netfilter's sysctl file before netifd makes br-lan); the row
	 * sets its own values later. At the namespace's default 1, ondemand would
	 * register its hooks with the first bridge and remove them at the row's 0, and
	 * the registration turns on for good the fake-rtable test of every bridged
	 * frame (br_drop_fake_rtable()): an everything-off row would then measure a
	 * kernel on which filtering has been on once since boot.
	 */
	if (sysctl_have_br_netfilter()) {
		static const bool off[BRNF_NFAMILIES];

		err = brflags_global_set(off);
		if (err)
			return err;
	}
	for (i = 0; i < BRNF_NBRIDGES; i++) {
		fd = netns_open(tb->ns[bridge_peer[i]]);
		if (fd < 0)
			return fd;
		err = link_add_veth(nl, tb_bridge_port[i], port_mac[i], tb_bridge_port[i],
				    hosts[bridge_host(i)].mac, fd);
		close(fd);
		if (!err)
			err = link_add_bridge(nl, brnf_bridge_names[i], NULL);
		if (!err)
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
		if (!err && !(flags & TB_DYNAMIC_NEIGH))
			err = neighbours_add(nl, brnf_bridge_names[i], hosts[bridge_host(i)].ip,
					     hosts[bridge_host(i)].mac);
		if (err)
			return err;
	}
	if (flags & TB_WITH_STA2) {
		err = sta2_port_setup(tb, nl, flags);
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

static int host_setup(struct nl *nl, unsigned int h, unsigned int flags)
{
	unsigned int peer = h == H_STA ? H_STA2 : H_STA;	/* the bridged flow's */
	int err, i;

	err = link_set_up(nl, hosts[h].ifname);
	for (i = 0; i < 2 && !err; i++)
		err = addr_add(nl, hosts[h].ifname, hosts[h].addr[i]);
	if (!err && !(flags & TB_DYNAMIC_NEIGH))
		err = neighbours_add(nl, hosts[h].ifname, hosts[h].gw, bridge_mac[hosts[h].bridge]);
	/* sta and sta2 reach each other on their link, through br-wlan, not the gateway */
	if (!err && !(flags & TB_DYNAMIC_NEIGH) && (flags & TB_WITH_STA2) && h != H_PC)
		err = neighbours_add(nl, hosts[h].ifname, hosts[peer].ip, hosts[peer].mac);
	for (i = 0; i < 2 && !err; i++)
		err = route_add_default(nl, hosts[h].gw[i]);
	return err;
}

static int offloads_setup(struct testbed *tb, enum tb_role role)
{
	unsigned int i;
	int err;

	for (i = 0; i < TB_NVETHS; i++) {
		if (tb->veth[i].role != role || !testbed_has_veth(tb, i))
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
		err = host_setup(nl, host_of(role), flags);
	if (!err && (flags & TB_OFFLOADS))
		err = offloads_setup(tb, role);
	nl_leave(nl);
	return err;
}

/* The undo of one namespace: deleted only if it still is the one made. */
static int ns_undo(void *arg)
{
	struct tb_undo *u = arg;
	struct testbed *tb = u->tb;
	int err;

	err = netns_del_id(tb->ns[u->role], &tb->id[u->role]);
	if (!err && tb->claim.fd >= 0)
		lock_claim_ns_gone(&tb->claim, tb->ns[u->role]);
	tb->undo_id[u->role] = -1;
	return err;
}

/* netns_add() created the file: the claim names it before the namespace exists. */
static int ns_reserved(void *ctx, const char *name)
{
	struct testbed *tb = ctx;

	return tb->claim.fd >= 0 ? lock_claim_ns(&tb->claim, name, NULL) : 0;
}

int testbed_make(struct testbed *tb, unsigned int flags, struct ledger *l)
{
	unsigned int r;
	int err, id;

	tb->undo = l;
	tb->sta2 = flags & TB_WITH_STA2;
	for (r = 0; r < TB_NROLES; r++) {
		if (!testbed_has(tb, r))
			continue;
		err = netns_add(tb->ns[r], ns_reserved, tb, &tb->id[r]);
		if (err) {
			if (tb->claim.fd >= 0)
				lock_claim_ns_gone(&tb->claim, tb->ns[r]);
			return err;
		}
		tb->undo_arg[r] = (struct tb_undo){ tb, r };
		id = ledger_push(l, tb->ns[r], ns_undo, &tb->undo_arg[r]);
		if (id < 0)
			return id;
		tb->undo_id[r] = id;
		if (tb->claim.fd >= 0) {
			err = lock_claim_ns(&tb->claim, tb->ns[r], &tb->id[r]);
			if (err)
				return err;
			journal_fault("ns");
		}
	}
	/* The hosts first: the ap moves the veth peers into them. */
	err = role_setup(tb, TB_AP, flags);
	if (!err)
		err = role_setup(tb, TB_STA, flags);
	if (!err)
		err = role_setup(tb, TB_PC, flags);
	if (!err && tb->sta2)
		err = role_setup(tb, TB_STA2, flags);
	return err;
}

static int claim_undo(void *arg)
{
	lock_unclaim(arg);
	return 0;
}

int testbed_up(struct testbed *tb, bool offloads_on, bool dynamic_neigh, bool sta2, bool keep,
	       struct ledger *l)
{
	struct claim c;
	int err;

	memset(tb, 0, sizeof(*tb));
	err = lock_claim(&c, keep);
	if (err)
		return err;
	testbed_names(tb, c.prefix);
	tb->claim = c;
	err = ledger_push(l, "the test bed's claim", claim_undo, &tb->claim);
	if (err < 0)
		return err;
	tb->offloads_on = offloads_on;
	tb->dynamic_neigh = dynamic_neigh;
	return testbed_make(tb, TB_OFFLOADS | (dynamic_neigh ? TB_DYNAMIC_NEIGH : 0) |
			    (sta2 ? TB_WITH_STA2 : 0), l);
}

int testbed_renew(struct testbed *tb)
{
	unsigned int r;
	int err = 0;

	for (r = TB_NROLES; r-- > 0;)
		if (tb->undo_id[r] >= 0)
			err = err ?: ledger_run_one(tb->undo, tb->undo_id[r]);
	if (err)
		return err;
	return testbed_make(tb, TB_OFFLOADS | (tb->dynamic_neigh ? TB_DYNAMIC_NEIGH : 0) |
			    (tb->sta2 ? TB_WITH_STA2 : 0), tb->undo);
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
