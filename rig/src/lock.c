// SPDX-License-Identifier: GPL-2.0
/*
 * One run at a time, and no test bed left behind. /run/brnf/lock is held
 * with flock() for a run's whole life (the kernel drops it when the run dies,
 * even by SIGKILL) and holds the owner's pid for the message a second run
 * prints. A test bed is claimed before its first namespace is made
 * (/run/brnf/<prefix>.pid names the owner and the namespaces); one whose owner
 * is dead is removed by the next run or by `brnf cleanup`. A namespace nobody
 * claimed is never touched, whatever its name.
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

int lock_claim(const char *prefix, const char *const ns[], unsigned int n, bool keep)
{
	char path[256], tmp[300], buf[1024];
	unsigned int i;
	size_t len;
	int err;

	err = mkdir_p(BRNF_RUN_DIR);
	if (err)
		return err;
	len = snprintf(buf, sizeof(buf), "%d\n", getpid());
	for (i = 0; i < n && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s\n", ns[i]);
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	/* whole or not at all: a claim cut short would leave namespaces unnamed */
	state_path(path, sizeof(path), prefix, "pid");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	err = write_file(tmp, buf, len);
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err && keep) {
		state_path(path, sizeof(path), prefix, "keep");
		err = write_file(path, buf, len);
	}
	if (err) {
		pr_err("write %s: %s", path, strerror(-err));
		unlink(tmp);
	}
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

static bool pid_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/* The pid may have been reused: only a live brnf owns a test bed. */
static bool owner_alive(pid_t pid)
{
	char path[64], comm[64] = "";
	char *buf;

	if (pid == getpid())
		return true;
	if (!pid_alive(pid))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_file(path, &buf, NULL) == 0) {
		snprintf(comm, sizeof(comm), "%s", buf);
		free(buf);
	}
	chomp(comm);
	return !strcmp(comm, "brnf");
}

/*
 * One claim (/run/brnf/<prefix>.pid: the owner's pid, then the namespaces it
 * made, one a line) whose owner is gone: delete those namespaces, then the
 * claim. Only names of this claim, never a pattern. Returns how many removed.
 */
static int reap_claim(const char *prefix, bool with_kept)
{
	char path[256], *text, *line, *save;
	size_t plen = strlen(prefix);
	bool all_gone = true;
	int n = 0;
	pid_t pid;

	state_path(path, sizeof(path), prefix, "pid");
	if (read_file(path, &text, NULL))
		return 0;
	line = strtok_r(text, "\n", &save);
	pid = line ? atoi(line) : 0;
	if (pid <= 0 || owner_alive(pid))
		goto out_free;
	state_path(path, sizeof(path), prefix, "keep");
	if (!with_kept && path_exists(path))
		goto out_free;
	while ((line = strtok_r(NULL, "\n", &save))) {
		snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", line);
		if (strncmp(line, prefix, plen) || line[plen] != '-' || !path_exists(path))
			continue;
		if (netns_del(line)) {
			all_gone = false;
			continue;
		}
		fprintf(stderr, "brnf: removed network namespace %s of a run that ended (pid %d)\n",
			line, pid);
		n++;
	}
	if (all_gone)
		lock_unclaim(prefix);
out_free:
	free(text);
	return n;
}

int lock_reap_stale(bool with_kept)
{
	char prefix[128];
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(BRNF_RUN_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 4 || strcmp(de->d_name + len - 4, ".pid") ||
		    len - 4 >= sizeof(prefix))
			continue;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(len - 4), de->d_name);
		n += reap_claim(prefix, with_kept);
	}
	closedir(d);
	return n;
}
