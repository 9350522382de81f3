// SPDX-License-Identifier: GPL-2.0
/*
 * render: tables from a results directory's raw data alone, see render.h.
 *
 * raw.c reads the runs, this file groups them into rows (by row_key(), in order of
 * row.index, then first appearance), computes each cell's statistics (stats.c) and fills
 * two tables (table.c): the main table in the seed's format plus change and
 * verification columns, and the spread table (n, sd, CV, median, min, max per cell).
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

#define CV_MARK_LIMIT 0.03	/* mark cells whose CV exceeds 3% */
#define CV_MARK "†"
#define DETECT_CHANGE 0.02	/* repetitions needed to detect a 2% change */

enum rverify { RV_NA, RV_YES, RV_NO, RV_PARTIAL, RV_READBACK, RV_NO_EXPECTED, RV_YES_UNEXPECTED };
static const char *const rverify_names[] = {
	[RV_NA] = "n/a", [RV_YES] = "yes", [RV_NO] = "no", [RV_PARTIAL] = "partial",
	[RV_READBACK] = "no (readback)",
	[RV_NO_EXPECTED] = "no (expected)", [RV_YES_UNEXPECTED] = "yes (expected no)",
};

static bool verify_failed(enum rverify v)
{
	return v == RV_NO || v == RV_READBACK || v == RV_YES_UNEXPECTED;
}

struct rcell {
	double *v;		/* Mbit/s, one per run */
	size_t n, cap;
	struct stats_cell s;
	struct stats_change chg;
	bool has_stats, has_chg;
};

struct rrow {
	char key[RAW_KEY_LEN];
	struct brnf_row row;		/* from the first run of the row */
	unsigned int index;		/* smallest row.index seen */
	size_t first;			/* position of the first run */
	struct rcell cell[RAW_NDIRS];
	unsigned int nyes, nno, nna, nreadback_bad;
	enum rverify verify;
};

struct render_ctx {
	const char *dir;
	struct raw_set raw;
	struct rrow *rows;
	size_t nrows;
	size_t base;			/* baseline row */
	unsigned int nverify_no;
};

static int cell_add(struct rcell *c, double v)
{
	double *tmp;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		tmp = realloc(c->v, c->cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		c->v = tmp;
	}
	c->v[c->n++] = v;
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct rrow *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

static int group_rows(struct render_ctx *ctx)
{
	struct rrow *r, *tmp;
	struct raw_run *run;
	size_t i, j, cap = 0;
	int ret;

	for (i = 0; i < ctx->raw.nruns; i++) {
		run = &ctx->raw.runs[i];
		for (j = 0; j < ctx->nrows; j++)
			if (!strcmp(ctx->rows[j].key, run->key))
				break;
		if (j == ctx->nrows) {
			if (ctx->nrows == cap) {
				cap = cap ? cap * 2 : 16;
				tmp = realloc(ctx->rows, cap * sizeof(*tmp));
				if (!tmp)
					return -ENOMEM;
				ctx->rows = tmp;
			}
			r = &ctx->rows[ctx->nrows++];
			memset(r, 0, sizeof(*r));
			strcpy(r->key, run->key);
			r->row = run->row;
			r->index = run->row_index;
			r->first = i;
		}
		r = &ctx->rows[j];
		if (run->row_index < r->index)
			r->index = run->row_index;
		if (!r->row.label[0] && run->row.label[0])
			strcpy(r->row.label, run->row.label);
		ret = cell_add(&r->cell[run->dir], run->bps / 1e6);
		if (ret)
			return ret;
		r->nyes += run->verify == RAW_VERIFY_YES;
		r->nno += run->verify == RAW_VERIFY_NO;
		r->nna += run->verify == RAW_VERIFY_NA;
		r->nreadback_bad += !run->readback_ok;
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

static int compute(struct render_ctx *ctx)
{
	struct rrow *r, *b = &ctx->rows[ctx->base];
	size_t i;
	int d, ret;

	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		for (d = 0; d < RAW_NDIRS; d++) {
			if (!r->cell[d].n)
				continue;
			ret = stats_compute(r->cell[d].v, r->cell[d].n, &r->cell[d].s);
			if (ret)
				return ret;
			r->cell[d].has_stats = true;
		}
		if (r->nreadback_bad)
			r->verify = RV_READBACK;
		else if (r->nno)
			r->verify = RV_NO;
		else if (r->nyes && !r->nna)
			r->verify = RV_YES;
		else if (r->nna && !r->nyes)
			r->verify = RV_NA;
		else
			r->verify = RV_PARTIAL;
		/* expect=mismatch: the row shows a design that ignores its
		 * configuration; every run must say no */
		if (r->row.expect_mismatch && r->verify == RV_NO && !r->nyes && !r->nna)
			r->verify = RV_NO_EXPECTED;
		else if (r->row.expect_mismatch && r->verify != RV_READBACK)
			r->verify = RV_YES_UNEXPECTED;
		ctx->nverify_no += verify_failed(r->verify);
	}
	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		for (d = 0; d < RAW_NDIRS; d++) {
			if (i == ctx->base || !r->cell[d].has_stats || !b->cell[d].has_stats)
				continue;
			if (stats_change(&r->cell[d].s, &b->cell[d].s, &r->cell[d].chg))
				continue;	/* baseline mean 0: no change figure */
			r->cell[d].has_chg = true;
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

/* ---- the main table ---------------------------------------------------------- */

enum {
	M_KERNEL, M_LABEL, M_GLOBAL, M_LOCAL, M_RULESET, M_KEY, M_DOWN, M_UP, M_CHG_DOWN,
	M_CHG_UP, M_VERIFIED, M_BASELINE, M_NFIXED
};

static const struct tcol main_fixed[M_NFIXED] = {
	[M_KERNEL] = { "kernel", "kernel", TA_LEFT, TC_BOTH, false, 0 },
	[M_LABEL] = { "label", "label", TA_LEFT, TC_DATA, false, 0 },
	[M_GLOBAL] = { "br-nf-* global", "global", TA_LEFT, TC_BOTH, false, 0 },
	[M_LOCAL] = { "nf-call* iface", "local", TA_LEFT, TC_BOTH, false, 0 },
	[M_RULESET] = { "ruleset", "ruleset", TA_LEFT, TC_BOTH, false, 0 },
	[M_KEY] = { "key", "key", TA_LEFT, TC_DATA, false, 0 },
	[M_DOWN] = { "download Mbit/s (mean ± 95% CI)", "download", TA_RIGHT, TC_TEXT, false, 0 },
	[M_UP] = { "upload Mbit/s (mean ± 95% CI)", "upload", TA_RIGHT, TC_TEXT, false, 0 },
	[M_CHG_DOWN] = { "Δ download vs baseline", "change_download", TA_LEFT, TC_TEXT,
			 false, 0 },
	[M_CHG_UP] = { "Δ upload vs baseline", "change_upload", TA_LEFT, TC_TEXT, false, 0 },
	[M_VERIFIED] = { "filtering verified", "verified", TA_LEFT, TC_BOTH, false, 0 },
	[M_BASELINE] = { "baseline", "baseline", TA_LEFT, TC_DATA, false, 0 },
};

/* per direction data columns (CSV/JSON), unrounded */
enum {
	D_N, D_MEAN, D_SD, D_CI95, D_CI_LOW, D_CI_HIGH, D_CV, D_MEDIAN, D_MIN, D_MAX,
	D_REPS, D_CHG, D_CHG_LOW, D_CHG_HIGH, D_CHG_DOF, D_INDIST, D_VALUES, D_NFIELDS
};
static const char *const dir_fields[D_NFIELDS] = {
	"n", "mean_mbps", "sd_mbps", "ci95_mbps", "ci95_low_mbps", "ci95_high_mbps", "cv",
	"median_mbps", "min_mbps", "max_mbps", "reps_for_2pct", "change_pct",
	"change_low_pct", "change_high_pct", "change_dof", "indistinguishable", "values_mbps",
};

#define MAIN_NCOLS (M_NFIXED + RAW_NDIRS * D_NFIELDS)

static char dir_keys[RAW_NDIRS][D_NFIELDS][40];

static void main_columns(struct tcol *cols)
{
	int d, f;

	memcpy(cols, main_fixed, sizeof(main_fixed));
	for (d = 0; d < RAW_NDIRS; d++) {
		for (f = 0; f < D_NFIELDS; f++) {
			struct tcol *c = &cols[M_NFIXED + d * D_NFIELDS + f];

			snprintf(dir_keys[d][f], sizeof(dir_keys[d][f]), "%s_%s",
				 raw_dir_names[d], dir_fields[f]);
			memset(c, 0, sizeof(*c));
			c->header = dir_keys[d][f];
			c->key = dir_keys[d][f];
			c->align = TA_RIGHT;
			c->flags = TC_DATA;
		}
	}
}

static int rate_text(struct table *t, size_t row, size_t col, const struct rcell *c)
{
	const char *mark = c->has_stats && c->s.cv > CV_MARK_LIMIT ? " " CV_MARK : "";
	int dec;

	if (!c->has_stats)
		return table_text(t, row, col, false, "-");
	if (c->s.n < 2)
		return table_text(t, row, col, false, "%.1f (n=1)", c->s.mean);
	dec = decimals(c->s.ci95);
	return table_text(t, row, col, false, "%.*f ± %.*f%s", dec, c->s.mean, dec, c->s.ci95,
			  mark);
}

static int change_text(struct table *t, size_t row, size_t col, const struct rcell *c,
		       bool is_base)
{
	int dec;

	if (is_base)
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

static void dir_data(struct table *t, size_t row, int d, const struct rcell *c)
{
	size_t col = M_NFIXED + d * D_NFIELDS;
	const struct stats_cell *s = &c->s;

	if (!c->has_stats) {
		table_int(t, row, col + D_N, 0);
		return;
	}
	table_int(t, row, col + D_N, s->n);
	table_nums(t, row, col + D_VALUES, c->v, c->n);
	table_num(t, row, col + D_MEAN, s->mean);
	table_num(t, row, col + D_SD, s->sd);
	table_num(t, row, col + D_CI95, s->ci95);
	table_num(t, row, col + D_CI_LOW, s->mean - s->ci95);
	table_num(t, row, col + D_CI_HIGH, s->mean + s->ci95);
	table_num(t, row, col + D_CV, s->cv);
	table_num(t, row, col + D_MEDIAN, s->median);
	table_num(t, row, col + D_MIN, s->min);
	table_num(t, row, col + D_MAX, s->max);
	if (stats_reps_needed(s, DETECT_CHANGE))
		table_int(t, row, col + D_REPS, stats_reps_needed(s, DETECT_CHANGE));
	if (!c->has_chg)
		return;
	table_num(t, row, col + D_CHG, c->chg.pct);
	table_num(t, row, col + D_CHG_LOW, c->chg.low);
	table_num(t, row, col + D_CHG_HIGH, c->chg.high);
	table_num(t, row, col + D_CHG_DOF, c->chg.dof);
	if (c->chg.has_interval)
		table_bool(t, row, col + D_INDIST, c->chg.indistinguishable);
}

static int build_main(struct render_ctx *ctx, struct table *t)
{
	struct tcol cols[MAIN_NCOLS];
	char buf[256];
	bool any_ruleset = false;
	struct rrow *r;
	size_t i;
	int row, d, ret;

	main_columns(cols);
	ret = table_init(t, cols, MAIN_NCOLS);
	if (ret)
		return ret;
	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		row = table_add_row(t);
		if (row < 0)
			return row;
		any_ruleset |= strcmp(r->row.ruleset, "none") != 0;
		ret = table_text(t, row, M_KERNEL, false, "%s",
				 kernel_text(&r->row, buf, sizeof(buf)));
		ret = ret ?: table_str(t, row, M_KERNEL, r->row.kernel);
		ret = ret ?: table_str(t, row, M_LABEL, r->row.label);
		row_global_str(&r->row, buf, sizeof(buf));
		ret = ret ?: table_text(t, row, M_GLOBAL, false, "%s", buf);
		ret = ret ?: table_str(t, row, M_GLOBAL, buf);
		row_local_str(&r->row, buf, sizeof(buf));
		ret = ret ?: table_text(t, row, M_LOCAL, false, "%s", buf);
		ret = ret ?: table_str(t, row, M_LOCAL, buf);
		ret = ret ?: table_text(t, row, M_RULESET, false, "%s", r->row.ruleset);
		ret = ret ?: table_str(t, row, M_RULESET, r->row.ruleset);
		ret = ret ?: table_str(t, row, M_KEY, r->key);
		ret = ret ?: rate_text(t, row, M_DOWN, &r->cell[RAW_DOWNLOAD]);
		ret = ret ?: rate_text(t, row, M_UP, &r->cell[RAW_UPLOAD]);
		ret = ret ?: change_text(t, row, M_CHG_DOWN, &r->cell[RAW_DOWNLOAD],
					 i == ctx->base);
		ret = ret ?: change_text(t, row, M_CHG_UP, &r->cell[RAW_UPLOAD], i == ctx->base);
		ret = ret ?: table_text(t, row, M_VERIFIED,
					verify_failed(r->verify),
					"%s", rverify_names[r->verify]);
		ret = ret ?: table_str(t, row, M_VERIFIED, rverify_names[r->verify]);
		ret = ret ?: table_bool(t, row, M_BASELINE, i == ctx->base);
		if (ret)
			return ret;
		for (d = 0; d < RAW_NDIRS; d++)
			dir_data(t, row, d, &r->cell[d]);
	}
	t->cols[M_RULESET].hidden = !any_ruleset;
	return 0;
}

/* ---- the spread table (one row per cell) -------------------------------------- */

enum {
	S_KERNEL, S_GLOBAL, S_LOCAL, S_RULESET, S_DIR, S_N, S_MEAN, S_SD, S_CV, S_MEDIAN,
	S_MIN, S_MAX, S_REPS, S_VALUES, S_NCOLS
};

static const struct tcol spread_cols[S_NCOLS] = {
	[S_KERNEL] = { "kernel", "kernel", TA_LEFT, TC_BOTH, false, 0 },
	[S_GLOBAL] = { "br-nf-* global", "global", TA_LEFT, TC_BOTH, false, 0 },
	[S_LOCAL] = { "nf-call* iface", "local", TA_LEFT, TC_BOTH, false, 0 },
	[S_RULESET] = { "ruleset", "ruleset", TA_LEFT, TC_BOTH, false, 0 },
	[S_DIR] = { "direction", "direction", TA_LEFT, TC_BOTH, false, 0 },
	[S_N] = { "n", "n", TA_RIGHT, TC_BOTH, false, 0 },
	[S_MEAN] = { "mean", "mean_mbps", TA_RIGHT, TC_BOTH, false, 0 },
	[S_SD] = { "sd", "sd_mbps", TA_RIGHT, TC_BOTH, false, 0 },
	[S_CV] = { "CV", "cv", TA_RIGHT, TC_BOTH, false, 0 },
	[S_MEDIAN] = { "median", "median_mbps", TA_RIGHT, TC_BOTH, false, 0 },
	[S_MIN] = { "min", "min_mbps", TA_RIGHT, TC_BOTH, false, 0 },
	[S_MAX] = { "max", "max_mbps", TA_RIGHT, TC_BOTH, false, 0 },
	[S_REPS] = { "reps for 2%", "reps_for_2pct", TA_RIGHT, TC_BOTH, false, 0 },
	[S_VALUES] = { "runs in run order", "values_mbps", TA_LEFT, TC_BOTH, false, 0 },
};

#define VALUES_SHOWN 20		/* the text form lists at most this many runs */

/* every run's rate, so that a mode flip is visible and not only its mean */
static int values_text(struct table *t, size_t row, size_t col, const struct rcell *c)
{
	char buf[VALUES_SHOWN * 16 + 8];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < c->n && i < VALUES_SHOWN; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%.1f", i ? " " : "", c->v[i]);
	if (c->n > VALUES_SHOWN)
		snprintf(buf + off, sizeof(buf) - off, " ...");
	return table_text(t, row, col, false, "%s", buf) ?: table_nums(t, row, col, c->v, c->n);
}

static int build_spread(struct render_ctx *ctx, const struct table *main, struct table *t)
{
	const struct stats_cell *s;
	struct rrow *r;
	unsigned long reps;
	char buf[256];
	size_t i;
	int row, d, ret;

	ret = table_init(t, spread_cols, S_NCOLS);
	if (ret)
		return ret;
	t->cols[S_RULESET].hidden = main->cols[M_RULESET].hidden;
	for (i = 0; i < ctx->nrows; i++) {
		r = &ctx->rows[i];
		for (d = 0; d < RAW_NDIRS; d++) {
			s = &r->cell[d].s;
			row = table_add_row(t);
			if (row < 0)
				return row;
			ret = table_text(t, row, S_KERNEL, false, "%s",
					 kernel_text(&r->row, buf, sizeof(buf)));
			ret = ret ?: table_str(t, row, S_KERNEL, r->row.kernel);
			row_global_str(&r->row, buf, sizeof(buf));
			ret = ret ?: table_text(t, row, S_GLOBAL, false, "%s", buf);
			ret = ret ?: table_str(t, row, S_GLOBAL, buf);
			row_local_str(&r->row, buf, sizeof(buf));
			ret = ret ?: table_text(t, row, S_LOCAL, false, "%s", buf);
			ret = ret ?: table_str(t, row, S_LOCAL, buf);
			ret = ret ?: table_text(t, row, S_RULESET, false, "%s", r->row.ruleset);
			ret = ret ?: table_str(t, row, S_RULESET, r->row.ruleset);
			ret = ret ?: table_text(t, row, S_DIR, false, "%s", raw_dir_names[d]);
			ret = ret ?: table_str(t, row, S_DIR, raw_dir_names[d]);
			ret = ret ?: table_text(t, row, S_N, false, "%zu", r->cell[d].n);
			ret = ret ?: table_int(t, row, S_N, r->cell[d].n);
			if (ret)
				return ret;
			if (!r->cell[d].has_stats) {
				for (int c = S_MEAN; c < S_NCOLS; c++)
					table_text(t, row, c, false, "-");
				continue;
			}
			ret = table_text(t, row, S_MEAN, false, "%.2f", s->mean);
			ret = ret ?: table_num(t, row, S_MEAN, s->mean);
			if (s->n >= 2) {
				ret = ret ?: table_text(t, row, S_SD, false, "%.2f", s->sd);
				ret = ret ?: table_text(t, row, S_CV, false, "%.2f%%%s",
							100 * s->cv,
							s->cv > CV_MARK_LIMIT ? " " CV_MARK : "");
			} else {
				ret = ret ?: table_text(t, row, S_SD, false, "n=1");
				ret = ret ?: table_text(t, row, S_CV, false, "n=1");
			}
			ret = ret ?: table_num(t, row, S_SD, s->sd);
			ret = ret ?: table_num(t, row, S_CV, s->cv);
			ret = ret ?: table_text(t, row, S_MEDIAN, false, "%.2f", s->median);
			ret = ret ?: table_num(t, row, S_MEDIAN, s->median);
			ret = ret ?: table_text(t, row, S_MIN, false, "%.2f", s->min);
			ret = ret ?: table_num(t, row, S_MIN, s->min);
			ret = ret ?: table_text(t, row, S_MAX, false, "%.2f", s->max);
			ret = ret ?: table_num(t, row, S_MAX, s->max);
			reps = stats_reps_needed(s, DETECT_CHANGE);
			if (reps) {
				ret = ret ?: table_text(t, row, S_REPS, false, "%lu", reps);
				ret = ret ?: table_int(t, row, S_REPS, reps);
			} else {
				ret = ret ?: table_text(t, row, S_REPS, false, "-");
			}
			ret = ret ?: values_text(t, row, S_VALUES, &r->cell[d]);
			if (ret)
				return ret;
		}
	}
	return 0;
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
	struct distinct flows, duration, omit, reps;
	unsigned int nruns;
	bool icount;
};

static void distinct(const double *v, size_t n, struct distinct *d)
{
	size_t i, j;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < n; i++) {
		for (j = 0; j < d->n; j++)
			if (d->v[j] == v[i])
				break;
		if (j < d->n)
			continue;
		if (d->n == DISTINCT_MAX) {
			d->more = true;
			return;
		}
		d->v[d->n++] = v[i];
	}
}

/* "3 s" or "1 s, 3 s" (each with @unit) */
static const char *distinct_str(const struct distinct *d, const char *unit, char *buf, size_t len)
{
	size_t off = 0, i;

	buf[0] = '\0';
	for (i = 0; i < d->n && off < len; i++) {
		if (d->v[i] < 0)
			off += snprintf(buf + off, len - off, "%sunknown", i ? ", " : "");
		else
			off += snprintf(buf + off, len - off, "%s%g%s", i ? ", " : "", d->v[i], unit);
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

static int summarize(struct render_ctx *ctx, struct summary *sm)
{
	size_t n = ctx->raw.nruns, i;
	double *v;

	memset(sm, 0, sizeof(*sm));
	v = calloc(n + ctx->nrows * RAW_NDIRS + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = ctx->raw.runs[i].nflows;
	distinct(v, n, &sm->flows);
	for (i = 0; i < n; i++)
		v[i] = ctx->raw.runs[i].duration;
	distinct(v, n, &sm->duration);
	for (i = 0; i < n; i++)
		v[i] = ctx->raw.runs[i].omit;
	distinct(v, n, &sm->omit);
	for (i = 0; i < ctx->nrows * RAW_NDIRS; i++)
		v[i] = ctx->rows[i / RAW_NDIRS].cell[i % RAW_NDIRS].n;
	distinct(v, ctx->nrows * RAW_NDIRS, &sm->reps);
	sm->nruns = n;
	for (i = 0; i < ctx->raw.nparts; i++)
		sm->icount |= !strcmp(ctx->raw.parts[i].clock, "icount");
	free(v);
	return 0;
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

static void print_notes(struct render_ctx *ctx, const struct summary *sm, FILE *f)
{
	fprintf(f, "Rates: the receiver's rate (iperf3 `end.sum_received`) summed over the "
		   "parallel flows of a run, in Mbit/s (10^6 bit/s). A cell is the mean over "
		   "its runs ± the half-width of the 95%% confidence interval (Student t, "
		   "n-1 degrees of freedom); \"n=1\" has no interval. "
		   "Δ: change of the mean against the baseline row (`%s`) in percent, with "
		   "the 95%% Welch interval of the difference divided by the baseline mean; "
		   "\"indistinguishable\" when that interval contains 0.\n\n",
		ctx->rows[ctx->base].key);
	fprintf(f, "Filtering verified: iptables `physdev` counters in the AP namespace show "
		   "whether exactly the bridges the row configured passed their frames to "
		   "iptables (yes: every run; no: some run did not, the row's numbers do not "
		   "measure what it claims; n/a: not checked; partial: some runs yes, the "
		   "others not checked; \"no (readback)\": a flag read back differed from "
		   "the row; \"no (expected)\": a row marked expect=mismatch, which shows a "
		   "design that ignores its configuration, and it did).\n\n");
	fprintf(f, "%s CV (sd/mean) above 3%%: the runs of this cell spread widely, possibly "
		   "between modes; see min and max below.\n\n", CV_MARK);
	if (sm->icount)
		fprintf(f, "Clock `icount`: guest time advances with every executed instruction, "
			   "so a rate measures instructions per byte on a model of an in-order "
			   "CPU with uniform instruction cost, like the router in the seed, "
			   "without caches.\n\n");
}

static int write_md(struct render_ctx *ctx, struct table *main, struct table *spread,
		    const struct summary *sm, FILE *f)
{
	char buf[160];
	int ret;

	fprintf(f, "# brnf matrix\n\n");
	ret = table_print_md(main, f);
	if (ret)
		return ret;
	fputc('\n', f);
	print_notes(ctx, sm, f);
	fprintf(f, "## Spread per cell\n\n");
	ret = table_print_md(spread, f);
	if (ret)
		return ret;
	fprintf(f, "\nValues in Mbit/s. \"reps for 2%%\": repetitions per row that would detect "
		   "a 2%% change at this sd (two-sample, 95%%, 80%% power, normal "
		   "approximation). \"runs in run order\": every run's rate, parts in name "
		   "order, runs in the order they ran.\n\n");
	fprintf(f, "## What was run\n\n");
	fprintf(f, "- flows per run: %s\n", distinct_str(&sm->flows, "", buf, sizeof(buf)));
	fprintf(f, "- duration: %s", distinct_str(&sm->duration, " s", buf, sizeof(buf)));
	fprintf(f, ", omitted warm-up: %s\n", distinct_str(&sm->omit, " s", buf, sizeof(buf)));
	fprintf(f, "- runs per cell (repetitions, over all parts): %s (%u runs in %zu part%s)\n",
		distinct_str(&sm->reps, "", buf, sizeof(buf)), sm->nruns, ctx->raw.nparts,
		ctx->raw.nparts == 1 ? "" : "s");
	print_parts(ctx, f, "- ");
	if (ctx->nverify_no)
		fprintf(f, "\n**Filtering verification failed for %u row%s.**\n",
			ctx->nverify_no, ctx->nverify_no == 1 ? "" : "s");
	return ferror(f) ? -EIO : 0;
}

static int write_txt(struct render_ctx *ctx, struct table *main, struct table *spread,
		     const struct summary *sm, FILE *f)
{
	char buf[160];
	int ret;

	ret = table_print_text(main, f);
	if (ret)
		return ret;
	fprintf(f, "\nMbit/s, mean ± 95%% CI; Δ vs %s with 95%% Welch interval; " CV_MARK
		   " CV > 3%%\n\n", ctx->rows[ctx->base].key);
	ret = table_print_text(spread, f);
	if (ret)
		return ret;
	fprintf(f, "\nflows %s", distinct_str(&sm->flows, "", buf, sizeof(buf)));
	fprintf(f, ", duration %s", distinct_str(&sm->duration, " s", buf, sizeof(buf)));
	fprintf(f, ", omit %s", distinct_str(&sm->omit, " s", buf, sizeof(buf)));
	fprintf(f, ", runs per cell %s\n", distinct_str(&sm->reps, "", buf, sizeof(buf)));
	if (sm->icount)
		fprintf(f, "icount: rates measure instructions per byte on a model of an in-order "
			   "CPU with uniform instruction cost, without caches\n");
	print_parts(ctx, f, "");
	if (ctx->nverify_no)
		fprintf(f, "FILTERING VERIFICATION FAILED for %u row%s\n", ctx->nverify_no,
			ctx->nverify_no == 1 ? "" : "s");
	return ferror(f) ? -EIO : 0;
}

static int write_json(struct render_ctx *ctx, struct table *main, struct table *spread,
		      const struct summary *sm, FILE *f)
{
	struct json_object *top, *parts, *p, *rows, *cells, *run;
	const struct raw_part *rp;
	const char *s;
	size_t i;
	int ret = -ENOMEM;

	top = json_object_new_object();
	if (!top)
		return -ENOMEM;
	parts = json_object_new_array();
	if (!parts || json_object_object_add(top, "parts", parts))
		goto out_put;
	for (i = 0; i < ctx->raw.nparts; i++) {
		rp = &ctx->raw.parts[i];
		p = json_object_new_object();
		if (!p || json_object_array_add(parts, p))
			goto out_put;
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
	run = json_object_new_object();
	if (!run || json_object_object_add(top, "run", run))
		goto out_put;
	json_object_object_add(run, "flows", distinct_json(&sm->flows));
	json_object_object_add(run, "duration_seconds", distinct_json(&sm->duration));
	json_object_object_add(run, "omit_seconds", distinct_json(&sm->omit));
	json_object_object_add(run, "runs_per_cell", distinct_json(&sm->reps));
	json_object_object_add(run, "runs", json_object_new_int64(sm->nruns));
	json_object_object_add(top, "unit", json_object_new_string("Mbit/s (10^6 bit/s)"));
	json_object_object_add(top, "baseline",
			       json_object_new_string(ctx->rows[ctx->base].key));
	json_object_object_add(top, "verify_failed_rows",
			       json_object_new_int64(ctx->nverify_no));
	rows = table_to_json(main);
	if (!rows || json_object_object_add(top, "rows", rows))
		goto out_put;
	cells = table_to_json(spread);
	if (!cells || json_object_object_add(top, "cells", cells))
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

static int write_csv(struct render_ctx *ctx, struct table *main, struct table *spread,
		     const struct summary *sm, FILE *f)
{
	(void)ctx;
	(void)spread;
	(void)sm;
	return table_print_csv(main, f);
}

/* Write <dir>/<name> through <dir>/.<name>.tmp.<pid> and rename(2). */
static int write_file(struct render_ctx *ctx, const char *name, writer_fn fn,
		      struct table *main, struct table *spread, const struct summary *sm)
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
	ret = fn(ctx, main, spread, sm, f);
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
	size_t i;
	int d;

	for (i = 0; i < ctx->nrows; i++)
		for (d = 0; d < RAW_NDIRS; d++)
			free(ctx->rows[i].cell[d].v);
	free(ctx->rows);
	raw_free(&ctx->raw);
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
	struct table main = { 0 }, spread = { 0 };
	struct summary sm;
	char err[4400];
	size_t i;
	int ret;

	ret = raw_read_dir(dir, &ctx.raw, err, sizeof(err));
	if (ret) {
		pr_err("%s", err);
		return ret;
	}
	ret = group_rows(&ctx);
	if (ret)
		goto out_nomem;
	ret = find_baseline(&ctx, o ? o->baseline : NULL);
	if (ret)
		goto out_free;
	ret = compute(&ctx);
	if (ret) {
		pr_err("%s: statistics failed: %s", dir, strerror(-ret));
		goto out_free;
	}
	ret = summarize(&ctx, &sm);
	ret = ret ?: build_main(&ctx, &main);
	ret = ret ?: build_spread(&ctx, &main, &spread);
	if (ret)
		goto out_nomem;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ret = write_file(&ctx, files[i].name, files[i].fn, &main, &spread, &sm);
		if (ret)
			goto out_free;
	}
	if (o && o->print) {
		ret = write_txt(&ctx, &main, &spread, &sm, stdout);
		fflush(stdout);
		if (ret)
			goto out_free;
	}
	ret = ctx.nverify_no ? RENDER_VERIFY_FAILED : 0;
	goto out_free;

out_nomem:
	pr_err("%s: out of memory", dir);
out_free:
	table_free(&main);
	table_free(&spread);
	ctx_free(&ctx);
	return ret;
}
