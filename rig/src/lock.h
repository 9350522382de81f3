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
/* Record that test bed <prefix> with namespaces ns[0..n) (each <prefix>-...)
 * belongs to us, before they are made; keep = survives our exit (`brnf testbed
 * up`) until `testbed down` or `brnf cleanup`. */
int lock_claim(const char *prefix, const char *const ns[], unsigned int n, bool keep);
void lock_unclaim(const char *prefix);
/*
 * Remove the namespaces of claims whose owner pid is dead (kept ones only when
 * with_kept), then the claims. Prints one line per namespace removed. Returns
 * the number removed or -errno.
 */
int lock_reap_stale(bool with_kept);

#endif
