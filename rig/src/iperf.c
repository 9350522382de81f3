// SPDX-License-Identifier: GPL-2.0
/* iperf3 flows across the test bed (see iperf.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "iperf.h"
#include "iperf_json.h"
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

/* Does process pid (in its namespace) have a TCP socket listening on port? */
static bool listening(pid_t pid, unsigned int port)
{
	static const char *const files[] = { "tcp6", "tcp" };
	unsigned int i, lport, state;
	char path[64], line[512];
	bool found = false;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(files) && !found; i++) {
		snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, files[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f))
			if (sscanf(line, " %*u: %*[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x",
				   &lport, &state) == 2 && lport == port && state == 0x0A)
				found = true;
		fclose(f);
	}
	return found;
}

static int wait_listening(pid_t pid, unsigned int port)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	double end = now_sec() + LISTEN_TIMEOUT;
	int status;

	while (!listening(pid, port)) {
		if (proc_poll(pid, &status) == 0) {
			pr_err("iperf3 server on port %u exited (status %d) before listening",
			       port, status);
			return -EIO;
		}
		if (brnf_stop)
			return -EINTR;
		if (now_sec() > end) {
			pr_err("iperf3 server on port %u does not listen after %.0f s", port,
			       LISTEN_TIMEOUT);
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
};

static void flow_argv(const struct flow_opts *o, unsigned int port, char *bufs[4],
		      char **argv)
{
	unsigned int n = 0;

	snprintf(bufs[0], 16, "%u", port);
	snprintf(bufs[1], 16, "%u", o->time);
	snprintf(bufs[2], 16, "%u", o->omit);
	argv[n++] = "iperf3";
	argv[n++] = "-c";
	argv[n++] = TB_PC_ADDR4;
	argv[n++] = "-p";
	argv[n++] = bufs[0];
	argv[n++] = "-t";
	argv[n++] = bufs[1];
	argv[n++] = "-O";
	argv[n++] = bufs[2];
	argv[n++] = "-J";
	argv[n++] = "--connect-timeout";
	argv[n++] = "5000";
	if (o->reverse)
		argv[n++] = "-R";
	argv[n] = NULL;
}

/* Wait for every client; kill them all on timeout or signal. */
static int wait_clients(struct flow *f, unsigned int n, double timeout)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	double end = now_sec() + timeout;
	unsigned int i, running;
	int ret = 0;

	do {
		for (i = 0, running = 0; i < n; i++) {
			if (f[i].status >= 0)
				continue;
			if (proc_poll(f[i].client, &f[i].status) != 0)
				running++;
		}
		if (!running)
			return 0;
		if (brnf_stop)
			ret = -EINTR;
		else if (now_sec() > end)
			ret = -ETIMEDOUT;
		else
			nanosleep(&tick, NULL);
	} while (!ret);
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

static void flows_end(struct flow *f, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (f[i].server > 0 && proc_wait(f[i].server, 2) < 0) {
			kill(f[i].server, SIGKILL);
			proc_wait(f[i].server, 5);
		}
		if (f[i].client > 0 && f[i].status < 0) {
			kill(f[i].client, SIGKILL);
			proc_wait(f[i].client, 5);
		}
		if (f[i].out_fd >= 0)
			close(f[i].out_fd);
		if (f[i].err_fd >= 0)
			close(f[i].err_fd);
	}
	free(f);
}

int flows_run(const struct testbed *tb, const struct flow_opts *o, const char *dir,
	      double *bps)
{
	char b0[16], b1[16], b2[16], b3[16], *bufs[4] = { b0, b1, b2, b3 };
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
		char *sargv[] = { "iperf3", "-s", "-1", "-p", port, NULL };

		snprintf(port, sizeof(port), "%u", IPERF_PORT0 + i);
		f[i].server = proc_spawn(tb->ns[TB_PC], sargv, -1, -1);
		if (f[i].server < 0)
			err = f[i].server;
	}
	for (i = 0; i < n && !err; i++)
		err = wait_listening(f[i].server, IPERF_PORT0 + i);
	for (i = 0; i < n && !err; i++) {
		snprintf(f[i].path, sizeof(f[i].path), "%s/flow-%u.json", dir, i);
		f[i].out_fd = open(f[i].path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		f[i].err_fd = memfd_create("iperf3-err", MFD_CLOEXEC);
		if (f[i].out_fd < 0 || f[i].err_fd < 0) {
			err = -errno;
			pr_err("create %s: %s", f[i].path, strerror(errno));
		}
	}
	/* All clients together, as close in time as fork allows. */
	for (i = 0; i < n && !err; i++) {
		flow_argv(o, IPERF_PORT0 + i, bufs, argv);
		f[i].client = proc_spawn(tb->ns[TB_STA], argv, f[i].out_fd, f[i].err_fd);
		if (f[i].client < 0)
			err = f[i].client;
	}
	if (!err)
		err = wait_clients(f, n, o->time + o->omit + FLOW_MARGIN);
	for (i = 0; i < n && !err; i++)
		err = flow_result(&f[i], i, o, &bps[i]);
	flows_end(f, n);
	return err;
}
