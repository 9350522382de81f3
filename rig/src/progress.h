/* SPDX-License-Identifier: GPL-2.0 */
/* Live progress on stderr: a status line "cell k of N, ETA mm:ss" on a
 * terminal, plain lines otherwise. */
#ifndef BRNF_PROGRESS_H
#define BRNF_PROGRESS_H

/* total cells; est = seconds one cell is expected to take (first ETA). */
void progress_init(unsigned int total, double est);
/* Cell k (1-based) starts; what describes it. */
void progress_cell(unsigned int k, const char *what);
/* A finished line (clears the status line on a terminal first). */
void progress_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_end(void);

#endif
