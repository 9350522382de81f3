/* SPDX-License-Identifier: GPL-2.0 */
/*
 * levels: the test-bed levels of a results directory's pps cells
 * (docs/methodology.md, "Levels").
 *
 * Test beds draw discrete extra costs per packet from the kernel's randomly seeded hash
 * tables (results/2026-12-03-6.12-icount-levels), which no interface pins. So beside the
 * matrix's estimate (the mean over boots of each boot's best run) this publishes:
 *
 * - per pps cell its floor, the lowest run over every boot and test bed, and the excess
 *   of every other run over it, in pktgen's busy time per packet (the c part of its
 *   result: the time it did not yield, which under icount repeats within 0.5 ns per
 *   packet in one test bed, where the elapsed time varies by a few ns); a run is raised
 *   when its excess is at least LEVELS_RAISED_NS (the smallest step seen is about 4 ns
 *   on x86_64);
 * - one step: the smallest excess of a raised run in the directory, the resolution of a
 *   floor (a floor may hold a step the baseline's does not); per non-baseline cell the
 *   floor's change against its baseline's floor with that step in percent beside it,
 *   and whether the matrix's 95% half-width is below one step;
 * - whether raised runs are independent of the kernel: among rows that differ only in
 *   their kernel (the same flags, ruleset and path: a row that filters walks more hash
 *   tables, so it may well draw more levels), the chi-square statistic of the rows x
 *   {at floor, raised} table, summed over those configurations, and its p value by
 *   permutation of the boots within each (LEVELS_PERMUTATIONS random assignments of
 *   its boots to its rows, a boot's runs kept together: some levels are drawn once per
 *   boot; a fixed seed: the same data give the same p on every machine).
 */
#ifndef BRNF_LEVELS_H
#define BRNF_LEVELS_H

#include <stdint.h>
#include <stdio.h>

#include "rowstats.h"

#define LEVELS_RAISED_NS FLOOR_RAISED_NS	/* floor.h: the estimator's, too */
#define LEVELS_PERMUTATIONS 10000ul
#define LEVELS_SEED 0x62726e66ull	/* "brnf" */
#define LEVELS_ALPHA 0.05

/* One pps cell of a row: its runs' excess over its floor, sorted. */
struct levels_cell {
	size_t row;
	enum brnf_workload w;
	enum raw_dir d;
	bool busy;		/* its runs' values are pktgen's busy time per packet (the
				 * c part of its result), else the elapsed time per packet */
	double floor;		/* its lowest run, ns/packet */
	double base_floor;	/* its baseline's floor; 0 for a baseline or without one */
	double *excess;		/* every run's excess over the floor, ascending */
	size_t n, raised;
	double floor_chg;	/* 100 (floor - baseline's floor) / baseline's floor; NAN for
				 * a baseline or without one */
	double step_pct;	/* one step in percent of the baseline's floor, NAN as above */
};

struct levels {
	struct levels_cell *cells;
	size_t ncells;
	size_t *row_n, *row_raised;	/* per row of rowstats: pps runs, raised ones */
	size_t *row_stratum;		/* per row: its configuration (rows that differ
					 * only in their kernel share one) */
	size_t nrows, nstrata;
	size_t ntested_strata;		/* configurations of two rows or more with pps
					 * runs, and those rows */
	size_t ntested_rows;
	size_t *boot_n, *boot_raised;	/* per row and part (row * nparts + part) */
	size_t nparts, nboots;		/* nboots: (row, part) pairs with pps runs */
	size_t n, raised;		/* over the directory */
	double step;			/* ns/packet, NAN when no run is raised */
	double chi2;			/* of the rows x {at floor, raised} table */
	double p;			/* permutation p of chi2, NAN when not testable */
	unsigned long nperm;
};

/*
 * The levels of @rs's pps cells. 0, -ENOENT when there is none, -ENOMEM. Free with
 * levels_free() in every case.
 */
int levels_compute(const struct rowstats *rs, struct levels *lv);
void levels_free(struct levels *lv);

/*
 * The chi-square statistic of the k x 2 table whose row i has n[i] entries, raised[i]
 * of them in the second column, summed over strata: row i is in stratum @stratum[i]
 * (NULL: all in one), and each stratum's expected counts come from its own totals; a
 * stratum whose column is empty adds 0. NAN when out of memory.
 */
double levels_chi2(const size_t *n, const size_t *raised, const size_t *stratum, size_t k);

/* One unit of the permutation test: a boot's pps runs of one row, raised ones among
 * them. */
struct levels_unit {
	size_t row, n, raised;
};

/*
 * Permutation p value of levels_chi2() over the rows' totals of @nu units: the share of
 * @nperm assignments, in each stratum, of its units to its rows at random (splitmix64
 * from @seed, Fisher-Yates; each row keeps its number of units, each unit its runs)
 * whose statistic reaches the observed one, counting the observed assignment itself:
 * (1 + hits) / (1 + nperm). NAN when no stratum has two rows with units and some but
 * not all entries raised, nperm is 0, or a unit is out of range; -1 when out of memory.
 */
double levels_perm_p(const struct levels_unit *u, size_t nu, const size_t *stratum, size_t k,
		     unsigned long nperm, uint64_t seed);

/* levels.md and levels.csv. 0 or -ENOMEM. */
int levels_write_md(FILE *f, const struct rowstats *rs, const struct levels *lv);
int levels_write_csv(FILE *f, const struct rowstats *rs, const struct levels *lv);

#endif /* BRNF_LEVELS_H */
