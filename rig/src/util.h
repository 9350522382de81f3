/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the run side: error lines, files, exit codes. */
#ifndef BRNF_UTIL_H
#define BRNF_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <sys/types.h>

#include "errbuf.h"
#include "file.h"

struct json_object;

/* Exit codes of the brnf command (documented in `brnf help`). */
enum brnf_exit {
	EXIT_OK = 0,		/* everything worked */
	EXIT_ERR = 1,		/* an error; one line on stderr says what */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_MISMATCH = 3,	/* a run's filtering verification said "no" */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* pr_err() ("brnf: <message>" on stderr) is in errbuf.h. The same, but only when
 * BRNF_DEBUG is set in the environment: */
void pr_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write o to path as pretty JSON (record.json, provenance.json; file_write(): never
 * through a link); 0 or -errno with a message. */
int json_write_file(const char *path, struct json_object *o);
/* The same, what went wrong in err[0..errlen) instead of on stderr. */
int json_write_file_err(const char *path, struct json_object *o, char *err, size_t errlen);
/* file_render() of DIR/NAME (file.h), then "DIR/NAME" on stdout: a table a command
 * writes. 0 or -errno with a message. */
int render_and_say(const char *dir, const char *name, file_render_fn fn, void *arg);
/* mkdir -p with mode 0755 (what exists is taken as it is). 0 or -errno. */
int mkdir_p(const char *path);
/* mkdir with mode 0755 of a directory that must not exist yet (-EEXIST, also for a
 * link planted there): what brnf writes into is its own. 0 or -errno. */
int mkdir_new(const char *path);
/* rm -rf path (does not cross into other file systems' mount points). */
int rm_rf(const char *path);
bool path_exists(const char *path);
/* Remove trailing whitespace in place. */
void chomp(char *s);
/* Parse an unsigned decimal in [min, max]. 0 or -EINVAL. */
int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *v);
/* Monotonic clock in seconds. */
double now_sec(void);
/* sha256 of a file as 64 hex characters; 0 or -errno. */
int sha256_file(const char *path, char hex[65]);
int sha256_buf(const void *buf, size_t len, char hex[65]);

/* The signal (SIGINT, SIGTERM, SIGHUP) that asks brnf to stop, 0 until one came;
 * loops check it and unwind, and brnf exits with 128 + it, as a shell reports a
 * process killed by it (130 for Ctrl-C, 143 for SIGTERM). */
extern volatile sig_atomic_t brnf_stop;
void signals_install(void);

#endif
