// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: the iperf3 -J reader. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "iperf_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iperf_result res;
	char err[256];

	err[0] = '\0';
	if (iperf_json_parse((const char *)data, size, &res, err, sizeof(err))) {
		if (!err[0])
			abort();	/* every error has a message */
		return 0;
	}
	if (!isfinite(res.bps) || res.bps < 0)
		abort();
	return 0;
}
