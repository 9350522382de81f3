// SPDX-License-Identifier: GPL-2.0
/* Live progress (see progress.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"

static struct {
	unsigned int total, k;
	double start, est;
	bool tty, status_shown;
	char what[160];
} pg;

void progress_init(unsigned int total, double est)
{
	pg.total = total;
	pg.k = 0;
	pg.est = est;
	pg.start = now_sec();
	pg.tty = isatty(2);
	pg.status_shown = false;
}

static void eta(char *buf, size_t len)
{
	double done = pg.k ? pg.k - 1 : 0, per, left;

	per = done > 0 ? (now_sec() - pg.start) / done : pg.est;
	left = per * (pg.total - done);
	snprintf(buf, len, "%02u:%02u", (unsigned int)(left / 60), (unsigned int)left % 60);
}

static void status_clear(void)
{
	if (pg.tty && pg.status_shown)
		fputs("\r\033[K", stderr);
	pg.status_shown = false;
}

void progress_cell(unsigned int k, const char *what)
{
	char t[16];

	pg.k = k;
	snprintf(pg.what, sizeof(pg.what), "%s", what);
	eta(t, sizeof(t));
	if (pg.tty) {
		status_clear();
		fprintf(stderr, "cell %u of %u, ETA %s: %s", k, pg.total, t, what);
		pg.status_shown = true;
	} else {
		fprintf(stderr, "cell %u of %u, ETA %s: %s\n", k, pg.total, t, what);
	}
	fflush(stderr);
}

void progress_line(const char *fmt, ...)
{
	va_list ap;

	status_clear();
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void progress_end(void)
{
	status_clear();
	fflush(stderr);
}
