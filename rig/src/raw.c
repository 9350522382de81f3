// SPDX-License-Identifier: GPL-2.0
/* raw: read the raw data of a results directory, see raw.h. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "iperf_json.h"
#include "errbuf.h"
#include "file.h"
#include "raw.h"

#define RAW_MAX_FILE (16 << 20)

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

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A non-negative integer that fits an unsigned int. */
static int get_uint(struct json_object *o, const char *key, unsigned int *v)
{
	struct json_object *x = get(o, key);
	int64_t i;

	if (!x || !json_object_is_type(x, json_type_int))
		return -1;
	i = json_object_get_int64(x);
	if (i < 0 || i > 0x7fffffff)
		return -1;
	*v = (unsigned int)i;
	return 0;
}

/* A non-negative integer. */
static int get_u64(struct json_object *o, const char *key, unsigned long long *v)
{
	struct json_object *x = get(o, key);
	int64_t i;

	if (!x || !json_object_is_type(x, json_type_int))
		return -1;
	i = json_object_get_int64(x);
	if (i < 0 || i == INT64_MAX)	/* json-c saturates what does not fit */
		return -1;
	*v = (unsigned long long)i;
	return 0;
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *x = get(o, key);

	return x && json_object_is_type(x, json_type_string) ? json_object_get_string(x) : NULL;
}

/* [a, b, c] of 0/1 (or booleans) */
static int get_flags(struct json_object *a, bool flags[BRNF_NFAMILIES])
{
	struct json_object *x;
	int i;
	int64_t v;

	if (!a || !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != BRNF_NFAMILIES)
		return -1;
	for (i = 0; i < BRNF_NFAMILIES; i++) {
		x = json_object_array_get_idx(a, i);
		if (json_object_is_type(x, json_type_boolean)) {
			flags[i] = json_object_get_boolean(x);
			continue;
		}
		if (!json_object_is_type(x, json_type_int))
			return -1;
		v = json_object_get_int64(x);
		if (v != 0 && v != 1)
			return -1;
		flags[i] = v;
	}
	return 0;
}

static int parse_row(struct json_object *row, struct raw_run *run, char *msg, size_t len)
{
	struct brnf_row *r = &run->row;
	struct json_object *local, *x;
	char m[160];
	const char *s;
	size_t i, j, n;

	memset(r, 0, sizeof(*r));
	if (!row || !json_object_is_type(row, json_type_object)) {
		seterr(msg, len, "\"row\" missing or not an object");
		return -1;
	}
	if (get_uint(row, "index", &run->row_index)) {
		seterr(msg, len, "row.index missing or not a non-negative integer");
		return -1;
	}
	s = get_str(row, "kernel");
	if (!s) {
		seterr(msg, len, "row.kernel missing or not a string");
		return -1;
	}
	if (matrix_check_name("kernel", s, m, sizeof(m))) {
		seterr(msg, len, "row.kernel: %s", m);
		return -1;
	}
	strcpy(r->kernel, s);
	x = get(row, "label");
	if (x) {
		s = get_str(row, "label");
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
	if (get_flags(get(row, "global"), r->global)) {
		seterr(msg, len, "row.global missing or not an array of 3 values 0 or 1");
		return -1;
	}
	local = get(row, "local");
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
	s = get_str(row, "ruleset");
	if (!s) {
		seterr(msg, len, "row.ruleset missing or not a string");
		return -1;
	}
	if (matrix_check_ruleset(s, m, sizeof(m))) {
		seterr(msg, len, "row.ruleset: %s", m);
		return -1;
	}
	strcpy(r->ruleset, s);
	x = get(row, "expect");
	if (x) {
		s = get_str(row, "expect");
		if (!s || (strcmp(s, "match") && strcmp(s, "mismatch"))) {
			seterr(msg, len, "row.expect is not \"match\" or \"mismatch\"");
			return -1;
		}
		r->expect_mismatch = !strcmp(s, "mismatch");
	}
	x = get(row, "source");
	if (x) {
		s = get_str(row, "source");
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
		s = get_str(f, "file");
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
		if (get_uint(f, "port", &port) || port == 0 || port > 65535) {
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
	if (get(rb, "global")) {
		if (get_flags(get(rb, "global"), flags)) {
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
	bridges = get(rb, "bridges");
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
		if (get_flags(val, flags)) {
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

/* text as a JSON object, or NULL with "<name>: <why>" in err */
static struct json_object *parse_top(const char *name, const char *text, size_t len,
				     char *err, size_t errlen)
{
	struct json_object *top;
	char msg[256];

	top = json_text_parse(text, len, msg, sizeof(msg));
	if (!top) {
		seterr(err, errlen, "%s: %s", name, msg);
		return NULL;
	}
	if (!json_object_is_type(top, json_type_object)) {
		json_object_put(top);
		seterr(err, errlen, "%s: top level is not a JSON object", name);
		return NULL;
	}
	return top;
}

/* "name" of @key (a string) among @names (NULL terminated); its index or -1 */
static int get_enum(struct json_object *o, const char *key, const char *const *names)
{
	const char *s = get_str(o, key);
	int i;

	for (i = 0; s && names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static int parse_direction(struct json_object *top, struct raw_run *run, char *msg,
			   size_t len)
{
	static const char *const names[] = { "download", "upload", NULL };
	int i = get_enum(top, "direction", names);

	if (i < 0) {
		seterr(msg, len, "\"direction\" missing or not upload/download");
		return -1;
	}
	run->dir = i;
	if (get_uint(top, "repetition", &run->repetition) || !run->repetition) {
		seterr(msg, len, "\"repetition\" missing or not a positive integer");
		return -1;
	}
	return 0;
}

static int parse_verify(struct json_object *top, struct raw_run *run, char *msg, size_t len)
{
	int i = get_enum(get(top, "verify"), "result", raw_verify_names);

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
	size_t i;

	if (!pg || !json_object_is_type(pg, json_type_object)) {
		seterr(msg, len, "\"pktgen\" missing or not an object (a %s run needs it)",
		       w->name);
		return -1;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (get_u64(pg, keys[i], v[i])) {
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
	if (get_uint(top, "order", &run->order)) {
		seterr(msg, len, "\"order\" missing or not a non-negative integer");
		return -1;
	}
	if (parse_flows(get(top, "flows"), run, msg, len))
		return -1;
	if (parse_readback(get(top, "readback"), run, msg, len))
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
	i = get_enum(top, "workload", names);
	if (i < 0) {
		seterr(msg, len, "\"workload\" missing or not pps64/pps1514/tcp-bytes/tcp");
		return -1;
	}
	run->workload = i;
	if (parse_direction(top, run, msg, len))
		return -1;
	x = get(top, "counting_rules");
	if (x && !json_object_is_type(x, json_type_boolean)) {
		seterr(msg, len, "\"counting_rules\" is not true or false");
		return -1;
	}
	run->counting_rules = x && json_object_get_boolean(x);
	if (parse_readback(get(top, "readback"), run, msg, len))
		return -1;
	if (brnf_workloads[run->workload].pkt_size)
		return parse_pktgen(get(top, "pktgen"), run, msg, len);
	if (parse_flows(get(top, "flows"), run, msg, len))
		return -1;
	if (run->workload == WL_TCP_BYTES &&
	    (get_u64(top, "bytes_per_flow", &run->bytes_per_flow) || !run->bytes_per_flow)) {
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
	i = get_enum(top, "rules", rules);
	if (i < 0) {
		seterr(msg, len, "\"rules\" missing or not physdev/iif/nft-bridge");
		return -1;
	}
	strcpy(run->rules, rules[i]);
	if (get(top, "traffic") && !get_str(top, "traffic")) {
		seterr(msg, len, "\"traffic\" is not a string");
		return -1;
	}
	if (parse_readback(get(top, "readback"), run, msg, len))
		return -1;
	return parse_verify(top, run, msg, len);
}

/* A message quotes names from the input: keep it on one line. */
static void one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
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
	top = parse_top(name, text, len, err, errlen);
	if (!top)
		return -EINVAL;
	if (get_uint(top, "schema", &schema) || (schema != 1 && schema != 2)) {
		seterr(msg, sizeof(msg), "\"schema\" missing or not 1 or 2");
		goto out_put;
	}
	run->schema = schema;
	if (parse_row(get(top, "row"), run, msg, sizeof(msg)))
		goto out_put;
	if (schema == 1) {
		ret = parse_v1(top, run, msg, sizeof(msg));
		goto out_put;
	}
	if (get_uint(top, "order", &run->order)) {
		seterr(msg, sizeof(msg), "\"order\" missing or not a non-negative integer");
		goto out_put;
	}
	switch (get_enum(top, "kind", kinds)) {
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
	one_line(msg);
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

/* target_pct=: a number above 0, at most 100 */
static int run_txt_target(const char *v, struct raw_run_txt *rt, char *msg, size_t len)
{
	char *e;
	double t;

	t = strtod(v, &e);
	if (!*v || *e || !isfinite(t) || t <= 0 || t > 100) {
		seterr(msg, len, "target_pct '%s' is not a number above 0 and at most 100", v);
		return -1;
	}
	if (!isnan(rt->target_pct) && rt->target_pct != t) {
		seterr(msg, len, "target_pct given twice (%g, %g)", rt->target_pct, t);
		return -1;
	}
	rt->target_pct = t;
	return 0;
}

/* target_workloads=: a comma list of workload names */
static int run_txt_workloads(const char *v, struct raw_run_txt *rt, char *msg, size_t len)
{
	const char *p = v, *c;
	unsigned int mask = 0;
	size_t n;
	int w;

	if (!strcmp(v, "none")) {
		mask = RAW_TARGET_NONE;
		goto set;
	}
	do {
		c = strchr(p, ',');
		n = c ? (size_t)(c - p) : strlen(p);
		for (w = 0; w < WL_N; w++)
			if (strlen(brnf_workloads[w].name) == n &&
			    !strncmp(p, brnf_workloads[w].name, n))
				break;
		if (w == WL_N) {
			seterr(msg, len, "target_workloads: '%.*s' is not pps64/pps1514/tcp-bytes/"
			       "tcp", (int)n, p);
			return -1;
		}
		mask |= 1u << w;
		if (c)
			p = c + 1;
	} while (c);
set:
	if (rt->target_workloads && rt->target_workloads != mask) {
		seterr(msg, len, "target_workloads given twice");
		return -1;
	}
	rt->target_workloads = mask;
	return 0;
}

/* part_value=: mean or best */
static int run_txt_part_value(const char *v, struct raw_run_txt *rt, char *msg, size_t len)
{
	if (strcmp(v, "mean") && strcmp(v, "best")) {
		seterr(msg, len, "part_value '%s' is not mean or best", v);
		return -1;
	}
	rt->part_best = !strcmp(v, "best");
	return 0;
}

int raw_parse_run_txt(const char *name, const char *text, size_t len, struct raw_run_txt *rt,
		      char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *eol, *w, *we;
	unsigned int line = 0;
	char word[128], msg[256];
	int ret;

	rt->target_pct = NAN;
	rt->target_workloads = 0;
	rt->part_best = false;
	for (; p < end; p = eol < end ? eol + 1 : end) {
		line++;
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		for (w = p; w < eol; w = we) {
			while (w < eol && strchr(" \t\r", *w))
				w++;
			for (we = w; we < eol && !strchr(" \t\r", *we); we++)
				;
			snprintf(word, sizeof(word), "%.*s", (int)(we - w), w);
			if (!strncmp(word, "target_pct=", 11))
				ret = run_txt_target(word + 11, rt, msg, sizeof(msg));
			else if (!strncmp(word, "target_workloads=", 17))
				ret = run_txt_workloads(word + 17, rt, msg, sizeof(msg));
			else if (!strncmp(word, "part_value=", 11))
				ret = run_txt_part_value(word + 11, rt, msg, sizeof(msg));
			else
				continue;
			if (ret || (size_t)(we - w) >= sizeof(word)) {
				if (!ret)
					seterr(msg, sizeof(msg), "'%.20s...' is too long", word);
				one_line(msg);
				seterr(err, errlen, "%s:%u: %s", name, line, msg);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static void copy_str(char *dst, size_t len, struct json_object *o, const char *const *paths)
{
	struct json_object *x;
	char key[64], *dot;
	const char *s;

	dst[0] = '\0';
	for (; *paths; paths++) {
		snprintf(key, sizeof(key), "%s", *paths);
		dot = strchr(key, '.');
		if (dot)
			*dot++ = '\0';
		x = get(o, key);
		if (dot)
			x = get(x, dot);
		s = x && json_object_is_type(x, json_type_string) ? json_object_get_string(x) :
								     NULL;
		if (s && *s) {
			snprintf(dst, len, "%s", s);
			return;
		}
	}
}

int raw_parse_provenance(const char *name, const char *text, size_t len,
			 struct raw_part *p, char *err, size_t errlen)
{
	static const char *const rel[] = { "kernel_release", "kernel.release",
					   "uname.release", NULL };
	static const char *const clock[] = { "clock", NULL };
	static const char *const testbed[] = { "testbed", "testbed.kind", "testbed_kind", NULL };
	static const char *const date[] = { "date", NULL };
	static const char *const offloads[] = { "testbed.offloads_requested", NULL };
	static const char *const cpu[] = { "host.cpu", NULL };
	struct json_object *top, *x;

	top = parse_top(name, text, len, err, errlen);
	if (!top)
		return -EINVAL;
	copy_str(p->kernel_release, sizeof(p->kernel_release), top, rel);
	copy_str(p->clock, sizeof(p->clock), top, clock);
	copy_str(p->testbed, sizeof(p->testbed), top, testbed);
	copy_str(p->date, sizeof(p->date), top, date);
	copy_str(p->offloads, sizeof(p->offloads), top, offloads);
	copy_str(p->host_cpu, sizeof(p->host_cpu), top, cpu);
	x = get(top, "wall_seconds");
	p->wall_seconds = x && (json_object_is_type(x, json_type_double) ||
				json_object_is_type(x, json_type_int)) ?
			  json_object_get_double(x) : -1;
	json_object_put(top);
	return 0;
}

static int path_join(char *buf, size_t len, const char *a, const char *b,
		     char *err, size_t errlen)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	if (n < 0 || (size_t)n >= len) {
		seterr(err, errlen, "%s/%s: path too long", a, b);
		return -ENAMETOOLONG;
	}
	return 0;
}

int raw_parse_qemu(const char *name, const char *text, size_t len, struct raw_part *p,
		   char *err, size_t errlen)
{
	static const char *const clock[] = { "clock", NULL };
	static const char *const qemu[] = { "qemu", NULL };
	static const char *const opts[] = { "qemu_options", NULL };
	static const char *const cpu[] = { "host_cpu", NULL };
	struct json_object *top, *x;
	char buf[sizeof(p->host_cpu)];

	top = parse_top(name, text, len, err, errlen);
	if (!top)
		return -EINVAL;
	p->qemu = true;
	/* the script that started the guest knows its clock best */
	if (get_str(top, "clock") && *get_str(top, "clock"))
		copy_str(p->clock, sizeof(p->clock), top, clock);
	copy_str(p->qemu_version, sizeof(p->qemu_version), top, qemu);
	copy_str(p->qemu_options, sizeof(p->qemu_options), top, opts);
	copy_str(buf, sizeof(buf), top, cpu);
	if (buf[0])
		strcpy(p->host_cpu, buf);
	x = get(top, "exit_status");
	if (x && json_object_is_type(x, json_type_int))
		p->exit_status = json_object_get_int(x);
	json_object_put(top);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the entries of @path (without . and ..), directories only when
 * @dirs. */
static int list_dir(const char *path, bool dirs, char ***names, size_t *n,
		    char *err, size_t errlen)
{
	char **v = NULL, **tmp, sub[4096];
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret;

	d = opendir(path);
	if (!d) {
		ret = -errno;
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (dirs) {
			ret = path_join(sub, sizeof(sub), path, de->d_name, err, errlen);
			if (ret)
				goto out_free;
			if (stat(sub, &st)) {
				ret = -errno;
				seterr(err, errlen, "%s: %s", sub, strerror(errno));
				goto out_free;
			}
			if (!S_ISDIR(st.st_mode))
				continue;
		}
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			tmp = realloc(v, cap * sizeof(*v));
			if (!tmp)
				goto out_nomem;
			v = tmp;
		}
		v[cnt] = strdup(de->d_name);
		if (!v[cnt])
			goto out_nomem;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;

out_nomem:
	ret = -ENOMEM;
	seterr(err, errlen, "%s: out of memory", path);
out_free:
	while (cnt)
		free(v[--cnt]);
	free(v);
	closedir(d);
	return ret;
}

static void free_names(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/* Kernel release from iperf3's system_info "Linux host 6.12.0 #1 SMP ..." */
static void release_from_sysinfo(const char *si, char *buf, size_t len)
{
	char sys[32], host[128], rel[128];

	buf[0] = '\0';
	if (sscanf(si, "%31s %127s %127s", sys, host, rel) == 3)
		snprintf(buf, len, "%s", rel);
}

/* tcp: the sum of the flows' received rates; tcp-bytes: the bytes all flows received
 * over the longest flow's time. In Mbit/s. */
static int read_flows(const char *rundir, struct raw_run *run, struct raw_part *part,
		      char *err, size_t errlen)
{
	struct iperf_result res;
	char path[4096], msg[256], *buf;
	double bps = 0, bytes = 0, seconds = 0;
	unsigned int i;
	size_t len;
	int ret;

	for (i = 0; i < run->nflows; i++) {
		ret = path_join(path, sizeof(path), rundir, run->flow_file[i], err, errlen);
		if (ret)
			return ret;
		ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
		if (ret)
			return ret;
		ret = iperf_json_parse(buf, len, &res, msg, sizeof(msg));
		free(buf);
		if (ret) {
			seterr(err, errlen, "%s: %s", path, msg);
			return ret;
		}
		bps += res.bps;
		if (!isfinite(bps)) {
			seterr(err, errlen, "%s: the flows' rates add up to %g", path, bps);
			return -ERANGE;
		}
		if (run->workload == WL_TCP_BYTES) {
			if (!(res.bytes > 0) || !(res.seconds > 0)) {
				seterr(err, errlen, "%s: end.sum_received.bytes or .seconds missing "
				       "or 0 (a tcp-bytes run needs both)", path);
				return -EINVAL;
			}
			bytes += res.bytes;
			if (res.seconds > seconds)
				seconds = res.seconds;
		}
		if (i == 0) {
			run->duration = res.duration;
			run->omit = res.omit;
			if (!part->kernel_release[0] && res.system_info[0]) {
				release_from_sysinfo(res.system_info, part->kernel_release,
						     sizeof(part->kernel_release));
				part->release_from_iperf = part->kernel_release[0];
			}
		}
	}
	if (run->workload == WL_TCP_BYTES)
		run->value = bytes * 8 / seconds / 1e6;
	else
		run->value = bps / 1e6;
	if (!isfinite(run->value)) {
		seterr(err, errlen, "%s: the flows' bytes add up to %g", rundir, bytes);
		return -ERANGE;
	}
	return 0;
}

static int add_run(struct raw_set *s, size_t *cap, const struct raw_run *run)
{
	struct raw_run *tmp;

	if (s->nruns == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		tmp = realloc(s->runs, *cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		s->runs = tmp;
	}
	s->runs[s->nruns++] = *run;
	return 0;
}

static const struct raw_run *cmp_base;

static int cmp_uint(unsigned int a, unsigned int b)
{
	return (a > b) - (a < b);
}

static int cmp_run_id(const void *a, const void *b)
{
	const struct raw_run *x = &cmp_base[*(const size_t *)a];
	const struct raw_run *y = &cmp_base[*(const size_t *)b];

	return cmp_uint(x->row_index, y->row_index) ?: cmp_uint(x->kind, y->kind) ?:
	       cmp_uint(x->workload, y->workload) ?: cmp_uint(x->dir, y->dir) ?:
	       cmp_uint(x->repetition, y->repetition) ?: strcmp(x->name, y->name);
}

/*
 * Within one part a row index names one configuration (in measured runs and
 * verification passes alike), and (row, workload, direction, repetition) one measured
 * run: anything else would be counted twice or mixed up.
 */
static int check_part(const char *path, const struct raw_set *s, size_t first,
		      char *err, size_t errlen)
{
	const struct raw_run *a, *b;
	size_t n = s->nruns - first, i, *ix;
	int ret = 0;

	ix = malloc((n ? n : 1) * sizeof(*ix));
	if (!ix) {
		seterr(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ix[i] = first + i;
	cmp_base = s->runs;
	qsort(ix, n, sizeof(*ix), cmp_run_id);
	for (i = 1; i < n && !ret; i++) {
		a = &s->runs[ix[i - 1]];
		b = &s->runs[ix[i]];
		if (a->row_index != b->row_index)
			continue;
		if (strcmp(a->key, b->key)) {
			seterr(err, errlen, "%s/%s/record.json: row.index %u is '%s' here but "
			       "'%s' in %s", path, b->name, b->row_index, b->key, a->key, a->name);
			ret = -EINVAL;
		} else if (a->kind == RAW_MEASURE && b->kind == RAW_MEASURE &&
			   a->workload == b->workload && a->dir == b->dir &&
			   a->repetition == b->repetition) {
			seterr(err, errlen, "%s/%s/record.json: row %u, %s, %s, repetition %u "
			       "again (also in %s)", path, b->name, b->row_index,
			       brnf_workloads[b->workload].name, raw_dir_names[b->dir],
			       b->repetition, a->name);
			ret = -EINVAL;
		}
	}
	free(ix);
	return ret;
}

/* A schema 2 run directory is named after the record's order, workload and direction. */
static int check_name(const char *rec, const struct raw_run *run, char *err, size_t errlen)
{
	char want[RAW_NAME_LEN];

	if (raw_run_dir_name(run, want, sizeof(want)) || strcmp(run->name, want)) {
		seterr(err, errlen, "%s: the run directory is '%s', the record says '%s' "
		       "(order, workload, direction)", rec, run->name, want);
		return -EINVAL;
	}
	return 0;
}

static int read_part(const char *dir, size_t pi, struct raw_set *s, size_t *cap,
		     char *err, size_t errlen)
{
	size_t first = s->nruns;
	struct raw_part *part = &s->parts[pi];
	char path[4096], rundir[4096], rec[4096], *buf;
	char **runs = NULL;
	struct raw_run *run;
	size_t nruns = 0, i, len;
	int ret;

	snprintf(path, sizeof(path), "%s/raw/%s/provenance.json", dir, part->name);
	ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = raw_parse_provenance(path, buf, len, part, err, errlen);
	free(buf);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/raw/%s/qemu.json", dir, part->name);
	if (!access(path, F_OK)) {
		ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
		if (ret)
			return ret;
		ret = raw_parse_qemu(path, buf, len, part, err, errlen);
		free(buf);
		if (ret)
			return ret;
	}
	if (!part->clock[0])
		strcpy(part->clock, "realtime");

	snprintf(path, sizeof(path), "%s/raw/%s/runs", dir, part->name);
	ret = list_dir(path, false, &runs, &nruns, err, errlen);
	if (ret)
		return ret;
	if (!nruns) {
		seterr(err, errlen, "%s: no runs", path);
		ret = -ENOENT;
		goto out_free;
	}
	run = malloc(sizeof(*run));
	if (!run) {
		ret = -ENOMEM;
		seterr(err, errlen, "%s: out of memory", path);
		goto out_free;
	}
	for (i = 0; i < nruns; i++) {
		ret = path_join(rundir, sizeof(rundir), path, runs[i], err, errlen);
		if (ret)
			break;
		ret = path_join(rec, sizeof(rec), rundir, "record.json", err, errlen);
		if (ret)
			break;
		ret = file_read(rec, RAW_MAX_FILE, &buf, &len, err, errlen);
		if (ret)
			break;
		ret = raw_parse_record(rec, buf, len, run, err, errlen);
		free(buf);
		if (ret)
			break;
		run->part = pi;
		snprintf(run->name, sizeof(run->name), "%s", runs[i]);
		if (run->schema >= 2) {
			ret = check_name(rec, run, err, errlen);
			if (ret)
				break;
		}
		if (run->nflows) {
			ret = read_flows(rundir, run, part, err, errlen);
			if (ret)
				break;
		}
		ret = add_run(s, cap, run);
		if (ret) {
			seterr(err, errlen, "%s: out of memory", rundir);
			break;
		}
	}
	free(run);
	if (!ret)
		ret = check_part(path, s, first, err, errlen);
out_free:
	free_names(runs, nruns);
	return ret;
}

/* A part still being written (results.c names it <part>.tmp.<pid>) is not data. */
static bool is_tmp_name(const char *name)
{
	const char *p = strstr(name, ".tmp.");

	if (!p || !p[5])
		return false;
	for (p += 5; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* <dir>/run.txt is optional */
static int read_run_txt(const char *dir, struct raw_set *s, char *err, size_t errlen)
{
	char path[4096], *buf;
	size_t len;
	int ret;

	s->run_txt.target_pct = NAN;
	s->run_txt.target_workloads = 0;
	ret = path_join(path, sizeof(path), dir, "run.txt", err, errlen);
	if (ret || access(path, F_OK))
		return ret;
	ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = raw_parse_run_txt(path, buf, len, &s->run_txt, err, errlen);
	free(buf);
	return ret;
}

int raw_read_dir(const char *dir, struct raw_set *s, char *err, size_t errlen)
{
	char path[4096], **parts = NULL;
	size_t nparts = 0, cap = 0, i;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/raw", dir);
	ret = list_dir(path, true, &parts, &nparts, err, errlen);
	if (ret)
		return ret;
	s->parts = calloc(nparts ? nparts : 1, sizeof(*s->parts));
	if (!s->parts) {
		seterr(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < nparts; i++) {
		if (is_tmp_name(parts[i])) {
			fprintf(stderr, "brnf: %s/%s: ignored, an unfinished part (.tmp.<pid>)\n",
				path, parts[i]);
			continue;
		}
		if (strlen(parts[i]) >= RAW_NAME_LEN) {
			seterr(err, errlen, "%s/%s: name too long", path, parts[i]);
			ret = -ENAMETOOLONG;
			goto out_free;
		}
		strcpy(s->parts[s->nparts].name, parts[i]);
		ret = read_part(dir, s->nparts++, s, &cap, err, errlen);
		if (ret)
			goto out_free;
	}
	if (!s->nparts) {
		seterr(err, errlen, "%s: no parts (no raw data)", path);
		ret = -ENOENT;
		goto out_free;
	}
	ret = read_run_txt(dir, s, err, errlen);
	if (ret)
		goto out_free;
	free_names(parts, nparts);
	return 0;

out_free:
	free_names(parts, nparts);
	raw_free(s);
	return ret;
}

void raw_free(struct raw_set *s)
{
	free(s->parts);
	free(s->runs);
	memset(s, 0, sizeof(*s));
}
