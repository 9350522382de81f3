// SPDX-License-Identifier: GPL-2.0
/*
 * The togglers: `workers` processes, each in the AP namespace with its own
 * sysfs mount (as `ip netns exec` does) and rtnetlink socket, each doing its
 * share of the operations in an order drawn from its own generator
 * (seed + worker number). What a worker adds (bridges, ports, namespaces) has
 * names of its own ("ss<w>..."), so workers never race on names; they do race
 * on the AP's sysctls and on br-wlan/br-lan's flags, which is the point.
 * With module churn, worker 0 also unloads and loads br_netfilter; while it is
 * out, its sysctls are missing, which the sysctl writers then accept.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "brflags.h"
#include "link.h"
#include "netns.h"
#include "proc.h"
#include "storm.h"
#include "sysctl.h"
#include "util.h"

const char *const storm_op_names[OP_NKINDS] = {
	[OP_SYSCTL] = "sysctl",
	[OP_NL_FLAG] = "netlink-flag",
	[OP_SYSFS_FLAG] = "sysfs-flag",
	[OP_BR_ADD] = "bridge-add",
	[OP_BR_DEL] = "bridge-del",
	[OP_PORT_ADD] = "port-add",
	[OP_PORT_DEL] = "port-del",
	[OP_NS_ADD] = "netns-add",
	[OP_NS_DEL] = "netns-del",
	[OP_MODULE] = "module",
};

/* Relative frequency of each kind: mostly flag flips, the rest churn. */
static const unsigned int weight[OP_NKINDS] = {
	[OP_SYSCTL] = 20, [OP_NL_FLAG] = 20, [OP_SYSFS_FLAG] = 20,
	[OP_BR_ADD] = 7, [OP_BR_DEL] = 7, [OP_PORT_ADD] = 8, [OP_PORT_DEL] = 8,
	[OP_NS_ADD] = 5, [OP_NS_DEL] = 5,
	[OP_MODULE] = 2,	/* worker 0 only, with module churn */
};

#define MAX_BR 4
#define MAX_PORTS 6
#define MAX_NS 3

struct worker {
	unsigned int id;
	uint64_t rng;
	struct nl nl;
	struct storm_shared *sh;
	FILE *log;
	double t0;
	char br[MAX_BR][16];
	unsigned int nbr;
	char port[MAX_PORTS][16];
	unsigned int nports;
	int nsfd[MAX_NS];
	unsigned int nns;
	unsigned int serial;
	int self_fd;		/* the AP namespace */
	bool churn;		/* this worker does OP_MODULE */
	bool churning;		/* some worker does: sysctls may be missing */
	char detail[96];
};

/* xorshift64*, seeded through splitmix64 */
static uint64_t rnd(struct worker *w)
{
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return w->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int rnd_below(struct worker *w, unsigned int n)
{
	return n ? (unsigned int)(rnd(w) >> 33) % n : 0;
}

static uint64_t splitmix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static void note(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->detail, sizeof(w->detail), fmt, ap);
	va_end(ap);
}

/* br-wlan, br-lan or one of this worker's extra bridges. */
static const char *any_bridge(struct worker *w)
{
	unsigned int i = rnd_below(w, 2 + w->nbr);

	if (i == 0)
		return "br-wlan";
	if (i == 1)
		return "br-lan";
	return w->br[i - 2];
}

#define BRNF_SYSCTL_DIR "/proc/sys/net/bridge"

/* With module churn, a missing sysctl means br_netfilter is out right now. */
static bool module_out(const struct worker *w)
{
	return w->churning && access(BRNF_SYSCTL_DIR, F_OK) && errno == ENOENT;
}

static unsigned long module_gen(const struct worker *w)
{
	return __atomic_load_n(&w->sh->module_gen, __ATOMIC_SEQ_CST);
}

static int brnf_sysctl_write(struct worker *w, const char *name, bool v)
{
	unsigned long gen = module_gen(w);
	int err;

	if (module_out(w))
		return 0;
	err = sysctl_write(name, v ? "1" : "0");
	/*
	 * Unloaded between the check and the write, and maybe loaded again before we
	 * look: the churning worker's count moved (or is odd: it is out right now).
	 */
	if (err == -ENOENT && w->churning &&
	    (module_gen(w) != gen || (gen & 1) || module_out(w)))
		return 0;
	return err;
}

static int op_sysctl(struct worker *w)
{
	unsigned int f = rnd_below(w, BRNF_NFAMILIES);
	bool v = rnd_below(w, 2);
	char name[64];

	snprintf(name, sizeof(name), "net.bridge.bridge-nf-call-%s", brnf_family_names[f]);
	note(w, "%s=%d%s", name, v, module_out(w) ? " (br_netfilter out)" : "");
	return brnf_sysctl_write(w, name, v);
}

static int op_nl_flag(struct worker *w)
{
	const char *br = any_bridge(w);
	bool v[BRNF_NFAMILIES];
	unsigned int f;

	if (rnd_below(w, 4) == 0) {
		for (f = 0; f < BRNF_NFAMILIES; f++)
			v[f] = rnd_below(w, 2);
		note(w, "%s nf_call_* %d%d%d", br, v[0], v[1], v[2]);
		return brflags_set(&w->nl, br, v);
	}
	f = rnd_below(w, BRNF_NFAMILIES);
	v[0] = rnd_below(w, 2);
	note(w, "%s nf_call_%s=%d", br, brnf_family_names[f], v[0]);
	return brflags_set_one(&w->nl, br, f, v[0]);
}

static int op_sysfs_flag(struct worker *w)
{
	const char *br = any_bridge(w);
	unsigned int f = rnd_below(w, BRNF_NFAMILIES);
	const char *v = rnd_below(w, 2) ? "1" : "0";
	char path[128];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/bridge/nf_call_%s", br,
		 brnf_family_names[f]);
	note(w, "%s=%s", path, v);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, v, 1) != 1) {
		err = -errno;
		pr_err("write %s in %s: %s", path, netns_current(), strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	return err;
}

static int op_br_add(struct worker *w)
{
	bool f[BRNF_NFAMILIES];
	char name[16];
	unsigned int i;
	int err;

	for (i = 0; i < BRNF_NFAMILIES; i++)
		f[i] = rnd_below(w, 2);
	snprintf(name, sizeof(name), "ss%ub%u", w->id, w->serial++);
	note(w, "%s nf_call_* %d%d%d", name, f[0], f[1], f[2]);
	err = link_add_bridge(&w->nl, name, f);
	if (!err)
		err = link_set_up(&w->nl, name);
	if (!err)
		snprintf(w->br[w->nbr++], sizeof(w->br[0]), "%s", name);
	return err;
}

static int op_br_del(struct worker *w)
{
	unsigned int i = rnd_below(w, w->nbr);
	int err;

	note(w, "%s", w->br[i]);
	err = link_del(&w->nl, w->br[i]);
	memmove(w->br[i], w->br[i + 1], (w->nbr - i - 1) * sizeof(w->br[0]));
	w->nbr--;
	return err;
}

static int op_port_add(struct worker *w)
{
	const char *br = any_bridge(w);
	char p[16], q[16];
	int err;

	snprintf(p, sizeof(p), "ss%up%u", w->id, w->serial);
	snprintf(q, sizeof(q), "ss%uq%u", w->id, w->serial++);
	note(w, "%s (peer %s) master %s", p, q, br);
	err = link_add_veth(&w->nl, p, NULL, q, NULL, -1);
	if (err)
		return err;
	snprintf(w->port[w->nports++], sizeof(w->port[0]), "%s", p);
	err = link_set_master(&w->nl, p, br);
	if (!err)
		err = link_set_up(&w->nl, p);
	if (!err)
		err = link_set_up(&w->nl, q);
	return err;
}

static int op_port_del(struct worker *w)
{
	unsigned int i = rnd_below(w, w->nports);
	int err;

	note(w, "%s", w->port[i]);
	err = link_del(&w->nl, w->port[i]);
	memmove(w->port[i], w->port[i + 1], (w->nports - i - 1) * sizeof(w->port[0]));
	w->nports--;
	return err;
}

/* Inside a new namespace: a bridge with flags, a port, random sysctls. */
static int ns_fill(struct worker *w, bool f[BRNF_NFAMILIES], bool g[BRNF_NFAMILIES])
{
	struct nl *nl;
	char name[64];
	unsigned int i;
	int err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = nl_open(nl);
	if (err) {
		pr_err("rtnetlink socket in a new namespace: %s", strerror(-err));
		goto out_free;
	}
	for (i = 0; i < BRNF_NFAMILIES && !err; i++) {
		snprintf(name, sizeof(name), "net.bridge.bridge-nf-call-%s",
			 brnf_family_names[i]);
		err = brnf_sysctl_write(w, name, g[i]);
	}
	if (!err)
		err = link_add_bridge(nl, "nsbr", f);
	if (!err)
		err = link_add_veth(nl, "nsp", NULL, "nsq", NULL, -1);
	if (!err)
		err = link_set_master(nl, "nsp", "nsbr");
	if (!err)
		err = link_set_up(nl, "nsp");
	if (!err)
		err = link_set_up(nl, "nsbr");
	nl_close(nl);
out_free:
	free(nl);
	return err;
}

static int op_ns_add(struct worker *w)
{
	bool f[BRNF_NFAMILIES], g[BRNF_NFAMILIES];
	unsigned int i;
	int err, fd;

	for (i = 0; i < BRNF_NFAMILIES; i++) {
		f[i] = rnd_below(w, 2);
		g[i] = rnd_below(w, 2);
	}
	f[rnd_below(w, BRNF_NFAMILIES)] = true;	/* a bridge with flags set */
	note(w, "bridge nsbr nf_call_* %d%d%d, sysctls %d%d%d", f[0], f[1], f[2], g[0], g[1],
	     g[2]);
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		pr_err("unshare(CLONE_NEWNET): %s", strerror(errno));
		return err;
	}
	err = ns_fill(w, f, g);
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (setns(w->self_fd, CLONE_NEWNET)) {
		pr_err("setns back to the AP namespace: %s", strerror(errno));
		_exit(3);
	}
	if (fd < 0)
		return -errno;
	/* Even a half-built one is kept, to be deleted like the others. */
	w->nsfd[w->nns++] = fd;
	return err;
}

/* Delete: drop the last reference; sometimes clear the bridge's flags first. */
static int op_ns_del(struct worker *w)
{
	unsigned int i = rnd_below(w, w->nns);
	bool clear = rnd_below(w, 3) == 0;
	int err = 0;

	note(w, "namespace %u of %u%s", i, w->nns, clear ? ", flags cleared first" : "");
	if (clear) {
		static const bool zero[BRNF_NFAMILIES];
		struct nl *nl = calloc(1, sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		if (setns(w->nsfd[i], CLONE_NEWNET)) {
			err = -errno;
		} else {
			err = nl_open(nl);
			if (!err) {
				err = brflags_set(nl, "nsbr", zero);
				nl_close(nl);
			}
			if (setns(w->self_fd, CLONE_NEWNET)) {
				pr_err("setns back to the AP namespace: %s", strerror(errno));
				_exit(3);
			}
		}
		free(nl);
	}
	close(w->nsfd[i]);
	w->nsfd[i] = w->nsfd[--w->nns];
	return err;
}

/* rmmod br_netfilter and modprobe it again; both must succeed */
static int op_module(struct worker *w)
{
	static char *const rm[] = { "rmmod", "br_netfilter", NULL };
	static char *const load[] = { "modprobe", "br_netfilter", NULL };
	char *err_out = NULL;
	int rc;

	note(w, "rmmod br_netfilter; modprobe br_netfilter");
	/* odd from here until modprobe has returned: the sysctls may be missing */
	__atomic_add_fetch(&w->sh->module_gen, 1, __ATOMIC_SEQ_CST);
	rc = proc_run(NULL, rm, NULL, &err_out, 60);
	if (rc) {
		pr_err("rmmod br_netfilter: %s", err_out && *err_out ? err_out : "failed");
		free(err_out);
		__atomic_add_fetch(&w->sh->module_gen, 1, __ATOMIC_SEQ_CST);
		return rc < 0 ? rc : -EIO;
	}
	free(err_out);
	err_out = NULL;
	rc = proc_run(NULL, load, NULL, &err_out, 60);
	__atomic_add_fetch(&w->sh->module_gen, 1, __ATOMIC_SEQ_CST);
	if (rc)
		pr_err("modprobe br_netfilter: %s", err_out && *err_out ? err_out : "failed");
	free(err_out);
	return rc < 0 ? rc : rc ? -EIO : 0;
}

static unsigned int weight_of(const struct worker *w, enum storm_op k)
{
	return k == OP_MODULE && !w->churn ? 0 : weight[k];
}

static enum storm_op pick(struct worker *w)
{
	unsigned int total = 0, k, r;

	for (k = 0; k < OP_NKINDS; k++)
		total += weight_of(w, k);
	r = rnd_below(w, total);
	for (k = 0; k < OP_NKINDS - 1 && r >= weight_of(w, k); k++)
		r -= weight_of(w, k);
	/* an add on a full pool becomes a delete, and the other way round */
	if ((k == OP_BR_ADD && w->nbr == MAX_BR) || (k == OP_BR_DEL && !w->nbr))
		k = k == OP_BR_ADD ? OP_BR_DEL : OP_BR_ADD;
	if ((k == OP_PORT_ADD && w->nports == MAX_PORTS) || (k == OP_PORT_DEL && !w->nports))
		k = k == OP_PORT_ADD ? OP_PORT_DEL : OP_PORT_ADD;
	if ((k == OP_NS_ADD && w->nns == MAX_NS) || (k == OP_NS_DEL && !w->nns))
		k = k == OP_NS_ADD ? OP_NS_DEL : OP_NS_ADD;
	return k;
}

static int (*const op_fn[OP_NKINDS])(struct worker *) = {
	[OP_SYSCTL] = op_sysctl, [OP_NL_FLAG] = op_nl_flag, [OP_SYSFS_FLAG] = op_sysfs_flag,
	[OP_BR_ADD] = op_br_add, [OP_BR_DEL] = op_br_del,
	[OP_PORT_ADD] = op_port_add, [OP_PORT_DEL] = op_port_del,
	[OP_NS_ADD] = op_ns_add, [OP_NS_DEL] = op_ns_del,
	[OP_MODULE] = op_module,
};

/* Enter AP with a private mount namespace and AP's own sysfs, as `ip netns exec`. */
static int worker_enter(struct worker *w, const char *ap)
{
	if (unshare(CLONE_NEWNS) || mount("", "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		pr_err("worker %u: private mount namespace: %s", w->id, strerror(errno));
		return -errno;
	}
	if (netns_enter(ap))
		return -EIO;
	if (umount2("/sys", MNT_DETACH) && errno != EINVAL) {
		pr_err("worker %u: umount /sys: %s", w->id, strerror(errno));
		return -errno;
	}
	if (mount(ap, "/sys", "sysfs", 0, NULL)) {
		pr_err("worker %u: mount sysfs of %s: %s", w->id, ap, strerror(errno));
		return -errno;
	}
	w->self_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (w->self_fd < 0)
		return -errno;
	return nl_open(&w->nl);
}

static void worker_run(struct worker *w, const struct storm_opts *o, const char *ap,
		       unsigned long nops, double deadline)
{
	struct storm_shared *sh = w->sh;
	unsigned long i;
	char path[300];
	int err;

	if (o->out) {
		snprintf(path, sizeof(path), "%s/ops-%u.log", o->out, w->id);
		w->log = fopen(path, "w");
	}
	err = worker_enter(w, ap);
	if (err) {
		snprintf(sh->first_error[w->id], sizeof(sh->first_error[0]),
			 "cannot enter %s: %s", ap, strerror(-err));
		_exit(1);
	}
	for (i = 0; i < nops; i++) {
		enum storm_op k;

		if (brnf_stop)
			_exit(130);
		if (now_sec() >= deadline) {
			sh->finished[w->id] = 2;
			_exit(0);
		}
		k = pick(w);
		w->detail[0] = '\0';
		err = op_fn[k](w);
		sh->done[w->id][k]++;
		if (err) {
			sh->failed[w->id][k]++;
			if (!sh->first_error[w->id][0])
				snprintf(sh->first_error[w->id], sizeof(sh->first_error[0]),
					 "%s %s: %s", storm_op_names[k], w->detail,
					 strerror(-err));
		}
		if (w->log)
			fprintf(w->log, "%.3f %s %s %s\n", now_sec() - w->t0, storm_op_names[k],
				w->detail, err ? strerror(-err) : "ok");
	}
	sh->finished[w->id] = 1;
	if (w->log)
		fclose(w->log);
	_exit(0);
}

int ops_start(struct storm_bed *bed, const struct storm_opts *o, struct storm_shared *sh,
	      double deadline, int *pids)
{
	unsigned int i;
	pid_t pid;

	for (i = 0; i < o->workers; i++) {
		unsigned long nops = o->ops / o->workers + (i < o->ops % o->workers);

		fflush(NULL);
		pid = fork();
		if (pid < 0)
			return -errno;
		if (pid == 0) {
			static struct worker w;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			/* the claim is the storm's: a worker that outlives a SIGKILLed storm
			 * by a moment must not hold it against the next one's replay */
			close(bed->tb.claim.fd);
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			w.id = i;
			w.sh = sh;
			w.churning = o->module_churn;
			w.churn = o->module_churn && i == 0;
			w.rng = splitmix(o->seed + i) | 1;
			w.t0 = now_sec();
			worker_run(&w, o, bed->tb.ns[TB_AP], nops, deadline);
		}
		pids[i] = pid;
	}
	return 0;
}
