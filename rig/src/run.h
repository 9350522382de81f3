/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `brnf run`, shared by its three files: cmd_run.c (options, the order of a run,
 * the end), preflight.c (tools, hosts, the AP and every ruleset checked before
 * anything is measured) and cells.c (the matrix loop, one cell at a time).
 */
#ifndef BRNF_RUN_H
#define BRNF_RUN_H

#include <stdbool.h>
#include "apctl.h"
#include "host.h"
#include "iperf.h"
#include "matrix.h"
#include "results.h"
#include "rigfile.h"
#include "testbed.h"
#include "verify.h"
#include "workload.h"

struct run_cfg {
	const char *matrix;
	const char *rig;
	unsigned long flows, time, omit, reps;
	const char *workloads;	/* --workloads (NULL: pps64,pps1514,tcp where pktgen is) */
	unsigned long packets;	/* --packets: frames per pps run */
	unsigned long bytes;	/* --bytes: bytes per flow of a tcp-bytes run */
	bool offloads;
	bool dynamic_neigh;	/* --neighbours dynamic */
	bool verify_before;	/* --verify before: the verification pass comes first */
	bool fresh_testbed;	/* --fresh-testbed: each repetition on the test bed built anew */
	bool order_rows;	/* --order rows: every repetition of a row before the next row */
	const char *repeat_workloads;	/* --repeat-workloads: what repetitions 2..R measure */
	const char *ruleset;
	const char *out;
	const char *part;
	bool no_render;
	bool json;		/* --json: the JSON summary on stdout, not the tables */
	bool local_ap;		/* --local-ap: the rig's ap may be this machine */
	const char *kernel_label;
	const char *only_kernel;
};

struct run {
	struct run_cfg c;
	char matrix_path[1024];
	struct brnf_matrix m;
	struct brnf_row *rows;		/* as run: kernel label applied */
	char (*source)[1100];		/* "FILE:LINE" per row */
	bool *ran;
	unsigned int nran;
	char rig_path[1024];
	struct rig rig;
	struct host hosts[RIG_MAX_ROLES];
	struct ap ap;
	struct flow_hosts fh[IPERF_MAX_FLOWS];	/* path routed: sta roles -> pc roles */
	/* path=wlan (rows that need it: need_sta2): every flow sta -> sta2, servers in sta2
	 * as they are in pc for routed ones (download with -R, so the receiver's rate is in
	 * the client's output either way) */
	bool need_sta2;
	const struct host *sta2;	/* the rig's sta2 role, or the test bed's sta2 */
	struct rig_role sta2_role;	/* the test bed's sta2 (not a role of its rig file) */
	struct host sta2_host;
	struct flow_hosts fh_wlan[IPERF_MAX_FLOWS];
	struct verify_ports counted;	/* the AP's counted ports (verify.h) */
	bool *unsupported;		/* per matrix row: needs br_netfilter, the AP has none */
	int restore;			/* -1 nothing saved, 0 restored and verified, 1 failed */
	struct ledger undo;		/* every step's undo (cmd_run.c), one unwind */
	struct testbed tb;
	struct claim claim;		/* the run's journal without a test bed (journal.h) */
	struct results res;
	int res_journal;		/* its journal entry, until committed or removed */
	unsigned int wl[WL_N];		/* the workloads, in the order they run */
	unsigned int nwl;
	unsigned int repeat_mask;	/* 1 << workload: measured in repetitions 2..R too */
	enum verify_mode mode;		/* physdev or iif; nft-bridge is a row's (cells.c) */
	bool pktgen;			/* pktgen on the test bed's sta and pc */
	char iperf_ver[64];
	unsigned int mismatches;
	unsigned int order;
	char incomplete[160];		/* a run failed: why; the runs before it are kept */
};

/* preflight.c; nothing is changed anywhere before preflight_rulesets() */
/* iperf3 (and nft, iptables for a namespace AP) on PATH where brnf runs them. */
int preflight_tools(struct run *r);
/* Every role as a host, iperf3 on every sta and pc, the AP probed. */
int preflight_hosts(struct run *r);
/* Rows that need br_netfilter on an AP without it: skipped as unsupported. */
int preflight_rows(struct run *r);
/* The workloads: --workloads checked, pktgen where a pps workload needs it. */
int preflight_workloads(struct run *r);
/* Every ruleset the rows use loaded once, then the counting rules (which physdev
 * or iif) once; nothing stays loaded. */
int preflight_rulesets(struct run *r);

/* The flows of a row's path: r->fh, or r->fh_wlan for path=wlan (preflight.c). */
const struct flow_hosts *run_flows(const struct run *r, const struct brnf_row *row);

/* cells.c: for rep, for row, for workload, for direction, one measured run; then
 * each row's verification pass. -EINTR on a signal. */
int run_cells(struct run *r);

#endif
