/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iperf3 flows across the rig. Servers run on the pc roles, clients on the sta
 * roles (flow i: the i-th of each, round robin), one server per flow on ports
 * port0, port0+1, ...; on an ssh host over the shared connection; upload (sta -> pc) is a
 * plain client, download (pc -> sta) a client with -R, so the receiver's rate
 * is always in the client's -J output (end.sum_received).
 */
#ifndef BRNF_IPERF_H
#define BRNF_IPERF_H

#include <stdbool.h>
#include "host.h"

#define IPERF_PORT0 5201
#define IPERF_MAX_FLOWS 64

struct flow_opts {
	unsigned int nflows;
	unsigned int time;	/* -t; with bytes: the most a flow may take */
	unsigned int omit;	/* -O (not with bytes) */
	bool reverse;		/* -R: download */
	unsigned long bytes;	/* -n: this many bytes per flow instead of -t (0: -t) */
};

/*
 * Start the servers, wait until they listen, start all clients together,
 * wait for them (time + omit + a margin) and save each client's output as
 * <dir>/flow-<i>.json. bps[i] = received rate of flow i. A failed flow is one
 * line naming it and -EIO; -EINTR when brnf_stop was set.
 */
struct flow_hosts {
	const struct host *server, *client;
	const char *addr;	/* the server's address (rig file addr=) */
};

int flows_run(const struct flow_hosts *fh, const struct flow_opts *o, const char *dir,
	      double *bps);
/* "iperf 3.12" (first line of iperf3 --version); -ENOENT when not installed. */
int iperf_version(char *buf, size_t len);

#endif
