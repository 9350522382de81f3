// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf matrix-kernels [--rows-of VARIANT] FILE`: the kernels a matrix file
 * names, one per line in order of first appearance (scripts/ab-matrix boots
 * them), or with --rows-of the number of rows of one kernel. The whole file is
 * checked first: errors are "FILE:LINE: what is wrong".
 */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "matrix.h"
#include "util.h"

static int set_rows_of(void *ctx, const char *v)
{
	*(const char **)ctx = v;
	return 0;
}

const struct opt matrix_kernels_opts[] = {
	{ "--rows-of", "VARIANT", "print the number of rows of kernel VARIANT instead",
	  set_rows_of },
	{ NULL, NULL, NULL, NULL },
};

int cmd_matrix_kernels(int argc, char **argv)
{
	struct brnf_matrix m = {};
	const char *count = NULL;
	char err[512], *file[1];
	size_t i, j, n = 0;
	int npos;

	npos = opts_parse(matrix_kernels_opts, argc, argv, &count, file, 1);
	if (npos < 0)
		return EXIT_USAGE;
	if (npos != 1) {
		pr_err("usage: brnf matrix-kernels [--rows-of VARIANT] FILE");
		return EXIT_USAGE;
	}
	if (matrix_parse_file(file[0], &m, err, sizeof(err))) {
		pr_err("%s", err);
		return EXIT_ERR;
	}
	for (i = 0; i < m.nrows; i++) {
		if (count) {
			n += !strcmp(m.rows[i].kernel, count);
			continue;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(m.rows[j].kernel, m.rows[i].kernel))
				break;
		if (j == i)
			printf("%s\n", m.rows[i].kernel);
	}
	if (count)
		printf("%zu\n", n);
	matrix_free(&m);
	return EXIT_OK;
}
