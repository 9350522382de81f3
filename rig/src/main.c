// SPDX-License-Identifier: GPL-2.0
/*
 * brnf: bridge-netfilter A/B benchmark controller. Only the front end: a
 * cmds[] table as in iproute2 ip/ip.c; each command lives in its own file.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "netns.h"
#include "usage.h"
#include "util.h"
#include "version.h"

static int cmd_help(int argc, char **argv);

static const char run_more[] =
	"\n      Rig file (--rig): one role per line, whitespace separated key=value, '#' comments:\n"
	"        role=ap|sta|pc|sta2..sta9|pc2..pc9   (ap, sta and pc needed; each once)\n"
	"        transport=netns|ssh|local            (default netns; a local ap only with\n"
	"                                             --local-ap: its firewall is replaced)\n"
	"        netns=NAME        netns: an existing /run/netns/NAME (brnf*); without it\n"
	"                          every role is in the test bed brnf builds (rig/rigs/netns.rig)\n"
	"        dest=[USER@]HOST  ssh: destination; port=N (-p), identity=PATH (-i),\n"
	"                          config=PATH (-F); else your own ~/.ssh/config, keys, agent\n"
	"        addr=ADDRESS      pc: where its iperf3 servers listen (needed); sta: recorded\n"
	"        bridge=BRIDGE:PORT  ap: br-lan and br-wlan, each with the port its traffic\n"
	"                          enters by (counted with iptables -m physdev --physdev-in)\n"
	"      ssh: one shared connection per host (ControlMaster=auto, ControlPersist),\n"
	"      BatchMode (keys only); on the AP only POSIX sh, /proc/sys, /sys/class/net, nft,\n"
	"      iptables. Its sysctls, bridge flags and firewall are saved first and restored\n"
	"      (and read back) at the end, also after Ctrl-C/SIGTERM. Rows that need\n"
	"      br_netfilter are skipped as unsupported on an AP without it.\n"
	"      Example: rig/rigs/openwrt-example.rig. Errors: FILE:LINE: what is wrong.\n";

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("brnf %s\n", brnf_version);
	return EXIT_OK;
}

static const struct cmd cmds[] = {
	{ "run", cmd_run, true, "[OPTIONS]",
	  "build the test bed (or reach the rig), run the matrix, write a results directory",
	  run_opts, run_more },
	{ "render", cmd_render, false,
	  "DIR [--baseline KEY] [--target PCT] [--strict] [--json] [--estimator floor|boots]",
	  "re-render matrix.{md,csv,json,txt} of DIR from its raw data alone", render_opts,
	  NULL },
	{ "profile", cmd_profile, false, "DIR [--tolerance PCT] [--top N]",
	  "instructions per packet by kernel symbol (DIR/raw/*/insn-profile.txt, "
	  "ab-matrix --profile)\n      against the baseline row, and where DIR/profile.pairs "
	  "has a line 'ROW against BASE'\n      (row keys) that row against the other, into "
	  "DIR/profile.md and DIR/profile.csv",
	  profile_opts, NULL },
	{ "levels", cmd_levels, false, "DIR [--estimator floor|boots]",
	  "the test-bed levels of DIR's pps cells: floors, what the other runs drew, and\n"
	  "      whether it depends on the kernel, into DIR/levels.md and DIR/levels.csv",
	  levels_opts, NULL },
	{ "testbed", cmd_testbed, true, "up [--offloads on|off] | down [NAME] | show |\n"
	  "                 flags BRIDGE|global FAMILY=0|1...",
	  "the test bed by hand (debugging, tests); up prints the namespace names",
	  testbed_up_opts, NULL },
	{ "matrix-kernels", cmd_matrix_kernels, false, "[--rows-of VARIANT] FILE",
	  "check a matrix file; print the kernels it names (or one kernel's row count)",
	  matrix_kernels_opts, NULL },
	{ "rig", cmd_rig, false, "check|ping FILE [--repeat N] [--role NAME]",
	  "check a rig file; or time `true` through each role's transport", rig_opts,
	  NULL },
	{ "cleanup", cmd_cleanup, true, "",
	  "remove test beds of runs that ended (and of `testbed up`)", NULL, NULL },
	{ "version", cmd_version, false, "", "print the controller version", NULL,
	  NULL },
	{ "help", cmd_help, false, "[COMMAND]", "this text, or one command's", NULL, NULL },
};

static const struct cmd *cmd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

static int cmd_unknown(const char *name)
{
	fprintf(stderr, "Object \"%s\" is unknown, try \"brnf help\".\n", name);
	return EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 1) {
		usage_all(stdout, cmds, ARRAY_SIZE(cmds));
		return EXIT_OK;
	}
	c = cmd_find(argv[0]);
	if (!c)
		return cmd_unknown(argv[0]);
	usage_cmd(stdout, c);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int ret;

	if (argc < 2)
		return cmd_help(0, NULL);
	c = cmd_find(argv[1]);
	if (c) {
		/* --help wherever an option may stand: `brnf run --reps 3 --help` */
		if (opts_help_asked(c->opts, argc - 2, argv + 2)) {
			usage_cmd(stdout, c);
			return EXIT_OK;
		}
		if (c->root) {
			if (geteuid() != 0) {
				pr_err("%s needs root (network namespaces)", c->name);
				return EXIT_ERR;
			}
			if (netns_init()) {
				pr_err("cannot open /proc/self/ns/net");
				return EXIT_ERR;
			}
			signals_install();
		}
		ret = c->fn(argc - 2, argv + 2);
		return brnf_stop ? 128 + brnf_stop : ret;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return cmd_help(argc - 2, argv + 2);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return cmd_version(0, NULL);
	if (!strcmp(argv[1], "--man")) {
		usage_man(stdout, cmds, ARRAY_SIZE(cmds), brnf_version);
		return EXIT_OK;
	}
	return cmd_unknown(argv[1]);
}
