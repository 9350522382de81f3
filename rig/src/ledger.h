/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The undo ledger of a run: every step that changes something pushes how to undo
 * itself once it succeeded; one unwind runs the undos in reverse order, with the
 * stop signals (SIGINT, SIGTERM, SIGHUP) blocked, the same way on success, on an
 * error and after a signal. Only libc (unit tested, tests/unit/test_ledger.c).
 */
#ifndef BRNF_LEDGER_H
#define BRNF_LEDGER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* An undo: 0 or -errno (an error is reported by the undo itself, one line). */
typedef int (*undo_fn)(void *arg);

struct undo {
	const char *what;	/* for the debug trace: "delete namespace brnf12-ap" */
	undo_fn fn;
	void *arg;
	bool done;		/* run (or forgotten) already */
};

struct ledger {
	struct undo *v;
	size_t n, cap;
};

/* Record an undo. Returns its id (>= 0, for ledger_run_one() and ledger_forget()) or
 * -ENOMEM, in which case fn(arg) has been run right away: what the step did is undone,
 * and the caller fails the step. */
int ledger_push(struct ledger *l, const char *what, undo_fn fn, void *arg);
/* How many entries; ledger_unwind_to() undoes everything pushed after such a mark. */
size_t ledger_mark(const struct ledger *l);
/* Run the undos pushed after mark in reverse order (stop signals blocked), drop them.
 * Returns the first error. */
int ledger_unwind_to(struct ledger *l, size_t mark);
/* Everything, then free the ledger. */
int ledger_unwind(struct ledger *l);
/* The same; left[0..len) gets the what of every undo that failed, ", " between them
 * (what is left behind: the caller says so and fails), "" when none did. */
int ledger_unwind_left(struct ledger *l, char *left, size_t len);
/* Run one undo now (stop signals blocked): a step undone before the end, in the place
 * its undo would run anyway (the AP restored before provenance.json is written). */
int ledger_run_one(struct ledger *l, int id);
/* The step needs no undo any more (the results directory was committed). */
void ledger_forget(struct ledger *l, int id);
/* Let every undo go without running it (what was made is kept: `testbed up`). */
void ledger_abandon(struct ledger *l);
/* Block the stop signals for a section that must finish (nests: *old is restored by
 * ledger_unblock()). */
void ledger_block(sigset_t *old);
void ledger_unblock(const sigset_t *old);

#endif
