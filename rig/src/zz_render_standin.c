// SPDX-License-Identifier: GPL-2.0
/* TEMPORARY stand-in until RIG-DATA's render.c exists; weak so theirs wins. */
#include <stdio.h>
#include "render.h"

__attribute__((weak)) int render_dir(const char *dir, const struct render_opts *o)
{
	(void)o;
	fprintf(stderr, "brnf: render %s: renderer not built yet\n", dir);
	return 0;
}
