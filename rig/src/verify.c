// SPDX-License-Identifier: GPL-2.0
/* Filtering verification with iptables or nft counters (see verify.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testbed.h"
#include "util.h"
#include "verify.h"

const char *const verify_mode_names[VERIFY_NMODES] = {
	[VERIFY_PHYSDEV] = "physdev", [VERIFY_IIF] = "iif", [VERIFY_NFT_BRIDGE] = "nft-bridge",
};

void verify_ports_init(struct verify_ports *vp, const char *const port[BRNF_NBRIDGES],
		       const char *extra_wlan)
{
	unsigned int b;

	memset(vp, 0, sizeof(*vp));
	for (b = 0; b < BRNF_NBRIDGES; b++) {
		vp->bridge[vp->n] = b;
		vp->port[vp->n++] = port[b];
	}
	if (extra_wlan) {
		vp->bridge[vp->n] = 1;		/* br-wlan */
		vp->port[vp->n++] = extra_wlan;
	}
}

/* How many rules: one per port, or with iif one per bridge (the first BRNF_NBRIDGES
 * ports are one of each bridge, in order: verify_ports_init()). */
static unsigned int nrules(const struct verify_ports *vp, enum verify_mode mode)
{
	return mode == VERIFY_IIF ? BRNF_NBRIDGES : vp->n;
}

/* The match of rule i, as iptables -S or nft list prints it. */
static void rule_match(const struct verify_ports *vp, enum verify_mode mode, unsigned int i,
		       char *buf, size_t len)
{
	if (mode == VERIFY_PHYSDEV)
		snprintf(buf, len, "-m physdev --physdev-in %s", vp->port[i]);
	else if (mode == VERIFY_NFT_BRIDGE)
		snprintf(buf, len, "iifname \"%s\"", vp->port[i]);
	else
		snprintf(buf, len, "-i %s", brnf_bridge_names[vp->bridge[i]]);
}

/* One nft transaction: a counting rule per bridge port at the head of the chain. */
static int nft_install(const struct host *h, const struct verify_ports *vp)
{
	char *argv[] = { "nft", "-f", "/proc/self/fd/0", NULL };
	char rules[1024], match[128];
	unsigned int b;
	int n = 0;

	for (b = 0; b < vp->n; b++) {
		rule_match(vp, VERIFY_NFT_BRIDGE, b, match, sizeof(match));
		n += snprintf(rules + n, sizeof(rules) - n, "insert rule " VERIFY_BRIDGE_CHAIN
			      " %s counter comment \"" VERIFY_CHAIN "\"\n", match);
	}
	return host_cmd(h, "counting rules (nft, in chain " VERIFY_BRIDGE_CHAIN
			" of the row's ruleset)", "nftables", argv, rules, strlen(rules), NULL);
}

int verify_install(const struct host *h, const struct verify_ports *vp, enum verify_mode mode)
{
	char rules[1024], match[128];
	/* --noflush: only the chain is made (or emptied) and jumped to; without it the
	 * whole mangle table, the AP's own rules in it too, would be replaced. Its -w
	 * eats an argument. verify_remove() takes the chain and every jump out again. */
	char *argv[] = { "iptables-restore", "--noflush", NULL };
	unsigned int b;
	int n;

	if (mode == VERIFY_NFT_BRIDGE)
		return nft_install(h, vp);

	n = snprintf(rules, sizeof(rules),
		     "*mangle\n:" VERIFY_CHAIN " - [0:0]\n-A PREROUTING -j " VERIFY_CHAIN "\n");
	for (b = 0; b < nrules(vp, mode); b++) {
		rule_match(vp, mode, b, match, sizeof(match));
		n += snprintf(rules + n, sizeof(rules) - n, "-A " VERIFY_CHAIN " %s\n", match);
	}
	snprintf(rules + n, sizeof(rules) - n, "COMMIT\n");
	/* The rules on stdin: no file on the AP (it may be a router over ssh). */
	return host_cmd(h, mode == VERIFY_PHYSDEV ?
			"counting rules (iptables -m physdev; needs xt_physdev)" :
			"counting rules (iptables -i)", "iptables", argv, rules, strlen(rules), NULL);
}

int verify_zero(const struct host *h)
{
	char *argv[] = { "iptables", "-w", "-t", "mangle", "-Z", VERIFY_CHAIN, NULL };

	return host_cmd(h, "zero counting rules", "iptables", argv, NULL, 0, NULL);
}

/* "-A brnf_count -m physdev --physdev-in wlan0 -c 12 3456", or
 * "iifname "wlan0" counter packets 12 bytes 3456 comment "brnf_count"" */
static int parse_counts(const char *out, const struct verify_ports *vp,
			enum verify_mode mode, uint64_t pkts[BRNF_NBRIDGES])
{
	char match[128], pat[160];
	const char *line, *c;
	unsigned int b;
	uint64_t v;

	for (b = 0; b < BRNF_NBRIDGES; b++)
		pkts[b] = 0;
	for (b = 0; b < nrules(vp, mode); b++) {
		rule_match(vp, mode, b, match, sizeof(match));
		if (mode == VERIFY_NFT_BRIDGE)
			snprintf(pat, sizeof(pat), "%s counter packets ", match);
		else
			snprintf(pat, sizeof(pat), "-A " VERIFY_CHAIN " %s -c ", match);
		line = strstr(out, pat);
		if (!line) {
			pr_err("counting rule \"%s\" is missing in the AP", match);
			return -ENOENT;
		}
		c = line + strlen(pat);
		if (sscanf(c, "%" SCNu64, &v) != 1) {
			pr_err("cannot read the counter of \"%s\"", match);
			return -EINVAL;
		}
		pkts[vp->bridge[b]] += v;
	}
	return 0;
}

int verify_read(const struct host *h, const struct verify_ports *vp, enum verify_mode mode,
		uint64_t pkts[BRNF_NBRIDGES])
{
	char *ipt[] = { "iptables", "-w", "-t", "mangle", "-S", VERIFY_CHAIN, "-v", NULL };
	char *nft[] = { "nft", "list", "chain", "bridge", "filter", "stateful", NULL };
	bool n = mode == VERIFY_NFT_BRIDGE;
	char *out = NULL;
	int err;

	err = host_cmd(h, "read counting rules", n ? "nftables" : "iptables", n ? nft : ipt,
		       NULL, 0, &out);
	if (!err)
		err = parse_counts(out ? out : "", vp, mode, pkts);
	free(out);
	return err;
}

/* The nft counting rules by their handles (nft -a), the ruleset's own rules kept; then
 * none may be left. */
#define VERIFY_NFT_REMOVE_SH \
	"c='" VERIFY_BRIDGE_CHAIN "'\n" \
	"nft -a list chain $c | " \
	"sed -n 's/.* comment \"" VERIFY_CHAIN "\" # handle \\([0-9]*\\)$/\\1/p' | " \
	"while read -r n; do nft delete rule $c handle \"$n\" || exit 1; done || exit 1\n" \
	"if nft list chain $c | grep -q '\"" VERIFY_CHAIN "\"'; then\n" \
	"\techo \"error: counting rules left in chain $c\" >&2; exit 1\nfi\n"

int verify_remove(const struct host *h, enum verify_mode mode)
{
	if (mode == VERIFY_NFT_BRIDGE)
		return host_cmd_sh(h, "remove the counting rules", VERIFY_NFT_REMOVE_SH, NULL, 0,
				   NULL);
	return host_cmd_sh(h, "remove the counting rules", VERIFY_UNCHAIN_SH "exit 0\n", NULL, 0,
			   NULL);
}
