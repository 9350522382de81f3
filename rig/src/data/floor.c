// SPDX-License-Identifier: GPL-2.0
/* floor: the floor's change ± (S + w), the headline estimator of a pps cell (floor.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"

/* a residue of the division that makes b, below which an excess still counts */
#define FLOOR_EPS 1e-9

bool floor_raised(double excess)
{
	return excess >= FLOOR_RAISED_NS - FLOOR_EPS;
}

bool floor_busy_values(const struct raw_set *raw, const size_t *vrun, size_t n, double *v)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const struct raw_pktgen *p = &raw->runs[vrun[k]].pktgen;

		if (!p->busy_us || !p->sent)
			return false;
		v[k] = (double)p->busy_us * 1000.0 / (double)p->sent;
	}
	return true;
}

int floor_cell(const double *b, size_t n, struct floor_cell *fc)
{
	size_t i;
	double e;

	memset(fc, 0, sizeof(*fc));
	fc->first = NAN;
	if (!n)
		return -EINVAL;
	fc->floor = b[0];
	for (i = 0; i < n; i++) {
		if (!isfinite(b[i]))
			return -EINVAL;
		if (b[i] < fc->floor)
			fc->floor = b[i];
	}
	fc->n = n;
	for (i = 0; i < n; i++) {
		e = b[i] - fc->floor;
		if (floor_raised(e)) {
			fc->raised++;
			if (isnan(fc->first) || e < fc->first)
				fc->first = e;
		} else if (e > fc->within) {
			fc->within = e;
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double floor_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int floor_bound_compute(const struct floor_cell *cells, size_t n, struct floor_bound *fb)
{
	double *first = malloc((n ? n : 1) * sizeof(*first));
	size_t i;

	memset(fb, 0, sizeof(*fb));
	fb->S = NAN;
	if (!first)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!isnan(cells[i].first))
			first[fb->nfirst++] = cells[i].first;
		if (cells[i].within > fb->w)
			fb->w = cells[i].within;
	}
	fb->ncells = n;
	fb->S = floor_median(first, fb->nfirst);
	free(first);
	return 0;
}

int floor_change(double fv, double fbase, const struct floor_bound *fb,
		 struct stats_change *c)
{
	double h;

	memset(c, 0, sizeof(*c));
	c->low = c->high = c->dof = NAN;
	if (!(fbase > 0) || !isfinite(fv) || isnan(fb->S))
		return -EINVAL;
	c->pct = 100.0 * (fv - fbase) / fbase;
	h = 100.0 * (fb->S + fb->w) / fbase;
	c->low = c->pct - h;
	c->high = c->pct + h;
	c->has_interval = true;
	c->indistinguishable = c->low <= 0 && c->high >= 0;
	return 0;
}

void floor_round_out(double low, double high, int dec, double *lo, double *hi)
{
	double q = pow(10, dec);

	/* + 0.0: a -0 printed would read "-0.00" */
	*lo = floor(low * q + FLOOR_EPS) / q + 0.0;
	*hi = ceil(high * q - FLOOR_EPS) / q + 0.0;
}

void floor_change_text(const struct stats_change *c, bool outward, char *buf, size_t len)
{
	int dec = c->high - c->low < 0.2 ? 2 : 1;
	double lo = c->low, hi = c->high;

	if (outward)
		floor_round_out(c->low, c->high, dec, &lo, &hi);
	snprintf(buf, len, "%+.*f%% [%+.*f, %+.*f]", dec, c->pct, dec, lo, dec, hi);
}
