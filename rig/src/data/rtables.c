// SPDX-License-Identifier: GPL-2.0
/* rtables: the tables of a results directory, from its rowstats; see rtables.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtables.h"

/* decimals for a value shown with an interval of half-width @ci */
static int decimals(double ci)
{
	if (!isfinite(ci) || ci == 0 || ci >= 0.1)
		return 1;
	if (ci >= 0.01)
		return 2;
	return 3;
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
	[M_PATH] = { "path", "path", TA_LEFT, TC_TEXT, false, 0 },
	[M_N] = { "parts × runs", "parts_runs", TA_RIGHT, TC_TEXT, false, 0 },
	[M_VERIFIED] = { "filtering verified", "verified", TA_LEFT, TC_TEXT, false, 0 },
};

static void main_columns(struct rowstats *rs, struct rtables *tb, int w, struct tcol *cols)
{
	static const enum tcol_align align[MD_NCOLS] = { TA_RIGHT, TA_LEFT, TA_LEFT };
	char (*h)[96] = tb->hdr[w];
	int d, k;

	memcpy(cols, main_fixed, sizeof(main_fixed));
	for (d = 0; d < RAW_NDIRS; d++) {
		k = M_DIR + d * MD_NCOLS;
		snprintf(h[k + MD_MEAN], sizeof(h[0]), "%s %s (mean ± 95%% CI)",
			 raw_dir_names[d], brnf_workloads[w].unit);
		snprintf(h[k + MD_CHG], sizeof(h[0]), "Δ %s vs baseline%s", raw_dir_names[d],
			 rs->floor && rowstats_is_pps(w) ? " (floor ± S + w)" : "");
		snprintf(h[k + MD_REACHED], sizeof(h[0]), "%s reached ±%g%%", raw_dir_names[d],
			 rs->target);
		for (int j = 0; j < MD_NCOLS; j++) {
			cols[k + j].header = h[k + j];
			cols[k + j].key = h[k + j];
			cols[k + j].align = align[j];
			cols[k + j].flags = TC_TEXT;
		}
	}
	cols[M_RULESET].hidden = !rs->any_ruleset;
	cols[M_PATH].hidden = !rs->any_path;
	for (d = 0; d < RAW_NDIRS; d++)
		cols[M_DIR + d * MD_NCOLS + MD_REACHED].hidden = !rs->has_target[w];
}

static int mean_text(struct table *t, size_t row, size_t col, const struct rcell *c)
{
	const char *cv = c->s.cv > CV_MARK_LIMIT ? " " CV_MARK : "";
	const char *lost = c->lost_runs ? " " LOST_MARK : "";
	const char *left = c->error_runs ? " " ERROR_MARK : "";
	int dec;

	if (!c->has_stats)
		return table_text(t, row, col, false, "-%s", left);
	if (c->s.n < 2)
		return table_text(t, row, col, false, "%.1f (n=1)%s%s", c->s.mean, lost, left);
	dec = decimals(c->s.ci95);
	return table_text(t, row, col, false, "%.*f ± %.*f%s%s%s", dec, c->s.mean, dec,
			  c->s.ci95, cv, lost, left);
}

/* a floor's change with its ends rounded outward (floor.h); a fallback marked */
static int change_text(struct table *t, size_t row, size_t col, const struct rcell *c,
		       bool is_base)
{
	const char *mark = c->fallback ? " " FLOOR_FALLBACK_MARK : "";
	char buf[96];

	if (is_base && c->has_stats)
		return table_text(t, row, col, false, "baseline");
	if (!c->has_chg)
		return table_text(t, row, col, false, "-");
	if (!c->chg.has_interval)
		return table_text(t, row, col, false, "%+.1f%% (n=1)%s", c->chg.pct, mark);
	floor_change_text(&c->chg, c->by_floor, buf, sizeof(buf));
	return table_text(t, row, col, false, "%s%s%s", buf,
			  c->chg.indistinguishable ? " indistinguishable" : "", mark);
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

static int build_main(struct rowstats *rs, struct rtables *tb, int w)
{
	struct table *t = &tb->mains[w];
	struct tcol cols[M_NCOLS];
	char buf[256], a[64], b[64];
	const struct rcell *c;
	struct rrow *r;
	size_t i;
	int row, d, k, ret;

	main_columns(rs, tb, w, cols);
	ret = table_init(t, cols, M_NCOLS);
	if (ret)
		return ret;
	for (i = 0; i < rs->nrows; i++) {
		r = &rs->rows[i];
		if (!r->cell[w][RAW_DOWNLOAD].n && !r->cell[w][RAW_UPLOAD].n)
			continue;
		row = table_add_row(t);
		if (row < 0)
			return row;
		ret = table_text(t, row, M_KERNEL, false, "%s",
				 rowstats_kernel_text(&r->row, buf, sizeof(buf)));
		row_global_str(&r->row, buf, sizeof(buf));
		ret = ret ?: table_text(t, row, M_GLOBAL, false, "%s", buf);
		row_local_str(&r->row, buf, sizeof(buf));
		ret = ret ?: table_text(t, row, M_LOCAL, false, "%s", buf);
		ret = ret ?: table_text(t, row, M_RULESET, false, "%s", r->row.ruleset);
		ret = ret ?: table_text(t, row, M_PATH, false, "%s", brnf_path_names[r->row.path]);
		for (d = 0; d < RAW_NDIRS && !ret; d++) {
			c = &r->cell[w][d];
			k = M_DIR + d * MD_NCOLS;
			ret = mean_text(t, row, k + MD_MEAN, c);
			ret = ret ?: change_text(t, row, k + MD_CHG, c, rowstats_is_base(rs, i));
			ret = ret ?: reached_text(t, row, k + MD_REACHED, c,
						  rowstats_is_base(rs, i));
		}
		parts_runs_text(&r->cell[w][RAW_DOWNLOAD], a, sizeof(a));
		parts_runs_text(&r->cell[w][RAW_UPLOAD], b, sizeof(b));
		if (strcmp(a, b))
			ret = ret ?: table_text(t, row, M_N, false, "%s / %s", a, b);
		else
			ret = ret ?: table_text(t, row, M_N, false, "%s", a);
		ret = ret ?: table_text(t, row, M_VERIFIED,
					rowstats_verify_failed(r->verify) || r->verify == RV_MISSING,
					"%s", rverify_names[r->verify]);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the cell table: spread tables (text), matrix.csv and matrix.json (data) -------- */

enum {
	C_KEY, C_KERNEL, C_LABEL, C_GLOBAL, C_LOCAL, C_RULESET, C_PATH, C_EXPECT, C_BASELINE,
	C_VERIFIED, C_PASSES, C_MISSING, C_WORKLOAD, C_DIR, C_UNIT, C_BETTER, C_STAT_UNIT,
	C_N, C_NPARTS, C_NRUNS, C_PARTS_RUNS, C_MEAN, C_SD, C_CI95, C_CI_LOW, C_CI_HIGH,
	C_CI_PCT, C_CV, C_MEDIAN, C_MIN, C_MAX, C_MPPS, C_WIRE, C_REPS, C_CHG, C_CHG_LOW,
	C_CHG_HIGH, C_CHG_DOF, C_INDIST, C_HW, C_REACHED, C_UNITS, C_UNITS_CHG, C_PER_PART,
	C_PART_NAMES, C_PART_RUNS, C_VALUES, C_RUN_NAMES, C_SENT, C_RECEIVED, C_LOST_RUNS,
	C_UNITS_TEXT, C_ESTIMATOR, C_FLOOR, C_FIRST, C_WITHIN, C_BUSY, C_NCOLS
};

#define G (TC_DATA | TC_GROUP)
static const struct tcol cell_cols[C_NCOLS] = {
	[C_KEY] = { "key", "key", TA_LEFT, G, false, 0 },
	[C_KERNEL] = { "kernel", "kernel", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_LABEL] = { "label", "label", TA_LEFT, G, false, 0 },
	[C_GLOBAL] = { "br-nf-* global", "global", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_LOCAL] = { "nf-call* iface", "local", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_RULESET] = { "ruleset", "ruleset", TA_LEFT, G | TC_TEXT, false, 0 },
	[C_PATH] = { "path", "path", TA_LEFT, G | TC_TEXT, false, 0 },
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
	/* the floor estimator's (floor.h); in no form without it */
	[C_ESTIMATOR] = { "estimator", "estimator", TA_LEFT, TC_DATA, false, 0 },
	[C_FLOOR] = { "busy floor", "floor_ns", TA_RIGHT, TC_BOTH, false, 0 },
	[C_FIRST] = { "first level", "first_level_ns", TA_RIGHT, TC_DATA, false, 0 },
	[C_WITHIN] = { "within level", "within_level_ns", TA_RIGHT, TC_DATA, false, 0 },
	[C_BUSY] = { "busy values", "busy_values", TA_LEFT, TC_DATA, false, 0 },
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
static int cell_row_fields(struct rowstats *rs, struct table *t, size_t row,
			   const struct rrow *r, bool is_base)
{
	const char **missing;
	char buf[256];
	size_t p, n = 0;
	int ret;

	ret = table_text(t, row, C_KERNEL, false, "%s", rowstats_kernel_text(&r->row, buf, sizeof(buf)));
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
	ret = ret ?: table_text(t, row, C_PATH, false, "%s", brnf_path_names[r->row.path]);
	ret = ret ?: table_str(t, row, C_PATH, brnf_path_names[r->row.path]);
	ret = ret ?: table_str(t, row, C_EXPECT, r->row.expect_mismatch ? "mismatch" : "match");
	ret = ret ?: table_bool(t, row, C_BASELINE, is_base);
	ret = ret ?: table_str(t, row, C_VERIFIED, rverify_names[r->verify]);
	ret = ret ?: table_int(t, row, C_PASSES, r->npasses);
	if (ret)
		return ret;
	missing = calloc(rs->raw.nparts + 1, sizeof(*missing));
	if (!missing)
		return -ENOMEM;
	for (p = 0; p < rs->raw.nparts; p++)
		if (r->measured[p] && !r->passed[p])
			missing[n++] = rs->raw.parts[p].name;
	ret = table_strs(t, row, C_MISSING, missing, n);
	free(missing);
	return ret;
}

static int cell_numbers(struct rowstats *rs, struct table *t, size_t row, int w,
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
	if ((c->has_chg || is_base) && rs->has_target[w])
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
	if (bc && bc->has_stats && bc->s.mean > 0 && (c->has_chg || is_base)) {
		for (i = 0; i < c->u.n; i++)
			chg[i] = 100.0 * (c->u.v[i] - bc->s.mean) / bc->s.mean;
		ret = table_nums(t, row, C_UNITS_CHG, chg, c->u.n);
	}
	for (i = 0; i < c->u.nparts; i++) {
		names[i] = rs->raw.parts[c->u.part_id[i]].name;
		runs[i] = c->u.part_runs[i];
	}
	ret = ret ?: table_strs(t, row, C_PART_NAMES, names, c->u.nparts);
	ret = ret ?: table_nums(t, row, C_PART_RUNS, runs, c->u.nparts);
	for (i = 0; i < c->n; i++) {
		snprintf(buf + i * 2 * RAW_NAME_LEN, 2 * RAW_NAME_LEN, "%s/%s",
			 rs->raw.parts[c->vpart[i]].name, rs->raw.runs[c->vrun[i]].name);
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

/* the floor estimator's columns of a cell: what its change is, its floor, first level,
 * spread within its level and busy times */
static int cell_floor(struct rowstats *rs, struct table *t, size_t row, int w,
		      const struct rcell *c)
{
	double *v;
	int ret;

	ret = table_str(t, row, C_ESTIMATOR, c->by_floor ? "floor" : "boots");
	if (ret || !rowstats_is_pps(w) || !c->busy)
		return ret ?: table_text(t, row, C_FLOOR, false, "-");
	ret = table_text(t, row, C_FLOOR, false, "%.2f", c->fl.floor);
	ret = ret ?: table_num(t, row, C_FLOOR, c->fl.floor);
	ret = ret ?: table_num(t, row, C_FIRST, c->fl.first);
	ret = ret ?: table_num(t, row, C_WITHIN, c->fl.within);
	if (ret)
		return ret;
	v = malloc(c->n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	floor_busy_values(&rs->raw, c->vrun, c->n, v);
	ret = table_nums(t, row, C_BUSY, v, c->n);
	free(v);
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
static int build_cells(struct rowstats *rs, struct rtables *tb)
{
	struct table *t = &tb->cells;
	const struct workload_info *wi;
	struct rcell *c;
	struct rrow *r;
	char buf[64];
	size_t i;
	int w, d, row, ret;

	ret = table_init(t, cell_cols, C_NCOLS);
	if (ret)
		return ret;
	t->cols[C_RULESET].hidden = !rs->any_ruleset;
	if (!rs->any_path)
		t->cols[C_PATH].flags = 0;	/* in no form: as before path= existed */
	if (rs->raw.run_txt.part_best)
		t->cols[C_UNITS_TEXT].header = "units in order (boots' best runs, or runs)";
	if (!rs->floor) {
		t->cols[C_ESTIMATOR].flags = 0;
		t->cols[C_FLOOR].flags = 0;
		t->cols[C_FIRST].flags = 0;
		t->cols[C_WITHIN].flags = 0;
		t->cols[C_BUSY].flags = 0;
	}
	for (w = 0; w < WL_N; w++) {
		wi = &brnf_workloads[w];
		tb->wl_first[w] = t->nrows;
		for (i = 0; i < rs->nrows; i++) {
			r = &rs->rows[i];
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &r->cell[w][d];
				if (!c->has_stats)
					continue;
				row = table_add_row(t);
				if (row < 0)
					return row;
				c->trow = row;
				ret = cell_row_fields(rs, t, row, r, rowstats_is_base(rs, i));
				ret = ret ?: table_str(t, row, C_WORKLOAD, wi->name);
				ret = ret ?: table_text(t, row, C_DIR, false, "%s", raw_dir_names[d]);
				ret = ret ?: table_str(t, row, C_DIR, raw_dir_names[d]);
				ret = ret ?: table_str(t, row, C_UNIT, wi->unit);
				ret = ret ?: table_str(t, row, C_BETTER,
						       wi->lower_better ? "lower" : "higher");
				ret = ret ?: table_text(t, row, C_PARTS_RUNS, false, "%s",
							parts_runs_text(c, buf, sizeof(buf)));
				ret = ret ?: cell_numbers(rs, t, row, w, c,
							  rowstats_base_cell(rs, i, w, d),
							  rowstats_is_base(rs, i));
				if (rowstats_is_pps(w))
					ret = ret ?: cell_pps(t, row, c);
				if (rs->floor)
					ret = ret ?: cell_floor(rs, t, row, w, c);
				if (ret)
					return ret;
			}
		}
		tb->wl_rows[w] = t->nrows - tb->wl_first[w];
	}
	return 0;
}

void rtables_spread_show(struct rtables *tb, enum brnf_workload w)
{
	tb->cells.cols[C_MPPS].hidden = !rowstats_is_pps(w);
	tb->cells.cols[C_WIRE].hidden = !rowstats_is_pps(w);
	tb->cells.cols[C_FLOOR].hidden = !rowstats_is_pps(w);
}

int rtables_build(struct rtables *tb, struct rowstats *rs)
{
	int w, ret = 0;

	memset(tb, 0, sizeof(*tb));
	for (w = 0; w < WL_N && !ret; w++)
		if (rs->has_wl[w])
			ret = build_main(rs, tb, w);
	return ret ?: build_cells(rs, tb);
}

void rtables_free(struct rtables *tb)
{
	int w;

	for (w = 0; w < WL_N; w++)
		table_free(&tb->mains[w]);
	table_free(&tb->cells);
}
