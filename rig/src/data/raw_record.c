// SPDX-License-Identifier: GPL-2.0
/* raw_record: one record.json (measured run or verification pass, schema 1 and 2), see
 * raw.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "errbuf.h"
#include "raw.h"
#include "raw_json.h"

const char *const raw_dir_names[RAW_NDIRS] = {
	[RAW_DOWNLOAD] = "download",
	[RAW_UPLOAD] = "upload",
};
const char *const raw_verify_names[] = {
	[RAW_VERIFY_NA] = "n/a",
	[RAW_VERIFY_YES] = "yes",
	[RAW_VERIFY_NO] = "no",
	NULL,
};

static int parse_row(struct json_object *row, struct raw_run *run, char *msg, size_t len)
{
	struct brnf_row *r = &run->row;
	struct json_object *local, *x;
	char m[512];
	const char *s;
	size_t i, j, n;

	memset(r, 0, sizeof(*r));
	if (!row || !json_object_is_type(row, json_type_object)) {
		seterr(msg, len, "\"row\" missing or not an object");
		return -1;
	}
	if (rj_uint(row, "index", &run->row_index)) {
		seterr(msg, len, "row.index missing or not a non-negative integer");
		return -1;
	}
	s = rj_str(row, "kernel");
	if (!s) {
		seterr(msg, len, "row.kernel missing or not a string");
		return -1;
	}
	if (matrix_check_name("kernel", s, m, sizeof(m))) {
		seterr(msg, len, "row.kernel: %s", m);
		return -1;
	}
	strcpy(r->kernel, s);
	x = rj_get(row, "label");
	if (x) {
		s = rj_str(row, "label");
		if (!s) {
			seterr(msg, len, "row.label is not a string");
			return -1;
		}
		if (*s && matrix_check_name("label", s, m, sizeof(m))) {
			seterr(msg, len, "row.label: %s", m);
			return -1;
		}
		strcpy(r->label, s);
	}
	if (rj_flags(rj_get(row, "global"), r->global)) {
		seterr(msg, len, "row.global missing or not an array of 3 values 0 or 1");
		return -1;
	}
	local = rj_get(row, "local");
	if (!local || !json_object_is_type(local, json_type_array)) {
		seterr(msg, len, "row.local missing or not an array of bridge names");
		return -1;
	}
	n = json_object_array_length(local);
	for (i = 0; i < n; i++) {
		s = json_object_get_string(json_object_array_get_idx(local, i));
		if (!json_object_is_type(json_object_array_get_idx(local, i), json_type_string)) {
			seterr(msg, len, "row.local[%zu] is not a string", i);
			return -1;
		}
		if (matrix_check_bridge(s, m, sizeof(m))) {
			seterr(msg, len, "row.local: %s", m);
			return -1;
		}
		if (row_local_has(r, s)) {
			seterr(msg, len, "row.local: bridge '%s' listed twice", s);
			return -1;
		}
		strcpy(r->local[r->nlocal++], s);
	}
	/* canonical order, as the matrix parser stores it */
	for (n = 0, i = 0; brnf_bridge_names[i]; i++) {
		for (j = 0; j < r->nlocal; j++) {
			if (strcmp(r->local[j], brnf_bridge_names[i]))
				continue;
			if (j != n) {
				char t[BRNF_NAME_LEN];

				strcpy(t, r->local[n]);
				strcpy(r->local[n], r->local[j]);
				strcpy(r->local[j], t);
			}
			n++;
			break;
		}
	}
	s = rj_str(row, "ruleset");
	if (!s) {
		seterr(msg, len, "row.ruleset missing or not a string");
		return -1;
	}
	if (matrix_check_ruleset(s, m, sizeof(m))) {
		seterr(msg, len, "row.ruleset: %s", m);
		return -1;
	}
	strcpy(r->ruleset, s);
	x = rj_get(row, "expect");
	if (x) {
		s = rj_str(row, "expect");
		if (!s || (strcmp(s, "match") && strcmp(s, "mismatch"))) {
			seterr(msg, len, "row.expect is not \"match\" or \"mismatch\"");
			return -1;
		}
		r->expect_mismatch = !strcmp(s, "mismatch");
	}
	/* absent: routed, as every record made before path= existed */
	x = rj_get(row, "path");
	if (x) {
		int p;

		s = rj_str(row, "path");
		p = s ? matrix_parse_path(s, m, sizeof(m)) : -EINVAL;
		if (p < 0) {
			seterr(msg, len, "row.path is not \"routed\" or \"wlan\"");
			return -1;
		}
		r->path = p;
	}
	x = rj_get(row, "source");
	if (x) {
		s = rj_str(row, "source");
		if (!s) {
			seterr(msg, len, "row.source is not a string");
			return -1;
		}
		snprintf(run->source, sizeof(run->source), "%s", s);
	}
	if (row_key(r, run->key, sizeof(run->key)) < 0) {
		seterr(msg, len, "row key too long");
		return -1;
	}
	return 0;
}

static int parse_flows(struct json_object *flows, struct raw_run *run, char *msg, size_t len)
{
	struct json_object *f;
	unsigned int port;
	const char *s, *p;
	size_t i, n;

	if (!flows || !json_object_is_type(flows, json_type_array) ||
	    !json_object_array_length(flows)) {
		seterr(msg, len, "\"flows\" missing, not an array or empty");
		return -1;
	}
	n = json_object_array_length(flows);
	if (n > RAW_MAX_FLOWS) {
		seterr(msg, len, "%zu flows, at most %d supported", n, RAW_MAX_FLOWS);
		return -1;
	}
	for (i = 0; i < n; i++) {
		f = json_object_array_get_idx(flows, i);
		s = rj_str(f, "file");
		if (!s) {
			seterr(msg, len, "flows[%zu].file missing or not a string", i);
			return -1;
		}
		/* a plain file name flow-<something>.json inside the run directory */
		p = s + strlen(s);
		if (strncmp(s, "flow-", 5) || strlen(s) < 10 || strcmp(p - 5, ".json") ||
		    strchr(s, '/') || strlen(s) >= sizeof(run->flow_file[0])) {
			seterr(msg, len, "flows[%zu].file '%.64s' is not a flow-<i>.json name",
			       i, s);
			return -1;
		}
		if (rj_uint(f, "port", &port) || port == 0 || port > 65535) {
			seterr(msg, len, "flows[%zu].port missing or not a port number", i);
			return -1;
		}
		strcpy(run->flow_file[i], s);
	}
	run->nflows = n;
	return 0;
}

/* readback (optional): must show what the row configured */
static int parse_readback(struct json_object *rb, struct raw_run *run, char *msg, size_t len)
{
	struct json_object *bridges;
	bool flags[BRNF_NFAMILIES];
	char m[160];
	int i;

	run->readback_ok = true;
	if (!rb)
		return 0;
	if (!json_object_is_type(rb, json_type_object)) {
		seterr(msg, len, "\"readback\" is not an object");
		return -1;
	}
	if (rj_get(rb, "global")) {
		if (rj_flags(rj_get(rb, "global"), flags)) {
			seterr(msg, len, "readback.global is not an array of 3 values 0 or 1");
			return -1;
		}
		for (i = 0; i < BRNF_NFAMILIES; i++) {
			if (flags[i] == run->row.global[i])
				continue;
			run->readback_ok = false;
			snprintf(run->readback_msg, sizeof(run->readback_msg),
				 "global %s read back %d", brnf_family_names[i], flags[i]);
		}
	}
	bridges = rj_get(rb, "bridges");
	if (!bridges)
		return 0;
	if (!json_object_is_type(bridges, json_type_object)) {
		seterr(msg, len, "readback.bridges is not an object");
		return -1;
	}
	json_object_object_foreach(bridges, name, val) {
		if (matrix_check_bridge(name, m, sizeof(m))) {
			seterr(msg, len, "readback.bridges: %s", m);
			return -1;
		}
		if (rj_flags(val, flags)) {
			seterr(msg, len,
			       "readback.bridges.%s is not an array of 3 values 0 or 1", name);
			return -1;
		}
		for (i = 0; i < BRNF_NFAMILIES; i++) {
			if (flags[i] == row_local_has(&run->row, name))
				continue;
			run->readback_ok = false;
			snprintf(run->readback_msg, sizeof(run->readback_msg),
				 "%s nf_call_%s read back %d", name, brnf_family_names[i],
				 flags[i]);
		}
	}
	return 0;
}


static int parse_direction(struct json_object *top, struct raw_run *run, char *msg,
			   size_t len)
{
	static const char *const names[] = { "download", "upload", NULL };
	int i = rj_enum(top, "direction", names);

	if (i < 0) {
		seterr(msg, len, "\"direction\" missing or not upload/download");
		return -1;
	}
	run->dir = i;
	if (rj_uint(top, "repetition", &run->repetition) || !run->repetition) {
		seterr(msg, len, "\"repetition\" missing or not a positive integer");
		return -1;
	}
	return 0;
}

static int parse_verify(struct json_object *top, struct raw_run *run, char *msg, size_t len)
{
	int i = rj_enum(rj_get(top, "verify"), "result", raw_verify_names);

	if (i < 0) {
		seterr(msg, len, "verify.result missing or not yes/no/n/a");
		return -1;
	}
	run->verify = i;
	run->has_verify = true;
	return 0;
}

static int parse_pktgen(struct json_object *pg, struct raw_run *run, char *msg, size_t len)
{
	static const char *const keys[] = { "pkt_size", "count", "sent", "received", "errors",
					    "elapsed_us" };
	const struct workload_info *w = &brnf_workloads[run->workload];
	struct raw_pktgen *p = &run->pktgen;
	unsigned long long *v[] = { &p->pkt_size, &p->count, &p->sent, &p->received,
				    &p->errors, &p->elapsed_us };
	const char *res, *c;
	char *end;
	size_t i;

	if (!pg || !json_object_is_type(pg, json_type_object)) {
		seterr(msg, len, "\"pktgen\" missing or not an object (a %s run needs it)",
		       w->name);
		return -1;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (rj_u64(pg, keys[i], v[i])) {
			seterr(msg, len, "pktgen.%s missing or not a non-negative integer",
			       keys[i]);
			return -1;
		}
	}
	if (p->pkt_size != w->pkt_size) {
		seterr(msg, len, "pktgen.pkt_size %llu is not %s's %u", p->pkt_size, w->name,
		       w->pkt_size);
		return -1;
	}
	if (!p->sent) {
		seterr(msg, len, "pktgen.sent is 0: no packet was sent");
		return -1;
	}
	if (!p->elapsed_us) {
		seterr(msg, len, "pktgen.elapsed_us is 0");
		return -1;
	}
	/* pktgen's "OK: <elapsed>(c<busy>+d<idle>) usec": the time it did not yield */
	res = rj_str(pg, "result");
	c = res ? strstr(res, "(c") : NULL;
	if (c && c[2] >= '0' && c[2] <= '9') {
		errno = 0;
		p->busy_us = strtoull(c + 2, &end, 10);
		if (errno || *end != '+' || p->busy_us > p->elapsed_us)
			p->busy_us = 0;
	}
	run->value = (double)p->elapsed_us * 1000.0 / (double)p->sent;
	run->mpps = (double)p->sent / (double)p->elapsed_us;
	run->wire_mbps = (double)p->received * (double)(p->pkt_size + 4) * 8.0 /
			 (double)p->elapsed_us;
	return 0;
}

/* schema 1: a tcp run with its counting rules and its own verify block */
static int parse_v1(struct json_object *top, struct raw_run *run, char *msg, size_t len)
{
	run->kind = RAW_MEASURE;
	run->workload = WL_TCP;
	run->counting_rules = true;
	if (parse_direction(top, run, msg, len))
		return -1;
	if (rj_uint(top, "order", &run->order)) {
		seterr(msg, len, "\"order\" missing or not a non-negative integer");
		return -1;
	}
	if (parse_flows(rj_get(top, "flows"), run, msg, len))
		return -1;
	if (parse_readback(rj_get(top, "readback"), run, msg, len))
		return -1;
	return parse_verify(top, run, msg, len);
}

static int parse_measure(struct json_object *top, struct raw_run *run, char *msg, size_t len)
{
	const char *names[WL_N + 1];
	struct json_object *x;
	int i;

	run->kind = RAW_MEASURE;
	for (i = 0; i < WL_N; i++)
		names[i] = brnf_workloads[i].name;
	names[i] = NULL;
	i = rj_enum(top, "workload", names);
	if (i < 0) {
		seterr(msg, len, "\"workload\" missing or not pps64/pps1514/tcp-bytes/tcp");
		return -1;
	}
	run->workload = i;
	if (parse_direction(top, run, msg, len))
		return -1;
	x = rj_get(top, "counting_rules");
	if (x && !json_object_is_type(x, json_type_boolean)) {
		seterr(msg, len, "\"counting_rules\" is not true or false");
		return -1;
	}
	run->counting_rules = x && json_object_get_boolean(x);
	if (parse_readback(rj_get(top, "readback"), run, msg, len))
		return -1;
	if (brnf_workloads[run->workload].pkt_size)
		return parse_pktgen(rj_get(top, "pktgen"), run, msg, len);
	if (parse_flows(rj_get(top, "flows"), run, msg, len))
		return -1;
	if (run->workload == WL_TCP_BYTES &&
	    (rj_u64(top, "bytes_per_flow", &run->bytes_per_flow) || !run->bytes_per_flow)) {
		seterr(msg, len, "\"bytes_per_flow\" missing or not a positive integer");
		return -1;
	}
	return 0;
}

static int parse_pass(struct json_object *top, struct raw_run *run, char *msg, size_t len)
{
	static const char *const rules[] = { "physdev", "iif", "nft-bridge", NULL };
	int i;

	run->kind = RAW_VERIFY_PASS;
	i = rj_enum(top, "rules", rules);
	if (i < 0) {
		seterr(msg, len, "\"rules\" missing or not physdev/iif/nft-bridge");
		return -1;
	}
	strcpy(run->rules, rules[i]);
	if (rj_get(top, "traffic") && !rj_str(top, "traffic")) {
		seterr(msg, len, "\"traffic\" is not a string");
		return -1;
	}
	if (parse_readback(rj_get(top, "readback"), run, msg, len))
		return -1;
	return parse_verify(top, run, msg, len);
}


int raw_parse_record(const char *name, const char *text, size_t len, struct raw_run *run,
		     char *err, size_t errlen)
{
	static const char *const kinds[] = { "measure", "verify", NULL };
	struct json_object *top;
	unsigned int schema;
	char msg[256];
	int ret = -1;

	memset(run, 0, sizeof(*run));
	run->duration = run->omit = -1;
	run->readback_ok = true;
	top = rj_parse_top(name, text, len, err, errlen);
	if (!top)
		return -EINVAL;
	if (rj_uint(top, "schema", &schema) || (schema != 1 && schema != 2)) {
		seterr(msg, sizeof(msg), "\"schema\" missing or not 1 or 2");
		goto out_put;
	}
	run->schema = schema;
	if (parse_row(rj_get(top, "row"), run, msg, sizeof(msg)))
		goto out_put;
	if (schema == 1) {
		ret = parse_v1(top, run, msg, sizeof(msg));
		goto out_put;
	}
	if (rj_uint(top, "order", &run->order)) {
		seterr(msg, sizeof(msg), "\"order\" missing or not a non-negative integer");
		goto out_put;
	}
	switch (rj_enum(top, "kind", kinds)) {
	case 0:
		ret = parse_measure(top, run, msg, sizeof(msg));
		break;
	case 1:
		ret = parse_pass(top, run, msg, sizeof(msg));
		break;
	default:
		seterr(msg, sizeof(msg), "\"kind\" missing or not measure/verify");
		break;
	}
out_put:
	json_object_put(top);
	if (!ret)
		return 0;
	rj_one_line(msg);
	seterr(err, errlen, "%s: %s", name, msg);
	return -EINVAL;
}

int raw_run_dir_name(const struct raw_run *run, char *buf, size_t len)
{
	int n;

	if (run->kind == RAW_VERIFY_PASS)
		n = snprintf(buf, len, "%04u-verify", run->order);
	else
		n = snprintf(buf, len, "%04u-%s-%s", run->order,
			     brnf_workloads[run->workload].name, raw_dir_names[run->dir]);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
