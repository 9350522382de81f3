// SPDX-License-Identifier: GPL-2.0
/*
 * One run at a time, and no test bed left behind. /run/brnf/lock is held
 * with flock() for a run's whole life (the kernel drops it when the run dies,
 * even by SIGKILL) and holds the owner's pid for the message a second run
 * prints. Namespace names carry the owner's pid (brnf<pid>-ap); a test bed
 * whose owner is dead is removed by the next run or by `brnf cleanup`.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lock.h"
#include "netns.h"
#include "util.h"

static int lock_fd = -1;

int lock_take(void)
{
	char buf[32] = "";
	ssize_t n;
	int fd, err;

	err = mkdir_p(BRNF_RUN_DIR);
	if (err) {
		pr_err("mkdir %s: %s", BRNF_RUN_DIR, strerror(-err));
		return err;
	}
	fd = open(BRNF_RUN_DIR "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		pr_err("open %s/lock: %s", BRNF_RUN_DIR, strerror(errno));
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		chomp(buf);
		pr_err("another brnf run (pid %s) holds %s/lock; wait for it to end",
		       buf[0] ? buf : "?", BRNF_RUN_DIR);
		close(fd);
		return -EBUSY;
	}
	n = snprintf(buf, sizeof(buf), "%d\n", getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n) {
		err = -errno;
		close(fd);
		return err;
	}
	lock_fd = fd;
	return 0;
}

void lock_release(void)
{
	if (lock_fd < 0)
		return;
	(void)!ftruncate(lock_fd, 0);	/* the flock is what counts */
	close(lock_fd);
	lock_fd = -1;
}

static void state_path(char *buf, size_t len, const char *prefix, const char *ext)
{
	snprintf(buf, len, BRNF_RUN_DIR "/%s.%s", prefix, ext);
}

int lock_claim(const char *prefix, bool keep)
{
	char path[256], buf[32];
	int n, err;

	err = mkdir_p(BRNF_RUN_DIR);
	if (err)
		return err;
	n = snprintf(buf, sizeof(buf), "%d\n", getpid());
	state_path(path, sizeof(path), prefix, "pid");
	err = write_file(path, buf, n);
	if (!err && keep) {
		state_path(path, sizeof(path), prefix, "keep");
		err = write_file(path, buf, n);
	}
	if (err)
		pr_err("write %s: %s", path, strerror(-err));
	return err;
}

void lock_unclaim(const char *prefix)
{
	char path[256];

	state_path(path, sizeof(path), prefix, "pid");
	unlink(path);
	state_path(path, sizeof(path), prefix, "keep");
	unlink(path);
}

/* "brnf1234-ap" -> prefix "brnf1234", pid 1234; -EINVAL if not ours. */
static int parse_ns_name(const char *name, char *prefix, size_t len, pid_t *pid)
{
	const char *p = name + strlen(NETNS_PREFIX);
	char *end;
	long v;

	if (strncmp(name, NETNS_PREFIX, strlen(NETNS_PREFIX)))
		return -EINVAL;
	v = strtol(p, &end, 10);
	if (end == p || *end != '-' || v <= 0)
		return -EINVAL;
	snprintf(prefix, len, "%.*s", (int)(end - name), name);
	*pid = v;
	return 0;
}

static bool pid_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

static bool owner_alive(const char *prefix, pid_t pid)
{
	char path[256], comm[64] = "";
	char *buf;

	if (pid == getpid() || !pid_alive(pid))
		return pid == getpid();
	/* The pid may have been reused: only a live brnf owns a test bed. */
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_file(path, &buf, NULL) == 0) {
		snprintf(comm, sizeof(comm), "%s", buf);
		free(buf);
	}
	chomp(comm);
	(void)prefix;
	return !strcmp(comm, "brnf");
}

int lock_reap_stale(bool with_kept)
{
	char prefix[64], path[300];
	struct dirent *de;
	int n = 0, err;
	pid_t pid;
	DIR *d;

	d = opendir(NETNS_RUN_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (parse_ns_name(de->d_name, prefix, sizeof(prefix), &pid))
			continue;
		if (owner_alive(prefix, pid))
			continue;
		state_path(path, sizeof(path), prefix, "keep");
		if (!with_kept && path_exists(path))
			continue;
		err = netns_del(de->d_name);
		if (err)
			continue;
		fprintf(stderr, "brnf: removed network namespace %s of a run that ended (pid %d)\n",
			de->d_name, pid);
		lock_unclaim(prefix);
		n++;
	}
	closedir(d);
	/* State files whose namespaces are gone. */
	d = opendir(BRNF_RUN_DIR);
	if (d) {
		while ((de = readdir(d))) {
			char *dot = strrchr(de->d_name, '.');

			if (!dot || strcmp(dot, ".pid"))
				continue;
			snprintf(prefix, sizeof(prefix), "%.*s", (int)(dot - de->d_name),
				 de->d_name);
			pid = atoi(prefix + strlen(NETNS_PREFIX));
			if (pid > 0 && !owner_alive(prefix, pid)) {
				snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s-ap", prefix);
				if (!path_exists(path) || with_kept)
					lock_unclaim(prefix);
			}
		}
		closedir(d);
	}
	return n;
}
