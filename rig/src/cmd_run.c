// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf run`: options, then the order of a run (run.h): parse the matrix and
 * the rig, check the tools, take the lock, build the test bed (or reach the
 * rig), preflight, save the AP, the cells, restore the AP, provenance.json,
 * the atomic rename of the results directory and the tables.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "journal.h"
#include "ledger.h"
#include "lock.h"
#include "proc.h"
#include "progress.h"
#include "provenance.h"
#include "render.h"
#include "run.h"
#include "util.h"
#include "version.h"

#define OPT_SETTER(fn, field) \
	static int fn(void *ctx, const char *v) \
	{ \
		((struct run_cfg *)ctx)->field = v; \
		return 0; \
	}
OPT_SETTER(set_matrix, matrix)
OPT_SETTER(set_rig, rig)
OPT_SETTER(set_ruleset, ruleset)
OPT_SETTER(set_out, out)
OPT_SETTER(set_part, part)
OPT_SETTER(set_label, kernel_label)
OPT_SETTER(set_only, only_kernel)
OPT_SETTER(set_workloads, workloads)
OPT_SETTER(set_repeat_workloads, repeat_workloads)

#define UINT_SETTER(fn, field, min, max) \
	static int fn(void *ctx, const char *v) \
	{ \
		return parse_uint(v, min, max, &((struct run_cfg *)ctx)->field); \
	}
UINT_SETTER(set_flows, flows, 1, IPERF_MAX_FLOWS)
UINT_SETTER(set_time, time, 1, 3600)
UINT_SETTER(set_omit, omit, 0, 600)
UINT_SETTER(set_reps, reps, 1, 1000)
UINT_SETTER(set_packets, packets, 1000, 100000000)
/* 1 TiB per flow, or what an unsigned long holds (32-bit guests: mipsel) */
#define BYTES_MAX ((unsigned long)(ULONG_MAX < (1ULL << 40) ? ULONG_MAX : 1ULL << 40))
UINT_SETTER(set_bytes, bytes, 65536, BYTES_MAX)

/* v is one of two words; *is_second says which. */
static int one_of(const char *v, const char *first, const char *second, bool *is_second)
{
	if (strcmp(v, first) && strcmp(v, second))
		return -EINVAL;
	*is_second = !strcmp(v, second);
	return 0;
}

static int set_offloads(void *ctx, const char *v)
{
	return one_of(v, "off", "on", &((struct run_cfg *)ctx)->offloads);
}

static int set_neighbours(void *ctx, const char *v)
{
	return one_of(v, "permanent", "dynamic", &((struct run_cfg *)ctx)->dynamic_neigh);
}

static int set_verify(void *ctx, const char *v)
{
	return one_of(v, "after", "before", &((struct run_cfg *)ctx)->verify_before);
}

static int set_order(void *ctx, const char *v)
{
	return one_of(v, "reps", "rows", &((struct run_cfg *)ctx)->order_rows);
}

static int set_fresh_testbed(void *ctx, const char *v)
{
	(void)v;
	((struct run_cfg *)ctx)->fresh_testbed = true;
	return 0;
}

static int set_local_ap(void *ctx, const char *v)
{
	(void)v;
	((struct run_cfg *)ctx)->local_ap = true;
	return 0;
}

static int set_no_render(void *ctx, const char *v)
{
	(void)v;
	((struct run_cfg *)ctx)->no_render = true;
	return 0;
}

static int set_json(void *ctx, const char *v)
{
	(void)v;
	((struct run_cfg *)ctx)->json = true;
	return 0;
}

const struct opt run_opts[] = {
	{ "--matrix", "FILE", "matrix file (default rig/matrices/default.matrix)", set_matrix },
	{ "--rig", "FILE", "rig file: where ap, sta and pc are and how to reach them"
	  " (default rig/rigs/netns.rig, the namespace test bed)", set_rig },
	{ "--workloads", "LIST", "what each cell measures, in this order, comma separated: tcp"
	  " (the seed's, flows for --time), tcp-bytes (flows of --bytes), pps64, pps1514"
	  " (pktgen, --packets frames of 64 or 1518 bytes; the namespace test bed only)"
	  " (default pps64,pps1514,tcp where the kernel has pktgen, else tcp)",
	  set_workloads },
	{ "--flows", "N", "parallel iperf3 flows per run (default 3)", set_flows },
	{ "--time", "S", "seconds per flow, iperf3 -t (default 10); for tcp-bytes the most a"
	  " flow may take", set_time },
	{ "--omit", "S", "warm-up seconds left out, iperf3 -O (default 2)", set_omit },
	{ "--packets", "N", "frames per pps run (default 50000)", set_packets },
	{ "--bytes", "N", "bytes per flow of a tcp-bytes run, iperf3 -n (default 33554432)",
	  set_bytes },
	{ "--reps", "R", "repetitions of every cell (default 3)", set_reps },
	{ "--offloads", "on|off", "TSO/GSO/GRO on the veths of the namespace test bed"
	  " (default off)", set_offloads },
	{ "--neighbours", "permanent|dynamic", "the test bed's ARP and ND entries: permanent"
	  " (default: no run pays for neighbour resolution) or dynamic (to measure what"
	  " that costs)", set_neighbours },
	{ "--verify", "after|before", "when each row's verification pass (counting rules, a"
	  " short flow each way) runs: after its measured runs (default) or before them, to"
	  " show that its rules leave nothing behind", set_verify },
	{ "--fresh-testbed", NULL, "each repetition after the first (with --order rows: every"
	  " repetition but the run's first) on the namespace test bed built anew (new"
	  " namespaces, bridges, veths: what a namespace draws when it is made is drawn"
	  " again); the verification passes run on the last one", set_fresh_testbed },
	{ "--order", "reps|rows", "the measured runs' outer loop: reps (default: repetition 1 of"
	  " every row, then repetition 2 ..., so that drift favours no row) or rows (every"
	  " repetition of a row before the next row; with --fresh-testbed rows x reps test"
	  " beds, each but the run's first built anew: what a row leaves on for the rest of"
	  " the boot reaches only the rows after it)", set_order },
	{ "--repeat-workloads", "LIST", "the workloads of --workloads that repetitions 2..R"
	  " measure (default: all of them); the others run in the first repetition only, so that"
	  " more test beds can be drawn for the workloads a result is judged by",
	  set_repeat_workloads },
	{ "--ruleset", "NAME", "ruleset of rows that name none (default none)", set_ruleset },
	{ "--out", "DIR", "results directory (default results/<date and time>-<uname -r>-netns,"
	  " with -2, -3 ... when taken); an existing --out DIR gets a new part", set_out },
	{ "--part", "NAME", "raw/<NAME> inside the results directory (default running)",
	  set_part },
	{ "--local-ap", NULL, "allow a rig whose ap is transport=local, this machine: the run"
	  " replaces its nft ruleset and iptables mangle table (saved, restored at the end)",
	  set_local_ap },
	{ "--no-render", NULL, "write raw data only (QEMU guests; the host renders)",
	  set_no_render },
	{ "--json", NULL, "at the end a JSON summary on stdout (the verdict and every change"
	  " against the baseline) instead of the tables and the one-line verdict", set_json },
	{ "--kernel-label", "NAME", "what rows with kernel=running are called, and which"
	  " kernel=NAME rows run (default running)", set_label },
	{ "--only-kernel", "NAME", "run only the rows with kernel=NAME, as NAME (QEMU guests"
	  " booted with variant NAME)", set_only },
	{ NULL, NULL, NULL, NULL },
};

/* Files of the data directory are named as in the repository: rig/... */
static const char *source_name(const char *path)
{
	static char buf[1024];
	size_t n = strlen(brnf_datadir());

	if (strncmp(path, brnf_datadir(), n) || path[n] != '/')
		return path;
	snprintf(buf, sizeof(buf), "rig%s", path + n);
	return buf;
}

static int rows_prepare(struct run *r)
{
	char err[256];
	size_t i;

	r->rows = calloc(r->m.nrows, sizeof(*r->rows));
	r->source = calloc(r->m.nrows, sizeof(*r->source));
	r->ran = calloc(r->m.nrows, sizeof(*r->ran));
	r->unsupported = calloc(r->m.nrows, sizeof(*r->unsupported));
	if (!r->rows || !r->source || !r->ran || !r->unsupported)
		return -ENOMEM;
	for (i = 0; i < r->m.nrows; i++) {
		struct brnf_row *row = &r->rows[i];

		*row = r->m.rows[i];
		snprintf(r->source[i], sizeof(r->source[i]), "%s:%u", source_name(r->matrix_path),
			 row->line);
		if (r->c.ruleset && !row->ruleset_set)
			snprintf(row->ruleset, sizeof(row->ruleset), "%s", r->c.ruleset);
		/* the matrix checked the rows' own rulesets, this --ruleset's */
		if (matrix_check_path_ruleset(row, err, sizeof(err))) {
			pr_err("%s: --ruleset %s: %s", r->source[i], r->c.ruleset, err);
			return -EINVAL;
		}
		if (r->c.only_kernel) {
			r->ran[i] = !strcmp(row->kernel, r->c.only_kernel);
		} else {
			if (!strcmp(row->kernel, "running"))
				snprintf(row->kernel, sizeof(row->kernel), "%s",
					 r->c.kernel_label);
			r->ran[i] = !strcmp(row->kernel, r->c.kernel_label);
		}
		r->nran += r->ran[i];
	}
	for (i = 0; i < r->m.nrows; i++)
		r->need_sta2 |= r->ran[i] && r->rows[i].path == BRNF_PATH_WLAN;
	if (!r->nran) {
		pr_err("%s: no row for kernel %s", r->matrix_path,
		       r->c.only_kernel ? r->c.only_kernel : r->c.kernel_label);
		return -EINVAL;
	}
	if (r->nran < r->m.nrows)
		fprintf(stderr, "brnf: %zu row(s) of %s are for other kernels; skipped\n",
			r->m.nrows - r->nran, r->matrix_path);
	return 0;
}

/* An AP with transport=local is the machine brnf runs on: only when asked. */
static bool local_ap_refused(const struct run *r)
{
	const struct rig_role *ap = rig_role(&r->rig, "ap");

	if (ap->transport != RIG_LOCAL || r->c.local_ap)
		return false;
	pr_err("%s:%u: role ap transport=local is this machine: a run replaces its nft ruleset "
	       "and its iptables mangle table (saved first, restored at the end); give "
	       "--local-ap to allow that", r->rig_path, ap->line);
	return true;
}

/*
 * path=wlan rows on a rig of other hosts: its role sta2 is the second station, on the
 * AP's br-wlan, where its iperf3 servers listen (addr=). The first such row names
 * where it was asked for.
 */
static bool sta2_refused(const struct run *r)
{
	const struct rig_role *sta2 = rig_role(&r->rig, "sta2");
	size_t i;

	if (!r->need_sta2 || r->rig.testbed)
		return false;
	for (i = 0; i < r->m.nrows; i++)
		if (r->ran[i] && r->rows[i].path == BRNF_PATH_WLAN)
			break;
	if (!sta2)
		pr_err("%s: no role sta2, which the path=wlan row %s needs (the second station "
		       "on br-wlan: role=sta2 ... addr=ADDRESS)", r->rig_path, r->source[i]);
	else if (!sta2->addr[0])
		pr_err("%s:%u: role sta2 has no addr=, which the path=wlan row %s needs (where "
		       "its iperf3 servers listen)", r->rig_path, sta2->line, r->source[i]);
	return !sta2 || !sta2->addr[0];
}

/* pktgen needs the test bed's links and addresses, which a rig file does not give. */
static bool pps_refused(const struct run *r)
{
	unsigned int k;

	for (k = 0; k < r->nwl && !r->rig.testbed; k++)
		if (workload_is_pps(r->wl[k])) {
			pr_err("--workloads %s: the pps workloads run on the namespace test bed "
			       "only, not on the hosts of %s", brnf_workloads[r->wl[k]].name,
			       r->rig_path);
			return true;
		}
	return false;
}

/* --repeat-workloads as a mask, each one of --workloads; without --workloads that
 * is checked in preflight_workloads(), once the default list is known. */
static int parse_repeat(struct run *r, char *err, size_t errlen)
{
	unsigned int wl[WL_N], n, k, have = workload_mask(r->wl, r->nwl);

	r->repeat_mask = ~0u;
	if (!r->c.repeat_workloads)
		return 0;
	if (workload_parse_list(r->c.repeat_workloads, wl, &n, err, errlen))
		return -EINVAL;
	r->repeat_mask = workload_mask(wl, n);
	for (k = 0; k < n && r->c.workloads; k++)
		if (!(have & (1u << wl[k]))) {
			snprintf(err, errlen, "%s is not one of --workloads %s",
				 brnf_workloads[wl[k]].name, r->c.workloads);
			return -EINVAL;
		}
	return 0;
}

static void run_free(struct run *r)
{
	matrix_free(&r->m);
	free(r->rows);
	free(r->source);
	free(r->ran);
	free(r->unsupported);
	ap_free(&r->ap);
}

static int finish(struct run *r, double t0, const char *date_start, char *msg, size_t msglen)
{
	struct provenance p = {
		.part = r->c.part, .kernel_label = r->c.kernel_label,
		.matrix_path = r->matrix_path, .m = &r->m, .row_ran = r->ran, .rows = r->rows,
		.flows = r->c.flows, .time = r->c.time, .omit = r->c.omit, .reps = r->c.reps,
		.wl = r->wl, .nwl = r->nwl, .packets = r->c.packets, .bytes = r->c.bytes,
		.port0 = IPERF_PORT0, .tb = &r->tb, .mode = r->mode,
		.verify_before = r->c.verify_before, .fresh_testbed = r->c.fresh_testbed,
		.order_rows = r->c.order_rows,
		.repeat_mask = r->repeat_mask,
		.rig = &r->rig, .rig_path = r->rig_path, .ap = &r->ap,
		.unsupported = r->unsupported, .restore = r->restore,
		.iperf_version = r->iperf_ver, .runs_done = r->order,
		.incomplete = r->incomplete[0] ? r->incomplete : NULL,
		.wall_seconds = now_sec() - t0,
	};

	snprintf(p.date_start, sizeof(p.date_start), "%s", date_start);
	provenance_now(p.date_end, sizeof(p.date_end));
	return provenance_write(r->res.part, &p, msg, msglen);
}

/* --- the undos of a run's steps (ledger.h), each pushed once its step succeeded */

static int undo_lock(void *arg)
{
	(void)arg;
	lock_release();
	return 0;
}

static int undo_children(void *arg)
{
	(void)arg;
	proc_kill_all();
	return 0;
}

static int undo_hosts(void *arg)
{
	struct run *r = arg;
	unsigned int i;

	for (i = 0; i < r->rig.nroles; i++)
		host_close(&r->hosts[i]);
	hosts_cleanup();
	return 0;
}

/* Put the AP back as it was (only an AP brnf did not build); r->restore says how it went. */
static int undo_ap(void *arg)
{
	struct run *r = arg;

	if (!r->ap.saved)
		return 0;
	fprintf(stderr, "brnf: restoring the settings of %s\n", r->ap.h.what);
	r->restore = ap_restore(&r->ap) ? 1 : 0;
	return r->restore ? -EIO : 0;
}

static int undo_results(void *arg)
{
	struct run *r = arg;

	results_abort(&r->res);
	journal_drop(r->res_journal);
	return 0;
}

static int undo_claim(void *arg)
{
	lock_unclaim(arg);
	return 0;
}

/* The directory of the run that failed (runs/<order>-*), half written. */
static void drop_failed_run(struct run *r)
{
	char runs[1300], prefix[16], path[1600];
	struct dirent *de;
	DIR *d;

	snprintf(runs, sizeof(runs), "%s/runs", r->res.part);
	snprintf(prefix, sizeof(prefix), "%04u-", r->order);
	d = opendir(runs);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", runs, de->d_name);
		rm_rf(path);
	}
	if (d)
		closedir(d);
}

/*
 * Everything a run changes, in order, each step's undo pushed on r->undo once it
 * succeeded. Returns 0 when the matrix ran and its results were committed.
 */
static int run_steps(struct run *r, double t0)
{
	char date_start[32], msg[4200], abs[PATH_MAX];
	int err, id_children, id_ap = -1, id_res;

	if (lock_take())
		return -EBUSY;
	if (ledger_push(&r->undo, "the run lock", undo_lock, NULL) < 0 ||
	    ledger_push(&r->undo, "child processes", undo_children, NULL) < 0)
		return -ENOMEM;
	lock_reap_stale(false);
	if (lock_reap_left() && !r->rig.testbed) {
		pr_err("a run that ended left what brnf could not undo (the lines above); the AP "
		       "may still carry its settings: put them back, then brnf cleanup");
		return -EBUSY;
	}
	provenance_now(date_start, sizeof(date_start));
	/* the claim and its journal (journal.h): the test bed's, else one of the run's */
	if (r->rig.testbed) {
		err = testbed_up(&r->tb, r->c.offloads, r->c.dynamic_neigh, r->need_sta2, false,
				 &r->undo);
	} else {
		err = lock_claim(&r->claim, false);
		if (!err && ledger_push(&r->undo, "the run's claim", undo_claim, &r->claim) < 0)
			err = -ENOMEM;
	}
	if (err)
		return err;
	/* ssh connections and their control directory, made as hosts are reached */
	if (ledger_push(&r->undo, "ssh connections", undo_hosts, r) < 0)
		return -ENOMEM;
	/* Hosts reachable, iperf3 everywhere, the AP probed: nothing changed yet. */
	err = preflight_hosts(r);
	if (!err)
		err = preflight_workloads(r);
	if (!err)
		err = preflight_rows(r);
	if (err || brnf_stop)
		return err ?: -EINTR;
	if (!r->ap.built) {
		err = ap_save(&r->ap);
		if (r->ap.saved)
			id_ap = ledger_push(&r->undo, "the AP's changed settings", undo_ap, r);
		if (err || id_ap < 0 || brnf_stop)
			return err ?: id_ap < 0 ? id_ap : -EINTR;
	}
	err = preflight_rulesets(r);
	if (err || brnf_stop)
		return err ?: -EINTR;
	/* journaled before it is made, by its absolute path: a replay may run from another
	 * directory, and one that finds nothing there has nothing to do */
	err = results_plan(&r->res, r->c.out, r->c.part);
	if (err)
		return err;
	if (results_where(&r->res)[0] != '/' && !getcwd(abs, sizeof(abs))) {
		err = -errno;
		pr_err("getcwd: %s", strerror(errno));
		return err;
	}
	if (results_where(&r->res)[0] == '/')
		abs[0] = '\0';
	if (strlen(abs) + strlen(results_where(&r->res)) + 2 > sizeof(abs))
		return -ENAMETOOLONG;
	if (abs[0])
		strcat(abs, "/");
	strcat(abs, results_where(&r->res));
	r->res_journal = journal_add_path("dir", abs);
	if (r->res_journal < 0)
		return r->res_journal;
	err = results_make(&r->res);
	if (err) {
		journal_drop(r->res_journal);
		return err;
	}
	id_res = ledger_push(&r->undo, "the temporary results directory", undo_results, r);
	journal_fault("results");
	id_children = ledger_push(&r->undo, "child processes", undo_children, NULL);
	if (id_res < 0 || id_children < 0)
		return -ENOMEM;
	err = run_cells(r);
	if (err && (err == -EINTR || brnf_stop || !r->order))
		return err;
	if (err) {
		/* an error, not a signal, after r->order runs: those stay (hours of them),
		 * the one that failed goes, and provenance.json says why it stopped */
		snprintf(r->incomplete, sizeof(r->incomplete), "run %u failed: %s", r->order,
			 strerror(-err));
		drop_failed_run(r);
	}
	/* The runs are measured: no unwind and no replay removes them from here on, not
	 * even after a SIGKILL during the AP's restore below. A finish that fails (a full
	 * disk) leaves them where they are, a name no later run takes
	 * (results_default_dir()), and says where. */
	ledger_forget(&r->undo, id_res);
	journal_drop(r->res_journal);
	journal_fault("measured");
	/* the children ended and the AP restored before provenance.json records it */
	ledger_run_one(&r->undo, id_children);
	ledger_run_one(&r->undo, id_ap);
	err = finish(r, t0, date_start, msg, sizeof(msg));
	if (!err)
		err = results_commit(&r->res, msg, sizeof(msg));
	if (err) {
		pr_err("%s; the %u runs stay in %s, not renamed into place", msg, r->order,
		       results_where(&r->res));
		return err;
	}
	return r->incomplete[0] ? -EIO : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run *r;
	char err_msg[512], defdir[1024], left[256];
	double t0 = now_sec();
	int err, left_err, ret = EXIT_ERR;

	r = calloc(1, sizeof(*r));
	if (!r)
		return EXIT_ERR;
	r->restore = -1;
	r->c = (struct run_cfg){ .flows = 3, .time = 10, .omit = 2, .reps = 3,
				 .packets = 50000, .bytes = 32UL << 20,
				 .part = "running", .kernel_label = "running" };
	if (opts_parse(run_opts, argc, argv, &r->c, NULL, 0) < 0) {
		free(r);
		return EXIT_USAGE;
	}
	if (r->c.json && r->c.no_render) {
		pr_err("--json: not with --no-render (the summary is the render's)");
		free(r);
		return EXIT_USAGE;
	}
	/* Names that reach the records and the results directory: refused now, not
	 * when the tables are rendered at the end, and before anything changes. */
	if (matrix_check_name("--kernel-label", r->c.kernel_label, err_msg, sizeof(err_msg)) ||
	    (r->c.only_kernel && matrix_check_name("--only-kernel", r->c.only_kernel, err_msg,
						    sizeof(err_msg)))) {
		pr_err("%s", err_msg);
		free(r);
		return EXIT_USAGE;
	}
	if (results_check_part(r->c.part, err_msg, sizeof(err_msg))) {
		pr_err("--part: %s", err_msg);
		free(r);
		return EXIT_USAGE;
	}
	if (r->c.workloads && workload_parse_list(r->c.workloads, r->wl, &r->nwl, err_msg,
						  sizeof(err_msg))) {
		pr_err("--workloads: %s", err_msg);
		free(r);
		return EXIT_USAGE;
	}
	if (parse_repeat(r, err_msg, sizeof(err_msg))) {
		pr_err("--repeat-workloads: %s", err_msg);
		free(r);
		return EXIT_USAGE;
	}
	if (r->c.only_kernel)
		r->c.kernel_label = r->c.only_kernel;
	if (r->c.matrix)
		snprintf(r->matrix_path, sizeof(r->matrix_path), "%s", r->c.matrix);
	else
		snprintf(r->matrix_path, sizeof(r->matrix_path), "%s/matrices/default.matrix",
			 brnf_datadir());
	if (r->c.rig)
		snprintf(r->rig_path, sizeof(r->rig_path), "%s", r->c.rig);
	else
		snprintf(r->rig_path, sizeof(r->rig_path), "%s/rigs/netns.rig", brnf_datadir());
	err = matrix_parse_file(r->matrix_path, &r->m, err_msg, sizeof(err_msg));
	if (err) {
		pr_err("%s", err_msg);
		goto out_free;
	}
	err = rig_parse_file(r->rig_path, &r->rig, err_msg, sizeof(err_msg));
	if (err) {
		pr_err("%s", err_msg);
		goto out_free;
	}
	if (local_ap_refused(r)) {
		ret = EXIT_USAGE;
		goto out_free;
	}
	if (pps_refused(r)) {
		ret = EXIT_USAGE;
		goto out_free;
	}
	if ((r->c.offloads || r->c.dynamic_neigh || r->c.fresh_testbed) && !r->rig.testbed) {
		pr_err("--%s: only for the namespace test bed (%s sets up no veths)",
		       r->c.offloads ? "offloads" : r->c.dynamic_neigh ? "neighbours" :
		       "fresh-testbed", r->rig_path);
		ret = EXIT_USAGE;
		goto out_free;
	}
	if (r->c.ruleset && matrix_check_ruleset(r->c.ruleset, err_msg, sizeof(err_msg))) {
		pr_err("--ruleset: %s", err_msg);
		ret = EXIT_USAGE;
		goto out_free;
	}
	if (rows_prepare(r) || preflight_tools(r))
		goto out_free;
	if (sta2_refused(r)) {
		ret = EXIT_USAGE;
		goto out_free;
	}
	if (!r->c.out) {
		if (results_default_dir(defdir, sizeof(defdir), r->rig.testbed ? NULL : r->rig_path))
			goto out_free;
		r->c.out = defdir;
	}
	if (results_check(r->c.out, r->c.part))
		goto out_free;
	err = run_steps(r, t0);
	progress_end();
	if (err && brnf_stop)
		pr_err("interrupted; %sremoving the test bed and the partial results",
		       r->ap.saved ? "restoring the AP, " : "");
	/* one unwind, the same after success, an error or a signal; what it could not undo
	 * (a namespace that is not the one made any more) fails the run */
	left_err = ledger_unwind_left(&r->undo, left, sizeof(left));
	if (left_err)
		pr_err("left behind at the end: %s", left);
	if (err && r->incomplete[0] && path_exists(r->res.part_final))
		fprintf(stderr, "brnf: the %u runs before it are kept in %s (provenance.json: "
			"\"incomplete\")\n", r->order, r->res.dir);
	if (err)
		goto out_free;
	fprintf(stderr, "brnf: %u runs in %.0f s; results in %s\n", r->order, now_sec() - t0,
		r->res.dir);
	ret = r->mismatches ? EXIT_MISMATCH : EXIT_OK;
	if (!r->c.no_render) {
		struct render_opts ro = { .print = !r->c.json, .json = r->c.json };

		err = render_dir(r->res.dir, &ro);
		if (err < 0)
			ret = EXIT_ERR;
		else if (err == RENDER_VERIFY_FAILED)
			ret = EXIT_MISMATCH;
	}
	if (r->restore == 1 || left_err)
		ret = EXIT_ERR;
out_free:
	run_free(r);
	free(r);
	return ret;
}
