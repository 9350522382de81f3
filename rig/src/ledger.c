// SPDX-License-Identifier: GPL-2.0
/* The undo ledger of a run (see ledger.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

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

int ledger_unwind_to(struct ledger *l, size_t mark)
{
	sigset_t old;
	int err, ret = 0;

	ledger_block(&old);
	while (l->n > mark) {
		err = run(&l->v[--l->n]);
		ret = ret ? ret : err;
	}
	ledger_unblock(&old);
	return ret;
}

int ledger_unwind(struct ledger *l)
{
	int ret = ledger_unwind_to(l, 0);

	ledger_abandon(l);
	return ret;
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
