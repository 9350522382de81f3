// SPDX-License-Identifier: GPL-2.0
/* provenance.json writer (json-c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "offload.h"
#include "provenance.h"
#include "ruleset.h"
#include "util.h"
#include "version.h"

void provenance_now(char *buf, size_t len)
{
	time_t t = time(NULL);

	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
}

static struct json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

/* the value of /proc/cpuinfo's line @line (after its ':', blanks skipped) into @buf */
static void cpuinfo_value(const char *line, char *buf, size_t len)
{
	const char *v = strchr(line, ':') + 1;

	while (*v == ' ' || *v == '\t')
		v++;
	snprintf(buf, len, "%s", v);
}

/* The first CPU's model name and feature flags (x86 "flags", arm64 "Features", MIPS
 * "ASEs implemented"), and the number of CPUs */
static void cpu_model(char *buf, size_t len, char *flags, size_t flen, int *ncpu)
{
	static const char *const flag_keys[] = { "flags", "Features", "ASEs implemented" };
	char *text, *p, *line;
	size_t k;

	buf[0] = '\0';
	flags[0] = '\0';
	*ncpu = 0;
	if (read_file("/proc/cpuinfo", &text, NULL))
		return;
	for (line = strtok_r(text, "\n", &p); line; line = strtok_r(NULL, "\n", &p)) {
		if (!strncmp(line, "processor", 9))
			(*ncpu)++;
		if (!strchr(line, ':'))
			continue;
		if (!buf[0] && !strncmp(line, "model name", 10))
			cpuinfo_value(line, buf, len);
		for (k = 0; !flags[0] && k < sizeof(flag_keys) / sizeof(flag_keys[0]); k++)
			if (!strncmp(line, flag_keys[k], strlen(flag_keys[k])) &&
			    strchr(" \t:", line[strlen(flag_keys[k])]))
				cpuinfo_value(line, flags, flen);
	}
	free(text);
}

/* The third word of `uname -a` (the release), or "" */
static void uname_release(const char *uname_a, char *buf, size_t len)
{
	char a[64], b[128];

	buf[0] = '\0';
	if (sscanf(uname_a, "%63s %127s %63s", a, b, buf) != 3)
		buf[0] = '\0';
	(void)len;
}

/* The kernel under test: the AP's. A remote AP's comes from its uname -a. */
static struct json_object *kernel_json(const struct provenance *p)
{
	struct json_object *o = json_object_new_object();
	struct utsname u;
	char hex[65];

	uname(&u);
	if (p->ap->h.transport == RIG_SSH) {
		char rel[64];

		uname_release(p->ap->uname, rel, sizeof(rel));
		json_object_object_add(o, "release", str_or_null(rel));
		json_object_object_add(o, "uname", str_or_null(p->ap->uname));
		json_object_object_add(o, "label", json_object_new_string(p->kernel_label));
		json_object_object_add(o, "source", json_object_new_string(p->ap->h.what));
		json_object_object_add(o, "controller_release",
				       json_object_new_string(u.release));
		return o;
	}
	json_object_object_add(o, "release", json_object_new_string(u.release));
	json_object_object_add(o, "version", json_object_new_string(u.version));
	json_object_object_add(o, "machine", json_object_new_string(u.machine));
	json_object_object_add(o, "label", json_object_new_string(p->kernel_label));
	json_object_object_add(o, "config_sha256",
			       sha256_file("/proc/config.gz", hex) ? NULL :
			       json_object_new_string(hex));
	json_object_object_add(o, "config_source",
			       json_object_new_string("/proc/config.gz"));
	return o;
}

/* The clocksource iperf3's timing rests on (tsc, kvm-clock, ...). */
static struct json_object *clocksource(void)
{
	struct json_object *o = NULL;
	char *buf;

	if (read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      &buf, NULL))
		return NULL;
	chomp(buf);
	if (*buf)
		o = json_object_new_string(buf);
	free(buf);
	return o;
}

static struct json_object *host_json(void)
{
	struct json_object *o = json_object_new_object();
	char cpu[256], flags[4096];
	int n;

	cpu_model(cpu, sizeof(cpu), flags, sizeof(flags), &n);
	json_object_object_add(o, "cpu", str_or_null(cpu));
	json_object_object_add(o, "cpu_flags", str_or_null(flags));
	json_object_object_add(o, "ncpus", json_object_new_int(n));
	return o;
}

/* How the rows' verification passes counted (cells.c, verify.h). */
static void verify_text(const struct provenance *p, char *buf, size_t len)
{
	bool bridge = false, flow = false;
	struct brnf_ruleset info;
	size_t i;
	int n;

	for (i = 0; i < p->m->nrows; i++) {
		if (!p->row_ran[i])
			continue;
		row_ruleset_info(&p->rows[i], &info);
		bridge |= info.bridge[0] || info.bridge[1];
		flow |= info.conntrack;
	}
	n = snprintf(buf, len, "%s", p->mode == VERIFY_PHYSDEV ?
		     "a pass per row: iptables mangle PREROUTING -m physdev --physdev-in" :
		     p->ap->br_netfilter ?
		     "a pass per row: iptables mangle PREROUTING -i <bridge> (no physdev match: n/a)" :
		     "a pass per row: iptables mangle PREROUTING -i <bridge> (no br_netfilter: n/a)");
	if (bridge && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, "; rows whose ruleset filters in the bridge family: "
			      "nft iifname <port> counter rules in its chain " VERIFY_BRIDGE_CHAIN);
	if (flow && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "; rows whose ruleset tracks connections: the pps flow "
			 "primed, its conntrack entry tracked and [OFFLOAD] iff a flowtable");
}

static struct json_object *testbed_json(const struct provenance *p)
{
	struct json_object *o = json_object_new_object(), *ns, *off, *one;
	const struct testbed *tb = p->tb;
	unsigned int r, i, k;
	char key[80], verify[600];

	json_object_object_add(o, "kind", json_object_new_string(p->rig->testbed ? "netns" : "rig"));
	json_object_object_add(o, "rig", json_object_new_string(p->rig_path));
	json_object_object_add(o, "rig_sha256", sha256_file(p->rig_path, key) ? NULL :
			       json_object_new_string(key));
	one = json_object_new_array();
	for (r = 0; r < p->rig->nroles; r++) {
		char line[1200];

		if (rig_role_str(&p->rig->roles[r], line, sizeof(line)) >= 0)
			json_object_array_add(one, json_object_new_string(line));
	}
	json_object_object_add(o, "roles", one);
	json_object_object_add(o, "br_netfilter", json_object_new_boolean(p->ap->br_netfilter));
	verify_text(p, verify, sizeof(verify));
	json_object_object_add(o, "verify", json_object_new_string(verify));
	if (!p->rig->testbed)
		return o;
	ns = json_object_new_object();
	for (r = 0; r < TB_NROLES; r++)
		if (testbed_has(tb, r))
			json_object_object_add(ns, tb_role_names[r],
					       json_object_new_string(tb->ns[r]));
	json_object_object_add(o, "namespaces", ns);
	json_object_object_add(o, "topology", json_object_new_string(tb->sta2 ?
		"sta wlan0 -veth- wlan0@br-wlan [ap routes] br-lan@eth0 -veth- eth0 pc; "
		"sta2 wlan1 -veth- wlan1@br-wlan; "
		"198.18.1.0/24 2001:2:0:1::/64 wlan side, 198.18.2.0/24 2001:2:0:2::/64 lan side; "
		"path=wlan: sta <-> sta2 bridged on br-wlan, static fdb entries for both" :
		"sta wlan0 -veth- wlan0@br-wlan [ap routes] br-lan@eth0 -veth- eth0 pc; "
		"198.18.1.0/24 2001:2:0:1::/64 wlan side, 198.18.2.0/24 2001:2:0:2::/64 lan side"));
	json_object_object_add(o, "offloads_requested",
			       json_object_new_string(tb->offloads_on ? "on" : "off"));
	off = json_object_new_object();
	for (i = 0; i < TB_NVETHS; i++) {
		if (!testbed_has_veth(tb, i))
			continue;
		one = json_object_new_object();
		for (k = 0; k < OFFLOAD_N; k++)
			json_object_object_add(one, offload_names[k],
					       json_object_new_boolean(tb->veth[i].offload[k]));
		snprintf(key, sizeof(key), "%s/%s", tb_role_names[tb->veth[i].role],
			 tb->veth[i].ifname);
		json_object_object_add(off, key, one);
	}
	json_object_object_add(o, "offloads", off);
	json_object_object_add(o, "mac_addresses", json_object_new_string("fixed"));
	json_object_object_add(o, "neighbours",
			       json_object_new_string(tb->dynamic_neigh ? "dynamic" : "permanent"));
	return o;
}

static struct json_object *switches_json(const struct readback *rb)
{
	struct json_object *o = json_object_new_object(), *g = NULL, *br, *a;
	unsigned int b, f;

	if (rb->have_global) {
		g = json_object_new_array();
		for (f = 0; f < BRNF_NFAMILIES; f++)
			json_object_array_add(g, json_object_new_int(rb->global[f]));
	}
	json_object_object_add(o, "global", g);
	br = json_object_new_object();
	for (b = 0; b < BRNF_NBRIDGES; b++) {
		a = NULL;
		if (rb->have_bridges) {
			a = json_object_new_array();
			for (f = 0; f < BRNF_NFAMILIES; f++)
				json_object_array_add(a, json_object_new_int(rb->bridge[b][f]));
		}
		json_object_object_add(br, brnf_bridge_names[b], a);
	}
	json_object_object_add(o, "bridges_nf_call", br);
	return o;
}

/* The AP's sysctls and bridge flags as they are now (netns: read inside the AP). */
static struct json_object *ap_state_json(const struct provenance *p)
{
	static const char *const names[] = {
		"net.bridge.bridge-nf-call-iptables", "net.bridge.bridge-nf-call-ip6tables",
		"net.bridge.bridge-nf-call-arptables", "net.bridge.bridge-nf-filter-vlan-tagged",
		"net.bridge.bridge-nf-filter-pppoe-tagged",
		"net.bridge.bridge-nf-pass-vlan-input-dev", "net.ipv4.ip_forward",
		"net.ipv6.conf.all.forwarding", "net.netfilter.nf_conntrack_max",
	};
	char vals[ARRAY_SIZE(names)][64];
	struct json_object *o, *sys;
	struct readback rb;
	unsigned int i;

	if (ap_switches_get(p->ap, &rb))
		return json_object_new_object();
	o = switches_json(&rb);
	/* the old layout: bridges_nf_call { br: [..] } and sysctls */
	ap_sysctls_read(p->ap, names, ARRAY_SIZE(names), vals);
	sys = json_object_new_object();
	for (i = 0; i < ARRAY_SIZE(names); i++)
		json_object_object_add(sys, names[i], str_or_null(vals[i]));
	json_object_object_add(o, "sysctls", sys);
	return o;
}

/* What the AP is, from the AP itself (any transport). */
static struct json_object *device_json(const struct provenance *p)
{
	struct json_object *o = json_object_new_object();
	const struct ap *ap = p->ap;
	char digest[100];

	json_object_object_add(o, "transport", json_object_new_string(
		rig_transport_names[ap->h.transport]));
	json_object_object_add(o, "host", json_object_new_string(ap->h.what));
	json_object_object_add(o, "uname", str_or_null(ap->uname));
	json_object_object_add(o, "openwrt_release", str_or_null(ap->openwrt_release));
	json_object_object_add(o, "br_netfilter", json_object_new_boolean(ap->br_netfilter));
	json_object_object_add(o, "ruleset_digest_start", str_or_null(ap->digest_start));
	if (!ap_ruleset_digest(ap, digest, sizeof(digest)))
		json_object_object_add(o, "ruleset_digest_end", str_or_null(digest));
	if (!ap->built) {
		json_object_object_add(o, "saved", switches_json(&ap->orig));
		json_object_object_add(o, "restore", json_object_new_string(
			p->restore == 0 ? "restored and read back equal" :
			p->restore == 1 ? "FAILED" : "not needed"));
	}
	return o;
}

/* Each file the rows load, once: its path and sha256. */
static struct json_object *rulesets_json(const struct provenance *p)
{
	struct json_object *o = json_object_new_object(), *one;
	const char *files[BRNF_MAX_RULESETS];
	char hex[65], path[512];
	int n, k;
	size_t i;

	for (i = 0; i < p->m->nrows; i++) {
		if (!p->row_ran[i])
			continue;
		n = ruleset_files(p->rows[i].ruleset, files);
		for (k = 0; k < n; k++) {
			if (json_object_object_get(o, files[k]) ||
			    ruleset_path(files[k], path, sizeof(path)) ||
			    ruleset_digest(files[k], hex))
				continue;
			one = json_object_new_object();
			json_object_object_add(one, "file", json_object_new_string(path));
			json_object_object_add(one, "sha256", json_object_new_string(hex));
			json_object_object_add(o, files[k], one);
		}
	}
	return o;
}

static struct json_object *rows_json(const struct provenance *p)
{
	struct json_object *a = json_object_new_array(), *o, *g, *l;
	char src[600], key[256];
	unsigned int f, k;
	size_t i;

	for (i = 0; i < p->m->nrows; i++) {
		const struct brnf_row *r = &p->rows[i];

		o = json_object_new_object();
		json_object_object_add(o, "index", json_object_new_int(i));
		row_key(r, key, sizeof(key));
		json_object_object_add(o, "key", json_object_new_string(key));
		snprintf(src, sizeof(src), "%s:%u", p->matrix_path, r->line);
		json_object_object_add(o, "source", json_object_new_string(src));
		json_object_object_add(o, "ran", json_object_new_boolean(p->row_ran[i]));
		if (p->unsupported[i])
			json_object_object_add(o, "unsupported", json_object_new_string(
				"the AP has no br_netfilter"));
		g = json_object_new_array();
		for (f = 0; f < BRNF_NFAMILIES; f++)
			json_object_array_add(g, json_object_new_int(r->global[f]));
		json_object_object_add(o, "global", g);
		l = json_object_new_array();
		for (k = 0; k < r->nlocal; k++)
			json_object_array_add(l, json_object_new_string(r->local[k]));
		json_object_object_add(o, "local", l);
		json_object_object_add(o, "ruleset", json_object_new_string(r->ruleset));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *params_json(const struct provenance *p)
{
	struct json_object *o = json_object_new_object(), *wl;
	unsigned int k;
	char hex[65];

	json_object_object_add(o, "flows", json_object_new_int(p->flows));
	json_object_object_add(o, "duration", json_object_new_int(p->time));
	json_object_object_add(o, "omit", json_object_new_int(p->omit));
	json_object_object_add(o, "reps", json_object_new_int(p->reps));
	json_object_object_add(o, "port0", json_object_new_int(p->port0));
	wl = json_object_new_array();
	for (k = 0; k < p->nwl; k++)
		json_object_array_add(wl, json_object_new_string(brnf_workloads[p->wl[k]].name));
	json_object_object_add(o, "workloads", wl);
	json_object_object_add(o, "verify", json_object_new_string(
		p->verify_before ? "before" : "after"));
	json_object_object_add(o, "fresh_testbed", json_object_new_boolean(p->fresh_testbed));
	wl = json_object_new_array();
	for (k = 0; k < p->nwl; k++)
		if (p->repeat_mask & (1u << p->wl[k]))
			json_object_array_add(wl, json_object_new_string(
				brnf_workloads[p->wl[k]].name));
	json_object_object_add(o, "repeat_workloads", wl);
	json_object_object_add(o, "pktgen_count", json_object_new_int64(p->packets));
	json_object_object_add(o, "bytes_per_flow", json_object_new_int64(p->bytes));
	json_object_object_add(o, "servers", json_object_new_string("pc"));
	json_object_object_add(o, "clients", json_object_new_string(
		"sta; upload plain, download with -R"));
	json_object_object_add(o, "pktgen", json_object_new_string(
		"upload: sta wlan0 to pc, download: pc eth0 to sta; UDP port 9, dropped and "
		"counted by the receiver's nft netdev ingress chain"));
	json_object_object_add(o, "order", json_object_new_string(p->order_rows ?
		"for row: for rep: for workload: for direction (by row); then a "
		"verification pass per row" :
		"for rep: for row: for workload: for direction (interleaved); then a "
		"verification pass per row"));
	json_object_object_add(o, "counting_rules_in_measured_runs",
			       json_object_new_boolean(false));
	json_object_object_add(o, "matrix", json_object_new_string(p->matrix_path));
	json_object_object_add(o, "matrix_sha256", sha256_file(p->matrix_path, hex) ? NULL :
			       json_object_new_string(hex));
	return o;
}

int provenance_write(const char *partdir, const struct provenance *p, char *msg,
		     size_t msglen)
{
	struct json_object *top = json_object_new_object(), *ctl, *ip;
	char path[1400];
	struct utsname u;
	int err;

	uname(&u);
	json_object_object_add(top, "schema", json_object_new_int(2));
	json_object_object_add(top, "part", json_object_new_string(p->part));
	if (p->ap->h.transport == RIG_SSH) {
		char rel[64];

		uname_release(p->ap->uname, rel, sizeof(rel));
		json_object_object_add(top, "kernel_release", str_or_null(rel));
	} else {
		json_object_object_add(top, "kernel_release", json_object_new_string(u.release));
	}
	json_object_object_add(top, "kernel", kernel_json(p));
	json_object_object_add(top, "clock", clocksource());
	json_object_object_add(top, "host", host_json());
	json_object_object_add(top, "testbed", testbed_json(p));
	json_object_object_add(top, "ap_at_end", ap_state_json(p));
	json_object_object_add(top, "device", device_json(p));
	json_object_object_add(top, "rulesets", rulesets_json(p));
	ctl = json_object_new_object();
	json_object_object_add(ctl, "name", json_object_new_string("brnf"));
	json_object_object_add(ctl, "version", json_object_new_string(brnf_version));
	json_object_object_add(top, "controller", ctl);
	ip = json_object_new_object();
	json_object_object_add(ip, "version", json_object_new_string(p->iperf_version));
	json_object_object_add(top, "iperf3", ip);
	json_object_object_add(top, "date", json_object_new_string(p->date_start));
	json_object_object_add(top, "date_end", json_object_new_string(p->date_end));
	json_object_object_add(top, "wall_seconds", json_object_new_double(p->wall_seconds));
	json_object_object_add(top, "runs", json_object_new_int(p->runs_done));
	if (p->incomplete)	/* the runs before an error, kept */
		json_object_object_add(top, "incomplete", json_object_new_string(p->incomplete));
	json_object_object_add(top, "params", params_json(p));
	json_object_object_add(top, "rows", rows_json(p));
	snprintf(path, sizeof(path), "%s/provenance.json", partdir);
	err = json_write_file_err(path, top, msg, msglen);
	json_object_put(top);
	return err;
}
