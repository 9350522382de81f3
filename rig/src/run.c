// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf run`: the matrix loop. Builds the test bed, checks everything a row
 * needs before the first measurement, then for rep in 1..R, for each row,
 * for each direction: configure the AP, count, run the flows, verify, write
 * record.json. Ends with provenance.json, the atomic rename and the tables.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apctl.h"
#include "cmds.h"
#include "host.h"
#include "iperf.h"
#include "iperf_json.h"
#include "lock.h"
#include "matrix.h"
#include "netns.h"
#include "proc.h"
#include "progress.h"
#include "provenance.h"
#include "record.h"
#include "render.h"
#include "results.h"
#include "rigfile.h"
#include "rowcfg.h"
#include "ruleset.h"
#include "testbed.h"
#include "util.h"
#include "verify.h"
#include "version.h"

static const char *const directions[] = { "download", "upload" };

struct run_cfg {
	const char *matrix;
	const char *rig;
	unsigned long flows, time, omit, reps;
	bool offloads;
	bool count_iif;		/* --count iif: "-i" counting rules even with br_netfilter */
	const char *ruleset;
	const char *out;
	const char *part;
	bool no_render;
	const char *kernel_label;
	const char *only_kernel;
};

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

static int set_flows(void *ctx, const char *v)
{
	return parse_uint(v, 1, IPERF_MAX_FLOWS, &((struct run_cfg *)ctx)->flows);
}

static int set_time(void *ctx, const char *v)
{
	return parse_uint(v, 1, 3600, &((struct run_cfg *)ctx)->time);
}

static int set_omit(void *ctx, const char *v)
{
	return parse_uint(v, 0, 600, &((struct run_cfg *)ctx)->omit);
}

static int set_reps(void *ctx, const char *v)
{
	return parse_uint(v, 1, 1000, &((struct run_cfg *)ctx)->reps);
}

static int set_offloads(void *ctx, const char *v)
{
	struct run_cfg *c = ctx;

	if (strcmp(v, "on") && strcmp(v, "off"))
		return -EINVAL;
	c->offloads = !strcmp(v, "on");
	return 0;
}

static int set_count(void *ctx, const char *v)
{
	struct run_cfg *c = ctx;

	if (strcmp(v, "physdev") && strcmp(v, "iif"))
		return -EINVAL;
	c->count_iif = !strcmp(v, "iif");
	return 0;
}

static int set_no_render(void *ctx, const char *v)
{
	(void)v;
	((struct run_cfg *)ctx)->no_render = true;
	return 0;
}

const struct opt run_opts[] = {
	{ "--matrix", "FILE", "matrix file (default rig/matrices/default.matrix)", set_matrix },
	{ "--rig", "FILE", "rig file: where ap, sta and pc are and how to reach them"
	  " (default rig/rigs/netns.rig, the namespace test bed)", set_rig },
	{ "--flows", "N", "parallel iperf3 flows per run (default 3)", set_flows },
	{ "--time", "S", "seconds per flow, iperf3 -t (default 10)", set_time },
	{ "--omit", "S", "warm-up seconds left out, iperf3 -O (default 2)", set_omit },
	{ "--reps", "R", "repetitions of every cell (default 3)", set_reps },
	{ "--offloads", "on|off", "TSO/GSO/GRO on the veths of the namespace test bed"
	  " (default off)", set_offloads },
	{ "--ruleset", "NAME", "ruleset of rows that name none (default none)", set_ruleset },
	{ "--count", "physdev|iif", "the AP's counting rules: physdev (default where"
	  " br_netfilter is, verifies filtering) or iif (\"-i\" rules as on a kernel"
	  " without it: the same per-packet rule cost everywhere, verification n/a)",
	  set_count },
	{ "--out", "DIR", "results directory (default results/<date>-<uname -r>-netns);"
	  " an existing one gets a new part", set_out },
	{ "--part", "NAME", "raw/<NAME> inside the results directory (default running)",
	  set_part },
	{ "--no-render", NULL, "write raw data only (QEMU guests; the host renders)",
	  set_no_render },
	{ "--kernel-label", "NAME", "what rows with kernel=running are called, and which"
	  " kernel=NAME rows run (default running)", set_label },
	{ "--only-kernel", "NAME", "run only the rows with kernel=NAME, as NAME (QEMU guests"
	  " booted with variant NAME)", set_only },
	{ NULL, NULL, NULL, NULL },
};

struct run {
	struct run_cfg c;
	char matrix_path[1024];
	struct brnf_matrix m;
	struct brnf_row *rows;		/* as run: kernel label applied */
	char (*source)[1100];		/* "FILE:LINE" per row */
	bool *ran;
	unsigned int nran;
	char rig_path[1024];
	struct rig rig;
	struct host hosts[RIG_MAX_ROLES];
	struct ap ap;
	struct flow_hosts fh[IPERF_MAX_FLOWS];
	bool *unsupported;		/* per matrix row: needs br_netfilter, the AP has none */
	int restore;			/* -1 nothing saved, 0 restored and verified, 1 failed */
	struct testbed tb;
	bool tb_up;
	struct results res;
	bool res_open;
	enum verify_mode mode;
	char iperf_ver[64];
	unsigned int mismatches;
	unsigned int order;
};

/* Rows that set no ruleset= get --ruleset: look at the row's own line. */
static bool line_has_ruleset(const char *text, unsigned int line)
{
	const char *p = text, *e;
	unsigned int n = 1;

	while (n < line && (p = strchr(p, '\n')))
		p++, n++;
	if (!p)
		return false;
	e = strchrnul(p, '\n');
	for (const char *q = p; q < e; q++) {
		if (*q == '#')
			break;
		if ((q == p || q[-1] == ' ' || q[-1] == '\t') && !strncmp(q, "ruleset=", 8))
			return true;
	}
	return false;
}

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
	char *text = NULL;
	size_t i;

	r->rows = calloc(r->m.nrows, sizeof(*r->rows));
	r->source = calloc(r->m.nrows, sizeof(*r->source));
	r->ran = calloc(r->m.nrows, sizeof(*r->ran));
	r->unsupported = calloc(r->m.nrows, sizeof(*r->unsupported));
	if (!r->rows || !r->source || !r->ran || !r->unsupported)
		return -ENOMEM;
	if (r->c.ruleset && read_file(r->matrix_path, &text, NULL))
		text = NULL;
	for (i = 0; i < r->m.nrows; i++) {
		struct brnf_row *row = &r->rows[i];

		*row = r->m.rows[i];
		snprintf(r->source[i], sizeof(r->source[i]), "%s:%u", source_name(r->matrix_path),
			 row->line);
		if (r->c.ruleset && text && !line_has_ruleset(text, row->line))
			snprintf(row->ruleset, sizeof(row->ruleset), "%s", r->c.ruleset);
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
	free(text);
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

static bool in_path(const char *name)
{
	char *path = getenv("PATH"), *copy, *dir, *save, buf[1024];
	bool found = false;

	copy = strdup(path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/%s", dir, name);
		found = access(buf, X_OK) == 0;
	}
	free(copy);
	return found;
}

/* Tools brnf runs itself: iperf3 for netns/local sta and pc roles, nft and
 * iptables for a netns AP. Remote hosts are asked in hosts_check(). */
static int tools_check(struct run *r)
{
	static const struct { const char *bin, *pkg; bool ap; } tools[] = {
		{ "iperf3", "iperf3", false }, { "nft", "nftables", true },
		{ "iptables", "iptables", true }, { "iptables-restore", "iptables", true },
	};
	bool local_iperf = false, local_ap;
	unsigned int i;

	for (i = 0; i < r->rig.nroles; i++)
		if (r->rig.roles[i].kind != RIG_AP && r->rig.roles[i].transport != RIG_SSH)
			local_iperf = true;
	local_ap = rig_role(&r->rig, "ap")->transport == RIG_NETNS;
	for (i = 0; i < ARRAY_SIZE(tools); i++)
		if ((tools[i].ap ? local_ap : local_iperf) && !in_path(tools[i].bin)) {
			pr_err("%s not found; install it: apt-get install %s", tools[i].bin,
			       tools[i].pkg);
			return -ENOENT;
		}
	if (local_iperf && iperf_version(r->iperf_ver, sizeof(r->iperf_ver))) {
		pr_err("iperf3 --version failed; is iperf3 installed?");
		return -ENOENT;
	}
	return 0;
}

/* The rig's roles as hosts; every sta and pc has iperf3, the AP is probed.
 * Nothing is changed anywhere before this passed. */
static int hosts_check(struct run *r)
{
	static const char iperf_script[] =
		"if ! v=$(iperf3 --version 2>/dev/null); then echo 'iperf3 not found' >&2; "
		"exit 3; fi; echo \"$v\" | head -n 1";
	const struct rig_role *sta[RIG_MAX_ROLES], *pc[RIG_MAX_ROLES];
	unsigned int i, nsta, npc, b;
	int err;

	for (i = 0; i < r->rig.nroles; i++) {
		const struct rig_role *role = &r->rig.roles[i];
		const char *ns = NULL;
		char path[300], *out = NULL, *errs = NULL;

		if (r->rig.testbed)
			ns = r->tb.ns[role->kind == RIG_AP ? TB_AP : role->kind == RIG_STA ?
				      TB_STA : TB_PC];
		host_init(&r->hosts[i], role, ns);
		if (role->transport == RIG_NETNS && !r->rig.testbed) {
			snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", role->netns);
			if (strncmp(role->netns, NETNS_PREFIX, strlen(NETNS_PREFIX)) ||
			    !path_exists(path)) {
				pr_err("%s:%u: role %s: no namespace %s (brnf only enters "
				       "namespaces named " NETNS_PREFIX "*)", r->rig_path,
				       role->line, role->name, path);
				return -ENOENT;
			}
		}
		if (role->kind == RIG_AP)
			continue;
		err = host_sh(&r->hosts[i], iperf_script, NULL, 0, &out, &errs, 30);
		if (host_failed(&r->hosts[i], err, errs)) {
			err = err < 0 ? err : -EIO;
		} else if (err) {
			pr_err("%s: iperf3 not found; install it (OpenWrt: opkg install iperf3, "
			       "Debian: apt-get install iperf3)", r->hosts[i].what);
			err = -ENOENT;
		} else if (!r->iperf_ver[0] && out) {
			chomp(out);
			snprintf(r->iperf_ver, sizeof(r->iperf_ver), "%s", out);
		}
		free(out);
		free(errs);
		if (err)
			return err;
	}
	nsta = rig_roles_of(&r->rig, RIG_STA, sta, RIG_MAX_ROLES);
	npc = rig_roles_of(&r->rig, RIG_PC, pc, RIG_MAX_ROLES);
	for (i = 0; i < IPERF_MAX_FLOWS; i++) {
		r->fh[i].client = &r->hosts[sta[i % nsta] - r->rig.roles];
		r->fh[i].server = &r->hosts[pc[i % npc] - r->rig.roles];
		r->fh[i].addr = pc[i % npc]->addr;
	}
	for (i = 0; i < r->rig.nroles; i++)
		if (r->rig.roles[i].kind == RIG_AP)
			r->ap.h = r->hosts[i];
	r->ap.native = r->ap.h.transport == RIG_NETNS;
	r->ap.built = r->rig.testbed;
	for (b = 0; b < TB_NBRIDGES; b++)
		r->ap.port[b] = rig_bridge_port(r->ap.h.role, tb_bridges[b]);
	return ap_probe(&r->ap);
}

/* Rows that switch br_netfilter on cannot run on an AP without it. */
static int rows_unsupported(struct run *r)
{
	size_t i;

	if (r->ap.br_netfilter)
		return 0;
	for (i = 0; i < r->m.nrows; i++) {
		if (!r->ran[i] || !rowcfg_needs_brnf(&r->rows[i]))
			continue;
		r->ran[i] = false;
		r->unsupported[i] = true;
		r->nran--;
		fprintf(stderr, "brnf: row %s: unsupported, %s has no br_netfilter "
			"(/proc/sys/net/bridge); the other rows run\n", r->source[i], r->ap.h.what);
	}
	if (!r->nran) {
		pr_err("%s has no br_netfilter and every row needs it", r->ap.h.what);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Everything the rows need, before the first measurement. */
static int preflight(struct run *r)
{
	const struct host *ap = &r->ap.h;
	size_t i, j;
	int err;

	/* Each ruleset once, so a missing kernel feature shows now, not in an hour. */
	for (i = 0; i < r->m.nrows; i++) {
		bool seen = false;

		if (!r->ran[i])
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = r->ran[j] && !strcmp(r->rows[j].ruleset, r->rows[i].ruleset);
		if (seen)
			continue;
		err = ruleset_load(ap, r->rows[i].ruleset);
		if (err)
			return err;
	}
	r->mode = r->ap.br_netfilter && !r->c.count_iif ? VERIFY_PHYSDEV : VERIFY_IIF;
	err = ruleset_load(ap, "none");
	if (!err)
		err = verify_install(ap, r->ap.port, r->mode);
	if (err && r->mode == VERIFY_PHYSDEV) {
		fprintf(stderr, "brnf: no iptables physdev match; filtering verification is n/a\n");
		r->mode = VERIFY_IIF;
		err = verify_install(ap, r->ap.port, r->mode);
	}
	return err;
}

static enum verdict judge(const struct run *r, struct verification *v, bool mismatch)
{
	unsigned int b;

	if (mismatch)
		return VERDICT_NO;
	if (r->mode != VERIFY_PHYSDEV)
		return VERDICT_NA;
	for (b = 0; b < TB_NBRIDGES; b++)
		if (v->expected[b] != (v->packets[b] > 0))
			return VERDICT_NO;
	return VERDICT_YES;
}

/* One cell: row i, direction d, repetition rep. */
static int run_one(struct run *r, size_t i, unsigned int d, unsigned int rep)
{
	struct flow_opts fo = { r->c.flows, r->c.time, r->c.omit, d == 0 };
	struct record rec = {
		.row = &r->rows[i], .index = i, .source = r->source[i],
		.direction = directions[d], .repetition = rep, .order = r->order,
		.nflows = r->c.flows, .port0 = IPERF_PORT0,
	};
	double bps[IPERF_MAX_FLOWS] = {}, sum = 0;
	char dir[1400], key[256], rates[256] = "";
	bool mismatch = false;
	unsigned int k, n = 0;
	int err;

	row_key(&r->rows[i], key, sizeof(key));
	progress_cell(r->order + 1, key);
	err = rowcfg_apply(&r->ap, &r->rows[i], r->source[i], r->mode, &rec.rb, &mismatch);
	if (!err)
		err = results_run_dir(&r->res, r->order, directions[d], dir, sizeof(dir));
	if (!err)
		err = verify_zero(&r->ap.h);
	if (!err)
		err = flows_run(r->fh, &fo, dir, bps);
	if (!err)
		err = verify_read(&r->ap.h, r->ap.port, r->mode, rec.v.packets);
	if (err)
		return err;
	rowcfg_expected(&r->rows[i], rec.v.expected);
	rec.v.result = judge(r, &rec.v, mismatch);
	err = record_write(dir, &rec);
	if (err)
		return err;
	for (k = 0; k < r->c.flows; k++) {
		sum += bps[k];
		n += snprintf(rates + n, sizeof(rates) - n, "%s%.1f", k ? " " : "", bps[k] / 1e6);
		if (n >= sizeof(rates))
			break;
	}
	/* expect=mismatch rows document a design that ignores its configuration:
	 * there "no" is the result and "yes" the failure */
	if ((rec.v.result == VERDICT_NO) != r->rows[i].expect_mismatch)
		r->mismatches++;
	progress_line("%4u %-8s rep %u  %8.1f Mbit/s (%s)  verify %s (%s %" PRIu64 ", %s %" PRIu64
		      ")  %s", r->order + 1, directions[d], rep, sum / 1e6, rates,
		      verdict_names[rec.v.result], tb_bridges[0], rec.v.packets[0],
		      tb_bridges[1], rec.v.packets[1], key);
	if (rec.v.result == VERDICT_NO)
		pr_err("filtering verification failed for row %s (%s rep %u): expected "
		       "iptables on %s %s, on %s %s; counted %" PRIu64 " and %" PRIu64 " packets",
		       r->source[i], directions[d], rep, tb_bridges[0],
		       rec.v.expected[0] ? "yes" : "no", tb_bridges[1],
		       rec.v.expected[1] ? "yes" : "no", rec.v.packets[0], rec.v.packets[1]);
	r->order++;
	return 0;
}

static int matrix_loop(struct run *r)
{
	unsigned int rep, d;
	size_t i;
	int err;

	progress_init(r->c.reps * r->nran * ARRAY_SIZE(directions),
		      r->c.time + r->c.omit + 1.5);
	for (rep = 1; rep <= r->c.reps; rep++)
		for (i = 0; i < r->m.nrows; i++) {
			if (!r->ran[i])
				continue;
			for (d = 0; d < ARRAY_SIZE(directions); d++) {
				if (brnf_stop)
					return -EINTR;
				err = run_one(r, i, d, rep);
				if (err)
					return brnf_stop ? -EINTR : err;
			}
		}
	progress_end();
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

static int finish(struct run *r, double t0, const char *date_start)
{
	struct provenance p = {
		.part = r->c.part, .kernel_label = r->c.kernel_label,
		.matrix_path = r->matrix_path, .m = &r->m, .row_ran = r->ran, .rows = r->rows,
		.flows = r->c.flows, .time = r->c.time, .omit = r->c.omit, .reps = r->c.reps,
		.port0 = IPERF_PORT0, .tb = &r->tb, .mode = r->mode,
		.rig = &r->rig, .rig_path = r->rig_path, .ap = &r->ap,
		.unsupported = r->unsupported, .restore = r->restore,
		.iperf_version = r->iperf_ver, .runs_done = r->order,
		.wall_seconds = now_sec() - t0,
	};

	snprintf(p.date_start, sizeof(p.date_start), "%s", date_start);
	provenance_now(p.date_end, sizeof(p.date_end));
	return provenance_write(r->res.part, &p);
}

/* Put the AP back as it was (only an AP brnf did not build); r->restore says how it went. */
static void restore_ap(struct run *r)
{
	if (!r->ap.saved)
		return;
	fprintf(stderr, "brnf: restoring the settings of %s\n", r->ap.h.what);
	r->restore = ap_restore(&r->ap) ? 1 : 0;
}

static void hosts_end(struct run *r)
{
	unsigned int i;

	for (i = 0; i < r->rig.nroles; i++)
		host_close(&r->hosts[i]);
	hosts_cleanup();
}

int cmd_run(int argc, char **argv)
{
	struct run *r;
	char err_msg[512], date_start[32], defdir[1024];
	double t0 = now_sec();
	int err, ret = EXIT_ERR;

	r = calloc(1, sizeof(*r));
	if (!r)
		return EXIT_ERR;
	r->restore = -1;
	r->c = (struct run_cfg){ .flows = 3, .time = 10, .omit = 2, .reps = 3,
				 .part = "running", .kernel_label = "running" };
	if (opts_parse(run_opts, argc, argv, &r->c, NULL, 0) < 0) {
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
	if (r->c.offloads && !r->rig.testbed) {
		pr_err("--offloads: only for the namespace test bed (%s sets up no veths)",
		       r->rig_path);
		ret = EXIT_USAGE;
		goto out_free;
	}
	if (r->c.ruleset && matrix_check_ruleset(r->c.ruleset, err_msg, sizeof(err_msg))) {
		pr_err("--ruleset: %s", err_msg);
		ret = EXIT_USAGE;
		goto out_free;
	}
	if (rows_prepare(r) || tools_check(r))
		goto out_free;
	if (!r->c.out) {
		results_default_dir(defdir, sizeof(defdir));
		if (!r->rig.testbed) {
			/* results/<date>-<rig name>: the AP's kernel is not known yet */
			const char *base = strrchr(r->rig_path, '/'), *end;
			time_t t = time(NULL);
			char date[32];

			base = base ? base + 1 : r->rig_path;
			end = strstr(base, ".rig");
			strftime(date, sizeof(date), "%Y-%m-%dT%H%M%SZ", gmtime(&t));
			snprintf(defdir, sizeof(defdir), "results/%s-%.*s", date,
				 end ? (int)(end - base) : (int)strlen(base), base);
		}
		r->c.out = defdir;
	}
	if (lock_take())
		goto out_free;
	lock_reap_stale(false);
	ap_restore_scripts_left();
	provenance_now(date_start, sizeof(date_start));
	if (r->rig.testbed) {
		err = testbed_up(&r->tb, r->c.offloads, false);
		if (err)
			goto out_unlock;
		r->tb_up = true;
	}
	/* Hosts reachable, iperf3 everywhere, the AP probed: nothing changed yet. */
	err = hosts_check(r);
	if (!err)
		err = rows_unsupported(r);
	if (!err && !r->ap.built && !brnf_stop)
		err = ap_save(&r->ap);
	if (!err && !brnf_stop)
		err = preflight(r);
	if (!err && !brnf_stop)
		err = results_open(&r->res, r->c.out, r->c.part);
	if (err || brnf_stop)
		goto out_down;
	r->res_open = true;
	err = matrix_loop(r);
	if (!err) {
		restore_ap(r);
		err = finish(r, t0, date_start);
	}
	if (err)
		goto out_down;
	proc_kill_all();
	hosts_end(r);
	if (r->tb_up)
		testbed_down(&r->tb);
	r->tb_up = false;
	err = results_commit(&r->res);
	lock_release();
	if (err)
		goto out_free;
	fprintf(stderr, "brnf: %u runs in %.0f s; results in %s\n", r->order, now_sec() - t0,
		r->res.dir);
	ret = r->mismatches ? EXIT_MISMATCH : EXIT_OK;
	if (!r->c.no_render) {
		struct render_opts ro = { .print = true };

		err = render_dir(r->res.dir, &ro);
		if (err < 0)
			ret = EXIT_ERR;
		else if (err == RENDER_VERIFY_FAILED)
			ret = EXIT_MISMATCH;
	}
	if (r->restore == 1)
		ret = EXIT_ERR;
	goto out_free;

out_down:
	progress_end();
	if (brnf_stop)
		pr_err("interrupted; %sremoving the test bed and the partial results",
		       r->ap.saved ? "restoring the AP, " : "");
	proc_kill_all();
	restore_ap(r);
	hosts_end(r);
	if (r->tb_up)
		testbed_down(&r->tb);
	if (r->res_open)
		results_abort(&r->res);
out_unlock:
	lock_release();
out_free:
	run_free(r);
	free(r);
	return ret;
}
