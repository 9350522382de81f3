/* SPDX-License-Identifier: GPL-2.0 */
/* One run at a time (/run/brnf/lock) and test beds left by dead runs. */
#ifndef BRNF_LOCK_H
#define BRNF_LOCK_H

#include <stdbool.h>
#include "netns.h"

#define BRNF_RUN_DIR "/run/brnf"

/* Take /run/brnf/lock (flock) and write our pid in it; a second concurrent
 * run gets one line naming the holder and -EBUSY. */
int lock_take(void);
void lock_release(void);
/*
 * A claim: /run/brnf/<prefix>.claim, created O_EXCL and held with flock() for the
 * owner's life (so an owner is alive exactly while its claim is locked, whatever
 * pid namespace it runs in), naming the owner's pid and each namespace it made
 * with the device and inode it was made as ("<name> <dev> <ino>"), or "<name> -"
 * while it is being made (its file was created O_EXCL by the owner).
 */
#define CLAIM_MAX_NS 8
struct claim {
	char prefix[32];		/* brnf<n> (lock_claim()) */
	int fd;				/* -1: no claim */
	bool keep;
	unsigned int n;
	struct {
		char name[48];
		bool made;		/* id known */
		struct netns_id id;
	} ns[CLAIM_MAX_NS];
};
/* Claim a new, unused prefix: brnf<n>, the lowest n that no claim and no journal
 * (journal.h) has, so that no name depends on a pid (two runs that are both PID 1 in
 * their own pid namespaces never share one), and open its journal. keep: survives our
 * exit (`brnf testbed up`) until `testbed down` or `brnf cleanup`. 0 or -errno after
 * one line. */
#define CLAIM_MAX_NUM 1000
int lock_claim(struct claim *c, bool keep);
/* The same under another base than brnf (brnf-storm's brnfstorm<n>). */
int lock_claim_as(struct claim *c, const char *base, bool keep);
/* Record namespace name as being made (id NULL) or made as id. 0 or -errno. */
int lock_claim_ns(struct claim *c, const char *name, const struct netns_id *id);
/* Name no longer ours (deleted). */
void lock_claim_ns_gone(struct claim *c, const char *name);
/* Remove the claim when it names no namespace any more, and let it go. */
void lock_unclaim(struct claim *c);
/* Remove a kept test bed: its namespaces (as the claim names them) and the claim.
 * Returns how many namespaces were removed, -EBUSY when its owner is alive. */
int lock_remove_kept(const char *prefix);
/*
 * Remove the namespaces of claims whose owner pid is dead (kept ones only when
 * with_kept), then the claims. Prints one line per namespace removed. Returns
 * the number removed or -errno.
 */
int lock_reap_stale(bool with_kept);
/* How many claims of ended owners the last lock_reap_stale() left because an entry
 * of their journal could not be replayed (each named in one line): an AP may still
 * carry a run's settings. */
int lock_reap_left(void);

#endif
