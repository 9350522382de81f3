/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw: read the raw data of a results directory (the only input of the renderer).
 *
 *   <dir>/raw/<part>/provenance.json
 *   <dir>/raw/<part>/runs/<run>/record.json     (schema 1, written by record.c)
 *   <dir>/raw/<part>/runs/<run>/flow-<i>.json   (iperf3 -J client output)
 *
 * Parts are read in sorted name order, runs within a part in sorted directory name
 * order. Anything malformed is an error "FILE: what is wrong"; nothing is skipped,
 * except a part directory named <part>.tmp.<pid> (still being written, or left by a
 * killed run), which is not data: a warning on stderr names it. Within a part, a
 * row.index must always name the same configuration and (row, direction, repetition)
 * must be unique.
 *
 * provenance.json keys read (all optional, strings): "kernel_release" (or
 * "kernel": {"release"} or "uname": {"release"}), "clock", "testbed" (or
 * "testbed": {"kind"}), "testbed": {"offloads_requested"}, "host": {"cpu"}, "date",
 * "wall_seconds" (number). When no kernel release is given, the release in the
 * first flow's iperf3 "system_info" (uname of the client) is used.
 *
 * <dir>/raw/<part>/qemu.json (optional; written by scripts/ab-matrix for a part run in a
 * QEMU guest), keys read: "clock" (overrides provenance's), "qemu", "qemu_options",
 * "host_cpu", "exit_status".
 * A part without a clock in either file ran without QEMU: its clock is "realtime".
 */
#ifndef BRNF_RAW_H
#define BRNF_RAW_H

#include <stdbool.h>
#include <stddef.h>

#include "matrix.h"

enum raw_dir { RAW_DOWNLOAD, RAW_UPLOAD, RAW_NDIRS };
enum raw_verify { RAW_VERIFY_NA, RAW_VERIFY_YES, RAW_VERIFY_NO };

extern const char *const raw_dir_names[RAW_NDIRS];	/* "download", "upload" */
extern const char *const raw_verify_names[];		/* "n/a", "yes", "no" */

#define RAW_MAX_FLOWS 64
#define RAW_NAME_LEN 256
#define RAW_KEY_LEN 256

struct raw_part {
	char name[RAW_NAME_LEN];
	char kernel_release[128];	/* "" when unknown */
	bool release_from_iperf;	/* kernel_release came from iperf3 system_info */
	char clock[32];
	char testbed[64];
	char date[64];
	char offloads[16];		/* "on", "off" or "" */
	double wall_seconds;		/* the part's wall time, -1 when unknown */
	bool qemu;			/* qemu.json present */
	char qemu_version[64];
	char qemu_options[160];
	char host_cpu[96];
	int exit_status;		/* qemu.json exit_status, 0 when absent */
};

struct raw_run {
	size_t part;			/* index into raw_set.parts */
	char name[RAW_NAME_LEN];	/* run directory name */
	unsigned int row_index;		/* record row.index */
	struct brnf_row row;		/* record row (line = 0) */
	char source[128];		/* record row.source, "" when absent */
	char key[RAW_KEY_LEN];		/* row_key(&row) */
	enum raw_dir dir;
	unsigned int repetition;
	unsigned int order;
	unsigned int nflows;
	char flow_file[RAW_MAX_FLOWS][64];
	double bps;			/* sum over the flows of the received rate */
	double duration;		/* iperf3 test_start.duration of flow 0, -1 unknown */
	double omit;			/* iperf3 test_start.omit of flow 0, -1 unknown */
	enum raw_verify verify;		/* record verify.result */
	bool readback_ok;		/* readback (when present) matches the row */
	char readback_msg[128];		/* what did not match */
};

struct raw_set {
	struct raw_part *parts;
	size_t nparts;
	struct raw_run *runs;
	size_t nruns;
};

/* Read every part and run of results directory @dir. 0, or -errno with "FILE: what is
 * wrong" in err. */
int raw_read_dir(const char *dir, struct raw_set *s, char *err, size_t errlen);
void raw_free(struct raw_set *s);

/* Parse one record.json text (no flow files are read: bps is 0). @name is used in
 * the message. 0 or -EINVAL with "NAME: what is wrong" in err. */
int raw_parse_record(const char *name, const char *text, size_t len, struct raw_run *run,
		     char *err, size_t errlen);

/* Parse provenance.json text into @p (name untouched). 0 or -EINVAL. */
int raw_parse_provenance(const char *name, const char *text, size_t len,
			 struct raw_part *p, char *err, size_t errlen);

/* Parse qemu.json text into @p. 0 or -EINVAL. */
int raw_parse_qemu(const char *name, const char *text, size_t len, struct raw_part *p,
		   char *err, size_t errlen);

#endif /* BRNF_RAW_H */
