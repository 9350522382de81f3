// SPDX-License-Identifier: GPL-2.0
/* rowstats: the rows and cells of a results directory, with their statistics; see
 * rowstats.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "rowstats.h"

const char *const rverify_names[] = {
	[RV_NA] = "n/a", [RV_YES] = "yes", [RV_NO] = "no", [RV_PARTIAL] = "partial",
	[RV_READBACK] = "no (readback)",
	[RV_NO_EXPECTED] = "no (expected)", [RV_YES_UNEXPECTED] = "yes (expected no)",
	[RV_MISSING] = "missing",
};

bool rowstats_verify_failed(enum rverify v)
{
	return v == RV_NO || v == RV_READBACK || v == RV_YES_UNEXPECTED;
}

bool rowstats_is_pps(enum brnf_workload w)
{
	return brnf_workloads[w].pkt_size != 0;
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

static struct rrow *find_row(struct rowstats *rs, const char *key)
{
	size_t i;

	for (i = 0; i < rs->nrows; i++)
		if (!strcmp(rs->rows[i].key, key))
			return &rs->rows[i];
	return NULL;
}

static struct rrow *new_row(struct rowstats *rs, const struct raw_run *run, size_t i,
			    size_t *cap)
{
	struct rrow *r, *tmp;

	if (rs->nrows == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		tmp = realloc(rs->rows, *cap * sizeof(*tmp));
		if (!tmp)
			return NULL;
		rs->rows = tmp;
	}
	r = &rs->rows[rs->nrows];
	memset(r, 0, sizeof(*r));
	r->measured = calloc(rs->raw.nparts, 1);
	r->passed = calloc(rs->raw.nparts, 1);
	if (!r->measured || !r->passed) {
		free(r->measured);
		free(r->passed);
		return NULL;
	}
	rs->nrows++;
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
static int group_rows(struct rowstats *rs)
{
	struct raw_run *run;
	struct rrow *r;
	struct rcell *c;
	size_t i, cap = 0;
	int ret;

	for (i = 0; i < rs->raw.nruns; i++) {
		run = &rs->raw.runs[i];
		if (run->kind != RAW_MEASURE)
			continue;
		r = find_row(rs, run->key);
		if (!r)
			r = new_row(rs, run, i, &cap);
		if (!r)
			return -ENOMEM;
		if (run->row_index < r->index)
			r->index = run->row_index;
		if (!r->row.label[0] && run->row.label[0])
			strcpy(r->row.label, run->row.label);
		c = &r->cell[run->workload][run->dir];
		if (rowstats_is_pps(run->workload) && run->pktgen.errors) {
			/*
			 * The sender's device refused frames and pktgen sent them again:
			 * not one transmission per frame, the regime the metric assumes.
			 * Left out, and said so in the notes.
			 */
			rs->nerror_cells += !c->error_runs;
			c->error_runs++;
			c->errors += run->pktgen.errors;
		} else {
			ret = cell_add(c, run->value, run->part, i);
			if (ret)
				return ret;
		}
		rs->has_wl[run->workload] = true;
		rs->nmeasured++;
		rs->ncounting += run->counting_rules;
		r->nreadback_bad += !run->readback_ok;
		if (run->has_verify) {
			r->v1 = true;
			rs->any_v1 = true;
			add_verify(r, run);
		} else {
			r->measured[run->part] = 1;
			rs->any_v2 = true;
		}
	}
	for (i = 0; i < rs->raw.nruns; i++) {
		run = &rs->raw.runs[i];
		if (run->kind != RAW_VERIFY_PASS)
			continue;
		r = find_row(rs, run->key);
		if (!r) {
			pr_err("%s/raw/%s/runs/%s/record.json: a verification pass of '%s', "
			       "a row without measured runs", rs->dir,
			       rs->raw.parts[run->part].name, run->name, run->key);
			return -EINVAL;
		}
		r->passed[run->part] = 1;
		r->npasses++;
		rs->npasses++;
		r->nreadback_bad += !run->readback_ok;
		add_verify(r, run);
	}
	/* stable: ties in row.index keep the order of first appearance */
	qsort(rs->rows, rs->nrows, sizeof(*rs->rows), cmp_rows);
	return 0;
}

static bool base_like(const struct brnf_row *a, const struct brnf_row *b)
{
	struct brnf_row x = *a;
	char ka[RAW_KEY_LEN], kb[RAW_KEY_LEN];

	x.path = b->path;
	return row_key(&x, ka, sizeof(ka)) >= 0 && row_key(b, kb, sizeof(kb)) >= 0 &&
	       !strcmp(ka, kb);
}

/*
 * The baseline of each path (rowstats.h): a path=wlan row is compared with a path=wlan
 * row, whose flows cross the same bridge, never with a routed one.
 */
static void path_baselines(struct rowstats *rs, const char *want)
{
	const struct brnf_row *b = &rs->rows[rs->base].row, *r;
	size_t i, p;

	for (p = 0; p < BRNF_NPATHS; p++) {
		rs->path_base[p] = ROWSTATS_NO_BASE;
		if (b->path == p) {
			rs->path_base[p] = rs->base;
			continue;
		}
		for (i = 0; i < rs->nrows && rs->path_base[p] == ROWSTATS_NO_BASE; i++)
			if (rs->rows[i].row.path == p && base_like(&rs->rows[i].row, b))
				rs->path_base[p] = i;
		for (i = 0; i < rs->nrows && rs->path_base[p] == ROWSTATS_NO_BASE; i++) {
			r = &rs->rows[i].row;
			if (r->path == p && (!want || !strcmp(r->kernel, want) ||
					     (r->label[0] && !strcmp(r->label, want))))
				rs->path_base[p] = i;
		}
	}
	for (i = 0; i < rs->nrows; i++) {
		rs->rows[i].base = rs->path_base[rs->rows[i].row.path];
		rs->any_path |= rs->rows[i].row.path != BRNF_PATH_ROUTED;
	}
}

static int find_baseline(struct rowstats *rs, const char *want)
{
	size_t i;

	rs->base = 0;
	if (!want)
		goto found;
	for (i = 0; i < rs->nrows; i++)
		if (!strcmp(rs->rows[i].key, want))
			goto found_i;
	for (i = 0; i < rs->nrows; i++)
		if (!strcmp(rs->rows[i].row.kernel, want))
			goto found_i;
	for (i = 0; i < rs->nrows; i++)
		if (rs->rows[i].row.label[0] && !strcmp(rs->rows[i].row.label, want))
			goto found_i;
	pr_err("%s: baseline '%s' matches no row key, kernel or label", rs->dir, want);
	return -EINVAL;
found_i:
	rs->base = i;
found:
	if (rs->nrows)
		path_baselines(rs, want);
	return 0;
}

bool rowstats_is_base(const struct rowstats *rs, size_t i)
{
	return rs->rows[i].base == i;
}

const struct rcell *rowstats_base_cell(const struct rowstats *rs, size_t i, int w, int d)
{
	size_t b = rs->rows[i].base;

	return b == ROWSTATS_NO_BASE ? NULL : &rs->rows[b].cell[w][d];
}

const char *rowstats_base_keys(const struct rowstats *rs, const char *quote, char *buf,
			       size_t len)
{
	size_t p, off = 0, n = 0;

	buf[0] = '\0';
	if (!rs->nrows)
		return buf;
	if (!rs->any_path) {
		snprintf(buf, len, "%s%s%s", quote, rs->rows[rs->base].key, quote);
		return buf;
	}
	for (p = 0; p < BRNF_NPATHS && off < len; p++)
		if (rs->path_base[p] != ROWSTATS_NO_BASE)
			off += snprintf(buf + off, len - off, "%s%s%s%s", n++ ? "; " : "",
					quote, rs->rows[rs->path_base[p]].key, quote);
	return buf;
}

/*
 * A row's filtering verification over all its parts. Schema 1 runs verified
 * themselves: every run yes is "yes", some yes and some n/a "partial". Schema 2 passes
 * (rig/README.md "Raw data"): "n/a" when every pass is n/a, "yes" when every other pass is yes, else
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

static void pps_sums(struct rowstats *rs, struct rcell *c)
{
	const struct raw_run *run;
	size_t i;

	for (i = 0; i < c->n; i++) {
		run = &rs->raw.runs[c->vrun[i]];
		c->mpps += run->mpps / c->n;
		c->wire_mbps += run->wire_mbps / c->n;
		c->sent += run->pktgen.sent;
		c->received += run->pktgen.received;
		c->lost_runs += run->pktgen.received != run->pktgen.sent;
	}
}

/* A part's value: the mean of its runs, or with run.txt part_value=best (or floor) its
 * best run. */
static enum stats_part_value part_value(const struct rowstats *rs, int w)
{
	if (!rs->raw.run_txt.part_best)
		return STATS_PART_MEAN;
	return brnf_workloads[w].lower_better ? STATS_PART_MIN : STATS_PART_MAX;
}

/* every pps cell's busy floor, into c->busy and c->fl */
static int cell_floors(struct rowstats *rs, size_t *nbusy)
{
	double *v;
	size_t i;
	int w, d, ret;

	*nbusy = 0;
	for (i = 0; i < rs->nrows; i++) {
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				struct rcell *c = &rs->rows[i].cell[w][d];

				if (!rowstats_is_pps(w) || !c->n)
					continue;
				v = malloc(c->n * sizeof(*v));
				if (!v)
					return -ENOMEM;
				c->busy = floor_busy_values(&rs->raw, c->vrun, c->n, v);
				ret = c->busy ? floor_cell(v, c->n, &c->fl) : 0;
				free(v);
				if (ret)
					return ret;
				*nbusy += c->busy;
			}
		}
	}
	return 0;
}

/* S and w over the cells with busy times */
static int floor_bound_of(struct rowstats *rs, size_t nbusy)
{
	struct floor_cell *fc = calloc(nbusy ? nbusy : 1, sizeof(*fc));
	size_t i, k = 0;
	int w, d, ret;

	if (!fc)
		return -ENOMEM;
	for (i = 0; i < rs->nrows; i++)
		for (w = 0; w < WL_N; w++)
			for (d = 0; d < RAW_NDIRS; d++)
				if (rs->rows[i].cell[w][d].busy)
					fc[k++] = rs->rows[i].cell[w][d].fl;
	ret = floor_bound_compute(fc, k, &rs->fb);
	free(fc);
	return ret;
}

/*
 * The floor estimator over the pps cells (rs->floor; floor.h): each cell's busy floor,
 * the directory's S and w, and the change of every pps cell of a row other than a
 * baseline against its baseline's, where both have busy times and S is known; else the
 * cell is a fallback and keeps its change, the mean over boots, computed already.
 */
static int floor_changes(struct rowstats *rs)
{
	size_t i, nbusy;
	int w, d, ret;

	ret = cell_floors(rs, &nbusy);
	ret = ret ?: floor_bound_of(rs, nbusy);
	if (ret)
		return ret;
	for (i = 0; i < rs->nrows; i++) {
		if (rowstats_is_base(rs, i))
			continue;
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				struct rcell *c = &rs->rows[i].cell[w][d];
				const struct rcell *bc = rowstats_base_cell(rs, i, w, d);
				struct stats_change chg;

				if (!rowstats_is_pps(w) || !c->has_stats || !bc || !bc->has_stats)
					continue;
				if (!c->busy || !bc->busy ||
				    floor_change(c->fl.floor, bc->fl.floor, &rs->fb, &chg)) {
					/* the mean over boots, computed already, if any */
					c->fallback = c->has_chg;
					rs->fb.nfallback += c->fallback;
					continue;
				}
				c->chg = chg;
				c->has_chg = true;
				c->by_floor = true;
				c->hw = stats_change_halfwidth(&chg);
				c->reached = rs->has_target[w] && stats_reached(c->hw, rs->target);
			}
		}
	}
	return 0;
}

static int compute(struct rowstats *rs)
{
	const struct rcell *bc;
	struct rrow *r;
	struct rcell *c;
	size_t i;
	int w, d, ret;

	for (i = 0; i < rs->nrows; i++) {
		r = &rs->rows[i];
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &r->cell[w][d];
				c->hw = NAN;
				if (!c->n)
					continue;
				ret = stats_units(c->v, c->vpart, c->n, part_value(rs, w), &c->u);
				ret = ret ?: stats_compute(c->u.v, c->u.n, &c->s);
				if (ret)
					return ret;
				c->has_stats = true;
				if (rowstats_is_pps(w))
					pps_sums(rs, c);
				rs->nlost_cells += c->lost_runs != 0;
			}
		}
		r->verify = row_verify(r, rs->raw.nparts);
		rs->nverify_no += rowstats_verify_failed(r->verify);
		rs->any_ruleset |= strcmp(r->row.ruleset, "none") != 0;
	}
	for (i = 0; i < rs->nrows; i++) {
		r = &rs->rows[i];
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &r->cell[w][d];
				bc = rowstats_base_cell(rs, i, w, d);
				if (!c->has_stats)
					continue;
				if (rowstats_is_base(rs, i)) {
					c->hw = stats_ci95_pct(&c->s);
				} else if (bc && bc->has_stats &&
					   !stats_change(&c->s, &bc->s, &c->chg)) {
					c->has_chg = true;	/* not when the base mean is 0 */
					c->hw = stats_change_halfwidth(&c->chg);
				}
				c->reached = rs->has_target[w] &&
					     stats_reached(c->hw, rs->target);
			}
		}
	}
	return rs->floor ? floor_changes(rs) : 0;
}

const char *rowstats_kernel_text(const struct brnf_row *r, char *buf, size_t len)
{
	if (r->label[0])
		snprintf(buf, len, "%s (%s)", r->kernel, r->label);
	else
		snprintf(buf, len, "%s", r->kernel);
	return buf;
}

/* "vanilla (brfilter-local) · global 0 · br-lan" (· path wlan) */
const char *rowstats_row_text(const struct brnf_row *r, char *buf, size_t len)
{
	char k[128], g[64], l[64];

	row_global_str(r, g, sizeof(g));
	row_local_str(r, l, sizeof(l));
	snprintf(buf, len, "%s · global %s · %s%s%s%s%s", rowstats_kernel_text(r, k, sizeof(k)),
		 g, strcmp(l, "-") ? l : "no iface", strcmp(r->ruleset, "none") ? " · " : "",
		 strcmp(r->ruleset, "none") ? r->ruleset : "", r->path ? " · path " : "",
		 r->path ? brnf_path_names[r->path] : "");
	return buf;
}

int rowstats_estimator_parse(const char *v, enum rowstats_estimator *e)
{
	if (!strcmp(v, "floor"))
		*e = RS_EST_FLOOR;
	else if (!strcmp(v, "boots"))
		*e = RS_EST_BOOTS;
	else
		return -EINVAL;
	return 0;
}

void rowstats_free(struct rowstats *rs)
{
	struct rcell *c;
	size_t i;
	int w, d;

	for (i = 0; i < rs->nrows; i++) {
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &rs->rows[i].cell[w][d];
				free(c->v);
				free(c->vpart);
				free(c->vrun);
				stats_units_free(&c->u);
			}
		}
		free(rs->rows[i].measured);
		free(rs->rows[i].passed);
	}
	free(rs->rows);
	raw_free(&rs->raw);
}

static void set_target(struct rowstats *rs, const struct rowstats_opts *o)
{
	int w;

	/* a floor's bound does not narrow with more boots: no target for it */
	for (w = 0; w < WL_N; w++)
		rs->has_target[w] = (!rs->raw.run_txt.target_workloads ||
				     rs->raw.run_txt.target_workloads & (1u << w)) &&
				    !(rs->floor && rowstats_is_pps(w));
	if (o && o->target_pct > 0) {
		rs->target = o->target_pct;
		rs->target_src = "brnf render --target";
		rs->target_key = "option";
	} else if (!isnan(rs->raw.run_txt.target_pct)) {
		rs->target = rs->raw.run_txt.target_pct;
		rs->target_src = "run.txt target_pct";
		rs->target_key = "run.txt";
	} else {
		rs->target = ROWSTATS_TARGET_PCT;
		rs->target_src = "the default";
		rs->target_key = "default";
	}
}

/* --strict: every part with measured runs of a row has a verification pass of it */
static int check_strict(struct rowstats *rs)
{
	const struct rrow *r;
	size_t i, p;

	for (i = 0; i < rs->nrows; i++) {
		r = &rs->rows[i];
		for (p = 0; p < rs->raw.nparts; p++) {
			if (!r->measured[p] || r->passed[p])
				continue;
			pr_err("%s/raw/%s: no verification pass of row '%s', which has measured "
			       "runs there", rs->dir, rs->raw.parts[p].name, r->key);
			return -EINVAL;
		}
	}
	return 0;
}

int rowstats_load(struct rowstats *rs, const char *dir, const struct rowstats_opts *o)
{
	char err[4400];
	int ret;

	memset(rs, 0, sizeof(*rs));
	rs->dir = dir;
	ret = raw_read_dir(dir, &rs->raw, err, sizeof(err));
	if (ret) {
		pr_err("%s", err);
		return ret;
	}
	rs->floor = o->estimator == RS_EST_FLOOR ||
		    (o->estimator == RS_EST_RUN_TXT && rs->raw.run_txt.part_floor);
	set_target(rs, o);
	ret = group_rows(rs);
	if (ret == -ENOMEM)
		pr_err("%s: out of memory", dir);
	if (ret)
		return ret;
	ret = find_baseline(rs, o->baseline);
	if (ret)
		return ret;
	ret = compute(rs);
	if (ret) {
		pr_err("%s: statistics failed: %s", dir, strerror(-ret));
		return ret;
	}
	return o->strict ? check_strict(rs) : 0;
}
