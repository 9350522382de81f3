// SPDX-License-Identifier: GPL-2.0
/* `brnf levels DIR`: the test-bed levels of DIR's pps cells (levels.h), into
 * DIR/levels.md and DIR/levels.csv. */
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

typedef int (*levels_writer)(FILE *f, const struct rowstats *rs, const struct levels *lv);

/* DIR/NAME rendered in memory, then written beside it and renamed over it: never half
 * a file */
static int emit(const struct rowstats *rs, const struct levels *lv, const char *name,
		levels_writer fn)
{
	char path[4096], tmp[4096], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s", rs->dir, name) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%d", rs->dir, name, (int)getpid()) >=
		    (int)sizeof(tmp)) {
		pr_err("%s/%s: path too long", rs->dir, name);
		return -ENAMETOOLONG;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		pr_err("%s: out of memory", path);
		return -ENOMEM;
	}
	ret = fn(f, rs, lv);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = file_write(tmp, buf, len, 0644);
	if (!ret && rename(tmp, path))
		ret = -errno;
	free(buf);
	if (ret) {
		unlink(tmp);
		pr_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	printf("%s\n", path);
	return 0;
}

int cmd_levels(int argc, char **argv)
{
	struct rowstats_opts ro = { 0 };
	struct rowstats rs;
	struct levels lv;
	char *dir[1];
	int n, ret;

	n = opts_parse(levels_opts, argc, argv, NULL, dir, 1);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 1) {
		pr_err("usage: brnf levels DIR");
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
		ret = emit(&rs, &lv, "levels.md", levels_write_md);
	if (!ret)
		ret = emit(&rs, &lv, "levels.csv", levels_write_csv);
	levels_free(&lv);
	rowstats_free(&rs);
	return ret ? EXIT_ERR : EXIT_OK;
}

const struct opt levels_opts[] = {
	{ NULL, NULL, NULL, NULL },
};
