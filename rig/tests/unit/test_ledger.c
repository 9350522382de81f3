// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the undo ledger (rig/src/ledger.c). */
#include "unit.h"

#include <signal.h>

#include "ledger.h"

static char trace[64];
static int blocked_seen;

static void note(char c)
{
	size_t n = strlen(trace);

	trace[n] = c;
	trace[n + 1] = '\0';
}

/* arg: the letter to note; records whether SIGINT was blocked while it ran */
static int undo_note(void *arg)
{
	sigset_t cur;

	note(*(char *)arg);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	if (sigismember(&cur, SIGINT) && sigismember(&cur, SIGTERM) && sigismember(&cur, SIGHUP))
		blocked_seen++;
	return 0;
}

static int undo_fail(void *arg)
{
	note(*(char *)arg);
	return -EIO;
}

static void test_reverse_order(void **state)
{
	struct ledger l = { 0 };
	char a = 'a', b = 'b', c = 'c';

	(void)state;
	trace[0] = '\0';
	blocked_seen = 0;
	assert_int_equal(ledger_push(&l, "a", undo_note, &a), 0);
	assert_int_equal(ledger_push(&l, "b", undo_note, &b), 1);
	assert_int_equal(ledger_push(&l, "c", undo_note, &c), 2);
	assert_int_equal(ledger_unwind(&l), 0);
	assert_string_equal(trace, "cba");
	assert_int_equal(blocked_seen, 3);
	assert_null(l.v);
	/* nothing twice */
	assert_int_equal(ledger_unwind(&l), 0);
	assert_string_equal(trace, "cba");
}

static void test_signals_restored(void **state)
{
	struct ledger l = { 0 };
	sigset_t cur;
	char a = 'a';

	(void)state;
	trace[0] = '\0';
	ledger_push(&l, "a", undo_note, &a);
	ledger_unwind(&l);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	assert_false(sigismember(&cur, SIGINT));
	assert_false(sigismember(&cur, SIGTERM));
}

/* a failed undo does not stop the others; the first error is returned */
static void test_error_goes_on(void **state)
{
	struct ledger l = { 0 };
	char a = 'a', b = 'b', c = 'c';

	(void)state;
	trace[0] = '\0';
	ledger_push(&l, "a", undo_note, &a);
	ledger_push(&l, "b", undo_fail, &b);
	ledger_push(&l, "c", undo_note, &c);
	assert_int_equal(ledger_unwind(&l), -EIO);
	assert_string_equal(trace, "cba");
}

/* what the failed undos leave behind is named, in the order they ran, and only that */
static void test_left_named(void **state)
{
	struct ledger l = { 0 };
	char a = 'a', b = 'b', c = 'c', left[64] = "stale";

	(void)state;
	trace[0] = '\0';
	ledger_push(&l, "brnf1-ap", undo_fail, &a);
	ledger_push(&l, "brnf1-sta", undo_note, &b);
	ledger_push(&l, "brnf1-pc", undo_fail, &c);
	assert_int_equal(ledger_unwind_left(&l, left, sizeof(left)), -EIO);
	assert_string_equal(trace, "cba");
	assert_string_equal(left, "brnf1-pc, brnf1-ap");
	assert_null(l.v);
	/* none failed: nothing named; a short buffer is cut, never overrun */
	ledger_push(&l, "brnf1-ap", undo_note, &a);
	assert_int_equal(ledger_unwind_left(&l, left, sizeof(left)), 0);
	assert_string_equal(left, "");
	ledger_push(&l, "brnf1-ap", undo_fail, &a);
	ledger_push(&l, "brnf1-pc", undo_fail, &c);
	assert_int_equal(ledger_unwind_left(&l, left, 12), -EIO);
	assert_string_equal(left, "brnf1-pc, b");
}

/* run one early, forget one, unwind part of it */
static void test_run_one_forget_mark(void **state)
{
	struct ledger l = { 0 };
	char a = 'a', b = 'b', c = 'c', d = 'd';
	size_t mark;
	int ib, ic;

	(void)state;
	trace[0] = '\0';
	ledger_push(&l, "a", undo_note, &a);
	mark = ledger_mark(&l);
	ib = ledger_push(&l, "b", undo_note, &b);
	ic = ledger_push(&l, "c", undo_note, &c);
	assert_int_equal(ledger_run_one(&l, ic), 0);
	assert_string_equal(trace, "c");
	assert_int_equal(ledger_unwind_to(&l, mark), 0);
	assert_string_equal(trace, "cb");
	assert_int_equal(ledger_mark(&l), 1);
	ib = ledger_push(&l, "d", undo_note, &d);
	ledger_forget(&l, ib);
	assert_int_equal(ledger_unwind(&l), 0);
	assert_string_equal(trace, "cba");
}

/* many entries: the array grows */
static void test_many(void **state)
{
	struct ledger l = { 0 };
	char a = 'a';
	int i;

	(void)state;
	trace[0] = '\0';
	blocked_seen = 0;
	for (i = 0; i < 40; i++)
		assert_int_equal(ledger_push(&l, "a", undo_note, &a), i);
	ledger_unwind_to(&l, 20);
	assert_int_equal(blocked_seen, 20);
	ledger_unwind(&l);
	assert_int_equal(blocked_seen, 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reverse_order),
		cmocka_unit_test(test_signals_restored),
		cmocka_unit_test(test_error_goes_on),
		cmocka_unit_test(test_left_named),
		cmocka_unit_test(test_run_one_forget_mark),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
