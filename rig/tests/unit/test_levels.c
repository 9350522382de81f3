// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the test-bed levels (rig/src/data/levels.c): the chi-square statistic
 * by hand, the permutation p's bounds and its fixed seed, and the floors and excesses
 * of data/resdir2 (make-resdir2.sh: every pps run's busy time is its elapsed time less
 * 77 us). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"

#include "levels.h"

/* units of one run each: row i gets n[i] units, the first raised[i] of them raised */
static struct levels_unit *runs_as_units(const size_t *n, const size_t *raised, size_t k,
					 size_t *nu)
{
	struct levels_unit *u;
	size_t i, j, m = 0;

	for (i = 0; i < k; i++)
		m += n[i];
	u = calloc(m + 1, sizeof(*u));
	assert_non_null(u);
	for (i = 0, m = 0; i < k; i++)
		for (j = 0; j < n[i]; j++) {
			u[m].row = i;
			u[m].n = 1;
			u[m++].raised = j < raised[i];
		}
	*nu = m;
	return u;
}

/* levels_perm_p() of runs as units */
static double perm_runs(const size_t *n, const size_t *raised, const size_t *st, size_t k,
			unsigned long nperm, uint64_t seed)
{
	size_t nu;
	struct levels_unit *u = runs_as_units(n, raised, k, &nu);
	double p = levels_perm_p(u, nu, st, k, nperm, seed);

	free(u);
	return p;
}

static void test_chi2_by_hand(void **state)
{
	static const size_t n2[] = { 10, 10 }, even[] = { 5, 5 }, apart[] = { 10, 0 };
	static const size_t n3[] = { 4, 8, 8 }, r3[] = { 1, 6, 3 };

	(void)state;
	assert_true(levels_chi2(n2, even, NULL, 2) == 0);
	/* expected 5 in each of the four cells, observed 10, 0, 0, 10: 4 x 25 / 5 */
	assert_true(fabs(levels_chi2(n2, apart, NULL, 2) - 20) < 1e-12);
	/*
	 * 20 entries, 10 raised: expected raised 2, 4, 4, not raised 2, 4, 4.
	 * (1-2)²/2 + (3-2)²/2 + (6-4)²/4 + (2-4)²/4 + (3-4)²/4 + (5-4)²/4 = 3.5
	 */
	assert_true(fabs(levels_chi2(n3, r3, NULL, 3) - 3.5) < 1e-12);
	/* a column empty: nothing to test */
	assert_true(levels_chi2(n2, n2, NULL, 2) == 0);
}

/* strata: each with its own expected counts, the statistics summed */
static void test_chi2_strata(void **state)
{
	/* stratum 0: rows 0 and 2, 10 entries each, 8 and 2 raised; stratum 1: rows 1 and
	 * 3, 10 each, 5 and 5 raised; row 4 alone in stratum 2, all raised */
	static const size_t n[] = { 10, 10, 10, 10, 6 }, r[] = { 8, 5, 2, 5, 6 };
	static const size_t st[] = { 0, 1, 0, 1, 2 };
	static const size_t n2[] = { 10, 10 }, r2[] = { 8, 2 };

	(void)state;
	/* stratum 0 is the 2 x 2 table 8/2, 2/8: expected 5 each, 4 x 9 / 5 = 7.2 */
	assert_true(fabs(levels_chi2(n2, r2, NULL, 2) - 7.2) < 1e-12);
	assert_true(fabs(levels_chi2(n, r, st, 5) - 7.2) < 1e-12);
	/* one stratum over all five: other expected counts, another statistic */
	assert_true(fabs(levels_chi2(n, r, NULL, 5) - 7.2) > 0.1);
	/* only stratum 0 can reach or beat it, with its own assignments */
	assert_true(perm_runs(n, r, st, 5, 10000, LEVELS_SEED) < 0.1);
	/* rows alone in their stratum: nothing to compare */
	{
		static const size_t alone[] = { 0, 1, 2, 3, 4 };

		assert_true(isnan(perm_runs(n, r, alone, 5, 100, 1)));
		assert_true(levels_chi2(n, r, alone, 5) == 0);
	}
}

static void test_perm_p(void **state)
{
	static const size_t n2[] = { 10, 10 }, even[] = { 5, 5 }, apart[] = { 10, 0 };
	static const size_t one[] = { 20 }, r1[] = { 5 }, none[] = { 0, 0 };
	double p, q;

	(void)state;
	/* every assignment reaches a statistic of 0 */
	assert_true(perm_runs(n2, even, NULL, 2, 1000, 1) == 1);
	/* all raised in one row: 2 of C(20, 10) = 184756 assignments reach it */
	p = perm_runs(n2, apart, NULL, 2, 10000, LEVELS_SEED);
	assert_true(p >= 1.0 / 10001 && p < 0.001);
	/* the same seed, the same p; another seed, a p of the same size */
	assert_true(perm_runs(n2, apart, NULL, 2, 10000, LEVELS_SEED) == p);
	q = perm_runs(n2, apart, NULL, 2, 10000, 7);
	assert_true(q < 0.001);
	/* not testable: one row, nothing raised, everything raised, no permutation */
	assert_true(isnan(perm_runs(one, r1, NULL, 1, 100, 1)));
	assert_true(isnan(perm_runs(n2, none, NULL, 2, 100, 1)));
	assert_true(isnan(perm_runs(n2, n2, NULL, 2, 100, 1)));
	assert_true(isnan(perm_runs(n2, even, NULL, 2, 0, 1)));
}

/* boots as units: a boot's runs move together */
static void test_perm_boots(void **state)
{
	/* two rows, four boots each of 5 runs; row 0's boots raised 5, 5, 0, 0, row 1's
	 * 5, 5, 0, 0 too: the same, p 1 */
	static const struct levels_unit same[] = {
		{ 0, 5, 5 }, { 0, 5, 5 }, { 0, 5, 0 }, { 0, 5, 0 },
		{ 1, 5, 5 }, { 1, 5, 5 }, { 1, 5, 0 }, { 1, 5, 0 },
	};
	/* row 0's boots all raised, row 1's none: as runs 20 of 20 against 0 of 20 would
	 * be p about 1e-11; as boots it is 2 of C(8, 4) = 70 assignments, p near 1/35 */
	static const struct levels_unit apart[] = {
		{ 0, 5, 5 }, { 0, 5, 5 }, { 0, 5, 5 }, { 0, 5, 5 },
		{ 1, 5, 0 }, { 1, 5, 0 }, { 1, 5, 0 }, { 1, 5, 0 },
	};
	static const struct levels_unit bad[] = { { 2, 5, 5 }, { 0, 5, 0 } };
	double p;

	(void)state;
	assert_true(levels_perm_p(same, 8, NULL, 2, 1000, 1) == 1);
	p = levels_perm_p(apart, 8, NULL, 2, 10000, LEVELS_SEED);
	assert_true(p > 0.015 && p < 0.045);
	/* a unit of a row out of range */
	assert_true(isnan(levels_perm_p(bad, 2, NULL, 2, 100, 1)));
}

static void test_resdir2(void **state)
{
	struct rowstats_opts ro = { 0 };
	struct rowstats rs;
	struct levels lv;
	char *md = NULL;
	size_t k, len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rowstats_load(&rs, data_path("resdir2"), &ro), 0);
	assert_int_equal(levels_compute(&rs, &lv), 0);
	/* three rows, pps64 in both directions; tcp-bytes has no levels */
	assert_int_equal(lv.ncells, 6);
	for (k = 0; k < lv.ncells; k++) {
		assert_true(lv.cells[k].busy);
		assert_int_equal(lv.cells[k].n, 6);
		assert_true(lv.cells[k].excess[0] == 0);
	}
	/* nobrnf download: elapsed 300 ms per 50,000 frames less 77 us, the others above */
	assert_true(fabs(lv.cells[0].floor - (5990.0 - 77.0 * 1000 / 50000)) < 1e-9);
	assert_int_equal(lv.cells[0].raised, 5);
	assert_true(fabs(lv.cells[0].excess[5] - 40) < 1e-9);
	assert_true(isnan(lv.cells[0].floor_chg));
	/* vanilla br-lan download against it: 6600 against 5990, the same 77 us less */
	assert_true(fabs(lv.cells[4].floor_chg - 100 * (6600.0 - 5990) / (5990 - 1.54)) <
		    1e-9);
	/* the smallest raised excess: vanilla upload's +2 */
	assert_true(fabs(lv.step - 2) < 1e-9);
	assert_int_equal(lv.n, 36);
	assert_int_equal(lv.raised, 29);
	/* nobrnf and vanilla with no iface differ only in their kernel; vanilla br-lan is
	 * a configuration of its own */
	assert_int_equal(lv.nstrata, 2);
	assert_int_equal(lv.ntested_strata, 1);
	assert_int_equal(lv.ntested_rows, 2);
	/* 10 of 12 raised in both: nothing to tell them apart */
	assert_true(lv.chi2 == 0);
	assert_true(lv.p == 1);

	f = open_memstream(&md, &len);
	assert_non_null(f);
	assert_int_equal(levels_write_md(f, &rs, &lv), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(md, "| nobrnf · global 0 · no iface | 12 | 10 | 83% |\n"));
	assert_non_null(strstr(md, "no dependence on the kernel found at 5%"));
	assert_non_null(strstr(md, "2 rows in 1 configurations"));
	assert_non_null(strstr(md, "permutation p = 1.0000 over the boots"));
	assert_non_null(strstr(md, "+10.0 +10.0 +20.0 +30.0 +40.0"));
	free(md);
	levels_free(&lv);
	rowstats_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chi2_by_hand),
		cmocka_unit_test(test_chi2_strata),
		cmocka_unit_test(test_perm_p),
		cmocka_unit_test(test_perm_boots),
		cmocka_unit_test(test_resdir2),
	};

	unit_init();
	return cmocka_run_group_tests_name("levels", tests, NULL, NULL);
}
