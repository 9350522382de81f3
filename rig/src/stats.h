/* SPDX-License-Identifier: GPL-2.0 */
/* stats: summary statistics, Student t intervals, Welch change intervals. */
#ifndef BRNF_STATS_H
#define BRNF_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats_cell {
	size_t n;
	double mean;
	double sd;		/* sample standard deviation (n-1); NAN when n < 2 */
	double ci95;		/* half-width of the 95% interval of the mean
				 * (Student t, n-1 dof); NAN when n < 2 */
	double cv;		/* sd / mean; NAN when n < 2 or mean == 0 */
	double median;
	double min;
	double max;
};

struct stats_change {
	double pct;		/* 100 * (mean - base mean) / base mean */
	double low, high;	/* 95% Welch interval of the difference of means,
				 * in percent of the base mean; NAN when either n < 2 */
	double dof;		/* Welch-Satterthwaite degrees of freedom */
	bool has_interval;
	bool indistinguishable;	/* the interval contains 0 */
};

/* Regularized incomplete beta function I_x(a, b). */
double stats_betai(double a, double b, double x);
/* Student t distribution function P(T <= t) with nu degrees of freedom (nu > 0, may be
 * fractional). */
double stats_t_cdf(double t, double nu);
/* Quantile: the t with P(T <= t) = p, 0 < p < 1; NAN for bad arguments. */
double stats_t_quantile(double p, double nu);

/* Summary of @n values (the values are not modified). 0, or -EINVAL when n == 0 or a
 * value is not finite. */
int stats_compute(const double *v, size_t n, struct stats_cell *s);

/* Change of @row against @base. 0, or -EINVAL when the base mean is not positive. */
int stats_change(const struct stats_cell *row, const struct stats_cell *base,
		 struct stats_change *c);

/* Repetitions per row needed to detect a relative change @rel (e.g. 0.02) of the mean
 * with a two-sample test at 95% (two-sided) and 80% power, normal approximation, at the
 * observed sd. 0 when unknown (n < 2 or mean <= 0); at least 2. */
unsigned long stats_reps_needed(const struct stats_cell *s, double rel);

#endif /* BRNF_STATS_H */
