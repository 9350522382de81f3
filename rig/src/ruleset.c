// SPDX-License-Identifier: GPL-2.0
/* Firewall rulesets: files under rig/rulesets, loaded with nft inside the AP. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "proc.h"
#include "ruleset.h"
#include "util.h"
#include "version.h"

int ruleset_path(const char *name, char *buf, size_t len)
{
	if (!*name || strchr(name, '/') ||
	    snprintf(buf, len, "%s/rulesets/%s.nft", brnf_datadir(), name) >= (int)len)
		return -EINVAL;
	if (!path_exists(buf)) {
		pr_err("ruleset %s: no file %s", name, buf);
		return -ENOENT;
	}
	return 0;
}

int ruleset_digest(const char *name, char hex[65])
{
	char path[512];
	int err;

	err = ruleset_path(name, path, sizeof(path));
	if (err)
		return err;
	err = sha256_file(path, hex);
	if (err)
		pr_err("ruleset %s: read %s: %s", name, path, strerror(-err));
	return err;
}

int ruleset_files(const char *name, const char *files[BRNF_MAX_RULESETS])
{
	char msg[256];
	int n;

	n = matrix_ruleset_parts(name, files, msg, sizeof(msg));
	if (n < 0)
		pr_err("%s", msg);
	return n;
}

/* What a file needs that a kernel may lack, for the message when it does not load. */
static const char *needs(const char *file)
{
	struct brnf_ruleset rs;

	ruleset_info(file, &rs);
	if (rs.flowtable)
		return "flowtables need CONFIG_NF_FLOW_TABLE and CONFIG_NF_FLOW_TABLE_INET";
	if (rs.bridge[0] || rs.bridge[1])
		return "ct in the bridge family needs CONFIG_NF_CONNTRACK_BRIDGE, meta ibrname "
		       "CONFIG_NFT_BRIDGE_META";
	return "a missing feature?";
}

/* The transaction: "flush ruleset", then each file; where each file starts in it. */
struct txn {
	char *text;
	size_t len;
	const char *file[BRNF_MAX_RULESETS];
	char path[BRNF_MAX_RULESETS][512];
	unsigned int first[BRNF_MAX_RULESETS];	/* its first line in text */
	int n;
};

static int txn_build(struct txn *t, const char *name)
{
	unsigned int line = 2;
	FILE *m;
	int i, err = 0;

	memset(t, 0, sizeof(*t));
	t->n = ruleset_files(name, t->file);
	if (t->n < 0)
		return -EINVAL;
	m = open_memstream(&t->text, &t->len);
	if (!m)
		return -errno;
	fputs("flush ruleset\n", m);
	for (i = 0; i < t->n && !err; i++) {
		char *buf = NULL;
		size_t len = 0, k;

		err = ruleset_path(t->file[i], t->path[i], sizeof(t->path[i]));
		if (!err) {
			err = read_file(t->path[i], &buf, &len);
			if (err)
				pr_err("ruleset %s: read %s: %s", name, t->path[i], strerror(-err));
		}
		if (err)
			break;
		t->first[i] = line;
		fwrite(buf, 1, len, m);
		if (len && buf[len - 1] != '\n')
			fputc('\n', m);
		for (k = 0; k < len; k++)
			line += buf[k] == '\n';
		line += len && buf[len - 1] != '\n';
		free(buf);
	}
	if (fclose(m) && !err)
		err = -EIO;
	if (err) {
		free(t->text);
		t->text = NULL;
	}
	return err;
}

/* nft's "/proc/self/fd/0:LINE:..." as the file's own "PATH:LINE:..."; which file. */
static int txn_where(const struct txn *t, const char *msg, char *buf, size_t len)
{
	static const char in[] = "/proc/self/fd/0:";
	unsigned int line;
	int i, n = 0;

	if (strncmp(msg, in, sizeof(in) - 1) ||
	    sscanf(msg + sizeof(in) - 1, "%u%n", &line, &n) != 1 || !n) {
		snprintf(buf, len, "%s", msg);
		return -1;
	}
	for (i = t->n - 1; i >= 0 && t->first[i] > line; i--)
		;
	if (i < 0) {
		snprintf(buf, len, "(flush ruleset)%s", msg + sizeof(in) - 1 + n);
		return -1;
	}
	snprintf(buf, len, "%s:%u%s", t->path[i], line - t->first[i] + 1,
		 msg + sizeof(in) - 1 + n);
	return i;
}

int ruleset_load(const struct host *h, const char *name)
{
	char *argv[] = { "nft", "-f", "/proc/self/fd/0", NULL };
	char *err = NULL, line[600], where[700];
	struct txn t;
	int ret, i;

	ret = txn_build(&t, name);
	if (ret)
		return ret;
	/* one transaction: the flush and every file, or nothing (the old ruleset stays) */
	ret = host_run(h, argv, t.text, t.len, NULL, &err, 30);
	if (host_failed(h, ret, err)) {
		ret = ret < 0 ? ret : -EIO;
	} else if (ret) {
		proc_first_error(err, line, sizeof(line));
		i = txn_where(&t, line, where, sizeof(where));
		pr_err("%s: ruleset %s (%s) does not load on this kernel (%s): %s", h->what, name,
		       t.path[i >= 0 ? i : 0], needs(i >= 0 ? t.file[i] : ""),
		       where[0] ? where : "nft failed");
		ret = -EIO;
	}
	free(err);
	free(t.text);
	return ret;
}
