// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of child processes and the stop signals (rig/src/proc.c, util.c): a full
 * child table is an error, not a child brnf forgets; ending the children ends what
 * they started (their process groups); a stop signal does not cut short a read it
 * lands in (SA_RESTART).
 */
#include "unit.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
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

/*
 * A child that started a process of its own (a shell's command in the background) and
 * waits for it: proc_kill_all() ends both, the grandchild by the SIGTERM to the
 * child's process group. This process is a subreaper meanwhile, so that the
 * grandchild, orphaned, is its child and its end can be seen.
 */
static void test_kill_all_groups(void **state)
{
	char *argv[] = { "sh", "-c", "sleep 600 > /dev/null & echo $!; wait", NULL };
	char line[32] = "";
	int p[2], status, i;
	pid_t pid, grandchild, got = 0;
	FILE *f;

	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(p), 0);
	pid = proc_spawn(NULL, argv, p[1], -1);
	assert_true(pid > 0);
	close(p[1]);
	f = fdopen(p[0], "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	grandchild = atoi(line);
	assert_true(grandchild > 0);
	/* this /proc is our pid namespace's: it names the child as fork() did */
	assert_int_equal(proc_pid_in_proc(pid), pid);
	proc_kill_all();
	/* ended at once; not a test that hangs for 600 s when it is not */
	for (i = 0; i < 300 && !got; i++) {
		got = waitpid(grandchild, &status, WNOHANG);
		if (!got)
			usleep(10 * 1000);
	}
	if (!got) {
		kill(grandchild, SIGKILL);
		waitpid(grandchild, &status, 0);
	}
	assert_int_equal(got, grandchild);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
	assert_int_equal(children_alive(), 0);
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
		cmocka_unit_test(test_kill_all_groups),
		cmocka_unit_test(test_signals_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
