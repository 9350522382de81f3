// SPDX-License-Identifier: GPL-2.0
/* `brnf cleanup`: remove every test bed whose owner has ended. */
#include <stdio.h>

#include "cmds.h"
#include "lock.h"
#include "util.h"

int cmd_cleanup(int argc, char **argv)
{
	int n;

	(void)argv;
	if (argc) {
		pr_err("cleanup takes no arguments");
		return EXIT_USAGE;
	}
	if (lock_take())
		return EXIT_ERR;
	n = lock_reap_stale(true);
	lock_release();
	if (n < 0) {
		pr_err("cleanup failed");
		return EXIT_ERR;
	}
	printf("removed %d test bed namespace(s)\n", n);
	return EXIT_OK;
}
