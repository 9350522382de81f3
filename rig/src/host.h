/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transports: run a command on a role of the rig. netns: fork, setns, exec
 * (proc.c); local: fork, exec where brnf runs; ssh: the OpenSSH client with
 * one shared connection per host (ControlMaster=auto, ControlPath in a private
 * directory, ControlPersist), BatchMode, ConnectTimeout, the user's own ssh
 * configuration, keys and agent, plus -p/-i/-F from the rig file. The command
 * reaches the remote shell as one string of single-quoted words, so what runs
 * there is plain POSIX sh (busybox ash is enough).
 */
#ifndef BRNF_HOST_H
#define BRNF_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "rigfile.h"

struct host {
	const struct rig_role *role;
	enum rig_transport transport;
	char ns[64];		/* netns: the namespace */
	char what[200];		/* "ap (ssh root@192.168.1.1)" for messages */
};

/* Fill h for role r; ns is the namespace of a netns role (NULL: r->netns). */
void host_init(struct host *h, const struct rig_role *r, const char *ns);
/* Start argv on h; stdin/stdout/stderr from the fds (-1: /dev/null). pid or -errno. */
pid_t host_spawn(const struct host *h, char *const argv[], int in_fd, int out_fd, int err_fd);
/* Run argv on h with in on stdin (NULL: none), collect stdout/stderr (malloc'd).
 * Returns the exit status (255 for ssh: no connection), or -errno. */
int host_run(const struct host *h, char *const argv[], const char *in, size_t inlen,
	     char **out, char **err, double timeout);
/* Run a POSIX sh script on h (sh -c SCRIPT). */
int host_sh(const struct host *h, const char *script, const char *in, size_t inlen,
	    char **out, char **err, double timeout);
/* Does this exit status (with stderr) mean ssh itself failed? One line names the host. */
bool host_failed(const struct host *h, int status, const char *err);
/*
 * Run argv on h (in on stdin when not NULL), stdout in *out (out may be NULL), and
 * report: 0, or -errno after one line "<host>: <what>: <why>", why being ssh's
 * error, "cannot run <argv[0]>" (with pkg, the package that has it), or the
 * first line of the command's stderr that says "error" (else its first line).
 */
int host_cmd(const struct host *h, const char *what, const char *pkg, char *const argv[],
	     const char *in, size_t inlen, char **out);
/* The same with a timeout of its own (seconds) instead of host_cmd()'s 30. */
int host_cmd_timeout(const struct host *h, const char *what, const char *pkg,
		     char *const argv[], const char *in, size_t inlen, char **out,
		     double timeout);
/* The same for a POSIX sh script (sh -c SCRIPT). */
int host_cmd_sh(const struct host *h, const char *what, const char *script, const char *in,
		size_t inlen, char **out);
/* Journal (journal.h) a POSIX sh script to run on h if brnf ends before it undid a
 * step there itself. Returns the entry's id (> 0; 0 without a journal) or -errno after
 * one line. */
int host_journal_sh(const struct host *h, const char *script);
/* End the shared connection (ssh -O exit) of h. */
void host_close(const struct host *h);
/* The private directory of the control sockets: made on first use, removed here. */
void hosts_cleanup(void);

#endif
