// SPDX-License-Identifier: GPL-2.0
/* The undo ledger of a run (see ledger.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"

void ledger_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

void ledger_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

int ledger_push(struct ledger *l, const char *what, undo_fn fn, void *arg)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct undo *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			sigset_t old;

			ledger_block(&old);
			fn(arg);
			ledger_unblock(&old);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = (struct undo){ .what = what, .fn = fn, .arg = arg };
	return (int)l->n++;
}

size_t ledger_mark(const struct ledger *l)
{
	return l->n;
}

static int run(struct undo *u)
{
	if (u->done)
		return 0;
	u->done = true;
	return u->fn(u->arg);
}

/* left: the what of each undo that failed, ", " between them (NULL: not wanted) */
static int unwind(struct ledger *l, size_t mark, char *left, size_t len)
{
	sigset_t old;
	size_t n;
	int err, ret = 0;

	if (left && len)
		left[0] = '\0';
	ledger_block(&old);
	while (l->n > mark) {
		struct undo *u = &l->v[--l->n];

		err = run(u);
		ret = ret ? ret : err;
		if (err && left && len) {
			n = strlen(left);
			snprintf(left + n, len - n, "%s%s", n ? ", " : "", u->what);
		}
	}
	ledger_unblock(&old);
	return ret;
}

int ledger_unwind_to(struct ledger *l, size_t mark)
{
	return unwind(l, mark, NULL, 0);
}

int ledger_unwind_left(struct ledger *l, char *left, size_t len)
{
	int ret = unwind(l, 0, left, len);

	ledger_abandon(l);
	return ret;
}

int ledger_unwind(struct ledger *l)
{
	return ledger_unwind_left(l, NULL, 0);
}

int ledger_run_one(struct ledger *l, int id)
{
	sigset_t old;
	int err;

	if (id < 0 || (size_t)id >= l->n)
		return 0;
	ledger_block(&old);
	err = run(&l->v[id]);
	ledger_unblock(&old);
	return err;
}

void ledger_abandon(struct ledger *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

void ledger_forget(struct ledger *l, int id)
{
	if (id >= 0 && (size_t)id < l->n)
		l->v[id].done = true;
}
