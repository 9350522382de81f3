/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run measures (the one list of workload names, shared by the run side and
 * the data side; libc only):
 *
 *   tcp        the seed's: N parallel iperf3 flows for a fixed time; Mbit/s
 *   tcp-bytes  N parallel iperf3 flows, a fixed number of bytes each; Mbit/s
 *   pps64      kernel pktgen, a fixed count of 64-byte frames (60 + FCS), UDP; ns/packet
 *   pps1514    the same with MTU-sized frames (1514 + FCS); ns/packet
 *
 * Under QEMU -icount shift=0,sleep=off, a guest nanosecond is one instruction while
 * the CPU is busy, and pktgen keeps it busy: ns/packet is instructions per packet.
 */
#ifndef BRNF_WORKLOAD_H
#define BRNF_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

enum brnf_workload { WL_TCP, WL_TCP_BYTES, WL_PPS64, WL_PPS1514, WL_N };

extern const char *const brnf_workload_names[WL_N];

/* The workload called name, or -EINVAL. */
int workload_find(const char *name);
/* pktgen's pkt_size (the frame without its FCS) of a pps workload, 0 for the others. */
unsigned int workload_pkt_size(enum brnf_workload w);
static inline bool workload_is_pps(enum brnf_workload w)
{
	return workload_pkt_size(w) != 0;
}
/* "pps64,tcp" -> the workloads in the order given, each at most once, in order[0..*n).
 * 0, or -EINVAL with "what is wrong" in err. */
int workload_parse_list(const char *list, unsigned int order[WL_N], unsigned int *n,
			char *err, size_t errlen);

#endif
