// SPDX-License-Identifier: GPL-2.0
/* levels: floors, level distributions and a variant-independence test (levels.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "levels.h"
#include "table.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A run's busy time per packet: pktgen's c part, the time it did not yield (under
 * icount the yielded d part varies by tens of microseconds between runs of one test
 * bed, a few ns/packet); its elapsed time per packet, the matrix's value, when a run
 * of the cell lacks the c part. Into @v (c->n values); true when busy.
 */
static bool cell_values(const struct rowstats *rs, const struct rcell *c, double *v)
{
	if (floor_busy_values(&rs->raw, c->vrun, c->n, v))
		return true;
	memcpy(v, c->v, c->n * sizeof(*v));
	return false;
}

/* at least LEVELS_RAISED_NS above the floor, a rounding residue below it included */
static bool raised(double excess)
{
	return floor_raised(excess);
}

static double min_of(const double *v, size_t n)
{
	double lo = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < lo)
			lo = v[i];
	return lo;
}

/* the number of strata: one more than the largest id (1 without ids) */
static size_t nstrata_of(const size_t *stratum, size_t k)
{
	size_t i, m = 0;

	for (i = 0; stratum && i < k; i++)
		if (stratum[i] + 1 > m)
			m = stratum[i] + 1;
	return stratum ? m : 1;
}

static size_t stratum_of(const size_t *stratum, size_t i)
{
	return stratum ? stratum[i] : 0;
}

/* per stratum: entries and raised ones, into tot[] and r[] (ns entries each) */
static void strata_totals(const size_t *n, const size_t *raised, const size_t *stratum,
			  size_t k, double *tot, double *r, size_t ns)
{
	size_t i;

	memset(tot, 0, ns * sizeof(*tot));
	memset(r, 0, ns * sizeof(*r));
	for (i = 0; i < k; i++) {
		tot[stratum_of(stratum, i)] += (double)n[i];
		r[stratum_of(stratum, i)] += (double)raised[i];
	}
}

static double chi2_with(const size_t *n, const size_t *raised, const size_t *stratum,
			size_t k, const double *tot, const double *r)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		size_t s = stratum_of(stratum, i);
		double e1, e0, o1, o0;

		if (!n[i] || r[s] <= 0 || r[s] >= tot[s])
			continue;
		e1 = (double)n[i] * r[s] / tot[s];
		e0 = (double)n[i] - e1;
		o1 = (double)raised[i];
		o0 = (double)(n[i] - raised[i]);
		sum += (o1 - e1) * (o1 - e1) / e1 + (o0 - e0) * (o0 - e0) / e0;
	}
	return sum;
}

double levels_chi2(const size_t *n, const size_t *raised, const size_t *stratum, size_t k)
{
	size_t ns = nstrata_of(stratum, k);
	double *tot = calloc(ns ? ns : 1, sizeof(*tot)), *r = calloc(ns ? ns : 1, sizeof(*r));
	double sum = NAN;

	if (tot && r) {
		strata_totals(n, raised, stratum, k, tot, r, ns);
		sum = chi2_with(n, raised, stratum, k, tot, r);
	}
	free(tot);
	free(r);
	return sum;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Is some stratum testable: two rows with units, some but not all entries raised? */
static bool testable(const size_t *n, const double *tot, const double *r,
		     const size_t *stratum, size_t k, size_t ns)
{
	size_t i, s;

	for (s = 0; s < ns; s++) {
		size_t rows = 0;

		if (r[s] <= 0 || r[s] >= tot[s])
			continue;
		for (i = 0; i < k; i++)
			rows += stratum_of(stratum, i) == s && n[i];
		if (rows >= 2)
			return true;
	}
	return false;
}

struct perm_work {
	size_t *n, *raised, *cn, *cr;	/* per row: observed, and of one assignment */
	size_t *order;			/* unit indices, stratum by stratum */
	size_t *label;			/* the row each place in order gets */
	size_t *first;			/* stratum s: order[first[s]..first[s + 1]) */
	double *tot, *r;		/* per stratum */
};

static void perm_work_free(struct perm_work *w)
{
	free(w->n);
	free(w->raised);
	free(w->cn);
	free(w->cr);
	free(w->order);
	free(w->label);
	free(w->first);
	free(w->tot);
	free(w->r);
}

static int perm_work_init(struct perm_work *w, const struct levels_unit *u, size_t nu,
			  const size_t *stratum, size_t k, size_t ns)
{
	size_t i, j, s;

	memset(w, 0, sizeof(*w));
	w->n = calloc(k + 1, sizeof(*w->n));
	w->raised = calloc(k + 1, sizeof(*w->raised));
	w->cn = calloc(k + 1, sizeof(*w->cn));
	w->cr = calloc(k + 1, sizeof(*w->cr));
	w->order = calloc(nu + 1, sizeof(*w->order));
	w->label = calloc(nu + 1, sizeof(*w->label));
	w->first = calloc(ns + 1, sizeof(*w->first));
	w->tot = calloc(ns + 1, sizeof(*w->tot));
	w->r = calloc(ns + 1, sizeof(*w->r));
	if (!w->n || !w->raised || !w->cn || !w->cr || !w->order || !w->label ||
	    !w->first || !w->tot || !w->r)
		return -ENOMEM;
	for (j = 0; j < nu; j++) {
		w->n[u[j].row] += u[j].n;
		w->raised[u[j].row] += u[j].raised;
	}
	strata_totals(w->n, w->raised, stratum, k, w->tot, w->r, ns);
	for (s = 0, i = 0; s < ns; s++) {
		w->first[s] = i;
		for (j = 0; j < nu; j++)
			if (stratum_of(stratum, u[j].row) == s) {
				w->order[i] = j;
				w->label[i++] = u[j].row;
			}
	}
	w->first[ns] = i;
	return 0;
}

double levels_perm_p(const struct levels_unit *u, size_t nu, const size_t *stratum, size_t k,
		     unsigned long nperm, uint64_t seed)
{
	size_t i, j, s, ns = nstrata_of(stratum, k);
	struct perm_work w;
	unsigned long q, hits = 0;
	double obs, eps, p = -1;

	for (j = 0; j < nu; j++)
		if (u[j].row >= k || u[j].raised > u[j].n)
			return NAN;
	if (perm_work_init(&w, u, nu, stratum, k, ns))
		goto out;
	if (!nperm || !testable(w.n, w.tot, w.r, stratum, k, ns)) {
		p = NAN;
		goto out;
	}
	obs = chi2_with(w.n, w.raised, stratum, k, w.tot, w.r);
	eps = 1e-9 * (obs > 1 ? obs : 1);
	for (q = 0; q < nperm; q++) {
		memset(w.cn, 0, k * sizeof(*w.cn));
		memset(w.cr, 0, k * sizeof(*w.cr));
		/* each stratum's units get its rows' labels in a random order (Fisher-Yates):
		 * every row keeps its number of units, a unit its runs */
		for (s = 0; s < ns; s++) {
			size_t lo = w.first[s], m = w.first[s + 1] - lo;

			for (i = 0; i + 1 < m; i++) {
				size_t t;

				j = i + (size_t)(splitmix64(&seed) % (uint64_t)(m - i));
				t = w.label[lo + i];
				w.label[lo + i] = w.label[lo + j];
				w.label[lo + j] = t;
			}
			for (i = 0; i < m; i++) {
				const struct levels_unit *x = &u[w.order[lo + i]];

				w.cn[w.label[lo + i]] += x->n;
				w.cr[w.label[lo + i]] += x->raised;
			}
		}
		if (chi2_with(w.cn, w.cr, stratum, k, w.tot, w.r) >= obs - eps)
			hits++;
	}
	p = (double)(1 + hits) / (double)(1 + nperm);
out:
	perm_work_free(&w);
	return p;
}

/* a row's configuration: its key without the kernel (row_key(): "kernel=K " first) */
static const char *config_of(const struct rrow *r)
{
	const char *sp = strchr(r->key, ' ');

	return sp ? sp + 1 : "";
}

/* rows that differ only in their kernel share a stratum; count the strata and rows the
 * test compares (two rows or more with pps runs) */
static void set_strata(const struct rowstats *rs, struct levels *lv)
{
	size_t i, j, *rows = calloc(rs->nrows ? rs->nrows : 1, sizeof(*rows));

	for (i = 0; i < rs->nrows; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(config_of(&rs->rows[i]), config_of(&rs->rows[j])))
				break;
		lv->row_stratum[i] = j < i ? lv->row_stratum[j] : lv->nstrata++;
		if (rows && lv->row_n[i])
			rows[lv->row_stratum[i]]++;
	}
	for (i = 0; rows && i < lv->nstrata; i++)
		if (rows[i] >= 2) {
			lv->ntested_strata++;
			lv->ntested_rows += rows[i];
		}
	free(rows);
}

static int add_cell(struct levels *lv, const struct rowstats *rs, size_t i, int w, int d,
		    size_t *cap)
{
	const struct rcell *c = &rs->rows[i].cell[w][d];
	struct levels_cell *lc;
	size_t k;

	if (lv->ncells == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct levels_cell *t = realloc(lv->cells, ncap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		lv->cells = t;
		*cap = ncap;
	}
	lc = &lv->cells[lv->ncells];
	memset(lc, 0, sizeof(*lc));
	lc->excess = malloc(c->n * sizeof(*lc->excess));
	if (!lc->excess)
		return -ENOMEM;
	lv->ncells++;
	lc->row = i;
	lc->w = (enum brnf_workload)w;
	lc->d = (enum raw_dir)d;
	lc->n = c->n;
	lc->busy = cell_values(rs, c, lc->excess);
	lc->floor = min_of(lc->excess, c->n);
	for (k = 0; k < c->n; k++) {
		size_t x = i * lv->nparts + c->vpart[k];

		lc->excess[k] -= lc->floor;
		lc->raised += raised(lc->excess[k]);
		/* the boot's tally: its runs are the test's unit */
		lv->boot_n[x]++;
		lv->boot_raised[x] += raised(lc->excess[k]);
	}
	qsort(lc->excess, c->n, sizeof(*lc->excess), cmp_double);
	lc->floor_chg = NAN;
	lc->step_pct = NAN;
	lv->row_n[i] += c->n;
	lv->row_raised[i] += lc->raised;
	return 0;
}

/* the cell of row @row, workload @w and direction @d, NULL when it has no pps runs */
static const struct levels_cell *find_cell(const struct levels *lv, size_t row,
					   enum brnf_workload w, enum raw_dir d)
{
	size_t k;

	for (k = 0; k < lv->ncells; k++)
		if (lv->cells[k].row == row && lv->cells[k].w == w && lv->cells[k].d == d)
			return &lv->cells[k];
	return NULL;
}

/* the permutation test over the boots (each row's runs of one part) */
static int boot_test(struct levels *lv)
{
	struct levels_unit *u = calloc(lv->nrows * lv->nparts + 1, sizeof(*u));
	size_t i, b;

	if (!u)
		return -ENOMEM;
	for (i = 0; i < lv->nrows; i++)
		for (b = 0; b < lv->nparts; b++) {
			size_t x = i * lv->nparts + b;

			if (!lv->boot_n[x])
				continue;
			u[lv->nboots].row = i;
			u[lv->nboots].n = lv->boot_n[x];
			u[lv->nboots++].raised = lv->boot_raised[x];
		}
	lv->p = levels_perm_p(u, lv->nboots, lv->row_stratum, lv->nrows, lv->nperm,
			      LEVELS_SEED);
	free(u);
	return lv->p < 0 ? -ENOMEM : 0;
}

int levels_compute(const struct rowstats *rs, struct levels *lv)
{
	size_t i, k, cap = 0;
	int w, d, ret;

	memset(lv, 0, sizeof(*lv));
	lv->step = NAN;
	lv->p = NAN;
	lv->nrows = rs->nrows;
	lv->row_n = calloc(rs->nrows ? rs->nrows : 1, sizeof(*lv->row_n));
	lv->row_raised = calloc(rs->nrows ? rs->nrows : 1, sizeof(*lv->row_raised));
	lv->row_stratum = calloc(rs->nrows ? rs->nrows : 1, sizeof(*lv->row_stratum));
	lv->nparts = rs->raw.nparts;
	lv->boot_n = calloc(rs->nrows * lv->nparts + 1, sizeof(*lv->boot_n));
	lv->boot_raised = calloc(rs->nrows * lv->nparts + 1, sizeof(*lv->boot_raised));
	if (!lv->row_n || !lv->row_raised || !lv->row_stratum || !lv->boot_n ||
	    !lv->boot_raised)
		return -ENOMEM;
	for (i = 0; i < rs->nrows; i++)
		for (w = 0; w < WL_N; w++)
			for (d = 0; d < RAW_NDIRS; d++) {
				if (!rowstats_is_pps(w) || !rs->rows[i].cell[w][d].n)
					continue;
				ret = add_cell(lv, rs, i, w, d, &cap);
				if (ret)
					return ret;
			}
	if (!lv->ncells)
		return -ENOENT;
	for (k = 0; k < lv->ncells; k++) {
		const struct levels_cell *lc = &lv->cells[k];

		for (i = 0; i < lc->n; i++)
			if (raised(lc->excess[i]) &&
			    (isnan(lv->step) || lc->excess[i] < lv->step))
				lv->step = lc->excess[i];
	}
	/* each cell against its baseline's cell, whose floor is computed already */
	for (k = 0; k < lv->ncells; k++) {
		struct levels_cell *lc = &lv->cells[k];
		const struct levels_cell *b;

		if (rowstats_is_base(rs, lc->row) || rs->rows[lc->row].base == ROWSTATS_NO_BASE)
			continue;
		b = find_cell(lv, rs->rows[lc->row].base, lc->w, lc->d);
		/* a floor of the same kind as the cell's, or none */
		if (!b || b->busy != lc->busy || b->floor <= 0)
			continue;
		lc->base_floor = b->floor;
		lc->floor_chg = 100 * (lc->floor - lc->base_floor) / lc->base_floor;
		if (!isnan(lv->step))
			lc->step_pct = 100 * lv->step / lc->base_floor;
	}
	for (i = 0; i < rs->nrows; i++) {
		lv->n += lv->row_n[i];
		lv->raised += lv->row_raised[i];
	}
	set_strata(rs, lv);
	lv->chi2 = levels_chi2(lv->row_n, lv->row_raised, lv->row_stratum, rs->nrows);
	lv->nperm = LEVELS_PERMUTATIONS;
	return isnan(lv->chi2) ? -ENOMEM : boot_test(lv);
}

void levels_free(struct levels *lv)
{
	size_t k;

	for (k = 0; k < lv->ncells; k++)
		free(lv->cells[k].excess);
	free(lv->cells);
	free(lv->row_n);
	free(lv->row_raised);
	free(lv->row_stratum);
	free(lv->boot_n);
	free(lv->boot_raised);
	memset(lv, 0, sizeof(*lv));
}

/* the per-cell table: one column list for levels.md and levels.csv (table.h) */
enum { LC_ROW, LC_KERNEL, LC_WL, LC_DIR, LC_FLOOR, LC_RUNS, LC_RAISED, LC_EXCESS,
       LC_FLOOR_CHG, LC_STEP, LC_CHG, LC_HW, LC_BELOW, LC_N };

static const struct tcol level_cols[LC_N] = {
	[LC_ROW] = { "row", "row", TA_LEFT, TC_BOTH, false, 0 },
	[LC_KERNEL] = { "kernel", "kernel", TA_LEFT, TC_DATA, false, 0 },
	[LC_WL] = { "workload", "workload", TA_LEFT, TC_BOTH, false, 0 },
	[LC_DIR] = { "direction", "direction", TA_LEFT, TC_BOTH, false, 0 },
	[LC_FLOOR] = { "floor (ns/packet)", "floor_ns", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_RUNS] = { "runs", "runs", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_RAISED] = { "raised", "raised", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_EXCESS] = { "raised by (ns/packet)", "excess_ns", TA_LEFT, TC_BOTH, false, 0 },
	[LC_FLOOR_CHG] = { "floor's change", "floor_change_pct", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_STEP] = { "one step", "step_pct", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_CHG] = { "matrix's change", "change_pct", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_HW] = { "± (95%)", "halfwidth_pct", TA_RIGHT, TC_BOTH, false, 0 },
	[LC_BELOW] = { "± below one step", "halfwidth_below_step", TA_LEFT, TC_BOTH, false, 0 },
};

/* a figure in both forms: its text with @fmt, its value unrounded */
static int put(struct table *t, size_t r, int c, double v, const char *fmt)
{
	if (isnan(v))
		return table_text(t, r, c, false, "n/a") ?: table_num(t, r, c, v);
	return table_text(t, r, c, false, fmt, v) ?: table_num(t, r, c, v);
}

static int excess_text(struct table *t, size_t r, const struct levels_cell *lc)
{
	char *s = NULL, *o;
	size_t k;
	int ret;

	for (k = 0; k < lc->n; k++) {
		if (!raised(lc->excess[k]))
			continue;
		o = s;
		if (asprintf(&s, "%s%s+%.1f", o ? o : "", o ? " " : "", lc->excess[k]) < 0) {
			free(o);
			return -ENOMEM;
		}
		free(o);
	}
	ret = table_text(t, r, LC_EXCESS, false, "%s", s ? s : "none");
	free(s);
	return ret ?: table_nums(t, r, LC_EXCESS, lc->excess + (lc->n - lc->raised),
				 lc->raised);
}

static int cell_row(struct table *t, const struct rowstats *rs, const struct levels_cell *lc)
{
	const struct rcell *c = &rs->rows[lc->row].cell[lc->w][lc->d];
	bool base = rowstats_is_base(rs, lc->row);
	char label[512];
	int r = table_add_row(t), ret;

	if (r < 0)
		return r;
	rowstats_row_text(&rs->rows[lc->row].row, label, sizeof(label));
	ret = table_text(t, r, LC_ROW, false, "%s%s", label, base ? " (baseline)" : "") ?:
	      table_str(t, r, LC_ROW, label) ?:
	      table_str(t, r, LC_KERNEL, rs->rows[lc->row].row.kernel) ?:
	      table_text(t, r, LC_WL, false, "%s", brnf_workloads[lc->w].name) ?:
	      table_str(t, r, LC_WL, brnf_workloads[lc->w].name) ?:
	      table_text(t, r, LC_DIR, false, "%s", raw_dir_names[lc->d]) ?:
	      table_str(t, r, LC_DIR, raw_dir_names[lc->d]) ?:
	      put(t, r, LC_FLOOR, lc->floor, lc->busy ? "%.1f" : "%.1f (elapsed)") ?:
	      table_text(t, r, LC_RUNS, false, "%zu", lc->n) ?:
	      table_int(t, r, LC_RUNS, (long long)lc->n) ?:
	      table_text(t, r, LC_RAISED, false, "%zu", lc->raised) ?:
	      table_int(t, r, LC_RAISED, (long long)lc->raised) ?:
	      excess_text(t, r, lc);
	if (ret || base)
		return ret;
	ret = put(t, r, LC_FLOOR_CHG, lc->floor_chg, "%+.2f%%") ?:
	      put(t, r, LC_STEP, lc->step_pct, "%.2f%%") ?:
	      put(t, r, LC_CHG, c->has_chg ? c->chg.pct : NAN, "%+.2f%%") ?:
	      put(t, r, LC_HW, c->has_chg ? c->hw : NAN, "%.2f%%");
	if (ret || !c->has_chg || isnan(c->hw) || isnan(lc->step_pct))
		return ret;
	return table_text(t, r, LC_BELOW, false, "%s", c->hw < lc->step_pct ? "yes" : "no") ?:
	       table_bool(t, r, LC_BELOW, c->hw < lc->step_pct);
}

static int build(struct table *t, const struct rowstats *rs, const struct levels *lv)
{
	size_t k;
	int ret = table_init(t, level_cols, LC_N);

	/* the matrix's change is the floor estimator's (floor.h): not a 95% interval */
	if (!ret && rs->floor)
		t->cols[LC_HW].header = "± (S + w)";

	for (k = 0; !ret && k < lv->ncells; k++)
		ret = cell_row(t, rs, &lv->cells[k]);
	return ret;
}

/* the last component of @dir, without trailing slashes, into @buf */
static const char *dir_name(const char *dir, char *buf, size_t len)
{
	size_t n = strlen(dir);
	const char *s;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (s = dir + n; s > dir && s[-1] != '/'; s--)
		;
	snprintf(buf, len, "%.*s", (int)(dir + n - s), s);
	return buf;
}

int levels_write_md(FILE *f, const struct rowstats *rs, const struct levels *lv)
{
	char name[256];
	struct table t;
	size_t i;
	int ret;

	fprintf(f, "# Test-bed levels: %s\n\n", dir_name(rs->dir, name, sizeof(name)));
	fprintf(f, "Rendered by `brnf levels` from raw/ alone (rig/src/data/levels.h). The "
		"runs of a pps\ncell ran the same kernel and flags, each in a test bed of its "
		"own; test beds draw\ndiscrete extra costs per packet, the levels "
		"(docs/methodology.md). A cell's **floor**\nis its lowest run over every boot "
		"and test bed; a run is **raised** when it lies %.0f\nns/packet or more above "
		"it. The values are pktgen's busy time per packet (the c part\nof its result: "
		"the time it did not yield), which repeats in one test bed where the\nelapsed "
		"time the matrix takes varies by a few ns/packet; a floor marked (elapsed) is\n"
		"of a cell whose records lack it.\n\n", LEVELS_RAISED_NS);
	fprintf(f, "## Are the levels independent of the kernel?\n\n");
	fprintf(f, "| row | pps runs | raised | share |\n|:--|--:|--:|--:|\n");
	for (i = 0; i < rs->nrows; i++) {
		char label[512];

		if (!lv->row_n[i])
			continue;
		rowstats_row_text(&rs->rows[i].row, label, sizeof(label));
		fprintf(f, "| %s | %zu | %zu | %.0f%% |\n", label, lv->row_n[i],
			lv->row_raised[i], 100.0 * (double)lv->row_raised[i] /
			(double)lv->row_n[i]);
	}
	fprintf(f, "\n");
	fprintf(f, "The test compares the rows that differ only in their kernel (the same "
		"flags, ruleset\nand path): ");
	if (isnan(lv->p))
		fprintf(f, "%s.\n\n", lv->ntested_strata ? "none of them has some runs raised "
			"and some not, nothing to test" : "there are no two such rows, nothing "
			"to test");
	else
		fprintf(f, "%zu rows in %zu configurations. χ² = %.2f, summed over the "
			"configurations;\npermutation p = %.4f over the boots (%lu random "
			"assignments of each configuration's\nboots to its rows, a boot's runs "
			"kept together, a row keeping its number of boots;\nfixed seed): %s.\n"
			"A boot is the unit because some levels are drawn once per boot (the "
			"ARP table's\nseed). Each cell's floor run counts as not raised, so a "
			"row with more runs per cell\nhas slightly more runs that can be "
			"raised.\n\n",
			lv->ntested_rows, lv->ntested_strata, lv->chi2, lv->p, lv->nperm,
			lv->p < LEVELS_ALPHA ? "**the kernels draw levels differently** at 5%" :
			"no dependence on the kernel found at 5%");
	fprintf(f, "## Floors, and their change against the baseline\n\n");
	if (isnan(lv->step))
		fprintf(f, "No run is raised: no step seen.\n\n");
	else if (rs->floor)
		fprintf(f, "One step, the smallest excess of a raised run here: %.1f "
			"ns/packet. A floor may hold a\nstep its baseline's does not, so a "
			"floor's change is known to one step; beside it the\nmatrix's change, "
			"the floor estimator's (docs/methodology.md), and its half-width\n"
			"S + w, a resolution bound, not a 95%% interval (S %.2f, w %.2f "
			"ns/packet), and whether\nthat half-width is below one step.\n\n",
			lv->step, rs->fb.S, rs->fb.w);
	else
		fprintf(f, "One step, the smallest excess of a raised run here: %.1f "
			"ns/packet. A floor may hold a\nstep its baseline's does not, so a "
			"floor's change is known to one step; beside it the\nmatrix's change "
			"(the mean over boots of each boot's best run) and its 95%% half-width,\n"
			"and whether that half-width is below one step.\n\n", lv->step);
	ret = build(&t, rs, lv);
	if (!ret)
		ret = table_print_md(&t, f);
	table_free(&t);
	return ret;
}

int levels_write_csv(FILE *f, const struct rowstats *rs, const struct levels *lv)
{
	struct table t;
	int ret = build(&t, rs, lv);

	if (!ret)
		ret = table_print_csv(&t, f);
	table_free(&t);
	return ret;
}
