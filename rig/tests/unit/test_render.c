// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of render_dir() (rig/src/render.c, raw.c) on a small handmade results
 * directory, data/resdir: 3 rows x 2 directions x 2 repetitions, one flow per run, the
 * flow files real `iperf3 -J` outputs made on loopback.
 */
#include <dirent.h>
#include <math.h>

#include <json-c/json.h>

#include "unit.h"

#include "iperf_json.h"
#include "render.h"

static const char *const outputs[] = { "matrix.md", "matrix.csv", "matrix.json",
				       "matrix.txt" };

struct fixture {
	char dir[256];
	char errfile[300];
	int saved_stderr;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/brnf-render.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->errfile, sizeof(fx->errfile), "%s.stderr", fx->dir);
	sh("cp -R '%s/.' '%s/'", data_path("resdir"), fx->dir);
	*state = fx;
	return 0;
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

/* change one record.json through json-c */
static void edit_record(struct fixture *fx, const char *run,
			void (*fn)(struct json_object *rec, void *arg), void *arg)
{
	char rel[300];
	struct json_object *rec;
	const char *path;

	snprintf(rel, sizeof(rel), "raw/running/runs/%s/record.json", run);
	path = in_dir(fx, rel);
	rec = load_json(path);
	fn(rec, arg);
	assert_int_equal(json_object_to_file_ext(path, rec, JSON_C_TO_STRING_PRETTY), 0);
	json_object_put(rec);
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
	assert_int_equal(json_object_array_length(jget(top, "rows")), 3);
	assert_int_equal(json_object_array_length(jget(top, "cells")), 6);
	assert_string_equal(json_object_get_string(jget(top, "baseline")),
			    "kernel=running global=0 local=- ruleset=none");
	r = json_row(top, 0);
	assert_true(json_object_get_boolean(jget(r, "baseline")));
	/* row 0 download: runs 0000-download and 0006-download */
	a = flow_mbps(fx, "0000-download");
	b = flow_mbps(fx, "0006-download");
	mean = (a + b) / 2;
	sd = fabs(a - b) / sqrt(2);
	assert_int_equal(json_object_get_int(jget(r, "download_n")), 2);
	assert_true(fabs(json_object_get_double(jget(r, "download_mean_mbps")) - mean) <
		    1e-9 * mean);
	assert_true(fabs(json_object_get_double(jget(r, "download_sd_mbps")) - sd) < 1e-9 * mean);
	assert_true(fabs(json_object_get_double(jget(r, "download_ci95_mbps")) -
			 12.706204736174705 * sd / sqrt(2)) < 1e-6 * mean);
	assert_true(json_object_get_double(jget(r, "download_min_mbps")) == fmin(a, b));
	assert_true(json_object_get_double(jget(r, "download_max_mbps")) == fmax(a, b));
	assert_true(json_object_is_type(jget(r, "download_change_pct"), json_type_null));
	r = json_row(top, 1);
	assert_string_equal(json_object_get_string(jget(r, "local")), "br-lan");
	assert_false(json_object_get_boolean(jget(r, "baseline")));
	assert_true(json_object_is_type(jget(r, "download_change_pct"), json_type_double));
	assert_string_equal(json_object_get_string(jget(r, "verified")), "yes");
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

	edit_record(fx, "0008-download", set_verify, "no");	/* row 1, repetition 2 */
	assert_int_equal(render_capture(fx, &o, &msg), RENDER_VERIFY_FAILED);
	free(msg);
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
	assert_int_equal(render_capture(fx, &o, &msg), RENDER_VERIFY_FAILED);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "verified")),
			    "yes (expected no)");
	json_object_put(top);
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
	struct render_opts o = { 0 };
	struct json_object *top;
	char *msg;

	edit_record(fx, "0001-upload", set_readback_global, NULL);
	assert_int_equal(render_capture(fx, &o, &msg), RENDER_VERIFY_FAILED);
	free(msg);
	top = load_json(in_dir(fx, "matrix.json"));
	assert_string_equal(json_object_get_string(jget(json_row(top, 0), "verified")),
			    "no (readback)");
	json_object_put(top);
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
	assert_true(json_object_is_type(jget(json_row(top, 0), "upload_change_pct"),
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
	assert_int_equal(json_object_get_int(jget(json_row(top, 0), "download_n")), 1);
	assert_int_equal(json_object_get_int(jget(json_row(top, 0), "upload_n")), 0);
	assert_string_equal(json_object_get_string(jget(json_row(top, 1), "ruleset")), "none");
	assert_int_equal(json_object_get_int(jget(json_row(top, 1), "download_n")), 2);
	assert_string_equal(json_object_get_string(jget(json_row(top, 3), "ruleset")),
			    "openwrt-flowtable");
	assert_int_equal(json_object_get_int(jget(json_row(top, 3), "upload_n")), 4);
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
	assert_int_equal(json_object_get_int(jget(json_row(top, 0), "download_n")), 4);
	assert_int_equal(json_object_array_length(jget(top, "parts")), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    jget(top, "parts"), 0) ? jget(json_object_array_get_idx(
				    jget(top, "parts"), 0), "name") : NULL), "boot2");
	json_object_put(top);
	md = slurp(in_dir(fx, "matrix.md"), NULL);
	assert_non_null(strstr(md, "- runs per cell (repetitions, over all parts): 4 (24 runs in 2 parts)"));
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

/* print: the text table on stdout is matrix.txt */
static void test_print(void **state)
{
	struct fixture *fx = *state;
	struct render_opts o = { .print = true };
	char out[300], *got, *txt;
	int fd, saved;

	snprintf(out, sizeof(out), "%s.stdout", fx->dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, 1);
	close(fd);
	fx->saved_stderr = render_dir(fx->dir, &o);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(fx->saved_stderr, 0);
	got = slurp(out, NULL);
	unlink(out);
	txt = slurp(in_dir(fx, "matrix.txt"), NULL);
	assert_true(strlen(txt) > 100);
	assert_string_equal(got, txt);
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
		 "row 0, download, repetition 1 again (also in 0000-download)\n", fx->dir);
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

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

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
	};

	unit_init();
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
