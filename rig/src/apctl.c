// SPDX-License-Identifier: GPL-2.0
/* The AP: its backend's switches, and the firewall through its transport (see apctl.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ap_ops.h"
#include "apctl.h"
#include "heredoc.h"
#include "journal.h"
#include "ledger.h"
#include "lock.h"
#include "proc.h"
#include "util.h"
#include "verify.h"

/* Run argv on the AP; stdout in *out. On failure one line naming the AP. */
static int ap_cmd(const struct ap *ap, const char *what, char *const argv[], const char *in,
		  size_t inlen, char **out)
{
	return host_cmd(&ap->h, what, NULL, argv, in, inlen, out);
}

void ap_init(struct ap *ap, const struct host *h, bool built)
{
	unsigned int b;

	memset(ap, 0, sizeof(*ap));
	ap->h = *h;
	ap->ops = h->transport == RIG_NETNS ? &ap_netns_ops : &ap_sh_ops;
	ap->built = built;
	for (b = 0; b < BRNF_NBRIDGES; b++)
		ap->port[b] = rig_bridge_port(h->role, brnf_bridge_names[b]);
}

int ap_probe(struct ap *ap)
{
	int err;

	err = ap->ops->probe(ap);
	if (!err)
		err = ap_ruleset_digest(ap, ap->digest_start, sizeof(ap->digest_start));
	return err;
}

int ap_switches_get(const struct ap *ap, struct readback *rb)
{
	memset(rb, 0, sizeof(*rb));
	return ap->ops->switches_get(ap, rb);
}

int ap_switches_set(const struct ap *ap, bool set_global, const bool global[BRNF_NFAMILIES],
		    const bool set_bridge[BRNF_NBRIDGES],
		    const bool bridge[BRNF_NBRIDGES][BRNF_NFAMILIES])
{
	return ap->ops->switches_set(ap, set_global, global, set_bridge, bridge);
}

void ap_sysctls_read(const struct ap *ap, const char *const names[], unsigned int n,
		     char (*vals)[64])
{
	ap->ops->sysctls_read(ap, names, n, vals);
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
	err = host_cmd_sh(&ap->h, "digest of nft list ruleset", script, NULL, 0, &out);
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
	fprintf(m, "# brnf: the settings of %s as saved at %s.\n"
		"# brnf restores them itself at the end of a run (also after Ctrl-C), else\n"
		"# the next run or brnf cleanup does from this journal entry (SIGKILL).\n"
		"# Exit status 1 when a step failed (each is tried).\n"
		"st=0\n", ap->h.what, date);
	for (f = 0; f < BRNF_NFAMILIES && ap->orig.have_global; f++)
		fprintf(m, "echo %d > /proc/sys/net/bridge/bridge-nf-call-%s || st=1\n",
			ap->orig.global[f], brnf_family_names[f]);
	for (b = 0; b < BRNF_NBRIDGES && ap->orig.have_bridges; b++)
		for (f = 0; f < BRNF_NFAMILIES; f++)
			fprintf(m, "echo %d > /sys/class/net/%s/bridge/nf_call_%s || st=1\n",
				ap->orig.bridge[b][f], brnf_bridge_names[b], brnf_family_names[f]);
	fprintf(m, "%s", VERIFY_UNCHAIN_SH);
	if (ap->orig_mangle && *ap->orig_mangle) {
		heredoc_write(m, "iptables-restore", NULL, ap->orig_mangle);
		fprintf(m, "[ $? -eq 0 ] || st=1\n");
	}
	/* one transaction: the flush and the saved ruleset, or nothing */
	heredoc_write(m, "nft -f /proc/self/fd/0", "flush ruleset", ap->orig_nft);
	fprintf(m, "[ $? -eq 0 ] || st=1\nexit $st\n");
	if (fclose(m)) {
		free(buf);
		return -EIO;
	}
	/* in the claim's journal, synced, before the first change (journal.h) */
	err = host_journal_sh(&ap->h, buf);
	free(buf);
	if (!err) {
		pr_err("%s: no journal to save its settings in; nothing was changed", ap->h.what);
		err = -EINVAL;
	}
	if (err < 0)
		return err;
	ap->journal_id = err;
	journal_entry_path(err, ap->restore_sh, sizeof(ap->restore_sh));
	return 0;
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
	err = restore_script_write(ap);
	if (err)
		return err;
	ap->saved = true;
	journal_fault("ap");
	return 0;
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
	for (b = 0; b < BRNF_NBRIDGES && ap->orig.have_bridges; b++)
		for (f = 0; f < BRNF_NFAMILIES; f++)
			if (!now.have_bridges || now.bridge[b][f] != ap->orig.bridge[b][f]) {
				pr_err("%s: restore: %s nf_call_%s is %d, was %d", ap->h.what,
				       brnf_bridge_names[b], brnf_family_names[f], now.bridge[b][f],
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
	static const char unchain[] = VERIFY_UNCHAIN_SH "exit 0\n";
	char *load[] = { "nft", "-f", "/proc/self/fd/0", NULL };
	char *restore[] = { "iptables-restore", NULL };
	bool set_bridge[BRNF_NBRIDGES];
	char *now = NULL, *out = NULL;
	unsigned int b;
	int err, ret = 0;
	sigset_t old;

	if (!ap->saved)
		return 0;
	ledger_block(&old);	/* a second Ctrl-C waits until the AP is back */
	for (b = 0; b < BRNF_NBRIDGES; b++)
		set_bridge[b] = ap->orig.have_bridges;
	err = ap_switches_set(ap, ap->orig.have_global, ap->orig.global, set_bridge,
			      ap->orig.bridge);
	ret = ret ?: err;
	err = host_cmd_sh(&ap->h, "remove the counting chain", unchain, NULL, 0, &out);
	free(out);
	ret = ret ?: err;
	err = nft_list(ap, &now);
	if (!err && !same_text(now, ap->orig_nft)) {
		char *txn = NULL;

		/* one transaction: if the saved ruleset does not load, the one now stays */
		if (asprintf(&txn, "flush ruleset\n%s", ap->orig_nft ? ap->orig_nft : "") < 0)
			err = -ENOMEM;
		else
			err = ap_cmd(ap, "nft -f (flush ruleset and the saved ruleset)", load, txn,
				     strlen(txn), NULL);
		free(txn);
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
	ledger_unblock(&old);
	if (ret) {
		pr_err("%s: its settings were NOT restored completely; the saved state is in %s: "
		       "the next run or brnf cleanup tries again", ap->h.what,
		       ap->restore_sh[0] ? ap->restore_sh : "(nowhere)");
	} else {
		ap->saved = false;
		journal_drop(ap->journal_id);
		ap->journal_id = 0;
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
