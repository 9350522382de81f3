// SPDX-License-Identifier: GPL-2.0
/* `brnf levels DIR [--estimator floor|boots]`: the test-bed levels of DIR's pps cells
 * (levels.h), into DIR/levels.md and DIR/levels.csv. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "errbuf.h"
#include "file.h"
#include "levels.h"
#include "util.h"

struct levels_out {
	const struct rowstats *rs;
	const struct levels *lv;
	int (*fn)(FILE *f, const struct rowstats *rs, const struct levels *lv);
};

static int render_levels(FILE *f, void *arg)
{
	const struct levels_out *o = arg;

	return o->fn(f, o->rs, o->lv);
}

int cmd_levels(int argc, char **argv)
{
	struct rowstats_opts ro = { 0 };
	struct rowstats rs;
	struct levels lv;
	char *dir[1];
	int n, ret;

	n = opts_parse(levels_opts, argc, argv, &ro, dir, 1);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 1) {
		pr_err("usage: brnf levels DIR [--estimator floor|boots]");
		return EXIT_USAGE;
	}
	if (rowstats_load(&rs, dir[0], &ro)) {
		rowstats_free(&rs);
		return EXIT_ERR;
	}
	ret = levels_compute(&rs, &lv);
	if (ret == -ENOENT)
		pr_err("%s: no pps runs (levels are measured on the pps workloads)", dir[0]);
	else if (ret)
		pr_err("%s: out of memory", dir[0]);
	if (!ret)
		ret = render_and_say(rs.dir, "levels.md", render_levels,
				     &(struct levels_out){ &rs, &lv, levels_write_md });
	if (!ret)
		ret = render_and_say(rs.dir, "levels.csv", render_levels,
				     &(struct levels_out){ &rs, &lv, levels_write_csv });
	levels_free(&lv);
	rowstats_free(&rs);
	return ret ? EXIT_ERR : EXIT_OK;
}

static int set_estimator(void *ctx, const char *v)
{
	struct rowstats_opts *o = ctx;

	return rowstats_estimator_parse(v, &o->estimator);
}

const struct opt levels_opts[] = {
	{ "--estimator", "floor|boots", "the matrix's change beside each floor's: as brnf "
	  "render --estimator (default: floor where run.txt says part_value=floor, else "
	  "boots)", set_estimator },
	{ NULL, NULL, NULL, NULL },
};
