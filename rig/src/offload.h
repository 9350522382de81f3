/* SPDX-License-Identifier: GPL-2.0 */
/* Segmentation offloads (TSO, GSO, GRO) of a link, over SIOCETHTOOL. */
#ifndef BRNF_OFFLOAD_H
#define BRNF_OFFLOAD_H

#include <stdbool.h>

enum offload { OFFLOAD_TSO, OFFLOAD_GSO, OFFLOAD_GRO, OFFLOAD_N };
extern const char *const offload_names[OFFLOAD_N];	/* "tso", "gso", "gro" */

/* Switch all of them on or off on ifname in the current (brnf) namespace. */
int offload_set(const char *ifname, bool on);
/* Read them back. */
int offload_get(const char *ifname, bool v[OFFLOAD_N]);

#endif
