/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rowstats: the rows and cells of a results directory, with their statistics.
 *
 * From raw.c's runs: rows by row_key() (in order of row.index, then first appearance),
 * cells (row, workload, direction) with their values in run order, each cell's units
 * (stats_units(): the parts' means when its runs come from two or more parts, else the
 * runs) and statistics, its change against the baseline row of its path (a path=wlan
 * row against a path=wlan row: the flows of two paths cross different bridges and are
 * not compared) and whether the change's
 * 95% half-width reached the target, and each row's filtering verification (the
 * verification passes of schema 2, the runs' own verify blocks of schema 1).
 * With the floor estimator (run.txt part_value=floor, or rowstats_opts.estimator) the
 * change of a pps cell is its floor's ± (S + w) instead (floor.h), where its runs and
 * its baseline's have pktgen's busy time, and the pps workloads have no target.
 * render.c draws the tables (rtables.c) and writes the files from it.
 */
#ifndef BRNF_ROWSTATS_H
#define BRNF_ROWSTATS_H

#include <stdbool.h>
#include <stddef.h>

#include "floor.h"
#include "raw.h"
#include "stats.h"

#define CV_MARK_LIMIT 0.03	/* mark cells whose units' CV exceeds 3% */
#define CV_MARK "†"
#define LOST_MARK "‡"		/* pps cells with runs whose received != sent */
#define ERROR_MARK "§"		/* pps cells with runs left out for pktgen errors */
#define DETECT_CHANGE 0.02	/* repetitions needed to detect a 2% change */
#define ROWSTATS_TARGET_PCT 0.3	/* the target without run.txt's or an option's */
#define ROWSTATS_NO_BASE ((size_t)-1)

enum rverify {
	RV_NA, RV_YES, RV_NO, RV_PARTIAL, RV_READBACK, RV_NO_EXPECTED, RV_YES_UNEXPECTED,
	RV_MISSING,
};
extern const char *const rverify_names[];

struct rcell {
	double *v;		/* one value per run, in run order */
	size_t *vpart;		/* the part of each run */
	size_t *vrun;		/* each run's index in raw.runs */
	size_t n, cap;
	struct stats_units u;
	struct stats_cell s;	/* over the units */
	struct stats_change chg;
	bool has_stats, has_chg;
	double hw;		/* 95% half-width of the change in percent (the
				 * baseline's: of its own mean), NAN when unknown */
	bool reached;
	double mpps, wire_mbps;	/* pps: means over the runs */
	unsigned long long sent, received;
	size_t lost_runs;	/* pps runs whose received != sent */
	size_t error_runs;	/* pps runs left out: pktgen counted transmit errors */
	unsigned long long errors;	/* their errors, summed */
	size_t trow;		/* its row in the cell table (rtables.c) */
	/* the floor estimator (floor.h), pps cells when rowstats.floor */
	bool busy;		/* every run has pktgen's busy time: fl holds its floor */
	struct floor_cell fl;
	bool by_floor;		/* chg is the floor's change ± (S + w), hw its h */
	bool fallback;		/* a change of a pps cell that keeps the mean over
				 * boots (FLOOR_FALLBACK_MARK) */
};

struct rrow {
	char key[RAW_KEY_LEN];
	struct brnf_row row;		/* from the first run of the row */
	unsigned int index;		/* smallest row.index seen */
	size_t first;			/* position of the first run */
	size_t base;			/* the baseline row of its path (itself for a
					 * baseline), ROWSTATS_NO_BASE when none */
	struct rcell cell[WL_N][RAW_NDIRS];
	unsigned int nyes, nno, nna, nreadback_bad, npasses;
	bool v1;			/* has schema 1 runs (they verify themselves) */
	unsigned char *measured;	/* per part: schema 2 measured runs of the row */
	unsigned char *passed;		/* per part: verification passes of the row */
	size_t nmissing;		/* parts with measured runs and no pass */
	enum rverify verify;
};

struct rowstats {
	const char *dir;
	struct raw_set raw;
	struct rrow *rows;
	size_t nrows;
	size_t base;			/* baseline row: the first, or the one asked for */
	size_t path_base[BRNF_NPATHS];	/* each path's baseline row: base for its own
					 * path, for another the row configured as base
					 * is on that path (else, without --baseline, the
					 * path's first row; with one, its first row of
					 * that kernel or label), ROWSTATS_NO_BASE when
					 * none or no row has the path */
	bool any_path;			/* some row's path is not routed */
	unsigned int nverify_no;	/* rows whose verification failed */
	double target;			/* percent */
	const char *target_src;		/* in the text: where the target came from */
	const char *target_key;		/* in matrix.json: "option", "run.txt", "default" */
	bool has_wl[WL_N];
	bool has_target[WL_N];	/* run.txt target_workloads (absent: all) */
	bool any_ruleset, any_v1, any_v2;
	size_t nmeasured, npasses, ncounting, nlost_cells, nerror_cells;
	bool floor;			/* the changes of the pps cells are the floor
					 * estimator's (floor.h); no target for them */
	struct floor_bound fb;		/* its S and w, when floor */
};

/* Which estimator gives the changes of the pps cells. */
enum rowstats_estimator {
	RS_EST_RUN_TXT,		/* the floor with run.txt part_value=floor, else boots */
	RS_EST_BOOTS,		/* the mean over boots, 95% Welch interval */
	RS_EST_FLOOR,		/* the floor's change ± (S + w) (floor.h) */
};

/* "floor" or "boots" (--estimator) into *e; -EINVAL for anything else */
int rowstats_estimator_parse(const char *v, enum rowstats_estimator *e);

/* What rowstats_load() is asked for (render.h's options). */
struct rowstats_opts {
	const char *baseline;	/* row key, kernel or label; NULL: the first row */
	double target_pct;	/* > 0: overrides run.txt's target_pct */
	bool strict;		/* a part with runs of a row and no pass of it: error */
	enum rowstats_estimator estimator;
};

/*
 * Read results directory @dir and compute everything. 0, or a negative errno after one
 * line on stderr naming the file and what is wrong. Free with rowstats_free() in
 * either case.
 */
int rowstats_load(struct rowstats *rs, const char *dir, const struct rowstats_opts *o);
void rowstats_free(struct rowstats *rs);

bool rowstats_verify_failed(enum rverify v);
/* Is row i a baseline (of its path)? */
bool rowstats_is_base(const struct rowstats *rs, size_t i);
/* The cell (w, d) of row i's baseline, NULL without one. */
const struct rcell *rowstats_base_cell(const struct rowstats *rs, size_t i, int w, int d);
/* The baseline rows' keys, each in quote: "`k`"; with rows of other paths, every path's
 * that has one in path order, joined by "; " */
const char *rowstats_base_keys(const struct rowstats *rs, const char *quote, char *buf,
			       size_t len);
bool rowstats_is_pps(enum brnf_workload w);
/* "vanilla (brfilter-local)" */
const char *rowstats_kernel_text(const struct brnf_row *r, char *buf, size_t len);
/* "vanilla (brfilter-local) · global 0 · br-lan", then " · path wlan" on a path other
 * than routed */
const char *rowstats_row_text(const struct brnf_row *r, char *buf, size_t len);

#endif /* BRNF_ROWSTATS_H */
