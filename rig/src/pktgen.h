/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pps workloads: the kernel's packet generator (Documentation/networking/pktgen.rst)
 * sends a fixed count of UDP frames of one size from the sender's link, addressed to the
 * receiver through the AP (dst_mac: the sender's gateway, the AP's bridge), as fast as
 * the CPU allows. The receiver drops them in an nftables netdev ingress chain that also
 * counts them (table netdev brnf_sink, in the receiver's namespace only, made before the
 * run and deleted after it). Nothing is loaded in the AP.
 *
 * pktgen runs in a kernel thread and hands each frame to the veth, whose peer's
 * receive path (the AP's bridge, routing, the other bridge, the receiver's ingress)
 * runs in the same softirq: on one CPU the run's elapsed time is the time of the whole
 * path for every frame, which under QEMU -icount shift=0,sleep=off is its instruction
 * count.
 */
#ifndef BRNF_PKTGEN_H
#define BRNF_PKTGEN_H

#include <stdbool.h>
#include <stdint.h>
#include "host.h"

/* UDP source and destination port of the frames: discard (RFC 863), so nothing answers
 * a stray one. Both ways use it: the flow is one conntrack entry. */
#define PKTGEN_UDP_PORT 9

struct pktgen_opts {
	const struct host *tx, *rx;
	const char *tx_dev;		/* the sender's link */
	const char *rx_dev;		/* the receiver's link (the sink's device) */
	const char *dst_ip;		/* the receiver's IPv4 address */
	const char *dst_mac;		/* "02:00:..", the sender's gateway */
	unsigned int pkt_size;		/* pktgen pkt_size: the frame without FCS */
	unsigned long count;
	const struct pktgen_opts *reply;	/* the way back, for the priming frames;
						 * NULL: no priming */
};

struct pktgen_result {
	uint64_t sent;			/* pktgen's count of frames sent */
	uint64_t received;		/* counted by the receiver's sink */
	uint64_t errors;		/* pktgen's transmit errors */
	uint64_t elapsed_us;		/* pktgen's elapsed time of the run */
	char result[256];		/* pktgen's "Result:" text, on one line */
	bool primed;			/* one frame each way went first */
};

/* Does h have pktgen (/proc/net/pktgen/pgctrl)? */
bool pktgen_available(const struct host *h);
/* The same: 0, or -ENOENT after one line saying what is missing. */
int pktgen_check(const struct host *h);
/* One run, primed when o->reply is set. 0, or -errno after one line (pktgen refused a
 * parameter, its result is not OK, a priming frame did not arrive, the sink did not
 * load or could not be read). */
int pktgen_send(const struct pktgen_opts *o, struct pktgen_result *res);
/* The priming alone: one frame of o, then one of o->reply, each counted by a sink at
 * its receiver (made and removed here). */
int pktgen_prime(const struct pktgen_opts *o);
/* Parse pktgen's device file: its "Result: OK: ..." part. 0 or -EINVAL. */
int pktgen_parse_result(const char *text, struct pktgen_result *res);

#endif
