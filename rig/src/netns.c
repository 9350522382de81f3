// SPDX-License-Identifier: GPL-2.0
/*
 * Network namespaces made as iproute2 `ip netns add` makes them: /run/netns is a
 * shared mount point, a child unshares its network namespace and bind mounts
 * /proc/self/ns/net onto /run/netns/<name>. Entering is setns().
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netns.h"
#include "util.h"

static int root_fd = -1;
static struct stat root_st;
static char cur_name[64];

int netns_init(void)
{
	root_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (root_fd < 0 || fstat(root_fd, &root_st))
		return -errno;
	return 0;
}

static int ns_path(char *buf, size_t len, const char *name)
{
	if (!*name || strchr(name, '/') ||
	    snprintf(buf, len, NETNS_RUN_DIR "/%s", name) >= (int)len)
		return -EINVAL;
	return 0;
}

/* As iproute2 netns_add(): make NETNS_RUN_DIR a shared mount point. */
static int make_run_dir_shared(void)
{
	bool made = false;

	if (mkdir(NETNS_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	while (mount("", NETNS_RUN_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		if (errno != EINVAL || made)
			return -errno;
		if (mount(NETNS_RUN_DIR, NETNS_RUN_DIR, "none", MS_BIND | MS_REC, NULL))
			return -errno;
		made = true;
	}
	return 0;
}

int netns_id(const char *name, struct netns_id *id)
{
	char path[256];
	struct stat st;
	int err;

	err = ns_path(path, sizeof(path), name);
	if (err)
		return err;
	if (stat(path, &st))
		return -errno;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return 0;
}

int netns_add(const char *name, netns_reserved_fn reserved, void *ctx, struct netns_id *id)
{
	char path[256];
	int fd, err, status;
	pid_t pid;

	err = ns_path(path, sizeof(path), name);
	if (err)
		return err;
	err = make_run_dir_shared();
	if (err) {
		pr_err("mount --make-shared %s: %s", NETNS_RUN_DIR, strerror(-err));
		return err;
	}
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		if (err == -EEXIST)
			pr_err("network namespace %s exists already and is not this run's; it is "
			       "left alone (%s)", name, path);
		else
			pr_err("create %s: %s", path, strerror(errno));
		return err;
	}
	close(fd);
	if (reserved) {
		err = reserved(ctx, name);
		if (err)
			goto out_unlink;
	}

	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out_unlink;
	}
	if (pid == 0) {
		/* The child's namespace lives on in the bind mount. */
		if (unshare(CLONE_NEWNET) ||
		    mount("/proc/self/ns/net", path, "none", MS_BIND, NULL))
			_exit(errno & 0xff);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0) {
		err = -errno;
		goto out_unlink;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		err = WIFEXITED(status) ? -WEXITSTATUS(status) : -ECHILD;
		pr_err("network namespace %s: %s", name, strerror(-err));
		goto out_unlink;
	}
	err = netns_id(name, id);
	if (err) {
		pr_err("network namespace %s: %s", name, strerror(-err));
		netns_del_id(name, NULL);
	}
	return err;

out_unlink:
	unlink(path);
	return err;
}

int netns_open(const char *name)
{
	char path[256];
	int fd, err;

	err = ns_path(path, sizeof(path), name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * A pid in /proc is a pid of the pid namespace that /proc was mounted in, which need
 * not be brnf's (PID 1 under `unshare -fp` without --mount-proc sees the host's):
 * kill() with it could hit another process of brnf's own namespace. So each process is
 * held by its /proc directory, whose namespace is checked and which is signalled as a
 * pidfd: the process looked at, or none (EINVAL: one outside brnf's pid namespace,
 * which is not brnf's to end). Returns how many were signalled.
 */
int netns_kill_pids(const char *name, int sig)
{
	char path[256], self[32] = "";
	struct stat ns, st;
	struct dirent *de;
	int err, fd, n = 0;
	ssize_t len;
	DIR *d;

	err = ns_path(path, sizeof(path), name);
	if (err)
		return err;
	if (stat(path, &ns))
		return -errno;
	len = readlink("/proc/self", self, sizeof(self) - 1);	/* brnf in that /proc */
	self[len > 0 ? len : 0] = '\0';
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || !strcmp(de->d_name, self))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstatat(fd, "ns/net", &st, 0) && st.st_dev == ns.st_dev &&
		    st.st_ino == ns.st_ino && !pidfd_send_signal(fd, sig, NULL, 0))
			n++;
		close(fd);
	}
	closedir(d);
	return n;
}

/* An empty regular file on the file system of /run/netns, no namespace mounted on it. */
static bool is_placeholder(const char *path)
{
	struct stat st, dir;

	return !lstat(path, &st) && S_ISREG(st.st_mode) && !st.st_size &&
	       !stat(NETNS_RUN_DIR, &dir) && st.st_dev == dir.st_dev;
}

int netns_del_id(const char *name, const struct netns_id *id)
{
	struct netns_id now;
	char path[256];
	int err, i;

	err = ns_path(path, sizeof(path), name);
	if (err)
		return err;
	if (!path_exists(path))
		return 0;
	if (id && (netns_id(name, &now) || now.dev != id->dev || now.ino != id->ino)) {
		/* its mount gone with the mount namespace it was made in (a PID-1 brnf under
		 * unshare --mount-proc): the empty file this owner created, no namespace */
		if (is_placeholder(path))
			return unlink(path) && errno != ENOENT ? -errno : 0;
		pr_err("network namespace %s is not the one brnf made under that name; it is "
		       "left alone", name);
		return -ESTALE;
	}
	/* Processes left inside (iperf3 of a killed run) keep it alive: end them. */
	for (i = 0; i < 50 && netns_kill_pids(name, SIGKILL) > 0; i++)
		usleep(20000);
	if (umount2(path, MNT_DETACH) && errno != EINVAL && errno != ENOENT) {
		err = -errno;
		pr_err("umount %s: %s", path, strerror(errno));
		return err;
	}
	if (unlink(path) && errno != ENOENT) {
		err = -errno;
		pr_err("unlink %s: %s", path, strerror(errno));
		return err;
	}
	return 0;
}

int netns_enter(const char *name)
{
	int fd, err = 0;

	if (strncmp(name, NETNS_PREFIX, strlen(NETNS_PREFIX))) {
		pr_err("internal error: refusing to enter namespace %s", name);
		abort();
	}
	fd = netns_open(name);
	if (fd < 0) {
		pr_err("open network namespace %s: %s", name, strerror(-fd));
		return fd;
	}
	if (setns(fd, CLONE_NEWNET)) {
		err = -errno;
		pr_err("setns %s: %s", name, strerror(errno));
	} else {
		snprintf(cur_name, sizeof(cur_name), "%s", name);
	}
	close(fd);
	return err;
}

int netns_enter_child(const char *name)
{
	unsigned long flags = 0;
	struct statvfs sv;
	int err;

	err = netns_enter(name);
	if (err)
		return err;
	/* As `ip netns exec` (iproute2 netns_switch()): sysfs shows the links of the
	 * namespace it was mounted from, so /sys/class/net (a bridge's nf_call_* files)
	 * is the namespace's only when mounted anew from inside it, in a mount namespace
	 * of the child's own whose mounts do not propagate back. */
	if (unshare(CLONE_NEWNS) || mount("", "/", "none", MS_SLAVE | MS_REC, NULL)) {
		err = -errno;
		pr_err("a mount namespace for %s: %s", name, strerror(-err));
		return err;
	}
	if (!statvfs("/sys", &sv) && (sv.f_flag & ST_RDONLY))
		flags = MS_RDONLY;
	umount2("/sys", MNT_DETACH);	/* fails when none is mounted there: as good */
	if (mount(name, "/sys", "sysfs", flags, NULL)) {
		err = -errno;
		pr_err("mount sysfs of %s on /sys: %s", name, strerror(-err));
		return err;
	}
	return 0;
}

int netns_leave(void)
{
	if (root_fd < 0)
		return -EBADF;
	if (setns(root_fd, CLONE_NEWNET))
		return -errno;
	cur_name[0] = '\0';
	return 0;
}

const char *netns_current(void)
{
	return cur_name[0] ? cur_name : NULL;
}

void netns_assert_brnf(const char *what)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st) ||
	    (st.st_dev == root_st.st_dev && st.st_ino == root_st.st_ino) ||
	    strncmp(cur_name, NETNS_PREFIX, strlen(NETNS_PREFIX))) {
		pr_err("internal error: %s outside a brnf network namespace", what);
		abort();
	}
}
