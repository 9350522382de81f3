// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes, as iproute2 lib/exec.c cmd_exec(): fork, enter the
 * namespace in the child, exec; the parent waits. Every child is remembered
 * so a signal can end them all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "netns.h"
#include "proc.h"
#include "util.h"

static pid_t children[PROC_MAX_CHILDREN];

/* A stop asked for while the stop signals are blocked (an unwind, a restore that must
 * finish, ledger.h) does not interrupt a wait. */
static bool stop_asked(void)
{
	sigset_t cur;

	if (!brnf_stop)
		return false;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	return !sigismember(&cur, SIGINT);
}

/* Remember pid; -EMFILE when the table is full (the child could not be ended later). */
static int child_add(pid_t pid)
{
	unsigned int i;

	for (i = 0; i < PROC_MAX_CHILDREN; i++)
		if (!children[i]) {
			children[i] = pid;
			return 0;
		}
	return -EMFILE;
}

static void child_del(pid_t pid)
{
	unsigned int i;

	for (i = 0; i < PROC_MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

static void child_exec(pid_t parent, const char *ns, char *const argv[], int in_fd, int out_fd,
		       int err_fd)
{
	int null = open("/dev/null", O_RDWR);

	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* brnf died before the line above: we were reparented. Not getppid() == 1,
	 * which is always true when brnf itself is PID 1 (a container's entrypoint). */
	if (getppid() != parent)
		_exit(127);
	/* A process group of its own: a Ctrl-C at the terminal reaches brnf alone, which
	 * ends its children itself, and never the ssh and nft of a restore half-way. */
	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (ns) {
		if (netns_enter_child(ns))
			_exit(127);
		netns_assert_brnf(argv[0]);
	}
	dup2(in_fd >= 0 ? in_fd : null, 0);
	dup2(out_fd >= 0 ? out_fd : null, 1);
	dup2(err_fd >= 0 ? err_fd : null, 2);
	execvp(argv[0], argv);
	fprintf(stderr, "brnf: exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

pid_t proc_spawn_io(const char *ns, char *const argv[], int in_fd, int out_fd, int err_fd)
{
	pid_t pid, parent = getpid();

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child_exec(parent, ns, argv, in_fd, out_fd, err_fd);
	setpgid(pid, pid);	/* as the child does: whichever runs first */
	if (child_add(pid)) {
		/* not silently: one brnf could not end on a signal is not started */
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pr_err("%s: more than %d child processes at once", argv[0], PROC_MAX_CHILDREN);
		return -EMFILE;
	}
	return pid;
}

pid_t proc_spawn(const char *ns, char *const argv[], int out_fd, int err_fd)
{
	return proc_spawn_io(ns, argv, -1, out_fd, err_fd);
}

static int decode(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

static bool is_child(pid_t pid)
{
	unsigned int i;

	for (i = 0; i < PROC_MAX_CHILDREN; i++)
		if (children[i] == pid)
			return true;
	return false;
}

#ifdef SYS_pidfd_open
static int pidfd_open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}
#else
static int pidfd_open(pid_t pid)
{
	(void)pid;
	errno = ENOSYS;
	return -1;
}
#endif

pid_t proc_pid_in_proc(pid_t pid)
{
	char path[64], line[128];
	pid_t there = -1;
	FILE *f;
	int fd;

	fd = pidfd_open(pid);
	if (fd < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &there) == 1)
			break;
	if (f)
		fclose(f);
	close(fd);
	return there > 0 ? there : -1;
}

int proc_stat(pid_t pid, char *state, pid_t *ppid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, pp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* after the command name, which may hold anything */
	if (!p || sscanf(p + 1, " %c %d", state, &pp) != 2)
		return -EIO;
	*ppid = pp;
	return 0;
}

/*
 * As PID 1 (a container's entrypoint) brnf inherits every orphan of its pid
 * namespace (a daemonized ssh master, what a child left behind) and must reap
 * them, or they stay zombies. Only zombies that are none of its own children (whose
 * status a wait of its own collects), found by waitid() without reaping (WNOWAIT):
 * not in /proc, whose pids may be another pid namespace's (PID 1 under `unshare -fp`
 * without --mount-proc sees the host's). The kernel shows the oldest zombie first; an
 * orphan behind one of brnf's own children is reaped at a look after that child's
 * wait. At most every 100 ms.
 */
static void reap_orphans(void)
{
	static double last;
	siginfo_t si;

	if (getpid() != 1 || now_sec() - last < 0.1)
		return;
	last = now_sec();
	for (;;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) || !si.si_pid ||
		    is_child(si.si_pid))
			break;
		waitpid(si.si_pid, NULL, WNOHANG);
	}
}

int proc_poll(pid_t pid, int *status)
{
	int st;
	pid_t r;

	reap_orphans();
	r = waitpid(pid, &st, WNOHANG);
	if (r < 0) {
		child_del(pid);
		return -errno;
	}
	if (r == 0)
		return 1;
	child_del(pid);
	*status = decode(st);
	return 0;
}

void proc_sleep(const pid_t *pids, unsigned int n, double timeout)
{
	struct pollfd pfd[PROC_SLEEP_MAX];
	struct timespec ts, *tsp = NULL;
	sigset_t stop, old;
	unsigned int m = 0, i;
	int fd;

	for (i = 0; i < n && m < PROC_SLEEP_MAX; i++) {
		fd = pidfd_open(pids[i]);
		if (fd < 0)
			break;
		pfd[m++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	if (i < n) {
		/* no pidfd (a kernel before 5.3): a short tick, as before */
		const struct timespec tick = { 0, 20 * 1000 * 1000 };

		nanosleep(&tick, NULL);
		goto out_close;
	}
	if (getpid() == 1 && (timeout < 0 || timeout > 0.1))
		timeout = 0.1;		/* reap_orphans() */
	if (timeout >= 0) {
		ts.tv_sec = (time_t)timeout;
		ts.tv_nsec = (long)((timeout - ts.tv_sec) * 1e9);
		tsp = &ts;
	}
	/* the stop signals come in only inside ppoll(): none is lost between the look at
	 * brnf_stop and the sleep (unless they were blocked before: an unwind) */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	if (!brnf_stop || sigismember(&old, SIGINT))
		ppoll(pfd, m, tsp, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
out_close:
	for (i = 0; i < m; i++)
		close(pfd[i].fd);
}

int proc_wait(pid_t pid, double timeout)
{
	double end = now_sec() + timeout;
	int status, r;

	for (;;) {
		r = proc_poll(pid, &status);
		if (r < 0)
			return r;
		if (r == 0)
			return status;
		if (stop_asked())
			return -EINTR;
		if (timeout >= 0 && now_sec() > end)
			return -ETIMEDOUT;
		/* asleep until it exits: no periodic wakeup (in a guest they are measured) */
		proc_sleep(&pid, 1, timeout >= 0 ? end - now_sec() : -1);
	}
}

static char *slurp_fd(int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf;

	if (len < 0)
		len = 0;
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	if (pread(fd, buf, len, 0) != len)
		len = 0;
	buf[len] = '\0';
	return buf;
}

int proc_run_in(const char *ns, char *const argv[], const char *in, size_t inlen,
		char **out, char **err, double timeout)
{
	int ifd = -1, ofd, efd, ret;
	pid_t pid;

	ofd = memfd_create("brnf-out", MFD_CLOEXEC);
	efd = memfd_create("brnf-err", MFD_CLOEXEC);
	if (ofd < 0 || efd < 0) {
		ret = -errno;
		goto out_close;
	}
	if (in) {
		ifd = memfd_create("brnf-in", MFD_CLOEXEC);
		if (ifd < 0 || write(ifd, in, inlen) != (ssize_t)inlen ||
		    lseek(ifd, 0, SEEK_SET) != 0) {
			ret = -errno ? -errno : -EIO;
			goto out_close;
		}
	}
	pid = proc_spawn_io(ns, argv, ifd, ofd, efd);
	if (pid < 0) {
		ret = pid;
		goto out_close;
	}
	ret = proc_wait(pid, timeout);
	if (ret < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		child_del(pid);
	}
	if (out)
		*out = slurp_fd(ofd);
	if (err)
		*err = slurp_fd(efd);
out_close:
	if (ifd >= 0)
		close(ifd);
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return ret;
}

int proc_run(const char *ns, char *const argv[], char **out, char **err, double timeout)
{
	return proc_run_in(ns, argv, NULL, 0, out, err, timeout);
}

/*
 * sig to the process group of child pid, which child_exec() made its leader, so that
 * what the child started (a shell's commands) ends with it; to pid alone when the
 * group is gone. Only while pid is not reaped: till then its pid, the group's id, is
 * no other process's.
 */
static void kill_group(pid_t pid, int sig)
{
	if (kill(-pid, sig) && errno == ESRCH)
		kill(pid, sig);
}

/* Child pid runs (0) or has exited (1) and stays a zombie, not reaped: its group id
 * still its own. -1: it is no child of ours any more (reaped by a wait elsewhere). */
static int child_state(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return -1;
	return si.si_pid == pid;
}

void proc_kill_all(void)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	unsigned int i, n;
	double end;

	reap_orphans();
	for (i = 0; i < PROC_MAX_CHILDREN; i++) {
		if (children[i] && child_state(children[i]) < 0)
			children[i] = 0;	/* its pid may be another's by now */
		if (children[i])
			kill_group(children[i], SIGTERM);
	}
	end = now_sec() + 2;
	do {
		for (i = 0, n = 0; i < PROC_MAX_CHILDREN; i++)
			n += children[i] && child_state(children[i]) == 0;
		if (n)
			nanosleep(&tick, NULL);
	} while (n && now_sec() < end);
	/* what is left of each group (a process that ignored SIGTERM), then the leader
	 * is reaped */
	for (i = 0; i < PROC_MAX_CHILDREN; i++) {
		if (!children[i])
			continue;
		kill_group(children[i], SIGKILL);
		waitpid(children[i], NULL, 0);
		children[i] = 0;
	}
}

void proc_first_error(const char *s, char *buf, size_t len)
{
	const char *line = NULL, *p, *e;

	buf[0] = '\0';
	if (!s)
		return;
	for (p = s; *p; p = e + 1) {
		e = strchrnul(p, '\n');
		if (!line && e > p)
			line = p;	/* the first non-empty line, unless ... */
		if (memmem(p, e - p, "rror", 4)) {
			line = p;	/* ... a line says "Error" */
			break;
		}
		if (!*e)
			break;
	}
	if (!line)
		return;
	e = strchrnul(line, '\n');
	snprintf(buf, len, "%.*s", (int)(e - line), line);
}
