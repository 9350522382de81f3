// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of child processes and the stop signals (rig/src/proc.c, util.c): a full
 * child table is an error, not a child brnf forgets; a stop signal does not cut short
 * a read it lands in (SA_RESTART).
 */
#include "unit.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

#include "proc.h"
#include "util.h"

/* Our children still there (not reaped), from /proc (proc_stat()). */
static int children_alive(void)
{
	struct dirent *de;
	pid_t pid, ppid;
	int n = 0;
	char st;
	DIR *d = opendir("/proc");

	assert_non_null(d);
	while ((de = readdir(d))) {
		pid = atoi(de->d_name);
		n += pid > 0 && !proc_stat(pid, &st, &ppid) && ppid == getpid();
	}
	closedir(d);
	return n;
}

static void test_child_table_full(void **state)
{
	char *argv[] = { "sleep", "60", NULL };
	char err[256] = "";
	FILE *tmp = tmpfile();
	int i, saved;
	pid_t pid;

	(void)state;
	for (i = 0; i < PROC_MAX_CHILDREN; i++) {
		pid = proc_spawn(NULL, argv, -1, -1);
		assert_true(pid > 0);
	}
	assert_int_equal(children_alive(), PROC_MAX_CHILDREN);
	/* one more: an error with one line, and that child is not left running */
	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	pid = proc_spawn(NULL, argv, -1, -1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	assert_non_null(fgets(err, sizeof(err), tmp));
	assert_null(fgets(err + strlen(err), sizeof(err) - strlen(err), tmp));
	fclose(tmp);
	assert_int_equal(pid, -EMFILE);
	assert_string_equal(err, "brnf: sleep: more than 256 child processes at once\n");
	assert_int_equal(children_alive(), PROC_MAX_CHILDREN);
	/* every one it started is known, so a signal's unwind ends them all */
	proc_kill_all();
	assert_int_equal(children_alive(), 0);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	/* and the table is free again */
	pid = proc_spawn(NULL, argv, -1, -1);
	assert_true(pid > 0);
	proc_kill_all();
}

/* SIGINT, SIGTERM and SIGHUP as brnf catches them: a read they land in goes on */
static void test_signals_restart(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned int i;
	int p[2];
	pid_t child, me = getpid();
	char c = 0;
	ssize_t n;

	(void)state;
	signals_install();
	for (i = 0; i < 3; i++) {
		assert_int_equal(sigaction(sigs[i], NULL, &sa), 0);
		assert_true(sa.sa_flags & SA_RESTART);
		assert_true(sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
	}
	for (i = 0; i < 3; i++) {
		brnf_stop = 0;
		assert_int_equal(pipe(p), 0);
		child = fork();
		assert_true(child >= 0);
		if (child == 0) {
			/* the signal while the parent sits in read(), then the byte */
			usleep(100 * 1000);
			kill(me, sigs[i]);
			usleep(100 * 1000);
			(void)!write(p[1], "x", 1);
			_exit(0);
		}
		close(p[1]);
		n = read(p[0], &c, 1);
		assert_int_equal(n, 1);		/* without SA_RESTART: -1, EINTR */
		assert_int_equal(c, 'x');
		assert_int_equal(brnf_stop, sigs[i]);
		close(p[0]);
		assert_int_equal(waitpid(child, NULL, 0), child);
	}
	brnf_stop = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_child_table_full),
		cmocka_unit_test(test_signals_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
