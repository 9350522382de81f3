// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf rig check FILE`: parse a rig file, print its roles canonically.
 * `brnf rig ping FILE [--repeat N] [--role NAME]`: run `true` N times on each
 * role through its transport and print the mean time per command (the
 * per-command cost of netns exec, local exec or an ssh round trip over the
 * shared connection; the first ssh command, which opens it, is timed apart).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "host.h"
#include "netns.h"
#include "proc.h"
#include "rigfile.h"
#include "util.h"

struct rig_cfg {
	unsigned long repeat;
	const char *role;
};

static int set_repeat(void *ctx, const char *v)
{
	return parse_uint(v, 1, 100000, &((struct rig_cfg *)ctx)->repeat);
}

static int set_role(void *ctx, const char *v)
{
	((struct rig_cfg *)ctx)->role = v;
	return 0;
}

const struct opt rig_opts[] = {
	{ "--repeat", "N", "ping: commands per role (default 100)", set_repeat },
	{ "--role", "NAME", "ping: only this role", set_role },
	{ NULL, NULL, NULL, NULL },
};

static int ping_role(const struct rig_role *role, unsigned long count)
{
	char *argv[] = { "true", NULL }, *err = NULL;
	struct host h;
	double t0, first, total;
	unsigned long i;
	int ret;

	host_init(&h, role, NULL);
	t0 = now_sec();
	ret = host_run(&h, argv, NULL, 0, NULL, &err, 30);
	first = now_sec() - t0;
	if (host_failed(&h, ret, err) || ret) {
		if (ret > 0 && ret != 255)
			pr_err("%s: `true` exited with %d", h.what, ret);
		free(err);
		return -EIO;
	}
	free(err);
	t0 = now_sec();
	for (i = 0; i < count && !brnf_stop; i++) {
		ret = host_run(&h, argv, NULL, 0, NULL, NULL, 30);
		if (ret) {
			pr_err("%s: command %lu of %lu failed (%d)", h.what, i + 1, count, ret);
			return -EIO;
		}
	}
	total = now_sec() - t0;
	printf("%-5s %-6s %lu x true: mean %.3f ms per command (first command %.1f ms)\n",
	       role->name, rig_transport_names[role->transport], count, total / count * 1e3,
	       first * 1e3);
	host_close(&h);
	return 0;
}

int cmd_rig(int argc, char **argv)
{
	struct rig_cfg c = { .repeat = 100 };
	char *pos[2], err[512], line[1200];
	struct rig *rig;
	unsigned int i;
	int n, ret = EXIT_OK;

	n = opts_parse(rig_opts, argc, argv, &c, pos, 2);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 2 || (strcmp(pos[0], "check") && strcmp(pos[0], "ping"))) {
		pr_err("usage: brnf rig check|ping FILE [--repeat N] [--role NAME]");
		return EXIT_USAGE;
	}
	if (!strcmp(pos[0], "ping")) {
		/* check only parses (any user); ping runs commands and can be stopped */
		if (netns_init()) {
			pr_err("cannot open /proc/self/ns/net");
			return EXIT_ERR;
		}
		signals_install();
	}
	rig = calloc(1, sizeof(*rig));
	if (!rig)
		return EXIT_ERR;
	if (rig_parse_file(pos[1], rig, err, sizeof(err))) {
		pr_err("%s", err);
		free(rig);
		return EXIT_ERR;
	}
	for (i = 0; i < rig->nroles; i++) {
		const struct rig_role *r = &rig->roles[i];

		if (!strcmp(pos[0], "check")) {
			rig_role_str(r, line, sizeof(line));
			printf("%s\n", line);
			continue;
		}
		if (c.role && strcmp(c.role, r->name))
			continue;
		if (r->transport == RIG_NETNS && !r->netns[0]) {
			printf("%-5s netns  (the test bed brnf builds; nothing to ping)\n", r->name);
			continue;
		}
		if (r->transport == RIG_NETNS && geteuid() != 0) {
			pr_err("role %s: transport=netns needs root (entering a namespace)",
			       r->name);
			ret = EXIT_ERR;
			continue;
		}
		if (ping_role(r, c.repeat))
			ret = EXIT_ERR;
	}
	if (!strcmp(pos[0], "check"))
		printf("# %s: %u roles, %s\n", pos[1], rig->nroles,
		       rig->testbed ? "the namespace test bed" : "reached as above");
	if (!strcmp(pos[0], "check") && rig_role(rig, "ap")->transport == RIG_LOCAL)
		printf("# ap is transport=local, this machine: brnf run replaces its nft ruleset "
		       "and iptables mangle table, and runs only with --local-ap\n");
	hosts_cleanup();
	free(rig);
	return ret;
}
