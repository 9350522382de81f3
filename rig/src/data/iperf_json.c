// SPDX-License-Identifier: GPL-2.0
/* iperf_json: read the JSON an `iperf3 -J` client writes, see iperf_json.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "errbuf.h"
#include "iperf_json.h"

static bool is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_double) ||
	       json_object_is_type(o, json_type_int);
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double opt_number(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && is_number(v) ? json_object_get_double(v) : -1;
}

static void opt_string(struct json_object *o, const char *key, char *buf, size_t len)
{
	struct json_object *v = get(o, key);

	buf[0] = '\0';
	if (v && json_object_is_type(v, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(v));
}

struct json_object *json_text_parse(const char *text, size_t len, char *err, size_t errlen)
{
	enum json_tokener_error jerr;
	struct json_tokener *tok;
	struct json_object *o;
	size_t off, i;

	if (len > INT_MAX) {
		seterr(err, errlen, "JSON text too large");
		return NULL;
	}
	if (memchr(text, '\0', len)) {
		seterr(err, errlen, "NUL byte in JSON text");
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		seterr(err, errlen, "out of memory");
		return NULL;
	}
	o = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	off = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_continue) {
		json_object_put(o);
		seterr(err, errlen, "truncated JSON (ends after %zu bytes)", len);
		return NULL;
	}
	if (jerr != json_tokener_success || !o) {
		json_object_put(o);
		seterr(err, errlen, "bad JSON at byte %zu: %s", off,
		       jerr != json_tokener_success ? json_tokener_error_desc(jerr) :
						      "empty");
		return NULL;
	}
	for (i = off; i < len; i++) {
		if (!strchr(" \t\r\n", text[i])) {
			json_object_put(o);
			seterr(err, errlen, "trailing data after the JSON value at byte %zu", i);
			return NULL;
		}
	}
	return o;
}

int iperf_json_parse(const char *text, size_t len, struct iperf_result *res,
		     char *err, size_t errlen)
{
	struct json_object *top, *e, *start, *ts, *end, *sum, *v;
	int ret = -EINVAL;
	double bps;

	memset(res, 0, sizeof(*res));
	if (!len) {
		seterr(err, errlen, "empty output (no JSON)");
		return -EINVAL;
	}
	top = json_text_parse(text, len, err, errlen);
	if (!top)
		return -EINVAL;
	if (!json_object_is_type(top, json_type_object)) {
		seterr(err, errlen, "top level is not a JSON object");
		goto out_put;
	}
	e = get(top, "error");
	if (e) {
		seterr(err, errlen, "iperf3 error: %s", json_object_get_string(e));
		goto out_put;
	}
	start = get(top, "start");
	ts = get(start, "test_start");
	v = get(ts, "protocol");
	if (v && (!json_object_is_type(v, json_type_string) ||
		  strcmp(json_object_get_string(v), "TCP"))) {
		seterr(err, errlen, "protocol is %s, not TCP", json_object_get_string(v));
		goto out_put;
	}
	end = get(top, "end");
	if (!end || !json_object_is_type(end, json_type_object)) {
		seterr(err, errlen, "no \"end\" object");
		goto out_put;
	}
	sum = get(end, "sum_received");
	if (!sum || !json_object_is_type(sum, json_type_object)) {
		seterr(err, errlen, "no \"end.sum_received\" object");
		goto out_put;
	}
	v = get(sum, "bits_per_second");
	if (!v || !is_number(v)) {
		seterr(err, errlen, "end.sum_received.bits_per_second missing or not a number");
		goto out_put;
	}
	bps = json_object_get_double(v);
	if (!isfinite(bps) || bps < 0) {
		seterr(err, errlen, "end.sum_received.bits_per_second is %g", bps);
		goto out_put;
	}
	res->bps = bps;
	res->seconds = opt_number(sum, "seconds");
	res->bytes = opt_number(sum, "bytes");
	res->duration = opt_number(ts, "duration");
	res->omit = opt_number(ts, "omit");
	v = get(ts, "num_streams");
	res->num_streams = v && json_object_is_type(v, json_type_int) ?
			   json_object_get_int(v) : -1;
	v = get(ts, "reverse");
	res->reverse = v && json_object_get_int(v);
	opt_string(start, "version", res->version, sizeof(res->version));
	opt_string(start, "system_info", res->system_info, sizeof(res->system_info));
	ret = 0;
out_put:
	json_object_put(top);
	return ret;
}

int iperf_json_received_bps(const char *text, size_t len, double *bps, char *err, size_t errlen)
{
	struct iperf_result res;
	int ret;

	ret = iperf_json_parse(text, len, &res, err, errlen);
	if (!ret)
		*bps = res.bps;
	return ret;
}
