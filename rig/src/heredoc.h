/* SPDX-License-Identifier: GPL-2.0 */
/* A here-document in a POSIX sh script whose delimiter is no line of its text. */
#ifndef BRNF_HEREDOC_H
#define BRNF_HEREDOC_H

#include <stdio.h>

/*
 * Write "cmd <<'DELIM'", then head and text (each may be NULL or empty; a newline
 * added where one does not end it), then DELIM: BRNF_EOF, else BRNF_EOF_2, _3 ...,
 * the first that is no line of head or text, so whatever they hold (saved rules from
 * a router) reaches cmd whole and unexpanded.
 */
void heredoc_write(FILE *f, const char *cmd, const char *head, const char *text);

#endif
