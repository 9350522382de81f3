// SPDX-License-Identifier: GPL-2.0
/* iperf3 flows across the test bed (see iperf.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "iperf.h"
#include "journal.h"
#include "iperf_json.h"
#include "ledger.h"
#include "proc.h"
#include "util.h"

#define LISTEN_TIMEOUT 10.0	/* seconds for a server to listen */
#define FLOW_MARGIN 30.0	/* seconds beyond time + omit for a client */

int iperf_version(char *buf, size_t len)
{
	char *argv[] = { "iperf3", "--version", NULL };
	char *out = NULL;
	int ret;

	ret = proc_run(NULL, argv, &out, NULL, 10);
	if (ret == 0 && out) {
		char *nl = strchr(out, '\n');

		if (nl)
			*nl = '\0';
		snprintf(buf, len, "%s", out);
	}
	free(out);
	if (ret == 127)
		return -ENOENT;
	return ret ? -EIO : 0;
}

/* The socket inodes of a process: its fds' "socket:[N]" links, one a line. */
struct sockets {
	unsigned long ino[64];
	unsigned int n;
};

static void sockets_add(struct sockets *so, const char *link)
{
	unsigned long ino;

	if (so->n < ARRAY_SIZE(so->ino) && sscanf(link, "socket:[%lu]", &ino) == 1)
		so->ino[so->n++] = ino;
}

/*
 * One /proc/net/tcp{,6} line: a socket listening on port that belongs to the server
 * (its inode is one of so's)? Any listener would do for a stale server left on the
 * port, and the run would measure that one.
 */
static bool listen_line(const char *line, unsigned int port, const struct sockets *so)
{
	unsigned int lport, state, i;
	unsigned long ino;

	if (sscanf(line, " %*u: %*[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x %*u "
		   "%*u %lu", &lport, &state, &ino) != 3 || lport != port || state != 0x0A)
		return false;
	for (i = 0; i < so->n; i++)
		if (so->ino[i] == ino)
			return true;
	return false;
}

/* Does child pid (in its network namespace) have a TCP socket listening on port? */
static bool listening_local(pid_t child, unsigned int port)
{
	static const char *const files[] = { "tcp6", "tcp" };
	pid_t pid = proc_pid_in_proc(child);	/* /proc's number for it */
	char path[300], line[512];
	struct sockets so = { .n = 0 };
	struct dirent *de;
	bool found = false;
	unsigned int i;
	ssize_t n;
	FILE *f;
	DIR *d;

	if (pid < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, de->d_name);
		n = readlink(path, line, sizeof(line) - 1);
		if (n > 0) {
			line[n] = '\0';
			sockets_add(&so, line);
		}
	}
	if (d)
		closedir(d);
	for (i = 0; i < ARRAY_SIZE(files) && !found && so.n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, files[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f))
			found = listen_line(line, port, &so);
		fclose(f);
	}
	return found;
}

/* Over ssh, one round trip: the sockets of the server whose pid the shell of
 * server_argv() wrote to dir, then the remote host's /proc/net/tcp{,6}. */
static bool listening_remote(const struct host *h, const char *dir, unsigned int port)
{
	char script[400], *out = NULL, *line, *save;
	struct sockets so = { .n = 0 };
	bool found = false;

	snprintf(script, sizeof(script),
		 "p=$(cat '%s/pid' 2>/dev/null); case $p in ''|*[!0-9]*) exit 0 ;; esac; "
		 "for f in /proc/$p/fd/*; do l=$(readlink \"$f\") && echo \"fd $l\"; done; "
		 "cat /proc/net/tcp6 /proc/net/tcp 2>/dev/null; exit 0", dir);
	if (host_sh(h, script, NULL, 0, &out, NULL, 10) == 0 && out) {
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "fd ", 3))
				sockets_add(&so, line + 3);
			else if (!found)
				found = listen_line(line, port, &so);
		}
	}
	free(out);
	return found;
}

static bool listening(const struct host *h, pid_t pid, const char *dir, unsigned int port)
{
	return h->transport == RIG_SSH ? listening_remote(h, dir, port) :
					 listening_local(pid, port);
}

static int wait_listening(const struct host *h, pid_t pid, const char *dir, unsigned int port)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	double end = now_sec() + LISTEN_TIMEOUT;
	int status;

	while (!listening(h, pid, dir, port)) {
		if (proc_poll(pid, &status) == 0) {
			pr_err("iperf3 server on %s port %u exited (status %d) before listening",
			       h->what, port, status);
			return -EIO;
		}
		if (brnf_stop)
			return -EINTR;
		if (now_sec() > end) {
			pr_err("iperf3 server on %s port %u does not listen after %.0f s", h->what,
			       port, LISTEN_TIMEOUT);
			return -ETIMEDOUT;
		}
		nanosleep(&tick, NULL);
	}
	return 0;
}

struct flow {
	pid_t server, client;
	int out_fd, err_fd;
	int status;		/* client exit status, -1 while running */
	char path[512];
	char remote_dir[80];	/* ssh server: its state directory (remote_dir_name()) */
	int journal;		/* and its end in the journal */
};

static void flow_argv(const struct flow_opts *o, const char *addr, unsigned int port,
		      char *bufs[4], char **argv)
{
	unsigned int n = 0;

	snprintf(bufs[0], 16, "%u", port);
	argv[n++] = "iperf3";
	argv[n++] = "-c";
	argv[n++] = (char *)addr;
	argv[n++] = "-p";
	argv[n++] = bufs[0];
	if (o->bytes) {
		snprintf(bufs[1], 24, "%lu", o->bytes);
		argv[n++] = "-n";
		argv[n++] = bufs[1];
	} else {
		snprintf(bufs[1], 24, "%u", o->time);
		snprintf(bufs[2], 16, "%u", o->omit);
		argv[n++] = "-t";
		argv[n++] = bufs[1];
		argv[n++] = "-O";
		argv[n++] = bufs[2];
	}
	argv[n++] = "-J";
	argv[n++] = "--connect-timeout";
	argv[n++] = "5000";
	if (o->reverse)
		argv[n++] = "-R";
	argv[n] = NULL;
}

/*
 * A flow that overran its time: both ends' view of its TCP connections (ss: state,
 * cwnd, retransmissions, timers, the last send and receive), on stderr, so that the
 * log says whether the path dropped its packets or an end stopped reading.
 */
static void flow_overrun_report(const struct flow_hosts *fh, unsigned int i)
{
	const struct host *ends[2] = { fh[i].client, fh[i].server };
	char filter[64];
	char *argv[] = { "ss", "-H", "-tinmo", filter, NULL };
	unsigned int e;

	snprintf(filter, sizeof(filter), "( sport = :%u or dport = :%u )",
		 IPERF_PORT0 + i, IPERF_PORT0 + i);
	for (e = 0; e < ARRAY_SIZE(ends); e++) {
		char *out = NULL, *line, *save = NULL;
		int ret = host_run(ends[e], argv, NULL, 0, &out, NULL, 10);

		if (ret != 0 || !out || !*out) {
			pr_err("flow %u: ss on %s: %s", i, ends[e]->what,
			       ret ? "failed" : "no connection of the flow");
		} else {
			for (line = strtok_r(out, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				pr_err("flow %u: ss on %s: %s", i, ends[e]->what, line);
		}
		free(out);
	}
}

/* Wait for every client; kill them all on timeout or signal (after an overrun report). */
static int wait_clients(const struct flow_hosts *fh, struct flow *f, unsigned int n,
			double timeout)
{
	double end = now_sec() + timeout;
	pid_t pids[IPERF_MAX_FLOWS];
	unsigned int i, running;
	int ret = 0;

	do {
		for (i = 0, running = 0; i < n; i++) {
			if (f[i].status >= 0)
				continue;
			if (proc_poll(f[i].client, &f[i].status) != 0)
				pids[running++] = f[i].client;
		}
		if (!running)
			return 0;
		if (brnf_stop)
			ret = -EINTR;
		else if (now_sec() > end)
			ret = -ETIMEDOUT;
		else	/* asleep until a client ends: the flows are measured meanwhile */
			proc_sleep(pids, running, end - now_sec());
	} while (!ret);
	for (i = 0; i < n && ret == -ETIMEDOUT; i++)
		if (f[i].status < 0)
			flow_overrun_report(fh, i);
	for (i = 0; i < n; i++)
		if (f[i].status < 0) {
			kill(f[i].client, SIGKILL);
			proc_wait(f[i].client, 5);
			if (ret == -ETIMEDOUT)
				pr_err("flow %u (port %u): iperf3 client still running after %.0f s; killed",
				       i, IPERF_PORT0 + i, timeout);
		}
	return ret;
}

/* Read flow i's JSON; one line naming the flow when it failed. */
static int flow_result(struct flow *f, unsigned int i, const struct flow_opts *o, double *bps)
{
	char msg[300] = "", line[300];
	size_t len;
	char *buf;
	int err;

	err = read_file(f->path, &buf, &len);
	if (err) {
		pr_err("flow %u: read %s: %s", i, f->path, strerror(-err));
		return err;
	}
	err = iperf_json_received_bps(buf, len, bps, msg, sizeof(msg));
	free(buf);
	if (!err && f->status == 0)
		return 0;
	if (!msg[0]) {
		char *e = NULL;

		len = lseek(f->err_fd, 0, SEEK_END);
		e = calloc(1, len + 1);
		if (e && pread(f->err_fd, e, len, 0) == (ssize_t)len)
			proc_first_error(e, line, sizeof(line));
		else
			line[0] = '\0';
		free(e);
		snprintf(msg, sizeof(msg), "exit status %d%s%s", f->status, line[0] ? ": " : "",
			 line);
	}
	pr_err("flow %u (%s, port %u) failed: %s", i, o->reverse ? "download" : "upload",
	       IPERF_PORT0 + i, msg);
	return -EIO;
}

/*
 * A remote server's state: a directory only the ssh user can write, made by the
 * server's shell with mkdir (which fails on anything already there) under a
 * name nobody can guess, holding iperf3's pid. Another user of that host can
 * neither plant a pid brnf would kill nor point brnf's writes elsewhere.
 */
static int remote_dir_name(char *buf, size_t len, unsigned int port)
{
	unsigned char rnd[8];
	unsigned int i;
	int n;

	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		return -EIO;
	n = snprintf(buf, len, "/tmp/brnf-iperf3.%u-", port);
	for (i = 0; i < sizeof(rnd) && n + 2 < (int)len; i++)
		n += snprintf(buf + n, len - n, "%02x", rnd[i]);
	return 0;
}

/* The remote server's shell wrote its pid (see server_argv()); end it. Only a
 * decimal pid is passed to kill, quoted. The killed server's shell removes the
 * directory too, so the two removals race: what counts is that it is gone. */
static void remote_kill_script(char *script, size_t len, const char *dir)
{
	snprintf(script, len,
		 "d='%s'; [ -d \"$d\" ] && [ ! -L \"$d\" ] || exit 0; "
		 "p=$(cat \"$d/pid\" 2>/dev/null); "
		 "case $p in ''|*[!0-9]*) ;; *) kill \"$p\" 2>/dev/null ;; esac; "
		 "rm -rf \"$d\" 2>/dev/null || [ ! -e \"$d\" ]\n", dir);
}

/* 0 when the server ended (its directory is gone), else nonzero. */
static int remote_server_kill(const struct host *h, const char *dir)
{
	char script[400];
	sigset_t old;
	int st;

	remote_kill_script(script, sizeof(script), dir);

	ledger_block(&old);	/* also after a Ctrl-C: the server must end */
	st = host_sh(h, script, NULL, 0, NULL, NULL, 10);
	ledger_unblock(&old);
	return st;
}

static void flows_end(const struct flow_hosts *fh, struct flow *f, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		int st = f[i].server > 0 ? proc_wait(f[i].server, 2) : 0;
		bool ended = true;

		/* A remote server whose ssh did not end well (not reached, killed by
		 * Ctrl-C with brnf's process group) may still run over there. */
		if (st && fh[i].server->transport == RIG_SSH && f[i].remote_dir[0])
			ended = !remote_server_kill(fh[i].server, f[i].remote_dir);
		if (st < 0) {
			kill(f[i].server, SIGKILL);
			proc_wait(f[i].server, 5);
		}
		if (f[i].client > 0 && f[i].status < 0) {
			kill(f[i].client, SIGKILL);
			proc_wait(f[i].client, 5);
		}
		/* not ended (the host unreachable): the entry stays for the next replay */
		if (ended)
			journal_drop(f[i].journal);
		if (f[i].out_fd >= 0)
			close(f[i].out_fd);
		if (f[i].err_fd >= 0)
			close(f[i].err_fd);
	}
	free(f);
}

/* The server: on an ssh host through a shell that keeps iperf3's pid in dir
 * while it runs, so an interrupted run can end a server the client never
 * reached (without a tty, ending the ssh client does not end the remote side). */
static void server_argv(const struct host *h, unsigned int port, const char *dir, char *script,
			size_t len, char *portbuf, char **argv)
{
	snprintf(portbuf, 16, "%u", port);
	if (h->transport == RIG_SSH) {
		snprintf(script, len, "d='%s'; mkdir -m 700 \"$d\" || exit 1; "
			 "iperf3 -s -1 -p %u >/dev/null 2>&1 & echo $! > \"$d/pid\"; wait $!; "
			 "s=$?; rm -rf \"$d\"; exit $s", dir, port);
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = script;
		argv[3] = NULL;
		return;
	}
	argv[0] = "iperf3";
	argv[1] = "-s";
	argv[2] = "-1";
	argv[3] = "-p";
	argv[4] = portbuf;
	argv[5] = NULL;
}

int flows_run(const struct flow_hosts *fh, const struct flow_opts *o, const char *dir,
	      double *bps)
{
	char b0[16], b1[24], b2[16], b3[16], *bufs[4] = { b0, b1, b2, b3 };
	char port[16], *argv[16];
	unsigned int i, n = o->nflows;
	struct flow *f;
	int err = 0;

	f = calloc(n, sizeof(*f));
	if (!f)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		f[i].out_fd = f[i].err_fd = -1;
		f[i].status = -1;
	}
	for (i = 0; i < n && !err; i++) {
		char script[400], *sargv[8];

		if (fh[i].server->transport == RIG_SSH) {
			err = remote_dir_name(f[i].remote_dir, sizeof(f[i].remote_dir),
					      IPERF_PORT0 + i);
			if (err)
				break;
			/* a SIGKILLed brnf cannot end it: the journal can (journal.h) */
			remote_kill_script(script, sizeof(script), f[i].remote_dir);
			f[i].journal = host_journal_sh(fh[i].server, script);
			if (f[i].journal < 0) {
				err = f[i].journal;
				break;
			}
		}
		server_argv(fh[i].server, IPERF_PORT0 + i, f[i].remote_dir, script, sizeof(script),
			    port, sargv);
		f[i].server = host_spawn(fh[i].server, sargv, -1, -1, -1);
		if (f[i].server < 0)
			err = f[i].server;
	}
	for (i = 0; i < n && !err; i++)
		err = wait_listening(fh[i].server, f[i].server, f[i].remote_dir, IPERF_PORT0 + i);
	for (i = 0; i < n && !err; i++)
		if (f[i].remote_dir[0])
			journal_fault("remote");
	for (i = 0; i < n && !err; i++) {
		snprintf(f[i].path, sizeof(f[i].path), "%s/flow-%u.json", dir, i);
		f[i].out_fd = open(f[i].path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				   O_CLOEXEC, 0644);
		f[i].err_fd = memfd_create("iperf3-err", MFD_CLOEXEC);
		if (f[i].out_fd < 0 || f[i].err_fd < 0) {
			err = -errno;
			pr_err("create %s: %s", f[i].path, strerror(errno));
		}
	}
	/* All clients together, as close in time as fork allows. */
	for (i = 0; i < n && !err; i++) {
		flow_argv(o, fh[i].addr, IPERF_PORT0 + i, bufs, argv);
		f[i].client = host_spawn(fh[i].client, argv, -1, f[i].out_fd, f[i].err_fd);
		if (f[i].client < 0)
			err = f[i].client;
	}
	if (!err)
		err = wait_clients(fh, f, n, o->time + (o->bytes ? 0 : o->omit) + FLOW_MARGIN);
	for (i = 0; i < n && !err; i++)
		err = flow_result(&f[i], i, o, &bps[i]);
	flows_end(fh, f, n);
	return err;
}
