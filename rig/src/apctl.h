/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AP's bridge-netfilter switches and firewall, through one interface with
 * two backends (ap_ops.h): netns, rtnetlink (IFLA_BR_NF_CALL_*) and /proc/sys
 * inside the namespace, as the test bed always did (ap_netns.c); sh, for an AP
 * over ssh or local, POSIX sh that busybox ash runs, nothing installed on the
 * device: /proc/sys/net/bridge/bridge-nf-call-*, /sys/class/net/<bridge>/bridge/
 * nf_call_*, nft and iptables (ap_sh.c). The firewall (nft, iptables) goes
 * through the transport for both.
 *
 * An AP brnf did not build itself is saved (switches, `nft list ruleset`,
 * `iptables-save -t mangle`) before the first change and restored at the end;
 * the restore is read back and compared.
 */
#ifndef BRNF_APCTL_H
#define BRNF_APCTL_H

#include <stdbool.h>
#include "host.h"
#include "record.h"
#include "testbed.h"

struct ap_ops;

struct ap {
	struct host h;
	const struct ap_ops *ops;	/* the backend, from the transport */
	bool built;			/* brnf's own test bed: nothing to save */
	bool br_netfilter;		/* /proc/sys/net/bridge on the AP */
	const char *port[BRNF_NBRIDGES];	/* brnf_bridge_names[] order */
	char uname[300];		/* uname -a */
	char *openwrt_release;		/* /etc/openwrt_release or NULL */
	char digest_start[100];		/* "sha256:<hex>" of nft list ruleset */
	/* saved before the first change */
	bool saved;
	struct readback orig;
	char *orig_nft, *orig_mangle;
	int journal_id;			/* the saved state as a script in the journal */
	char restore_sh[400];		/* its path, for messages */
};

/* The AP on host h (its role names the counted port of each bridge); built: the
 * test bed brnf made. The backend follows h's transport. */
void ap_init(struct ap *ap, const struct host *h, bool built);
/* What the AP is: uname, br_netfilter, bridges present, tools; one line
 * naming the AP and what is missing on error. */
int ap_probe(struct ap *ap);
/* Read the switches (global sysctls when br_netfilter, both bridges' flags). */
int ap_switches_get(const struct ap *ap, struct readback *rb);
/* Set them: global only when set_global, a bridge only when set_bridge[b]. */
int ap_switches_set(const struct ap *ap, bool set_global, const bool global[BRNF_NFAMILIES],
		    const bool set_bridge[BRNF_NBRIDGES],
		    const bool bridge[BRNF_NBRIDGES][BRNF_NFAMILIES]);
/* vals[i] = the AP's sysctl names[i] (dotted), "" when it has none. */
void ap_sysctls_read(const struct ap *ap, const char *const names[], unsigned int n,
		     char (*vals)[64]);
/* "sha256:<hex>" (or md5:) of `nft list ruleset` on the AP, "" without nft. */
int ap_ruleset_digest(const struct ap *ap, char *buf, size_t len);
/* Save what a run changes; restore it and compare (error when different).
 * ap_save() also journals the saved state as a POSIX sh script run on the AP
 * (journal.h: replayed by the next run or brnf cleanup after a SIGKILL);
 * ap_restore() drops the entry once the AP reads back as saved. */
int ap_save(struct ap *ap);
int ap_restore(struct ap *ap);
void ap_free(struct ap *ap);

#endif
