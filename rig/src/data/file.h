/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole files: the one reader (and writer) of the program. Only libc, so the
 * parsers, their unit tests and fuzzers read their files with it too.
 */
#ifndef BRNF_FILE_H
#define BRNF_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Read path into a NUL-terminated malloc'd *buf (*len without the NUL; len may be
 * NULL). max > 0: a larger file is -EFBIG. Returns 0 or -errno; on error *buf is
 * NULL and, when err is not NULL, "PATH: what is wrong" is in err.
 */
int file_read(const char *path, size_t max, char **buf, size_t *len, char *err,
	      size_t errlen);
/* file_read() of any size, without a message. */
int read_file(const char *path, char **buf, size_t *len);
/* Write buf to path (created with mode, truncated; a symbolic link at path is
 * refused, -ELOOP, never followed). 0 or -errno. */
int file_write(const char *path, const char *buf, size_t len, mode_t mode);
/* file_write() with mode 0644. */
int write_file(const char *path, const char *buf, size_t len);

/* What file_render() calls to write the file's text to f: 0 or -errno. */
typedef int (*file_render_fn)(FILE *f, void *arg);
/*
 * Write DIR/NAME whole or not at all: fn(f, arg) renders it into memory, which goes to
 * DIR/.NAME.tmp.PID (a new file, mode 0644, never through a link), is synced and
 * renamed over DIR/NAME, so a reader sees the old file or all of the new one. On
 * failure nothing is left behind and one "brnf: DIR/NAME: reason" line is on stderr.
 * 0 or -errno (fn's own error passed on).
 */
int file_render(const char *dir, const char *name, file_render_fn fn, void *arg);

#endif /* BRNF_FILE_H */
