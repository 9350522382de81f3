/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the cmocka unit tests. */
#ifndef BRNF_UNIT_H
#define BRNF_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef UNIT_DATA_DIR
#define UNIT_DATA_DIR "rig/tests/unit/data"
#endif

/* path of a file under the test data directory (static buffer, one at a time) */
static inline const char *data_path(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", UNIT_DATA_DIR, name);
	return buf;
}

/* whole file, NUL terminated; fails the test when it cannot be read */
static inline char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc(st.st_size + 1);
	assert_non_null(buf);
	while ((r = read(fd, buf + n, st.st_size - n)) > 0)
		n += r;
	close(fd);
	assert_int_equal(n, st.st_size);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static inline void spit(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* run a shell command, fail the test when it fails */
static inline void sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/*
 * Compare @text with golden file data/@name. With UPDATE_GOLDEN=1 in the environment
 * the golden file is (re)written instead; review and commit it.
 */
static inline void assert_golden(const char *name, const char *text, size_t len)
{
	const char *path = data_path(name);
	char *want;
	size_t wlen;

	if (getenv("UPDATE_GOLDEN")) {
		spit(path, text, len);
		return;
	}
	want = slurp(path, &wlen);
	if (wlen != len || memcmp(want, text, len)) {
		fprintf(stderr, "---- %s (golden)\n%s---- got\n%.*s----\n", path, want,
			(int)len, text);
		free(want);
		fail_msg("output differs from golden file %s", path);
	}
	free(want);
}

/* cmocka writes its summary to stderr and the rest to stdout: keep them in order */
static inline void unit_init(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
}

#endif /* BRNF_UNIT_H */
