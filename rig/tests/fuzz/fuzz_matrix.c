// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: the matrix file parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct brnf_ruleset info;
	struct brnf_matrix m;
	char err[256], key[256];
	size_t i;

	err[0] = '\0';
	if (matrix_parse_buf("fuzz", (const char *)data, size, &m, err, sizeof(err))) {
		/* an error always names the input */
		if (strncmp(err, "fuzz", 4) || m.rows || m.nrows)
			abort();
		return 0;
	}
	if (!m.nrows)
		abort();
	for (i = 0; i < m.nrows; i++) {
		if (row_key(&m.rows[i], key, sizeof(key)) < 0)
			abort();
		if (m.rows[i].line == 0 || m.rows[i].nlocal > BRNF_MAX_BRIDGES)
			abort();
		/* a parsed row's ruleset checks, and names its own files */
		if (matrix_check_ruleset(m.rows[i].ruleset, err, sizeof(err)))
			abort();
		row_ruleset_info(&m.rows[i], &info);
		if (info.name != m.rows[i].ruleset)
			abort();
	}
	matrix_free(&m);
	return 0;
}
