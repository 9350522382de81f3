// SPDX-License-Identifier: GPL-2.0
/*
 * leak.c: kmemleak around the storm. A kernel built with CONFIG_DEBUG_KMEMLEAK
 * (the debug variant) keeps a list of objects nothing points to any more. Before
 * the storm, a scan and "clear" forget what boot left behind; after it, two scans
 * (kmemleak reports only objects older than 5 s that were unreferenced in a scan)
 * and every "unreferenced object" left is a leak the storm caused.
 *
 * Only used when /sys/kernel/debug/kmemleak exists: brnf-storm mounts nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "storm.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

static int kmemleak_cmd(const char *cmd)
{
	ssize_t n;
	int fd;

	fd = open(KMEMLEAK, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	close(fd);
	if (n < 0)
		return -errno;
	return 0;
}

int leak_begin(void)
{
	int err;

	if (access(KMEMLEAK, F_OK))
		return 0;
	err = kmemleak_cmd("scan");
	if (!err)
		err = kmemleak_cmd("clear");
	return err ? err : 1;
}

int leak_end(FILE *report)
{
	char line[512];
	int leaks = 0, err, i;
	FILE *f;

	if (access(KMEMLEAK, F_OK))
		return -ENOENT;
	/* objects freed a moment ago must age past kmemleak's 5 s minimum */
	sleep(6);
	for (i = 0; i < 2; i++) {
		err = kmemleak_cmd("scan");
		if (err)
			return err;
	}
	f = fopen(KMEMLEAK, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "unreferenced object", 19))
			leaks++;
		if (report)
			fputs(line, report);
	}
	fclose(f);
	return leaks;
}
