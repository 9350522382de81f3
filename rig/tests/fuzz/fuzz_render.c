// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: render_dir() on a one-part results directory built from the input.
 * The input is up to three texts separated by lines "===": a record.json and two flow
 * files. Two runs are written, both with that record: run 0000 with flow-0 = text 2 and
 * flow-1 = text 3, run 0001 with flow-0 = text 3, so that valid inputs give cells with
 * statistics and changes.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render.h"

static char dir[256];

static void put(const char *rel, const char *text, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		abort();
	if (len && fwrite(text, 1, len, f) != len)
		abort();
	fclose(f);
}

static void mk(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (mkdir(path, 0700) && access(path, F_OK))
		abort();
}

static void cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/brnf-fuzz-render.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		abort();
	mk("raw");
	mk("raw/p");
	mk("raw/p/runs");
	mk("raw/p/runs/0000-upload");
	mk("raw/p/runs/0001-upload");
	put("raw/p/provenance.json", "{\"clock\": \"icount\"}", 19);
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *part[3] = { "", "", "" }, *p = (const char *)data, *end = p + size, *sep;
	size_t len[3] = { 0, 0, 0 };
	struct render_opts o = { .print = false };
	int i, ret;

	for (i = 0; i < 3 && p <= end; i++) {
		sep = i < 2 ? memmem(p, end - p, "\n===\n", 5) : NULL;
		part[i] = p;
		len[i] = sep ? (size_t)(sep - p) : (size_t)(end - p);
		if (!sep)
			break;
		p = sep + 5;
	}
	put("raw/p/runs/0000-upload/record.json", part[0], len[0]);
	put("raw/p/runs/0001-upload/record.json", part[0], len[0]);
	put("raw/p/runs/0000-upload/flow-0.json", part[1], len[1]);
	put("raw/p/runs/0000-upload/flow-1.json", part[2], len[2]);
	put("raw/p/runs/0001-upload/flow-0.json", part[2], len[2]);
	ret = render_dir(dir, &o);
	if (ret > 0 && ret != RENDER_VERIFY_FAILED)
		abort();
	return 0;
}
