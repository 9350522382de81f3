// SPDX-License-Identifier: GPL-2.0
/*
 * sysctls through /proc/sys. /proc/sys/net shows the network namespace of the
 * process that opens the file, so a write after netns_enter() stays inside it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netns.h"
#include "sysctl.h"
#include "util.h"

int sysctl_path(char *buf, size_t len, const char *name)
{
	size_t i, off = strlen("/proc/sys/");

	if (snprintf(buf, len, "/proc/sys/%s", name) >= (int)len)
		return -ENAMETOOLONG;
	/* Every dot becomes a slash, so a name with a dot inside one component (an
	 * interface "eth0.1") cannot be given here; the names brnf writes have none. */
	for (i = off; buf[i]; i++)
		if (buf[i] == '.')
			buf[i] = '/';
	return 0;
}

int sysctl_write(const char *name, const char *val)
{
	char path[256];
	int fd, err = 0;
	size_t len = strlen(val);

	netns_assert_brnf("writing a sysctl");
	err = sysctl_path(path, sizeof(path), name);
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		pr_err("sysctl %s in %s: %s", name, netns_current(), strerror(errno));
		return err;
	}
	if (write(fd, val, len) != (ssize_t)len) {
		err = -errno;
		pr_err("sysctl %s=%s in %s: %s", name, val, netns_current(), strerror(errno));
	}
	close(fd);
	return err;
}

int sysctl_read(const char *name, char *val, size_t len)
{
	char path[256];
	ssize_t n;
	int fd, err;

	err = sysctl_path(path, sizeof(path), name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, val, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	val[n] = '\0';
	chomp(val);
	return 0;
}

int sysctl_read_bool(const char *name, bool *v)
{
	char buf[32];
	int err = sysctl_read(name, buf, sizeof(buf));

	if (err)
		return err;
	*v = strcmp(buf, "0") != 0;
	return 0;
}

bool sysctl_have_br_netfilter(void)
{
	return path_exists("/proc/sys/net/bridge/bridge-nf-call-iptables");
}
