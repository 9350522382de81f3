// SPDX-License-Identifier: GPL-2.0
/* The one-line verdict and the JSON summary of a results directory (verdict.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "floor.h"
#include "verdict.h"
#include "workload.h"

/* A cell's change, or NULL: the baseline row's cells and cells without one. */
static const struct rcell *change_of(const struct rowstats *rs, size_t i, int w, int d)
{
	const struct rcell *c = &rs->rows[i].cell[w][d];

	return !rowstats_is_base(rs, i) && c->has_stats && c->has_chg ? c : NULL;
}

static bool worse(int w, double pct)
{
	return brnf_workloads[w].lower_better ? pct > 0 : pct < 0;
}

/* "+10.2% [+9.4, +10.9]", two decimals for an interval narrower than 0.2; a floor's
 * ends rounded outward (floor.h) */
static void change_str(const struct rcell *c, char *buf, size_t len)
{
	floor_change_text(&c->chg, c->by_floor, buf, len);
}

/* The baseline row's text; with other paths every path's that has one, " and " between. */
static void base_text(const struct rowstats *rs, char *buf, size_t len)
{
	char row[256];
	size_t p, off = 0, n = 0;

	if (!rs->any_path) {
		rowstats_row_text(&rs->rows[rs->base].row, buf, len);
		return;
	}
	buf[0] = '\0';
	for (p = 0; p < BRNF_NPATHS && off < len; p++)
		if (rs->path_base[p] != ROWSTATS_NO_BASE)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", n++ ? " and " : "",
						rowstats_row_text(&rs->rows[rs->path_base[p]].row,
								  row, sizeof(row)));
}

void verdict_make(const struct rowstats *rs, struct verdict *v)
{
	char base[512], row[256], chg[64];
	const struct rcell *c, *top = NULL;
	size_t i, off;
	int w, d;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < rs->nrows; i++) {
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = change_of(rs, i, w, d);
				if (!c)
					continue;
				v->nchanges++;
				if (!c->chg.has_interval) {
					v->nsingle++;
				} else if (c->chg.indistinguishable) {
					v->nsame++;
				} else {
					if (worse(w, c->chg.pct))
						v->nworse++;
					else
						v->nbetter++;
					if (!top || fabs(c->chg.pct) > fabs(top->chg.pct)) {
						top = c;
						v->top = &rs->rows[i];
						v->top_w = w;
						v->top_d = d;
					}
				}
			}
		}
	}
	if (!rs->nrows) {
		snprintf(v->text, sizeof(v->text), "verdict: no rows");
		return;
	}
	base_text(rs, base, sizeof(base));
	if (!v->nchanges) {
		off = (size_t)snprintf(v->text, sizeof(v->text),
				       "verdict: nothing to compare with %s (one row)", base);
	} else {
		off = (size_t)snprintf(v->text, sizeof(v->text),
				       "verdict: %zu of %zu changes against %s lie beyond their %s"
				       "intervals (%zu worse, %zu better%s)",
				       v->nworse + v->nbetter, v->nchanges, base,
				       rs->floor ? "" : "95% ", v->nworse, v->nbetter,
				       rs->floor ? "; a pps cell's: its floor's change ± one "
				       "level, a resolution bound, not a 95% interval" : "");
		if (top && off < sizeof(v->text)) {
			change_str(top, chg, sizeof(chg));
			off += (size_t)snprintf(v->text + off, sizeof(v->text) - off,
						", the largest %s %s %s %s",
						rowstats_row_text(&v->top->row, row, sizeof(row)),
						brnf_workloads[v->top_w].name,
						raw_dir_names[v->top_d], chg);
		}
		if (v->nsingle && off < sizeof(v->text))
			off += (size_t)snprintf(v->text + off, sizeof(v->text) - off,
						"; %zu without an interval (one unit)", v->nsingle);
	}
	if (off < sizeof(v->text)) {
		if (rs->nverify_no)
			snprintf(v->text + off, sizeof(v->text) - off,
				 "; filtering verification said no on %u of %zu rows",
				 rs->nverify_no, rs->nrows);
		else
			snprintf(v->text + off, sizeof(v->text) - off,
				 "; no row's filtering verification said no");
	}
}

/* a number, or null for NAN */
static struct json_object *num(double x)
{
	return isfinite(x) ? json_object_new_double(x) : NULL;
}

static struct json_object *cell_json(const struct rowstats *rs, size_t i, int w, int d)
{
	const struct rcell *c = &rs->rows[i].cell[w][d];
	struct json_object *o = json_object_new_object();
	bool iv = c->chg.has_interval;

	if (!o)
		return NULL;
	json_object_object_add(o, "row", json_object_new_string(rs->rows[i].key));
	json_object_object_add(o, "workload", json_object_new_string(brnf_workloads[w].name));
	json_object_object_add(o, "direction", json_object_new_string(raw_dir_names[d]));
	json_object_object_add(o, "unit", json_object_new_string(brnf_workloads[w].unit));
	json_object_object_add(o, "mean", num(c->s.mean));
	json_object_object_add(o, "change_pct", num(c->chg.pct));
	json_object_object_add(o, "change_low_pct", iv ? num(c->chg.low) : NULL);
	json_object_object_add(o, "change_high_pct", iv ? num(c->chg.high) : NULL);
	json_object_object_add(o, "indistinguishable",
			       iv ? json_object_new_boolean(c->chg.indistinguishable) : NULL);
	if (rs->floor)
		json_object_object_add(o, "estimator",
				       json_object_new_string(c->by_floor ? "floor" : "boots"));
	return o;
}

struct json_object *verdict_path_baselines_json(const struct rowstats *rs)
{
	struct json_object *o = json_object_new_object();
	size_t p, b;

	for (p = 0; o && p < BRNF_NPATHS; p++) {
		b = rs->path_base[p];
		if (json_object_object_add(o, brnf_path_names[p], b == ROWSTATS_NO_BASE ? NULL :
					   json_object_new_string(rs->rows[b].key))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

struct json_object *verdict_summary_json(const struct rowstats *rs, const struct verdict *v)
{
	struct json_object *top, *vd, *cells, *o;
	size_t i;
	int w, d;

	top = json_object_new_object();
	vd = json_object_new_object();
	cells = json_object_new_array();
	if (!top || !vd || !cells)
		goto out_put;
	json_object_object_add(top, "dir", json_object_new_string(rs->dir));
	json_object_object_add(top, "baseline",
			       rs->nrows ? json_object_new_string(rs->rows[rs->base].key) : NULL);
	if (rs->nrows && rs->any_path) {
		o = verdict_path_baselines_json(rs);
		if (!o || json_object_object_add(top, "path_baselines", o)) {
			json_object_put(o);
			goto out_put;
		}
	}
	json_object_object_add(top, "verify_failed_rows", json_object_new_int64(rs->nverify_no));
	json_object_object_add(vd, "changes", json_object_new_int64((int64_t)v->nchanges));
	json_object_object_add(vd, "worse", json_object_new_int64((int64_t)v->nworse));
	json_object_object_add(vd, "better", json_object_new_int64((int64_t)v->nbetter));
	json_object_object_add(vd, "indistinguishable", json_object_new_int64((int64_t)v->nsame));
	json_object_object_add(vd, "no_interval", json_object_new_int64((int64_t)v->nsingle));
	json_object_object_add(vd, "largest", v->top ?
			       cell_json(rs, (size_t)(v->top - rs->rows), v->top_w, v->top_d) :
			       NULL);
	json_object_object_add(vd, "text", json_object_new_string(v->text));
	json_object_object_add(top, "verdict", vd);
	vd = NULL;
	for (i = 0; i < rs->nrows; i++) {
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				if (!change_of(rs, i, w, d))
					continue;
				o = cell_json(rs, i, w, d);
				if (!o || json_object_array_add(cells, o)) {
					json_object_put(o);
					goto out_put;
				}
			}
		}
	}
	json_object_object_add(top, "changes", cells);
	return top;
out_put:
	json_object_put(cells);
	json_object_put(vd);
	json_object_put(top);
	return NULL;
}
