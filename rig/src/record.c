// SPDX-License-Identifier: GPL-2.0
/* record.json writer (json-c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "record.h"
#include "util.h"

const char *const verdict_names[] = { "n/a", "yes", "no" };

static struct json_object *flags_array(const bool v[BRNF_NFAMILIES])
{
	struct json_object *a = json_object_new_array();
	unsigned int f;

	for (f = 0; f < BRNF_NFAMILIES; f++)
		json_object_array_add(a, json_object_new_int(v[f]));
	return a;
}

static struct json_object *row_json(const struct record *rec)
{
	const struct brnf_row *r = rec->row;
	struct json_object *o = json_object_new_object(), *local;
	unsigned int i;

	json_object_object_add(o, "index", json_object_new_int(rec->index));
	json_object_object_add(o, "kernel", json_object_new_string(r->kernel));
	json_object_object_add(o, "label", json_object_new_string(r->label));
	json_object_object_add(o, "global", flags_array(r->global));
	local = json_object_new_array();
	for (i = 0; i < r->nlocal; i++)
		json_object_array_add(local, json_object_new_string(r->local[i]));
	json_object_object_add(o, "local", local);
	json_object_object_add(o, "ruleset", json_object_new_string(r->ruleset));
	json_object_object_add(o, "path", json_object_new_string(brnf_path_names[r->path]));
	if (r->expect_mismatch)
		json_object_object_add(o, "expect", json_object_new_string("mismatch"));
	json_object_object_add(o, "source", json_object_new_string(rec->source));
	return o;
}

static struct json_object *readback_json(const struct readback *rb)
{
	struct json_object *o = json_object_new_object(), *br;
	unsigned int b;

	if (rb->have_global)
		json_object_object_add(o, "global", flags_array(rb->global));
	if (rb->have_bridges) {
		br = json_object_new_object();
		for (b = 0; b < BRNF_NBRIDGES; b++)
			json_object_object_add(br, brnf_bridge_names[b], flags_array(rb->bridge[b]));
		json_object_object_add(o, "bridges", br);
	}
	return o;
}

static struct json_object *verify_json(const struct verification *v)
{
	struct json_object *o = json_object_new_object(), *br, *one;
	unsigned int b;

	br = json_object_new_object();
	for (b = 0; b < BRNF_NBRIDGES; b++) {
		one = json_object_new_object();
		/* a bridge the row's path does not cross: nothing expected (n/a), not "no" */
		if (!v->on_path[b])
			json_object_object_add(one, "on_path", json_object_new_boolean(false));
		json_object_object_add(one, "expected", v->on_path[b] ?
				       json_object_new_boolean(v->expected[b]) : NULL);
		json_object_object_add(one, "packets", json_object_new_int64(v->packets[b]));
		json_object_object_add(br, brnf_bridge_names[b], one);
	}
	json_object_object_add(o, "bridges", br);
	if (v->flow_checked) {
		one = json_object_new_object();
		json_object_object_add(one, "offload_expected",
				       json_object_new_boolean(v->flow_offload_expected));
		json_object_object_add(one, "tracked", json_object_new_boolean(v->flow.tracked));
		json_object_object_add(one, "offloaded",
				       json_object_new_boolean(v->flow.offloaded));
		json_object_object_add(one, "conntrack", json_object_new_string(v->flow.entry));
		json_object_object_add(o, "flow", one);
	}
	json_object_object_add(o, "result", json_object_new_string(verdict_names[v->result]));
	return o;
}

static struct json_object *pktgen_json(const struct record *rec)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "pkt_size", json_object_new_int(rec->pkt_size));
	json_object_object_add(o, "count", json_object_new_int64(rec->count));
	json_object_object_add(o, "sent", json_object_new_int64(rec->pg.sent));
	json_object_object_add(o, "received", json_object_new_int64(rec->pg.received));
	json_object_object_add(o, "errors", json_object_new_int64(rec->pg.errors));
	json_object_object_add(o, "elapsed_us", json_object_new_int64(rec->pg.elapsed_us));
	json_object_object_add(o, "result", json_object_new_string(rec->pg.result));
	json_object_object_add(o, "primed", json_object_new_boolean(rec->pg.primed));
	return o;
}

static struct json_object *flows_json(const struct record *rec)
{
	struct json_object *flows = json_object_new_array(), *fl;
	char name[32];
	unsigned int i;

	for (i = 0; i < rec->nflows; i++) {
		fl = json_object_new_object();
		snprintf(name, sizeof(name), "flow-%u.json", i);
		json_object_object_add(fl, "file", json_object_new_string(name));
		json_object_object_add(fl, "port", json_object_new_int(rec->port0 + i));
		json_object_array_add(flows, fl);
	}
	return flows;
}

int record_write(const char *dir, const struct record *rec)
{
	struct json_object *top;
	char path[1400];
	int err;

	top = json_object_new_object();
	json_object_object_add(top, "schema", json_object_new_int(2));
	json_object_object_add(top, "kind", json_object_new_string(rec->kind == RECORD_VERIFY ?
								   "verify" : "measure"));
	json_object_object_add(top, "row", row_json(rec));
	if (rec->kind == RECORD_MEASURE) {
		json_object_object_add(top, "workload",
				       json_object_new_string(brnf_workloads[rec->workload].name));
		json_object_object_add(top, "direction", json_object_new_string(rec->direction));
		json_object_object_add(top, "repetition", json_object_new_int(rec->repetition));
	}
	json_object_object_add(top, "order", json_object_new_int(rec->order));
	if (rec->kind == RECORD_MEASURE)
		json_object_object_add(top, "counting_rules", json_object_new_boolean(false));
	json_object_object_add(top, "readback", readback_json(&rec->rb));
	if (rec->kind == RECORD_VERIFY) {
		json_object_object_add(top, "rules", json_object_new_string(rec->rules));
		json_object_object_add(top, "traffic", json_object_new_string(rec->traffic));
		json_object_object_add(top, "verify", verify_json(&rec->v));
	} else if (workload_is_pps(rec->workload)) {
		json_object_object_add(top, "pktgen", pktgen_json(rec));
	} else {
		json_object_object_add(top, "flows", flows_json(rec));
		if (rec->workload == WL_TCP_BYTES)
			json_object_object_add(top, "bytes_per_flow",
					       json_object_new_int64(rec->bytes_per_flow));
	}
	snprintf(path, sizeof(path), "%s/record.json", dir);
	err = json_write_file(path, top);
	json_object_put(top);
	return err;
}
