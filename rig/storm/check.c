// SPDX-License-Identifier: GPL-2.0
/*
 * After the storm: the kernel log since the start (/dev/kmsg) searched for
 * splats, and `nft list hooks` in AP compared with the switches that are set,
 * first in the state the storm left, then in a fixed sequence of states.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "brflags.h"
#include "link.h"
#include "netns.h"
#include "parse.h"
#include "proc.h"
#include "storm.h"
#include "sysctl.h"
#include "util.h"

/* ---- kernel log ---- */

struct kmsg {
	int fd;
	FILE *log;
	unsigned int splats, traces, lost;
};

struct kmsg *kmsg_open(FILE *log)
{
	struct kmsg *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		pr_err("open /dev/kmsg: %s", strerror(errno));
		free(k);
		return NULL;
	}
	k->log = log;
	lseek(k->fd, 0, SEEK_END);
	return k;
}

/*
 * Read what was logged since the last call. Called every 50 ms during the storm:
 * the ring buffer is small and a busy storm (bridge port messages) wraps it in
 * minutes, so reading only at the end would miss the early part.
 */
void kmsg_poll(struct kmsg *k)
{
	char rec[8192];
	ssize_t n;
	int i;

	if (!k)
		return;
	for (;;) {
		unsigned long long ts = 0;
		char *msg;

		n = read(k->fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE) {
			k->lost++;	/* overwritten before we read it */
			continue;
		}
		if (n <= 0)
			break;
		rec[n] = '\0';
		i = parse_kmsg_record(rec, &ts, &msg);
		if (i < 0)
			continue;
		if (k->log)
			fprintf(k->log, "[%5llu.%06llu] %s\n", ts / 1000000, ts % 1000000, msg);
		if (i == SPLAT_TRACE) {
			/* a trace belongs to the report above it; count it only alone */
			k->traces++;
		} else if (i != SPLAT_NONE) {
			k->splats++;
			if (k->splats <= 30)
				printf("splat: [%llu.%06llu] %s\n", ts / 1000000, ts % 1000000, msg);
		}
	}
}

unsigned int kmsg_scan(struct kmsg *k, unsigned int *lost)
{
	*lost = 0;
	if (!k)
		return 0;
	kmsg_poll(k);
	*lost = k->lost;
	if (!k->splats && k->traces) {
		printf("splat: %u call trace(s) without a known header\n", k->traces);
		return k->traces;
	}
	return k->splats;
}

void kmsg_close(struct kmsg *k)
{
	if (!k)
		return;
	close(k->fd);
	free(k);
}

/* ---- AP state ---- */

/* Called inside AP. */
static int read_state(struct nl *nl, struct ap_state *s)
{
	struct ifinfomsg *ifm;
	struct nlmsghdr *nlh;
	void *hdr;
	int err;

	memset(s, 0, sizeof(*s));
	err = brflags_global_get(s->global);
	if (err)
		return err;
	nlh = nl_req(nl, RTM_GETLINK, NLM_F_DUMP, sizeof(*ifm), &hdr);
	ifm = hdr;
	ifm->ifi_family = AF_UNSPEC;
	return nl_talk(nl, nlh, parse_link_dump, s, "RTM_GETLINK dump");
}

static int list_hooks(const char *ap, struct hooks *h, FILE *dump)
{
	char *argv[] = { "nft", "list", "hooks", NULL };
	char *out = NULL, *err = NULL;
	int st;

	st = proc_run(ap, argv, &out, &err, 60);
	if (st) {
		pr_err("nft list hooks in %s: exit status %d: %s", ap, st, err ? err : "");
		free(out);
		free(err);
		return -EIO;
	}
	if (dump)
		fprintf(dump, "%s", out ? out : "");
	parse_hooks(out, h);
	free(out);
	free(err);
	return 0;
}

/* What the state asks for: a bridge and a sysctl or a bridge's flag */
static bool state_asks(const struct ap_state *s)
{
	bool any = s->nflagged || s->global[0] || s->global[1] || s->global[2];

	return s->nbridges > 0 && any;
}

/*
 * One comparison; prints a line; returns 1 when it failed. "latch": the hooks come with
 * the first ask and stay. Whether the storm before asked is not known, so until the state
 * asks (*asked then becomes true) all of the hooks or none is right.
 */
static int judge(FILE *f, const char *what, const char *mode, const struct ap_state *s,
		 const struct hooks *h, bool *asked)
{
	bool latch = !strcmp(mode, "latch"), want, ok;
	const char *want_s;

	if (!strcmp(mode, "always"))
		want = s->nbridges > 0;
	else
		want = state_asks(s) || (latch && *asked);
	if (latch && want)
		*asked = true;

	if (latch && !want) {
		ok = h->pre ? h->complete : h->nbrnf == 0;
		want_s = "all or none";
	} else {
		ok = h->pre == want && (want ? h->complete : h->nbrnf == 0);
		want_s = want ? "present" : "absent";
	}

	fprintf(f, "hooks %-46s sysctls %d%d%d, %u bridge(s), %u flagged: br_netfilter hooks "
		"%s (%u), want %s: %s\n", what, s->global[0], s->global[1], s->global[2],
		s->nbridges, s->nflagged, h->pre ? (h->complete ? "present" : "partial") :
		(h->nbrnf ? "partial" : "absent"), h->nbrnf, want_s, ok ? "ok" : "FAIL");
	return !ok;
}

/* Write one sysfs flag of a bridge in ap, from a child with ap's own sysfs. */
static int sysfs_write_in(const char *ap, const char *br, const char *fam, const char *v)
{
	char path[128];
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount("", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    netns_enter(ap) || umount2("/sys", MNT_DETACH) ||
		    mount(ap, "/sys", "sysfs", 0, NULL))
			_exit(2);
		snprintf(path, sizeof(path), "/sys/class/net/%s/bridge/nf_call_%s", br, fam);
		fd = open(path, O_WRONLY);
		if (fd < 0 || write(fd, v, strlen(v)) != (ssize_t)strlen(v)) {
			pr_err("write %s in %s: %s", path, ap, strerror(errno));
			_exit(1);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	return 0;
}

int check_cleanup_extras(struct storm_bed *bed)
{
	struct ap_state *s = calloc(1, sizeof(*s));
	struct nl *nl = calloc(1, sizeof(*nl));
	unsigned int i;
	int err;

	if (!s || !nl) {
		err = -ENOMEM;
		goto out_free;
	}
	err = netns_enter(bed->tb.ns[TB_AP]);
	if (err)
		goto out_free;
	err = nl_open(nl);
	if (!err)
		err = read_state(nl, s);
	/* bridges and veths named ss*; a veth's peer goes with it */
	for (i = 0; !err && i < s->nlinks_extra; i++)
		if (if_nametoindex(s->extra[i]))
			err = link_del(nl, s->extra[i]);
	nl_close(nl);
	netns_leave();
out_free:
	free(s);
	free(nl);
	return err;
}

struct step {
	const char *what;
	int (*fn)(struct nl *nl, const char *ap);
};

static int all_off(struct nl *nl, const char *ap)
{
	static const bool zero[BRNF_NFAMILIES];
	int err;

	(void)ap;
	err = brflags_global_set(zero);
	if (!err)
		err = brflags_set(nl, "br-wlan", zero);
	if (!err)
		err = brflags_set(nl, "br-lan", zero);
	return err;
}

static int lan_ipt_on(struct nl *nl, const char *ap)
{
	(void)ap;
	return brflags_set_one(nl, "br-lan", BRNF_IPTABLES, true);
}

static int lan_ipt_off(struct nl *nl, const char *ap)
{
	(void)ap;
	return brflags_set_one(nl, "br-lan", BRNF_IPTABLES, false);
}

static int wlan_arp_sysfs_on(struct nl *nl, const char *ap)
{
	(void)nl;
	return sysfs_write_in(ap, "br-wlan", "arptables", "1");
}

static int wlan_arp_sysfs_off(struct nl *nl, const char *ap)
{
	(void)nl;
	return sysfs_write_in(ap, "br-wlan", "arptables", "0");
}

static int global_ip6_on(struct nl *nl, const char *ap)
{
	(void)nl;
	(void)ap;
	return sysctl_write("net.bridge.bridge-nf-call-ip6tables", "1");
}

static int global_ip6_off(struct nl *nl, const char *ap)
{
	(void)nl;
	(void)ap;
	return sysctl_write("net.bridge.bridge-nf-call-ip6tables", "0");
}

static int extra_flagged_add(struct nl *nl, const char *ap)
{
	static const bool ipt[BRNF_NFAMILIES] = { true, false, false };

	(void)ap;
	return link_add_bridge(nl, "ssx", ipt);
}

static int extra_del(struct nl *nl, const char *ap)
{
	(void)ap;
	return link_del(nl, "ssx");
}

static const struct step steps[] = {
	{ "all sysctls and flags 0", all_off },
	{ "br-lan nf_call_iptables=1 (netlink)", lan_ipt_on },
	{ "br-lan nf_call_iptables=0 (netlink)", lan_ipt_off },
	{ "br-wlan nf_call_arptables=1 (sysfs)", wlan_arp_sysfs_on },
	{ "br-wlan nf_call_arptables=0 (sysfs)", wlan_arp_sysfs_off },
	{ "bridge-nf-call-ip6tables=1 (sysctl)", global_ip6_on },
	{ "bridge-nf-call-ip6tables=0 (sysctl)", global_ip6_off },
	{ "new bridge ssx with nf_call_iptables=1", extra_flagged_add },
	{ "bridge ssx deleted", extra_del },
};

int check_hooks(struct storm_bed *bed, const char *expect, FILE *f)
{
	struct ap_state *end = calloc(1, sizeof(*end)), *s = calloc(1, sizeof(*s));
	struct nl *nl = calloc(1, sizeof(*nl));
	struct hooks hend, h;
	const char *mode = expect;
	bool asked = false, end_asked = false;
	int failed = 0, err;
	unsigned int i;
	FILE *dump = NULL;

	if (!end || !s || !nl) {
		failed = -1;
		goto out_free;
	}
	/* 1. the state the storm left, extras included */
	err = netns_enter(bed->tb.ns[TB_AP]);
	if (!err)
		err = nl_open(nl);
	if (!err)
		err = read_state(nl, end);
	nl_close(nl);
	netns_leave();
	if (!err)
		err = list_hooks(bed->tb.ns[TB_AP], &hend, f);
	if (err) {
		fprintf(f, "hooks: cannot read the state of %s\n", bed->tb.ns[TB_AP]);
		failed = 1;
		goto out_free;
	}
	if (!hend.supported) {
		fprintf(f, "hooks: n/a: `nft list hooks` does not list hooks on this kernel "
			"(no CONFIG_NETFILTER_NETLINK_HOOK?)\n");
		failed = -1;
		goto out_free;
	}
	fprintf(f, "end state bridges:");
	for (i = 0; i < end->nbridges && i < MAX_BRIDGES; i++)
		fprintf(f, " %s", end->names[i]);
	fprintf(f, " (* = some nf_call_* set)\n");

	/* 2. remove the extras, then a fixed sequence */
	err = check_cleanup_extras(bed);
	if (!err)
		err = netns_enter(bed->tb.ns[TB_AP]);
	if (!err)
		err = nl_open(nl);
	if (err) {
		fprintf(f, "hooks: cannot clean up %s: %s\n", bed->tb.ns[TB_AP],
			strerror(-err));
		failed = 1;
		goto out_leave;
	}
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		err = steps[i].fn(nl, bed->tb.ns[TB_AP]);
		if (!err)
			err = read_state(nl, s);
		if (!err)
			err = list_hooks(bed->tb.ns[TB_AP], &h, dump);
		if (err) {
			fprintf(f, "hooks %s: error %s\n", steps[i].what, strerror(-err));
			failed++;
			continue;
		}
		if (i == 0 && !strcmp(mode, "auto")) {
			mode = h.pre ? "always" : "ondemand";
			fprintf(f, "hooks: with every switch 0 the hooks are %s: this kernel "
				"registers them %s\n", h.pre ? "present" : "absent",
				h.pre ? "always (vanilla)" : "on demand");
		}
		failed += judge(f, steps[i].what, mode, s, &h, &asked);
	}
	failed += judge(f, "at the end of the storm", mode, end, &hend, &end_asked);
	fprintf(f, "hooks: expectation \"%s\"%s\n", mode,
		strcmp(mode, expect) ? " (detected)" : "");
out_leave:
	nl_close(nl);
	netns_leave();
out_free:
	free(end);
	free(s);
	free(nl);
	return failed;
}
