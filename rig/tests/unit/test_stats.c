// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the statistics (rig/src/data/stats.c) against known values. */
#include <math.h>

#include "unit.h"

#include "stats.h"

#define assert_near(a, b, tol)                                                          \
	do {                                                                            \
		double _a = (a), _b = (b);                                              \
		if (!(fabs(_a - _b) <= (tol)))                                          \
			fail_msg("%s = %.12g, want %.12g (+-%g)", #a, _a, _b, (double)(tol)); \
	} while (0)

/* Student t 0.975 quantiles as printed in every table (3 decimals) */
static void test_t_table(void **state)
{
	static const struct {
		double nu, t;
	} tab[] = {
		{ 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 }, { 4, 2.776 }, { 5, 2.571 },
		{ 7, 2.365 }, { 9, 2.262 }, { 10, 2.228 }, { 19, 2.093 }, { 29, 2.045 },
		{ 60, 2.000 }, { 120, 1.980 }, { 1e7, 1.960 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		assert_near(stats_t_quantile(0.975, tab[i].nu), tab[i].t, 0.0005);
	/* other levels */
	assert_near(stats_t_quantile(0.995, 5), 4.032, 0.0005);
	assert_near(stats_t_quantile(0.95, 3), 2.353, 0.0005);
	assert_near(stats_t_quantile(0.90, 1), 3.078, 0.0005);
	/* large n tends to the normal quantile */
	assert_near(stats_t_quantile(0.975, 1e12), 1.959963984540054, 1e-6);
	assert_near(stats_t_quantile(0.975, INFINITY), 1.959963984540054, 1e-6);
}

/* closed forms: nu=1 (Cauchy) and nu=2 */
static void test_t_closed_forms(void **state)
{
	double p, t;

	(void)state;
	for (p = 0.55; p < 0.999; p += 0.05) {
		t = tan(M_PI * (p - 0.5));
		assert_near(stats_t_quantile(p, 1), t, 1e-9 * (1 + t));
		assert_near(stats_t_quantile(p, 2), (2 * p - 1) / sqrt(2 * p * (1 - p)), 1e-9);
	}
	for (t = -20; t <= 20; t += 0.7) {
		assert_near(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		assert_near(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	assert_near(stats_t_cdf(0, 7.3), 0.5, 1e-15);
	/* symmetry and the median */
	assert_near(stats_t_quantile(0.025, 9), -stats_t_quantile(0.975, 9), 1e-12);
	assert_true(stats_t_quantile(0.5, 4) == 0);
	/* bad arguments */
	assert_true(isnan(stats_t_quantile(0, 4)));
	assert_true(isnan(stats_t_quantile(1, 4)));
	assert_true(isnan(stats_t_quantile(0.975, 0)));
	assert_true(isnan(stats_t_quantile(0.975, -1)));
	assert_true(isnan(stats_t_quantile(NAN, 3)));
}

static void test_betai(void **state)
{
	(void)state;
	assert_near(stats_betai(2, 3, 0.4), 0.5248, 1e-12);	/* 1-(0.6^4+4*.4*.6^3) */
	assert_near(stats_betai(1, 1, 0.3), 0.3, 1e-12);
	assert_near(stats_betai(5.5, 5.5, 0.5), 0.5, 1e-12);
	assert_near(stats_betai(0.5, 0.5, 0.25), 2 / M_PI * asin(0.5), 1e-12);
	assert_true(stats_betai(2, 3, 0) == 0);
	assert_true(stats_betai(2, 3, 1) == 1);
	assert_true(isnan(stats_betai(2, 3, 1.5)));
	assert_true(isnan(stats_betai(0, 3, 0.5)));
}

static void test_compute(void **state)
{
	static const double v[] = { 9, 2, 4, 4, 4, 5, 5, 7 };
	struct stats_cell s;
	double sd = sqrt(32.0 / 7);

	(void)state;
	assert_int_equal(stats_compute(v, 8, &s), 0);
	assert_int_equal(s.n, 8);
	assert_near(s.mean, 5, 1e-12);
	assert_near(s.sd, sd, 1e-12);
	assert_near(s.ci95, 2.364624251592785 * sd / sqrt(8), 1e-9);
	assert_near(s.cv, sd / 5, 1e-12);
	assert_near(s.median, 4.5, 0);
	assert_true(s.min == 2);
	assert_true(s.max == 9);
	/* input untouched (the median sorts a copy) */
	assert_true(v[0] == 9 && v[7] == 7);
	/* odd count */
	assert_int_equal(stats_compute(v, 3, &s), 0);
	assert_true(s.median == 4);
	assert_near(s.ci95, 4.302652729749464 * s.sd / sqrt(3), 1e-9);
}

static void test_compute_n1_and_errors(void **state)
{
	static const double one = 831.2, bad[] = { 1, NAN };
	struct stats_cell s;

	(void)state;
	assert_int_equal(stats_compute(&one, 1, &s), 0);
	assert_int_equal(s.n, 1);
	assert_true(s.mean == 831.2 && s.median == 831.2 && s.min == 831.2 && s.max == 831.2);
	assert_true(isnan(s.sd));
	assert_true(isnan(s.ci95));
	assert_true(isnan(s.cv));
	assert_int_equal(stats_compute(&one, 0, &s), -EINVAL);
	assert_int_equal(stats_compute(bad, 2, &s), -EINVAL);
}

/* Welch: row {10,12,14} (sd 2) against base {20,20,22,22}; dof works out to exactly 3 */
static void test_change_welch(void **state)
{
	static const double row[] = { 10, 12, 14 }, base[] = { 20, 20, 22, 22 };
	struct stats_cell r, b;
	struct stats_change c;
	double half = 3.182446305284263 * sqrt(5.0 / 3);

	(void)state;
	assert_int_equal(stats_compute(row, 3, &r), 0);
	assert_int_equal(stats_compute(base, 4, &b), 0);
	assert_int_equal(stats_change(&r, &b, &c), 0);
	assert_true(c.has_interval);
	assert_near(c.pct, -300.0 / 7, 1e-9);
	assert_near(c.dof, 3, 1e-9);
	assert_near(c.low, 100 * (-9 - half) / 21, 1e-6);
	assert_near(c.high, 100 * (-9 + half) / 21, 1e-6);
	assert_false(c.indistinguishable);
}

static void test_change_indistinguishable(void **state)
{
	static const double a[] = { 100, 104, 98, 101 }, b[] = { 99, 103, 100, 102 };
	static const double same[] = { 5, 5, 5 }, more[] = { 6, 6, 6 };
	struct stats_cell x, y;
	struct stats_change c;

	(void)state;
	stats_compute(a, 4, &x);
	stats_compute(b, 4, &y);
	assert_int_equal(stats_change(&x, &y, &c), 0);
	assert_true(c.has_interval);
	assert_true(c.low < 0 && c.high > 0);
	assert_true(c.indistinguishable);

	/* no spread at all (identical icount runs): the interval is a point */
	stats_compute(same, 3, &x);
	stats_compute(same, 3, &y);
	assert_int_equal(stats_change(&x, &y, &c), 0);
	assert_true(c.pct == 0 && c.low == 0 && c.high == 0);
	assert_true(c.indistinguishable);
	stats_compute(more, 3, &x);
	assert_int_equal(stats_change(&y, &x, &c), 0);
	assert_near(c.pct, -100.0 / 6, 1e-12);
	assert_true(c.low == c.pct && c.high == c.pct);
	assert_false(c.indistinguishable);
}

static void test_change_n1_and_zero_base(void **state)
{
	static const double one = 90, base[] = { 100, 102 }, zero[] = { 0, 0 };
	struct stats_cell x, y, z;
	struct stats_change c;

	(void)state;
	stats_compute(&one, 1, &x);
	stats_compute(base, 2, &y);
	assert_int_equal(stats_change(&x, &y, &c), 0);
	assert_near(c.pct, -100.0 * 11 / 101, 1e-12);
	assert_false(c.has_interval);
	assert_false(c.indistinguishable);
	assert_true(isnan(c.low) && isnan(c.high));
	stats_compute(zero, 2, &z);
	assert_int_equal(stats_change(&y, &z, &c), -EINVAL);
}

static void test_reps_needed(void **state)
{
	struct stats_cell s = { .n = 3, .mean = 100, .sd = 2 };

	(void)state;
	/* 2 * (1.959964 + 0.841621)^2 * 2^2 / 2^2 = 15.70 -> 16 */
	assert_int_equal(stats_reps_needed(&s, 0.02), 16);
	s.sd = 6;	/* 9x the variance */
	assert_int_equal(stats_reps_needed(&s, 0.02), 142);	/* 141.27 -> 142 */
	s.sd = 0;
	assert_int_equal(stats_reps_needed(&s, 0.02), 2);
	s.sd = NAN;
	s.n = 1;
	assert_int_equal(stats_reps_needed(&s, 0.02), 0);
}

/*
 * The unit of a cell (stats_units): a hand-worked example of 3 boots with 2 runs each.
 * Row: boot 4 ran 101 and 103 (mean 102), boot 7 104 and 108 (106), boot 9 99 and 101
 * (100), interleaved. Units 102, 106, 100: mean 308/3, deviations -2/3, 10/3, -8/3,
 * sum of squares 56/3, variance 28/3. Base: boots 100,100 / 98,100 / 100,102, units 100,
 * 99, 101: mean 100, variance 1. Change: 8/3 %; Welch: vr = 28/9, vb = 1/3, se^2 = 31/9,
 * dof = (31/9)^2 / ((28/9)^2 / 2 + (1/3)^2 / 2) = 961/396.5; half-width t * sqrt(31/9)
 * (the base mean is 100, so percent and units coincide).
 */
static void test_units_by_part(void **state)
{
	static const double row[] = { 101, 104, 103, 99, 108, 101 };
	static const size_t rpart[] = { 4, 7, 4, 9, 7, 9 };
	static const double base[] = { 100, 100, 98, 100, 100, 102 };
	static const size_t bpart[] = { 1, 1, 2, 2, 3, 3 };
	struct stats_units u, ub;
	struct stats_cell r, b, runs;
	struct stats_change c;
	double dof = 961 / 396.5, half;

	(void)state;
	assert_int_equal(stats_units(row, rpart, 6, STATS_PART_MEAN, &u), 0);
	assert_true(u.by_part);
	assert_int_equal(u.nparts, 3);
	assert_int_equal(u.n, 3);
	assert_int_equal(u.part_id[0], 4);
	assert_int_equal(u.part_id[1], 7);
	assert_int_equal(u.part_id[2], 9);
	assert_int_equal(u.part_runs[0], 2);
	assert_int_equal(u.part_runs[2], 2);
	assert_true(u.v[0] == 102 && u.v[1] == 106 && u.v[2] == 100);
	assert_true(u.part_mean[1] == 106);
	assert_int_equal(stats_compute(u.v, u.n, &r), 0);
	assert_near(r.mean, 308.0 / 3, 1e-12);
	assert_near(r.sd, sqrt(28.0 / 3), 1e-12);
	assert_near(r.ci95, 4.302652729749464 * sqrt(28.0 / 3) / sqrt(3), 1e-9);
	/* the runs as units would claim a much narrower interval (n = 6) */
	assert_int_equal(stats_compute(row, 6, &runs), 0);
	assert_true(runs.ci95 < r.ci95 / 2);

	assert_int_equal(stats_units(base, bpart, 6, STATS_PART_MEAN, &ub), 0);
	assert_int_equal(stats_compute(ub.v, ub.n, &b), 0);
	assert_near(b.mean, 100, 1e-12);
	assert_near(b.sd, 1, 1e-12);
	assert_int_equal(stats_change(&r, &b, &c), 0);
	assert_near(c.pct, 8.0 / 3, 1e-9);
	assert_near(c.dof, dof, 1e-9);
	half = stats_t_quantile(0.975, dof) * sqrt(31.0 / 9);
	assert_near(c.low, 8.0 / 3 - half, 1e-9);
	assert_near(c.high, 8.0 / 3 + half, 1e-9);
	assert_near(stats_change_halfwidth(&c), half, 1e-9);
	/* t(0.975, 2.42) is about 3.8: the half-width is about 7% */
	assert_true(half > 6.5 && half < 7.5);
	assert_false(stats_reached(stats_change_halfwidth(&c), 0.3));
	assert_true(stats_reached(stats_change_halfwidth(&c), 7.5));
	/* the baseline's own interval: 4.303 * 1 / sqrt(3) of 100 */
	assert_near(stats_ci95_pct(&b), 4.302652729749464 / sqrt(3), 1e-9);
	stats_units_free(&u);
	stats_units_free(&ub);
	assert_null(u.v);
}

/* one part: the runs are the units; one run per part: the part means are the runs */
static void test_units_one_part(void **state)
{
	static const double v[] = { 5, 6, 7, 9 };
	static const size_t one[] = { 2, 2, 2, 2 }, each[] = { 0, 1, 2, 3 };
	struct stats_units u;

	(void)state;
	assert_int_equal(stats_units(v, one, 4, STATS_PART_MEAN, &u), 0);
	assert_false(u.by_part);
	assert_int_equal(u.nparts, 1);
	assert_int_equal(u.n, 4);
	assert_int_equal(u.part_runs[0], 4);
	assert_true(u.part_mean[0] == 6.75);
	assert_true(u.v[3] == 9);
	stats_units_free(&u);
	assert_int_equal(stats_units(v, each, 4, STATS_PART_MEAN, &u), 0);
	assert_true(u.by_part);
	assert_int_equal(u.n, 4);
	assert_memory_equal(u.v, v, sizeof(v));
	stats_units_free(&u);
	assert_int_equal(stats_units(v, one, 0, STATS_PART_MEAN, &u), -EINVAL);
}

/* part_value=best: a part's lowest (ns/packet) or highest (Mbit/s) run stands for it */
static void test_units_best(void **state)
{
	/* two boots, three test beds each: a level drawn on top of the floor */
	static const double v[] = { 6302.6, 6365.6, 6302.9, 6350.7, 6303.1, 6422.6 };
	static const size_t part[] = { 0, 0, 0, 1, 1, 1 };
	struct stats_units u;

	(void)state;
	assert_int_equal(stats_units(v, part, 6, STATS_PART_MIN, &u), 0);
	assert_true(u.by_part);
	assert_int_equal(u.n, 2);
	assert_true(u.v[0] == 6302.6 && u.v[1] == 6303.1);
	assert_int_equal(u.part_runs[0], 3);
	assert_int_equal(u.part_runs[1], 3);
	stats_units_free(&u);
	assert_int_equal(stats_units(v, part, 6, STATS_PART_MAX, &u), 0);
	assert_true(u.v[0] == 6365.6 && u.v[1] == 6422.6);
	stats_units_free(&u);
	assert_int_equal(stats_units(v, part, 6, STATS_PART_MEAN, &u), 0);
	assert_near(u.v[0], (6302.6 + 6365.6 + 6302.9) / 3, 1e-9);
	stats_units_free(&u);
	/* one part: the runs are the units whatever the part value */
	assert_int_equal(stats_units(v, part, 3, STATS_PART_MIN, &u), 0);
	assert_false(u.by_part);
	assert_int_equal(u.n, 3);
	assert_true(u.v[1] == 6365.6);
	stats_units_free(&u);
}

static void test_reached(void **state)
{
	struct stats_cell s = { .n = 3, .mean = 200, .ci95 = 0.6 };
	struct stats_change c = { .has_interval = true, .low = -2.8, .high = -2.2 };

	(void)state;
	assert_near(stats_ci95_pct(&s), 0.3, 1e-12);
	assert_true(stats_reached(0.3, 0.3));		/* at most the target */
	assert_false(stats_reached(0.3000001, 0.3));
	assert_false(stats_reached(NAN, 0.3));		/* no interval: not reached */
	assert_near(stats_change_halfwidth(&c), 0.3, 1e-12);
	c.has_interval = false;
	assert_true(isnan(stats_change_halfwidth(&c)));
	s.n = 1;
	assert_true(isnan(stats_ci95_pct(&s)));
	s.n = 2;
	s.mean = 0;
	assert_true(isnan(stats_ci95_pct(&s)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_t_closed_forms),
		cmocka_unit_test(test_betai),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_n1_and_errors),
		cmocka_unit_test(test_change_welch),
		cmocka_unit_test(test_change_indistinguishable),
		cmocka_unit_test(test_change_n1_and_zero_base),
		cmocka_unit_test(test_reps_needed),
		cmocka_unit_test(test_units_by_part),
		cmocka_unit_test(test_units_one_part),
		cmocka_unit_test(test_units_best),
		cmocka_unit_test(test_reached),
	};

	unit_init();
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
