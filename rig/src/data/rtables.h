/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtables: the tables of a results directory (table.c), from its rowstats.
 *
 * Per workload a main table, text forms only: per row, per direction the mean ± 95%
 * CI, the change against the baseline of its path [low, high], whether its half-width reached the
 * target, then parts x runs and filtering verified. One cell table for every form: a
 * row per cell (workload, then matrix row, then direction); its text columns are the
 * spread tables (one per workload: its rows wl_first .. + wl_rows), its data columns
 * are matrix.csv and, grouped by matrix row (TC_GROUP), matrix.json's rows -> cells.
 * The ruleset column shows only when some row has a ruleset other than none, the path
 * column only when some row's path is not routed (in no form at all otherwise, so that
 * results without such rows render as they always did); the floor estimator's columns
 * (estimator, busy floor, first and within level, busy values) likewise only with it.
 * A change by the floor estimator is printed with its ends rounded outward, a fallback
 * marked FLOOR_FALLBACK_MARK (floor.h).
 */
#ifndef BRNF_RTABLES_H
#define BRNF_RTABLES_H

#include "rowstats.h"
#include "table.h"

/* main table: kernel, flags, per direction three columns from M_DIR, then two */
enum { M_KERNEL, M_GLOBAL, M_LOCAL, M_RULESET, M_PATH, M_DIR };
enum { MD_MEAN, MD_CHG, MD_REACHED, MD_NCOLS };
#define M_N (M_DIR + RAW_NDIRS * MD_NCOLS)
#define M_VERIFIED (M_N + 1)
#define M_NCOLS (M_N + 2)

struct rtables {
	struct table mains[WL_N];	/* of the workloads the directory has */
	struct table cells;
	size_t wl_first[WL_N], wl_rows[WL_N];	/* in cells */
	char hdr[WL_N][M_NCOLS][96];	/* the main tables' headers */
};

/* 0 or -ENOMEM. Sets every cell's trow. Free with rtables_free() in either case. */
int rtables_build(struct rtables *t, struct rowstats *rs);
void rtables_free(struct rtables *t);
/* Show the columns of workload @w's spread table (the cell table's rows of @w). */
void rtables_spread_show(struct rtables *t, enum brnf_workload w);

#endif /* BRNF_RTABLES_H */
