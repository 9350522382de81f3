// SPDX-License-Identifier: GPL-2.0
/* Firewall rulesets: files under rig/rulesets, loaded with nft inside the AP. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int ruleset_load(const struct host *h, const char *name)
{
	char path[512], what[900], *text = NULL;
	char *flush[] = { "nft", "flush", "ruleset", NULL };
	char *load[] = { "nft", "-f", path, NULL };
	size_t len = 0;
	int err;

	err = ruleset_path(name, path, sizeof(path));
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
	snprintf(what, sizeof(what), "ruleset %s: nft flush ruleset", name);
	err = host_cmd(h, what, "nftables", flush, NULL, 0, NULL);
	if (err)
		goto out_free;
	snprintf(what, sizeof(what),
		 "ruleset %s (%s) does not load on this kernel (%s)", name, path,
		 strstr(name, "flowtable") ?
		 "flowtables need CONFIG_NF_FLOW_TABLE and CONFIG_NF_FLOW_TABLE_INET" :
		 "a missing feature?");
	err = host_cmd(h, what, "nftables", load, text, len, NULL);
out_free:
	free(text);
	return err;
}
