// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the record.json / provenance.json schema checks (rig/src/raw.c). */
#include "unit.h"

#include "raw.h"

static const char good[] =
	"{ \"schema\": 1,\n"
	"  \"row\": { \"index\": 3, \"kernel\": \"vanilla\", \"label\": \"brfilter-local\",\n"
	"           \"global\": [0,0,0], \"local\": [\"br-wlan\", \"br-lan\"],\n"
	"           \"ruleset\": \"openwrt\", \"source\": \"rig/matrices/default.matrix:5\" },\n"
	"  \"direction\": \"upload\", \"repetition\": 2, \"order\": 17,\n"
	"  \"flows\": [ { \"file\": \"flow-0.json\", \"port\": 5201 },\n"
	"             { \"file\": \"flow-1.json\", \"port\": 5202 } ],\n"
	"  \"readback\": { \"global\": [0,0,0],\n"
	"                \"bridges\": { \"br-lan\": [1,1,1], \"br-wlan\": [1,1,1] } },\n"
	"  \"verify\": { \"bridges\": { \"br-lan\": { \"expected\": true, \"packets\": 1234 } },\n"
	"              \"result\": \"yes\" } }\n";

/* @good with the first @from replaced by @to */
static char *subst(const char *from, const char *to)
{
	const char *p = strstr(good, from);
	char *out;

	if (!p)
		fail_msg("'%s' not in the good record", from);
	out = malloc(sizeof(good) + strlen(to));
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(p - good), good, to, p + strlen(from));
	return out;
}

static void test_good_record(void **state)
{
	struct raw_run run;
	char err[512] = "";

	(void)state;
	assert_int_equal(raw_parse_record("r.json", good, strlen(good), &run, err, sizeof(err)),
			 0);
	assert_string_equal(err, "");
	assert_int_equal(run.row_index, 3);
	assert_string_equal(run.row.kernel, "vanilla");
	assert_string_equal(run.row.label, "brfilter-local");
	assert_string_equal(run.row.ruleset, "openwrt");
	assert_int_equal(run.row.nlocal, 2);
	assert_string_equal(run.row.local[0], "br-lan");	/* canonical order */
	assert_string_equal(run.key, "kernel=vanilla global=0 local=br-lan,br-wlan ruleset=openwrt");
	assert_string_equal(run.source, "rig/matrices/default.matrix:5");
	assert_int_equal(run.dir, RAW_UPLOAD);
	assert_int_equal(run.repetition, 2);
	assert_int_equal(run.order, 17);
	assert_int_equal(run.nflows, 2);
	assert_string_equal(run.flow_file[1], "flow-1.json");
	assert_true(run.readback_ok);
	assert_int_equal(run.verify, RAW_VERIFY_YES);
}

static void test_readback_differs(void **state)
{
	struct raw_run run;
	char err[512] = "", *text;

	(void)state;
	text = subst("\"br-wlan\": [1,1,1]", "\"br-wlan\": [1,0,1]");
	assert_int_equal(raw_parse_record("r.json", text, strlen(text), &run, err, sizeof(err)),
			 0);
	assert_false(run.readback_ok);
	assert_string_equal(run.readback_msg, "br-wlan nf_call_ip6tables read back 0");
	free(text);
	text = subst("\"readback\": { \"global\": [0,0,0]", "\"readback\": { \"global\": [0,0,1]");
	assert_int_equal(raw_parse_record("r.json", text, strlen(text), &run, err, sizeof(err)),
			 0);
	assert_false(run.readback_ok);
	assert_string_equal(run.readback_msg, "global arptables read back 1");
	free(text);
}

static const struct {
	const char *from, *to, *msg;
} bad[] = {
	{ "\"schema\": 1", "\"schema\": 2", "r.json: \"schema\" missing or not 1" },
	{ "\"row\"", "\"rows\"", "r.json: \"row\" missing or not an object" },
	{ "\"index\": 3", "\"index\": -1", "r.json: row.index missing or not a non-negative integer" },
	{ "\"kernel\": \"vanilla\"", "\"kernel\": 7", "r.json: row.kernel missing or not a string" },
	{ "\"kernel\": \"vanilla\"", "\"kernel\": \"a b\"",
	  "r.json: row.kernel: bad character ' ' (0x20) in kernel 'a b'" },
	{ "\"label\": \"brfilter-local\"", "\"label\": 1", "r.json: row.label is not a string" },
	{ "\"global\": [0,0,0], \"local\"", "\"global\": [0,2,0], \"local\"",
	  "r.json: row.global missing or not an array of 3 values 0 or 1" },
	{ "\"global\": [0,0,0], \"local\"", "\"global\": [0,0], \"local\"",
	  "r.json: row.global missing or not an array of 3 values 0 or 1" },
	{ "[\"br-wlan\", \"br-lan\"]", "[\"br-wan\"]",
	  "r.json: row.local: unknown bridge 'br-wan' (known: br-lan, br-wlan)" },
	{ "[\"br-wlan\", \"br-lan\"]", "[\"br-lan\", \"br-lan\"]",
	  "r.json: row.local: bridge 'br-lan' listed twice" },
	{ "[\"br-wlan\", \"br-lan\"]", "\"br-lan\"",
	  "r.json: row.local missing or not an array of bridge names" },
	{ "\"ruleset\": \"openwrt\"", "\"ruleset\": \"pf\"",
	  "r.json: row.ruleset: unknown ruleset 'pf' (known: none, openwrt, openwrt-flowtable, "
	  "bridge-lan, bridge-both)" },
	{ "\"direction\": \"upload\"", "\"direction\": \"sideways\"",
	  "r.json: \"direction\" missing or not upload/download" },
	{ "\"repetition\": 2", "\"repetition\": 0",
	  "r.json: \"repetition\" missing or not a positive integer" },
	{ "\"order\": 17", "\"order\": \"17\"",
	  "r.json: \"order\" missing or not a non-negative integer" },
	{ "\"flows\": [", "\"flows\": [], \"x\": [", "r.json: \"flows\" missing, not an array or empty" },
	{ "\"file\": \"flow-0.json\"", "\"file\": \"../../etc/passwd\"",
	  "r.json: flows[0].file '../../etc/passwd' is not a flow-<i>.json name" },
	{ "\"file\": \"flow-1.json\"", "\"file\": \"flow-/x.json\"",
	  "r.json: flows[1].file 'flow-/x.json' is not a flow-<i>.json name" },
	{ "\"port\": 5202", "\"port\": 70000", "r.json: flows[1].port missing or not a port number" },
	{ "\"readback\": { \"global\"", "\"readback\": { \"global\": 1, \"x\"",
	  "r.json: readback.global is not an array of 3 values 0 or 1" },
	{ "\"br-lan\": [1,1,1]", "\"br0\": [1,1,1]",
	  "r.json: readback.bridges: unknown bridge 'br0' (known: br-lan, br-wlan)" },
	{ "\"result\": \"yes\"", "\"result\": \"maybe\"",
	  "r.json: verify.result missing or not yes/no/n/a" },
	{ "\"verify\"", "\"verified\"", "r.json: verify.result missing or not yes/no/n/a" },
	{ "{ \"schema\"", "[ { \"schema\"", "r.json: truncated JSON (ends after 612 bytes)" },
};

static void test_bad_records(void **state)
{
	struct raw_run run;
	char err[512], *text;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		text = subst(bad[i].from, bad[i].to);
		err[0] = '\0';
		assert_int_equal(raw_parse_record("r.json", text, strlen(text), &run, err,
						  sizeof(err)), -EINVAL);
		if (strcmp(err, bad[i].msg))
			fail_msg("case %zu: got '%s', want '%s'", i, err, bad[i].msg);
		free(text);
	}
}

static void test_truncated_records(void **state)
{
	struct raw_run run;
	char err[512];
	size_t n;

	(void)state;
	for (n = 0; n < strlen(good) - 1; n++) {
		err[0] = '\0';
		if (raw_parse_record("r.json", good, n, &run, err, sizeof(err)) != -EINVAL)
			fail_msg("prefix of %zu bytes accepted", n);
		assert_memory_equal(err, "r.json: ", 8);
	}
}

static void test_provenance(void **state)
{
	static const char a[] = "{\"kernel_release\": \"6.12.57\", \"clock\": \"icount\","
				" \"testbed\": \"qemu\", \"date\": \"2026-11-30\"}";
	static const char b[] = "{\"kernel\": {\"release\": \"6.1.0-40-amd64\"},"
				" \"testbed\": {\"kind\": \"netns\"}}";
	struct raw_part p;
	char err[256] = "";

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(raw_parse_provenance("p.json", a, strlen(a), &p, err, sizeof(err)), 0);
	assert_string_equal(p.kernel_release, "6.12.57");
	assert_string_equal(p.clock, "icount");
	assert_string_equal(p.testbed, "qemu");
	assert_string_equal(p.date, "2026-11-30");
	assert_int_equal(raw_parse_provenance("p.json", b, strlen(b), &p, err, sizeof(err)), 0);
	assert_string_equal(p.kernel_release, "6.1.0-40-amd64");
	assert_string_equal(p.clock, "");
	assert_string_equal(p.testbed, "netns");
	assert_int_equal(raw_parse_provenance("p.json", "[]", 2, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.json: top level is not a JSON object");
	assert_int_equal(raw_parse_provenance("p.json", "{", 1, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "p.json: truncated JSON (ends after 1 bytes)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_record),
		cmocka_unit_test(test_readback_differs),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_truncated_records),
		cmocka_unit_test(test_provenance),
	};

	unit_init();
	return cmocka_run_group_tests_name("raw", tests, NULL, NULL);
}
