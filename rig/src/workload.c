// SPDX-License-Identifier: GPL-2.0
/* The workload names (workload.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload.h"

const char *const brnf_workload_names[WL_N] = {
	[WL_TCP] = "tcp",
	[WL_TCP_BYTES] = "tcp-bytes",
	[WL_PPS64] = "pps64",
	[WL_PPS1514] = "pps1514",
};

int workload_find(const char *name)
{
	unsigned int w;

	for (w = 0; w < WL_N; w++)
		if (!strcmp(name, brnf_workload_names[w]))
			return w;
	return -EINVAL;
}

unsigned int workload_pkt_size(enum brnf_workload w)
{
	switch (w) {
	case WL_PPS64:
		return 60;
	case WL_PPS1514:
		return 1514;
	default:
		return 0;
	}
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
			snprintf(err, errlen, "unknown workload '%s' (tcp, tcp-bytes, pps64, pps1514)",
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
