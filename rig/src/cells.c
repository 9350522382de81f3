// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf run`'s matrix loop (run.h): for rep in 1..R, for each row, for each
 * direction (interleaved, so that drift does not favour a row), one cell:
 * configure the AP, zero the counters, run the flows, read the counters back,
 * judge and write record.json.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "progress.h"
#include "record.h"
#include "rowcfg.h"
#include "run.h"
#include "util.h"

static const char *const directions[] = { "download", "upload" };

static enum verdict judge(const struct run *r, struct verification *v, bool mismatch)
{
	unsigned int b;

	if (mismatch)
		return VERDICT_NO;
	if (r->mode != VERIFY_PHYSDEV)
		return VERDICT_NA;
	for (b = 0; b < BRNF_NBRIDGES; b++)
		if (v->expected[b] != (v->packets[b] > 0))
			return VERDICT_NO;
	return VERDICT_YES;
}

/* One cell: row i, direction d, repetition rep. */
static int run_one(struct run *r, size_t i, unsigned int d, unsigned int rep)
{
	struct flow_opts fo = { r->c.flows, r->c.time, r->c.omit, d == 0 };
	struct record rec = {
		.row = &r->rows[i], .index = i, .source = r->source[i],
		.direction = directions[d], .repetition = rep, .order = r->order,
		.nflows = r->c.flows, .port0 = IPERF_PORT0,
	};
	double bps[IPERF_MAX_FLOWS] = {}, sum = 0;
	char dir[1400], key[256], rates[256] = "";
	bool mismatch = false;
	unsigned int k, n = 0;
	int err;

	row_key(&r->rows[i], key, sizeof(key));
	progress_cell(r->order + 1, key);
	err = rowcfg_apply(&r->ap, &r->rows[i], r->source[i], r->mode, &rec.rb, &mismatch);
	if (!err)
		err = results_run_dir(&r->res, r->order, directions[d], dir, sizeof(dir));
	if (!err)
		err = verify_zero(&r->ap.h);
	if (!err)
		err = flows_run(r->fh, &fo, dir, bps);
	if (!err)
		err = verify_read(&r->ap.h, r->ap.port, r->mode, rec.v.packets);
	if (err)
		return err;
	rowcfg_expected(&r->rows[i], rec.v.expected);
	rec.v.result = judge(r, &rec.v, mismatch);
	err = record_write(dir, &rec);
	if (err)
		return err;
	for (k = 0; k < r->c.flows; k++) {
		sum += bps[k];
		n += snprintf(rates + n, sizeof(rates) - n, "%s%.1f", k ? " " : "", bps[k] / 1e6);
		if (n >= sizeof(rates))
			break;
	}
	/* expect=mismatch rows document a design that ignores its configuration:
	 * there "no" is the result and "yes" the failure */
	if ((rec.v.result == VERDICT_NO) != r->rows[i].expect_mismatch)
		r->mismatches++;
	progress_line("%4u %-8s rep %u  %8.1f Mbit/s (%s)  verify %s (%s %" PRIu64 ", %s %" PRIu64
		      ")  %s", r->order + 1, directions[d], rep, sum / 1e6, rates,
		      verdict_names[rec.v.result], brnf_bridge_names[0], rec.v.packets[0],
		      brnf_bridge_names[1], rec.v.packets[1], key);
	if (rec.v.result == VERDICT_NO)
		pr_err("filtering verification failed for row %s (%s rep %u): expected "
		       "iptables on %s %s, on %s %s; counted %" PRIu64 " and %" PRIu64 " packets",
		       r->source[i], directions[d], rep, brnf_bridge_names[0],
		       rec.v.expected[0] ? "yes" : "no", brnf_bridge_names[1],
		       rec.v.expected[1] ? "yes" : "no", rec.v.packets[0], rec.v.packets[1]);
	r->order++;
	return 0;
}

int run_cells(struct run *r)
{
	unsigned int rep, d;
	size_t i;
	int err;

	progress_init(r->c.reps * r->nran * ARRAY_SIZE(directions),
		      r->c.time + r->c.omit + 1.5);
	for (rep = 1; rep <= r->c.reps; rep++)
		for (i = 0; i < r->m.nrows; i++) {
			if (!r->ran[i])
				continue;
			for (d = 0; d < ARRAY_SIZE(directions); d++) {
				if (brnf_stop)
					return -EINTR;
				err = run_one(r, i, d, rep);
				if (err)
					return brnf_stop ? -EINTR : err;
			}
		}
	progress_end();
	return 0;
}
