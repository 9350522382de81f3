// SPDX-License-Identifier: GPL-2.0
/* Filtering verification with iptables counters (see verify.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "testbed.h"
#include "util.h"
#include "verify.h"

/* The match of bridge b's rule, as iptables -S prints it. */
static void rule_match(enum verify_mode mode, unsigned int b, char *buf, size_t len)
{
	if (mode == VERIFY_PHYSDEV)
		snprintf(buf, len, "-m physdev --physdev-in %s", tb_bridge_port[b]);
	else
		snprintf(buf, len, "-i %s", tb_bridges[b]);
}

static int iptables(const char *ns, char *const argv[], char **out, const char *what)
{
	char *err = NULL, line[300];
	int ret;

	ret = proc_run(ns, argv, out, &err, 30);
	if (ret) {
		proc_first_error(err, line, sizeof(line));
		if (ret == 127)
			pr_err("%s: cannot run %s (is the iptables package installed?)", what,
			       argv[0]);
		else
			pr_err("%s in %s: %s", what, ns, line[0] ? line : "iptables failed");
		ret = ret < 0 ? ret : -EIO;
	}
	free(err);
	return ret;
}

int verify_install(const char *ns, enum verify_mode mode)
{
	char rules[1024], match[128], path[] = "/tmp/brnf-verify-XXXXXX";
	char *argv[] = { "iptables-restore", path, NULL };	/* its -w eats an argument */
	unsigned int b;
	int fd, n, err;

	n = snprintf(rules, sizeof(rules),
		     "*mangle\n:PREROUTING ACCEPT [0:0]\n:" VERIFY_CHAIN " - [0:0]\n"
		     "-A PREROUTING -j " VERIFY_CHAIN "\n");
	for (b = 0; b < TB_NBRIDGES; b++) {
		rule_match(mode, b, match, sizeof(match));
		n += snprintf(rules + n, sizeof(rules) - n, "-A " VERIFY_CHAIN " %s\n", match);
	}
	n += snprintf(rules + n, sizeof(rules) - n, "COMMIT\n");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	close(fd);
	err = write_file(path, rules, n);
	if (!err)
		err = iptables(ns, argv, NULL,
			       mode == VERIFY_PHYSDEV ?
			       "counting rules (iptables -m physdev; needs xt_physdev)" :
			       "counting rules (iptables -i)");
	unlink(path);
	return err;
}

int verify_zero(const char *ns)
{
	char *argv[] = { "iptables", "-w", "-t", "mangle", "-Z", VERIFY_CHAIN, NULL };

	return iptables(ns, argv, NULL, "zero counting rules");
}

/* "-A brnf_count -m physdev --physdev-in wlan0 -c 12 3456" */
static int parse_counts(const char *out, enum verify_mode mode, uint64_t pkts[TB_NBRIDGES])
{
	char match[128], pat[160];
	const char *line, *c;
	unsigned int b;

	for (b = 0; b < TB_NBRIDGES; b++) {
		rule_match(mode, b, match, sizeof(match));
		snprintf(pat, sizeof(pat), "-A " VERIFY_CHAIN " %s -c ", match);
		line = strstr(out, pat);
		if (!line) {
			pr_err("counting rule \"%s\" is missing in the AP", match);
			return -ENOENT;
		}
		c = line + strlen(pat);
		if (sscanf(c, "%" SCNu64, &pkts[b]) != 1) {
			pr_err("cannot read the counter of \"%s\"", match);
			return -EINVAL;
		}
	}
	return 0;
}

int verify_read(const char *ns, enum verify_mode mode, uint64_t pkts[TB_NBRIDGES])
{
	char *argv[] = { "iptables", "-w", "-t", "mangle", "-S", VERIFY_CHAIN, "-v", NULL };
	char *out = NULL;
	int err;

	err = iptables(ns, argv, &out, "read counting rules");
	if (!err)
		err = parse_counts(out ? out : "", mode, pkts);
	free(out);
	return err;
}
