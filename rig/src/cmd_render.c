// SPDX-License-Identifier: GPL-2.0
/* `brnf render DIR [--baseline KEY] [--target PCT] [--strict] [--estimator floor|boots]
 * [--json]`: tables from raw data alone (render.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "render.h"
#include "util.h"

static int set_baseline(void *ctx, const char *v)
{
	struct render_opts *o = ctx;

	o->baseline = v;
	return 0;
}

static int set_target(void *ctx, const char *v)
{
	struct render_opts *o = ctx;
	char *end;

	errno = 0;
	o->target_pct = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(o->target_pct) || o->target_pct <= 0 ||
	    o->target_pct > 100)
		return -EINVAL;
	return 0;
}

static int set_strict(void *ctx, const char *v)
{
	struct render_opts *o = ctx;

	(void)v;
	o->strict = true;
	return 0;
}

static int set_estimator(void *ctx, const char *v)
{
	struct render_opts *o = ctx;

	return rowstats_estimator_parse(v, &o->estimator);
}

static int set_json(void *ctx, const char *v)
{
	struct render_opts *o = ctx;

	(void)v;
	o->json = true;
	o->print = false;
	return 0;
}

const struct opt render_opts[] = {
	{ "--baseline", "KEY", "row key, kernel or label of the row changes are against",
	  set_baseline },
	{ "--target", "PCT", "95% half-width in percent a change should reach, above 0, at "
	  "most 100 (default: run.txt target_pct=, else 0.3)", set_target },
	{ "--strict", NULL, "a row without a verification pass in a part is an error",
	  set_strict },
	{ "--estimator", "floor|boots", "the changes of the pps cells: floor, each floor's "
	  "change ± one level (S + w; docs/methodology.md), or boots, the mean over boots "
	  "with its 95% Welch interval (default: floor where run.txt says part_value=floor, "
	  "else boots); raw data untouched", set_estimator },
	{ "--json", NULL, "a JSON summary on stdout (the verdict and every change against the"
	  " baseline) instead of the tables and the one-line verdict", set_json },
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
		pr_err("usage: brnf render DIR [--baseline KEY] [--target PCT] [--strict] "
		       "[--estimator floor|boots] [--json]");
		return EXIT_USAGE;
	}
	ret = render_dir(dir[0], &o);
	if (ret == RENDER_VERIFY_FAILED)
		return EXIT_MISMATCH;
	return ret ? EXIT_ERR : EXIT_OK;
}
