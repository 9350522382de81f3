// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the journal's replay (rig/src/journal.c) on a directory of its own:
 * local "sh" entries (what runs on an AP over ssh runs here through sh), "dir" entries. */
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "util.h"

static char top[64], jdir[128], out[160];

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/brnf-unit-journal.XXXXXX");
	assert_non_null(mkdtemp(top));
	snprintf(jdir, sizeof(jdir), "%s/j", top);
	snprintf(out, sizeof(out), "%s/out", top);
	assert_int_equal(mkdir(jdir, 0700), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(top);
	return 0;
}

static void entry(const char *name, const char *text)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	assert_int_equal(file_write(path, text, strlen(text), 0600), 0);
}

static void sh_entry(const char *name, const char *script)
{
	char text[600];

	snprintf(text, sizeof(text), "host local\nwhat here\n--\n%s\n", script);
	entry(name, text);
}

static bool in_dir(const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	return path_exists(path);
}

/* newest first (by number, not by name: 10 after 9), then the directory goes */
static void test_newest_first(void **state)
{
	char script[300], *s;
	unsigned int i;

	(void)state;
	for (i = 1; i <= 10; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u.sh", i);
		snprintf(script, sizeof(script), "echo %u >> '%s'", i, out);
		sh_entry(name, script);
	}
	assert_int_equal(journal_replay(jdir), 0);
	s = slurp(out, NULL);
	assert_string_equal(s, "10\n9\n8\n7\n6\n5\n4\n3\n2\n1\n");
	free(s);
	assert_false(path_exists(jdir));
}

/* an entry that fails stays (and the directory), the others are replayed */
static void test_failure_stays(void **state)
{
	char script[300], *s;

	(void)state;
	snprintf(script, sizeof(script), "echo 1 >> '%s'", out);
	sh_entry("1.sh", script);
	sh_entry("2.sh", "echo cannot >&2; exit 3");
	snprintf(script, sizeof(script), "echo 3 >> '%s'", out);
	sh_entry("3.sh", script);
	assert_int_equal(journal_replay(jdir), -EIO);
	s = slurp(out, NULL);
	assert_string_equal(s, "3\n1\n");
	free(s);
	assert_true(in_dir("2.sh"));
	assert_false(in_dir("1.sh"));
	assert_false(in_dir("3.sh"));
	/* fixed: the next replay takes it */
	sh_entry("2.sh", "exit 0");
	assert_int_equal(journal_replay(jdir), 0);
	assert_false(path_exists(jdir));
}

/* a directory of ours goes; a link where it was is never followed */
static void test_dir(void **state)
{
	char d[200], l[200], inner[260];

	(void)state;
	snprintf(d, sizeof(d), "%s/results.tmp.1", top);
	snprintf(inner, sizeof(inner), "%s/raw", d);
	assert_int_equal(mkdir_p(inner), 0);
	snprintf(l, sizeof(l), "%s/link", top);
	assert_int_equal(symlink(d, l), 0);
	entry("1.dir", l);
	entry("2.dir", "/nonexistent/brnf-unit");
	assert_int_equal(journal_replay(jdir), 0);
	assert_true(path_exists(inner));	/* not through the link */
	assert_int_equal(mkdir(jdir, 0700), 0);
	entry("1.dir", d);
	assert_int_equal(journal_replay(jdir), 0);
	assert_false(path_exists(d));
}

/* what brnf did not write is left as it is; a half-written entry (its owner killed
 * before the rename: the step was never taken) is dropped unreplayed */
static void test_foreign(void **state)
{
	char script[300];

	(void)state;
	entry("1.unknown", "x");
	entry("2.sh", "host local\nno separator\n");
	entry("3.sh", "host ssh\n--\nexit 0\n");	/* ssh without its command */
	snprintf(script, sizeof(script), "echo half >> '%s'", out);
	sh_entry(".4.sh", script);
	assert_int_equal(journal_replay(jdir), -EINVAL);
	assert_true(in_dir("1.unknown"));
	assert_true(in_dir("2.sh"));
	assert_true(in_dir("3.sh"));
	assert_false(in_dir(".4.sh"));
	assert_false(path_exists(out));
}

/* without the variable, or naming another step, nothing happens */
static void test_fault_off(void **state)
{
	(void)state;
	unsetenv("BRNF_FAULT_KILL");
	journal_fault("ap");
	setenv("BRNF_FAULT_KILL", "results", 1);
	journal_fault("ap");
	unsetenv("BRNF_FAULT_KILL");
	/* and no journal open: an entry is nothing, not an error */
	assert_int_equal(journal_add("dir", "x", 1), 0);
}

/* journal_mkdtemp(): a new directory of its own, mode 0700, under the prefix given */
static void test_mkdtemp(void **state)
{
	char pfx[128], a[160], b[160];
	struct stat st;

	(void)state;
	snprintf(pfx, sizeof(pfx), "%s/d.", top);
	assert_int_equal(journal_mkdtemp(a, sizeof(a), pfx, "dir"), 0);	/* no journal */
	assert_int_equal(journal_mkdtemp(b, sizeof(b), pfx, "dir"), 0);
	assert_int_equal(strncmp(a, pfx, strlen(pfx)), 0);
	assert_int_equal(strlen(a), strlen(pfx) + 6);
	assert_string_not_equal(a, b);
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_newest_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_stays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mkdtemp, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
