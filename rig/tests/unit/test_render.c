// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of render_dir() (rig/src/data/render.c, raw.c) on two small handmade results
 * directories:
 * - data/resdir (raw schema 1): 3 rows x 2 directions x 2 repetitions in one part, one
 *   flow per run, the flow files real `iperf3 -J` outputs made on loopback;
 * - data/resdir2 (raw schema 2, made by make-resdir2.sh): nobrnf and vanilla, 3 boots
 *   each, rows 0-2, workloads pps64 (2 repetitions per boot, made-up pktgen figures)
 *   and tcp-bytes (1, real `iperf3 -J -n` outputs), one verification pass per row and
 *   boot, run.txt with target_pct=0.5.
 */
#include <dirent.h>
#include <math.h>

#include <json-c/json.h>

#include "unit.h"

#include "iperf_json.h"
#include "render.h"
#include "stats.h"

static const char *const outputs[] = { "matrix.md", "matrix.csv", "matrix.json",
				       "matrix.txt" };

struct fixture {
	char dir[256];
	char errfile[300];
	int saved_stderr;
};

static int setup_from(void **state, const char *data)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/brnf-render.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->errfile, sizeof(fx->errfile), "%s.stderr", fx->dir);
	sh("cp -R '%s/.' '%s/'", data_path(data), fx->dir);
	*state = fx;
	return 0;
}

static int setup(void **state)
{
	return setup_from(state, "resdir");
}

static int setup2(void **state)
{
	return setup_from(state, "resdir2");
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", fx->dir, fx->errfile);
	if (system(cmd) != 0)
		return -1;
	free(fx);
	return 0;
}

static const char *in_dir(struct fixture *fx, const char *rel)
{
	static char buf[4][600];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", fx->dir, rel);
	return buf[i];
}

/* render with stderr captured; returns render_dir()'s value, *msg the stderr text */
static int render_capture(struct fixture *fx, const struct render_opts *o, char **msg)
{
	int fd, ret;

	fflush(stderr);
	fx->saved_stderr = dup(2);
	fd = open(fx->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && fx->saved_stderr >= 0);
	dup2(fd, 2);
	close(fd);
	ret = render_dir(fx->dir, o);
	fflush(stderr);
	dup2(fx->saved_stderr, 2);
	close(fx->saved_stderr);
	*msg = slurp(fx->errfile, NULL);
	return ret;
}

/* render_dir() with its stdout in a string (returned, malloc'd); its status in *ret */
static char *render_stdout(struct fixture *fx, const struct render_opts *o, int *ret)
{
	char out[300], *got;
	int fd, saved;

	snprintf(out, sizeof(out), "%s.stdout", fx->dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, 1);
	close(fd);
	*ret = render_dir(fx->dir, o);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	got = slurp(out, NULL);
	unlink(out);
	return got;
}

static struct json_object *load_json(const char *path)
{
	char *text, err[256];
	struct json_object *o;
	size_t len;

	text = slurp(path, &len);
	o = json_text_parse(text, len, err, sizeof(err));
	if (!o)
		fail_msg("%s: %s", path, err);
	free(text);
	return o;
}

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no key %s", key);
	return v;
}

static struct json_object *json_row(struct json_object *top, size_t i)
{
	struct json_object *rows = jget(top, "rows");

	assert_true(i < json_object_array_length(rows));
	return json_object_array_get_idx(rows, i);
}

/* the cell of row @i, @workload and @dir, or NULL */
static struct json_object *json_cell(struct json_object *top, size_t i, const char *workload,
				     const char *dir)
{
	struct json_object *cells = jget(json_row(top, i), "cells"), *c;
	size_t k;

	for (k = 0; k < json_object_array_length(cells); k++) {
		c = json_object_array_get_idx(cells, k);
		if (!strcmp(json_object_get_string(jget(c, "workload")), workload) &&
		    !strcmp(json_object_get_string(jget(c, "direction")), dir))
			return c;
	}
	return NULL;
}

static double cell_num(struct json_object *top, size_t i, const char *workload,
		       const char *dir, const char *key)
{
	struct json_object *c = json_cell(top, i, workload, dir);

	if (!c)
		fail_msg("no cell %zu %s %s", i, workload, dir);
	return json_object_get_double(jget(c, key));
}

/* change one record.json through json-c; @run is "<part>/<run>" or a run of part
 * "running" */
static void edit_record(struct fixture *fx, const char *run,
			void (*fn)(struct json_object *rec, void *arg), void *arg)
{
	char rel[300];
	struct json_object *rec;
	const char *path;

	if (strchr(run, '/')) {
		char part[128];

		snprintf(part, sizeof(part), "%.*s", (int)(strchr(run, '/') - run), run);
		snprintf(rel, sizeof(rel), "raw/%s/runs/%s/record.json", part,
			 strchr(run, '/') + 1);
	} else {
		snprintf(rel, sizeof(rel), "raw/running/runs/%s/record.json", run);
	}
	path = in_dir(fx, rel);
	rec = load_json(path);
	fn(rec, arg);
	assert_int_equal(json_object_to_file_ext(path, rec, JSON_C_TO_STRING_PRETTY), 0);
	json_object_put(rec);
}

/* render expecting @ret; row @i's "verified" must be @want */
static void render_verified(struct fixture *fx, int ret, size_t i, const char *want)
{
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg;

	assert_int_equal(render_capture(fx, &o, &msg), ret);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, i), "verified")), want);
	json_object_put(top);
}

static void set_verify(struct json_object *rec, void *arg)
{
	json_object_object_add(jget(rec, "verify"), "result",
			       json_object_new_string(arg));
}

static void set_readback_global(struct json_object *rec, void *arg)
{
	struct json_object *a = json_object_new_array();

	(void)arg;
	json_object_array_add(a, json_object_new_int(1));
	json_object_array_add(a, json_object_new_int(0));
	json_object_array_add(a, json_object_new_int(0));
	json_object_object_add(jget(rec, "readback"), "global", a);
}

static void set_index(struct json_object *rec, void *arg)
{
	struct json_object *row = jget(rec, "row");
	int idx = json_object_get_int(jget(row, "index"));

	(void)arg;
	/* reverse the row order: 0 <-> 2 */
	json_object_object_add(row, "index", json_object_new_int(2 - idx));
}

static void test_render_and_rerender_identical(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .print = false };
	char *first[4], *again, *msg;
	size_t len[4], n, i;
	struct dirent *de;
	DIR *d;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	assert_string_equal(msg, "");
	free(msg);
	for (i = 0; i < 4; i++)
		first[i] = slurp(in_dir(fx, outputs[i]), &len[i]);
	/* a second render of the same raw data gives the same bytes */
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	for (i = 0; i < 4; i++) {
		again = slurp(in_dir(fx, outputs[i]), &n);
		assert_int_equal(n, len[i]);
		assert_memory_equal(again, first[i], n);
		free(again);
	}
	/* and the bytes are the reviewed ones */
	assert_golden("resdir-matrix.md", first[0], len[0]);
	assert_golden("resdir-matrix.csv", first[1], len[1]);
	assert_golden("resdir-matrix.json", first[2], len[2]);
	assert_golden("resdir-matrix.txt", first[3], len[3]);
	for (i = 0; i < 4; i++)
		free(first[i]);
	/* no temporary file left behind */
	d = opendir(fx->dir);
	assert_non_null(d);
	n = 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' || strlen(de->d_name) > 2)
			n++;
	closedir(d);
	assert_int_equal(n, 5);		/* raw + the four outputs */
}

static double flow_mbps(struct fixture *fx, const char *run)
{
	char rel[300], *text, err[256];
	double bps;
	size_t len;

	snprintf(rel, sizeof(rel), "raw/running/runs/%s/flow-0.json", run);
	text = slurp(in_dir(fx, rel), &len);
	assert_int_equal(iperf_json_received_bps(text, len, &bps, err, sizeof(err)), 0);
	free(text);
	return bps / 1e6;
}

/* The numbers come from the flow files: recompute one cell independently. */
static void test_values_from_raw(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top, *r;
	double a, b, mean, sd;
	char *msg;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_get_int(jget(top, "format")), 2);
	assert_int_equal(json_object_array_length(jget(top, "rows")), 3);
	assert_int_equal(json_object_array_length(jget(json_row(top, 0), "cells")), 2);
	assert_string_equal(json_object_get_string(jget(top, "baseline")),
			    "kernel=running global=0 local=- ruleset=none");
	assert_true(json_object_get_double(jget(top, "target_pct")) == 0.3);
	assert_string_equal(json_object_get_string(jget(top, "target_source")), "default");
	r = json_row(top, 0);
	assert_true(json_object_get_boolean(jget(r, "baseline")));
	/* row 0 download: runs 0000-download and 0006-download, one part: the runs are
	 * the units */
	a = flow_mbps(fx, "0000-download");
	b = flow_mbps(fx, "0006-download");
	mean = (a + b) / 2;
	sd = fabs(a - b) / sqrt(2);
	r = json_cell(top, 0, "tcp", "download");
	assert_string_equal(json_object_get_string(jget(r, "stat_unit")), "run");
	assert_string_equal(json_object_get_string(jget(r, "unit")), "Mbit/s");
	assert_int_equal(json_object_get_int(jget(r, "n")), 2);
	assert_int_equal(json_object_get_int(jget(r, "n_parts")), 1);
	assert_int_equal(json_object_get_int(jget(r, "n_runs")), 2);
	assert_true(fabs(json_object_get_double(jget(r, "mean")) - mean) < 1e-9 * mean);
	assert_true(fabs(json_object_get_double(jget(r, "sd")) - sd) < 1e-9 * mean);
	assert_true(fabs(json_object_get_double(jget(r, "ci95")) -
			 12.706204736174705 * sd / sqrt(2)) < 1e-6 * mean);
	assert_true(json_object_get_double(jget(r, "min")) == fmin(a, b));
	assert_true(json_object_get_double(jget(r, "max")) == fmax(a, b));
	assert_true(json_object_get_double(json_object_array_get_idx(jget(r, "values"), 1)) ==
		    b);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    jget(r, "run_names"), 1)), "running/0006-download");
	assert_true(json_object_is_type(jget(r, "change_pct"), json_type_null));
	/* the baseline's own half-width in percent of its mean */
	assert_true(fabs(json_object_get_double(jget(r, "halfwidth_pct")) -
			 100 * 12.706204736174705 * sd / sqrt(2) / mean) < 1e-6);
	r = json_row(top, 1);
	assert_string_equal(json_object_get_string(jget(r, "local")), "br-lan");
	assert_false(json_object_get_boolean(jget(r, "baseline")));
	assert_string_equal(json_object_get_string(jget(r, "verified")), "yes");
	r = json_cell(top, 1, "tcp", "download");
	assert_true(json_object_is_type(jget(r, "change_pct"), json_type_double));
	assert_true(json_object_get_double(jget(r, "halfwidth_pct")) ==
		    (json_object_get_double(jget(r, "change_high_pct")) -
		     json_object_get_double(jget(r, "change_low_pct"))) / 2);
	assert_true(json_object_is_type(jget(r, "reached"), json_type_boolean));
	r = json_row(top, 2);
	assert_string_equal(json_object_get_string(jget(r, "label")), "brfilter-global");
	assert_string_equal(json_object_get_string(jget(r, "global")), "1");
	json_object_put(top);
}

static void test_verify_no(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg, *md;
	struct render_opts p = { .print = true };
	char *out;
	int ret;

	edit_record(fx, "0008-download", set_verify, "no");	/* row 1, repetition 2 */
	assert_int_equal(render_capture(fx, &o, &msg), RENDER_VERIFY_FAILED);
	free(msg);
	out = render_stdout(fx, &p, &ret);
	assert_int_equal(ret, RENDER_VERIFY_FAILED);
	assert_non_null(strstr(out, "; filtering verification said no on 1 of 3 rows\n"));
	free(out);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "| **no**"));
	assert_non_null(strstr(md, "Filtering verification failed for 1 row."));
	free(md);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_get_int(jget(top, "verify_failed_rows")), 1);
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")), "no");
	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "verified")), "yes");
	json_object_put(top);
}

static void set_expect(struct json_object *rec, void *arg)
{
	json_object_object_add(jget(rec, "row"), "expect", json_object_new_string(arg));
}

/* expect=mismatch: a row that shows a design ignoring its configuration (the legacy
 * bypass with a per-bridge flag). "no" in every run is the expected result and does not
 * fail the render; a "yes" there does. */
static void test_verify_expected_mismatch(void **state)
{
	static const char *const row1[] = { "0002-download", "0003-upload", "0008-download",
					    "0009-upload" };
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg, *md;
	size_t i;

	for (i = 0; i < 4; i++) {
		edit_record(fx, row1[i], set_expect, "mismatch");
		edit_record(fx, row1[i], set_verify, "no");
	}
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_get_int(jget(top, "verify_failed_rows")), 0);
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")),
			    "no (expected)");
	assert_non_null(strstr(json_object_get_string(jget(json_row(top, 1), "key")),
			       " expect=mismatch"));
	json_object_put(top);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_null(strstr(md, "**no"));
	free(md);

	edit_record(fx, "0008-download", set_verify, "yes");
	render_verified(fx, RENDER_VERIFY_FAILED, 1, "yes (expected no)");
}

static void test_verify_na_and_partial(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg;

	edit_record(fx, "0000-download", set_verify, "n/a");
	edit_record(fx, "0001-upload", set_verify, "n/a");
	edit_record(fx, "0006-download", set_verify, "n/a");
	edit_record(fx, "0007-upload", set_verify, "n/a");
	edit_record(fx, "0002-download", set_verify, "n/a");
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "verified")), "n/a");
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")),
			    "partial");
	json_object_put(top);
}

static void test_readback_mismatch(void **state)
{
	struct fixture *fx = *state;

	edit_record(fx, "0001-upload", set_readback_global, NULL);
	render_verified(fx, RENDER_VERIFY_FAILED, 0, "no (readback)");
}

static void test_bad_record(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	const char *path = in_dir(fx, "raw/running/runs/0004-download/record.json");
	char *text, *msg, want[700];
	size_t len;

	text = slurp(path, &len);
	spit(path, text, len / 2);
	free(text);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s: truncated JSON (ends after %zu bytes)\n", path,
		 len / 2);
	assert_string_equal(msg, want);
	free(msg);
	/* nothing rendered from partial data */
	assert_int_equal(access(in_dir(fx, "matrix.md"), F_OK), -1);
}

static void test_missing_flow(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	const char *path = in_dir(fx, "raw/running/runs/0005-upload/flow-0.json");
	char *msg, want[700];

	assert_int_equal(unlink(path), 0);
	assert_int_equal(render_capture(fx, &o, &msg), -ENOENT);
	snprintf(want, sizeof(want), "brnf: %s: No such file or directory\n", path);
	assert_string_equal(msg, want);
	free(msg);
}

static void test_failed_flow(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	const char *path = in_dir(fx, "raw/running/runs/0003-upload/flow-0.json");
	char *msg, *text, want[700];
	size_t len;

	text = slurp(data_path("iperf3-refused.json"), &len);
	spit(path, text, len);
	free(text);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want),
		 "brnf: %s: iperf3 error: unable to connect to server: Connection refused\n",
		 path);
	assert_string_equal(msg, want);
	free(msg);
}

static void test_baseline_option(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .baseline = "brfilter-global" };
	struct json_object *top;
	char *msg, want[400];

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_boolean(jget(json_row(top, 2), "baseline")));
	assert_false(json_object_get_boolean(jget(json_row(top, 0), "baseline")));
	assert_true(json_object_is_type(jget(json_cell(top, 0, "tcp", "upload"), "change_pct"),
					json_type_double));
	json_object_put(top);

	o.baseline = "kernel=running global=0 local=br-lan ruleset=none";
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_boolean(jget(json_row(top, 1), "baseline")));
	json_object_put(top);

	o.baseline = "nobrnf";
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want),
		 "brnf: %s: baseline 'nobrnf' matches no row key, kernel or label\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
}

/* Rows are ordered by row.index, whatever order the runs come in. */
static void test_row_order_by_index(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	static const char *const runs[] = {
		"0000-download", "0001-upload", "0002-download", "0003-upload",
		"0004-download", "0005-upload", "0006-download", "0007-upload",
		"0008-download", "0009-upload", "0010-download", "0011-upload",
	};
	struct json_object *top;
	char *msg;
	size_t i;

	for (i = 0; i < 12; i++)
		edit_record(fx, runs[i], set_index, NULL);
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "label")),
			    "brfilter-global");
	assert_true(json_object_get_boolean(jget(json_row(top, 0), "baseline")));
	assert_string_equal(json_object_get_string(jget(json_row(top, 2), "key")),
			    "kernel=running global=0 local=- ruleset=none");
	json_object_put(top);
}

static void set_ruleset(struct json_object *rec, void *arg)
{
	json_object_object_add(jget(rec, "row"), "ruleset", json_object_new_string(arg));
}

/* The ruleset column shows only when some row has a ruleset other than none; a
 * different ruleset is a different row, ordered by row.index, then first appearance. */
static void test_ruleset_column(void **state)
{
	static const char *const row2[] = { "0004-download", "0005-upload", "0010-download",
					    "0011-upload" };
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg, *md;
	size_t i;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_null(strstr(md, "| ruleset"));
	free(md);

	for (i = 0; i < 4; i++)
		edit_record(fx, row2[i], set_ruleset, "openwrt-flowtable");
	/* a second part whose row 0 has a ruleset: same index, another row */
	sh("cp -R '%s' '%s'", in_dir(fx, "raw/running"), in_dir(fx, "raw/boot2"));
	sh("sed -i 's/\"ruleset\": \"none\"/\"ruleset\": \"openwrt\"/' "
	   "'%s/raw/boot2/runs/0000-download/record.json'", fx->dir);
	sh("rm -rf '%s/raw/boot2/runs/0001-upload' '%s/raw/boot2/runs/0006-download' "
	   "'%s/raw/boot2/runs/0007-upload'", fx->dir, fx->dir, fx->dir);
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "| ruleset"));
	assert_non_null(strstr(md, "| openwrt-flowtable |"));
	free(md);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_array_length(jget(top, "rows")), 4);
	/* index 0 twice: part boot2 is read first, so its row comes first */
	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "ruleset")),
			    "openwrt");
	assert_true(cell_num(top, 0, "tcp", "download", "n") == 1);
	assert_null(json_cell(top, 0, "tcp", "upload"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "ruleset")), "none");
	assert_true(cell_num(top, 1, "tcp", "download", "n") == 2);
	assert_string_equal(json_object_get_string(jget(json_row(top, 3), "ruleset")),
			    "openwrt-flowtable");
	/* 2 runs in each of 2 parts: the units are the 2 parts' means */
	assert_true(cell_num(top, 3, "tcp", "upload", "n") == 2);
	assert_true(cell_num(top, 3, "tcp", "upload", "n_runs") == 4);
	json_object_put(top);
	md = slurp(in_dir(fx, "matrix.txt"), NULL);
	assert_non_null(strstr(md, "(n=1)"));
	free(md);
}

/* A second part (e.g. another boot) adds runs to the same cells. */
static void test_two_parts(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg, *md;

	sh("cp -R '%s' '%s'", in_dir(fx, "raw/running"), in_dir(fx, "raw/boot2"));
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_array_length(jget(top, "rows")), 3);
	assert_true(cell_num(top, 0, "tcp", "download", "n_runs") == 4);
	assert_true(cell_num(top, 0, "tcp", "download", "n_parts") == 2);
	assert_true(cell_num(top, 0, "tcp", "download", "n") == 2);
	assert_string_equal(json_object_get_string(jget(json_cell(top, 0, "tcp", "download"),
							"stat_unit")), "part");
	assert_int_equal(json_object_array_length(jget(top, "parts")), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    jget(top, "parts"), 0) ? jget(json_object_array_get_idx(
				    jget(top, "parts"), 0), "name") : NULL), "boot2");
	json_object_put(top);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "- runs per cell: 4, from parts: 2 (24 measured runs, 0 "
				   "verification passes, in 2 parts)\n"));
	assert_non_null(strstr(md, "|        2 × 2 |"));
	free(md);
}

/* qemu.json of a part run in a guest: clock, QEMU and host CPU in the notes */
static void test_qemu_part(void **state)
{
	static const char qj[] = "{\n  \"series\": \"6.12\",\n  \"variant\": \"vanilla\",\n"
		"  \"boot\": 1,\n  \"clock\": \"icount\",\n  \"qemu\": \"QEMU emulator version 7.2.15\",\n"
		"  \"qemu_options\": \"-machine pc -cpu max -m 1G -icount shift=0,sleep=off -smp 1\",\n"
		"  \"host_cpu\": \"Example CPU\",\n  \"exit_status\": 3\n}\n";
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	const char *path = in_dir(fx, "raw/running/qemu.json");
	char *msg, *md, want[700];

	spit(path, qj, strlen(qj));
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "- running: kernel 6.1.0-test, clock icount, test bed netns in a "
				   "QEMU guest (QEMU emulator version 7.2.15; -machine pc -cpu max "
				   "-m 1G -icount shift=0,sleep=off -smp 1), host CPU Example CPU, "
				   "2026-11-30T02:00:20Z; the guest's run ended with exit status 3\n"));
	assert_non_null(strstr(md, "Clock `icount`: guest time advances"));
	free(md);
	md = slurp(in_dir(fx, "matrix.txt"), NULL);
	assert_non_null(strstr(md, "\nicount: rates measure instructions per byte"));
	free(md);

	spit(path, qj, 20);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s: truncated JSON (ends after 20 bytes)\n", path);
	assert_string_equal(msg, want);
	free(msg);
}

/* print: the text table on stdout is matrix.txt, then an empty line and the verdict */
static void test_print(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .print = true };
	char *got, *txt, *rest;
	int ret;

	got = render_stdout(fx, &o, &ret);
	assert_int_equal(ret, 0);
	txt = slurp(in_dir(fx, "matrix.txt"), NULL);
	assert_true(strlen(txt) > 100);
	assert_memory_equal(got, txt, strlen(txt));
	rest = got + strlen(txt);
	assert_true(!strncmp(rest, "\nverdict: ", strlen("\nverdict: ")));
	assert_ptr_equal(strchr(rest + 1, '\n'), rest + strlen(rest) - 1);
	free(got);
	free(txt);
}

static void two_flows(struct json_object *rec, void *arg)
{
	struct json_object *flows = json_object_new_array(), *f;
	int i;

	(void)arg;
	for (i = 0; i < 2; i++) {
		f = json_object_new_object();
		json_object_object_add(f, "file", json_object_new_string(i ? "flow-1.json" :
									    "flow-0.json"));
		json_object_object_add(f, "port", json_object_new_int(5201 + i));
		json_object_array_add(flows, f);
	}
	json_object_object_add(rec, "flows", flows);
}

/* Rates that overflow a double when added are an error naming the flow. */
static void test_rate_overflow(void **state)
{
	static const char huge[] = "{\"end\": {\"sum_received\": {\"bits_per_second\": 1.7e308}}}";
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	const char *f1 = in_dir(fx, "raw/running/runs/0003-upload/flow-1.json");
	char *msg, want[700];

	edit_record(fx, "0003-upload", two_flows, NULL);
	spit(in_dir(fx, "raw/running/runs/0003-upload/flow-0.json"), huge, strlen(huge));
	spit(f1, huge, strlen(huge));
	assert_int_equal(render_capture(fx, &o, &msg), -ERANGE);
	snprintf(want, sizeof(want), "brnf: %s: the flows' rates add up to inf\n", f1);
	assert_string_equal(msg, want);
	free(msg);
}

static void set_repetition(struct json_object *rec, void *arg)
{
	json_object_object_add(rec, "repetition", json_object_new_int(*(int *)arg));
}

/* Within a part, one row index is one configuration and each run is there once. */
static void test_inconsistent_part(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	char *msg, want[900];
	int one = 1;

	/* 0006-download is row 0, download, repetition 2: make it repetition 1 too */
	edit_record(fx, "0006-download", set_repetition, &one);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/raw/running/runs/0006-download/record.json: "
		 "row 0, tcp, download, repetition 1 again (also in 0000-download)\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);

	one = 2;
	edit_record(fx, "0006-download", set_repetition, &one);
	edit_record(fx, "0007-upload", set_ruleset, "openwrt");
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/raw/running/runs/0007-upload/record.json: "
		 "row.index 0 is 'kernel=running global=0 local=- ruleset=openwrt' here but "
		 "'kernel=running global=0 local=- ruleset=none' in 0001-upload\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
}

/* A part left unfinished (<part>.tmp.<pid>) is named on stderr and not read. */
static void test_unfinished_part(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	char *msg, want[700];

	sh("mkdir -p '%s'", in_dir(fx, "raw/boot2.tmp.1234/runs/0000-upload"));
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	snprintf(want, sizeof(want),
		 "brnf: %s/raw/boot2.tmp.1234: ignored, an unfinished part (.tmp.<pid>)\n",
		 fx->dir);
	assert_string_equal(msg, want);
	free(msg);
	/* any other incomplete part is an error */
	sh("mv '%s' '%s'", in_dir(fx, "raw/boot2.tmp.1234"), in_dir(fx, "raw/boot2.tmp.x"));
	assert_int_equal(render_capture(fx, &o, &msg), -ENOENT);
	snprintf(want, sizeof(want), "brnf: %s/raw/boot2.tmp.x/provenance.json: No such file "
		 "or directory\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
}

static void test_no_raw(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	char *msg, want[400];

	sh("rm -rf '%s'", in_dir(fx, "raw"));
	assert_int_equal(render_capture(fx, &o, &msg), -ENOENT);
	snprintf(want, sizeof(want), "brnf: %s/raw: No such file or directory\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
}


/* ---- schema 2 (data/resdir2) -------------------------------------------------------- */

static void test2_render_golden(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	static const char *const golden[] = { "resdir2-matrix.md", "resdir2-matrix.csv",
					      "resdir2-matrix.json", "resdir2-matrix.txt" };
	char *first[4], *again, *msg;
	size_t len[4], n, i;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	assert_string_equal(msg, "");
	free(msg);
	for (i = 0; i < 4; i++)
		first[i] = slurp(in_dir(fx, outputs[i]), &len[i]);
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	for (i = 0; i < 4; i++) {
		again = slurp(in_dir(fx, outputs[i]), &n);
		assert_int_equal(n, len[i]);
		assert_memory_equal(again, first[i], n);
		free(again);
		assert_golden(golden[i], first[i], len[i]);
		free(first[i]);
	}
}

/* 95% Welch interval of the change of means @a against @b (3 units each), percent */
static void welch3(const double a[3], const double b[3], double *pct, double *half)
{
	double ma = (a[0] + a[1] + a[2]) / 3, mb = (b[0] + b[1] + b[2]) / 3, va = 0, vb = 0;
	double se2, dof;
	int i;

	for (i = 0; i < 3; i++) {
		va += (a[i] - ma) * (a[i] - ma) / 2 / 3;
		vb += (b[i] - mb) * (b[i] - mb) / 2 / 3;
	}
	se2 = va + vb;
	dof = se2 * se2 / (va * va / 2 + vb * vb / 2);
	*pct = 100 * (ma - mb) / mb;
	*half = 100 * stats_t_quantile(0.975, dof) * sqrt(se2) / mb;
}

/*
 * pps64 (make-resdir2.sh): ns/packet per boot and repetition. Row 0 download: boots
 * 6000/6010, 6020/6030, 5990/6000, boot means 6005, 6025, 5995; row 1 download: 6155,
 * 6168, 6145; row 1 upload: 6253, 6261, 6249 against 6102, 6108, 6098. The units are the
 * boots' means (3 parts x 2 runs).
 */
static void test2_values(void **state)
{
	static const double b_down[] = { 6005, 6025, 5995 }, r1_down[] = { 6155, 6168, 6145 };
	static const double b_up[] = { 6102, 6108, 6098 }, r1_up[] = { 6253, 6261, 6249 };
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top, *c;
	double pct, half, mean = (6005.0 + 6025 + 5995) / 3;
	char *msg;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_double(jget(top, "target_pct")) == 0.5);
	assert_string_equal(json_object_get_string(jget(top, "target_source")), "run.txt");
	assert_int_equal(json_object_array_length(jget(top, "workloads")), 2);
	assert_string_equal(json_object_get_string(jget(json_object_array_get_idx(
				    jget(top, "workloads"), 0), "name")), "pps64");
	assert_int_equal(json_object_get_int(jget(jget(top, "run"), "verify_passes")), 9);
	assert_int_equal(json_object_get_int(jget(jget(top, "run"), "runs")), 54);
	assert_int_equal(json_object_get_int(jget(jget(top, "run"), "counting_rules_runs")), 0);

	c = json_cell(top, 0, "pps64", "download");
	assert_string_equal(json_object_get_string(jget(c, "unit")), "ns/packet");
	assert_string_equal(json_object_get_string(jget(c, "better")), "lower");
	assert_string_equal(json_object_get_string(jget(c, "stat_unit")), "part");
	assert_int_equal(json_object_get_int(jget(c, "n")), 3);
	assert_int_equal(json_object_get_int(jget(c, "n_runs")), 6);
	assert_true(fabs(json_object_get_double(jget(c, "mean")) - mean) < 1e-9);
	assert_true(json_object_get_double(json_object_array_get_idx(jget(c, "per_part"), 1)) ==
		    6025);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    jget(c, "part_names"), 2)), "nobrnf-boot3");
	assert_int_equal(json_object_get_int(json_object_array_get_idx(jget(c, "part_runs"), 2)),
			 2);
	assert_true(json_object_get_double(json_object_array_get_idx(jget(c, "values"), 1)) ==
		    6010);
	/* the baseline's own 95% half-width: t(2) * sd / sqrt(3), in percent of the mean */
	assert_true(fabs(json_object_get_double(jget(c, "halfwidth_pct")) -
			 100 * 4.302652729749464 * sqrt(((6005 - mean) * (6005 - mean) +
							 (6025 - mean) * (6025 - mean) +
							 (5995 - mean) * (5995 - mean)) / 2) /
			 sqrt(3) / mean) < 1e-9);
	/* Mpps of one run: 50000 / elapsed_us, elapsed_us = ns * 50 */
	assert_true(fabs(json_object_get_double(jget(c, "mpps")) -
			 (1000.0 / 6000 + 1000.0 / 6010 + 1000.0 / 6020 + 1000.0 / 6030 +
			  1000.0 / 5990 + 1000.0 / 6000) / 6) < 1e-12);

	c = json_cell(top, 1, "pps64", "download");
	welch3(r1_down, b_down, &pct, &half);
	assert_true(fabs(json_object_get_double(jget(c, "change_pct")) - pct) < 1e-9);
	assert_true(fabs(json_object_get_double(jget(c, "halfwidth_pct")) - half) < 1e-9);
	assert_true(half > 0.5);	/* about 0.53: the target 0.5 is not reached */
	assert_false(json_object_get_boolean(jget(c, "reached")));
	assert_true(fabs(json_object_get_double(json_object_array_get_idx(
				 jget(c, "units_change_pct"), 0)) - 100 * (6155 - mean) / mean) <
		    1e-9);
	c = json_cell(top, 1, "pps64", "upload");
	welch3(r1_up, b_up, &pct, &half);
	assert_true(fabs(json_object_get_double(jget(c, "change_pct")) - pct) < 1e-9);
	assert_true(fabs(json_object_get_double(jget(c, "halfwidth_pct")) - half) < 1e-9);
	assert_true(half < 0.5);	/* about 0.21 */
	assert_true(json_object_get_boolean(jget(c, "reached")));
	assert_false(json_object_get_boolean(jget(c, "indistinguishable")));

	/* row 2 upload: one run received 10 packets fewer */
	c = json_cell(top, 2, "pps64", "upload");
	assert_int_equal(json_object_get_int(jget(c, "lost_runs")), 1);
	assert_int_equal(json_object_get_int64(jget(c, "sent")), 300000);
	assert_int_equal(json_object_get_int64(jget(c, "received")), 299990);
	assert_int_equal(json_object_get_int(jget(json_cell(top, 1, "pps64", "upload"),
						  "lost_runs")), 0);

	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "verified")), "n/a");
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")), "yes");
	assert_string_equal(json_object_get_string(jget(json_row(top, 2), "verified")), "yes");
	assert_int_equal(json_object_get_int(jget(json_row(top, 2), "verify_passes")), 3);
	assert_int_equal(json_object_array_length(jget(json_row(top, 2),
						       "verify_missing_parts")), 0);
	json_object_put(top);

	msg = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(msg, "## pps64: ns/packet, lower is better\n"));
	assert_non_null(strstr(msg, "| download reached ±0.5% |"));
	assert_non_null(strstr(msg, "| no (±0.53%)            |"));
	assert_non_null(strstr(msg, "6706.0 ± 28.6 ‡"));
	assert_non_null(strstr(msg, "- ‡ pps64, vanilla · global 0 · br-lan upload: 1 of 6 runs "
				    "received 299990 packets of 300000 sent (-10)\n"));
	assert_non_null(strstr(msg, "- counting rules during measured runs: none\n"));
	free(msg);
}

/* tcp-bytes: bytes received over all flows * 8 / the longest flow's time */
static void test2_tcp_bytes_value(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top, *flow, *sum;
	char *msg, *text, err[256];
	double v;
	size_t len;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	text = slurp(in_dir(fx, "raw/nobrnf-boot2/runs/0005-tcp-bytes-download/flow-0.json"),
		     &len);
	flow = json_text_parse(text, len, err, sizeof(err));
	assert_non_null(flow);
	free(text);
	sum = jget(jget(flow, "end"), "sum_received");
	v = json_object_get_double(jget(sum, "bytes")) * 8 /
	    json_object_get_double(jget(sum, "seconds")) / 1e6;
	json_object_put(flow);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_double(json_object_array_get_idx(
			    jget(json_cell(top, 0, "tcp-bytes", "download"), "values"), 1)) == v);
	json_object_put(top);

	/* a receiver that counted nothing is an error naming the flow */
	sh("sed -i 's/\"bytes\":[\t ]*[0-9]*,/\"bytes\": 0,/g' '%s'",
	   in_dir(fx, "raw/nobrnf-boot2/runs/0005-tcp-bytes-download/flow-0.json"));
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	assert_non_null(strstr(msg, "/raw/nobrnf-boot2/runs/0005-tcp-bytes-download/flow-0.json"
				    ": end.sum_received.bytes or .seconds missing or 0"));
	free(msg);
}

/*
 * A pps run in which pktgen counted transmit errors (its device refused frames, it sent
 * them again) is left out of its cell, and the notes say which and how many.
 */
static void test2_pktgen_errors_left_out(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top, *c, *v;
	char *msg;
	size_t i;

	/* vanilla, no bridge filtering, boot 2, download, repetition 1: 6170 ns/packet */
	sh("sed -i 's/\"errors\":[\t ]*0/\"errors\": 917/; s/\"elapsed_us\":[\t ]*308500/"
	   "\"elapsed_us\": 280000/' '%s'",
	   in_dir(fx, "raw/vanilla-boot2/runs/0001-pps64-download/record.json"));
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	c = json_cell(top, 1, "pps64", "download");
	assert_int_equal(json_object_get_int(jget(c, "n_runs")), 5);
	assert_int_equal(json_object_get_int(jget(c, "n")), 3);
	v = jget(c, "values");
	for (i = 0; i < json_object_array_length(v); i++)
		assert_true(json_object_get_double(json_object_array_get_idx(v, i)) > 6000);
	/* boot 2's unit is its other run alone */
	assert_true(json_object_get_double(json_object_array_get_idx(jget(c, "per_part"), 1)) ==
		    6166);
	/* the other direction and the other rows keep every run */
	assert_int_equal(json_object_get_int(jget(json_cell(top, 1, "pps64", "upload"),
						  "n_runs")), 6);
	assert_int_equal(json_object_get_int(jget(json_cell(top, 2, "pps64", "download"),
						  "n_runs")), 6);
	json_object_put(top);

	msg = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(msg, "## Runs left out\n\n- § pps64, vanilla · global 0 · no iface "
				    "download: 1 of 6 runs left out, pktgen counted 917 transmit errors in "
				    "them\n"));
	assert_non_null(strstr(msg, "§ some pps runs of the cell were left out"));
	free(msg);
	msg = slurp(in_dir(fx, "matrix.txt"), NULL);
	assert_non_null(strstr(msg, " § runs left out (pktgen errors)"));
	assert_non_null(strstr(msg, "§ pps64, vanilla · global 0 · no iface download: 1 of 6 runs "
				    "left out"));
	free(msg);
}

static void test2_target_option(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .target_pct = 0.7 };
	struct json_object *top;
	char *msg;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_double(jget(top, "target_pct")) == 0.7);
	assert_string_equal(json_object_get_string(jget(top, "target_source")), "option");
	assert_true(json_object_get_boolean(jget(json_cell(top, 1, "pps64", "download"),
						 "reached")));
	json_object_put(top);

	/* the target only for pps64: no verdict for tcp-bytes */
	spit(in_dir(fx, "run.txt"), "target_pct=0.5 target_workloads=pps64\n", 38);
	o.target_pct = 0;
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_array_length(jget(top, "target_workloads")), 1);
	assert_true(json_object_is_type(jget(json_cell(top, 1, "tcp-bytes", "download"),
					     "reached"), json_type_null));
	assert_true(json_object_is_type(jget(json_cell(top, 1, "tcp-bytes", "download"),
					     "halfwidth_pct"), json_type_double));
	assert_true(json_object_is_type(jget(json_cell(top, 1, "pps64", "download"),
					     "reached"), json_type_boolean));
	json_object_put(top);
	msg = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(msg, "\nNo target for tcp-bytes (run.txt target_workloads).\n"));
	*strstr(msg, "## How to read") = '\0';
	assert_null(strstr(strstr(msg, "## tcp-bytes"), "reached ±"));
	assert_non_null(strstr(msg, "| download reached ±0.5% |"));	/* pps64's */
	free(msg);
	msg = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(msg, "- target: 95% half-width of a change at most 0.5% (run.txt "
				    "target_pct), for pps64\n"));
	free(msg);

	/* without run.txt and without the option: the default */
	sh("rm '%s'", in_dir(fx, "run.txt"));
	o.target_pct = 0;
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_double(jget(top, "target_pct")) == 0.3);
	assert_string_equal(json_object_get_string(jget(top, "target_source")), "default");
	assert_true(json_object_get_boolean(jget(json_cell(top, 1, "pps64", "upload"),
						 "reached")));	/* 0.21 <= 0.3 */
	assert_false(json_object_get_boolean(jget(json_cell(top, 1, "pps64", "download"),
						  "reached")));	/* 0.53 */
	json_object_put(top);
}

/* A part with measured runs of a row and no verification pass of it: "missing", an
 * error with --strict. */
static void test2_missing_pass(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top, *m;
	char *msg, *md, want[700];

	sh("rm -r '%s'", in_dir(fx, "raw/vanilla-boot2/runs/0000-verify"));
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")),
			    "missing");
	m = jget(json_row(top, 1), "verify_missing_parts");
	assert_int_equal(json_object_array_length(m), 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(m, 0)),
			    "vanilla-boot2");
	assert_int_equal(json_object_get_int(jget(json_row(top, 1), "verify_passes")), 2);
	assert_string_equal(json_object_get_string(jget(json_row(top, 2), "verified")), "yes");
	json_object_put(top);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "| **missing**"));
	free(md);

	o.strict = true;
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/raw/vanilla-boot2: no verification pass of row "
		 "'kernel=vanilla global=0 local=- ruleset=none', which has measured runs "
		 "there\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
}

static void test2_verify_no_and_expected(void **state)
{
	static const char *const row2[] = {
		"vanilla-boot1/0007-verify", "vanilla-boot2/0007-verify", "vanilla-boot3/0007-verify",
	};
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg;
	size_t i;

	edit_record(fx, "vanilla-boot3/0007-verify", set_verify, "no");
	assert_int_equal(render_capture(fx, &o, &msg), RENDER_VERIFY_FAILED);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 2), "verified")), "no");
	assert_int_equal(json_object_get_int(jget(top, "verify_failed_rows")), 1);
	json_object_put(top);

	/* expect=mismatch on every record of row 2, every pass no: expected */
	for (i = 0; i < 3 * 7; i++) {
		static const char *const runs[] = {
			"0007-verify", "0008-pps64-download", "0009-pps64-upload",
			"0010-pps64-download", "0011-pps64-upload", "0012-tcp-bytes-download",
			"0013-tcp-bytes-upload",
		};
		char run[64];

		snprintf(run, sizeof(run), "vanilla-boot%zu/%s", i / 7 + 1, runs[i % 7]);
		edit_record(fx, run, set_expect, "mismatch");
	}
	for (i = 0; i < 3; i++)
		edit_record(fx, row2[i], set_verify, "no");
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 2), "verified")),
			    "no (expected)");
	assert_string_equal(json_object_get_string(jget(json_row(top, 2), "expect")),
			    "mismatch");
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")), "yes");
	json_object_put(top);
	edit_record(fx, "vanilla-boot2/0007-verify", set_verify, "yes");
	render_verified(fx, RENDER_VERIFY_FAILED, 2, "yes (expected no)");
}

static void test2_pass_readback(void **state)
{
	struct fixture *fx = *state;

	edit_record(fx, "vanilla-boot1/0007-verify", set_readback_global, NULL);
	render_verified(fx, RENDER_VERIFY_FAILED, 2, "no (readback)");
}

static void test2_inconsistent(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	char *msg, want[900];

	/* a directory name that does not match its record */
	sh("cd '%s/raw/nobrnf-boot1/runs' && mv 0001-pps64-download 0001-pps1514-download",
	   fx->dir);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/raw/nobrnf-boot1/runs/0001-pps1514-download/"
		 "record.json: the run directory is '0001-pps1514-download', the record says "
		 "'0001-pps64-download' (order, workload, direction)\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
	sh("cd '%s/raw/nobrnf-boot1/runs' && mv 0001-pps1514-download 0001-pps64-download",
	   fx->dir);

	/* the same run twice (another order) */
	sh("cd '%s/raw/nobrnf-boot1/runs' && cp -R 0001-pps64-download 0099-pps64-download && "
	   "sed -i 's/\"order\": 1,/\"order\": 99,/' 0099-pps64-download/record.json",
	   fx->dir);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/raw/nobrnf-boot1/runs/0099-pps64-download/"
		 "record.json: row 0, pps64, download, repetition 1 again (also in "
		 "0001-pps64-download)\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
	sh("rm -r '%s/raw/nobrnf-boot1/runs/0099-pps64-download'", fx->dir);

	/* a verification pass whose row index names another configuration */
	sh("sed -i 's/\"local\": \\[\\]/\"local\": [\"br-wlan\"]/' "
	   "'%s/raw/nobrnf-boot1/runs/0000-verify/record.json'", fx->dir);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	assert_non_null(strstr(msg, "/raw/nobrnf-boot1/runs/0000-verify/record.json: row.index 0 "
				    "is 'kernel=nobrnf global=0 local=br-wlan ruleset=none' here but "
				    "'kernel=nobrnf global=0 local=- ruleset=none' in "));
	free(msg);

	/* a verification pass of a row without measured runs */
	sh("sed -i 's/\"index\": 0,/\"index\": 5,/' "
	   "'%s/raw/nobrnf-boot1/runs/0000-verify/record.json'", fx->dir);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/raw/nobrnf-boot1/runs/0000-verify/record.json: a "
		 "verification pass of 'kernel=nobrnf global=0 local=br-wlan ruleset=none', a "
		 "row without measured runs\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
}

static void test2_bad_run_txt(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	char *msg, want[700];

	spit(in_dir(fx, "run.txt"), "series=6.12\ntarget_pct=0.3%\n", 28);
	assert_int_equal(render_capture(fx, &o, &msg), -EINVAL);
	snprintf(want, sizeof(want), "brnf: %s/run.txt:2: target_pct '0.3%%' is not a number "
		 "above 0 and at most 100\n", fx->dir);
	assert_string_equal(msg, want);
	free(msg);
	assert_int_equal(access(in_dir(fx, "matrix.md"), F_OK), -1);
}

/* a part of one run per cell (a netns run): the runs are the units, n=1 has no interval */
static void test2_one_run(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top, *c;
	char *msg, *md;

	sh("cd '%s/raw' && rm -r nobrnf-boot2 nobrnf-boot3 vanilla-boot2 vanilla-boot3 && "
	   "rm -r */runs/0003-* */runs/0004-* */runs/0010-* */runs/0011-*", fx->dir);
	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	c = json_cell(top, 1, "pps64", "download");
	assert_string_equal(json_object_get_string(jget(c, "stat_unit")), "run");
	assert_int_equal(json_object_get_int(jget(c, "n")), 1);
	assert_true(json_object_is_type(jget(c, "halfwidth_pct"), json_type_null));
	assert_false(json_object_get_boolean(jget(c, "reached")));
	assert_true(json_object_is_type(jget(c, "change_low_pct"), json_type_null));
	assert_true(fabs(json_object_get_double(jget(c, "change_pct")) -
			 100.0 * (6150 - 6000) / 6000) < 1e-9);
	json_object_put(top);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "| +2.5% (n=1)"));
	assert_non_null(strstr(md, "| no (n=1) "));
	assert_non_null(strstr(md, "|        1 × 1 |"));
	free(md);
}

/* The verdict of resdir2: pps64 4 changes beyond their intervals, all worse (more ns
 * per packet), tcp-bytes' 4 within; the largest vanilla br-lan's pps64 download. */
static void test2_verdict(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .print = true };
	char *out, *last;
	int ret;

	out = render_stdout(fx, &o, &ret);
	assert_int_equal(ret, 0);
	last = strstr(out, "\nverdict: ");
	assert_non_null(last);
	assert_string_equal(last + 1, "verdict: 4 of 8 changes against nobrnf · global 0 · no iface "
			    "lie beyond their 95% intervals (4 worse, 0 better), the largest "
			    "vanilla · global 0 · br-lan pps64 download +10.2% [+9.4, +10.9]; "
			    "no row's filtering verification said no\n");
	free(out);
}

/* --json: the summary alone on stdout, valid JSON, the same counts as the line */
static void test2_json_summary(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .json = true };
	struct json_object *top, *v, *big, *chg;
	char *out, err[256];
	int ret;

	out = render_stdout(fx, &o, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(out[0], '{');
	top = json_text_parse(out, strlen(out), err, sizeof(err));
	if (!top)
		fail_msg("stdout: %s", err);
	assert_string_equal(json_object_get_string(jget(top, "baseline")),
			    "kernel=nobrnf global=0 local=- ruleset=none");
	assert_string_equal(json_object_get_string(jget(top, "dir")), fx->dir);
	v = jget(top, "verdict");
	assert_int_equal(json_object_get_int(jget(v, "changes")), 8);
	assert_int_equal(json_object_get_int(jget(v, "worse")), 4);
	assert_int_equal(json_object_get_int(jget(v, "better")), 0);
	assert_int_equal(json_object_get_int(jget(v, "indistinguishable")), 4);
	assert_int_equal(json_object_get_int(jget(v, "no_interval")), 0);
	assert_true(!strncmp(json_object_get_string(jget(v, "text")), "verdict: 4 of 8 ",
			     strlen("verdict: 4 of 8 ")));
	big = jget(v, "largest");
	assert_string_equal(json_object_get_string(jget(big, "row")),
			    "kernel=vanilla global=0 local=br-lan ruleset=none");
	assert_string_equal(json_object_get_string(jget(big, "workload")), "pps64");
	assert_string_equal(json_object_get_string(jget(big, "direction")), "download");
	assert_true(fabs(json_object_get_double(jget(big, "change_pct")) -
			 100.0 * (6620 - 6008.333333333333) / 6008.333333333333) < 1e-6);
	chg = jget(top, "changes");
	assert_int_equal(json_object_array_length(chg), 8);
	json_object_put(top);
	free(out);
}

/* every record.json of part @part through @fn */
static void edit_part(struct fixture *fx, const char *part,
		      void (*fn)(struct json_object *rec, void *arg), void *arg)
{
	char rel[300], run[400];
	struct dirent *de;
	DIR *d;

	snprintf(rel, sizeof(rel), "raw/%s/runs", part);
	d = opendir(in_dir(fx, rel));
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(run, sizeof(run), "%s/%s", part, de->d_name);
		edit_record(fx, run, fn, arg);
	}
	closedir(d);
}

/* path=wlan on the records of row.index *arg (-1: every record); pps64 runs of rows
 * with index 0 made 10% slower, so that their numbers differ from the routed copy's */
static void set_path_wlan(struct json_object *rec, void *arg)
{
	struct json_object *row = jget(rec, "row"), *pg;
	int idx = json_object_get_int(jget(row, "index"));

	if (*(int *)arg >= 0 && idx != *(int *)arg)
		return;
	json_object_object_add(row, "path", json_object_new_string("wlan"));
	if (idx == 0 && json_object_object_get_ex(rec, "pktgen", &pg))
		json_object_object_add(pg, "elapsed_us", json_object_new_int64(
			json_object_get_int64(jget(pg, "elapsed_us")) / 10 * 11));
}

/*
 * Rows of another path are compared with their path's baseline, never with a routed
 * row: nobrnf's parts copied as path=wlan ones (the same index 0, another row: its key
 * says path=wlan), and vanilla's row 2 (br-lan) on path wlan. Rows in order: 0 nobrnf,
 * 1 nobrnf path=wlan, 2 vanilla, 3 vanilla br-lan path=wlan.
 */
static void test2_path_baselines(void **state)
{
	static const double b_down[] = { 6005, 6025, 5995 }, r1_down[] = { 6155, 6168, 6145 };
	static const double bw_down[] = { 6005 * 1.1, 6025 * 1.1, 5995 * 1.1 };
	static const double r2_down[] = { 6610, 6605, 6645 };
	struct fixture *fx = *state;
	struct render_opts o = { .print = true }, j = { .json = true };
	struct json_object *top, *pb;
	int all = -1, two = 2, boot, ret;
	char part[64], *md, *out, *last;
	double pct, half;

	for (boot = 1; boot <= 3; boot++) {
		snprintf(part, sizeof(part), "nobrnfw-boot%d", boot);
		sh("cp -R '%s/raw/nobrnf-boot%d' '%s/raw/%s'", fx->dir, boot, fx->dir, part);
		edit_part(fx, part, set_path_wlan, &all);
		snprintf(part, sizeof(part), "vanilla-boot%d", boot);
		edit_part(fx, part, set_path_wlan, &two);
	}
	out = render_stdout(fx, &o, &ret);
	assert_int_equal(ret, 0);
	last = strstr(out, "\nverdict: ");
	assert_non_null(last);
	/* 2 rows with a change x 2 workloads x 2 directions */
	assert_non_null(strstr(last, "verdict: 2 of 8 changes against nobrnf · global 0 · "
			       "no iface and nobrnf · global 0 · no iface · path wlan lie "
			       "beyond"));
	free(out);

	top = load_json(in_dir(fx, "matrix.json"));
	assert_int_equal(json_object_array_length(jget(top, "rows")), 4);
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "key")),
			    "kernel=nobrnf global=0 local=- ruleset=none path=wlan");
	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "path")), "routed");
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "path")), "wlan");
	assert_string_equal(json_object_get_string(jget(json_row(top, 3), "path")), "wlan");
	assert_true(json_object_get_boolean(jget(json_row(top, 0), "baseline")));
	assert_true(json_object_get_boolean(jget(json_row(top, 1), "baseline")));
	assert_false(json_object_get_boolean(jget(json_row(top, 2), "baseline")));
	assert_false(json_object_get_boolean(jget(json_row(top, 3), "baseline")));
	pb = jget(top, "path_baselines");
	assert_string_equal(json_object_get_string(jget(pb, "routed")),
			    "kernel=nobrnf global=0 local=- ruleset=none");
	assert_string_equal(json_object_get_string(jget(pb, "wlan")),
			    "kernel=nobrnf global=0 local=- ruleset=none path=wlan");
	/* a baseline has no change; a routed row against the routed baseline, as before */
	assert_null(jget(json_cell(top, 1, "pps64", "download"), "change_pct"));
	welch3(r1_down, b_down, &pct, &half);
	assert_true(fabs(cell_num(top, 2, "pps64", "download", "change_pct") - pct) < 1e-9);
	/* the path=wlan row against the path=wlan baseline, not the first row */
	welch3(r2_down, bw_down, &pct, &half);
	assert_true(fabs(cell_num(top, 3, "pps64", "download", "change_pct") - pct) < 1e-9);
	assert_true(fabs(cell_num(top, 3, "pps64", "download", "halfwidth_pct") - half) < 1e-9);
	json_object_put(top);

	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "| path "));
	assert_non_null(strstr(md, "against the baseline row of its path "
				   "(`kernel=nobrnf global=0 local=- ruleset=none`; "
				   "`kernel=nobrnf global=0 local=- ruleset=none path=wlan`)"));
	free(md);
	md = slurp(in_dir(fx, "matrix.csv"), NULL);
	assert_non_null(strstr(md, ",path,"));
	free(md);

	out = render_stdout(fx, &j, &ret);
	assert_int_equal(ret, 0);
	top = json_text_parse(out, strlen(out), part, sizeof(part));
	assert_non_null(top);
	assert_string_equal(json_object_get_string(jget(jget(top, "path_baselines"), "wlan")),
			    "kernel=nobrnf global=0 local=- ruleset=none path=wlan");
	json_object_put(top);
	free(out);

	/* --baseline KERNEL: its first row, and on path wlan the first row of that kernel */
	o = (struct render_opts){ .baseline = "vanilla" };
	assert_int_equal(render_capture(fx, &o, &out), 0);
	free(out);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_true(json_object_get_boolean(jget(json_row(top, 2), "baseline")));
	assert_true(json_object_get_boolean(jget(json_row(top, 3), "baseline")));
	assert_false(json_object_get_boolean(jget(json_row(top, 1), "baseline")));
	welch3(bw_down, r2_down, &pct, &half);
	assert_true(fabs(cell_num(top, 1, "pps64", "download", "change_pct") - pct) < 1e-9);
	json_object_put(top);
}

/* Without a row of another path nothing shows a path: no column, no key */
static void test2_no_path_column(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg;

	assert_int_equal(render_capture(fx, &o, &msg), 0);
	free(msg);
	msg = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_null(strstr(msg, "| path"));
	free(msg);
	msg = slurp(in_dir(fx, "matrix.csv"), NULL);
	assert_null(strstr(msg, ",path,"));
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_false(json_object_object_get_ex(top, "path_baselines", NULL));
	assert_false(json_object_object_get_ex(json_row(top, 0), "path", NULL));
	json_object_put(top);
}

/* One run per cell: no interval, so nothing is judged, and JSON says null */
static void test2_verdict_one_run(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .print = true }, j = { .json = true };
	struct json_object *top, *c;
	char *out, err[256];
	int ret;

	sh("cd '%s/raw' && rm -r nobrnf-boot2 nobrnf-boot3 vanilla-boot2 vanilla-boot3 && "
	   "rm -r */runs/0003-* */runs/0004-* */runs/0010-* */runs/0011-*", fx->dir);
	out = render_stdout(fx, &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "\nverdict: 0 of 8 changes against nobrnf · global 0 · no "
			       "iface lie beyond their 95% intervals (0 worse, 0 better); 8 "
			       "without an interval (one unit); no row's"));
	free(out);
	out = render_stdout(fx, &j, &ret);
	assert_int_equal(ret, 0);
	top = json_text_parse(out, strlen(out), err, sizeof(err));
	if (!top)
		fail_msg("stdout: %s", err);
	assert_true(json_object_is_type(jget(jget(top, "verdict"), "largest"), json_type_null));
	c = json_object_array_get_idx(jget(top, "changes"), 0);
	assert_true(json_object_is_type(jget(c, "change_low_pct"), json_type_null));
	assert_true(json_object_is_type(jget(c, "indistinguishable"), json_type_null));
	json_object_put(top);
	free(out);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
#define T2(fn) cmocka_unit_test_setup_teardown(fn, setup2, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_render_and_rerender_identical),
		T(test_values_from_raw),
		T(test_verify_no),
		T(test_verify_expected_mismatch),
		T(test_verify_na_and_partial),
		T(test_readback_mismatch),
		T(test_bad_record),
		T(test_missing_flow),
		T(test_failed_flow),
		T(test_baseline_option),
		T(test_row_order_by_index),
		T(test_two_parts),
		T(test_ruleset_column),
		T(test_qemu_part),
		T(test_print),
		T(test_rate_overflow),
		T(test_inconsistent_part),
		T(test_unfinished_part),
		T(test_no_raw),
		T2(test2_render_golden),
		T2(test2_values),
		T2(test2_pktgen_errors_left_out),
		T2(test2_tcp_bytes_value),
		T2(test2_target_option),
		T2(test2_missing_pass),
		T2(test2_verify_no_and_expected),
		T2(test2_pass_readback),
		T2(test2_inconsistent),
		T2(test2_bad_run_txt),
		T2(test2_one_run),
		T2(test2_verdict),
		T2(test2_json_summary),
		T2(test2_verdict_one_run),
		T2(test2_path_baselines),
		T2(test2_no_path_column),
	};

	unit_init();
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
