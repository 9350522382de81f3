// SPDX-License-Identifier: GPL-2.0
/* The persistent undo journal of a claim (see journal.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "proc.h"
#include "util.h"

#define JOURNAL_MAX 256		/* entries replayed per journal */
#define JOURNAL_ARGS 40		/* words of a host's command */

static char jdir[300];		/* "" while no journal is open */
static int jseq;

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

int journal_open(const char *dir)
{
	/* new: a journal that exists is an undo some replay still needs */
	if (mkdir(dir, 0700)) {
		int err = -errno;

		pr_err("mkdir %s: %s", dir, strerror(errno));
		return err;
	}
	snprintf(jdir, sizeof(jdir), "%s", dir);
	jseq = 0;
	return 0;
}

void journal_close(void)
{
	jdir[0] = '\0';
}

void journal_remove(const char *dir)
{
	rmdir(dir);		/* only when empty: an entry left is what a replay needs */
	if (!strcmp(dir, jdir))
		jdir[0] = '\0';
}

static const char *entry_kind(int id)
{
	/* the kind is kept in the entry's name; find it (ids are few) */
	static char name[NAME_MAX + 1];
	struct dirent *de;
	int seq, n;
	DIR *d;

	name[0] = '\0';
	d = jdir[0] ? opendir(jdir) : NULL;
	while (d && (de = readdir(d))) {
		n = 0;
		if (sscanf(de->d_name, "%d.%n", &seq, &n) == 1 && n && seq == id) {
			snprintf(name, sizeof(name), "%s", de->d_name);
			break;
		}
	}
	if (d)
		closedir(d);
	return name;
}

const char *journal_entry_path(int id, char *buf, size_t len)
{
	const char *name = id > 0 ? entry_kind(id) : "";

	if (!name[0])
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s/%s", jdir, name);
	return buf;
}

int journal_add(const char *kind, const char *text, size_t len)
{
	char tmp[400], path[400];
	int fd, err = 0, id;
	ssize_t w;
	size_t off = 0;

	if (!jdir[0])
		return 0;
	id = ++jseq;
	snprintf(path, sizeof(path), "%s/%d.%s", jdir, id, kind);
	snprintf(tmp, sizeof(tmp), "%s/.%d.%s", jdir, id, kind);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		err = -errno;
	while (!err && off < len) {
		w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = w < 0 ? -errno : -EIO;
		else
			off += w;
	}
	/* the text on disk, then its name, then the name in the directory */
	if (!err && fsync(fd))
		err = -errno;
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err)
		err = sync_dir(jdir);
	if (err) {
		unlink(tmp);
		pr_err("journal %s: %s", path, strerror(-err));
		return err;
	}
	return id;
}

int netns_self_id(char *buf, size_t len)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st))
		return -errno;
	snprintf(buf, len, "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	return 0;
}

int journal_mkdtemp(char *path, size_t len, const char *prefix, const char *kind)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	unsigned int tries, i;
	int id, n;

	for (tries = 0; tries < 16; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -EIO;
		n = snprintf(path, len, "%s", prefix);
		for (i = 0; i < sizeof(rnd) && n + 1 < (int)len; i++)
			path[n++] = chars[rnd[i] % (sizeof(chars) - 1)];
		path[n] = '\0';
		id = journal_add_path(kind, path);	/* the entry first, then the step */
		if (id < 0)
			return id;
		if (!mkdir(path, 0700))
			return id;
		n = -errno;
		journal_drop(id);
		if (n != -EEXIST) {
			pr_err("mkdir %s: %s", path, strerror(-n));
			return n;
		}
	}
	pr_err("mkdir %sXXXXXX: every name tried exists", prefix);
	return -EEXIST;
}

int journal_add_path(const char *kind, const char *path)
{
	return journal_add(kind, path, strlen(path));
}

void journal_drop(int id)
{
	char path[400];

	if (id <= 0 || !jdir[0])
		return;
	if (journal_entry_path(id, path, sizeof(path))[0] && !unlink(path))
		sync_dir(jdir);
}

void journal_fault(const char *point)
{
	const char *want = getenv("BRNF_FAULT_KILL");

	if (!want || strcmp(want, point))
		return;
	fprintf(stderr, "brnf: BRNF_FAULT_KILL=%s: killed after this step\n", point);
	kill(getpid(), SIGKILL);
	_exit(128 + SIGKILL);	/* PID 1 of a pid namespace: SIGKILL from inside is ignored */
}

/* A "sh" entry: run its script on its host. */
static int replay_sh(const char *path, char *text)
{
	char *argv[JOURNAL_ARGS + 1], *line, *next, *script = NULL, *out = NULL, *err = NULL;
	const char *ns = NULL, *what = "a host", *self = NULL;
	char here[64];
	unsigned int n = 0;
	bool ssh = false, local = false;
	int st;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strcmp(line, "--")) {
			script = next;
			break;
		}
		if (!strcmp(line, "host local"))
			local = true;
		else if (!strcmp(line, "host ssh"))
			ssh = true;
		else if (!strncmp(line, "host netns ", 11))
			ns = line + 11;
		else if (!strncmp(line, "what ", 5))
			what = line + 5;
		else if (!strncmp(line, "netns-self ", 11))
			self = line + 11;
		else if (!strncmp(line, "arg ", 4) && n < JOURNAL_ARGS)
			argv[n++] = line + 4;
		else
			break;
	}
	if (!script || (int)local + (int)ssh + (ns != NULL) != 1 || (ssh && !n)) {
		pr_err("%s: not a journal entry brnf wrote; left as it is", path);
		return -EINVAL;
	}
	/* a local host is the network namespace brnf ran in: replayed from that one only */
	if (local && self && (netns_self_id(here, sizeof(here)) || strcmp(here, self))) {
		pr_err("%s: %s is the network namespace brnf ran in (%s), not this one; the "
		       "entry stays: run brnf cleanup there", path, what, self);
		return -EXDEV;
	}
	if (!ssh) {
		n = 0;
		argv[n++] = "sh";
	}
	argv[n] = NULL;
	st = proc_run_in(ns, argv, script, strlen(script), &out, &err, 120);
	if (st) {
		char why[200];

		if (st < 0)
			snprintf(why, sizeof(why), "%s", strerror(-st));
		else
			snprintf(why, sizeof(why), "exit status %d%s%.120s", st,
				 err && *err ? ": " : "", err ? strtok(err, "\n") ?: "" : "");
		pr_err("%s: replay on %s failed (%s); the entry and its claim stay for the next "
		       "run or brnf cleanup", path, what, why);
	} else {
		fprintf(stderr, "brnf: replayed %s on %s\n", path, what);
	}
	free(out);
	free(err);
	return st ? (st < 0 ? st : -EIO) : 0;
}

/* A directory of ours: never through a link, never another user's. */
static int replay_dir(const char *path, const char *dir)
{
	struct stat st;
	int err;

	if (dir[0] != '/') {
		pr_err("%s: %s is no absolute path; left as it is", path, dir);
		return -EINVAL;
	}
	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		pr_err("%s: %s is no directory of ours any more; left as it is", path, dir);
		return 0;
	}
	err = rm_rf(dir);
	if (err)
		pr_err("%s: rm -rf %s: %s", path, dir, strerror(-err));
	else
		fprintf(stderr, "brnf: removed %s of a run that ended\n", dir);
	return err;
}

/* The ssh control directory: each master (a socket) told to exit, then removed. */
static int replay_ssh(const char *path, const char *dir)
{
	char sock[600], opt[620];
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *argv[] = { "ssh", "-o", opt, "-O", "exit", "brnf-journal", NULL };

		if (de->d_name[0] == '.')
			continue;
		snprintf(sock, sizeof(sock), "%s/%s", dir, de->d_name);
		snprintf(opt, sizeof(opt), "ControlPath=%s", sock);
		proc_run(NULL, argv, NULL, NULL, 10);
	}
	if (d)
		closedir(d);
	return replay_dir(path, dir);
}

struct entry {
	int seq;
	char name[64];
};

static int by_seq_desc(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return (y->seq > x->seq) - (y->seq < x->seq);
}

int journal_replay(const char *dir)
{
	struct entry *e;
	struct dirent *de;
	unsigned int n = 0, i;
	int ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	e = calloc(JOURNAL_MAX, sizeof(*e));
	if (!e) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		int len = 0;

		if (de->d_name[0] == '.') {
			/* an entry its owner was killed while writing: its step not taken */
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				char p[400];

				snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
				unlink(p);
			}
			continue;
		}
		if (n < JOURNAL_MAX && sscanf(de->d_name, "%d.%n", &e[n].seq, &len) == 1 && len &&
		    strlen(de->d_name) < sizeof(e[n].name))
			memcpy(e[n++].name, de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	qsort(e, n, sizeof(*e), by_seq_desc);
	for (i = 0; i < n; i++) {
		char path[400], *text = NULL, *kind = strchr(e[i].name, '.') + 1;
		int err;

		snprintf(path, sizeof(path), "%s/%s", dir, e[i].name);
		err = read_file(path, &text, NULL);
		if (!err && !strcmp(kind, "sh"))
			err = replay_sh(path, text);
		else if (!err && !strcmp(kind, "dir"))
			err = replay_dir(path, text);
		else if (!err && !strcmp(kind, "ssh"))
			err = replay_ssh(path, text);
		else if (!err) {
			pr_err("%s: an entry of no kind brnf knows; left as it is", path);
			err = -EINVAL;
		}
		free(text);
		if (!err)
			unlink(path);
		ret = ret ?: err;
	}
	free(e);
	if (!ret && rmdir(dir) && errno != ENOENT)
		ret = -errno;
	return ret;
}
