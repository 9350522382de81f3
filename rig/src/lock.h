/* SPDX-License-Identifier: GPL-2.0 */
/* One run at a time (/run/brnf/lock) and test beds left by dead runs. */
#ifndef BRNF_LOCK_H
#define BRNF_LOCK_H

#include <stdbool.h>

#define BRNF_RUN_DIR "/run/brnf"

/* Take /run/brnf/lock (flock) and write our pid in it; a second concurrent
 * run gets one line naming the holder and -EBUSY. */
int lock_take(void);
void lock_release(void);
/* Record that test bed <prefix> belongs to us; keep = survives our exit
 * (`brnf testbed up`) until `testbed down` or `brnf cleanup`. */
int lock_claim(const char *prefix, bool keep);
void lock_unclaim(const char *prefix);
/*
 * Remove test beds (namespaces /run/netns/brnf<pid>-*) whose owner pid is
 * dead. Kept ones only when with_kept. Prints one line per test bed removed.
 * Returns the number removed or -errno.
 */
int lock_reap_stale(bool with_kept);

#endif
