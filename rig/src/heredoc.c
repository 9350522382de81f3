// SPDX-License-Identifier: GPL-2.0
/* Here-documents of the AP's restore script (heredoc.h). */
#include <stdbool.h>
#include <string.h>

#include "heredoc.h"

/* Is delim (dl bytes) a whole line of text? */
static bool is_line(const char *text, const char *delim, size_t dl)
{
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, delim, dl) && (p[dl] == '\n' || !p[dl]))
			return true;
	return false;
}

static void put_text(FILE *f, const char *text)
{
	size_t len = text ? strlen(text) : 0;

	if (!len)
		return;
	fputs(text, f);
	if (text[len - 1] != '\n')
		fputc('\n', f);
}

void heredoc_write(FILE *f, const char *cmd, const char *head, const char *text)
{
	char delim[32];
	unsigned int n = 1;
	size_t dl;

	for (;; n++) {
		if (n == 1)
			snprintf(delim, sizeof(delim), "BRNF_EOF");
		else
			snprintf(delim, sizeof(delim), "BRNF_EOF_%u", n);
		dl = strlen(delim);
		if (!is_line(head, delim, dl) && !is_line(text, delim, dl))
			break;
	}
	fprintf(f, "%s <<'%s'\n", cmd, delim);
	put_text(f, head);
	put_text(f, text);
	fprintf(f, "%s\n", delim);
}
