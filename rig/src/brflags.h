/* SPDX-License-Identifier: GPL-2.0 */
/* Bridge-netfilter switches: per bridge (link.c, IFLA_BR_NF_CALL_*) and the global
 * sysctls (sysctl.c). */
#ifndef BRNF_BRFLAGS_H
#define BRNF_BRFLAGS_H

#include <stdbool.h>
#include "matrix.h"

struct nl;

/* Set/read nf_call_{iptables,ip6tables,arptables} of bridge over rtnetlink.
 * brflags_get() returns -EOPNOTSUPP (silently) when the kernel does not
 * report them (no CONFIG_BRIDGE_NETFILTER). */
int brflags_set(struct nl *nl, const char *bridge, const bool v[BRNF_NFAMILIES]);
int brflags_get(struct nl *nl, const char *bridge, bool v[BRNF_NFAMILIES]);
/* Set only one family. */
int brflags_set_one(struct nl *nl, const char *bridge, enum brnf_family f, bool v);
/* net.bridge.bridge-nf-call-* of the current namespace. */
int brflags_global_set(const bool v[BRNF_NFAMILIES]);
int brflags_global_get(bool v[BRNF_NFAMILIES]);
/* "iptables" -> BRNF_IPTABLES; -1 if unknown. */
int brflags_family(const char *name);

#endif
