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

/*
 * The unit of a cell's statistics. Runs inside one boot are not independent (6.12's
 * TCP boot-to-boot modes): when a cell's runs come from two or more parts (boots), each
 * part's mean over its runs is one observation; with one part, each run is.
 */
/* What stands for a part (a boot) when the parts are the units. */
enum stats_part_value {
	STATS_PART_MEAN,	/* the mean of its runs */
	STATS_PART_MIN,		/* its lowest run (best where lower is better) */
	STATS_PART_MAX,		/* its highest run */
};

struct stats_units {
	double *v;		/* the units: part values when by_part, else the runs */
	size_t n;
	bool by_part;
	double *part_mean;	/* per part (its mean, or its min or max run: stats_units()),
				 * in order of first appearance */
	size_t *part_id;	/* the caller's part number of each */
	size_t *part_runs;	/* runs of each part */
	size_t nparts;
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

/* The units of @n runs with values @v, run i from part @part[i]: with two or more
 * parts each part's value (@pv: the mean of its runs, or its lowest or highest run),
 * else the runs. 0, -EINVAL when n == 0, or -ENOMEM. Free with stats_units_free(). */
int stats_units(const double *v, const size_t *part, size_t n, enum stats_part_value pv,
		struct stats_units *u);
void stats_units_free(struct stats_units *u);

/* Half-width (high - low) / 2 of a change's interval, in percent of the base mean; NAN
 * without an interval. */
double stats_change_halfwidth(const struct stats_change *c);
/* A cell's own 95% half-width in percent of its mean; NAN when n < 2 or mean <= 0. */
double stats_ci95_pct(const struct stats_cell *s);
/* The target is reached when the half-width is known and at most @target_pct. */
bool stats_reached(double halfwidth_pct, double target_pct);

/* Repetitions per row needed to detect a relative change @rel (e.g. 0.02) of the mean
 * with a two-sample test at 95% (two-sided) and 80% power, normal approximation, at the
 * observed sd. 0 when unknown (n < 2 or mean <= 0); at least 2. */
unsigned long stats_reps_needed(const struct stats_cell *s, double rel);

#endif /* BRNF_STATS_H */
