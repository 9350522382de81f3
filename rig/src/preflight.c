// SPDX-License-Identifier: GPL-2.0
/*
 * `brnf run` before the first measurement (run.h): the tools brnf runs itself,
 * every host of the rig reachable with iperf3, the AP probed, rows the AP cannot
 * run marked, and every ruleset the rows use loaded once, so that a missing
 * kernel feature shows now and not an hour into the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netns.h"
#include "pktgen.h"
#include "rowcfg.h"
#include "ruleset.h"
#include "run.h"
#include "util.h"

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
 * iptables for a netns AP. Remote hosts are asked in preflight_hosts(). */
int preflight_tools(struct run *r)
{
	static const struct { const char *bin, *pkg; bool ap; } tools[] = {
		{ "iperf3", "iperf3", false }, { "nft", "nftables", true },
		{ "iptables", "iptables", true }, { "iptables-restore", "iptables", true },
	};
	bool local_iperf = false, local_ap, conntrack = false;
	struct brnf_ruleset info;
	unsigned int i;
	size_t k;

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
	/* the verification reads the pps flow's entry where a ruleset tracks connections */
	for (k = 0; k < r->m.nrows; k++) {
		row_ruleset_info(&r->rows[k], &info);
		conntrack |= r->ran[k] && info.conntrack;
	}
	if (local_ap && conntrack && !in_path("conntrack")) {
		pr_err("conntrack not found (the verification of rows with a ruleset that tracks "
		       "connections reads it); install it: apt-get install conntrack");
		return -ENOENT;
	}
	if (local_iperf && iperf_version(r->iperf_ver, sizeof(r->iperf_ver))) {
		pr_err("iperf3 --version failed; is iperf3 installed?");
		return -ENOENT;
	}
	return 0;
}

static const char iperf_script[] =
	"if ! v=$(iperf3 --version 2>/dev/null); then echo 'iperf3 not found' >&2; "
	"exit 3; fi; echo \"$v\" | head -n 1";

/* iperf3 on host h (a sta or pc role); its version kept when none is yet. */
static int iperf_check(struct run *r, const struct host *h)
{
	char *out = NULL, *errs = NULL;
	int err;

	err = host_sh(h, iperf_script, NULL, 0, &out, &errs, 30);
	if (host_failed(h, err, errs)) {
		err = err < 0 ? err : -EIO;
	} else if (err) {
		pr_err("%s: iperf3 not found; install it (OpenWrt: opkg install iperf3, "
		       "Debian: apt-get install iperf3)", h->what);
		err = -ENOENT;
	} else if (!r->iperf_ver[0] && out) {
		chomp(out);
		snprintf(r->iperf_ver, sizeof(r->iperf_ver), "%s", out);
	}
	free(out);
	free(errs);
	return err;
}

const struct flow_hosts *run_flows(const struct run *r, const struct brnf_row *row)
{
	return row->path == BRNF_PATH_WLAN ? r->fh_wlan : r->fh;
}

/*
 * path=wlan: the second station, the test bed's sta2 (a role of no rig file: it exists
 * only for such rows) or the rig's role sta2 (cmd_run.c checked it has addr=), and its
 * flows: every one from sta to the servers in sta2.
 */
static int sta2_hosts(struct run *r)
{
	const struct rig_role *sta = rig_role(&r->rig, "sta"), *sta2;
	unsigned int i;
	int err;

	if (!r->need_sta2)
		return 0;
	if (r->rig.testbed) {
		r->sta2_role = (struct rig_role){ .name = "sta2", .kind = RIG_STA,
						  .transport = RIG_NETNS };
		snprintf(r->sta2_role.addr, sizeof(r->sta2_role.addr), TB_STA2_ADDR4);
		host_init(&r->sta2_host, &r->sta2_role, r->tb.ns[TB_STA2]);
		r->sta2 = &r->sta2_host;
		err = iperf_check(r, r->sta2);
		if (err)
			return err;
	} else {
		r->sta2 = &r->hosts[rig_role(&r->rig, "sta2") - r->rig.roles];
	}
	sta2 = r->sta2->role;
	for (i = 0; i < IPERF_MAX_FLOWS; i++) {
		r->fh_wlan[i].client = &r->hosts[sta - r->rig.roles];
		r->fh_wlan[i].server = r->sta2;
		r->fh_wlan[i].addr = sta2->addr;
	}
	return 0;
}

/* The rig's roles as hosts; every sta and pc has iperf3, the AP is probed.
 * Nothing is changed anywhere before this passed. */
int preflight_hosts(struct run *r)
{
	const struct rig_role *sta[RIG_MAX_ROLES], *pc[RIG_MAX_ROLES];
	unsigned int i, nsta, npc;
	int err;

	for (i = 0; i < r->rig.nroles; i++) {
		const struct rig_role *role = &r->rig.roles[i];
		const char *ns = NULL;
		char path[300];

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
		err = iperf_check(r, &r->hosts[i]);
		if (err)
			return err;
	}
	err = sta2_hosts(r);
	if (err)
		return err;
	nsta = rig_roles_of(&r->rig, RIG_STA, sta, RIG_MAX_ROLES);
	npc = rig_roles_of(&r->rig, RIG_PC, pc, RIG_MAX_ROLES);
	for (i = 0; i < IPERF_MAX_FLOWS; i++) {
		r->fh[i].client = &r->hosts[sta[i % nsta] - r->rig.roles];
		r->fh[i].server = &r->hosts[pc[i % npc] - r->rig.roles];
		r->fh[i].addr = pc[i % npc]->addr;
	}
	for (i = 0; i < r->rig.nroles; i++)
		if (r->rig.roles[i].kind == RIG_AP)
			ap_init(&r->ap, &r->hosts[i], r->rig.testbed);
	/* on the test bed sta2's frames enter br-wlan at a port of its own; on a rig they
	 * are counted where sta's enter (its bridge= port), which a flow's frames from
	 * sta cross either way (data one way, its acks the other) */
	verify_ports_init(&r->counted, r->ap.port,
			  r->rig.testbed && r->tb.sta2 ? TB_STA2_PORT : NULL);
	return ap_probe(&r->ap);
}

/* Rows that switch br_netfilter on cannot run on an AP without it. */
int preflight_rows(struct run *r)
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

/* A ruleset that filters in the bridge family, just loaded: its verification's counting
 * rules go into its chain stateful (verify.h); tried once and removed again. */
static int try_bridge_counting(struct run *r, const struct brnf_row *row)
{
	struct brnf_ruleset info;
	int err;

	char *list[] = { "nft", "list", "chain", "bridge", "filter", "stateful", NULL };
	char what[200];

	row_ruleset_info(row, &info);
	if (!info.bridge[0] && !info.bridge[1])
		return 0;
	/* one line when it is missing: the host, this, and nft's own error */
	snprintf(what, sizeof(what), "ruleset %s: no chain " VERIFY_BRIDGE_CHAIN " for the "
		 "verification's counting rules", row->ruleset);
	err = host_cmd(&r->ap.h, what, "nftables", list, NULL, 0, NULL);
	if (!err)
		err = verify_install(&r->ap.h, &r->counted, VERIFY_NFT_BRIDGE);
	if (err)
		return err;
	return verify_remove(&r->ap.h, VERIFY_NFT_BRIDGE);
}

/* Everything the rows need, before the first measurement. */
int preflight_rulesets(struct run *r)
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
		err = try_bridge_counting(r, &r->rows[i]);
		if (err)
			return err;
	}
	/* The counting rules of the verification passes, tried once and removed again:
	 * the measured runs see the row's ruleset alone. */
	r->mode = r->ap.br_netfilter ? VERIFY_PHYSDEV : VERIFY_IIF;
	err = ruleset_load(ap, "none");
	if (!err)
		err = verify_install(ap, &r->counted, r->mode);
	if (err && r->mode == VERIFY_PHYSDEV) {
		fprintf(stderr, "brnf: no iptables physdev match; filtering verification is n/a\n");
		r->mode = VERIFY_IIF;
		err = verify_install(ap, &r->counted, r->mode);
	}
	if (!err)
		err = verify_remove(ap, r->mode);
	if (!err)
		err = ruleset_load(ap, "none");
	return err;
}

/* Every workload of --repeat-workloads is one of the run's (with --workloads given,
 * cmd_run.c checked that already); the mask keeps only those. */
static int repeat_check(struct run *r)
{
	unsigned int have = workload_mask(r->wl, r->nwl), k;

	for (k = 0; k < WL_N && r->c.repeat_workloads && !r->c.workloads; k++)
		if ((r->repeat_mask & (1u << k)) && !(have & (1u << k))) {
			pr_err("--repeat-workloads: %s is not one of the workloads of this run",
			       brnf_workloads[k].name);
			return -EINVAL;
		}
	r->repeat_mask &= have;
	return 0;
}

int preflight_workloads(struct run *r)
{
	const struct host *tx[2] = { r->fh[0].client, r->fh[0].server };
	bool pps = false;
	unsigned int k, i;
	int err;

	/* also the verification's priming of the pps flow (cells.c) */
	r->pktgen = r->rig.testbed;
	for (i = 0; i < 2 && r->pktgen; i++)
		r->pktgen = pktgen_available(tx[i]);
	if (!r->nwl) {
		/* the default: the fixed-work pps workloads where the kernel can */
		static const unsigned int all[] = { WL_PPS64, WL_PPS1514, WL_TCP };
		bool have = r->pktgen;

		if (!have) {
			r->wl[r->nwl++] = WL_TCP;
			fprintf(stderr, "brnf: workloads: tcp (no pktgen for pps64 and pps1514%s)\n",
				r->rig.testbed ? " in this kernel" : " on a rig");
			return repeat_check(r);
		}
		for (i = 0; i < ARRAY_SIZE(all); i++)
			r->wl[r->nwl++] = all[i];
		return repeat_check(r);
	}
	err = repeat_check(r);
	if (err)
		return err;
	for (k = 0; k < r->nwl; k++)
		pps |= workload_is_pps(r->wl[k]);
	for (i = 0; i < 2 && pps; i++) {
		err = pktgen_check(tx[i]);
		if (err)
			return err;
	}
	/* path=wlan: sta2 sends the download */
	return pps && r->sta2 ? pktgen_check(r->sta2) : 0;
}
