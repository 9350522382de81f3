// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic during the storm: iperf3 flows sta <-> pc (upload and download, IPv4
 * and IPv6; each crosses br-wlan and br-lan and is routed by ap) run again and
 * again, flow_time seconds each, while the workers toggle; a ping flood (IPv4
 * and IPv6) crosses the same way. Every run must exit 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "parse.h"
#include "proc.h"
#include "storm.h"
#include "util.h"

#define MAX_FLOWS 8
#define BASE_PORT 5201

enum { K_IPERF, K_PING };

struct runner {
	int kind;
	char name[32];
	char *argv[16];
	char argbuf[8][48];
	pid_t server;
	pid_t pid;		/* running client, 0 if none */
	double started;
	unsigned int runs, failed;
	unsigned long long bytes;	/* iperf: received; ping: packets sent */
	unsigned long long replies;	/* ping: received */
	char path[300];		/* the client's stdout */
	char first_error[200];
};

struct traffic {
	const struct storm_opts *o;
	struct storm_bed *bed;
	char tmp[64];
	int journal;		/* tmp in the claim's journal (journal.h) */
	unsigned int n;
	struct runner r[MAX_FLOWS + 2];
	bool stopping;
};

static bool port_listening(pid_t pid, unsigned int port)
{
	static const char *const f[2] = { "tcp", "tcp6" };
	char path[64], pat[16], *buf, *l;
	bool found = false;
	int i;

	snprintf(pat, sizeof(pat), ":%04X ", port);
	for (i = 0; i < 2 && !found; i++) {
		snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, f[i]);
		if (read_file(path, &buf, NULL))
			continue;
		for (l = strtok(buf, "\n"); l && !found; l = strtok(NULL, "\n")) {
			/* "sl local rem st": local port then state 0A (LISTEN) */
			char *p = strstr(l, pat);

			found = p && p - l < 40 && strstr(l, " 0A ");
		}
		free(buf);
	}
	return found;
}

static void set_argv(struct runner *r, const char *const *args)
{
	unsigned int i, b = 0;

	for (i = 0; args[i] && i < ARRAY_SIZE(r->argv) - 1; i++) {
		if (b < ARRAY_SIZE(r->argbuf)) {
			snprintf(r->argbuf[b], sizeof(r->argbuf[b]), "%s", args[i]);
			r->argv[i] = r->argbuf[b++];
		}
	}
	r->argv[i] = NULL;
}

static int start_server(struct traffic *t, struct runner *r, unsigned int port)
{
	char p[16];
	char *argv[] = { "iperf3", "-s", "-p", p, NULL };
	unsigned int i;

	snprintf(p, sizeof(p), "%u", port);
	r->server = proc_spawn(t->bed->tb.ns[TB_PC], argv, -1, -1);
	if (r->server < 0)
		return r->server;
	for (i = 0; i < 250; i++) {
		if (port_listening(r->server, port))
			return 0;
		usleep(20000);
	}
	pr_err("iperf3 server on port %u in %s does not listen after 5 s", port,
	       t->bed->tb.ns[TB_PC]);
	return -ETIMEDOUT;
}

static int start_client(struct traffic *t, struct runner *r)
{
	int fd;

	fd = open(r->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	r->pid = proc_spawn(t->bed->tb.ns[TB_STA], r->argv, fd, fd);
	close(fd);
	if (r->pid < 0) {
		int err = r->pid;

		r->pid = 0;
		return err;
	}
	r->started = now_sec();
	return 0;
}

struct traffic *traffic_start(struct storm_bed *bed, const struct storm_opts *o, char *err,
			      size_t errlen)
{
	static const char *const dst[2] = { "198.18.2.2", "2001:2:0:2::2" };
	struct traffic *t;
	char secs[16], pfx[48];
	unsigned int i;
	int e;

	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->o = o;
	t->bed = bed;
	/* journaled before it is made: removed after a SIGKILL too */
	snprintf(pfx, sizeof(pfx), "/tmp/%s.", bed->tb.prefix);
	t->journal = journal_mkdtemp(t->tmp, sizeof(t->tmp), pfx, "dir");
	if (t->journal < 0) {
		snprintf(err, errlen, "the storm's directory %sXXXXXX: %s", pfx,
			 strerror(-t->journal));
		free(t);
		return NULL;
	}
	journal_fault("traffic");
	snprintf(secs, sizeof(secs), "%u", o->flow_time);
	t->n = o->flows > MAX_FLOWS ? MAX_FLOWS : o->flows;
	for (i = 0; i < t->n; i++) {
		struct runner *r = &t->r[i];
		bool v6 = i & 2, down = i & 1;
		char port[16];
		const char *args[] = { "iperf3", "-c", dst[v6], "-p", port, "-t", secs, "-J",
			"--connect-timeout", "10000", down ? "-R" : NULL, NULL };

		snprintf(port, sizeof(port), "%u", BASE_PORT + i);
		r->kind = K_IPERF;
		snprintf(r->name, sizeof(r->name), "iperf3-%s-%s%s", v6 ? "ipv6" : "ipv4",
			 down ? "download" : "upload", i >= 4 ? "-2" : "");
		set_argv(r, args);
		snprintf(r->path, sizeof(r->path), "%s/flow-%u.json", t->tmp, i);
		e = start_server(t, r, BASE_PORT + i);
		if (e) {
			snprintf(err, errlen, "iperf3 server for %s: %s", r->name, strerror(-e));
			goto out_kill;
		}
	}
	if (o->ping) {
		for (i = 0; i < 2; i++) {
			struct runner *r = &t->r[t->n];
			const char *args[] = { "ping", i ? "-6" : "-4", "-f", "-q", "-w", secs,
				dst[i], NULL };

			r->kind = K_PING;
			snprintf(r->name, sizeof(r->name), "ping-flood-%s", i ? "ipv6" : "ipv4");
			set_argv(r, args);
			snprintf(r->path, sizeof(r->path), "%s/ping-%u.txt", t->tmp, i);
			t->n++;
		}
	}
	for (i = 0; i < t->n; i++) {
		e = start_client(t, &t->r[i]);
		if (e) {
			snprintf(err, errlen, "start %s: %s", t->r[i].name, strerror(-e));
			goto out_kill;
		}
	}
	return t;

out_kill:
	traffic_kill(t);
	return NULL;
}

static void fail(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct runner *r, const char *fmt, ...)
{
	va_list ap;

	r->failed++;
	if (r->first_error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->first_error, sizeof(r->first_error), fmt, ap);
	va_end(ap);
}

static void keep_failed_output(struct traffic *t, struct runner *r)
{
	char dst[400], *buf;
	size_t len;

	if (!t->o->out || read_file(r->path, &buf, &len))
		return;
	snprintf(dst, sizeof(dst), "%s/%s-run%u-failed.out", t->o->out, r->name, r->runs);
	write_file(dst, buf, len);
	free(buf);
}

static void collect_iperf(struct traffic *t, struct runner *r, int status)
{
	struct json_object *j, *end, *sum, *bytes, *e;
	char *buf;

	if (read_file(r->path, &buf, NULL)) {
		fail(r, "run %u: no output", r->runs);
		return;
	}
	j = json_tokener_parse(buf);
	free(buf);
	/* iperf3 3.12 -J can exit 0 after "unable to connect": the error key counts */
	if (status || (j && json_object_object_get_ex(j, "error", &e))) {
		const char *msg = "no JSON";

		if (j && json_object_object_get_ex(j, "error", &e))
			msg = json_object_get_string(e);
		fail(r, "run %u: exit status %d: %s", r->runs, status, msg);
		keep_failed_output(t, r);
	} else if (j && json_object_object_get_ex(j, "end", &end) &&
		   json_object_object_get_ex(end, "sum_received", &sum) &&
		   json_object_object_get_ex(sum, "bytes", &bytes)) {
		r->bytes += json_object_get_int64(bytes);
	} else {
		fail(r, "run %u: exit status 0 but no end.sum_received.bytes", r->runs);
		keep_failed_output(t, r);
	}
	json_object_put(j);
}

static void collect_ping(struct traffic *t, struct runner *r, int status)
{
	unsigned long long tx = 0, rx = 0;
	char *buf;

	if (read_file(r->path, &buf, NULL)) {
		fail(r, "run %u: no output", r->runs);
		return;
	}
	parse_ping(buf, &tx, &rx);
	free(buf);
	r->bytes += tx;
	r->replies += rx;
	if (status || !tx) {
		fail(r, "run %u: exit status %d, %llu sent, %llu received", r->runs, status, tx,
		     rx);
		keep_failed_output(t, r);
	}
}

void traffic_poll(struct traffic *t, bool keep_going)
{
	unsigned int i;
	int st, r;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		struct runner *rn = &t->r[i];

		if (!rn->pid)
			continue;
		r = proc_poll(rn->pid, &st);
		if (r == 1) {
			/* a client that hangs well past its time is a failure */
			if (now_sec() - rn->started > t->o->flow_time + 60) {
				kill(rn->pid, SIGKILL);
				proc_wait(rn->pid, 5);
				rn->pid = 0;
				rn->runs++;
				fail(rn, "run %u: still running %u s after its end, killed",
				     rn->runs, 60);
			}
			continue;
		}
		rn->pid = 0;
		rn->runs++;
		if (r < 0)
			fail(rn, "run %u: wait: %s", rn->runs, strerror(-r));
		else if (rn->kind == K_IPERF)
			collect_iperf(t, rn, st);
		else
			collect_ping(t, rn, st);
		if (keep_going && !t->stopping && start_client(t, rn))
			fail(rn, "run %u: cannot start", rn->runs + 1);
	}
}

void traffic_finish(struct traffic *t)
{
	unsigned int i;
	bool busy;
	double end;

	if (!t)
		return;
	t->stopping = true;
	end = now_sec() + t->o->flow_time + 90;
	do {
		traffic_poll(t, false);
		busy = false;
		for (i = 0; i < t->n; i++)
			busy |= t->r[i].pid != 0;
		if (busy)
			usleep(50000);
	} while (busy && now_sec() < end && !brnf_stop);
	traffic_kill(t);
}

void traffic_kill(struct traffic *t)
{
	unsigned int i;
	char cmd[100];

	if (!t)
		return;
	for (i = 0; i < ARRAY_SIZE(t->r); i++) {
		struct runner *r = &t->r[i];

		if (r->pid) {
			kill(r->pid, SIGKILL);
			proc_wait(r->pid, 5);
			r->pid = 0;
			r->runs++;
			fail(r, "run %u: killed at the end of the storm", r->runs);
		}
		if (r->server > 0) {
			kill(r->server, SIGTERM);
			if (proc_wait(r->server, 5) < 0) {
				kill(r->server, SIGKILL);
				proc_wait(r->server, 5);
			}
			r->server = 0;
		}
	}
	if (t->tmp[0]) {
		snprintf(cmd, sizeof(cmd), "%s", t->tmp);
		if (!rm_rf(cmd))
			journal_drop(t->journal);	/* else the next replay tries */
		t->tmp[0] = '\0';
	}
}

unsigned int traffic_report(struct traffic *t, FILE *f, unsigned long long *bytes)
{
	unsigned int i, failed = 0;

	*bytes = 0;
	if (!t) {
		fprintf(f, "traffic: none\n");
		return 0;
	}
	for (i = 0; i < t->n; i++) {
		struct runner *r = &t->r[i];

		if (r->kind == K_IPERF) {
			fprintf(f, "flow %-22s %4u runs, %u failed, %llu bytes received\n",
				r->name, r->runs, r->failed, r->bytes);
			*bytes += r->bytes;
		} else {
			fprintf(f, "flow %-22s %4u runs, %u failed, %llu echo requests, "
				"%llu replies\n", r->name, r->runs, r->failed, r->bytes,
				r->replies);
		}
		if (r->first_error[0])
			fprintf(f, "  first failure of %s: %s\n", r->name, r->first_error);
		failed += r->failed;
		if (!r->runs) {
			fprintf(f, "  %s never completed a run\n", r->name);
			failed++;
		}
	}
	return failed;
}
