// SPDX-License-Identifier: GPL-2.0
/* `brnf render DIR [--baseline KEY]`: tables from raw data alone (render.h). */
#include <stdio.h>

#include "cmds.h"
#include "render.h"
#include "util.h"

static int set_baseline(void *ctx, const char *v)
{
	struct render_opts *o = ctx;

	o->baseline = v;
	return 0;
}

const struct opt render_opts[] = {
	{ "--baseline", "KEY", "row key, kernel or label of the row changes are against",
	  set_baseline },
	{ NULL, NULL, NULL, NULL },
};

int cmd_render(int argc, char **argv)
{
	struct render_opts o = { .print = true };
	char *dir[1];
	int n, ret;

	n = opts_parse(render_opts, argc, argv, &o, dir, 1);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 1) {
		pr_err("usage: brnf render DIR [--baseline KEY]");
		return EXIT_USAGE;
	}
	ret = render_dir(dir[0], &o);
	if (ret == RENDER_VERIFY_FAILED)
		return EXIT_MISMATCH;
	return ret ? EXIT_ERR : EXIT_OK;
}
