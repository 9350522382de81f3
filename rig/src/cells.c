// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf run`'s matrix loop (run.h).
 *
 * Measured runs: for rep in 1..R (with --fresh-testbed each on the test bed built
 * anew), for each row (interleaved, so that drift does not favour a row); or, with
 * --order rows, for each row, for rep in 1..R (so that what a row leaves on for the
 * rest of the boot, a static key say, reaches only the rows after it). Each time:
 * configure the AP (switches, ruleset), then for each workload and direction one run,
 * with nothing else loaded in the AP: no counting rules, whose per-packet cost would
 * be part of what is measured.
 *
 * Then each row's verification pass, in the same boot: the row configured again, the
 * counting rules loaded, a short flow each way, the counters read, the rules removed;
 * where the ruleset tracks connections, the pps flow primed as a measured run primes it
 * and its conntrack entry read: tracked, and offloaded iff the ruleset has a flowtable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ctflow.h"
#include "pktgen.h"
#include "proc.h"
#include "progress.h"
#include "record.h"
#include "rowcfg.h"
#include "run.h"
#include "util.h"

static const char *const directions[] = { "download", "upload" };

/* The verification pass's traffic: one iperf3 flow of this many bytes each way. */
#define VERIFY_BYTES (1024 * 1024)
#define VERIFY_TRAFFIC "iperf3 -n 1048576, 1 flow, download and upload"
#define VERIFY_TRAFFIC_FLOW VERIFY_TRAFFIC "; then the pps flow primed, conntrack -L"

/* yes when every check that could be made held, n/a when none could; a bridge the
 * row's path does not cross is no check (its count is recorded, not judged) */
static enum verdict judge(enum verify_mode mode, const struct verification *v, bool mismatch)
{
	enum verdict counts = VERDICT_NA, flow = VERDICT_NA;
	unsigned int b;

	if (mismatch)
		return VERDICT_NO;
	if (mode != VERIFY_IIF) {
		counts = VERDICT_YES;
		for (b = 0; b < BRNF_NBRIDGES; b++)
			if (v->on_path[b] && v->expected[b] != (v->packets[b] > 0))
				counts = VERDICT_NO;
	}
	if (v->flow_checked)
		flow = v->flow.tracked && v->flow.offloaded == v->flow_offload_expected ?
		       VERDICT_YES : VERDICT_NO;
	if (counts == VERDICT_NO || flow == VERDICT_NO)
		return VERDICT_NO;
	return counts == VERDICT_YES || flow == VERDICT_YES ? VERDICT_YES : VERDICT_NA;
}

static int run_dir(struct run *r, const char *name, char *dir, size_t len)
{
	return results_run_dir(&r->res, r->order, name, dir, len);
}

/* tcp, tcp-bytes: the flows of the row's path; what = the progress text */
static int measure_flows(struct run *r, struct record *rec, bool download, const char *dir,
			 char *what, size_t len)
{
	struct flow_opts fo = { r->c.flows, r->c.time, r->c.omit, download, 0 };
	double bps[IPERF_MAX_FLOWS] = {}, sum = 0;
	unsigned int k, n;
	int err;

	if (rec->workload == WL_TCP_BYTES)
		fo.bytes = rec->bytes_per_flow = r->c.bytes;
	rec->nflows = r->c.flows;
	rec->port0 = IPERF_PORT0;
	err = flows_run(run_flows(r, rec->row), &fo, dir, bps);
	if (err)
		return err;
	for (k = 0; k < r->c.flows; k++)
		sum += bps[k];
	n = snprintf(what, len, "%8.1f Mbit/s (", sum / 1e6);
	for (k = 0; k < r->c.flows && n < len; k++)
		n += snprintf(what + n, len - n, "%s%.1f", k ? " " : "", bps[k] / 1e6);
	if (n < len)
		snprintf(what + n, len - n, ")");
	return 0;
}

/* The host of a test bed role that sends or receives a pps flow. */
static const struct host *role_host(const struct run *r, enum tb_role role)
{
	return role == TB_STA ? r->fh[0].client : role == TB_STA2 ? r->sta2 : r->fh[0].server;
}

/* pktgen's frames of pkt_size through the test bed one way on path; p holds the
 * strings */
static void pps_way(const struct run *r, enum brnf_path path, bool download,
		    unsigned int pkt_size, unsigned long count, struct tb_path *p,
		    struct pktgen_opts *o)
{
	testbed_path(path, download, p);
	*o = (struct pktgen_opts){ .pkt_size = pkt_size, .count = count };
	o->tx = role_host(r, p->tx);
	o->rx = role_host(r, p->rx);
	o->tx_dev = p->tx_dev;
	o->rx_dev = p->rx_dev;
	o->dst_ip = p->dst_ip;
	o->dst_mac = p->dst_mac;
}

/* The pps flow of a direction with its way back, for the priming frames. */
static void pps_flow(const struct run *r, enum brnf_path path, bool download,
		     unsigned int pkt_size, unsigned long count, struct tb_path p[2],
		     struct pktgen_opts o[2])
{
	pps_way(r, path, download, pkt_size, count, &p[0], &o[0]);
	pps_way(r, path, !download, pkt_size, 1, &p[1], &o[1]);
	o[0].reply = &o[1];
}

/*
 * pps64, pps1514: pktgen through the test bed; where the row's ruleset tracks
 * connections the flow is primed first, so that the timed frames meet an established
 * entry both ways. Without such a ruleset nothing in the AP keeps state about the flow
 * (no rule is loaded while a run measures) and priming would only add two rounds of
 * commands to every run.
 */
static int measure_pps(struct run *r, struct record *rec, bool download, char *what,
		       size_t len)
{
	struct brnf_ruleset info;
	struct pktgen_opts o[2];
	struct tb_path p[2];

	pps_flow(r, rec->row->path, download, brnf_workloads[rec->workload].pkt_size,
		 r->c.packets, p, o);
	row_ruleset_info(rec->row, &info);
	if (!info.conntrack)
		o[0].reply = NULL;
	rec->pkt_size = o[0].pkt_size;
	rec->count = o[0].count;
	if (pktgen_send(&o[0], &rec->pg))
		return -EIO;
	snprintf(what, len, "%8.1f ns/packet (%" PRIu64 " sent, %" PRIu64 " received)",
		 rec->pg.sent ? rec->pg.elapsed_us * 1000.0 / rec->pg.sent : 0.0, rec->pg.sent,
		 rec->pg.received);
	if (rec->pg.received != rec->pg.sent)
		fprintf(stderr, "brnf: row %s %s %s: %" PRIu64 " of %" PRIu64 " frames lost\n",
			r->source[rec->index], brnf_workloads[rec->workload].name,
			rec->direction, rec->pg.sent - rec->pg.received, rec->pg.sent);
	if (rec->pg.errors)
		fprintf(stderr, "brnf: row %s %s %s: pktgen counted %" PRIu64 " transmit errors "
			"(frames sent again): brnf render leaves this run out\n",
			r->source[rec->index], brnf_workloads[rec->workload].name,
			rec->direction, rec->pg.errors);
	return 0;
}

/* One measured run: row i (configured), workload w, direction d, repetition rep. */
static int measure(struct run *r, size_t i, const struct readback *rb, enum brnf_workload w,
		   unsigned int d, unsigned int rep)
{
	struct record rec = {
		.kind = RECORD_MEASURE, .row = &r->rows[i], .index = i, .source = r->source[i],
		.order = r->order, .rb = *rb, .workload = w, .direction = directions[d],
		.repetition = rep,
	};
	char dir[1400], name[64], key[256], what[256];
	int err;

	row_key(&r->rows[i], key, sizeof(key));
	snprintf(name, sizeof(name), "%s-%s", brnf_workloads[w].name, directions[d]);
	progress_cell(r->order + 1, key);
	err = run_dir(r, name, dir, sizeof(dir));
	if (!err && workload_is_pps(w))
		err = measure_pps(r, &rec, d == 0, what, sizeof(what));
	else if (!err)
		err = measure_flows(r, &rec, d == 0, dir, what, sizeof(what));
	if (!err)
		err = record_write(dir, &rec);
	if (err)
		return err;
	progress_line("%4u %-9s %-8s rep %u  %s  %s", r->order + 1, brnf_workloads[w].name,
		      directions[d], rep, what, key);
	r->order++;
	return 0;
}

/* The pps flow of the row's path forgotten, primed under the row's ruleset and its
 * conntrack entry read. */
static int verify_flow(struct run *r, enum brnf_path path, const struct brnf_ruleset *info,
		       struct verification *v)
{
	struct pktgen_opts o[2];
	struct tb_path p[2];
	int err;

	pps_flow(r, path, true, brnf_workloads[WL_PPS64].pkt_size, 1, p, o);
	v->flow_checked = true;
	v->flow_offload_expected = info->flowtable;
	err = ct_flow_forget(&r->ap.h);
	if (!err)
		err = pktgen_prime(&o[0]);
	if (!err)
		err = ct_flow_read(&r->ap.h, &v->flow);
	return err;
}

/* "yes", "no", or "n/a (not on the path)" */
static const char *expected_text(const struct verification *v, unsigned int b)
{
	return !v->on_path[b] ? "n/a (not on the path)" : v->expected[b] ? "yes" : "no";
}

static void verify_failed(const struct run *r, size_t i, enum verify_mode mode,
			  const struct record *rec)
{
	const struct verification *v = &rec->v;

	pr_err("filtering verification %s for row %s: expected %s on %s %s, on %s %s; "
	       "counted %" PRIu64 " and %" PRIu64 " packets%s%s%s%s",
	       r->rows[i].expect_mismatch ? "said no, as expected," : "failed",
	       r->source[i], mode == VERIFY_NFT_BRIDGE ? "the bridge filter" : "iptables",
	       brnf_bridge_names[0], expected_text(v, 0),
	       brnf_bridge_names[1], expected_text(v, 1), v->packets[0],
	       v->packets[1], v->flow_checked ? "; the pps flow: expected " : "",
	       v->flow_checked ? (v->flow_offload_expected ? "offloaded" : "tracked") : "",
	       v->flow_checked ? ", conntrack has " : "",
	       !v->flow_checked ? "" : !v->flow.tracked ? "no entry" :
	       v->flow.offloaded ? "it offloaded" : "it, not offloaded");
}

/* Row i's verification pass (see the top of this file). */
static int verify_row(struct run *r, size_t i)
{
	struct brnf_ruleset info;
	enum verify_mode mode;
	struct record rec = {
		.kind = RECORD_VERIFY, .row = &r->rows[i], .index = i, .source = r->source[i],
		.order = r->order, .traffic = VERIFY_TRAFFIC,
	};
	char dir[1400], sub[1500], key[256];
	double bps[1];
	bool mismatch = false;
	unsigned int d;
	int err;

	row_ruleset_info(&r->rows[i], &info);
	mode = info.bridge[0] || info.bridge[1] ? VERIFY_NFT_BRIDGE : r->mode;
	rec.rules = verify_mode_names[mode];
	row_key(&r->rows[i], key, sizeof(key));
	progress_cell(r->order + 1, key);
	err = rowcfg_apply(&r->ap, &r->rows[i], r->source[i], &rec.rb, &mismatch);
	if (!err)
		err = run_dir(r, "verify", dir, sizeof(dir));
	if (!err)
		err = verify_install(&r->ap.h, &r->counted, mode);
	for (d = 0; d < ARRAY_SIZE(directions) && !err; d++) {
		struct flow_opts fo = { 1, r->c.time, 0, d == 0, VERIFY_BYTES };

		snprintf(sub, sizeof(sub), "%s/%s", dir, directions[d]);
		err = mkdir_new(sub);
		if (err)
			pr_err("mkdir %s: %s", sub, strerror(-err));
		if (!err)
			err = flows_run(run_flows(r, &r->rows[i]), &fo, sub, bps);
	}
	if (!err)
		err = verify_read(&r->ap.h, &r->counted, mode, rec.v.packets);
	if (!err && info.conntrack && r->pktgen) {
		rec.traffic = VERIFY_TRAFFIC_FLOW;
		err = verify_flow(r, r->rows[i].path, &info, &rec.v);
	}
	if (!err)
		err = verify_remove(&r->ap.h, mode);
	if (err)
		return err;
	rowcfg_expected(&r->rows[i], rec.v.expected);
	for (d = 0; d < BRNF_NBRIDGES; d++)
		rec.v.on_path[d] = brnf_path_crosses(r->rows[i].path, d);
	rec.v.result = judge(mode, &rec.v, mismatch);
	err = record_write(dir, &rec);
	if (err)
		return err;
	/* expect=mismatch rows document a design that ignores its configuration:
	 * there "no" is the result and "yes" the failure */
	if ((rec.v.result == VERDICT_NO) != r->rows[i].expect_mismatch)
		r->mismatches++;
	progress_line("%4u verify    %s (%s %" PRIu64 "%s, %s %" PRIu64 "%s packets counted"
		      "%s%s)  %s",
		      r->order + 1, verdict_names[rec.v.result], brnf_bridge_names[0],
		      rec.v.packets[0], rec.v.on_path[0] ? "" : " off the path",
		      brnf_bridge_names[1], rec.v.packets[1],
		      rec.v.on_path[1] ? "" : " off the path",
		      rec.v.flow_checked ? "; pps flow " : "",
		      !rec.v.flow_checked ? "" : !rec.v.flow.tracked ? "not tracked" :
		      rec.v.flow.offloaded ? "offloaded" : "tracked", key);
	if (rec.v.result == VERDICT_NO)
		verify_failed(r, i, mode, &rec);
	r->order++;
	return 0;
}

/* Seconds one measured run is expected to take, for the first ETA. */
static double run_estimate(const struct run *r)
{
	double s = 0;
	unsigned int k;

	for (k = 0; k < r->nwl; k++)
		s += r->wl[k] == WL_TCP ? r->c.time + r->c.omit + 1.5 : 3;
	return s / r->nwl;
}

static int verify_rows(struct run *r)
{
	size_t i;
	int err;

	for (i = 0; i < r->m.nrows; i++) {
		if (!r->ran[i])
			continue;
		err = brnf_stop ? -EINTR : verify_row(r, i);
		if (err)
			return brnf_stop ? -EINTR : err;
	}
	return 0;
}

/* The namespace test bed built again (--fresh-testbed), between two repetitions (of
 * one row or, with --order rows, of two); whatever ran in it killed first. */
static int testbed_again(struct run *r)
{
	int err;

	proc_kill_all();
	err = testbed_renew(&r->tb);
	if (err)
		pr_err("the test bed could not be built again (--fresh-testbed)");
	return err;
}

/* Repetition rep of row i: the AP configured, then each workload and direction (those
 * that --repeat-workloads leaves to repetitions after the first only in the first). */
static int measure_row(struct run *r, size_t i, unsigned int rep)
{
	struct readback rb;
	unsigned int k, d;
	bool mismatch;
	int err;

	if (brnf_stop)
		return -EINTR;
	/* a read-back that differs is said here and judged in the row's verification pass */
	err = rowcfg_apply(&r->ap, &r->rows[i], r->source[i], &rb, &mismatch);
	for (k = 0; k < r->nwl && !err; k++) {
		if (rep > 1 && !(r->repeat_mask & (1u << r->wl[k])))
			continue;	/* --repeat-workloads */
		for (d = 0; d < ARRAY_SIZE(directions) && !err; d++)
			err = brnf_stop ? -EINTR : measure(r, i, &rb, r->wl[k], d, rep);
	}
	return brnf_stop && err ? -EINTR : err;
}

/* Before the nth repetition of the run (n > 1: on the test bed built anew, with
 * --fresh-testbed). */
static int next_rep(struct run *r, unsigned int nth)
{
	if (nth == 1 || !r->c.fresh_testbed)
		return 0;
	return brnf_stop ? -EINTR : testbed_again(r);
}

int run_cells(struct run *r)
{
	unsigned int rep;
	size_t i;
	int err;

	/* preflight_workloads() left in repeat_mask only the run's workloads */
	progress_init(r->nran * ARRAY_SIZE(directions) *
		      (r->nwl + (r->c.reps - 1) * __builtin_popcount(r->repeat_mask)) + r->nran,
		      run_estimate(r));
	err = r->c.verify_before ? verify_rows(r) : 0;
	if (err)
		return err;
	if (r->c.order_rows) {
		/* rows first; a row's repetition 1 after another row's last one is a
		 * repetition after the first too: on a test bed built anew */
		unsigned int done = 0;

		for (i = 0; i < r->m.nrows && !err; i++) {
			if (!r->ran[i])
				continue;
			for (rep = 1; rep <= r->c.reps && !err; rep++) {
				err = next_rep(r, ++done);
				if (!err)
					err = measure_row(r, i, rep);
			}
		}
	} else {
		for (rep = 1; rep <= r->c.reps && !err; rep++) {
			err = next_rep(r, rep);
			for (i = 0; i < r->m.nrows && !err; i++)
				if (r->ran[i])
					err = measure_row(r, i, rep);
		}
	}
	if (err)
		return err;
	err = r->c.verify_before ? 0 : verify_rows(r);
	if (err)
		return err;
	progress_end();
	return 0;
}
