/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole files: the one reader (and writer) of the program. Only libc, so the
 * parsers, their unit tests and fuzzers read their files with it too.
 */
#ifndef BRNF_FILE_H
#define BRNF_FILE_H

#include <stddef.h>
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

#endif /* BRNF_FILE_H */
