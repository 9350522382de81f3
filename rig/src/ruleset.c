// SPDX-License-Identifier: GPL-2.0
/* Firewall rulesets: files under rig/rulesets, loaded with nft inside the AP. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
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
	const struct brnf_ruleset *rs;

	for (rs = brnf_rulesets; rs->name && strcmp(rs->name, file); rs++)
		;
	if (rs->name && rs->flowtable)
		return "flowtables need CONFIG_NF_FLOW_TABLE and CONFIG_NF_FLOW_TABLE_INET";
	if (rs->name && (rs->bridge[0] || rs->bridge[1]))
		return "ct in the bridge family needs CONFIG_NF_CONNTRACK_BRIDGE, meta ibrname "
		       "CONFIG_NFT_BRIDGE_META";
	return "a missing feature?";
}

/* One file of the ruleset into h (after the flush). */
static int load_file(const struct host *h, const char *name, const char *file)
{
	char path[512], what[1100], *text = NULL;
	char *load[] = { "nft", "-f", path, NULL };
	size_t len = 0;
	int err;

	err = ruleset_path(file, path, sizeof(path));
	if (err)
		return err;
	if (h->transport != RIG_NETNS) {
		err = read_file(path, &text, &len);
		if (err) {
			pr_err("ruleset %s: read %s: %s", name, path, strerror(-err));
			return err;
		}
		load[2] = "/proc/self/fd/0";
	}
	snprintf(what, sizeof(what), "ruleset %s (%s) does not load on this kernel (%s)", name,
		 path, needs(file));
	err = host_cmd(h, what, "nftables", load, text, len, NULL);
	free(text);
	return err;
}

int ruleset_load(const struct host *h, const char *name)
{
	char *flush[] = { "nft", "flush", "ruleset", NULL };
	const char *files[BRNF_MAX_RULESETS];
	char what[300];
	int n, i, err;

	n = ruleset_files(name, files);
	if (n < 0)
		return -EINVAL;
	snprintf(what, sizeof(what), "ruleset %s: nft flush ruleset", name);
	err = host_cmd(h, what, "nftables", flush, NULL, 0, NULL);
	for (i = 0; i < n && !err; i++)
		err = load_file(h, name, files[i]);
	return err;
}
