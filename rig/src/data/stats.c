// SPDX-License-Identifier: GPL-2.0
/*
 * stats: summary statistics, Student t intervals, Welch change intervals.
 *
 * The t quantile inverts the t distribution function, which is computed from the
 * regularized incomplete beta function (continued fraction, modified Lentz), the method
 * of Numerical Recipes 6.4 and of Abramowitz & Stegun 26.5.8 / 26.7.1.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define Z_975 1.959963984540054		/* standard normal 0.975 quantile */
#define Z_80 0.8416212335729143		/* standard normal 0.80 quantile */

/* Keep a Lentz denominator away from zero. */
static double not_tiny(double v)
{
	const double tiny = 1e-300;

	return fabs(v) < tiny ? tiny : v;
}

/* One modified Lentz step with the coefficient aa; returns the factor for h. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1.0 / not_tiny(1.0 + aa * *d);
	*c = not_tiny(1.0 + aa / *c);
	return *d * *c;
}

/* Continued fraction for I_x(a, b), valid (fast) for x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-16;
	double c = 1.0, d, h, aa, del;
	int m, m2;

	d = 1.0 / not_tiny(1.0 - (a + b) * x / (a + 1.0));
	h = d;
	for (m = 1; m <= 10000; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
		h *= lentz_step(aa, &c, &d);
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1.0) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	double lbt;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1.0 - exp(lbt) * betacf(b, a, 1.0 - x) / b;
}

double stats_t_cdf(double t, double nu)
{
	double tail;

	if (!(nu > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* beyond this the t distribution equals the normal to better than 1e-7, while
	 * lgamma(nu/2) differences in stats_betai() lose digits */
	if (nu > 1e7)
		return 0.5 * erfc(-t / M_SQRT2);
	/* P(|T| > |t|) = I_{nu/(nu+t^2)}(nu/2, 1/2) */
	tail = 0.5 * stats_betai(nu / 2.0, 0.5, nu / (nu + t * t));
	return t >= 0 ? 1.0 - tail : tail;
}

double stats_t_quantile(double p, double nu)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (!(p > 0) || !(p < 1) || !(nu > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, nu);
	if (isinf(nu))
		nu = 1e300;
	while (stats_t_cdf(hi, nu) < p) {
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return INFINITY;
	}
	/* bisection: 200 halvings take any bracket below double resolution */
	for (i = 0; i < 200; i++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (stats_t_cdf(mid, nu) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int stats_compute(const double *v, size_t n, struct stats_cell *s)
{
	double sum = 0, ss = 0, *sorted;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	s->n = n;
	s->mean = sum / n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	if (n < 2) {
		s->sd = s->ci95 = s->cv = NAN;
		return 0;
	}
	for (i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(ss / (n - 1));
	s->ci95 = stats_t_quantile(0.975, n - 1) * s->sd / sqrt(n);
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
	return 0;
}

int stats_change(const struct stats_cell *row, const struct stats_cell *base,
		 struct stats_change *c)
{
	double d, vr, vb, se2, half;

	memset(c, 0, sizeof(*c));
	c->low = c->high = c->dof = NAN;
	if (!(base->mean > 0) || !row->n || !base->n)
		return -EINVAL;
	d = row->mean - base->mean;
	c->pct = 100.0 * d / base->mean;
	if (row->n < 2 || base->n < 2)
		return 0;
	vr = row->sd * row->sd / row->n;
	vb = base->sd * base->sd / base->n;
	se2 = vr + vb;
	c->has_interval = true;
	if (se2 == 0) {
		/* no spread at all (e.g. identical icount runs): the interval is a point */
		c->dof = INFINITY;
		c->low = c->high = c->pct;
		c->indistinguishable = d == 0;
		return 0;
	}
	c->dof = se2 * se2 / (vr * vr / (row->n - 1) + vb * vb / (base->n - 1));
	half = stats_t_quantile(0.975, c->dof) * sqrt(se2);
	c->low = 100.0 * (d - half) / base->mean;
	c->high = 100.0 * (d + half) / base->mean;
	c->indistinguishable = c->low <= 0 && c->high >= 0;
	return 0;
}

int stats_units(const double *v, const size_t *part, size_t n, enum stats_part_value pv,
		struct stats_units *u)
{
	size_t i, j;

	memset(u, 0, sizeof(*u));
	if (!n)
		return -EINVAL;
	u->part_mean = calloc(n, sizeof(*u->part_mean));
	u->part_id = calloc(n, sizeof(*u->part_id));
	u->part_runs = calloc(n, sizeof(*u->part_runs));
	u->v = calloc(n, sizeof(*u->v));
	if (!u->part_mean || !u->part_id || !u->part_runs || !u->v) {
		stats_units_free(u);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < u->nparts; j++)
			if (u->part_id[j] == part[i])
				break;
		if (j == u->nparts) {
			u->part_id[u->nparts++] = part[i];
			u->part_mean[j] = v[i];
		} else if (pv == STATS_PART_MEAN) {
			u->part_mean[j] += v[i];
		} else if (pv == STATS_PART_MIN ? v[i] < u->part_mean[j] :
			   v[i] > u->part_mean[j]) {
			u->part_mean[j] = v[i];
		}
		u->part_runs[j]++;
	}
	for (j = 0; j < u->nparts && pv == STATS_PART_MEAN; j++)
		u->part_mean[j] /= u->part_runs[j];
	u->by_part = u->nparts >= 2;
	u->n = u->by_part ? u->nparts : n;
	memcpy(u->v, u->by_part ? u->part_mean : v, u->n * sizeof(*u->v));
	return 0;
}

void stats_units_free(struct stats_units *u)
{
	free(u->v);
	free(u->part_mean);
	free(u->part_id);
	free(u->part_runs);
	memset(u, 0, sizeof(*u));
}

double stats_change_halfwidth(const struct stats_change *c)
{
	return c->has_interval ? (c->high - c->low) / 2 : NAN;
}

double stats_ci95_pct(const struct stats_cell *s)
{
	return s->n >= 2 && s->mean > 0 ? 100.0 * s->ci95 / s->mean : NAN;
}

bool stats_reached(double halfwidth_pct, double target_pct)
{
	return halfwidth_pct <= target_pct;	/* false for NAN */
}

unsigned long stats_reps_needed(const struct stats_cell *s, double rel)
{
	double delta, n;

	if (s->n < 2 || !(s->mean > 0) || !(rel > 0) || isnan(s->sd))
		return 0;
	delta = rel * s->mean;
	n = 2.0 * (Z_975 + Z_80) * (Z_975 + Z_80) * s->sd * s->sd / (delta * delta);
	n = ceil(n - 1e-9);
	if (n < 2)
		n = 2;
	if (n > 1e9)
		n = 1e9;
	return (unsigned long)n;
}
