// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf testbed up|down|flags|show`: the test bed by hand, for debugging and
 * the integration tests. `up` keeps it after brnf exits until `down` (or
 * `brnf cleanup`); `down NAME` removes the one `up` printed NAME of, and the
 * subcommands without a name act on the newest kept one. `up` and `down` hold the
 * run lock, as a run does: neither changes a test bed while a run or the other
 * does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brflags.h"
#include "cmds.h"
#include "lock.h"
#include "netns.h"
#include "nl.h"
#include "opts.h"
#include "sysctl.h"
#include "testbed.h"
#include "util.h"

static int set_offloads(void *ctx, const char *v)
{
	bool *on = ctx;

	if (!strcmp(v, "on"))
		*on = true;
	else if (!strcmp(v, "off"))
		*on = false;
	else
		return -EINVAL;
	return 0;
}

const struct opt testbed_up_opts[] = {
	{ "--offloads", "on|off", "segmentation offloads on the veths (default off)",
	  set_offloads },
	{ NULL, NULL, NULL, NULL },
};

static int tb_up(int argc, char **argv)
{
	struct ledger undo = { 0 };
	char left[256];
	struct testbed tb;
	bool on = false;
	unsigned int r;
	int err;

	if (opts_parse(testbed_up_opts, argc, argv, &on, NULL, 0) < 0)
		return EXIT_USAGE;
	err = lock_take();
	if (err)
		return EXIT_ERR;
	lock_reap_stale(false);
	err = testbed_up(&tb, on, false, false, true, &undo);
	if (err && ledger_unwind_left(&undo, left, sizeof(left)))
		pr_err("left behind: %s", left);
	else if (!err)
		ledger_abandon(&undo);	/* kept until `testbed down` or `brnf cleanup` */
	lock_release();
	if (err)
		return EXIT_ERR;
	for (r = 0; r < TB_NROLES; r++)
		if (testbed_has(&tb, r))
			printf("%s %s\n", tb_role_names[r], tb.ns[r]);
	return EXIT_OK;
}

/* A kept test bed is one with <prefix>.keep beside its claim (lock_claim()). */
static bool is_kept(const char *prefix)
{
	char keep[300];

	snprintf(keep, sizeof(keep), BRNF_RUN_DIR "/%s.keep", prefix);
	return path_exists(keep);
}

/*
 * The prefix of a kept test bed from what `testbed up` printed: the prefix itself
 * (brnf<n>) or one of its namespaces (brnf<n>-ap). 0, or -EINVAL
 * with one line when name is no such word, -ENOENT when no kept test bed has it.
 */
static int kept_prefix(const char *name, char *prefix, size_t len)
{
	size_t n = strlen(NETNS_PREFIX), i;
	const char *dash = strchr(name, '-');
	unsigned int r;

	if (dash) {
		for (r = 0; r < TB_NROLES && strcmp(dash + 1, tb_role_names[r]); r++)
			;
		if (r == TB_NROLES)
			goto bad;
	}
	i = dash ? (size_t)(dash - name) : strlen(name);
	if (strncmp(name, NETNS_PREFIX, n) || i <= n || i >= len ||
	    strspn(name + n, "0123456789.") < i - n || name[n] == '.' || name[i - 1] == '.')
		goto bad;
	snprintf(prefix, len, "%.*s", (int)i, name);
	if (!is_kept(prefix)) {
		pr_err("testbed down: %s is no test bed that brnf testbed up keeps", prefix);
		return -ENOENT;
	}
	return 0;
bad:
	pr_err("testbed down: \"%s\" is no test bed name (brnf<n>, or a namespace of it as "
	       "testbed up printed: brnf<n>-ap)", name);
	return -EINVAL;
}

/* testbed down [NAME]: the kept test bed NAME, or the newest (none: exit 0); each
 * namespace only if it still is the one its claim names. Other kept test beds (another
 * user's, another test's) stay. */
static int tb_down(int argc, char **argv)
{
	char prefix[32];
	int err;

	if (argc > 1) {
		pr_err("usage: brnf testbed down [NAME]");
		return EXIT_USAGE;
	}
	err = argc ? kept_prefix(argv[0], prefix, sizeof(prefix)) : 0;
	if (err == -EINVAL)
		return EXIT_USAGE;
	if (err)
		return EXIT_ERR;
	if (lock_take())
		return EXIT_ERR;
	if (!argc && testbed_find_kept(prefix, sizeof(prefix))) {
		lock_release();
		return EXIT_OK;		/* none is up: nothing to do, as before */
	}
	err = lock_remove_kept(prefix);
	if (err >= 0 && is_kept(prefix))
		err = -EEXIST;		/* a namespace it names is still there */
	lock_release();
	if (err < 0) {
		pr_err("test bed %s: not removed%s", prefix,
		       err == -EBUSY ? " (its owner is running)" : "");
		return EXIT_ERR;
	}
	printf("removed %s\n", prefix);
	return EXIT_OK;
}

/* The newest kept test bed's AP, entered, with an rtnetlink socket there. */
static struct nl *kept_ap(void)
{
	struct testbed tb;
	char prefix[32];
	int err;

	if (testbed_find_kept(prefix, sizeof(prefix))) {
		pr_err("no test bed is up; run brnf testbed up first");
		return NULL;
	}
	testbed_names(&tb, prefix);
	return nl_enter(tb.ns[TB_AP], &err);
}

/* "iptables=1" -> family, value */
static int parse_assign(const char *s, int *fam, bool *v)
{
	char name[32];
	const char *eq = strchr(s, '=');

	if (!eq || eq - s >= (int)sizeof(name))
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - s), s);
	*fam = brflags_family(name);
	if (*fam < 0 || (strcmp(eq + 1, "0") && strcmp(eq + 1, "1")))
		return -EINVAL;
	*v = eq[1] == '1';
	return 0;
}

/* testbed flags <br-lan|br-wlan|global> FAMILY=0|1 ... */
static int tb_flags(int argc, char **argv)
{
	bool glob[BRNF_NFAMILIES], v;
	struct nl *nl;
	int i, fam, err = 0;

	if (argc < 2) {
		pr_err("usage: brnf testbed flags BRIDGE|global FAMILY=0|1 ...");
		return EXIT_USAGE;
	}
	for (i = 1; i < argc; i++)
		if (parse_assign(argv[i], &fam, &v)) {
			pr_err("\"%s\" is wrong: want iptables|ip6tables|arptables=0|1", argv[i]);
			return EXIT_USAGE;
		}
	nl = kept_ap();
	if (!nl)
		return EXIT_ERR;
	if (!strcmp(argv[0], "global"))
		err = brflags_global_get(glob);
	for (i = 1; i < argc && !err; i++) {
		parse_assign(argv[i], &fam, &v);
		if (!strcmp(argv[0], "global"))
			glob[fam] = v;
		else
			err = brflags_set_one(nl, argv[0], fam, v);
	}
	if (!err && !strcmp(argv[0], "global"))
		err = brflags_global_set(glob);
	nl_leave(nl);
	return err ? EXIT_ERR : EXIT_OK;
}

/* testbed show: global sysctls and per-bridge flags read back over rtnetlink. */
static int tb_show(int argc, char **argv)
{
	bool v[BRNF_NFAMILIES];
	struct nl *nl;
	unsigned int b;
	int err;

	(void)argc;
	(void)argv;
	nl = kept_ap();
	if (!nl)
		return EXIT_ERR;
	err = brflags_global_get(v);
	if (!err)
		printf("global %d %d %d\n", v[0], v[1], v[2]);
	for (b = 0; b < BRNF_NBRIDGES && !err; b++) {
		err = brflags_get(nl, brnf_bridge_names[b], v);
		if (err == -EOPNOTSUPP)
			pr_err("kernel does not report nf_call_* of %s", brnf_bridge_names[b]);
		if (!err)
			printf("%s %d %d %d\n", brnf_bridge_names[b], v[0], v[1], v[2]);
	}
	nl_leave(nl);
	return err ? EXIT_ERR : EXIT_OK;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} subs[] = {
	{ "up", tb_up },
	{ "down", tb_down },
	{ "flags", tb_flags },
	{ "show", tb_show },
};

int cmd_testbed(int argc, char **argv)
{
	unsigned int i;

	if (argc < 1) {
		pr_err("usage: brnf testbed up|down|flags|show");
		return EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[0], subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	pr_err("testbed \"%s\" is unknown, try brnf help", argv[0]);
	return EXIT_USAGE;
}
