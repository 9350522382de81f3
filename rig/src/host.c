// SPDX-License-Identifier: GPL-2.0
/* Transports: netns, local, ssh (see host.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "journal.h"
#include "proc.h"
#include "util.h"

#define SSH_MAX_ARGS 40

static char ctl_dir[64];

static int ssh_argv(const struct host *h, const char *const extra[], char *const argv[],
		    char *ctl, size_t ctllen, char *port, char **cmd, char **out);

static int ctl_journal;		/* the directory's journal entry (journal.h) */
static bool ssh_reached;

static int ctl_dir_make(void)
{
	int id;

	if (ctl_dir[0])
		return 0;
	/* its masters outlive a SIGKILLed brnf (ControlPersist): the journal ends them */
	id = journal_mkdtemp(ctl_dir, sizeof(ctl_dir), "/tmp/brnf-ssh.", "ssh");
	if (id < 0) {
		ctl_dir[0] = '\0';
		return id;
	}
	ctl_journal = id;
	return 0;
}

void hosts_cleanup(void)
{
	if (ctl_dir[0] && rm_rf(ctl_dir))
		return;		/* the entry stays: the next replay removes it */
	ctl_dir[0] = '\0';
	journal_drop(ctl_journal);
	ctl_journal = 0;
}

/* One "arg WORD" line of a journal entry; a word with a newline cannot be one. */
static int journal_arg(FILE *m, const char *w)
{
	if (strchr(w, '\n'))
		return -EINVAL;
	fprintf(m, "arg %s\n", w);
	return 0;
}

int host_journal_sh(const struct host *h, const char *script)
{
	char *buf = NULL, port[16];
	size_t len = 0;
	int err = 0;
	FILE *m;

	m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	switch (h->transport) {
	case RIG_NETNS:
		fprintf(m, "host netns %s\n", h->ns);
		break;
	case RIG_LOCAL: {
		char self[64];

		err = netns_self_id(self, sizeof(self));
		fprintf(m, "host local\nnetns-self %s\n", self);
		break;
	}
	case RIG_SSH: {
		/* ssh as host_run() calls it, without a control master */
		char *sh[] = { "sh", NULL }, *cmd, *sargv[SSH_MAX_ARGS];
		unsigned int i;

		fprintf(m, "host ssh\n");
		err = ssh_argv(h, NULL, sh, NULL, 0, port, &cmd, sargv);
		for (i = 0; !err && sargv[i]; i++)
			err = journal_arg(m, sargv[i]);
		if (!err)
			free(cmd);
		break;
	}
	}
	fprintf(m, "what %s\n--\n%s", h->what, script);
	if (fclose(m))
		err = err ?: -ENOMEM;
	if (err) {
		pr_err("%s: cannot journal a step's undo: %s", h->what, strerror(-err));
		free(buf);
		return err;
	}
	err = journal_add("sh", buf, len);
	free(buf);
	return err;
}

void host_init(struct host *h, const struct rig_role *r, const char *ns)
{
	memset(h, 0, sizeof(*h));
	h->role = r;
	h->transport = r->transport;
	snprintf(h->ns, sizeof(h->ns), "%s", ns ? ns : r->netns);
	switch (h->transport) {
	case RIG_NETNS:
		snprintf(h->what, sizeof(h->what), "%s (netns %s)", r->name, h->ns);
		break;
	case RIG_SSH:
		snprintf(h->what, sizeof(h->what), "%s (ssh %s%s%.0u)", r->name, r->dest,
			 r->port ? " port " : "", r->port);
		break;
	case RIG_LOCAL:
		snprintf(h->what, sizeof(h->what), "%s (local)", r->name);
		break;
	}
}

/* 'word' with every ' as '\'' : safe for any POSIX shell. */
static int quote_into(char **buf, size_t *len, size_t *cap, const char *w)
{
	size_t need = strlen(w) * 4 + 4;
	const char *p;

	if (*len + need >= *cap) {
		char *nb;

		*cap = (*len + need) * 2;
		nb = realloc(*buf, *cap);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
	}
	if (*len)
		(*buf)[(*len)++] = ' ';
	(*buf)[(*len)++] = '\'';
	for (p = w; *p; p++) {
		if (*p == '\'') {
			memcpy(*buf + *len, "'\\''", 4);
			*len += 4;
		} else {
			(*buf)[(*len)++] = *p;
		}
	}
	(*buf)[(*len)++] = '\'';
	(*buf)[*len] = '\0';
	return 0;
}

/* ssh argv for h running argv (*cmd is the malloc'd remote command string); with
 * ctl == NULL no control master, neither this run's nor one of the user's configuration
 * (a journal's replay, which outlives the run). */
static int ssh_argv(const struct host *h, const char *const extra[], char *const argv[],
		    char *ctl, size_t ctllen, char *port, char **cmd, char **out)
{
	const struct rig_role *r = h->role;
	size_t len = 0, cap = 0;
	unsigned int n = 0, i;
	int err;

	out[n++] = "ssh";
	out[n++] = "-o";
	out[n++] = "BatchMode=yes";
	if (ctl) {
		err = ctl_dir_make();
		if (err)
			return err;
		snprintf(ctl, ctllen, "ControlPath=%s/%%C", ctl_dir);
		out[n++] = "-o";
		out[n++] = "ControlMaster=auto";
		out[n++] = "-o";
		out[n++] = ctl;
		out[n++] = "-o";
		out[n++] = "ControlPersist=60";
	} else {
		out[n++] = "-o";
		out[n++] = "ControlMaster=no";
		out[n++] = "-o";
		out[n++] = "ControlPath=none";
	}
	out[n++] = "-o";
	out[n++] = "ConnectTimeout=10";
	out[n++] = "-o";
	out[n++] = "ServerAliveInterval=10";
	out[n++] = "-T";
	if (r->config[0]) {
		out[n++] = "-F";
		out[n++] = (char *)r->config;
	}
	if (r->identity[0]) {
		out[n++] = "-i";
		out[n++] = (char *)r->identity;
	}
	if (r->port) {
		snprintf(port, 16, "%u", r->port);
		out[n++] = "-p";
		out[n++] = port;
	}
	for (i = 0; extra && extra[i]; i++)
		out[n++] = (char *)extra[i];
	out[n++] = "--";
	out[n++] = (char *)r->dest;
	*cmd = NULL;
	for (i = 0; argv && argv[i]; i++) {
		err = quote_into(cmd, &len, &cap, argv[i]);
		if (err) {
			free(*cmd);
			return err;
		}
	}
	if (*cmd)
		out[n++] = *cmd;
	out[n] = NULL;
	return 0;
}

pid_t host_spawn(const struct host *h, char *const argv[], int in_fd, int out_fd, int err_fd)
{
	char ctl[128], port[16], *cmd, *sargv[SSH_MAX_ARGS];
	pid_t pid;
	int err;

	switch (h->transport) {
	case RIG_NETNS:
		return proc_spawn_io(h->ns, argv, in_fd, out_fd, err_fd);
	case RIG_LOCAL:
		return proc_spawn_io(NULL, argv, in_fd, out_fd, err_fd);
	case RIG_SSH:
		break;
	}
	err = ssh_argv(h, NULL, argv, ctl, sizeof(ctl), port, &cmd, sargv);
	if (err)
		return err;
	pid = proc_spawn_io(NULL, sargv, in_fd, out_fd, err_fd);
	free(cmd);
	return pid;
}

int host_run(const struct host *h, char *const argv[], const char *in, size_t inlen,
	     char **out, char **err, double timeout)
{
	char ctl[128], port[16], *cmd, *sargv[SSH_MAX_ARGS];
	int ret;

	switch (h->transport) {
	case RIG_NETNS:
		return proc_run_in(h->ns, argv, in, inlen, out, err, timeout);
	case RIG_LOCAL:
		return proc_run_in(NULL, argv, in, inlen, out, err, timeout);
	case RIG_SSH:
		break;
	}
	ret = ssh_argv(h, NULL, argv, ctl, sizeof(ctl), port, &cmd, sargv);
	if (ret)
		return ret;
	ret = proc_run_in(NULL, sargv, in, inlen, out, err, timeout);
	free(cmd);
	if (!ret && !ssh_reached) {
		ssh_reached = true;	/* a master runs now */
		journal_fault("ssh");
	}
	return ret;
}

int host_sh(const struct host *h, const char *script, const char *in, size_t inlen,
	    char **out, char **err, double timeout)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };

	return host_run(h, argv, in, inlen, out, err, timeout);
}

bool host_failed(const struct host *h, int status, const char *err)
{
	char line[300];

	if (status < 0) {
		pr_err("%s: %s", h->what, strerror(-status));
		return true;
	}
	if (h->transport == RIG_SSH && status == 255) {
		proc_first_error(err, line, sizeof(line));
		pr_err("%s: ssh failed: %s", h->what, line[0] ? line : "exit status 255");
		return true;
	}
	return false;
}

#define HOST_CMD_TIMEOUT 30

int host_cmd(const struct host *h, const char *what, const char *pkg, char *const argv[],
	     const char *in, size_t inlen, char **out)
{
	return host_cmd_timeout(h, what, pkg, argv, in, inlen, out, HOST_CMD_TIMEOUT);
}

int host_cmd_timeout(const struct host *h, const char *what, const char *pkg,
		     char *const argv[], const char *in, size_t inlen, char **out,
		     double timeout)
{
	char *err = NULL, line[300];
	int ret;

	ret = host_run(h, argv, in, inlen, out, &err, timeout);
	if (host_failed(h, ret, err)) {
		ret = ret < 0 ? ret : -EIO;
	} else if (ret == 127) {
		proc_first_error(err, line, sizeof(line));
		pr_err("%s: %s: cannot run %s%s%s%s%s%s", h->what, what, argv[0],
		       pkg ? " (is the " : "", pkg ? pkg : "", pkg ? " package installed?)" : "",
		       line[0] ? ": " : "", line);
		ret = -ENOENT;
	} else if (ret) {
		proc_first_error(err, line, sizeof(line));
		if (line[0])
			pr_err("%s: %s: %s", h->what, what, line);
		else
			pr_err("%s: %s: exit status %d", h->what, what, ret);
		ret = -EIO;
	}
	free(err);
	if (ret && out) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

int host_cmd_sh(const struct host *h, const char *what, const char *script, const char *in,
		size_t inlen, char **out)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };

	return host_cmd(h, what, NULL, argv, in, inlen, out);
}

void host_close(const struct host *h)
{
	static const char *const exit_args[] = { "-O", "exit", NULL };
	char ctl[128], port[16], *cmd, *sargv[SSH_MAX_ARGS];

	if (h->transport != RIG_SSH || !ctl_dir[0])
		return;
	if (ssh_argv(h, exit_args, NULL, ctl, sizeof(ctl), port, &cmd, sargv))
		return;
	proc_run(NULL, sargv, NULL, NULL, 10);
	free(cmd);
}
