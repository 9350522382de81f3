// SPDX-License-Identifier: GPL-2.0
/* The AP's switches and firewall through its transport (see apctl.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apctl.h"
#include "brflags.h"
#include "lock.h"
#include "netns.h"
#include "nl.h"
#include "proc.h"
#include "sysctl.h"
#include "util.h"
#include "verify.h"

#define SH_TIMEOUT 30

/* Run argv on the AP; stdout in *out. On failure one line naming the AP. */
static int ap_cmd(const struct ap *ap, const char *what, char *const argv[], const char *in,
		  size_t inlen, char **out)
{
	char *err = NULL, line[300];
	int ret;

	ret = host_run(&ap->h, argv, in, inlen, out, &err, SH_TIMEOUT);
	if (host_failed(&ap->h, ret, err)) {
		ret = ret < 0 ? ret : -EIO;
	} else if (ret) {
		proc_first_error(err, line, sizeof(line));
		pr_err("%s: %s: %s", ap->h.what, what, line[0] ? line : "failed");
		ret = -EIO;
	}
	free(err);
	if (ret && out) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

/* The same for a POSIX sh script (sh -c SCRIPT, as host_sh()). */
static int ap_sh(const struct ap *ap, const char *what, const char *script, const char *in,
		 size_t inlen, char **out)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };

	return ap_cmd(ap, what, argv, in, inlen, out);
}

static const char probe_script[] =
	"uname -a | sed 's/^/uname /'\n"
	"if [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then echo brnf 1; "
	"else echo brnf 0; fi\n"
	"for b in br-wlan br-lan; do\n"
	"  if [ -d /sys/class/net/$b/bridge ]; then echo bridge $b 1; else echo bridge $b 0; fi\n"
	"done\n"
	"for t in nft iptables iptables-restore iptables-save; do\n"
	"  if command -v $t >/dev/null 2>&1; then echo tool $t 1; else echo tool $t 0; fi\n"
	"done\n"
	"if [ -r /etc/openwrt_release ]; then sed 's/^/openwrt /' /etc/openwrt_release; fi\n";

static int probe_sh(struct ap *ap)
{
	char *out = NULL, *line, *save, name[64], *rel = NULL;
	size_t rellen = 0;
	int v, err;

	err = ap_sh(ap, "probe", probe_script, NULL, 0, &out);
	if (err)
		return err;
	for (line = strtok_r(out, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "uname ", 6)) {
			snprintf(ap->uname, sizeof(ap->uname), "%s", line + 6);
		} else if (!strncmp(line, "openwrt ", 8)) {
			size_t n = strlen(line + 8);
			char *nb = realloc(rel, rellen + n + 2);

			if (!nb)
				continue;
			rel = nb;
			memcpy(rel + rellen, line + 8, n);
			rellen += n;
			rel[rellen++] = '\n';
			rel[rellen] = '\0';
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

int ap_probe(struct ap *ap)
{
	int err;

	if (!ap->native)
		err = probe_sh(ap);
	else {
		char *argv[] = { "uname", "-a", NULL }, *out = NULL;

		err = netns_enter(ap->h.ns);
		if (err) {
			pr_err("%s: cannot enter the namespace", ap->h.what);
			return err;
		}
		ap->br_netfilter = sysctl_have_br_netfilter();
		netns_leave();
		if (host_run(&ap->h, argv, NULL, 0, &out, NULL, 10) == 0 && out) {
			chomp(out);
			snprintf(ap->uname, sizeof(ap->uname), "%s", out);
		}
		free(out);
	}
	if (!err)
		err = ap_ruleset_digest(ap, ap->digest_start, sizeof(ap->digest_start));
	return err;
}

/* --- switches */

static int switches_get_native(const struct ap *ap, struct readback *rb)
{
	struct nl *nl;
	unsigned int b;
	int err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = netns_enter(ap->h.ns);
	if (err)
		goto out_free;
	if (ap->br_netfilter) {
		err = brflags_global_get(rb->global);
		if (err)
			goto out_leave;
		rb->have_global = true;
	}
	err = nl_open(nl);
	if (err)
		goto out_leave;
	rb->have_bridges = true;
	for (b = 0; b < TB_NBRIDGES && !err; b++)
		err = brflags_get(nl, tb_bridges[b], rb->bridge[b]);
	if (err == -EOPNOTSUPP) {
		rb->have_bridges = false;
		err = 0;
	}
	nl_close(nl);
out_leave:
	netns_leave();
out_free:
	free(nl);
	if (err)
		pr_err("%s: cannot read the bridge-netfilter switches: %s", ap->h.what,
		       strerror(-err));
	return err;
}

static const char get_script[] =
	"for f in iptables ip6tables arptables; do\n"
	"  p=/proc/sys/net/bridge/bridge-nf-call-$f\n"
	"  if [ -r $p ]; then echo global $f $(cat $p); fi\n"
	"done\n"
	"for b in br-wlan br-lan; do for f in iptables ip6tables arptables; do\n"
	"  p=/sys/class/net/$b/bridge/nf_call_$f\n"
	"  if [ -r $p ]; then echo bridge $b $f $(cat $p); fi\n"
	"done; done\n";

static int switches_get_sh(const struct ap *ap, struct readback *rb)
{
	char *out = NULL, *line, *save, a[32], b[32];
	unsigned int nglobal = 0, nbridge = 0, i;
	int fam, v, err;

	err = ap_sh(ap, "read the bridge-netfilter switches", get_script, NULL, 0, &out);
	if (err)
		return err;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "global %31s %d", a, &v) == 2 &&
		    (fam = brflags_family(a)) >= 0) {
			rb->global[fam] = v;
			nglobal++;
		} else if (sscanf(line, "bridge %31s %31s %d", a, b, &v) == 3 &&
			   (fam = brflags_family(b)) >= 0) {
			for (i = 0; i < TB_NBRIDGES; i++)
				if (!strcmp(tb_bridges[i], a)) {
					rb->bridge[i][fam] = v;
					nbridge++;
				}
		}
	}
	free(out);
	rb->have_global = ap->br_netfilter && nglobal == BRNF_NFAMILIES;
	if (!rb->have_global)
		memset(rb->global, 0, sizeof(rb->global));
	rb->have_bridges = nbridge == TB_NBRIDGES * BRNF_NFAMILIES;
	return 0;
}

int ap_switches_get(const struct ap *ap, struct readback *rb)
{
	memset(rb, 0, sizeof(*rb));
	return ap->native ? switches_get_native(ap, rb) : switches_get_sh(ap, rb);
}

static int switches_set_native(const struct ap *ap, bool set_global,
			       const bool global[BRNF_NFAMILIES],
			       const bool set_bridge[TB_NBRIDGES],
			       const bool bridge[TB_NBRIDGES][BRNF_NFAMILIES])
{
	struct nl *nl;
	unsigned int b;
	int err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = netns_enter(ap->h.ns);
	if (err)
		goto out_free;
	if (set_global)
		err = brflags_global_set(global);
	if (!err)
		err = nl_open(nl);
	if (err)
		goto out_leave;
	for (b = 0; b < TB_NBRIDGES && !err; b++)
		if (set_bridge[b])
			err = brflags_set(nl, tb_bridges[b], bridge[b]);
	nl_close(nl);
out_leave:
	netns_leave();
out_free:
	free(nl);
	return err;
}

static int switches_set_sh(const struct ap *ap, bool set_global,
			   const bool global[BRNF_NFAMILIES],
			   const bool set_bridge[TB_NBRIDGES],
			   const bool bridge[TB_NBRIDGES][BRNF_NFAMILIES])
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
	for (b = 0; b < TB_NBRIDGES; b++)
		for (f = 0; f < BRNF_NFAMILIES && set_bridge[b]; f++)
			n += snprintf(script + n, sizeof(script) - n,
				      "echo %d > /sys/class/net/%s/bridge/nf_call_%s\n",
				      bridge[b][f], tb_bridges[b], brnf_family_names[f]);
	err = ap_sh(ap, "set the bridge-netfilter switches", script, NULL, 0, &out);
	free(out);
	return err;
}

int ap_switches_set(const struct ap *ap, bool set_global, const bool global[BRNF_NFAMILIES],
		    const bool set_bridge[TB_NBRIDGES],
		    const bool bridge[TB_NBRIDGES][BRNF_NFAMILIES])
{
	return (ap->native ? switches_set_native : switches_set_sh)(ap, set_global, global,
								     set_bridge, bridge);
}

/* --- firewall */

int ap_ruleset_digest(const struct ap *ap, char *buf, size_t len)
{
	static const char script[] =
		"command -v nft >/dev/null 2>&1 || exit 0\n"
		"if command -v sha256sum >/dev/null 2>&1; then s=sha256; else s=md5; fi\n"
		"echo \"$s:$(nft list ruleset | ${s}sum | cut -d' ' -f1)\"\n";
	char *out = NULL;
	int err;

	buf[0] = '\0';
	err = ap_sh(ap, "digest of nft list ruleset", script, NULL, 0, &out);
	if (!err && out) {
		chomp(out);
		snprintf(buf, len, "%s", out);
	}
	free(out);
	return err;
}

/* Counters (nft) and packet counts ([n:m], iptables-save) and comments out. */
static void normalize(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (!strncmp(r, "counter packets ", 16)) {
			unsigned long long a, b;
			int n = 0;

			if (sscanf(r, "counter packets %llu bytes %llu%n", &a, &b, &n) == 2 && n) {
				memcpy(w, "counter", 7);
				w += 7;
				r += n;
				continue;
			}
		}
		if (*r == '[' && (r == s || r[-1] == ' ')) {
			unsigned long long a, b;
			int n = 0;

			if (sscanf(r, "[%llu:%llu]%n", &a, &b, &n) == 2 && n) {
				r += n;
				continue;
			}
		}
		if (*r == '#' && (r == s || r[-1] == '\n')) {
			while (*r && *r != '\n')
				r++;
			if (*r)
				r++;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

static int nft_list(const struct ap *ap, char **out)
{
	char *argv[] = { "nft", "list", "ruleset", NULL };

	return ap_cmd(ap, "nft list ruleset", argv, NULL, 0, out);
}

static int mangle_save(const struct ap *ap, char **out)
{
	char *argv[] = { "iptables-save", "-t", "mangle", NULL };

	return ap_cmd(ap, "iptables-save -t mangle", argv, NULL, 0, out);
}

/* The saved state as a script that puts it back, run on the AP by hand. */
static int restore_script_write(struct ap *ap)
{
	char *buf = NULL, date[32];
	size_t len = 0;
	unsigned int b, f;
	time_t t = time(NULL);
	FILE *m;
	int err;

	m = open_memstream(&buf, &len);
	if (!m)
		return -errno;
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	fprintf(m, "#!/bin/sh\n# brnf run %d: the settings of %s as saved at %s.\n"
		"# brnf restores them itself at the end of a run (also after Ctrl-C);\n"
		"# if it could not (SIGKILL, power cut): ssh <the AP> sh < this-file\n",
		getpid(), ap->h.what, date);
	for (f = 0; f < BRNF_NFAMILIES && ap->orig.have_global; f++)
		fprintf(m, "echo %d > /proc/sys/net/bridge/bridge-nf-call-%s\n",
			ap->orig.global[f], brnf_family_names[f]);
	for (b = 0; b < TB_NBRIDGES && ap->orig.have_bridges; b++)
		for (f = 0; f < BRNF_NFAMILIES; f++)
			fprintf(m, "echo %d > /sys/class/net/%s/bridge/nf_call_%s\n",
				ap->orig.bridge[b][f], tb_bridges[b], brnf_family_names[f]);
	fprintf(m, "while iptables -w -t mangle -D PREROUTING -j " VERIFY_CHAIN
		" 2>/dev/null; do :; done\n"
		"iptables -w -t mangle -F " VERIFY_CHAIN " 2>/dev/null\n"
		"iptables -w -t mangle -X " VERIFY_CHAIN " 2>/dev/null\n");
	if (ap->orig_mangle && *ap->orig_mangle)
		fprintf(m, "iptables-restore <<'BRNF_EOF'\n%s%sBRNF_EOF\n", ap->orig_mangle,
			ap->orig_mangle[strlen(ap->orig_mangle) - 1] == '\n' ? "" : "\n");
	fprintf(m, "nft flush ruleset\n");
	if (ap->orig_nft && *ap->orig_nft)
		fprintf(m, "nft -f /proc/self/fd/0 <<'BRNF_EOF'\n%s%sBRNF_EOF\n", ap->orig_nft,
			ap->orig_nft[strlen(ap->orig_nft) - 1] == '\n' ? "" : "\n");
	if (fclose(m)) {
		free(buf);
		return -EIO;
	}
	err = mkdir_p(BRNF_RUN_DIR);
	snprintf(ap->restore_sh, sizeof(ap->restore_sh), BRNF_RUN_DIR "/%d.ap-restore.sh",
		 getpid());
	if (!err)
		err = write_file(ap->restore_sh, buf, len);
	if (err) {
		pr_err("write %s: %s", ap->restore_sh, strerror(-err));
		ap->restore_sh[0] = '\0';
	}
	free(buf);
	return err;
}

int ap_save(struct ap *ap)
{
	int err;

	err = ap_switches_get(ap, &ap->orig);
	if (!err)
		err = nft_list(ap, &ap->orig_nft);
	if (!err)
		err = mangle_save(ap, &ap->orig_mangle);
	if (err) {
		pr_err("%s: cannot save its settings; nothing was changed", ap->h.what);
		return err;
	}
	ap->saved = true;
	return restore_script_write(ap);
}

static bool same_text(const char *a, const char *b)
{
	char *x = strdup(a ? a : ""), *y = strdup(b ? b : "");
	bool same = x && y;

	if (same) {
		normalize(x);
		normalize(y);
		same = !strcmp(x, y);
	}
	free(x);
	free(y);
	return same;
}

/* 0 when now equals what was saved; else one line per difference. */
static int restore_check(const struct ap *ap)
{
	struct readback now;
	char *nft = NULL, *mangle = NULL;
	unsigned int b, f;
	int err, bad = 0;

	err = ap_switches_get(ap, &now);
	if (err)
		return err;
	for (f = 0; f < BRNF_NFAMILIES && ap->orig.have_global; f++)
		if (!now.have_global || now.global[f] != ap->orig.global[f]) {
			pr_err("%s: restore: bridge-nf-call-%s is %d, was %d", ap->h.what,
			       brnf_family_names[f], now.global[f], ap->orig.global[f]);
			bad++;
		}
	for (b = 0; b < TB_NBRIDGES && ap->orig.have_bridges; b++)
		for (f = 0; f < BRNF_NFAMILIES; f++)
			if (!now.have_bridges || now.bridge[b][f] != ap->orig.bridge[b][f]) {
				pr_err("%s: restore: %s nf_call_%s is %d, was %d", ap->h.what,
				       tb_bridges[b], brnf_family_names[f], now.bridge[b][f],
				       ap->orig.bridge[b][f]);
				bad++;
			}
	err = nft_list(ap, &nft);
	if (!err && !same_text(nft, ap->orig_nft)) {
		pr_err("%s: restore: nft list ruleset differs from the saved one", ap->h.what);
		bad++;
	}
	if (!err)
		err = mangle_save(ap, &mangle);
	if (!err && !same_text(mangle, ap->orig_mangle)) {
		pr_err("%s: restore: iptables-save -t mangle differs from the saved one",
		       ap->h.what);
		bad++;
	}
	free(nft);
	free(mangle);
	return err ? err : bad ? -EIO : 0;
}

int ap_restore(struct ap *ap)
{
	static const char unchain[] =
		"while iptables -w -t mangle -D PREROUTING -j " VERIFY_CHAIN " 2>/dev/null; "
		"do :; done\n"
		"iptables -w -t mangle -F " VERIFY_CHAIN " 2>/dev/null\n"
		"iptables -w -t mangle -X " VERIFY_CHAIN " 2>/dev/null\n"
		"exit 0\n";
	char *flush[] = { "nft", "flush", "ruleset", NULL };
	char *load[] = { "nft", "-f", "/proc/self/fd/0", NULL };
	char *restore[] = { "iptables-restore", NULL };
	bool set_bridge[TB_NBRIDGES];
	char *now = NULL, *out = NULL;
	unsigned int b;
	int err, ret = 0;

	if (!ap->saved)
		return 0;
	proc_ignore_stop(true);
	for (b = 0; b < TB_NBRIDGES; b++)
		set_bridge[b] = ap->orig.have_bridges;
	err = ap_switches_set(ap, ap->orig.have_global, ap->orig.global, set_bridge,
			      ap->orig.bridge);
	ret = ret ?: err;
	err = ap_sh(ap, "remove the counting chain", unchain, NULL, 0, &out);
	free(out);
	ret = ret ?: err;
	err = nft_list(ap, &now);
	if (!err && !same_text(now, ap->orig_nft)) {
		err = ap_cmd(ap, "nft flush ruleset", flush, NULL, 0, NULL);
		if (!err && ap->orig_nft && *ap->orig_nft)
			err = ap_cmd(ap, "nft -f (the saved ruleset)", load, ap->orig_nft,
				     strlen(ap->orig_nft), NULL);
	}
	free(now);
	now = NULL;
	ret = ret ?: err;
	err = mangle_save(ap, &now);
	if (!err && !same_text(now, ap->orig_mangle))
		err = ap_cmd(ap, "iptables-restore (the saved mangle table)", restore,
			     ap->orig_mangle, strlen(ap->orig_mangle), NULL);
	free(now);
	ret = ret ?: err;
	err = restore_check(ap);
	ret = ret ?: err;
	proc_ignore_stop(false);
	if (ret) {
		pr_err("%s: its settings were NOT restored completely; the saved state is in %s "
		       "(ssh the AP sh < it)", ap->h.what,
		       ap->restore_sh[0] ? ap->restore_sh : "(nowhere)");
	} else {
		ap->saved = false;
		if (ap->restore_sh[0])
			unlink(ap->restore_sh);
		ap->restore_sh[0] = '\0';
	}
	return ret;
}

void ap_free(struct ap *ap)
{
	free(ap->openwrt_release);
	free(ap->orig_nft);
	free(ap->orig_mangle);
	ap->openwrt_release = ap->orig_nft = ap->orig_mangle = NULL;
}

int ap_restore_scripts_left(void)
{
	struct dirent *de;
	int n = 0, pid, len;
	DIR *d;

	d = opendir(BRNF_RUN_DIR);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		len = 0;
		if (sscanf(de->d_name, "%d.ap-restore.sh%n", &pid, &len) != 1 ||
		    de->d_name[len] || pid <= 0 || pid == getpid())
			continue;
		if (kill(pid, 0) == 0 || errno == EPERM)
			continue;	/* still running */
		fprintf(stderr, "brnf: " BRNF_RUN_DIR "/%s: brnf run %d ended without restoring "
			"its AP; to put it back: ssh <the AP> sh < " BRNF_RUN_DIR "/%s, then "
			"remove the file\n", de->d_name, pid, de->d_name);
		n++;
	}
	closedir(d);
	return n;
}
