// SPDX-License-Identifier: GPL-2.0
/*
 * render: tables from a results directory's raw data alone, see render.h.
 *
 * raw.c reads the runs; this file groups them into rows (by row_key(), in order of
 * row.index, then first appearance) and cells (row, workload, direction), computes each
 * cell's statistics over its units (stats_units(): the parts' means when its runs come
 * from two or more parts, else the runs), its change against the baseline row and
 * whether the change's 95% half-width reached the target, and each row's filtering
 * verification. Then it fills the tables (table.c): per workload a main table (text
 * forms only), and one cell table for every form: its text columns are the spread
 * tables, its data columns are matrix.csv and matrix.json.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "errbuf.h"
#include "raw.h"
#include "render.h"
#include "stats.h"
#include "table.h"

#define CV_MARK_LIMIT 0.03	/* mark cells whose units' CV exceeds 3% */
#define CV_MARK "†"
#define LOST_MARK "‡"		/* pps cells with runs whose received != sent */
#define DETECT_CHANGE 0.02	/* repetitions needed to detect a 2% change */

enum rverify {
	RV_NA, RV_YES, RV_NO, RV_PARTIAL, RV_READBACK, RV_NO_EXPECTED, RV_YES_UNEXPECTED,
	RV_MISSING,
};
static const char *const rverify_names[] = {
	[RV_NA] = "n/a", [RV_YES] = "yes", [RV_NO] = "no", [RV_PARTIAL] = "partial",
	[RV_READBACK] = "no (readback)",
	[RV_NO_EXPECTED] = "no (expected)", [RV_YES_UNEXPECTED] = "yes (expected no)",
	[RV_MISSING] = "missing",
};

static bool verify_failed(enum rverify v)
{
	return v == RV_NO || v == RV_READBACK || v == RV_YES_UNEXPECTED;
}

struct rcell {
	double *v;		/* one value per run, in run order */
	size_t *vpart;		/* the part of each run */
	size_t *vrun;		/* each run's index in raw.runs */
	size_t n, cap;
	struct stats_units u;
	struct stats_cell s;	/* over the units */
	struct stats_change chg;
	bool has_stats, has_chg;
	double hw;		/* 95% half-width of the change in percent (the
				 * baseline's: of its own mean), NAN when unknown */
	bool reached;
	double mpps, wire_mbps;	/* pps: means over the runs */
	unsigned long long sent, received;
	size_t lost_runs;	/* pps runs whose received != sent */
	size_t trow;		/* its row in the cell table */
};

struct rrow {
	char key[RAW_KEY_LEN];
	struct brnf_row row;		/* from the first run of the row */
	unsigned int index;		/* smallest row.index seen */
	size_t first;			/* position of the first run */
	struct rcell cell[RAW_NWORKLOADS][RAW_NDIRS];
	unsigned int nyes, nno, nna, nreadback_bad, npasses;
	bool v1;			/* has schema 1 runs (they verify themselves) */
	unsigned char *measured;	/* per part: schema 2 measured runs of the row */
	unsigned char *passed;		/* per part: verification passes of the row */
	size_t nmissing;		/* parts with measured runs and no pass */
	enum rverify verify;
};

/* main table: per direction three columns from M_DIR */
enum { M_KERNEL, M_GLOBAL, M_LOCAL, M_RULESET, M_DIR };
enum { MD_MEAN, MD_CHG, MD_REACHED, MD_NCOLS };
#define M_N (M_DIR + RAW_NDIRS * MD_NCOLS)
#define M_VERIFIED (M_N + 1)
#define M_NCOLS (M_N + 2)

struct render_ctx {
	const char *dir;
	struct raw_set raw;
	struct rrow *rows;
	size_t nrows;
	size_t base;			/* baseline row */
	unsigned int nverify_no;
	double target;			/* percent */
	const char *target_src;		/* in the text: where the target came from */
	const char *target_key;		/* in matrix.json: "option", "run.txt", "default" */
	bool has_wl[RAW_NWORKLOADS];
	bool has_target[RAW_NWORKLOADS];	/* run.txt target_workloads (absent: all) */
	size_t wl_first[RAW_NWORKLOADS], wl_rows[RAW_NWORKLOADS];	/* in the cell table */
	bool any_ruleset, any_v1, any_v2;
	size_t nmeasured, npasses, ncounting, nlost_cells;
	char hdr[RAW_NWORKLOADS][M_NCOLS][96];	/* main table headers */
};

static bool is_pps(enum raw_workload w)
{
	return raw_workloads[w].pkt_size != 0;
}

static int cell_add(struct rcell *c, double v, size_t part, size_t run)
{
	double *tv;
	size_t *tp, *tr, cap;

	if (c->n == c->cap) {
		cap = c->cap ? c->cap * 2 : 8;
		tv = realloc(c->v, cap * sizeof(*tv));
		if (tv)
			c->v = tv;
		tp = realloc(c->vpart, cap * sizeof(*tp));
		if (tp)
			c->vpart = tp;
		tr = realloc(c->vrun, cap * sizeof(*tr));
		if (tr)
			c->vrun = tr;
		if (!tv || !tp || !tr)
			return -ENOMEM;
		c->cap = cap;
	}
	c->v[c->n] = v;
	c->vpart[c->n] = part;
	c->vrun[c->n++] = run;
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct rrow *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

static struct rrow *find_row(struct render_ctx *ctx, const char *key)
{
	size_t i;

	for (i = 0; i < ctx->nrows; i++)
		if (!strcmp(ctx->rows[i].key, key))
			return &ctx->rows[i];
	return NULL;
}

static struct rrow *new_row(struct render_ctx *ctx, const struct raw_run *run, size_t i,
			    size_t *cap)
{
	struct rrow *r, *tmp;

	if (ctx->nrows == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		tmp = realloc(ctx->rows, *cap * sizeof(*tmp));
		if (!tmp)
			return NULL;
		ctx->rows = tmp;
	}
	r = &ctx->rows[ctx->nrows];
	memset(r, 0, sizeof(*r));
	r->measured = calloc(ctx->raw.nparts, 1);
	r->passed = calloc(ctx->raw.nparts, 1);
	if (!r->measured || !r->passed) {
		free(r->measured);
		free(r->passed);
		return NULL;
	}
	ctx->nrows++;
	strcpy(r->key, run->key);
	r->row = run->row;
	r->index = run->row_index;
	r->first = i;
	return r;
}

static void add_verify(struct rrow *r, const struct raw_run *run)
{
	r->nyes += run->verify == RAW_VERIFY_YES;
	r->nno += run->verify == RAW_VERIFY_NO;
	r->nna += run->verify == RAW_VERIFY_NA;
}

/* Rows from the measured runs; then the verification passes join their rows. */
static int group_rows(struct render_ctx *ctx)
{
	struct raw_run *run;
	struct rrow *r;
	size_t i, cap = 0;
	int ret;

	for (i = 0; i < ctx->raw.nruns; i++) {
		run = &ctx->raw.runs[i];
		if (run->kind != RAW_MEASURE)
			continue;
		r = find_row(ctx, run->key);
		if (!r)
			r = new_row(ctx, run, i, &cap);
		if (!r)
			return -ENOMEM;
		if (run->row_index < r->index)
			r->index = run->row_index;
		if (!r->row.label[0] && run->row.label[0])
			strcpy(r->row.label, run->row.label);
		ret = cell_add(&r->cell[run->workload][run->dir], run->value, run->part, i);
		if (ret)
			return ret;
		ctx->has_wl[run->workload] = true;
		ctx->nmeasured++;
		ctx->ncounting += run->counting_rules;
		r->nreadback_bad += !run->readback_ok;
		if (run->has_verify) {
			r->v1 = true;
			ctx->any_v1 = true;
			add_verify(r, run);
		} else {
			r->measured[run->part] = 1;
			ctx->any_v2 = true;
		}
	}
	for (i = 0; i < ctx->raw.nruns; i++) {
		run = &ctx->raw.runs[i];
		if (run->kind != RAW_VERIFY_PASS)
			continue;
		r = find_row(ctx, run->key);
		if (!r) {
			pr_err("%s/raw/%s/runs/%s/record.json: a verification pass of '%s', "
			       "a row without measured runs", ctx->dir,
			       ctx->raw.parts[run->part].name, run->name, run->key);
			return -EINVAL;
		}
		r->passed[run->part] = 1;
		r->npasses++;
		ctx->npasses++;
		r->nreadback_bad += !run->readback_ok;
		add_verify(r, run);
	}
	/* stable: ties in row.index keep the order of first appearance */
	qsort(ctx->rows, ctx->nrows, sizeof(*ctx->rows), cmp_rows);
	return 0;
}

static int find_baseline(struct render_ctx *ctx, const char *want)
{
	size_t i;

	ctx->base = 0;
	if (!want)
		return 0;
	for (i = 0; i < ctx->nrows; i++)
		if (!strcmp(ctx->rows[i].key, want))
			goto found;
	for (i = 0; i < ctx->nrows; i++)
		if (!strcmp(ctx->rows[i].row.kernel, want))
			goto found;
	for (i = 0; i < ctx->nrows; i++)
		if (ctx->rows[i].row.label[0] && !strcmp(ctx->rows[i].row.label, want))
			goto found;
	pr_err("%s: baseline '%s' matches no row key, kernel or label", ctx->dir, want);
	return -EINVAL;
found:
	ctx->base = i;
	return 0;
}

/*
 * A row's filtering verification over all its parts. Schema 1 runs verified
 * themselves: every run yes is "yes", some yes and some n/a "partial". Schema 2 passes
 * (schema2.md): "n/a" when every pass is n/a, "yes" when every other pass is yes, else
 * "no"; a part with measured runs of the row and no pass is "missing".
 */
static enum rverify row_verify(struct rrow *r, size_t nparts)
{
	size_t p;

	r->nmissing = 0;
	for (p = 0; p < nparts; p++)
		r->nmissing += r->measured[p] && !r->passed[p];
	if (r->nreadback_bad)
		return RV_READBACK;
	/* expect=mismatch: the row shows a design that ignores its configuration;
	 * every run (or pass that can tell) must say no */
	if (r->row.expect_mismatch) {
		if (r->nno && !r->nyes && (!r->nna || !r->v1) && !r->nmissing)
			return RV_NO_EXPECTED;
		if (!r->nyes && r->nmissing)
			return RV_MISSING;
		return RV_YES_UNEXPECTED;
	}
	if (r->nno)
		return RV_NO;
	if (r->nmissing)
		return RV_MISSING;
	if (r->nyes && !r->nna)
		return RV_YES;
	if (r->nna && !r->nyes)
		return RV_NA;
	return r->v1 ? RV_PARTIAL : RV_YES;
}

static void pps_sums(struct render_ctx *ctx, struct rcell *c)
{
	const struct raw_run *run;
	size_t i;

	for (i = 0; i < c->n; i++) {
		run = &ctx->raw.runs[c->vrun[i]];
		c->mpps += run->mpps / c->n;
		c->wire_mbps += run->wire_mbps / c->n;
		c->sent += run->pktgen.sent;
		c->received += run->pktgen.received;
		c->lost_runs += run->pktgen.received != run->pktgen.sent;
	}
}

static int compute(struct render_ctx *ctx)
{
	struct rrow *r, *b = &ctx->rows[ctx->base];
	struct rcell *c, *bc;
	size_t i;
	int w, d, ret;

	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		for (w = 0; w < RAW_NWORKLOADS; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &r->cell[w][d];
				c->hw = NAN;
				if (!c->n)
					continue;
				ret = stats_units(c->v, c->vpart, c->n, &c->u);
				ret = ret ?: stats_compute(c->u.v, c->u.n, &c->s);
				if (ret)
					return ret;
				c->has_stats = true;
				if (is_pps(w))
					pps_sums(ctx, c);
				ctx->nlost_cells += c->lost_runs != 0;
			}
		}
		r->verify = row_verify(r, ctx->raw.nparts);
		ctx->nverify_no += verify_failed(r->verify);
		ctx->any_ruleset |= strcmp(r->row.ruleset, "none") != 0;
	}
	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		for (w = 0; w < RAW_NWORKLOADS; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &r->cell[w][d];
				bc = &b->cell[w][d];
				if (!c->has_stats)
					continue;
				if (i == ctx->base) {
					c->hw = stats_ci95_pct(&c->s);
				} else if (bc->has_stats && !stats_change(&c->s, &bc->s, &c->chg)) {
					c->has_chg = true;	/* not when the base mean is 0 */
					c->hw = stats_change_halfwidth(&c->chg);
				}
				c->reached = ctx->has_target[w] &&
					     stats_reached(c->hw, ctx->target);
			}
		}
	}
	return 0;
}

/* decimals for a value shown with an interval of half-width @ci */
static int decimals(double ci)
{
	if (!isfinite(ci) || ci == 0 || ci >= 0.1)
		return 1;
	if (ci >= 0.01)
		return 2;
	return 3;
}

static const char *kernel_text(const struct brnf_row *r, char *buf, size_t len)
{
	if (r->label[0])
		snprintf(buf, len, "%s (%s)", r->kernel, r->label);
	else
		snprintf(buf, len, "%s", r->kernel);
	return buf;
}

/* "vanilla (brfilter-local) · global 0 · br-lan" */
static const char *row_text(const struct brnf_row *r, char *buf, size_t len)
{
	char k[128], g[64], l[64];

	row_global_str(r, g, sizeof(g));
	row_local_str(r, l, sizeof(l));
	snprintf(buf, len, "%s · global %s · %s%s%s", kernel_text(r, k, sizeof(k)), g,
		 strcmp(l, "-") ? l : "no iface", strcmp(r->ruleset, "none") ? " · " : "",
		 strcmp(r->ruleset, "none") ? r->ruleset : "");
	return buf;
}

/* "3 × 2", or "3 parts, 7 runs" when the parts ran different numbers of runs */
static const char *parts_runs_text(const struct rcell *c, char *buf, size_t len)
{
	size_t p;

	if (!c->has_stats) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (p = 1; p < c->u.nparts; p++)
		if (c->u.part_runs[p] != c->u.part_runs[0])
			break;
	if (p == c->u.nparts)
		snprintf(buf, len, "%zu × %zu", c->u.nparts, c->u.part_runs[0]);
	else
		snprintf(buf, len, "%zu parts, %zu runs", c->u.nparts, c->n);
	return buf;
}

/* ---- the main table of a workload (text forms) ------------------------------------- */

static const struct tcol main_fixed[M_NCOLS] = {
	[M_KERNEL] = { "kernel", "kernel", TA_LEFT, TC_TEXT, false, 0 },
	[M_GLOBAL] = { "br-nf-* global", "global", TA_LEFT, TC_TEXT, false, 0 },
	[M_LOCAL] = { "nf-call* iface", "local", TA_LEFT, TC_TEXT, false, 0 },
	[M_RULESET] = { "ruleset", "ruleset", TA_LEFT, TC_TEXT, false, 0 },
	[M_N] = { "parts × runs", "parts_runs", TA_RIGHT, TC_TEXT, false, 0 },
	[M_VERIFIED] = { "filtering verified", "verified", TA_LEFT, TC_TEXT, false, 0 },
};

static void main_columns(struct render_ctx *ctx, int w, struct tcol *cols)
{
	static const enum tcol_align align[MD_NCOLS] = { TA_RIGHT, TA_LEFT, TA_LEFT };
	char (*h)[96] = ctx->hdr[w];
	int d, k;

	memcpy(cols, main_fixed, sizeof(main_fixed));
	for (d = 0; d < RAW_NDIRS; d++) {
		k = M_DIR + d * MD_NCOLS;
		snprintf(h[k + MD_MEAN], sizeof(h[0]), "%s %s (mean ± 95%% CI)",
			 raw_dir_names[d], raw_workloads[w].unit);
		snprintf(h[k + MD_CHG], sizeof(h[0]), "Δ %s vs baseline", raw_dir_names[d]);
		snprintf(h[k + MD_REACHED], sizeof(h[0]), "%s reached ±%g%%", raw_dir_names[d],
			 ctx->target);
		for (int j = 0; j < MD_NCOLS; j++) {
			cols[k + j].header = h[k + j];
			cols[k + j].key = h[k + j];
			cols[k + j].align = align[j];
			cols[k + j].flags = TC_TEXT;
		}
	}
	cols[M_RULESET].hidden = !ctx->any_ruleset;
	for (d = 0; d < RAW_NDIRS; d++)
		cols[M_DIR + d * MD_NCOLS + MD_REACHED].hidden = !ctx->has_target[w];
}

static int mean_text(struct table *t, size_t row, size_t col, const struct rcell *c)
{
	const char *cv = c->s.cv > CV_MARK_LIMIT ? " " CV_MARK : "";
	const char *lost = c->lost_runs ? " " LOST_MARK : "";
	int dec;

	if (!c->has_stats)
		return table_text(t, row, col, false, "-");
	if (c->s.n < 2)
		return table_text(t, row, col, false, "%.1f (n=1)%s", c->s.mean, lost);
	dec = decimals(c->s.ci95);
	return table_text(t, row, col, false, "%.*f ± %.*f%s%s", dec, c->s.mean, dec,
			  c->s.ci95, cv, lost);
}

static int change_text(struct table *t, size_t row, size_t col, const struct rcell *c,
		       bool is_base)
{
	int dec;

	if (is_base && c->has_stats)
		return table_text(t, row, col, false, "baseline");
	if (!c->has_chg)
		return table_text(t, row, col, false, "-");
	if (!c->chg.has_interval)
		return table_text(t, row, col, false, "%+.1f%% (n=1)", c->chg.pct);
	dec = c->chg.high - c->chg.low < 0.2 ? 2 : 1;
	return table_text(t, row, col, false, "%+.*f%% [%+.*f, %+.*f]%s", dec, c->chg.pct,
			  dec, c->chg.low, dec, c->chg.high,
			  c->chg.indistinguishable ? " indistinguishable" : "");
}

static int reached_text(struct table *t, size_t row, size_t col, const struct rcell *c,
			bool is_base)
{
	if (!c->has_stats || (!is_base && !c->has_chg))
		return table_text(t, row, col, false, "-");
	if (isnan(c->hw))
		return table_text(t, row, col, false, "no (n=1)");
	return table_text(t, row, col, false, "%s (±%.2f%%)", c->reached ? "yes" : "no",
			  c->hw);
}

static int build_main(struct render_ctx *ctx, int w, struct table *t)
{
	struct tcol cols[M_NCOLS];
	char buf[256], a[64], b[64];
	const struct rcell *c;
	struct rrow *r;
	size_t i;
	int row, d, k, ret;

	main_columns(ctx, w, cols);
	ret = table_init(t, cols, M_NCOLS);
	if (ret)
		return ret;
	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		if (!r->cell[w][RAW_DOWNLOAD].n && !r->cell[w][RAW_UPLOAD].n)
			continue;
		row = table_add_row(t);
		if (row < 0)
			return row;
		ret = table_text(t, row, M_KERNEL, false, "%s",
				 kernel_text(&r->row, buf, sizeof(buf)));
		row_global_str(&r->row, buf, sizeof(buf));
		ret = ret ?: table_text(t, row, M_GLOBAL, false, "%s", buf);
		row_local_str(&r->row, buf, sizeof(buf));
		ret = ret ?: table_text(t, row, M_LOCAL, false, "%s", buf);
		ret = ret ?: table_text(t, row, M_RULESET, false, "%s", r->row.ruleset);
		for (d = 0; d < RAW_NDIRS && !ret; d++) {
			c = &r->cell[w][d];
			k = M_DIR + d * MD_NCOLS;
			ret = mean_text(t, row, k + MD_MEAN, c);
			ret = ret ?: change_text(t, row, k + MD_CHG, c, i == ctx->base);
			ret = ret ?: reached_text(t, row, k + MD_REACHED, c, i == ctx->base);
		}
		parts_runs_text(&r->cell[w][RAW_DOWNLOAD], a, sizeof(a));
		parts_runs_text(&r->cell[w][RAW_UPLOAD], b, sizeof(b));
		if (strcmp(a, b))
			ret = ret ?: table_text(t, row, M_N, false, "%s / %s", a, b);
		else
			ret = ret ?: table_text(t, row, M_N, false, "%s", a);
		ret = ret ?: table_text(t, row, M_VERIFIED,
					verify_failed(r->verify) || r->verify == RV_MISSING,
					"%s", rverify_names[r->verify]);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the cell table: spread tables (text), matrix.csv and matrix.json (data) -------- */

enum {
	C_KEY, C_KERNEL, C_LABEL, C_GLOBAL, C_LOCAL, C_RULESET, C_EXPECT, C_BASELINE,
	C_VERIFIED, C_PASSES, C_MISSING, C_WORKLOAD, C_DIR, C_UNIT, C_BETTER, C_STAT_UNIT,
	C_N, C_NPARTS, C_NRUNS, C_PARTS_RUNS, C_MEAN, C_SD, C_CI95, C_CI_LOW, C_CI_HIGH,
	C_CI_PCT, C_CV, C_MEDIAN, C_MIN, C_MAX, C_MPPS, C_WIRE, C_REPS, C_CHG, C_CHG_LOW,
	C_CHG_HIGH, C_CHG_DOF, C_INDIST, C_HW, C_REACHED, C_UNITS, C_UNITS_CHG, C_PER_PART,
	C_PART_NAMES, C_PART_RUNS, C_VALUES, C_RUN_NAMES, C_SENT, C_RECEIVED, C_LOST_RUNS,
	C_UNITS_TEXT, C_NCOLS
};

#define G (TC_DATA | TC_GROUP)
static const struct tcol cell_cols[C_NCOLS] = {
	[C_KEY] = { "key", "key", TA_LEFT, G, false, 0 },
	[C_KERNEL] = { "kernel", "kernel", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_LABEL] = { "label", "label", TA_LEFT, G, false, 0 },
	[C_GLOBAL] = { "br-nf-* global", "global", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_LOCAL] = { "nf-call* iface", "local", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_RULESET] = { "ruleset", "ruleset", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_EXPECT] = { "expect", "expect", TA_LEFT, G, false, 0 },
	[C_BASELINE] = { "baseline", "baseline", TA_LEFT, G, false, 0 },
	[C_VERIFIED] = { "filtering verified", "verified", TA_LEFT, G, false, 0 },
	[C_PASSES] = { "verify passes", "verify_passes", TA_RIGHT, G, false, 0 },
	[C_MISSING] = { "verify missing", "verify_missing_parts", TA_LEFT, G, false, 0 },
	[C_WORKLOAD] = { "workload", "workload", TA_LEFT, TC_DATA, false, 0 },
	[C_DIR] = { "direction", "direction", TA_LEFT, TC_BOTH, false, 0 },
	[C_UNIT] = { "unit", "unit", TA_LEFT, TC_DATA, false, 0 },
	[C_BETTER] = { "better", "better", TA_LEFT, TC_DATA, false, 0 },
	[C_STAT_UNIT] = { "stat unit", "stat_unit", TA_LEFT, TC_DATA, false, 0 },
	[C_N] = { "units", "n", TA_RIGHT, TC_BOTH, false, 0 },
	[C_NPARTS] = { "parts", "n_parts", TA_RIGHT, TC_DATA, false, 0 },
	[C_NRUNS] = { "runs", "n_runs", TA_RIGHT, TC_DATA, false, 0 },
	[C_PARTS_RUNS] = { "parts × runs", "parts_runs", TA_RIGHT, TC_TEXT, false, 0 },
	[C_MEAN] = { "mean", "mean", TA_RIGHT, TC_BOTH, false, 0 },
	[C_SD] = { "sd", "sd", TA_RIGHT, TC_BOTH, false, 0 },
	[C_CI95] = { "ci95", "ci95", TA_RIGHT, TC_DATA, false, 0 },
	[C_CI_LOW] = { "ci95 low", "ci95_low", TA_RIGHT, TC_DATA, false, 0 },
	[C_CI_HIGH] = { "ci95 high", "ci95_high", TA_RIGHT, TC_DATA, false, 0 },
	[C_CI_PCT] = { "ci95 %", "ci95_pct", TA_RIGHT, TC_DATA, false, 0 },
	[C_CV] = { "CV", "cv", TA_RIGHT, TC_BOTH, false, 0 },
	[C_MEDIAN] = { "median", "median", TA_RIGHT, TC_DATA, false, 0 },
	[C_MIN] = { "min", "min", TA_RIGHT, TC_BOTH, false, 0 },
	[C_MAX] = { "max", "max", TA_RIGHT, TC_BOTH, false, 0 },
	[C_MPPS] = { "Mpps", "mpps", TA_RIGHT, TC_BOTH, false, 0 },
	[C_WIRE] = { "wire Mbit/s", "wire_mbps", TA_RIGHT, TC_BOTH, false, 0 },
	[C_REPS] = { "reps for 2%", "reps_for_2pct", TA_RIGHT, TC_BOTH, false, 0 },
	[C_CHG] = { "change %", "change_pct", TA_RIGHT, TC_DATA, false, 0 },
	[C_CHG_LOW] = { "change low", "change_low_pct", TA_RIGHT, TC_DATA, false, 0 },
	[C_CHG_HIGH] = { "change high", "change_high_pct", TA_RIGHT, TC_DATA, false, 0 },
	[C_CHG_DOF] = { "change dof", "change_dof", TA_RIGHT, TC_DATA, false, 0 },
	[C_INDIST] = { "indistinguishable", "indistinguishable", TA_LEFT, TC_DATA, false, 0 },
	[C_HW] = { "half-width %", "halfwidth_pct", TA_RIGHT, TC_DATA, false, 0 },
	[C_REACHED] = { "reached", "reached", TA_LEFT, TC_DATA, false, 0 },
	[C_UNITS] = { "units", "units", TA_LEFT, TC_DATA, false, 0 },
	[C_UNITS_CHG] = { "units change", "units_change_pct", TA_LEFT, TC_DATA, false, 0 },
	[C_PER_PART] = { "per part", "per_part", TA_LEFT, TC_DATA, false, 0 },
	[C_PART_NAMES] = { "part names", "part_names", TA_LEFT, TC_DATA, false, 0 },
	[C_PART_RUNS] = { "part runs", "part_runs", TA_LEFT, TC_DATA, false, 0 },
	[C_VALUES] = { "values", "values", TA_LEFT, TC_DATA, false, 0 },
	[C_RUN_NAMES] = { "run names", "run_names", TA_LEFT, TC_DATA, false, 0 },
	[C_SENT] = { "sent", "sent", TA_RIGHT, TC_DATA, false, 0 },
	[C_RECEIVED] = { "received", "received", TA_RIGHT, TC_DATA, false, 0 },
	[C_LOST_RUNS] = { "lost runs", "lost_runs", TA_RIGHT, TC_DATA, false, 0 },
	[C_UNITS_TEXT] = { "units in order (boots' means, or runs)", "units_text", TA_LEFT,
			   TC_TEXT, false, 0 },
};
#undef G

#define VALUES_SHOWN 20		/* the text form lists at most this many units */

/* every unit, so that a mode (a boot unlike the others) is visible, not only its mean */
static int units_text(struct table *t, size_t row, size_t col, const struct rcell *c)
{
	char buf[VALUES_SHOWN * 24 + 8];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < c->u.n && i < VALUES_SHOWN; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%.1f", i ? " " : "",
				c->u.v[i]);
	if (c->u.n > VALUES_SHOWN)
		snprintf(buf + off, sizeof(buf) - off, " ... (%zu more)", c->u.n - VALUES_SHOWN);
	return table_text(t, row, col, false, "%s", buf);
}

/* the row's columns (TC_GROUP), repeated on each of its cells */
static int cell_row_fields(struct render_ctx *ctx, struct table *t, size_t row,
			   const struct rrow *r, bool is_base)
{
	const char **missing;
	char buf[256];
	size_t p, n = 0;
	int ret;

	ret = table_text(t, row, C_KERNEL, false, "%s", kernel_text(&r->row, buf, sizeof(buf)));
	ret = ret ?: table_str(t, row, C_KERNEL, r->row.kernel);
	ret = ret ?: table_str(t, row, C_KEY, r->key);
	ret = ret ?: table_str(t, row, C_LABEL, r->row.label);
	row_global_str(&r->row, buf, sizeof(buf));
	ret = ret ?: table_text(t, row, C_GLOBAL, false, "%s", buf);
	ret = ret ?: table_str(t, row, C_GLOBAL, buf);
	row_local_str(&r->row, buf, sizeof(buf));
	ret = ret ?: table_text(t, row, C_LOCAL, false, "%s", buf);
	ret = ret ?: table_str(t, row, C_LOCAL, buf);
	ret = ret ?: table_text(t, row, C_RULESET, false, "%s", r->row.ruleset);
	ret = ret ?: table_str(t, row, C_RULESET, r->row.ruleset);
	ret = ret ?: table_str(t, row, C_EXPECT, r->row.expect_mismatch ? "mismatch" : "match");
	ret = ret ?: table_bool(t, row, C_BASELINE, is_base);
	ret = ret ?: table_str(t, row, C_VERIFIED, rverify_names[r->verify]);
	ret = ret ?: table_int(t, row, C_PASSES, r->npasses);
	if (ret)
		return ret;
	missing = calloc(ctx->raw.nparts + 1, sizeof(*missing));
	if (!missing)
		return -ENOMEM;
	for (p = 0; p < ctx->raw.nparts; p++)
		if (r->measured[p] && !r->passed[p])
			missing[n++] = ctx->raw.parts[p].name;
	ret = table_strs(t, row, C_MISSING, missing, n);
	free(missing);
	return ret;
}

static int cell_numbers(struct render_ctx *ctx, struct table *t, size_t row, int w,
			const struct rcell *c, const struct rcell *bc, bool is_base)
{
	const struct stats_cell *s = &c->s;
	const char **names;
	double *chg, *runs;
	unsigned long reps;
	char *buf;
	size_t i, len;
	int ret;

	ret = table_str(t, row, C_STAT_UNIT, c->u.by_part ? "part" : "run");
	ret = ret ?: table_text(t, row, C_N, false, "%zu %s", c->u.n,
				c->u.by_part ? "parts" : c->u.n == 1 ? "run" : "runs");
	ret = ret ?: table_int(t, row, C_N, c->u.n);
	ret = ret ?: table_int(t, row, C_NPARTS, c->u.nparts);
	ret = ret ?: table_int(t, row, C_NRUNS, c->n);
	ret = ret ?: table_text(t, row, C_MEAN, false, "%.2f", s->mean);
	ret = ret ?: table_num(t, row, C_MEAN, s->mean);
	if (s->n >= 2)
		ret = ret ?: table_text(t, row, C_SD, false, "%.2f", s->sd);
	else
		ret = ret ?: table_text(t, row, C_SD, false, "n=1");
	ret = ret ?: table_num(t, row, C_SD, s->sd);
	if (s->n < 2)
		ret = ret ?: table_text(t, row, C_CV, false, "n=1");
	else if (isnan(s->cv))
		ret = ret ?: table_text(t, row, C_CV, false, "-");
	else
		ret = ret ?: table_text(t, row, C_CV, false, "%.2f%%%s", 100 * s->cv,
					s->cv > CV_MARK_LIMIT ? " " CV_MARK : "");
	ret = ret ?: table_num(t, row, C_CV, s->cv);
	ret = ret ?: table_num(t, row, C_CI95, s->ci95);
	ret = ret ?: table_num(t, row, C_CI_LOW, s->mean - s->ci95);
	ret = ret ?: table_num(t, row, C_CI_HIGH, s->mean + s->ci95);
	ret = ret ?: table_num(t, row, C_CI_PCT, stats_ci95_pct(s));
	ret = ret ?: table_num(t, row, C_MEDIAN, s->median);
	ret = ret ?: table_text(t, row, C_MIN, false, "%.2f", s->min);
	ret = ret ?: table_num(t, row, C_MIN, s->min);
	ret = ret ?: table_text(t, row, C_MAX, false, "%.2f", s->max);
	ret = ret ?: table_num(t, row, C_MAX, s->max);
	reps = stats_reps_needed(s, DETECT_CHANGE);
	if (reps) {
		ret = ret ?: table_text(t, row, C_REPS, false, "%lu", reps);
		ret = ret ?: table_int(t, row, C_REPS, reps);
	} else {
		ret = ret ?: table_text(t, row, C_REPS, false, "-");
	}
	if (c->has_chg) {
		ret = ret ?: table_num(t, row, C_CHG, c->chg.pct);
		ret = ret ?: table_num(t, row, C_CHG_LOW, c->chg.low);
		ret = ret ?: table_num(t, row, C_CHG_HIGH, c->chg.high);
		ret = ret ?: table_num(t, row, C_CHG_DOF, c->chg.dof);
		if (c->chg.has_interval)
			ret = ret ?: table_bool(t, row, C_INDIST, c->chg.indistinguishable);
	}
	ret = ret ?: table_num(t, row, C_HW, c->hw);
	if ((c->has_chg || is_base) && ctx->has_target[w])
		ret = ret ?: table_bool(t, row, C_REACHED, c->reached);
	ret = ret ?: table_nums(t, row, C_UNITS, c->u.v, c->u.n);
	ret = ret ?: units_text(t, row, C_UNITS_TEXT, c);
	ret = ret ?: table_nums(t, row, C_PER_PART, c->u.part_mean, c->u.nparts);
	ret = ret ?: table_nums(t, row, C_VALUES, c->v, c->n);
	if (ret)
		return ret;

	/* each unit's change against the baseline mean (the plot's dots); part names and
	 * runs per part; part/run of every run */
	len = c->u.n > c->n ? c->u.n : c->n;
	chg = calloc(len, sizeof(*chg));
	runs = calloc(len, sizeof(*runs));
	names = calloc(len, sizeof(*names));
	buf = calloc(len, 2 * RAW_NAME_LEN);
	if (!chg || !runs || !names || !buf) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (bc->has_stats && bc->s.mean > 0 && (c->has_chg || is_base)) {
		for (i = 0; i < c->u.n; i++)
			chg[i] = 100.0 * (c->u.v[i] - bc->s.mean) / bc->s.mean;
		ret = table_nums(t, row, C_UNITS_CHG, chg, c->u.n);
	}
	for (i = 0; i < c->u.nparts; i++) {
		names[i] = ctx->raw.parts[c->u.part_id[i]].name;
		runs[i] = c->u.part_runs[i];
	}
	ret = ret ?: table_strs(t, row, C_PART_NAMES, names, c->u.nparts);
	ret = ret ?: table_nums(t, row, C_PART_RUNS, runs, c->u.nparts);
	for (i = 0; i < c->n; i++) {
		snprintf(buf + i * 2 * RAW_NAME_LEN, 2 * RAW_NAME_LEN, "%s/%s",
			 ctx->raw.parts[c->vpart[i]].name, ctx->raw.runs[c->vrun[i]].name);
		names[i] = buf + i * 2 * RAW_NAME_LEN;
	}
	ret = ret ?: table_strs(t, row, C_RUN_NAMES, names, c->n);
out_free:
	free(chg);
	free(runs);
	free(names);
	free(buf);
	return ret;
}

static int cell_pps(struct table *t, size_t row, const struct rcell *c)
{
	int ret;

	ret = table_text(t, row, C_MPPS, false, "%.4f", c->mpps);
	ret = ret ?: table_num(t, row, C_MPPS, c->mpps);
	ret = ret ?: table_text(t, row, C_WIRE, false, "%.1f", c->wire_mbps);
	ret = ret ?: table_num(t, row, C_WIRE, c->wire_mbps);
	ret = ret ?: table_int(t, row, C_SENT, c->sent);
	ret = ret ?: table_int(t, row, C_RECEIVED, c->received);
	ret = ret ?: table_int(t, row, C_LOST_RUNS, c->lost_runs);
	return ret;
}

/* One table row per cell: workloads in order, rows in order, directions in order. */
static int build_cells(struct render_ctx *ctx, struct table *t)
{
	const struct raw_workload_info *wi;
	struct rcell *c;
	struct rrow *r;
	char buf[64];
	size_t i;
	int w, d, row, ret;

	ret = table_init(t, cell_cols, C_NCOLS);
	if (ret)
		return ret;
	t->cols[C_RULESET].hidden = !ctx->any_ruleset;
	for (w = 0; w < RAW_NWORKLOADS; w++) {
		wi = &raw_workloads[w];
		ctx->wl_first[w] = t->nrows;
		for (i = 0; i < ctx->nrows; i++) {
			r = &ctx->rows[i];
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &r->cell[w][d];
				if (!c->has_stats)
					continue;
				row = table_add_row(t);
				if (row < 0)
					return row;
				c->trow = row;
				ret = cell_row_fields(ctx, t, row, r, i == ctx->base);
				ret = ret ?: table_str(t, row, C_WORKLOAD, wi->name);
				ret = ret ?: table_text(t, row, C_DIR, false, "%s", raw_dir_names[d]);
				ret = ret ?: table_str(t, row, C_DIR, raw_dir_names[d]);
				ret = ret ?: table_str(t, row, C_UNIT, wi->unit);
				ret = ret ?: table_str(t, row, C_BETTER,
						       wi->lower_better ? "lower" : "higher");
				ret = ret ?: table_text(t, row, C_PARTS_RUNS, false, "%s",
							parts_runs_text(c, buf, sizeof(buf)));
				ret = ret ?: cell_numbers(ctx, t, row, w, c,
							  &ctx->rows[ctx->base].cell[w][d],
							  i == ctx->base);
				if (is_pps(w))
					ret = ret ?: cell_pps(t, row, c);
				if (ret)
					return ret;
			}
		}
		ctx->wl_rows[w] = t->nrows - ctx->wl_first[w];
	}
	return 0;
}

/* the spread table of workload @w: its rows of the cell table, its columns */
static void spread_show(struct table *t, int w)
{
	t->cols[C_MPPS].hidden = !is_pps(w);
	t->cols[C_WIRE].hidden = !is_pps(w);
}

/* ---- what was run (from the raw data and provenance) ---------------------------- */

/* Distinct values in order of appearance, at most a few; a negative one is unknown. */
#define DISTINCT_MAX 8
struct distinct {
	double v[DISTINCT_MAX];
	size_t n;
	bool more;		/* there were more than DISTINCT_MAX */
};

struct summary {
	struct distinct flows[2];	/* tcp, tcp-bytes */
	struct distinct duration, omit, bytes, pkts, reps, parts;
};

static void distinct_add(struct distinct *d, double v)
{
	size_t j;

	for (j = 0; j < d->n; j++)
		if (d->v[j] == v)
			return;
	if (d->n == DISTINCT_MAX)
		d->more = true;
	else
		d->v[d->n++] = v;
}

/* "3 s" or "1 s, 3 s" (each with @unit) */
static const char *distinct_str(const struct distinct *d, const char *unit, char *buf, size_t len)
{
	size_t off = 0, i;
	char num[40];

	buf[0] = '\0';
	for (i = 0; i < d->n && off < len; i++) {
		if (d->v[i] == floor(d->v[i]) && fabs(d->v[i]) < 1e15)
			snprintf(num, sizeof(num), "%.0f", d->v[i]);
		else
			num_shortest(d->v[i], num, sizeof(num));
		if (d->v[i] < 0)
			off += snprintf(buf + off, len - off, "%sunknown", i ? ", " : "");
		else
			off += snprintf(buf + off, len - off, "%s%s%s", i ? ", " : "", num, unit);
	}
	if (d->more && off < len)
		snprintf(buf + off, len - off, ", ...");
	return buf;
}

/* [3] or [1, 3]: numbers (null for unknown), so that matrix.json is typed */
static struct json_object *distinct_json(const struct distinct *d)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < d->n; i++)
		json_object_array_add(a, d->v[i] < 0 ? NULL : d->v[i] == floor(d->v[i]) ?
				      json_object_new_int64(d->v[i]) :
				      json_object_new_double(d->v[i]));
	return a;
}

static void summarize(struct render_ctx *ctx, struct summary *sm)
{
	const struct raw_run *run;
	const struct rcell *c;
	size_t i;
	int w, d;

	memset(sm, 0, sizeof(*sm));
	for (i = 0; i < ctx->raw.nruns; i++) {
		run = &ctx->raw.runs[i];
		if (run->kind != RAW_MEASURE)
			continue;
		if (run->nflows)
			distinct_add(&sm->flows[run->workload == RAW_TCP_BYTES], run->nflows);
		if (run->workload == RAW_TCP) {
			distinct_add(&sm->duration, run->duration);
			distinct_add(&sm->omit, run->omit);
		}
		if (run->workload == RAW_TCP_BYTES)
			distinct_add(&sm->bytes, run->bytes_per_flow);
		if (is_pps(run->workload))
			distinct_add(&sm->pkts, run->pktgen.count);
	}
	for (w = 0; w < RAW_NWORKLOADS; w++) {
		for (i = 0; i < ctx->nrows; i++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &ctx->rows[i].cell[w][d];
				if (!c->n)
					continue;
				distinct_add(&sm->reps, c->n);
				distinct_add(&sm->parts, c->u.nparts);
			}
		}
	}
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static void print_parts(struct render_ctx *ctx, FILE *f, const char *bullet)
{
	const struct raw_part *p;
	size_t i;

	for (i = 0; i < ctx->raw.nparts; i++) {
		p = &ctx->raw.parts[i];
		fprintf(f, "%s%s: kernel %s%s, clock %s, test bed %s", bullet, p->name,
			or_unknown(p->kernel_release),
			p->release_from_iperf ? " (from iperf3 system_info)" : "",
			or_unknown(p->clock), or_unknown(p->testbed));
		if (p->offloads[0])
			fprintf(f, " (offloads %s)", p->offloads);
		if (p->qemu)
			fprintf(f, " in a QEMU guest (%s; %s)", or_unknown(p->qemu_version),
				or_unknown(p->qemu_options));
		if (p->host_cpu[0])
			fprintf(f, ", host CPU %s", p->host_cpu);
		if (p->date[0])
			fprintf(f, ", %s", p->date);
		if (p->wall_seconds >= 0)
			fprintf(f, ", wall time %.0f s", p->wall_seconds);
		if (p->exit_status)
			fprintf(f, "; the guest's run ended with exit status %d", p->exit_status);
		fputc('\n', f);
	}
}

static bool any_icount(const struct render_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->raw.nparts; i++)
		if (!strcmp(ctx->raw.parts[i].clock, "icount"))
			return true;
	return false;
}

static bool any_pps(const struct render_ctx *ctx)
{
	return ctx->has_wl[RAW_PPS64] || ctx->has_wl[RAW_PPS1514];
}

/* lost-packet lines of workload @w: one per cell with runs whose received != sent */
static void print_lost(struct render_ctx *ctx, int w, FILE *f, const char *bullet)
{
	const struct rcell *c;
	char buf[320];
	size_t i;
	int d;

	for (i = 0; i < ctx->nrows; i++) {
		for (d = 0; d < RAW_NDIRS; d++) {
			c = &ctx->rows[i].cell[w][d];
			if (!c->lost_runs)
				continue;
			fprintf(f, "%s%s %s, %s %s: %zu of %zu runs received %llu packets of %llu "
				"sent (%s%llu)\n", bullet, LOST_MARK, raw_workloads[w].name,
				row_text(&ctx->rows[i].row, buf, sizeof(buf)), raw_dir_names[d],
				c->lost_runs, c->n, c->received, c->sent,
				c->received > c->sent ? "+" : "-",
				c->received > c->sent ? c->received - c->sent :
							c->sent - c->received);
		}
	}
}

static void print_notes(struct render_ctx *ctx, FILE *f)
{
	fprintf(f, "## How to read the tables\n\n");
	if (any_pps(ctx))
		fprintf(f, "- pps64, pps1514: kernel pktgen's time per packet sent, `elapsed_us` "
			   "× 1000 / `sent`, in nanoseconds per packet (lower is better); under "
			   "`-icount` guest time counts instructions, so this is instructions "
			   "per packet of the whole path (sender, AP, receiver's ingress). Mpps "
			   "= sent / elapsed_us; wire Mbit/s = received × (pkt_size + 4) × 8 / "
			   "elapsed_us.\n");
	if (ctx->has_wl[RAW_TCP_BYTES])
		fprintf(f, "- tcp-bytes: the bytes received over all parallel flows (iperf3 "
			   "`-n`, `end.sum_received.bytes`) × 8 / the longest flow's receive "
			   "time, in Mbit/s.\n");
	if (ctx->has_wl[RAW_TCP])
		fprintf(f, "- tcp: the receiver's rate (iperf3 `end.sum_received`) summed over "
			   "the parallel flows of a run, in Mbit/s (10^6 bit/s).\n");
	fprintf(f, "\nA cell is the mean over its units ± the half-width of the 95%% "
		   "confidence interval (Student t, n-1 degrees of freedom). The units are "
		   "the parts' (boots') means when the cell's runs come from two or more "
		   "parts, because runs in one boot are not independent, else its runs; "
		   "\"parts × runs\" says how many of each; \"n=1\" has no interval. "
		   "Δ: change of the mean against the baseline row (`%s`) in percent, with "
		   "the 95%% Welch interval of the difference divided by the baseline mean; "
		   "\"indistinguishable\" when that interval contains 0.%s \"reached ±%g%%\" "
		   "(the target, %s): yes when the half-width of that interval, (high - low) "
		   "/ 2, is at most %g%%; for the baseline row, when its own 95%% half-width "
		   "in percent of its mean is.\n\n",
		ctx->rows[ctx->base].key, any_pps(ctx) ? " A positive change in ns/packet is a "
		"cost, in Mbit/s a gain." : "", ctx->target, ctx->target_src, ctx->target);
	if (ctx->any_v2)
		fprintf(f, "Filtering verified: measured runs load no counting rules. A "
			   "verification pass of each row in each part (boot), in the same "
			   "configuration, loads them for its own traffic only (iptables "
			   "`physdev` counters where br_netfilter exists; `-i` rules where it "
			   "does not, whose result is n/a) and shows whether exactly the bridges "
			   "the row configured passed their frames to iptables (yes: every pass "
			   "that can tell; no: some pass did not, the row's numbers do not "
			   "measure what it claims; n/a: not checked; missing: a part with "
			   "measured runs of the row but no pass; \"no (readback)\": a flag read "
			   "back differed from the row; \"no (expected)\": a row marked "
			   "expect=mismatch, which shows a design that ignores its "
			   "configuration, and it did).\n\n");
	if (ctx->any_v1)
		fprintf(f, "Filtering verified%s: iptables `physdev` counters in the AP "
			   "namespace show whether exactly the bridges the row configured passed "
			   "their frames to iptables (yes: every run; no: some run did not, the "
			   "row's numbers do not measure what it claims; n/a: not checked; "
			   "partial: some runs yes, the others not checked; \"no (readback)\": a "
			   "flag read back differed from the row; \"no (expected)\": a row marked "
			   "expect=mismatch, which shows a design that ignores its "
			   "configuration, and it did). These runs (raw schema 1) were measured "
			   "with the counting rules loaded.\n\n",
			ctx->any_v2 ? " (raw schema 1 runs)" : "");
	fprintf(f, "%s CV (sd/mean) of the units above 3%%: they spread widely, possibly "
		   "between modes; see the spread table.\n\n", CV_MARK);
	if (ctx->nlost_cells)
		fprintf(f, "%s some runs of the cell received a different number of packets "
			   "than pktgen sent (the value is per packet sent): see \"Lost "
			   "packets\".\n\n", LOST_MARK);
	if (any_icount(ctx))
		fprintf(f, "Clock `icount`: guest time advances with every executed instruction, "
			   "so a rate measures instructions per byte%s on a model of an in-order "
			   "CPU with uniform instruction cost, like the router in the seed, "
			   "without caches.\n\n", any_pps(ctx) ? " (ns/packet: instructions per "
							       "packet)" : "");
}

static void print_run(struct render_ctx *ctx, const struct summary *sm, FILE *f)
{
	char buf[160], b2[160];
	int w, n;

	for (w = 0; w < RAW_NWORKLOADS; w++) {
		if (!ctx->has_wl[w])
			continue;
		fprintf(f, "- %s: %s", raw_workloads[w].name, raw_workloads[w].what);
		if (is_pps(w))
			fprintf(f, "; packets per run: %s",
				distinct_str(&sm->pkts, "", buf, sizeof(buf)));
		else
			fprintf(f, "; flows per run: %s",
				distinct_str(&sm->flows[w == RAW_TCP_BYTES], "", buf, sizeof(buf)));
		if (w == RAW_TCP_BYTES)
			fprintf(f, "; bytes per flow: %s",
				distinct_str(&sm->bytes, "", buf, sizeof(buf)));
		if (w == RAW_TCP)
			fprintf(f, "; duration: %s, omitted warm-up: %s",
				distinct_str(&sm->duration, " s", buf, sizeof(buf)),
				distinct_str(&sm->omit, " s", b2, sizeof(b2)));
		fputc('\n', f);
	}
	fprintf(f, "- runs per cell: %s, from parts: %s (%zu measured runs, %zu verification "
		   "passes, in %zu part%s)\n", distinct_str(&sm->reps, "", buf, sizeof(buf)),
		distinct_str(&sm->parts, "", b2, sizeof(b2)), ctx->nmeasured, ctx->npasses,
		ctx->raw.nparts, ctx->raw.nparts == 1 ? "" : "s");
	if (!ctx->ncounting)
		fprintf(f, "- counting rules during measured runs: none\n");
	else
		fprintf(f, "- counting rules during measured runs: loaded in %zu of %zu\n",
			ctx->ncounting, ctx->nmeasured);
	fprintf(f, "- target: 95%% half-width of a change at most %g%% (%s), for", ctx->target,
		ctx->target_src);
	for (n = 0, w = 0; w < RAW_NWORKLOADS; w++)
		if (ctx->has_wl[w] && ctx->has_target[w])
			fprintf(f, "%s %s", n++ ? "," : "", raw_workloads[w].name);
	fputc('\n', f);
}

static int write_md(struct render_ctx *ctx, struct table *mains, struct table *cells,
		    const struct summary *sm, FILE *f)
{
	int w, ret;

	fprintf(f, "# brnf matrix\n\n");
	for (w = 0; w < RAW_NWORKLOADS; w++) {
		if (!ctx->has_wl[w])
			continue;
		fprintf(f, "## %s: %s, %s is better\n\n%s.\n\n", raw_workloads[w].name,
			raw_workloads[w].unit, raw_workloads[w].lower_better ? "lower" : "higher",
			raw_workloads[w].what);
		ret = table_print_md(&mains[w], f);
		if (ret)
			return ret;
		if (!ctx->has_target[w])
			fprintf(f, "\nNo target for %s (run.txt target_workloads).\n",
				raw_workloads[w].name);
		fputc('\n', f);
	}
	print_notes(ctx, f);
	fprintf(f, "## Spread per cell\n\n");
	for (w = 0; w < RAW_NWORKLOADS; w++) {
		if (!ctx->has_wl[w])
			continue;
		fprintf(f, "### %s (%s)\n\n", raw_workloads[w].name, raw_workloads[w].unit);
		spread_show(cells, w);
		ret = table_print_md_rows(cells, f, ctx->wl_first[w], ctx->wl_rows[w]);
		if (ret)
			return ret;
		fputc('\n', f);
	}
	fprintf(f, "Values in the workload's unit; mean, sd, CV, min and max over the units. "
		   "\"units in order\": the parts' (boots') means in part name order when the "
		   "cell has two or more parts, so that boot-to-boot modes show, else every "
		   "run in run order (matrix.json holds every run). \"reps for 2%%\": units "
		   "per row that would detect a 2%% change at this sd (two-sample, 95%%, 80%% "
		   "power, normal approximation).\n\n");
	if (ctx->nlost_cells) {
		fprintf(f, "## Lost packets\n\n");
		for (w = 0; w < RAW_NWORKLOADS; w++)
			print_lost(ctx, w, f, "- ");
		fputc('\n', f);
	}
	fprintf(f, "## What was run\n\n");
	print_run(ctx, sm, f);
	print_parts(ctx, f, "- ");
	if (ctx->nverify_no)
		fprintf(f, "\n**Filtering verification failed for %u row%s.**\n",
			ctx->nverify_no, ctx->nverify_no == 1 ? "" : "s");
	return ferror(f) ? -EIO : 0;
}

static int write_txt(struct render_ctx *ctx, struct table *mains, struct table *cells,
		     const struct summary *sm, FILE *f)
{
	int w, ret;

	for (w = 0; w < RAW_NWORKLOADS; w++) {
		if (!ctx->has_wl[w])
			continue;
		fprintf(f, "%s: %s, %s is better\n\n", raw_workloads[w].name,
			raw_workloads[w].unit, raw_workloads[w].lower_better ? "lower" : "higher");
		ret = table_print_text(&mains[w], f);
		if (ret)
			return ret;
		if (!ctx->has_target[w])
			fprintf(f, "no target for %s (run.txt target_workloads)\n",
				raw_workloads[w].name);
		fputc('\n', f);
	}
	fprintf(f, "mean ± 95%% CI over units (boots' means with >= 2 boots, else runs); Δ vs "
		   "%s with 95%% Welch interval; reached: half-width <= %g%% (%s); " CV_MARK
		   " CV > 3%%%s\n\n", ctx->rows[ctx->base].key, ctx->target, ctx->target_src,
		ctx->nlost_cells ? "; " LOST_MARK " received != sent" : "");
	for (w = 0; w < RAW_NWORKLOADS; w++) {
		if (!ctx->has_wl[w])
			continue;
		fprintf(f, "%s spread (%s)\n\n", raw_workloads[w].name, raw_workloads[w].unit);
		spread_show(cells, w);
		ret = table_print_text_rows(cells, f, ctx->wl_first[w], ctx->wl_rows[w]);
		if (ret)
			return ret;
		fputc('\n', f);
	}
	for (w = 0; w < RAW_NWORKLOADS; w++)
		print_lost(ctx, w, f, "");
	print_run(ctx, sm, f);
	if (any_icount(ctx))
		fprintf(f, "icount: rates measure instructions per byte%s on a model of an "
			   "in-order CPU with uniform instruction cost, without caches\n",
			any_pps(ctx) ? " (ns/packet: instructions per packet)" : "");
	print_parts(ctx, f, "");
	if (ctx->nverify_no)
		fprintf(f, "FILTERING VERIFICATION FAILED for %u row%s\n", ctx->nverify_no,
			ctx->nverify_no == 1 ? "" : "s");
	return ferror(f) ? -EIO : 0;
}

static struct json_object *parts_json(struct render_ctx *ctx)
{
	struct json_object *parts, *p;
	const struct raw_part *rp;
	size_t i;

	parts = json_object_new_array();
	for (i = 0; parts && i < ctx->raw.nparts; i++) {
		rp = &ctx->raw.parts[i];
		p = json_object_new_object();
		if (!p || json_object_array_add(parts, p)) {
			json_object_put(p);
			json_object_put(parts);
			return NULL;
		}
		json_object_object_add(p, "name", json_object_new_string(rp->name));
		json_object_object_add(p, "kernel_release",
				       json_object_new_string(rp->kernel_release));
		json_object_object_add(p, "kernel_release_source",
				       json_object_new_string(rp->release_from_iperf ?
							      "iperf3 system_info" :
							      "provenance"));
		json_object_object_add(p, "clock", json_object_new_string(rp->clock));
		json_object_object_add(p, "testbed", json_object_new_string(rp->testbed));
		json_object_object_add(p, "date", json_object_new_string(rp->date));
		json_object_object_add(p, "offloads", json_object_new_string(rp->offloads));
		json_object_object_add(p, "qemu", json_object_new_boolean(rp->qemu));
		json_object_object_add(p, "qemu_version", json_object_new_string(rp->qemu_version));
		json_object_object_add(p, "qemu_options", json_object_new_string(rp->qemu_options));
		json_object_object_add(p, "host_cpu", json_object_new_string(rp->host_cpu));
		json_object_object_add(p, "exit_status", json_object_new_int(rp->exit_status));
		json_object_object_add(p, "wall_seconds", rp->wall_seconds >= 0 ?
				       json_object_new_double(rp->wall_seconds) : NULL);
	}
	return parts;
}

static struct json_object *run_json(struct render_ctx *ctx, const struct summary *sm)
{
	struct json_object *run = json_object_new_object();

	if (!run)
		return NULL;
	json_object_object_add(run, "flows", distinct_json(&sm->flows[0]));
	json_object_object_add(run, "flows_tcp_bytes", distinct_json(&sm->flows[1]));
	json_object_object_add(run, "duration_seconds", distinct_json(&sm->duration));
	json_object_object_add(run, "omit_seconds", distinct_json(&sm->omit));
	json_object_object_add(run, "bytes_per_flow", distinct_json(&sm->bytes));
	json_object_object_add(run, "pktgen_count", distinct_json(&sm->pkts));
	json_object_object_add(run, "runs_per_cell", distinct_json(&sm->reps));
	json_object_object_add(run, "parts_per_cell", distinct_json(&sm->parts));
	json_object_object_add(run, "runs", json_object_new_int64(ctx->nmeasured));
	json_object_object_add(run, "verify_passes", json_object_new_int64(ctx->npasses));
	json_object_object_add(run, "counting_rules_runs", json_object_new_int64(ctx->ncounting));
	return run;
}

static struct json_object *workloads_json(struct render_ctx *ctx)
{
	struct json_object *a = json_object_new_array(), *o;
	int w;

	for (w = 0; a && w < RAW_NWORKLOADS; w++) {
		if (!ctx->has_wl[w])
			continue;
		o = json_object_new_object();
		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
		json_object_object_add(o, "name", json_object_new_string(raw_workloads[w].name));
		json_object_object_add(o, "unit", json_object_new_string(raw_workloads[w].unit));
		json_object_object_add(o, "better", json_object_new_string(
					       raw_workloads[w].lower_better ? "lower" : "higher"));
		json_object_object_add(o, "what", json_object_new_string(raw_workloads[w].what));
	}
	return a;
}

/* rows -> cells: a row's fields from its first cell's TC_GROUP columns */
static struct json_object *rows_json(struct render_ctx *ctx, const struct table *cells)
{
	struct json_object *rows, *row = NULL, *arr, *c;
	const struct rrow *r;
	size_t i, first;
	int w, d;

	rows = json_object_new_array();
	for (i = 0; rows && i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		first = (size_t)-1;
		for (w = 0; w < RAW_NWORKLOADS && first == (size_t)-1; w++)
			for (d = 0; d < RAW_NDIRS && first == (size_t)-1; d++)
				if (r->cell[w][d].has_stats)
					first = r->cell[w][d].trow;
		row = table_row_json(cells, first, TJ_GROUP);
		arr = row ? json_object_new_array() : NULL;
		if (!arr || json_object_object_add(row, "cells", arr)) {
			json_object_put(arr);
			goto out_put;
		}
		for (w = 0; w < RAW_NWORKLOADS; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				if (!r->cell[w][d].has_stats)
					continue;
				c = table_row_json(cells, r->cell[w][d].trow, TJ_MEMBER);
				if (!c || json_object_array_add(arr, c)) {
					json_object_put(c);
					goto out_put;
				}
			}
		}
		if (json_object_array_add(rows, row))
			goto out_put;
	}
	return rows;
out_put:
	json_object_put(row);
	json_object_put(rows);
	return NULL;
}

static int write_json(struct render_ctx *ctx, struct table *mains, struct table *cells,
		      const struct summary *sm, FILE *f)
{
	struct json_object *top, *o;
	char num[40];
	const char *s;
	int w, ret = -ENOMEM;

	(void)mains;
	top = json_object_new_object();
	if (!top)
		return -ENOMEM;
	json_object_object_add(top, "format", json_object_new_int(2));
	o = parts_json(ctx);
	if (!o || json_object_object_add(top, "parts", o))
		goto out_put;
	o = run_json(ctx, sm);
	if (!o || json_object_object_add(top, "run", o))
		goto out_put;
	num_shortest(ctx->target, num, sizeof(num));
	json_object_object_add(top, "target_pct", json_object_new_double_s(ctx->target, num));
	json_object_object_add(top, "target_source", json_object_new_string(ctx->target_key));
	o = json_object_new_array();
	for (w = 0; o && w < RAW_NWORKLOADS; w++)
		if (ctx->has_wl[w] && ctx->has_target[w])
			json_object_array_add(o, json_object_new_string(raw_workloads[w].name));
	if (!o || json_object_object_add(top, "target_workloads", o))
		goto out_put;
	json_object_object_add(top, "baseline",
			       json_object_new_string(ctx->rows[ctx->base].key));
	json_object_object_add(top, "verify_failed_rows",
			       json_object_new_int64(ctx->nverify_no));
	o = workloads_json(ctx);
	if (!o || json_object_object_add(top, "workloads", o))
		goto out_put;
	o = rows_json(ctx, cells);
	if (!o || json_object_object_add(top, "rows", o))
		goto out_put;
	s = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		goto out_put;
	fprintf(f, "%s\n", s);
	ret = ferror(f) ? -EIO : 0;
out_put:
	json_object_put(top);
	return ret;
}

/* ---- files -------------------------------------------------------------------- */

typedef int (*writer_fn)(struct render_ctx *, struct table *, struct table *,
			 const struct summary *, FILE *);

static int write_csv(struct render_ctx *ctx, struct table *mains, struct table *cells,
		     const struct summary *sm, FILE *f)
{
	(void)ctx;
	(void)mains;
	(void)sm;
	return table_print_csv(cells, f);
}

/* Write <dir>/<name> through <dir>/.<name>.tmp.<pid> and rename(2). */
static int write_file(struct render_ctx *ctx, const char *name, writer_fn fn,
		      struct table *mains, struct table *cells, const struct summary *sm)
{
	char path[4096], tmp[4096];
	FILE *f;
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s", ctx->dir, name) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%d", ctx->dir, name, (int)getpid()) >=
		    (int)sizeof(tmp)) {
		pr_err("%s/%s: path too long", ctx->dir, name);
		return -ENAMETOOLONG;
	}
	f = fopen(tmp, "w");
	if (!f) {
		ret = -errno;
		pr_err("%s: %s", tmp, strerror(errno));
		return ret;
	}
	ret = fn(ctx, mains, cells, sm, f);
	if (ret) {
		fclose(f);
		unlink(tmp);
		pr_err("%s: %s", tmp, strerror(-ret));
		return ret;
	}
	if (fflush(f) || fsync(fileno(f))) {
		ret = -errno;
		fclose(f);
		unlink(tmp);
		pr_err("%s: %s", tmp, strerror(-ret));
		return ret;
	}
	if (fclose(f)) {
		ret = -errno;
		unlink(tmp);
		pr_err("%s: %s", tmp, strerror(-ret));
		return ret;
	}
	if (rename(tmp, path)) {
		ret = -errno;
		unlink(tmp);
		pr_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

static void ctx_free(struct render_ctx *ctx)
{
	struct rcell *c;
	size_t i;
	int w, d;

	for (i = 0; i < ctx->nrows; i++) {
		for (w = 0; w < RAW_NWORKLOADS; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &ctx->rows[i].cell[w][d];
				free(c->v);
				free(c->vpart);
				free(c->vrun);
				stats_units_free(&c->u);
			}
		}
		free(ctx->rows[i].measured);
		free(ctx->rows[i].passed);
	}
	free(ctx->rows);
	raw_free(&ctx->raw);
}

static void set_target(struct render_ctx *ctx, const struct render_opts *o)
{
	int w;

	for (w = 0; w < RAW_NWORKLOADS; w++)
		ctx->has_target[w] = !ctx->raw.run_txt.target_workloads ||
				     ctx->raw.run_txt.target_workloads & (1u << w);
	if (o && o->target_pct > 0) {
		ctx->target = o->target_pct;
		ctx->target_src = "brnf render --target";
		ctx->target_key = "option";
	} else if (!isnan(ctx->raw.run_txt.target_pct)) {
		ctx->target = ctx->raw.run_txt.target_pct;
		ctx->target_src = "run.txt target_pct";
		ctx->target_key = "run.txt";
	} else {
		ctx->target = RENDER_TARGET_PCT;
		ctx->target_src = "the default";
		ctx->target_key = "default";
	}
}

/* --strict: every part with measured runs of a row has a verification pass of it */
static int check_strict(struct render_ctx *ctx)
{
	const struct rrow *r;
	size_t i, p;

	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		for (p = 0; p < ctx->raw.nparts; p++) {
			if (!r->measured[p] || r->passed[p])
				continue;
			pr_err("%s/raw/%s: no verification pass of row '%s', which has measured "
			       "runs there", ctx->dir, ctx->raw.parts[p].name, r->key);
			return -EINVAL;
		}
	}
	return 0;
}

int render_dir(const char *dir, const struct render_opts *o)
{
	static const struct {
		const char *name;
		writer_fn fn;
	} files[] = {
		{ "matrix.md", write_md },
		{ "matrix.csv", write_csv },
		{ "matrix.json", write_json },
		{ "matrix.txt", write_txt },
	};
	struct render_ctx ctx = { .dir = dir };
	struct table mains[RAW_NWORKLOADS] = { 0 }, cells = { 0 };
	struct summary sm;
	char err[4400];
	size_t i;
	int w, ret;

	ret = raw_read_dir(dir, &ctx.raw, err, sizeof(err));
	if (ret) {
		pr_err("%s", err);
		return ret;
	}
	set_target(&ctx, o);
	ret = group_rows(&ctx);
	if (ret == -ENOMEM)
		goto out_nomem;
	if (ret)
		goto out_free;
	ret = find_baseline(&ctx, o ? o->baseline : NULL);
	if (ret)
		goto out_free;
	ret = compute(&ctx);
	if (ret) {
		pr_err("%s: statistics failed: %s", dir, strerror(-ret));
		goto out_free;
	}
	if (o && o->strict) {
		ret = check_strict(&ctx);
		if (ret)
			goto out_free;
	}
	summarize(&ctx, &sm);
	for (w = 0; w < RAW_NWORKLOADS && !ret; w++)
		if (ctx.has_wl[w])
			ret = build_main(&ctx, w, &mains[w]);
	ret = ret ?: build_cells(&ctx, &cells);
	if (ret)
		goto out_nomem;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ret = write_file(&ctx, files[i].name, files[i].fn, mains, &cells, &sm);
		if (ret)
			goto out_free;
	}
	if (o && o->print) {
		ret = write_txt(&ctx, mains, &cells, &sm, stdout);
		fflush(stdout);
		if (ret)
			goto out_free;
	}
	ret = ctx.nverify_no ? RENDER_VERIFY_FAILED : 0;
	goto out_free;

out_nomem:
	pr_err("%s: out of memory", dir);
out_free:
	for (w = 0; w < RAW_NWORKLOADS; w++)
		table_free(&mains[w]);
	table_free(&cells);
	ctx_free(&ctx);
	return ret;
}
