/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options from one table per command (as ethtool's args[]):
 * spelling, argument, help text and handler stay together, so `brnf help`
 * cannot drift from what the parser accepts.
 */
#ifndef BRNF_OPTS_H
#define BRNF_OPTS_H

#include <stdbool.h>
#include <stdio.h>

struct opt {
	const char *name;	/* "--flows" */
	const char *arg;	/* "N", or NULL for a flag */
	const char *help;
	/* val is NULL for flags; return 0 or -EINVAL (the parser prints the line). */
	int (*set)(void *ctx, const char *val);
};

/* Parse argv[0..argc) against opts (NULL-name terminated); positional
 * arguments are left in pos[] (up to npos). Returns the number of positional
 * arguments or -EINVAL after one line on stderr. */
int opts_parse(const struct opt *opts, int argc, char **argv, void *ctx,
	       char **pos, int npos);
void opts_help(FILE *f, const struct opt *opts);
/* Whether --help or -h stands among argv[0..argc) where an option may (not as
 * the argument of an option of opts, which may be NULL). */
bool opts_help_asked(const struct opt *opts, int argc, char **argv);

#endif
