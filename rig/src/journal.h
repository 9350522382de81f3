/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The persistent undo journal of a claim (lock.h): /run/brnf/<prefix>.journal/,
 * locked by the claim's flock, one file per undo whose step reaches beyond the claim's
 * namespaces, written and synced (then its name, then the directory synced) before the
 * step it undoes is taken:
 *
 *   <seq>.sh   run a POSIX sh script on a host: the AP's saved settings, a remote
 *              iperf3 server to end. Text: "host local" (with "netns-self DEV:INO",
 *              the network namespace brnf ran in), "host netns NAME" or "host ssh"
 *              with one "arg WORD" per word of the ssh command that runs sh there,
 *              "what TEXT" (the host, for messages), "--", the script; the script's
 *              exit status 0 means replayed.
 *   <seq>.dir  a local directory to remove: a temporary results directory, the
 *              storm's traffic directory. Text: its path.
 *   <seq>.ssh  the ssh control directory: each master told to exit, then removed.
 *
 * The owner removes an entry once it undid the step itself (or the step needs no undo
 * any more). The namespaces are in the claim itself, with their device and inode. A
 * claim whose owner is gone is replayed by the next run, brnf-storm and `brnf cleanup`
 * (lock_reap_stale()): its entries newest first, then its namespaces; what cannot be
 * replayed stays, named in one line, and so does the claim.
 */
#ifndef BRNF_JOURNAL_H
#define BRNF_JOURNAL_H

#include <stddef.h>

/* Make the journal directory dir (lock_claim()'s) and write to it from now on (one
 * per process). 0 or -errno after one line. */
int journal_open(const char *dir);
/* Stop writing to it (the claim's owner lets it go: lock_unclaim()). */
void journal_close(void);
/* Add an entry of kind ("sh", "dir", "ssh") with text; returns its id (> 0), 0 when no
 * journal is open, or -errno after one line naming the file. */
int journal_add(const char *kind, const char *text, size_t len);
/* "dir" and "ssh" entries: text is path (absolute: a replay may run elsewhere). */
int journal_add_path(const char *kind, const char *path);
/* A new directory PREFIX<6 random characters> (mode 0700) in path, journaled as kind
 * before it is made: its entry's id (0 without a journal), or -errno after one line. */
int journal_mkdtemp(char *path, size_t len, const char *prefix, const char *kind);
/* "DEV:INO" of this process's network namespace ("netns-self" of a "host local" entry,
 * whose replay runs only from that namespace). 0 or -errno. */
int netns_self_id(char *buf, size_t len);
/* The entry's file (for a message), "" when id names none. */
const char *journal_entry_path(int id, char *buf, size_t len);
/* The step is undone (or needs no undo): remove the entry. id <= 0: nothing. */
void journal_drop(int id);
/*
 * Fault injection for the kill tests: when BRNF_FAULT_KILL names point, a kind of
 * step ("claim", "ns", "ssh", "ap", "change", "remote", "results", "measured";
 * brnf-storm's "traffic"), the process kills itself with SIGKILL right there, after the step and
 * its journal entry. Harmless without the variable.
 */
void journal_fault(const char *point);
/* Replay the journal directory dir (its claim's lock held by the caller), newest entry
 * first; each that replays is removed, and dir with the last. 0, or -errno when an
 * entry stays (one line each). */
int journal_replay(const char *dir);
/* Remove the journal directory dir when it is empty (lock_unclaim()). */
void journal_remove(const char *dir);

#endif
