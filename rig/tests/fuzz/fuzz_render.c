// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: render_dir() on a results directory built from the input, rendered
 * twice: the second rendering must give the same bytes.
 *
 * The input is a small archive: each line "--- PATH" starts a file, whose contents are
 * the following lines up to the next such line. PATH is relative, made of letters,
 * digits and "._-/", without "..", under raw/ or run.txt; other entries are skipped.
 * The seeds (corpus/render/) are whole results directories of raw schema 1 and 2.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render.h"

static char dir[256];

static bool path_ok(const char *p, size_t len)
{
	size_t i, depth = 0;

	if (!len || len > 200 || p[0] == '/' || memmem(p, len, "..", 2) ||
	    memmem(p, len, "//", 2) || p[len - 1] == '/')
		return false;
	if (!(len == 7 && !memcmp(p, "run.txt", 7)) && (len < 5 || memcmp(p, "raw/", 4)))
		return false;
	for (i = 0; i < len; i++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/",
			    p[i]) || !p[i])
			return false;
		depth += p[i] == '/';
	}
	return depth <= 5;
}

/* write @rel (its directories made), contents @text */
static void put(const char *rel, size_t rlen, const char *text, size_t len)
{
	char path[512];
	char *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)rlen, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0700) && access(path, F_OK))
			return;		/* a file is in the way: skip */
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return;		/* e.g. a directory of that name */
	if (len && fwrite(text, 1, len, f) != len)
		abort();
	fclose(f);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level == 0)
		return 0;
	return remove(path);
}

static void clear(void)
{
	if (nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
		abort();
}

static void cleanup(void)
{
	clear();
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/brnf-fuzz-render.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	return 0;
}

static char *slurp(const char *name, size_t *len)
{
	char path[512], *buf = NULL;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		abort();
	m = open_memstream(&buf, len);
	if (!m)
		abort();
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const outputs[] = { "matrix.md", "matrix.csv", "matrix.json",
					       "matrix.txt" };
	const char *p = (const char *)data, *end = p + size, *eol, *next, *body;
	struct render_opts o = { .print = false };
	char *first[4], *again;
	size_t len[4], n, i;
	int ret, ret2;

	clear();
	/* find each "--- PATH\n" at the start of a line */
	while (p < end) {
		if (end - p < 5 || memcmp(p, "--- ", 4)) {
			eol = memchr(p, '\n', end - p);
			p = eol ? eol + 1 : end;
			continue;
		}
		eol = memchr(p, '\n', end - p);
		if (!eol)
			break;
		body = eol + 1;
		for (next = body; next < end; next++)
			if (next[0] == '\n' && end - next > 4 && !memcmp(next + 1, "--- ", 4))
				break;
		if (path_ok(p + 4, eol - (p + 4)))
			put(p + 4, eol - (p + 4), body, next > body ? (size_t)(next - body) : 0);
		p = next < end ? next + 1 : end;
	}
	ret = render_dir(dir, &o);
	if (ret > 0 && ret != RENDER_VERIFY_FAILED)
		abort();
	if (ret < 0)
		return 0;
	for (i = 0; i < 4; i++)
		first[i] = slurp(outputs[i], &len[i]);
	ret2 = render_dir(dir, &o);
	if (ret2 != ret)
		abort();
	for (i = 0; i < 4; i++) {
		again = slurp(outputs[i], &n);
		if (n != len[i] || memcmp(again, first[i], n))
			abort();
		free(again);
		free(first[i]);
	}
	return 0;
}
