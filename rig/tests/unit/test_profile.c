// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the instruction profiles' parser and their attribution to rows
 * (rig/src/data/profile.c). */
#include <math.h>

#include "unit.h"

#include "profile.h"

#define HDR "brnf-insn-profile 1\nsymbols 4 /tmp/syms\nmarkers pktgen_run pktgen_stop_device\n"

static void parse_ok(const char *text, struct prof_file *pf)
{
	char err[512] = "";

	if (prof_parse("p.txt", text, strlen(text), pf, err, sizeof(err)))
		fail_msg("prof_parse: %s", err);
}

static void parse_err(const char *text, const char *want)
{
	struct prof_file pf;
	char err[512] = "";

	assert_int_equal(prof_parse("p.txt", text, strlen(text), &pf, err, sizeof(err)),
			 -EINVAL);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
	assert_null(pf.w);
}

static void test_parse(void **state)
{
	struct prof_file pf;

	(void)state;
	parse_ok(HDR
		 "window 1 100\n60 b_fn\n25 a_fn\n10 b_fn\n5 [user]\nend 1\n"
		 "window 2 7\n7 a_fn\nend 2\n"
		 "summary windows 2 restarts 1 stray_ends 3 open_at_exit 0\n", &pf);
	assert_int_equal(pf.nsyms, 4);
	assert_string_equal(pf.start, "pktgen_run");
	assert_string_equal(pf.end, "pktgen_stop_device");
	assert_int_equal(pf.nw, 2);
	assert_int_equal(pf.w[0].total, 100);
	assert_int_equal(pf.w[0].line, 4);
	/* sorted by name, b_fn's two lines (two local symbols of one name) added */
	assert_int_equal(pf.w[0].ne, 3);
	assert_string_equal(pf.w[0].e[0].name, "[user]");
	assert_string_equal(pf.w[0].e[1].name, "a_fn");
	assert_string_equal(pf.w[0].e[2].name, "b_fn");
	assert_int_equal(pf.w[0].e[2].count, 70);
	assert_int_equal(pf.w[1].e[0].count, 7);
	assert_int_equal(pf.restarts, 1);
	assert_int_equal(pf.stray_ends, 3);
	prof_free(&pf);
	/* a window without instructions (the firmware-only run of t_profile_plugin.sh) */
	parse_ok(HDR "window 1 0\nend 1\n"
		 "summary windows 1 restarts 0 stray_ends 0 open_at_exit 0\n", &pf);
	assert_int_equal(pf.nw, 1);
	assert_int_equal(pf.w[0].ne, 0);
	prof_free(&pf);
	/* no window at all is a profile too */
	parse_ok(HDR "summary windows 0 restarts 0 stray_ends 0 open_at_exit 1\n", &pf);
	assert_int_equal(pf.nw, 0);
	assert_int_equal(pf.open_at_exit, 1);
	prof_free(&pf);
}

static void test_parse_errors(void **state)
{
	static const char sum[] = "summary windows 1 restarts 0 stray_ends 0 open_at_exit 0\n";
	char buf[1024];

	(void)state;
	parse_err("brnf-insn-profile 2\n", "p.txt:1: not \"brnf-insn-profile 1\"");
	parse_err("brnf-insn-profile 1\nsymbols x /p\n", "p.txt:2: want \"symbols NSYMS PATH\"");
	parse_err("brnf-insn-profile 1\nsymbols 3 /p\nmarkers a\n",
		  "p.txt:3: want \"markers START END\"");
	parse_err("brnf-insn-profile 1\nsymbols 3 /p\n", "p.txt:2: the header ends early");
	snprintf(buf, sizeof(buf), HDR "window 1 11\n10 a\nend 1\n%s", sum);
	parse_err(buf, "p.txt:4: window 1 says 11 instructions, its symbols add up to 10");
	snprintf(buf, sizeof(buf), HDR "window 2 10\n10 a\nend 2\n%s", sum);
	parse_err(buf, "p.txt:4: window 2 after window 0");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n10a\nend 1\n%s", sum);
	parse_err(buf, "p.txt:5: want \"COUNT NAME\"");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n-10 a\nend 1\n%s", sum);
	parse_err(buf, "p.txt:5: want \"COUNT NAME\"");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n10 a b\nend 1\n%s", sum);
	parse_err(buf, "p.txt:5: want \"COUNT NAME\"");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n0 a\n10 b\nend 1\n%s", sum);
	parse_err(buf, "p.txt:5: a count of 0");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n10 a\nend 2\n%s", sum);
	parse_err(buf, "p.txt:6: \"end 2\" in window 1");
	parse_err(HDR "window 1 10\n10 a\n", "p.txt:5: window 1 has no end");
	parse_err(HDR "window 1 10\n10 a\nend 1\n", "p.txt:6: no summary line");
	parse_err(HDR "window 1 10\n10 a\nend 1\nsummary windows 1 restarts 0 stray_ends 0 "
		  "open_at_exit 0", "p.txt:7: the last line has no newline");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n10 a\nend 1\n%sx\n", sum);
	parse_err(buf, "p.txt:8: a line after the summary");
	parse_err(HDR "summary windows 1 restarts 0 stray_ends 0 open_at_exit 0\n",
		  "p.txt:4: the summary says 1 windows, the file has 0");
	parse_err(HDR "hello\n", "p.txt:4: want \"window N TOTAL\" or \"summary");
	parse_err(HDR "window 1 99999999999999999999999\n", "p.txt:4: want \"window N TOTAL\"");
}

/*
 * Two boots: the baseline kernel (row 0) and another (row 1), pps64 download, two
 * test beds each; a boot's value is its best run. The windows' totals equal pktgen's
 * time, so the symbols' differences must add up to the measured change exactly.
 */
struct fixture {
	struct raw_part parts[2];
	struct raw_run runs[5];
	struct raw_set s;
	struct prof_file pf[2];
	struct prof_file *files[2];
	const char *names[2];
};

static void add_run(struct fixture *fx, size_t i, size_t part, unsigned int row,
		    const char *key, unsigned int order, unsigned long long us,
		    unsigned long long sent)
{
	struct raw_run *r = &fx->runs[i];

	memset(r, 0, sizeof(*r));
	r->part = part;
	r->schema = 2;
	r->kind = RAW_MEASURE;
	r->row_index = row;
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->name, sizeof(r->name), "%04u-pps64-download", order);
	r->order = order;
	r->workload = WL_PPS64;
	r->dir = RAW_DOWNLOAD;
	r->repetition = order + 1;
	r->pktgen.sent = r->pktgen.count = sent;
	r->pktgen.elapsed_us = us;
	r->value = us * 1000.0 / sent;
}

static void fixture_init(struct fixture *fx, const char *p0, const char *p1)
{
	memset(fx, 0, sizeof(*fx));
	snprintf(fx->parts[0].name, sizeof(fx->parts[0].name), "base-boot1");
	snprintf(fx->parts[1].name, sizeof(fx->parts[1].name), "row-boot1");
	/* base: 1000 packets in 100 us (100 ns each), then in 110 us */
	add_run(fx, 0, 0, 0, "base", 0, 100, 1000);
	add_run(fx, 1, 0, 0, "base", 1, 110, 1000);
	/* row: 120 us, then its best 105 us; a tcp run between them is not a pps run */
	add_run(fx, 2, 1, 1, "row", 0, 120, 1000);
	add_run(fx, 3, 1, 1, "row", 1, 0, 0);
	fx->runs[3].workload = WL_TCP_BYTES;
	add_run(fx, 4, 1, 1, "row", 2, 105, 1000);
	fx->s.parts = fx->parts;
	fx->s.nparts = 2;
	fx->s.runs = fx->runs;
	fx->s.nruns = 5;
	parse_ok(p0, &fx->pf[0]);
	parse_ok(p1, &fx->pf[1]);
	fx->files[0] = &fx->pf[0];
	fx->files[1] = &fx->pf[1];
	fx->names[0] = "base.txt";
	fx->names[1] = "row.txt";
}

static void fixture_free(struct fixture *fx)
{
	prof_free(&fx->pf[0]);
	prof_free(&fx->pf[1]);
}

static const char base_prof[] = HDR
	"window 1 100000\n60000 ip_forward\n40000 br_handle_frame\nend 1\n"
	"window 2 110000\n65000 ip_forward\n45000 br_handle_frame\nend 2\n"
	"summary windows 2 restarts 0 stray_ends 0 open_at_exit 0\n";
/* a priming window (small) first, then the two runs */
static const char row_prof[] = HDR
	"window 1 900\n900 ip_forward\nend 1\n"
	"window 2 120000\n61000 ip_forward\n40000 br_handle_frame\n19000 br_nf_pre_routing\n"
	"end 2\n"
	"window 3 105000\n60000 ip_forward\n40000 br_handle_frame\n5000 br_nf_pre_routing\n"
	"end 3\n"
	"summary windows 3 restarts 0 stray_ends 0 open_at_exit 0\n";

static const struct prof_sym *sym(const struct prof_cell *c, const char *name)
{
	size_t k;

	for (k = 0; k < c->ns; k++)
		if (!strcmp(c->s[k].name, name))
			return &c->s[k];
	fail_msg("no symbol %s in cell %s", name, c->key);
	return NULL;
}

static void test_attribute_best(void **state)
{
	struct prof_opts o = { .tolerance = 0.01, .part_best = true };
	struct prof_result res;
	struct fixture fx;
	const struct prof_cell *c;
	char err[512] = "";
	double sum = 0;
	size_t k;

	(void)state;
	fixture_init(&fx, base_prof, row_prof);
	if (prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err, sizeof(err)))
		fail_msg("prof_attribute: %s", err);
	assert_int_equal(res.nmatched, 4);
	assert_int_equal(res.nskipped, 1);
	assert_int_equal(res.nc, 2);
	assert_true(res.c[0].is_base);
	assert_string_equal(res.c[0].key, "base");
	c = &res.c[1];
	assert_string_equal(c->key, "row");
	assert_string_equal(c->base_key, "base");
	/* best runs: base's 100 ns/packet, row's 105 */
	assert_true(c->measured == 105.0);
	assert_true(c->base_measured == 100.0);
	assert_true(sym(c, "ip_forward")->row == 60.0);
	assert_true(sym(c, "ip_forward")->base == 60.0);
	assert_true(sym(c, "br_nf_pre_routing")->row == 5.0);
	assert_true(sym(c, "br_nf_pre_routing")->base == 0.0);
	assert_true(sym(c, "br_nf_pre_routing")->diff == 5.0);
	/* the largest difference first */
	assert_string_equal(c->s[0].name, "br_nf_pre_routing");
	for (k = 0; k < c->ns; k++)
		sum += c->s[k].diff;
	assert_true(fabs(sum - (c->measured - c->base_measured)) < 1e-9);
	assert_true(fabs(c->profiled - 105.0) < 1e-9);
	/* no run has pktgen's busy time: no floor, no bound */
	assert_true(isnan(c->floor) && isnan(c->base_floor) && isnan(c->bound));
	assert_true(res.max_mark_dev == 0);
	prof_result_free(&res);
	fixture_free(&fx);
}

static void test_attribute_mean(void **state)
{
	struct prof_opts o = { .tolerance = 0.01, .part_best = false };
	struct prof_result res;
	struct fixture fx;
	char err[512] = "";

	(void)state;
	fixture_init(&fx, base_prof, row_prof);
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), 0);
	/* the mean of a boot's runs: base (100 + 110) / 2, row (120 + 105) / 2 */
	assert_true(fabs(res.c[1].measured - 112.5) < 1e-9);
	assert_true(fabs(res.c[1].base_measured - 105.0) < 1e-9);
	assert_true(fabs(sym(&res.c[1], "br_nf_pre_routing")->row - 12.0) < 1e-9);
	assert_true(fabs(sym(&res.c[1], "ip_forward")->diff - (60.5 - 62.5)) < 1e-9);
	prof_result_free(&res);
	fixture_free(&fx);
}

/* A row of another path is not compared with the first row: the baseline is the first
 * row of its own path (here the row itself). */
static void test_attribute_path(void **state)
{
	struct prof_opts o = { .tolerance = 0.01, .part_best = true };
	struct prof_result res;
	struct fixture fx;
	char err[512] = "";
	size_t i;

	(void)state;
	fixture_init(&fx, base_prof, row_prof);
	for (i = 2; i < 5; i++)
		fx.runs[i].row.path = BRNF_PATH_WLAN;
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), 0);
	assert_int_equal(res.nc, 2);
	assert_true(res.c[0].is_base);
	assert_string_equal(res.c[1].key, "row");
	assert_true(res.c[1].is_base);
	assert_string_equal(res.c[1].base_key, "row");
	prof_result_free(&res);
	fixture_free(&fx);
}

/* A pair compares two rows beside each row's comparison with the baseline: here the
 * baseline against the row, so every difference is the row's with its sign turned. A
 * pair naming a row without profiled runs, or a row against itself, is an error
 * naming the pair. */
static void test_attribute_pairs(void **state)
{
	const struct prof_pair ok_pairs[] = { { "base", "row", NULL } };
	const struct prof_pair bad_pairs[] = { { "base", "row", NULL },
					       { "row", "nothing", NULL } };
	const struct prof_pair self_pair[] = { { "row", "row", NULL } };
	const struct prof_pair named_pair[] = { { "row", "nothing", "p.pairs:3" } };
	struct prof_opts o = { .tolerance = 0.01, .part_best = true, .pairs = ok_pairs,
			       .npairs = 1 };
	struct prof_result res;
	struct fixture fx;
	const struct prof_cell *c;
	char err[512] = "";

	(void)state;
	fixture_init(&fx, base_prof, row_prof);
	if (prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err, sizeof(err)))
		fail_msg("prof_attribute: %s", err);
	assert_int_equal(res.nc, 3);
	/* by row: the baseline's own cell, then the baseline against the row */
	assert_true(res.c[0].is_base);
	assert_string_equal(res.c[0].key, "base");
	c = &res.c[1];
	assert_false(c->is_base);
	assert_string_equal(c->key, "base");
	assert_string_equal(c->base_key, "row");
	assert_true(c->measured == 100.0);
	assert_true(c->base_measured == 105.0);
	assert_true(sym(c, "br_nf_pre_routing")->diff == -5.0);
	assert_string_equal(res.c[2].key, "row");
	assert_string_equal(res.c[2].base_key, "base");
	prof_result_free(&res);

	o.pairs = bad_pairs;
	o.npairs = 2;
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "pair 2: no workload and direction with profiled runs of both "
		    "'row' and 'nothing'"))
		fail_msg("unexpected error: %s", err);
	o.pairs = self_pair;
	o.npairs = 1;
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "pair 1: a row against itself (row)"))
		fail_msg("unexpected error: %s", err);
	/* a pair that says where it came from is named so */
	o.pairs = named_pair;
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "p.pairs:3: no workload and direction with profiled runs of both "
		    "'row' and 'nothing'"))
		fail_msg("unexpected error: %s", err);
	fixture_free(&fx);
}

static void test_attribute_errors(void **state)
{
	struct prof_opts o = { .tolerance = 0.01, .part_best = true };
	struct prof_result res;
	struct fixture fx;
	char err[512] = "";

	(void)state;
	/* the row's second window 3% off its run's pktgen time */
	fixture_init(&fx, base_prof, HDR
		     "window 1 123600\n123600 ip_forward\nend 1\n"
		     "window 2 105000\n105000 ip_forward\nend 2\n"
		     "summary windows 2 restarts 0 stray_ends 0 open_at_exit 0\n");
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "row.txt:4: window 1 (123600 instructions) is not run "
		    "0000-pps64-download"))
		fail_msg("unexpected error: %s", err);
	fixture_free(&fx);
	/* one window too few */
	fixture_init(&fx, base_prof, HDR "window 1 120000\n120000 ip_forward\nend 1\n"
		     "summary windows 1 restarts 0 stray_ends 0 open_at_exit 0\n");
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "row.txt: no window left for run 0002-pps64-download"))
		fail_msg("unexpected error: %s", err);
	fixture_free(&fx);
	/* a large window left over */
	fixture_init(&fx, base_prof, HDR
		     "window 1 120000\n120000 ip_forward\nend 1\n"
		     "window 2 105000\n105000 ip_forward\nend 2\n"
		     "window 3 50000\n50000 ip_forward\nend 3\n"
		     "summary windows 3 restarts 0 stray_ends 0 open_at_exit 0\n");
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "row.txt:10: window 3 (50000 instructions) matches no pps run"))
		fail_msg("unexpected error: %s", err);
	fixture_free(&fx);
}

static void test_write(void **state)
{
	struct prof_opts o = { .tolerance = 0.01, .part_best = true };
	struct prof_result res;
	struct fixture fx;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fixture_init(&fx, base_prof, row_prof);
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	prof_write_csv(f, &res);
	fclose(f);
	assert_non_null(strstr(buf, "pps64,download,row,base,1,1,br_nf_pre_routing,"
			       "5.0000,0.0000,5.0000\n"));
	assert_non_null(strstr(buf, "pps64,download,base,base,1,1,ip_forward,"
			       "60.0000,60.0000,0.0000\n"));
	free(buf);
	f = open_memstream(&buf, &len);
	prof_write_md(f, &res, 1);
	fclose(f);
	assert_non_null(strstr(buf, "| br\\_nf\\_pre\\_routing | 5.00 | 0.00 | +5.00 |\n"
			       "| 2 other symbols | 100.00 | 100.00 | +0.00 |\n"));
	assert_non_null(strstr(buf, "| pktgen ns/packet (measured) | 105.00 | 100.00 | "
			       "+5.00 |\n"));
	assert_null(strstr(buf, "busy floor ns/packet |"));
	free(buf);
	prof_result_free(&res);
	fixture_free(&fx);
}

/*
 * The measured change by the floor estimator: busy times 95 and 104 ns/packet in the
 * baseline, 118 and 100 in the row (the tcp run has none and is no pps run). Floors
 * 95 and 100; first levels 9 and 18, S their median 13.5; w 0 (no run below a level).
 */
static void test_attribute_floor(void **state)
{
	struct prof_opts o = { .tolerance = 0.01, .part_best = true };
	struct prof_result res;
	struct fixture fx;
	const struct prof_cell *c;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fixture_init(&fx, base_prof, row_prof);
	fx.runs[0].pktgen.busy_us = 95;
	fx.runs[1].pktgen.busy_us = 104;
	fx.runs[2].pktgen.busy_us = 118;
	fx.runs[4].pktgen.busy_us = 100;
	if (prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err, sizeof(err)))
		fail_msg("prof_attribute: %s", err);
	c = &res.c[1];
	assert_string_equal(c->key, "row");
	assert_true(c->floor == 100.0);
	assert_true(c->base_floor == 95.0);
	assert_true(c->bound == 13.5);
	assert_true(res.c[0].bound == 13.5);
	f = open_memstream(&buf, &len);
	prof_write_md(f, &res, 1);
	fclose(f);
	assert_non_null(strstr(buf, "| pktgen ns/packet (measured) | 105.00 | 100.00 | "
			       "+5.00 |\n| pktgen busy floor ns/packet | 100.00 | 95.00 | "
			       "+5.00 [-8.50, +18.50] |\n"));
	assert_non_null(strstr(buf, "| pktgen busy floor ns/packet | 95.00 |\n"));
	assert_non_null(strstr(buf, "with S + w = 13.50 ns/packet over these cells"));
	free(buf);
	prof_result_free(&res);
	fixture_free(&fx);
	/* one run of the row without its busy time: that cell has no floor */
	fixture_init(&fx, base_prof, row_prof);
	fx.runs[0].pktgen.busy_us = 95;
	fx.runs[1].pktgen.busy_us = 104;
	fx.runs[4].pktgen.busy_us = 100;
	if (prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err, sizeof(err)))
		fail_msg("prof_attribute: %s", err);
	assert_true(isnan(res.c[1].floor));
	assert_true(res.c[1].base_floor == 95.0);
	prof_result_free(&res);
	fixture_free(&fx);
}

/* cache models: parsed, checked against the header, attributed per packet */
#define CM "cache-model t:1024:2:32:1024:4:32\n"
static const char base_cache[] = HDR CM
	"window 1 100000\n100000 ip_forward\n"
	"cache t ifetch 4000 imiss 1000 dacc 9000 dmiss 2000\nend 1\n"
	"window 2 110000\n110000 ip_forward\n"
	"cache t ifetch 4000 imiss 3000 dacc 9000 dmiss 4000\nend 2\n"
	"summary windows 2 restarts 0 stray_ends 0 open_at_exit 0\n";
static const char row_cache[] = HDR CM
	"window 1 120000\n120000 ip_forward\n"
	"cache t ifetch 1 imiss 1 dacc 1 dmiss 1\nend 1\n"
	"window 2 105000\n105000 ip_forward\n"
	"cache t ifetch 5000 imiss 1500 dacc 9500 dmiss 2500\nend 2\n"
	"summary windows 2 restarts 0 stray_ends 0 open_at_exit 0\n";

static void test_cache(void **state)
{
	static const struct {
		const char *body, *want;
	} bad[] = {
		{ "10 a\ncache t ifetch 1 imiss 2 dacc 1 dmiss 0\n",
		  "p.txt:7: cache t: more misses than accesses" },
		{ "10 a\ncache t ifetch 1 imiss 0 dacc 1\n",
		  "p.txt:7: want \"cache NAME ifetch F imiss M dacc A dmiss D\"" },
		{ "10 a\ncache t ifetch 1 imiss 0 dacc 1 dmiss -1\n", "p.txt:7: want \"cache NAME" },
		{ "cache t ifetch 1 imiss 0 dacc 1 dmiss 0\n10 a\n",
		  "p.txt:7: a symbol after the cache lines" },
		{ "10 a\ncache u ifetch 1 imiss 0 dacc 1 dmiss 0\n",
		  "p.txt:8: window 1's cache lines are not the file's 1 cache-model" },
		{ "10 a\n", "p.txt:7: window 1's cache lines are not the file's 1" },
	};
	struct prof_opts o = { .tolerance = 0.01, .part_best = true };
	static const unsigned int pen[] = { 10 };
	static const char sum[] = "summary windows 1 restarts 0 stray_ends 0 open_at_exit 0\n";
	struct prof_result res;
	struct prof_file pf;
	struct fixture fx;
	const struct prof_cell *c;
	char err[512] = "", buf[1024], *out = NULL;
	size_t len = 0, i;
	FILE *f;

	(void)state;
	parse_ok(base_cache, &pf);
	assert_int_equal(pf.nmodel, 1);
	assert_string_equal(pf.model[0].name, "t");
	assert_int_equal(pf.model[0].i.ways, 2);
	assert_int_equal(pf.w[1].ncache, 1);
	assert_int_equal(pf.w[1].cache[0].v[PROF_DMISS], 4000);
	prof_free(&pf);
	/* errors in a window: its body between "window 1 10" and "end 1" */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), HDR CM "window 1 10\n%send 1\n%s", bad[i].body, sum);
		parse_err(buf, bad[i].want);
	}
	parse_err(HDR "cache-model t:1000:2:32:1024:4:32\n", "p.txt:4: cache 't:1000:2:32");
	parse_err(HDR CM CM, "p.txt:5: cache-model t twice");
	snprintf(buf, sizeof(buf), HDR "window 1 10\n10 a\nend 1\n" CM "%s", sum);
	parse_err(buf, "p.txt:7: a cache-model after a window");

	/* attributed: a boot's best run's counts per packet (1000 packets) */
	fixture_init(&fx, base_cache, row_cache);
	if (prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err, sizeof(err)))
		fail_msg("prof_attribute: %s", err);
	assert_int_equal(res.ncache, 1);
	assert_string_equal(res.model[0].name, "t");
	c = &res.c[1];
	assert_string_equal(c->key, "row");
	assert_true(c->cache_row[0][PROF_IMISS] == 1.5);
	assert_true(c->cache_row[0][PROF_DMISS] == 2.5);
	assert_true(c->cache_base[0][PROF_IMISS] == 1.0);
	assert_true(c->cache_base[0][PROF_DACC] == 9.0);
	f = open_memstream(&out, &len);
	prof_write_cache_md(f, &res, pen, 1);
	fclose(f);
	/* row: 105 + 10 x (1.5 + 2.5) = 145 cycles against 100 + 10 x 3 = 130 */
	assert_non_null(strstr(out, "- t: I 1 KiB 2-way 32-byte lines; D 1 KiB 4-way 32-byte "
			       "lines\n"));
	/* every run of the row, not only the boot's best: 1/1000 and 1.5, 1/1000 and 2.5 */
	assert_non_null(strstr(out, "### t, pps64 download: every run, lowest to highest\n\n"
			       "| row | runs | I misses | D misses |\n|:--|--:|--:|--:|\n"
			       "| base | 2 | 1.00 to 3.00 | 2.00 to 4.00 |\n"
			       "| row | 2 | 0.00 to 1.50 | 0.00 to 2.50 |\n"));
	assert_int_equal(c->cache_nruns, 2);
	assert_non_null(strstr(out, "| row | 105.0 | 5.00 | 1.50 | 9.50 | 2.50 | 145.0 |\n"
			       "| ↳ change | +5.00% | +1.00 | +0.50 | +0.50 | +0.50 | +11.54% |\n"));
	free(out);
	f = open_memstream(&out, &len);
	prof_write_cache_csv(f, &res, pen, 1);
	fclose(f);
	assert_non_null(strstr(out, "pps64,download,row,base,1,1,t,105.0000,100.0000,5.0000,"
			       "4.0000,1.5000,1.0000,9.5000,9.0000,2.5000,2.0000,145.0000,"
			       "130.0000\n"));
	free(out);
	prof_result_free(&res);
	fixture_free(&fx);
	/* the boots must model the same caches */
	fixture_init(&fx, base_cache, row_prof);
	assert_int_equal(prof_attribute(&fx.s, fx.files, fx.names, &o, &res, err,
					 sizeof(err)), -EINVAL);
	if (!strstr(err, "row.txt: its cache-model lines are not those of base.txt"))
		fail_msg("unexpected error: %s", err);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_attribute_best),
		cmocka_unit_test(test_attribute_mean),
		cmocka_unit_test(test_attribute_path),
		cmocka_unit_test(test_attribute_pairs),
		cmocka_unit_test(test_attribute_floor),
		cmocka_unit_test(test_attribute_errors),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_cache),
	};

	unit_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
