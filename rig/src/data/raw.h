/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw: read the raw data of a results directory (the only input of the renderer).
 *
 *   <dir>/raw/<part>/provenance.json
 *   <dir>/raw/<part>/qemu.json                    (optional, see below)
 *   <dir>/raw/<part>/runs/<run>/record.json       (written by record.c)
 *   <dir>/raw/<part>/runs/<run>/flow-<i>.json     (iperf3 -J client output; tcp workloads)
 *   <dir>/run.txt                                 (optional; scripts/ab-matrix)
 *
 * Two schemas of record.json are read:
 * - schema 1 (the A/B results directories of 2026-11-30): one measured run of
 *   the workload "tcp" in <NNNN>-<direction>, with the counting rules of the filtering
 *   verification loaded and its own "verify" block;
 * - schema 2 (rig/README.md "Raw data"): "kind" "measure", a run of a workload (tcp,
 *   tcp-bytes, pps64, pps1514) in <NNNN>-<workload>-<direction>, measured without
 *   counting rules; or "kind" "verify", a verification pass of a row in <NNNN>-verify.
 *   NNNN is the record's "order"; the directory name must agree with the record.
 *
 * The value of a measured run is in its workload's unit: tcp, the sum over the flows of
 * end.sum_received.bits_per_second / 1e6 (Mbit/s); tcp-bytes, the sum over the flows of
 * end.sum_received.bytes * 8 / the longest end.sum_received.seconds / 1e6 (Mbit/s);
 * pps64 and pps1514, pktgen's elapsed_us * 1000 / sent (ns/packet).
 *
 * Parts are read in sorted name order, runs within a part in sorted directory name
 * order. Anything malformed is an error "FILE: what is wrong"; nothing is skipped,
 * except a part directory named <part>.tmp.<pid> (still being written, or left by a
 * killed run), which is not data: a warning on stderr names it. Within a part, a
 * row.index must always name the same configuration and (row, workload, direction,
 * repetition) must be unique among the measured runs.
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
 *
 * run.txt: whitespace separated key=value words; only "target_pct" (a number above 0
 * and at most 100: the 95% half-width in percent a cell's change should reach) and
 * "target_workloads" (a comma list of the workloads the target is for; absent: all;
 * "none": no workload, RAW_TARGET_NONE) and "part_value" (mean, best or floor)
 * are read.
 */
#ifndef BRNF_RAW_H
#define BRNF_RAW_H

#include <stdbool.h>
#include <stddef.h>

#include "matrix.h"
#include "workload.h"

enum raw_dir { RAW_DOWNLOAD, RAW_UPLOAD, RAW_NDIRS };
enum raw_verify { RAW_VERIFY_NA, RAW_VERIFY_YES, RAW_VERIFY_NO };
enum raw_kind { RAW_MEASURE, RAW_VERIFY_PASS };

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

/* pktgen's account of a pps run (schema 2) */
struct raw_pktgen {
	unsigned long long pkt_size, count, sent, received, errors, elapsed_us;
	unsigned long long busy_us;	/* the c part of its result (the time it did not
					 * yield), 0 when the result does not say */
};

/* One record: a measured run, or a verification pass (kind RAW_VERIFY_PASS, schema 2). */
struct raw_run {
	size_t part;			/* index into raw_set.parts */
	char name[RAW_NAME_LEN];	/* run directory name */
	unsigned int schema;		/* 1 or 2 */
	enum raw_kind kind;
	unsigned int row_index;		/* record row.index */
	struct brnf_row row;		/* record row (line = 0) */
	char source[128];		/* record row.source, "" when absent */
	char key[RAW_KEY_LEN];		/* row_key(&row) */
	unsigned int order;
	/* measured runs */
	enum brnf_workload workload;
	enum raw_dir dir;
	unsigned int repetition;
	bool counting_rules;		/* measured with counting rules loaded (schema 1: yes) */
	unsigned int nflows;		/* tcp, tcp-bytes */
	char flow_file[RAW_MAX_FLOWS][64];
	unsigned long long bytes_per_flow;	/* tcp-bytes */
	struct raw_pktgen pktgen;	/* pps64, pps1514 */
	double value;			/* in brnf_workloads[workload].unit (read_dir only) */
	double mpps;			/* pps: sent / elapsed_us */
	double wire_mbps;		/* pps: received * (pkt_size + 4) * 8 / elapsed_us */
	double duration;		/* iperf3 test_start.duration of flow 0, -1 unknown */
	double omit;			/* iperf3 test_start.omit of flow 0, -1 unknown */
	/* filtering verification: schema 1 runs and verification passes */
	bool has_verify;
	enum raw_verify verify;		/* verify.result */
	char rules[16];			/* pass: "physdev", "iif" or "nft-bridge" */
	bool readback_ok;		/* readback (when present) matches the row */
	char readback_msg[128];		/* what did not match */
};

/* what run.txt says about the target */
struct raw_run_txt {
	double target_pct;		/* NAN when absent */
	unsigned int target_workloads;	/* 1 << enum brnf_workload; 0 when absent (all) */
#define RAW_TARGET_NONE	(1u << WL_N)	/* target_workloads=none: a bit of no workload */
	bool part_best;			/* part_value=best: a boot's value is its best run
					 * (absent or part_value=mean: the mean of its runs) */
	bool part_floor;		/* part_value=floor: as best, and the changes of
					 * the pps cells are their floors' (floor.h) */
};

struct raw_set {
	struct raw_part *parts;
	size_t nparts;
	struct raw_run *runs;		/* measured runs and verification passes */
	size_t nruns;
	struct raw_run_txt run_txt;
};

/* Read every part and run of results directory @dir. 0, or -errno with "FILE: what is
 * wrong" in err. */
int raw_read_dir(const char *dir, struct raw_set *s, char *err, size_t errlen);
void raw_free(struct raw_set *s);

/* Parse one record.json text (no flow files are read: the value of a tcp run is 0).
 * @name is used in the message. 0 or -EINVAL with "NAME: what is wrong" in err. */
int raw_parse_record(const char *name, const char *text, size_t len, struct raw_run *run,
		     char *err, size_t errlen);

/* The directory name a schema 2 record must have: <order>-<workload>-<direction> or
 * <order>-verify, order as %04u. 0, or -ENAMETOOLONG. */
int raw_run_dir_name(const struct raw_run *run, char *buf, size_t len);

/* Parse provenance.json text into @p (name untouched). 0 or -EINVAL. */
int raw_parse_provenance(const char *name, const char *text, size_t len,
			 struct raw_part *p, char *err, size_t errlen);

/* Parse qemu.json text into @p. 0 or -EINVAL. */
int raw_parse_qemu(const char *name, const char *text, size_t len, struct raw_part *p,
		   char *err, size_t errlen);

/* Parse run.txt text into @rt. 0 or -EINVAL with "NAME:LINE: what is wrong". */
int raw_parse_run_txt(const char *name, const char *text, size_t len, struct raw_run_txt *rt,
		      char *err, size_t errlen);

#endif /* BRNF_RAW_H */
