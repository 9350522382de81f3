// SPDX-License-Identifier: GPL-2.0
/* `brnf cleanup`: remove every test bed whose owner has ended; name the AP
 * restore scripts that runs killed over ssh left behind (those are not run
 * here: brnf cannot know the AP is reachable or still as the run left it). */
#include <stdio.h>

#include "apctl.h"
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
	ap_restore_scripts_left();
	lock_release();
	if (n < 0) {
		pr_err("cleanup failed");
		return EXIT_ERR;
	}
	printf("removed %d test bed namespace(s)\n", n);
	return EXIT_OK;
}
