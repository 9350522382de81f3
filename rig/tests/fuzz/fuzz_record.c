// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: record.json, provenance.json and qemu.json of a results directory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct raw_run run;
	struct raw_part part;
	char err[512];

	err[0] = '\0';
	if (raw_parse_record("r", (const char *)data, size, &run, err, sizeof(err))) {
		if (strncmp(err, "r: ", 3))
			abort();
	} else if (run.nflows == 0 || run.nflows > RAW_MAX_FLOWS || run.dir >= RAW_NDIRS ||
		   !run.key[0] || run.row.nlocal > BRNF_MAX_BRIDGES) {
		abort();
	}
	memset(&part, 0, sizeof(part));
	raw_parse_provenance("p", (const char *)data, size, &part, err, sizeof(err));
	raw_parse_qemu("q", (const char *)data, size, &part, err, sizeof(err));
	return 0;
}
