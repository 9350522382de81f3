/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the command line says about itself: `brnf help`, `brnf COMMAND --help` and
 * the manual page (`brnf --man`, build/man/man1/brnf.1), all three from main.c's
 * cmds[] and each command's option table, so that none can drift from the parser.
 */
#ifndef BRNF_USAGE_H
#define BRNF_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "opts.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool root;			/* needs root and the namespace machinery */
	const char *usage;		/* after "brnf NAME " */
	const char *help;		/* one sentence */
	const struct opt *opts;		/* NULL: none */
	const char *more;		/* printed after the options, as it stands */
};

/* One command: usage line, help sentence, options, more. */
void usage_cmd(FILE *f, const struct cmd *c);
/* brnf help: every command, then the matrix file, traffic and exit status. */
void usage_all(FILE *f, const struct cmd *cmds, size_t n);
/* The same as a manual page in man(7) roff, section 1. */
void usage_man(FILE *f, const struct cmd *cmds, size_t n, const char *version);

#endif /* BRNF_USAGE_H */
