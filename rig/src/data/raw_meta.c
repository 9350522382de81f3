// SPDX-License-Identifier: GPL-2.0
/* raw_meta: what a part says about itself: run.txt, provenance.json, qemu.json (raw.h). */
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "errbuf.h"
#include "raw.h"
#include "raw_json.h"

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

/* part_value=: mean, best or floor (a boot's value its best run, as best) */
static int run_txt_part_value(const char *v, struct raw_run_txt *rt, char *msg, size_t len)
{
	if (strcmp(v, "mean") && strcmp(v, "best") && strcmp(v, "floor")) {
		seterr(msg, len, "part_value '%s' is not mean, best or floor", v);
		return -1;
	}
	rt->part_floor = !strcmp(v, "floor");
	rt->part_best = rt->part_floor || !strcmp(v, "best");
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
	rt->part_floor = false;
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
				rj_one_line(msg);
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
		x = rj_get(o, key);
		if (dot)
			x = rj_get(x, dot);
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

	top = rj_parse_top(name, text, len, err, errlen);
	if (!top)
		return -EINVAL;
	copy_str(p->kernel_release, sizeof(p->kernel_release), top, rel);
	copy_str(p->clock, sizeof(p->clock), top, clock);
	copy_str(p->testbed, sizeof(p->testbed), top, testbed);
	copy_str(p->date, sizeof(p->date), top, date);
	copy_str(p->offloads, sizeof(p->offloads), top, offloads);
	copy_str(p->host_cpu, sizeof(p->host_cpu), top, cpu);
	x = rj_get(top, "wall_seconds");
	p->wall_seconds = x && (json_object_is_type(x, json_type_double) ||
				json_object_is_type(x, json_type_int)) ?
			  json_object_get_double(x) : -1;
	json_object_put(top);
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

	top = rj_parse_top(name, text, len, err, errlen);
	if (!top)
		return -EINVAL;
	p->qemu = true;
	/* the script that started the guest knows its clock best */
	if (rj_str(top, "clock") && *rj_str(top, "clock"))
		copy_str(p->clock, sizeof(p->clock), top, clock);
	copy_str(p->qemu_version, sizeof(p->qemu_version), top, qemu);
	copy_str(p->qemu_options, sizeof(p->qemu_options), top, opts);
	copy_str(buf, sizeof(buf), top, cpu);
	if (buf[0])
		strcpy(p->host_cpu, buf);
	x = rj_get(top, "exit_status");
	if (x && json_object_is_type(x, json_type_int))
		p->exit_status = json_object_get_int(x);
	json_object_put(top);
	return 0;
}
