// SPDX-License-Identifier: GPL-2.0
/* The workload names (workload.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload.h"

const struct workload_info brnf_workloads[WL_N] = {
	[WL_PPS64] = { "pps64", "ns/packet", true, 60,
		       "kernel pktgen, a fixed count of 64-byte frames (UDP, one flow)" },
	[WL_PPS1514] = { "pps1514", "ns/packet", true, 1514,
			 "kernel pktgen, a fixed count of 1518-byte frames (UDP, one flow)" },
	[WL_TCP_BYTES] = { "tcp-bytes", "Mbit/s", false, 0,
			   "parallel iperf3 TCP flows, a fixed number of bytes each" },
	[WL_TCP] = { "tcp", "Mbit/s", false, 0,
		     "parallel iperf3 TCP flows for a fixed time (the seed's)" },
};

int workload_find(const char *name)
{
	unsigned int w;

	for (w = 0; w < WL_N; w++)
		if (!strcmp(name, brnf_workloads[w].name))
			return w;
	return -EINVAL;
}

int workload_parse_list(const char *list, unsigned int order[WL_N], unsigned int *n,
			char *err, size_t errlen)
{
	const char *p = list, *e;
	char name[32];
	unsigned int i;
	int w;

	*n = 0;
	do {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (e == p || (size_t)(e - p) >= sizeof(name)) {
			snprintf(err, errlen, "'%s': an empty or overlong name", list);
			return -EINVAL;
		}
		memcpy(name, p, e - p);
		name[e - p] = '\0';
		w = workload_find(name);
		if (w < 0) {
			snprintf(err, errlen, "unknown workload '%s' (pps64, pps1514, tcp-bytes, tcp)",
				 name);
			return -EINVAL;
		}
		for (i = 0; i < *n; i++)
			if (order[i] == (unsigned int)w) {
				snprintf(err, errlen, "workload '%s' given twice", name);
				return -EINVAL;
			}
		order[(*n)++] = w;
		p = *e ? e + 1 : e;
	} while (*e);
	return 0;
}
