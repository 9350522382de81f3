// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: the instruction profile parser (profile.h), cache models included. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_file pf;
	char err[512];
	size_t i, k;

	err[0] = '\0';
	if (prof_parse("fuzz", (const char *)data, size, &pf, err, sizeof(err))) {
		/* an error names the input and its line, on one line, and leaves nothing */
		if (strncmp(err, "fuzz:", 5) || strchr(err, '\n') || pf.w || pf.nw)
			abort();
		return 0;
	}
	if (pf.nmodel > PROF_MAX_CACHES)
		abort();
	for (i = 0; i < pf.nw; i++) {
		const struct prof_window *w = &pf.w[i];
		uint64_t sum = 0;

		if (w->n != i + 1 || w->ncache != pf.nmodel)
			abort();
		for (k = 0; k < w->ne; k++) {
			if (!w->e[k].count || (k && strcmp(w->e[k - 1].name, w->e[k].name) >= 0))
				abort();
			sum += w->e[k].count;
		}
		if (sum != w->total)
			abort();
		for (k = 0; k < w->ncache; k++)
			if (strcmp(w->cache[k].name, pf.model[k].name) ||
			    w->cache[k].v[PROF_IMISS] > w->cache[k].v[PROF_IFETCH] ||
			    w->cache[k].v[PROF_DMISS] > w->cache[k].v[PROF_DACC])
				abort();
	}
	prof_free(&pf);
	return 0;
}
