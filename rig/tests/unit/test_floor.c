// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the floor estimator (rig/src/data/floor.c): a cell's floor, first level
 * and spread within its level; the directory's S (a median) and w (a maximum); the
 * change ± (S + w) and whether it holds 0; its ends rounded outward; and, on
 * data/resdir2 (make-resdir2.sh: every pps run's busy time is its elapsed time less
 * 77 us), the estimator's choice, its figures by hand, and the fallback of a cell whose
 * runs lack the busy time. The figures are made up for the test.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

#include "floor.h"
#include "render.h"
#include "rowstats.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/* F, the first level and the spread within the level of one cell */
static void test_cell(void **state)
{
	/* excesses 0, 2 less a residue of the division (raised), 1.5 (not), 4.25, 30 */
	static const double b[] = { 101.9999999995, 100, 101.5, 104.25, 130 };
	static const double same[] = { 7, 7, 7 };
	static const double bad[] = { 100, NAN };
	struct floor_cell fc;

	(void)state;
	assert_int_equal(floor_cell(b, 5, &fc), 0);
	assert_true(fc.floor == 100);
	assert_int_equal(fc.n, 5);
	assert_int_equal(fc.raised, 3);
	assert_true(NEAR(fc.first, 1.9999999995));
	assert_true(NEAR(fc.within, 1.5));
	/* 1.998 above the floor is within the level, 2 - 1e-10 is raised */
	assert_false(floor_raised(1.998));
	assert_true(floor_raised(2 - 1e-10));
	assert_true(floor_raised(FLOOR_RAISED_NS));
	/* nothing raised: no first level, no spread */
	assert_int_equal(floor_cell(same, 3, &fc), 0);
	assert_true(fc.floor == 7);
	assert_true(isnan(fc.first));
	assert_true(fc.within == 0);
	assert_int_equal(fc.raised, 0);
	/* no run, or a value that is not a number */
	assert_int_equal(floor_cell(b, 0, &fc), -EINVAL);
	assert_int_equal(floor_cell(bad, 2, &fc), -EINVAL);
}

static void test_median(void **state)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 5 };

	(void)state;
	assert_true(floor_median(odd, 3) == 2);
	/* even: the mean of the middle two */
	assert_true(floor_median(even, 4) == 2.5);
	assert_true(floor_median(one, 1) == 5);
	assert_true(isnan(floor_median(one, 0)));
}

/* S: the median of the cells' first levels (cells without one left out); w: the
 * largest spread within a level, over every cell */
static void test_bound(void **state)
{
	struct floor_cell c[5] = {
		{ .floor = 1000, .first = 4, .within = 0.5 },
		{ .floor = 1100, .first = NAN, .within = 1.25 },
		{ .floor = 1200, .first = 5, .within = 0 },
		{ .floor = 1300, .first = 4.5, .within = 0.2 },
		{ .floor = 1400, .first = 10, .within = 0.75 },
	};
	struct floor_bound fb;

	(void)state;
	assert_int_equal(floor_bound_compute(c, 4, &fb), 0);
	assert_true(fb.S == 4.5);
	assert_true(fb.w == 1.25);
	assert_int_equal(fb.ncells, 4);
	assert_int_equal(fb.nfirst, 3);
	/* four first levels: the mean of the middle two */
	assert_int_equal(floor_bound_compute(c, 5, &fb), 0);
	assert_true(fb.S == 4.75);
	assert_true(fb.w == 1.25);
	assert_int_equal(fb.nfirst, 4);
	/* no cell with a raised run: S unknown */
	assert_int_equal(floor_bound_compute(c + 1, 1, &fb), 0);
	assert_true(isnan(fb.S));
	assert_true(fb.w == 1.25);
}

/* pct = 100 (F_V - F_B) / F_B ± 100 (S + w) / F_B */
static void test_change(void **state)
{
	struct floor_bound fb = { .S = 0.3, .w = 0.14 };
	struct stats_change c;

	(void)state;
	assert_int_equal(floor_change(1003.1, 1000, &fb, &c), 0);
	assert_true(NEAR(c.pct, 0.31));
	assert_true(NEAR(c.low, 0.31 - 0.044));
	assert_true(NEAR(c.high, 0.31 + 0.044));
	assert_true(NEAR(stats_change_halfwidth(&c), 0.044));
	assert_true(c.has_interval);
	assert_false(c.indistinguishable);
	assert_true(isnan(c.dof));
	/* a change smaller than S + w: the interval holds 0 */
	assert_int_equal(floor_change(1000.2, 1000, &fb, &c), 0);
	assert_true(c.low < 0 && c.high > 0);
	assert_true(c.indistinguishable);
	/* lower than the baseline by more than S + w */
	assert_int_equal(floor_change(990, 1000, &fb, &c), 0);
	assert_true(NEAR(c.pct, -1));
	assert_false(c.indistinguishable);
	/* no positive baseline floor, no S */
	assert_int_equal(floor_change(1003.1, 0, &fb, &c), -EINVAL);
	fb.S = NAN;
	assert_int_equal(floor_change(1003.1, 1000, &fb, &c), -EINVAL);
}

/* low down, high up, to the printed decimals; a product's residue is not a step */
static void test_round_out(void **state)
{
	struct floor_bound fb = { .S = 0.3, .w = 0.14 };
	struct stats_change c;
	double lo, hi;
	char buf[64];

	(void)state;
	floor_round_out(0.266, 0.354, 2, &lo, &hi);
	assert_true(NEAR(lo, 0.26) && NEAR(hi, 0.36));
	floor_round_out(2.338, 2.672, 1, &lo, &hi);
	assert_true(NEAR(lo, 2.3) && NEAR(hi, 2.7));
	floor_round_out(-1.234, -1.234, 2, &lo, &hi);
	assert_true(NEAR(lo, -1.24) && NEAR(hi, -1.23));
	/* 0.29 * 100 is 28.999999999999996, 0.07 * 100 7.000000000000001: already
	 * at two decimals, they stay */
	floor_round_out(0.29, 0.07, 2, &lo, &hi);
	assert_true(NEAR(lo, 0.29) && NEAR(hi, 0.07));
	/* a high end just below 0 rounds up to 0, printed +0.00 */
	floor_round_out(-0.004, -0.004, 2, &lo, &hi);
	snprintf(buf, sizeof(buf), "%+.2f %+.2f", lo, hi);
	assert_string_equal(buf, "-0.01 +0.00");
	/* the text: outward, and (the boots' estimator) to the nearest */
	assert_int_equal(floor_change(1003.1, 1000, &fb, &c), 0);
	floor_change_text(&c, true, buf, sizeof(buf));
	assert_string_equal(buf, "+0.31% [+0.26, +0.36]");
	floor_change_text(&c, false, buf, sizeof(buf));
	assert_string_equal(buf, "+0.31% [+0.27, +0.35]");
	/* an interval 0.2 wide or wider: one decimal */
	fb.w = 2;
	assert_int_equal(floor_change(1003.1, 1000, &fb, &c), 0);
	floor_change_text(&c, true, buf, sizeof(buf));
	assert_string_equal(buf, "+0.3% [+0.0, +0.6]");
}

/* ---- data/resdir2 ------------------------------------------------------------------ */

struct fixture {
	char dir[256];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/brnf-floor.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fx->dir))
		return -1;
	sh("cp -R '%s/.' '%s/'", data_path("resdir2"), fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;
	free(fx);
	return 0;
}

static const struct rcell *cell(const struct rowstats *rs, size_t row, enum raw_dir d)
{
	return &rs->rows[row].cell[WL_PPS64][d];
}

/* 77 us of 50,000 frames: the busy time is 1.54 ns/packet below the elapsed */
#define BUSY(elapsed) ((elapsed) - 77.0 * 1000 / 50000)

/*
 * resdir2's pps64 runs (make-resdir2.sh), less the floor, ns/packet: row 0 download
 * floor 5990, excesses 10 20 30 40 0 10 (first level 10); upload 6096: 4 8 14 10 0 4
 * (4); row 1 download 6140: 10 20 30 26 0 10 (10); upload 6248: 2 8 12 14 0 2 (2); row
 * 2 download 6600: 0 20 10 0 50 40 (10); upload 6690: 10 0 20 10 30 26 (10). S is
 * the median of 10 4 10 2 10 10, 10; no run lies within a level above its floor: w 0.
 */
static void test_resdir2(void **state)
{
	struct fixture *fx = *state;
	struct rowstats_opts ro = { .estimator = RS_EST_FLOOR };
	struct rowstats rs;
	const struct rcell *c;

	assert_int_equal(rowstats_load(&rs, fx->dir, &ro), 0);
	assert_true(rs.floor);
	assert_true(NEAR(rs.fb.S, 10));
	assert_true(rs.fb.w < 1e-9);
	assert_int_equal(rs.fb.ncells, 6);
	assert_int_equal(rs.fb.nfirst, 6);
	assert_int_equal(rs.fb.nfallback, 0);
	assert_true(NEAR(cell(&rs, 0, RAW_DOWNLOAD)->fl.floor, BUSY(5990)));
	assert_true(NEAR(cell(&rs, 1, RAW_UPLOAD)->fl.first, 2));
	c = cell(&rs, 1, RAW_DOWNLOAD);
	assert_true(c->by_floor && !c->fallback);
	assert_true(NEAR(c->chg.pct, 100 * (BUSY(6140) - BUSY(5990)) / BUSY(5990)));
	assert_true(NEAR(c->chg.high - c->chg.pct, 100 * 10 / BUSY(5990)));
	assert_true(NEAR(c->hw, 100 * 10 / BUSY(5990)));
	/* the baseline's cells have no change; a floor's bound has no target */
	assert_false(cell(&rs, 0, RAW_DOWNLOAD)->by_floor);
	assert_false(rs.has_target[WL_PPS64]);
	assert_true(rs.has_target[WL_TCP_BYTES]);
	assert_false(c->reached);
	/* tcp-bytes keeps the mean over boots, not marked */
	assert_false(rs.rows[1].cell[WL_TCP_BYTES][RAW_DOWNLOAD].by_floor);
	assert_false(rs.rows[1].cell[WL_TCP_BYTES][RAW_DOWNLOAD].fallback);
	rowstats_free(&rs);

	/* without the option, run.txt decides: it has no part_value, so the boots */
	ro.estimator = RS_EST_RUN_TXT;
	assert_int_equal(rowstats_load(&rs, fx->dir, &ro), 0);
	assert_false(rs.floor);
	assert_false(cell(&rs, 1, RAW_DOWNLOAD)->by_floor);
	assert_true(rs.has_target[WL_PPS64]);
	rowstats_free(&rs);
	/* part_value=floor: the floor, unless asked for the boots */
	sh("echo part_value=floor >>'%s/run.txt'", fx->dir);
	assert_int_equal(rowstats_load(&rs, fx->dir, &ro), 0);
	assert_true(rs.floor);
	assert_true(cell(&rs, 1, RAW_DOWNLOAD)->by_floor);
	rowstats_free(&rs);
	ro.estimator = RS_EST_BOOTS;
	assert_int_equal(rowstats_load(&rs, fx->dir, &ro), 0);
	assert_false(rs.floor);
	assert_false(cell(&rs, 1, RAW_DOWNLOAD)->by_floor);
	rowstats_free(&rs);
}

/* a cell whose runs lack the busy time keeps the mean over boots, marked */
static void test_fallback(void **state)
{
	struct fixture *fx = *state;
	struct rowstats_opts ro = { .estimator = RS_EST_BOOTS };
	struct render_opts o = { .estimator = RS_EST_FLOOR };
	struct stats_change welch;
	struct rowstats rs;
	const struct rcell *c;
	char path[400], *md;

	/* row 1's first download run of vanilla-boot1: a result without the c part */
	snprintf(path, sizeof(path), "%s/raw/vanilla-boot1/runs/0001-pps64-download/record.json",
		 fx->dir);
	sh("sed -i 's/(c307423+d77) usec/ usec/' '%s' && ! grep -q c307423 '%s'", path, path);
	assert_int_equal(rowstats_load(&rs, fx->dir, &ro), 0);
	welch = cell(&rs, 1, RAW_DOWNLOAD)->chg;
	rowstats_free(&rs);

	ro.estimator = RS_EST_FLOOR;
	assert_int_equal(rowstats_load(&rs, fx->dir, &ro), 0);
	c = cell(&rs, 1, RAW_DOWNLOAD);
	assert_false(c->busy);
	assert_false(c->by_floor);
	assert_true(c->fallback);
	assert_true(c->has_chg);
	assert_true(c->chg.pct == welch.pct && c->chg.low == welch.low &&
		    c->chg.high == welch.high);
	/* the others are the floor's; S and w over the five cells with busy times */
	assert_true(cell(&rs, 1, RAW_UPLOAD)->by_floor);
	assert_true(cell(&rs, 2, RAW_DOWNLOAD)->by_floor);
	assert_int_equal(rs.fb.ncells, 5);
	assert_int_equal(rs.fb.nfallback, 1);
	assert_true(NEAR(rs.fb.S, 10));
	rowstats_free(&rs);

	/* matrix.md marks it and says why, and that the bound is not a 95% interval */
	assert_int_equal(render_dir(fx->dir, &o), 0);
	snprintf(path, sizeof(path), "%s/matrix.md", fx->dir);
	md = slurp(path, NULL);
	assert_non_null(strstr(md, "] " FLOOR_FALLBACK_MARK " "));
	assert_non_null(strstr(md, FLOOR_FALLBACK_MARK " a pps cell whose runs, or its "
			       "baseline's, lack pktgen's busy time"));
	assert_non_null(strstr(md, "not a 95% confidence interval"));
	assert_non_null(strstr(md, "S = 10.00 ns/packet"));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_change),
		cmocka_unit_test(test_round_out),
		cmocka_unit_test_setup_teardown(test_resdir2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback, setup, teardown),
	};

	unit_init();
	return cmocka_run_group_tests_name("floor", tests, NULL, NULL);
}
