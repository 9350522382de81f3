// SPDX-License-Identifier: GPL-2.0
/*
 * dstate: a task in uninterruptible sleep, for qemu-run --watch (t_qemu.sh). The parent
 * of vfork() waits, in state D, until its child execs or exits; this child pauses.
 * Killing the child (or the process group) ends both.
 */
#include <unistd.h>

int main(void)
{
	if (vfork() == 0) {
		pause();
		_exit(0);
	}
	return 0;
}
