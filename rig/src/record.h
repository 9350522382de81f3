/* SPDX-License-Identifier: GPL-2.0 */
/* record.json (schema 2, read back by raw.c): what one run configured, read back and verified. */
#ifndef BRNF_RECORD_H
#define BRNF_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include "ctflow.h"
#include "matrix.h"
#include "pktgen.h"
#include "testbed.h"
#include "workload.h"

struct readback {
	bool have_global;			/* br_netfilter present */
	bool global[BRNF_NFAMILIES];
	bool have_bridges;			/* kernel reports IFLA_BR_NF_CALL_* */
	bool bridge[BRNF_NBRIDGES][BRNF_NFAMILIES];	/* brnf_bridge_names[] order */
};

enum verdict { VERDICT_NA, VERDICT_YES, VERDICT_NO };
extern const char *const verdict_names[];	/* "n/a", "yes", "no" */

struct verification {
	bool on_path[BRNF_NBRIDGES];	/* the row's path crosses the bridge; a bridge it
					 * does not is recorded "expected": null, not judged */
	bool expected[BRNF_NBRIDGES];
	uint64_t packets[BRNF_NBRIDGES];
	/* rulesets that track connections: the pps flow's entry after priming (ctflow.h) */
	bool flow_checked;
	bool flow_offload_expected;	/* the ruleset has a flowtable */
	struct ct_flow flow;
	enum verdict result;
};

enum record_kind { RECORD_MEASURE, RECORD_VERIFY };

struct record {
	enum record_kind kind;
	const struct brnf_row *row;	/* as run (kernel = the kernel label) */
	unsigned int index;		/* row index in the matrix */
	const char *source;		/* "FILE:LINE" */
	unsigned int order;		/* 0.. run order */
	struct readback rb;
	/* RECORD_MEASURE */
	enum brnf_workload workload;
	const char *direction;		/* "upload" | "download" */
	unsigned int repetition;	/* 1.. */
	unsigned int nflows;		/* tcp, tcp-bytes: flow-<i>.json files */
	unsigned int port0;
	unsigned long bytes_per_flow;	/* tcp-bytes */
	unsigned int pkt_size;		/* pps: pktgen pkt_size */
	unsigned long count;		/* pps: frames asked for */
	struct pktgen_result pg;	/* pps */
	/* RECORD_VERIFY */
	const char *rules;		/* verify_mode_names[]: "physdev", "iif", "nft-bridge" */
	const char *traffic;		/* what crossed the AP while counting */
	struct verification v;
};

/* Write <dir>/record.json (schema 2, rig/README.md "Raw data"). 0 or -errno (with a
 * message). */
int record_write(const char *dir, const struct record *rec);

#endif
