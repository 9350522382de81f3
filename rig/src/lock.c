// SPDX-License-Identifier: GPL-2.0
/*
 * One run at a time, and no test bed left behind. /run/brnf/lock is held
 * with flock() for a run's whole life (the kernel drops it when the run dies,
 * even by SIGKILL) and holds the owner's pid for the message a second run
 * prints. A test bed is claimed before its first namespace is made
 * (/run/brnf/<prefix>.claim, created O_EXCL and flock()ed for the owner's life,
 * names the owner and each namespace with its device and inode, lock.h); one
 * nobody holds is removed by the next run or by `brnf cleanup`, each namespace
 * only while it still is the one made. A namespace nobody claimed is never
 * touched, whatever its name.
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
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "lock.h"
#include "netns.h"
#include "util.h"

static int lock_fd = -1;
static int reap_left;		/* claims the last reap could not replay */

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
	fd = open(BRNF_RUN_DIR "/lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
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

/* A namespace <prefix>-* exists: one a killed owner made before its claim named it, or
 * another tool's; a prefix that has one is not taken (its names would collide). */
static bool netns_prefix_used(const char *prefix)
{
	size_t n = strlen(prefix);
	struct dirent *de;
	bool used = false;
	DIR *d;

	d = opendir(NETNS_RUN_DIR);
	while (d && !used && (de = readdir(d)))
		used = !strncmp(de->d_name, prefix, n) && de->d_name[n] == '-';
	if (d)
		closedir(d);
	return used;
}

/* The claim's text: the pid, then one line per namespace. */
static int claim_write(struct claim *c)
{
	char buf[1024];
	unsigned int i;
	size_t len;

	len = snprintf(buf, sizeof(buf), "%d\n", getpid());
	for (i = 0; i < c->n && len < sizeof(buf); i++) {
		if (c->ns[i].made)
			len += snprintf(buf + len, sizeof(buf) - len, "%s %llu %llu\n",
					c->ns[i].name, (unsigned long long)c->ns[i].id.dev,
					(unsigned long long)c->ns[i].id.ino);
		else
			len += snprintf(buf + len, sizeof(buf) - len, "%s -\n", c->ns[i].name);
	}
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	/* one write, then the tail cut: a reader never sees a claim without its lines */
	errno = 0;
	if (pwrite(c->fd, buf, len, 0) != (ssize_t)len || ftruncate(c->fd, len) ||
	    fdatasync(c->fd))
		return errno ? -errno : -EIO;
	return 0;
}

int lock_claim_as(struct claim *c, const char *base, bool keep)
{
	char path[256], tmp[256];
	unsigned int k;
	bool linked = false;
	int err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	err = mkdir_p(BRNF_RUN_DIR);
	if (err) {
		pr_err("mkdir %s: %s", BRNF_RUN_DIR, strerror(-err));
		return err;
	}
	/* Made whole and locked under a name of our own first, then linked to the claim's
	 * name, which link() takes only when it is free (as O_EXCL): a claim is never seen
	 * empty or unlocked while its owner lives. */
	snprintf(tmp, sizeof(tmp), BRNF_RUN_DIR "/.claim.XXXXXX");
	c->fd = mkostemp(tmp, O_CLOEXEC);	/* O_EXCL, a name no one else has */
	if (c->fd < 0 || fchmod(c->fd, 0644) || flock(c->fd, LOCK_EX | LOCK_NB) ||
	    claim_write(c)) {
		err = errno ? -errno : -EIO;
		pr_err("create %s: %s", tmp, strerror(-err));
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		unlink(tmp);
		return err;
	}
	/* the lowest number no claim, no journal and no namespace has: never one a claim
	 * still names, whatever pid its owner had (a PID 1 of another pid namespace) */
	for (k = 1; k < CLAIM_MAX_NUM && !linked; k++) {
		snprintf(c->prefix, sizeof(c->prefix), "%s%u", base, k);
		state_path(path, sizeof(path), c->prefix, "journal");
		if (path_exists(path) || netns_prefix_used(c->prefix)) {
			errno = EEXIST;
			continue;
		}
		state_path(path, sizeof(path), c->prefix, "claim");
		linked = link(tmp, path) == 0;
		if (!linked && errno != EEXIST)
			break;
	}
	err = linked ? 0 : errno == EEXIST ? -EEXIST : -errno;
	unlink(tmp);
	if (err) {
		pr_err("claim a test bed under %s: %s", BRNF_RUN_DIR, err == -EEXIST ?
		       "every number is claimed (brnf cleanup?)" : strerror(-err));
		close(c->fd);
		c->fd = -1;
		return err;
	}
	state_path(path, sizeof(path), c->prefix, "keep");
	if (keep) {
		err = file_write(path, "keep\n", 5, 0644);
		c->keep = !err;
		if (err)
			pr_err("claim %s: %s", path, strerror(-err));
	} else {
		unlink(path);	/* left by an owner killed between its two unlinks */
	}
	if (!err) {
		state_path(path, sizeof(path), c->prefix, "journal");
		err = journal_open(path);
	}
	if (err) {
		lock_unclaim(c);
		return err;
	}
	journal_fault("claim");
	return 0;
}

int lock_claim(struct claim *c, bool keep)
{
	return lock_claim_as(c, NETNS_PREFIX, keep);
}

int lock_claim_ns(struct claim *c, const char *name, const struct netns_id *id)
{
	unsigned int i;
	int err;

	for (i = 0; i < c->n && strcmp(c->ns[i].name, name); i++)
		;
	if (i == c->n) {
		if (c->n == CLAIM_MAX_NS)
			return -ENOSPC;
		snprintf(c->ns[c->n++].name, sizeof(c->ns[0].name), "%s", name);
	}
	c->ns[i].made = id != NULL;
	if (id)
		c->ns[i].id = *id;
	err = claim_write(c);
	if (err)
		pr_err("claim %s: %s", c->prefix, strerror(-err));
	return err;
}

void lock_claim_ns_gone(struct claim *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->ns[i].name, name)) {
			c->ns[i] = c->ns[--c->n];
			claim_write(c);
			return;
		}
}

void lock_unclaim(struct claim *c)
{
	char path[256];

	if (c->fd < 0)
		return;
	state_path(path, sizeof(path), c->prefix, "journal");
	journal_remove(path);		/* when empty: else the next run replays it */
	if (!c->n && !path_exists(path)) {
		/* the marker first: a claim without it is an ordinary one */
		state_path(path, sizeof(path), c->prefix, "keep");
		unlink(path);
		state_path(path, sizeof(path), c->prefix, "claim");
		unlink(path);
	}
	close(c->fd);
	c->fd = -1;
}

/*
 * One claim whose owner is gone (its flock is free; we hold it now): delete the
 * namespaces it names, each only if it still is the namespace that was made, then
 * the claim. Returns how many were removed.
 */
static int reap_claim(const char *prefix, bool with_kept, bool *busy)
{
	char path[256], *text = NULL, *line, *save;
	struct stat st, now;
	size_t plen = strlen(prefix);
	bool all_gone = true;
	int n = 0, fd;
	pid_t pid;

	*busy = false;
	state_path(path, sizeof(path), prefix, "keep");
	if (!with_kept && path_exists(path))
		return 0;
	state_path(path, sizeof(path), prefix, "claim");
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		*busy = true;		/* its owner is alive */
		goto out_close;
	}
	/* the file locked must still be the claim under that name: one unlinked after we
	 * opened it (replayed by another reaper, let go by its owner) may have a new
	 * owner's claim in its place, whose journal is not ours to replay */
	if (fstat(fd, &st) || !st.st_nlink || lstat(path, &now) || now.st_dev != st.st_dev ||
	    now.st_ino != st.st_ino)
		goto out_close;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (read_file(path, &text, NULL))
		goto out_close;
	line = strtok_r(text, "\n", &save);
	pid = line ? atoi(line) : 0;
	if (pid <= 0)		/* just created, not yet written: not ours to judge */
		goto out_free;
	/* the undos beyond the namespaces first, newest first (journal.h) */
	state_path(path, sizeof(path), prefix, "journal");
	if (journal_replay(path)) {
		all_gone = false;
		reap_left++;
	}
	while ((line = strtok_r(NULL, "\n", &save))) {
		unsigned long long dev, ino;
		struct netns_id id;
		bool pending;
		char name[64], dash;
		int err;

		if (sscanf(line, "%63s %llu %llu", name, &dev, &ino) == 3) {
			id.dev = dev;
			id.ino = ino;
			pending = false;
		} else if (sscanf(line, "%63s %c", name, &dash) == 2 && dash == '-') {
			pending = true;
		} else {
			continue;	/* no id: never deleted by name alone */
		}
		if (strncmp(name, prefix, plen) || name[plen] != '-')
			continue;
		snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", name);
		if (!path_exists(path))
			continue;
		err = netns_del_id(name, pending ? NULL : &id);
		if (err) {
			all_gone = false;
			continue;
		}
		fprintf(stderr, "brnf: removed network namespace %s of a run that ended (pid %d)\n",
			name, pid);
		n++;
	}
	if (all_gone) {
		state_path(path, sizeof(path), prefix, "keep");
		unlink(path);
		state_path(path, sizeof(path), prefix, "claim");
		unlink(path);
	}
out_free:
	free(text);
out_close:
	close(fd);
	return n;
}

/*
 * One reaper at a time (/run/brnf/reap, flock'ed while it reaps; a run, brnf-storm,
 * brnf cleanup and testbed down all reap): a claim another reaper is replaying is
 * skipped as busy, and a run that skipped it would save an AP that replay has not put
 * back yet. -1 when there is no lock to take (then each claim's own lock still holds).
 */
static int reap_lock(void)
{
	int fd;

	if (mkdir_p(BRNF_RUN_DIR))
		return -1;
	fd = open(BRNF_RUN_DIR "/reap", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0)
		while (flock(fd, LOCK_EX) && errno == EINTR)
			;
	return fd;
}

static void reap_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

int lock_remove_kept(const char *prefix)
{
	int lfd = reap_lock(), n;
	bool busy;

	n = reap_claim(prefix, true, &busy);
	reap_unlock(lfd);
	return busy ? -EBUSY : n;
}

/* A claim's temporary name (lock_claim()) that its owner, killed, never linked. */
static void tmp_reap(const char *name)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), BRNF_RUN_DIR "/%s", name);
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!flock(fd, LOCK_EX | LOCK_NB))
		unlink(path);
	close(fd);
}

int lock_reap_left(void)
{
	return reap_left;
}

int lock_reap_stale(bool with_kept)
{
	char prefix[128];
	struct dirent *de;
	bool busy;
	int n = 0, lfd;
	DIR *d;

	reap_left = 0;
	lfd = reap_lock();
	d = opendir(BRNF_RUN_DIR);
	if (!d) {
		reap_unlock(lfd);
		return errno == ENOENT ? 0 : -errno;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (!strncmp(de->d_name, ".claim.", 7)) {
			tmp_reap(de->d_name);
			continue;
		}
		if (len <= 6 || strcmp(de->d_name + len - 6, ".claim") ||
		    len - 6 >= sizeof(prefix))
			continue;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(len - 6), de->d_name);
		n += reap_claim(prefix, with_kept, &busy);
	}
	closedir(d);
	reap_unlock(lfd);
	return n;
}
