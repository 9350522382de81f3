/* SPDX-License-Identifier: GPL-2.0 */
/* errbuf: the one-line error message the parsers hand back to their caller. */
#ifndef BRNF_ERRBUF_H
#define BRNF_ERRBUF_H

#include <stddef.h>

/* printf into err (errlen bytes, always terminated); nothing when err is NULL */
void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BRNF_ERRBUF_H */
