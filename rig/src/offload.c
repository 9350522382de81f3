// SPDX-License-Identifier: GPL-2.0
/*
 * Segmentation offloads with the legacy SIOCETHTOOL commands
 * (ETHTOOL_[GS]TSO, [GS]GSO, [GS]GRO), which the kernel maps onto its
 * feature bits; simpler than ETHTOOL_SFEATURES with its string set.
 * The ioctl acts on the namespace of the socket: open it after netns_enter().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "netns.h"
#include "offload.h"
#include "util.h"

const char *const offload_names[OFFLOAD_N] = { "tso", "gso", "gro" };

static const struct {
	unsigned int get, set;
} cmds[OFFLOAD_N] = {
	[OFFLOAD_TSO] = { ETHTOOL_GTSO, ETHTOOL_STSO },
	[OFFLOAD_GSO] = { ETHTOOL_GGSO, ETHTOOL_SGSO },
	[OFFLOAD_GRO] = { ETHTOOL_GGRO, ETHTOOL_SGRO },
};

static int ethtool_value(int fd, const char *ifname, unsigned int cmd, __u32 *data)
{
	struct ethtool_value ev = { .cmd = cmd, .data = *data };
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ev;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		return -errno;
	*data = ev.data;
	return 0;
}

int offload_set(const char *ifname, bool on)
{
	unsigned int i;
	int fd, err = 0;
	__u32 v;

	netns_assert_brnf("setting offloads");
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	for (i = 0; i < OFFLOAD_N && !err; i++) {
		v = on;
		err = ethtool_value(fd, ifname, cmds[i].set, &v);
		if (err)
			pr_err("ethtool %s %s %s in %s: %s", ifname, offload_names[i],
			       on ? "on" : "off", netns_current(), strerror(-err));
	}
	close(fd);
	return err;
}

int offload_get(const char *ifname, bool out[OFFLOAD_N])
{
	unsigned int i;
	int fd, err = 0;
	__u32 v;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	for (i = 0; i < OFFLOAD_N && !err; i++) {
		v = 0;
		err = ethtool_value(fd, ifname, cmds[i].get, &v);
		out[i] = v;
	}
	close(fd);
	if (err)
		pr_err("ethtool -k %s: %s", ifname, strerror(-err));
	return err;
}
