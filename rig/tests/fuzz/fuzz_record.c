// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: record.json (schema 1 and 2), provenance.json, qemu.json and run.txt
 * of a results directory.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"

/* What a record the parser accepted must hold. */
static void check_run(const struct raw_run *run)
{
	char name[RAW_NAME_LEN];

	if (!run->key[0] || run->row.nlocal > BRNF_MAX_BRIDGES ||
	    (run->schema != 1 && run->schema != 2) || run->nflows > RAW_MAX_FLOWS)
		abort();
	if (run->kind == RAW_VERIFY_PASS) {
		if (run->schema != 2 || !run->has_verify || !run->rules[0])
			abort();
		return;
	}
	if (run->kind != RAW_MEASURE || run->workload >= WL_N ||
	    run->dir >= RAW_NDIRS || !run->repetition)
		abort();
	if (brnf_workloads[run->workload].pkt_size) {
		if (run->nflows || !run->pktgen.sent || !run->pktgen.elapsed_us ||
		    !(run->value > 0) || !isfinite(run->value) || !isfinite(run->wire_mbps))
			abort();
	} else if (!run->nflows || run->value != 0) {
		abort();
	}
	if (run->workload == WL_TCP_BYTES && !run->bytes_per_flow)
		abort();
	if (run->schema == 1 && (run->workload != WL_TCP || !run->has_verify))
		abort();
	if (raw_run_dir_name(run, name, sizeof(name)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct raw_run run;
	struct raw_part part;
	char err[512];
	struct raw_run_txt rt;

	err[0] = '\0';
	if (raw_parse_record("r", (const char *)data, size, &run, err, sizeof(err))) {
		if (strncmp(err, "r: ", 3) || strchr(err, '\n'))
			abort();
	} else {
		check_run(&run);
	}
	memset(&part, 0, sizeof(part));
	raw_parse_provenance("p", (const char *)data, size, &part, err, sizeof(err));
	raw_parse_qemu("q", (const char *)data, size, &part, err, sizeof(err));
	err[0] = '\0';
	if (raw_parse_run_txt("t", (const char *)data, size, &rt, err, sizeof(err))) {
		if (strncmp(err, "t:", 2) || strchr(err, '\n'))
			abort();
	} else if ((!isnan(rt.target_pct) && !(rt.target_pct > 0 && rt.target_pct <= 100)) ||
		   rt.target_workloads > RAW_TARGET_NONE) {
		abort();
	}
	return 0;
}
