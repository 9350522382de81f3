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
#include "util.h"
#include "version.h"

static int cmd_help(int argc, char **argv);
struct cmd;
static void cmd_usage(const struct cmd *c);

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("brnf %s\n", brnf_version);
	return EXIT_OK;
}

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool root;			/* needs root and the namespace machinery */
	const char *usage;
	const char *help;
	const struct opt *opts;
} cmds[] = {
	{ "run", cmd_run, true, "[OPTIONS]",
	  "build the test bed, run the matrix, write a results directory", run_opts },
	{ "render", cmd_render, false, "DIR [--baseline KEY]",
	  "re-render matrix.{md,csv,json,txt} of DIR from its raw data alone", render_opts },
	{ "testbed", cmd_testbed, true, "up [--offloads on|off] | down | show |\n"
	  "                 flags BRIDGE|global FAMILY=0|1...",
	  "the test bed by hand (debugging, tests); up prints the namespace names",
	  testbed_up_opts },
	{ "matrix-kernels", cmd_matrix_kernels, false, "[--count VARIANT] FILE",
	  "check a matrix file; print the kernels it names (or one kernel's row count)",
	  matrix_kernels_opts },
	{ "cleanup", cmd_cleanup, true, "",
	  "remove test beds of runs that ended (and of `testbed up`)", NULL },
	{ "version", cmd_version, false, "", "print the controller version", NULL },
	{ "help", cmd_help, false, "", "this text", NULL },
};

static void cmd_usage(const struct cmd *c)
{
	printf("  brnf %s %s\n      %s\n", c->name, c->usage, c->help);
	if (c->opts)
		opts_help(stdout, c->opts);
}

static int cmd_help(int argc, char **argv)
{
	unsigned int i;

	(void)argc;
	(void)argv;
	printf("usage: brnf COMMAND [ARGS]   (brnf COMMAND --help: one command)\n\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		cmd_usage(&cmds[i]);
	printf("\nMatrix file (--matrix): one row per line, whitespace separated key=value:\n"
	       "  kernel=VARIANT (default running)  global=0|1|iptables,ip6tables,arptables\n"
	       "  local=-|br-lan[,br-wlan]  ruleset=none|openwrt|openwrt-flowtable  label=TEXT\n"
	       "  '#' starts a comment. Rows with another kernel than the running one are skipped.\n"
	       "\nTraffic: iperf3 servers in pc, clients in sta; upload = sta -> pc,\n"
	       "download = pc -> sta (clients with -R). Ports from 5201 on.\n"
	       "\nExit status: 0 ok, 1 error, 2 usage, 3 a run's filtering verification said no.\n");
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2)
		return cmd_help(0, NULL);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			cmd_usage(&cmds[i]);
			return EXIT_OK;
		}
		if (cmds[i].root) {
			if (geteuid() != 0) {
				pr_err("%s needs root (network namespaces)", cmds[i].name);
				return EXIT_ERR;
			}
			if (netns_init()) {
				pr_err("cannot open /proc/self/ns/net");
				return EXIT_ERR;
			}
			signals_install();
		}
		return cmds[i].fn(argc - 2, argv + 2);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return cmd_help(0, NULL);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return cmd_version(0, NULL);
	fprintf(stderr, "Object \"%s\" is unknown, try \"brnf help\".\n", argv[1]);
	return EXIT_USAGE;
}
