/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render: tables from a results directory's raw data alone.
 *
 * Reads <dir>/raw/<part>/... and <dir>/run.txt (raw.h), computes the statistics of
 * every cell (row, workload, direction) and writes matrix.md, matrix.csv, matrix.json
 * and matrix.txt into <dir>, each via a temporary file and rename(2). Rendering the
 * same raw data twice gives byte-identical files.
 *
 * matrix.json ("format": 2): "parts" (one object per part: provenance and QEMU facts),
 * "run" (what was run: distinct values as numbers), "target_pct", "target_source"
 * ("option", "run.txt" or "default") and "target_workloads" (those it is for),
 * "baseline" (the baseline row's key), "path_baselines" (only when some row's path is
 * not routed: per path the key of its baseline row, against which that path's rows are
 * compared, null when it has none), "verify_failed_rows", "workloads" (name, unit,
 * better, what), and "rows": one object per matrix row (key, kernel, label, global,
 * local, ruleset, path (only when some row's path is not routed), expect, baseline (a
 * baseline of its path), verified, verify_passes, verify_missing_parts)
 * holding "cells", one per workload and direction: workload, direction, unit, better,
 * stat_unit ("part" or "run": what n counts), n, n_parts, n_runs, mean, sd, ci95,
 * ci95_low, ci95_high, ci95_pct, cv, median, min, max (over the units), reps_for_2pct,
 * change_pct, change_low_pct, change_high_pct, change_dof, indistinguishable,
 * halfwidth_pct, reached, units, units_change_pct, per_part, part_names, part_runs,
 * values, run_names (every run), and for pps workloads mpps, wire_mbps, sent, received,
 * lost_runs. Numbers are JSON numbers, null where there is none (e.g. an interval of
 * one unit). matrix.csv holds the same cells, one line each, the row's fields repeated.
 *
 * With the floor estimator (run.txt part_value=floor, or render_opts.estimator; floor.h)
 * the changes of the pps cells are their floors' ± (S + w), in every form, and only
 * then: matrix.json's "run" has "part_value": "floor" when run.txt says so, the top
 * level "estimator": "floor" and "floor_bound" (S_ns, w_ns, pps_cells, first_level_cells,
 * fallback_cells), each cell "estimator" ("floor", or "boots" for the mean over boots),
 * floor_ns, first_level_ns, within_level_ns and busy_values (per run, in the order of
 * values); a cell's halfwidth_pct is then h, 100 (S + w) / the baseline's floor.
 */
#ifndef BRNF_RENDER_H
#define BRNF_RENDER_H

#include <stdbool.h>

#include "rowstats.h"

struct render_opts {
	bool print;		/* also write the text table to stdout, then the
				 * one-line verdict (verdict.h) */
	bool json;		/* write the JSON summary (verdict.h) to stdout */
	const char *baseline;	/* row key or kernel (or label) of the row the
				 * changes are measured against; NULL = the
				 * first row. Rows of another path are measured
				 * against that path's row configured the same
				 * (rowstats.h) */
	double target_pct;	/* > 0: overrides run.txt's target_pct (else 0.3) */
	bool strict;		/* a row without a verification pass in some part
				 * is an error, not only shown */
	enum rowstats_estimator estimator;	/* of the pps cells' changes: as
						 * run.txt says, boots or floor */
};

/* Exit status render_dir() returns when some row's filtering verification
 * is "no" (the tables are written all the same). */
#define RENDER_VERIFY_FAILED 3

/*
 * Render the tables of results directory @dir.
 * Returns 0, RENDER_VERIFY_FAILED when any row's filtering verification is
 * "no", or a negative errno after printing one line naming the file and
 * what is wrong to stderr.
 */
int render_dir(const char *dir, const struct render_opts *o);

#endif /* BRNF_RENDER_H */
