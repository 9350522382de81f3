/* SPDX-License-Identifier: GPL-2.0 */
/*
 * errbuf: one-line error messages, handed back to the caller by the parsers
 * (seterr) or printed (pr_err). Both sides use it: the unit tests and fuzzers
 * link it without util.c.
 */
#ifndef BRNF_ERRBUF_H
#define BRNF_ERRBUF_H

#include <stddef.h>

/* printf into err (errlen bytes, always terminated); nothing when err is NULL */
void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "brnf: <message>" on stderr, one line. */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* BRNF_ERRBUF_H */
