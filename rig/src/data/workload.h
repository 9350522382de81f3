/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run measures: the one list of workloads, shared by the run side (brnf run)
 * and the data side (raw.c, the tables); libc only.
 *
 *   pps64      kernel pktgen, a fixed count of 64-byte frames (60 + FCS), UDP; ns/packet
 *   pps1514    the same with MTU-sized frames (1514 + FCS); ns/packet
 *   tcp-bytes  N parallel iperf3 flows, a fixed number of bytes each; Mbit/s
 *   tcp        the seed's: N parallel iperf3 flows for a fixed time; Mbit/s
 *
 * Under QEMU -icount shift=0,sleep=off, a guest nanosecond is one instruction while
 * the CPU is busy, and pktgen keeps it busy: ns/packet is instructions per packet.
 */
#ifndef BRNF_WORKLOAD_H
#define BRNF_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

/* In the order the tables show them: packet rate first (routers are packet-rate bound),
 * the seed's TCP table last. */
enum brnf_workload { WL_PPS64, WL_PPS1514, WL_TCP_BYTES, WL_TCP, WL_N };

struct workload_info {
	const char *name;		/* as in record.json and the run directory name */
	const char *unit;		/* of a run's value */
	bool lower_better;		/* ns/packet: lower is better */
	unsigned int pkt_size;		/* pktgen pkt_size of a pps workload, 0 otherwise */
	const char *what;		/* one line for the tables */
};

extern const struct workload_info brnf_workloads[WL_N];

/* The workload called name, or -EINVAL. */
int workload_find(const char *name);
static inline bool workload_is_pps(enum brnf_workload w)
{
	return brnf_workloads[w].pkt_size != 0;
}
/* The set of workloads wl[0..n) as a mask, 1 << workload each. */
static inline unsigned int workload_mask(const unsigned int *wl, unsigned int n)
{
	unsigned int m = 0;

	while (n--)
		m |= 1u << wl[n];
	return m;
}
/* "pps64,tcp" -> the workloads in the order given, each at most once, in order[0..*n).
 * 0, or -EINVAL with "what is wrong" in err. */
int workload_parse_list(const char *list, unsigned int order[WL_N], unsigned int *n,
			char *err, size_t errlen);

#endif
