// SPDX-License-Identifier: GPL-2.0
/* `brnf cleanup`: replay the journal of every claim whose owner has ended
 * (journal.h: an AP's saved settings put back, remote iperf3 servers ended,
 * temporary directories removed), then remove its namespaces and the claim. */
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
	if (lock_reap_left()) {
		pr_err("cleanup: %d claim(s) of ended runs stay: what the lines above name could "
		       "not be undone", lock_reap_left());
		return EXIT_ERR;
	}
	printf("removed %d test bed namespace(s)\n", n);
	return EXIT_OK;
}
