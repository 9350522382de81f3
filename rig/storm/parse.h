/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The storm's readers of what the kernel and the tools print: /dev/kmsg records,
 * `nft list hooks`, an RTM_GETLINK dump (through nl.h), ping's summary. Pure functions,
 * fuzzed by rig/storm/fuzz/fuzz_storm_parse.c.
 */
#ifndef BRNF_STORM_PARSE_H
#define BRNF_STORM_PARSE_H

#include <stdbool.h>

#include "matrix.h"

#define MAX_BRIDGES 64

/* The switches and bridges of a namespace, from a link dump and /proc/sys. */
struct ap_state {
	bool global[BRNF_NFAMILIES];
	unsigned int nbridges;
	unsigned int nflagged;		/* bridges with any nf_call_* set */
	char names[MAX_BRIDGES][16];	/* "br-lan*": * = some nf_call_* set */
	unsigned int nlinks_extra;	/* links named ss* */
	char extra[MAX_BRIDGES * 2][16];
};

struct nlmsghdr;
/* nl_msg_cb (nl.h) for the RTM_NEWLINK messages of a dump (link_msg_read()); data is a
 * struct ap_state. A message whose attributes are cut short or not of their type
 * stops the dump with its error. */
int parse_link_dump(const struct nlmsghdr *nlh, void *data);

struct hooks {
	bool supported;		/* our own nft bridge chain "brnfstorm" was listed */
	bool pre;		/* br_nf_pre_routing */
	unsigned int nbrnf;	/* lines naming a br_netfilter hook function */
	bool complete;		/* pre, local_in, forward, post_routing, ip_sabotage_in */
};

/* `nft list hooks` output (modified in place; NULL ok) into h. */
void parse_hooks(char *text, struct hooks *h);

#define SPLAT_NONE 1000
#define SPLAT_TRACE 1001
extern const char *const splat_patterns[];	/* NULL terminated */
/*
 * One /dev/kmsg record "pri,seq,ts,flags;message\n[ continuation...]" (NUL
 * terminated, modified in place): *ts in microseconds, *msg the first line.
 * Returns -1 if it is no record, else the index of the splat pattern that
 * matched, SPLAT_TRACE for a bare "Call Trace:", SPLAT_NONE otherwise.
 */
int parse_kmsg_record(char *rec, unsigned long long *ts, char **msg);

/* "N packets transmitted, M received" in ping's output; 0 or -1 if absent. */
int parse_ping(const char *text, unsigned long long *tx, unsigned long long *rx);

#endif
