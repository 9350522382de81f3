/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render: tables from a results directory's raw data alone.
 *
 * Reads <dir>/raw/<part>/provenance.json and <dir>/raw/<part>/runs/<run>/
 * {record.json,flow-*.json}, computes the per-cell statistics and writes
 * matrix.md, matrix.csv, matrix.json and matrix.txt into <dir>, each via a
 * temporary file and rename(2).  Rendering the same raw data twice gives
 * byte-identical files.
 */
#ifndef BRNF_RENDER_H
#define BRNF_RENDER_H

#include <stdbool.h>

struct render_opts {
	bool print;		/* also write the text table to stdout */
	const char *baseline;	/* row key or kernel (or label) of the row the
				 * changes are measured against; NULL = the
				 * first row */
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
