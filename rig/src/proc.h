/* SPDX-License-Identifier: GPL-2.0 */
/* Child processes (iperf3, nft, iptables) run inside a brnf namespace. */
#ifndef BRNF_PROC_H
#define BRNF_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Children brnf knows at once (to end them on a signal); one more is not started. */
#define PROC_MAX_CHILDREN 256

/*
 * fork; the child, in a process group of its own with no signal blocked, dies with
 * us (PR_SET_PDEATHSIG), enters namespace ns (NULL: stay; with /sys of ns,
 * netns_enter_child()), gets stdout/stderr from out_fd/err_fd (-1: /dev/null) and execs argv.
 * The pid is remembered until proc_wait() reaps it. Returns pid or -errno: -EMFILE,
 * with one line, when PROC_MAX_CHILDREN are known already (that child is ended).
 */
pid_t proc_spawn(const char *ns, char *const argv[], int out_fd, int err_fd);
/* Same with stdin from in_fd (-1: /dev/null). */
pid_t proc_spawn_io(const char *ns, char *const argv[], int in_fd, int out_fd, int err_fd);
/*
 * Wait for pid up to timeout seconds (< 0: no limit). Returns the exit status
 * (0..255, 128+sig when killed), -ETIMEDOUT, or -EINTR when brnf_stop is set and
 * the stop signals are not blocked (ledger_block(): an unwind or a restore).
 * The child is still running after -ETIMEDOUT/-EINTR.
 */
int proc_wait(pid_t pid, double timeout);
/*
 * Sleep until one of pids[0..n) (at most PROC_SLEEP_MAX, children not yet reaped)
 * exits, a stop signal comes (not while they are blocked: an unwind), or timeout
 * seconds (< 0: none) pass: a pidfd per child and ppoll(), no periodic wakeup (as
 * PID 1 every 100 ms, to reap orphans). The callers look again at what they wait for.
 */
#define PROC_SLEEP_MAX 64
void proc_sleep(const pid_t *pids, unsigned int n, double timeout);
/* Is pid still running (not yet reaped)? */
int proc_poll(pid_t pid, int *status);
/* Run argv in ns and collect stdout/stderr (malloc'd, NUL-terminated; NULL ok). */
int proc_run(const char *ns, char *const argv[], char **out, char **err, double timeout);
/* Same with in[0..inlen) on stdin (in == NULL: /dev/null). */
int proc_run_in(const char *ns, char *const argv[], const char *in, size_t inlen,
		char **out, char **err, double timeout);
/* SIGTERM, then SIGKILL, to the process group of every child still known (each leads
 * one: what it started ends too); reap them. */
void proc_kill_all(void);
/*
 * Child pid (not reaped: its number is brnf's pid namespace's) as /proc names it, which
 * may be another pid namespace's (the host's, where brnf runs under unshare -fp
 * without --mount-proc): the "Pid:" a pidfd's fdinfo shows, in the pid namespace of
 * the /proc it is read from. -1 when /proc shows it under none.
 */
pid_t proc_pid_in_proc(pid_t pid);
/* State ('R', 'S', 'Z' ...) and parent of pid, from /proc/<pid>/stat: 0 or -errno. */
int proc_stat(pid_t pid, char *state, pid_t *ppid);
/* First line of s that starts with "Error" (or the first line) into buf. */
void proc_first_error(const char *s, char *buf, size_t len);

#endif
