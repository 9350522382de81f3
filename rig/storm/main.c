// SPDX-License-Identifier: GPL-2.0
/*
 * brnf-storm: a bounded, seeded toggle storm of the bridge-netfilter switches
 * under traffic, in namespaces brnfstorm<n>-{ap,sta,pc}. See usage().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "netns.h"
#include "proc.h"
#include "storm.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: brnf-storm [options]\n"
"  --ops N          operations in total, over all workers (default 10000)\n"
"  --short          1000 operations, 3 s flows, 300 s limit (for tests)\n"
"  --workers N      toggling processes (default 4, at most %d)\n"
"  --seed S         seed of the operation order (default: from the clock; printed)\n"
"  --time-limit S   seconds for the whole storm; reaching it is a failure (default 1800)\n"
"  --flow-time S    seconds per iperf3 run; runs repeat while the storm lasts (default 5)\n"
"  --flows N        iperf3 flows at once, 0-8 (default 4: IPv4/IPv6 x upload/download)\n"
"  --no-ping        no ping flood\n"
"  --expect MODE    hooks registered: latch (from the first ask on, whatever comes\n"
"                   after), ondemand (iff a switch is set), always (vanilla: iff a\n"
"                   bridge exists), auto (decided by the all-off check; default)\n"
"  --out DIR        write ops-<worker>.log, kernel.log, hooks.txt and summary.txt there\n"
"  --module-churn   worker 0 also unloads and loads br_netfilter (rmmod, modprobe) as\n"
"                   an operation; br_netfilter must be a loaded module (a guest's)\n"
"Exit status: 0 PASS, 1 FAIL (or error), 2 usage.\n", STORM_MAX_WORKERS);
}

static int parse_num(const char *opt, const char *s, unsigned long min, unsigned long max,
		     unsigned long *v)
{
	if (parse_uint(s, min, max, v)) {
		fprintf(stderr, "brnf-storm: %s '%s': not a number in [%lu, %lu]\n", opt, s, min,
			max);
		return -EINVAL;
	}
	return 0;
}

/* Is br_netfilter a loaded module (not built in, not absent)? */
static bool brnf_is_module(void)
{
	char line[256];
	bool found = false;
	FILE *f;

	f = fopen("/proc/modules", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "br_netfilter ", strlen("br_netfilter "));
	fclose(f);
	return found;
}

static int parse_args(int argc, char **argv, struct storm_opts *o)
{
	static const struct option lo[] = {
		{ "ops", required_argument, NULL, 'n' },
		{ "short", no_argument, NULL, 'S' },
		{ "workers", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "time-limit", required_argument, NULL, 'T' },
		{ "flow-time", required_argument, NULL, 't' },
		{ "flows", required_argument, NULL, 'f' },
		{ "no-ping", no_argument, NULL, 'P' },
		{ "expect", required_argument, NULL, 'e' },
		{ "out", required_argument, NULL, 'o' },
		{ "module-churn", no_argument, NULL, 'M' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	bool seeded = false;
	unsigned long v;
	int c;

	*o = (struct storm_opts){ .ops = 10000, .workers = 4, .time_limit = 1800,
				  .flow_time = 5, .flows = 4, .ping = true, .expect = "auto" };
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_num("--ops", optarg, 1, 100000000, &v))
				return -EINVAL;
			o->ops = v;
			break;
		case 'S':
			o->ops = 1000;
			o->flow_time = 3;
			o->time_limit = 300;
			break;
		case 'w':
			if (parse_num("--workers", optarg, 1, STORM_MAX_WORKERS, &v))
				return -EINVAL;
			o->workers = v;
			break;
		case 's':
			if (parse_num("--seed", optarg, 0, ~0UL, &v))
				return -EINVAL;
			o->seed = v;
			seeded = true;
			break;
		case 'T':
			if (parse_num("--time-limit", optarg, 1, 86400, &v))
				return -EINVAL;
			o->time_limit = v;
			break;
		case 't':
			if (parse_num("--flow-time", optarg, 1, 3600, &v))
				return -EINVAL;
			o->flow_time = v;
			break;
		case 'f':
			if (parse_num("--flows", optarg, 0, 8, &v))
				return -EINVAL;
			o->flows = v;
			break;
		case 'P':
			o->ping = false;
			break;
		case 'e':
			if (strcmp(optarg, "auto") && strcmp(optarg, "ondemand") &&
			    strcmp(optarg, "latch") && strcmp(optarg, "always")) {
				fprintf(stderr, "brnf-storm: --expect '%s': use auto, latch, "
					"ondemand or always\n", optarg);
				return -EINVAL;
			}
			o->expect = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'M':
			o->module_churn = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "brnf-storm: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->module_churn && !brnf_is_module()) {
		fprintf(stderr, "brnf-storm: --module-churn: br_netfilter is not a loaded module "
			"(not in /proc/modules)\n");
		return -EINVAL;
	}
	if (!seeded) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		o->seed = ((unsigned long)ts.tv_sec * 1000003UL) ^ ts.tv_nsec ^ getpid();
		o->seed %= 1000000000UL;
	}
	return 0;
}

/* Everything printed goes to stdout and, with --out, to summary.txt too. */
static FILE *tee_file;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (tee_file) {
		va_start(ap, fmt);
		vfprintf(tee_file, fmt, ap);
		va_end(ap);
	}
	fflush(stdout);
}

static FILE *out_open(const struct storm_opts *o, const char *name)
{
	char path[400];
	FILE *f;

	if (!o->out)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", o->out, name);
	f = fopen(path, "w");
	if (!f)
		pr_err("%s: %s", path, strerror(errno));
	return f;
}

static void kill_workers(int *pids, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
			pids[i] = 0;
		}
}

int main(int argc, char **argv)
{
	static struct storm_bed bed;
	int pids[STORM_MAX_WORKERS] = {};
	unsigned long long bytes = 0;
	unsigned long tot_done = 0, tot_failed = 0, kind_done[OP_NKINDS] = {};
	unsigned long kind_failed[OP_NKINDS] = {};
	unsigned int i, k, splats, flow_failed = 0, running, limit_hit = 0, lost = 0;
	struct storm_shared *sh;
	struct traffic *t = NULL;
	struct storm_opts o;
	struct kmsg *km;
	struct utsname u;
	double t0, deadline, t_ops = 0;
	FILE *klog = NULL, *hooks_f;
	char err[256] = "", leaks_str[16] = "n/a";
	int hooks_failed = -1, rc, worker_bad = 0, leak_on, leaks = -1;
	bool fail = false;

	if (parse_args(argc, argv, &o))
		return 2;
	if (geteuid()) {
		fprintf(stderr, "brnf-storm: must run as root (it creates network namespaces)\n");
		return 1;
	}
	if (o.out && mkdir_p(o.out)) {
		fprintf(stderr, "brnf-storm: %s: cannot create\n", o.out);
		return 1;
	}
	tee_file = out_open(&o, "summary.txt");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (netns_init()) {
		pr_err("cannot open the starting network namespace");
		return 1;
	}
	signals_install();
	bed_reap_stale();
	uname(&u);
	say("brnf-storm: kernel %s, seed %lu, %lu operations in %u workers, time limit %u s, "
	    "%u flows of %u s%s, expect %s, module churn %s\n", u.release, o.seed, o.ops,
	    o.workers, o.time_limit, o.flows, o.flow_time, o.ping ? " + ping flood" : "",
	    o.expect, o.module_churn ? "on" : "off");

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		pr_err("mmap: %s", strerror(errno));
		return 1;
	}
	memset(sh, 0, sizeof(*sh));
	klog = out_open(&o, "kernel.log");
	km = kmsg_open(klog);
	leak_on = leak_begin();
	if (leak_on < 0)
		say("brnf-storm: kmemleak: cannot clear the boot's reports: %s\n",
		    strerror(-leak_on));
	t0 = now_sec();
	deadline = t0 + o.time_limit;
	if (bed_up(&bed)) {
		say("brnf-storm: cannot build the test bed\nFAIL\n");
		return 1;
	}
	if (bed_rules(&bed)) {
		say("brnf-storm: cannot load the AP's rules\n");
		fail = true;
		goto out_down;
	}
	if (o.flows || o.ping) {
		t = traffic_start(&bed, &o, err, sizeof(err));
		if (!t) {
			say("brnf-storm: traffic: %s\n", err);
			fail = true;
			goto out_down;
		}
	}
	say("brnf-storm: test bed %s/-sta/-pc up, traffic running, storm starts\n",
	    bed.tb.ns[TB_AP]);
	if (ops_start(&bed, &o, sh, deadline, pids)) {
		say("brnf-storm: cannot fork the workers\n");
		fail = true;
		goto out_kill;
	}
	do {
		running = 0;
		for (i = 0; i < o.workers; i++) {
			int st;

			if (!pids[i])
				continue;
			if (waitpid(pids[i], &st, WNOHANG) == pids[i]) {
				if (!WIFEXITED(st) || WEXITSTATUS(st)) {
					worker_bad++;
					say("brnf-storm: worker %u ended with %s %d\n", i,
					    WIFEXITED(st) ? "status" : "signal",
					    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
				}
				pids[i] = 0;
				continue;
			}
			running++;
		}
		traffic_poll(t, true);
		kmsg_poll(km);
		if (running)
			usleep(50000);
		if (now_sec() > deadline + 30) {
			say("brnf-storm: workers still running 30 s past the time limit\n");
			kill_workers(pids, o.workers);
			worker_bad++;
			break;
		}
	} while (running && !brnf_stop);
	t_ops = now_sec() - t0;
	if (brnf_stop) {
		say("brnf-storm: interrupted\n");
		kill_workers(pids, o.workers);
		fail = true;
		goto out_kill;
	}
	traffic_finish(t);
	kmsg_poll(km);

	for (i = 0; i < o.workers; i++) {
		for (k = 0; k < OP_NKINDS; k++) {
			kind_done[k] += sh->done[i][k];
			kind_failed[k] += sh->failed[i][k];
		}
		if (sh->finished[i] == 2)
			limit_hit++;
		if (sh->first_error[i][0])
			say("worker %u first error: %s\n", i, sh->first_error[i]);
	}
	say("operations:");
	for (k = 0; k < OP_NKINDS; k++) {
		say(" %s %lu", storm_op_names[k], kind_done[k]);
		tot_done += kind_done[k];
		tot_failed += kind_failed[k];
	}
	say("\noperations: %lu done of %lu, %lu failed, in %.1f s (%.0f/s)\n", tot_done, o.ops,
	    tot_failed, t_ops, tot_done / (t_ops > 0 ? t_ops : 1));
	if (limit_hit)
		say("operations: the time limit of %u s stopped %u worker(s)\n", o.time_limit,
		    limit_hit);
	if (t) {
		flow_failed = traffic_report(t, stdout, &bytes);
		if (tee_file)
			traffic_report(t, tee_file, &bytes);
	}
	say("bytes moved: %llu (iperf3, received)\n", bytes);

	hooks_f = out_open(&o, "hooks.txt");
	hooks_failed = check_hooks(&bed, o.expect, hooks_f ? hooks_f : stdout);
	if (hooks_f) {
		fclose(hooks_f);
		say("hooks: details in %s/hooks.txt\n", o.out);
	}
	if (hooks_failed < 0)
		say("hooks check: n/a (nft list hooks lists nothing on this kernel)\n");
	else
		say("hooks check: %d failed\n", hooks_failed);

out_kill:
	traffic_kill(t);
out_down:
	bed_down(&bed);
	/* Namespaces die asynchronously: give their exit paths time to log. */
	sleep(2);
	if (leak_on > 0) {
		FILE *lf = out_open(&o, "kmemleak.txt");

		leaks = leak_end(lf);
		if (lf)
			fclose(lf);
		if (leaks < 0)
			say("kmemleak: scan failed: %s\n", strerror(-leaks));
		else
			say("kmemleak: %d unreferenced object(s)%s\n", leaks,
			    leaks && o.out ? " (see kmemleak.txt)" : "");
	} else {
		say("kmemleak: not in this kernel (not checked)\n");
	}
	splats = kmsg_scan(km, &lost);
	if (klog)
		fclose(klog);
	kmsg_close(km);
	say("splats: %u%s\n", splats, km ? "" : " (kernel log not readable: not checked)");
	if (lost)
		say("kernel log: records were overwritten before they were read %u time(s): "
		    "the splat count is incomplete\n", lost);

	fail |= !km || lost || splats || leaks > 0 || (leak_on > 0 && leaks < 0) || worker_bad || tot_failed || tot_done < o.ops || limit_hit ||
		flow_failed || hooks_failed > 0;
	rc = fail ? 1 : 0;
	if (leaks >= 0)
		snprintf(leaks_str, sizeof(leaks_str), "%d", leaks);
	say("summary: seed %lu, operations %lu/%lu, failed operations %lu, flows failed %u, "
	    "bytes %llu, splats %u, leaks %s, hooks %s\n", o.seed, tot_done, o.ops, tot_failed,
	    flow_failed, bytes, splats, leaks_str, hooks_failed < 0 ? "n/a" :
	    hooks_failed ? "FAIL" : "ok");
	say("%s\n", fail ? "FAIL" : "PASS");
	if (tee_file)
		fclose(tee_file);
	return rc;
}
