// SPDX-License-Identifier: GPL-2.0
/*
 * The AP backend of a host reached through a transport (ssh, local): POSIX sh
 * that busybox ash runs, nothing installed on the device (ap_ops.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ap_ops.h"
#include "apctl.h"
#include "brflags.h"
#include "sysctl.h"
#include "util.h"

/* "br-lan br-wlan": the bridges as a sh word list. */
static void bridge_words(char *buf, size_t len)
{
	size_t n = 0;
	unsigned int b;

	buf[0] = '\0';
	for (b = 0; b < BRNF_NBRIDGES && n < len; b++)
		n += snprintf(buf + n, len - n, "%s%s", b ? " " : "", brnf_bridge_names[b]);
}

static const char probe_fmt[] =
	"uname -a | sed 's/^/uname /'\n"
	"if [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then echo brnf 1; "
	"else echo brnf 0; fi\n"
	"for b in %s; do\n"
	"  if [ -d /sys/class/net/$b/bridge ]; then echo bridge $b 1; else echo bridge $b 0; fi\n"
	"done\n"
	"for t in nft iptables iptables-restore iptables-save; do\n"
	"  if command -v $t >/dev/null 2>&1; then echo tool $t 1; else echo tool $t 0; fi\n"
	"done\n"
	"if [ -r /etc/openwrt_release ]; then sed 's/^/openwrt /' /etc/openwrt_release; fi\n";

/* Append line and a newline to the malloc'd text *buf of *len bytes. */
static void text_add(char **buf, size_t *len, const char *line)
{
	size_t n = strlen(line);
	char *nb = realloc(*buf, *len + n + 2);

	if (!nb)
		return;
	*buf = nb;
	memcpy(*buf + *len, line, n);
	*len += n;
	(*buf)[(*len)++] = '\n';
	(*buf)[*len] = '\0';
}

static int sh_probe(struct ap *ap)
{
	char script[1024], words[64], *out = NULL, *line, *save, name[64], *rel = NULL;
	size_t rellen = 0;
	int v, err;

	bridge_words(words, sizeof(words));
	snprintf(script, sizeof(script), probe_fmt, words);
	err = host_cmd_sh(&ap->h, "probe", script, NULL, 0, &out);
	if (err)
		return err;
	for (line = strtok_r(out, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "uname ", 6)) {
			snprintf(ap->uname, sizeof(ap->uname), "%s", line + 6);
		} else if (!strncmp(line, "openwrt ", 8)) {
			text_add(&rel, &rellen, line + 8);
		} else if (sscanf(line, "brnf %d", &v) == 1) {
			ap->br_netfilter = v;
		} else if (sscanf(line, "bridge %63s %d", name, &v) == 2 && !v) {
			pr_err("%s: no bridge %s (/sys/class/net/%s/bridge is missing)",
			       ap->h.what, name, name);
			err = -ENOENT;
		} else if (sscanf(line, "tool %63s %d", name, &v) == 2 && !v) {
			pr_err("%s: %s not found (the AP needs nft and iptables with "
			       "iptables-restore and iptables-save)", ap->h.what, name);
			err = -ENOENT;
		}
	}
	free(out);
	ap->openwrt_release = rel;
	if (!err && !ap->uname[0]) {
		pr_err("%s: probe printed no uname", ap->h.what);
		err = -EIO;
	}
	return err;
}

static const char get_fmt[] =
	"for f in iptables ip6tables arptables; do\n"
	"  p=/proc/sys/net/bridge/bridge-nf-call-$f\n"
	"  if [ -r $p ]; then echo global $f $(cat $p); fi\n"
	"done\n"
	"for b in %s; do for f in iptables ip6tables arptables; do\n"
	"  p=/sys/class/net/$b/bridge/nf_call_$f\n"
	"  if [ -r $p ]; then echo bridge $b $f $(cat $p); fi\n"
	"done; done\n";

static int sh_switches_get(const struct ap *ap, struct readback *rb)
{
	char script[1024], words[64], *out = NULL, *line, *save, a[32], b[32];
	unsigned int nglobal = 0, nbridge = 0, i;
	int fam, v, err;

	bridge_words(words, sizeof(words));
	snprintf(script, sizeof(script), get_fmt, words);
	err = host_cmd_sh(&ap->h, "read the bridge-netfilter switches", script, NULL, 0, &out);
	if (err)
		return err;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "global %31s %d", a, &v) == 2 &&
		    (fam = brflags_family(a)) >= 0) {
			rb->global[fam] = v;
			nglobal++;
		} else if (sscanf(line, "bridge %31s %31s %d", a, b, &v) == 3 &&
			   (fam = brflags_family(b)) >= 0) {
			for (i = 0; i < BRNF_NBRIDGES; i++)
				if (!strcmp(brnf_bridge_names[i], a)) {
					rb->bridge[i][fam] = v;
					nbridge++;
				}
		}
	}
	free(out);
	rb->have_global = ap->br_netfilter && nglobal == BRNF_NFAMILIES;
	if (!rb->have_global)
		memset(rb->global, 0, sizeof(rb->global));
	rb->have_bridges = nbridge == BRNF_NBRIDGES * BRNF_NFAMILIES;
	return 0;
}

static int sh_switches_set(const struct ap *ap, bool set_global,
			   const bool global[BRNF_NFAMILIES],
			   const bool set_bridge[BRNF_NBRIDGES],
			   const bool bridge[BRNF_NBRIDGES][BRNF_NFAMILIES])
{
	char script[2048], *out = NULL;
	unsigned int b, f;
	size_t n = 0;
	int err;

	n += snprintf(script + n, sizeof(script) - n, "set -e\n");
	for (f = 0; f < BRNF_NFAMILIES && set_global; f++)
		n += snprintf(script + n, sizeof(script) - n,
			      "echo %d > /proc/sys/net/bridge/bridge-nf-call-%s\n", global[f],
			      brnf_family_names[f]);
	for (b = 0; b < BRNF_NBRIDGES; b++)
		for (f = 0; f < BRNF_NFAMILIES && set_bridge[b]; f++)
			n += snprintf(script + n, sizeof(script) - n,
				      "echo %d > /sys/class/net/%s/bridge/nf_call_%s\n",
				      bridge[b][f], brnf_bridge_names[b], brnf_family_names[f]);
	err = host_cmd_sh(&ap->h, "set the bridge-netfilter switches", script, NULL, 0, &out);
	free(out);
	return err;
}

/* One round trip: "name value" per sysctl the AP has. */
static void sh_sysctls_read(const struct ap *ap, const char *const names[], unsigned int n,
			    char (*vals)[64])
{
	char script[4096], *out = NULL, *line, *save, path[128];
	unsigned int i;
	size_t len = 0;

	for (i = 0; i < n; i++) {
		vals[i][0] = '\0';
		if (sysctl_path(path, sizeof(path), names[i]))
			return;
		len += snprintf(script + len, len < sizeof(script) ? sizeof(script) - len : 0,
				"[ -r %s ] && echo \"%s $(cat %s)\"\n", path, names[i], path);
	}
	if (len >= sizeof(script) - 8)
		return;
	snprintf(script + len, sizeof(script) - len, "exit 0\n");
	if (host_sh(&ap->h, script, NULL, 0, &out, NULL, 30) == 0 && out)
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *sp = strchr(line, ' ');

			if (!sp)
				continue;
			*sp = '\0';
			for (i = 0; i < n; i++)
				if (!strcmp(line, names[i]))
					snprintf(vals[i], sizeof(vals[i]), "%s", sp + 1);
		}
	free(out);
}

const struct ap_ops ap_sh_ops = {
	.probe = sh_probe,
	.switches_get = sh_switches_get,
	.switches_set = sh_switches_set,
	.sysctls_read = sh_sysctls_read,
};
