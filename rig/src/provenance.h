/* SPDX-License-Identifier: GPL-2.0 */
/* provenance.json: where, on what and how one controller run measured. */
#ifndef BRNF_PROVENANCE_H
#define BRNF_PROVENANCE_H

#include <stdbool.h>
#include "apctl.h"
#include "matrix.h"
#include "rigfile.h"
#include "testbed.h"
#include "verify.h"
#include "workload.h"

struct provenance {
	const char *part;
	const char *kernel_label;	/* what "running" rows are called */
	const char *matrix_path;
	const struct brnf_matrix *m;
	const bool *row_ran;		/* per matrix row */
	const struct brnf_row *rows;	/* rows as run (kernel label applied) */
	unsigned int flows, time, omit, reps, port0;
	const unsigned int *wl;		/* the workloads, in the order they ran */
	unsigned int nwl;
	unsigned long packets, bytes;	/* per pps run, per tcp-bytes flow */
	const struct testbed *tb;	/* the namespace test bed (rig->testbed) */
	const struct rig *rig;
	const char *rig_path;
	const struct ap *ap;
	const bool *unsupported;	/* per matrix row */
	int restore;			/* -1 nothing saved, 0 restored and verified, 1 failed */
	enum verify_mode mode;
	bool verify_before;		/* the verification pass ran before the measured runs */
	bool fresh_testbed;		/* each repetition on the test bed built anew */
	bool order_rows;		/* every repetition of a row before the next row */
	unsigned int repeat_mask;	/* 1 << workload: measured in repetitions 2..R too */
	const char *iperf_version;
	char date_start[32];
	char date_end[32];
	unsigned int runs_done;
	const char *incomplete;		/* why the run stopped early (its runs kept), or NULL */
	double wall_seconds;
};

/* UTC ISO 8601 time now. */
void provenance_now(char *buf, size_t len);
/* Write <partdir>/provenance.json. Reads the AP's sysctls and bridge flags as
 * they are at the end of the run (through its transport). 0, or -errno with what
 * went wrong in err[0..errlen) (the caller says it, with where the runs stay). */
int provenance_write(const char *partdir, const struct provenance *p, char *err,
		     size_t errlen);

#endif
