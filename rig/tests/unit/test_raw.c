// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the record.json / provenance.json schema checks (rig/src/data/raw.c). */
#include <math.h>

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

/* @base with the first @from replaced by @to */
static char *subst_in(const char *base, const char *from, const char *to)
{
	const char *p = strstr(base, from);
	char *out;

	if (!p)
		fail_msg("'%s' not in the record", from);
	out = malloc(strlen(base) + strlen(to) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(p - base), base, to, p + strlen(from));
	return out;
}

static char *subst(const char *from, const char *to)
{
	return subst_in(good, from, to);
}

/* schema 2 (rig/README.md "Raw data"): a measured pps64 run, a tcp-bytes run, a verification pass */
#define ROW2 "  \"row\": { \"index\": 11, \"kernel\": \"ondemand\", \"label\": \"\",\n" \
	"           \"global\": [0,0,0], \"local\": [\"br-lan\"], \"ruleset\": \"none\",\n" \
	"           \"source\": \"rig/matrices/ab.matrix:20\" },\n"
#define READBACK2 "  \"readback\": { \"global\": [0,0,0],\n" \
	"                \"bridges\": { \"br-lan\": [1,1,1], \"br-wlan\": [0,0,0] } },\n"

static const char pps[] =
	"{ \"schema\": 2, \"kind\": \"measure\",\n" ROW2
	"  \"workload\": \"pps64\", \"direction\": \"download\", \"repetition\": 1,\n"
	"  \"order\": 3, \"counting_rules\": false,\n" READBACK2
	"  \"pktgen\": { \"pkt_size\": 60, \"count\": 50000, \"sent\": 50000,\n"
	"              \"received\": 49990, \"errors\": 0, \"elapsed_us\": 314509,\n"
	"              \"result\": \"OK: 314509(c314432+d76) usec, 50000 (60byte,0frags)\" } }\n";

static const char bytes[] =
	"{ \"schema\": 2, \"kind\": \"measure\",\n" ROW2
	"  \"workload\": \"tcp-bytes\", \"direction\": \"upload\", \"repetition\": 2,\n"
	"  \"order\": 4, \"counting_rules\": false,\n" READBACK2
	"  \"flows\": [ { \"file\": \"flow-0.json\", \"port\": 5201 } ],\n"
	"  \"bytes_per_flow\": 33554432 }\n";

static const char pass[] =
	"{ \"schema\": 2, \"kind\": \"verify\",\n" ROW2
	"  \"order\": 7,\n" READBACK2
	"  \"rules\": \"physdev\", \"traffic\": \"iperf3 -n 1048576, 1 flow\",\n"
	"  \"verify\": { \"bridges\": { \"br-lan\": { \"expected\": true, \"packets\": 812 },\n"
	"                           \"br-wlan\": { \"expected\": false, \"packets\": 0 } },\n"
	"              \"result\": \"yes\" } }\n";

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
	/* schema 1: the seed's tcp, measured with the counting rules, verified itself */
	assert_int_equal(run.schema, 1);
	assert_int_equal(run.kind, RAW_MEASURE);
	assert_int_equal(run.workload, WL_TCP);
	assert_true(run.counting_rules);
	assert_true(run.has_verify);
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
	{ "\"schema\": 1", "\"schema\": 3", "r.json: \"schema\" missing or not 1 or 2" },
	{ "\"schema\": 1", "\"schema\": 2", "r.json: \"kind\" missing or not measure/verify" },
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
	  "r.json: row.ruleset: unknown ruleset 'pf' (known: none, bridge-both, bridge-lan, "
	  "openwrt, openwrt-flowtable, policy-bridge-both, policy-bridge-lan, policy-inet-both, "
	  "policy-inet-lan)" },
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

static void test_schema2_pps(void **state)
{
	struct raw_run run;
	char err[512] = "", name[64];

	(void)state;
	assert_int_equal(raw_parse_record("r.json", pps, strlen(pps), &run, err, sizeof(err)),
			 0);
	assert_string_equal(err, "");
	assert_int_equal(run.schema, 2);
	assert_int_equal(run.kind, RAW_MEASURE);
	assert_int_equal(run.workload, WL_PPS64);
	assert_int_equal(run.dir, RAW_DOWNLOAD);
	assert_int_equal(run.repetition, 1);
	assert_int_equal(run.order, 3);
	assert_false(run.counting_rules);
	assert_false(run.has_verify);
	assert_true(run.readback_ok);
	assert_int_equal(run.row_index, 11);
	assert_string_equal(run.key, "kernel=ondemand global=0 local=br-lan ruleset=none");
	assert_int_equal(run.nflows, 0);
	assert_int_equal(run.pktgen.pkt_size, 60);
	assert_int_equal(run.pktgen.sent, 50000);
	assert_int_equal(run.pktgen.received, 49990);
	assert_int_equal(run.pktgen.elapsed_us, 314509);
	/* 314509 us * 1000 / 50000 packets; 50000 / 314509 us; 49990 * 64 B * 8 / 314509 us */
	assert_true(run.value == 314509.0 * 1000 / 50000);
	assert_true(run.value == 6290.18);
	assert_true(run.mpps == 50000.0 / 314509);
	assert_true(run.wire_mbps == 49990.0 * 64 * 8 / 314509);
	assert_int_equal(raw_run_dir_name(&run, name, sizeof(name)), 0);
	assert_string_equal(name, "0003-pps64-download");
	assert_int_equal(raw_run_dir_name(&run, name, 8), -ENAMETOOLONG);

	/* pps1514: the MTU-sized frame */
	{
		char *t = subst_in(pps, "\"pps64\"", "\"pps1514\""), *u;

		u = subst_in(t, "\"pkt_size\": 60", "\"pkt_size\": 1514");
		assert_int_equal(raw_parse_record("r.json", u, strlen(u), &run, err,
						  sizeof(err)), 0);
		assert_int_equal(run.workload, WL_PPS1514);
		assert_true(run.wire_mbps == 49990.0 * 1518 * 8 / 314509);
		assert_int_equal(raw_run_dir_name(&run, name, sizeof(name)), 0);
		assert_string_equal(name, "0003-pps1514-download");
		free(t);
		free(u);
	}
}

static void test_schema2_tcp_and_pass(void **state)
{
	struct raw_run run;
	char err[512] = "", name[64], *t;

	(void)state;
	assert_int_equal(raw_parse_record("r.json", bytes, strlen(bytes), &run, err,
					  sizeof(err)), 0);
	assert_int_equal(run.workload, WL_TCP_BYTES);
	assert_int_equal(run.dir, RAW_UPLOAD);
	assert_int_equal(run.repetition, 2);
	assert_int_equal(run.nflows, 1);
	assert_int_equal(run.bytes_per_flow, 33554432);
	assert_true(run.value == 0);	/* from the flow files, which are not read here */
	assert_int_equal(raw_run_dir_name(&run, name, sizeof(name)), 0);
	assert_string_equal(name, "0004-tcp-bytes-upload");

	/* the seed's tcp in schema 2: no bytes_per_flow needed; counting_rules optional */
	t = subst_in(bytes, "\"tcp-bytes\"", "\"tcp\"");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_int_equal(run.workload, WL_TCP);
	free(t);
	t = subst_in(bytes, "\"counting_rules\": false", "\"counting_rules\": true");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_true(run.counting_rules);
	free(t);

	assert_int_equal(raw_parse_record("r.json", pass, strlen(pass), &run, err, sizeof(err)),
			 0);
	assert_int_equal(run.kind, RAW_VERIFY_PASS);
	assert_int_equal(run.order, 7);
	assert_string_equal(run.rules, "physdev");
	assert_true(run.has_verify);
	assert_int_equal(run.verify, RAW_VERIFY_YES);
	assert_true(run.readback_ok);
	assert_int_equal(raw_run_dir_name(&run, name, sizeof(name)), 0);
	assert_string_equal(name, "0007-verify");
	t = subst_in(pass, "\"br-lan\": [1,1,1]", "\"br-lan\": [0,1,1]");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_false(run.readback_ok);
	assert_string_equal(run.readback_msg, "br-lan nf_call_iptables read back 0");
	free(t);
	t = subst_in(pass, "\"physdev\"", "\"iif\"");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_string_equal(run.rules, "iif");
	free(t);
	t = subst_in(pass, "\"physdev\"", "\"nft-bridge\"");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_string_equal(run.rules, "nft-bridge");
	free(t);
}

static const struct {
	const char *base, *from, *to, *msg;
} bad2[] = {
	{ pps, "\"kind\": \"measure\"", "\"kind\": \"verified\"",
	  "r.json: \"kind\" missing or not measure/verify" },
	{ pps, "\"order\": 3", "\"order\": -3",
	  "r.json: \"order\" missing or not a non-negative integer" },
	{ pps, "\"index\": 11", "\"index\": \"11\"",
	  "r.json: row.index missing or not a non-negative integer" },
	{ pps, "\"pps64\"", "\"pps65\"",
	  "r.json: \"workload\" missing or not pps64/pps1514/tcp-bytes/tcp" },
	{ pps, "\"workload\"", "\"workloads\"",
	  "r.json: \"workload\" missing or not pps64/pps1514/tcp-bytes/tcp" },
	{ pps, "\"download\"", "\"down\"",
	  "r.json: \"direction\" missing or not upload/download" },
	{ pps, "\"repetition\": 1", "\"repetition\": 0",
	  "r.json: \"repetition\" missing or not a positive integer" },
	{ pps, "\"counting_rules\": false", "\"counting_rules\": 0",
	  "r.json: \"counting_rules\" is not true or false" },
	{ pps, "\"global\": [0,0,0],\n", "\"global\": [0,0],\n",
	  "r.json: readback.global is not an array of 3 values 0 or 1" },
	{ pps, "\"pktgen\": {", "\"pktgen\": 1, \"x\": {",
	  "r.json: \"pktgen\" missing or not an object (a pps64 run needs it)" },
	{ pps, "\"pkt_size\": 60", "\"pkt_size\": -60",
	  "r.json: pktgen.pkt_size missing or not a non-negative integer" },
	{ pps, "\"count\": 50000", "\"count\": 5e4",
	  "r.json: pktgen.count missing or not a non-negative integer" },
	{ pps, "\"sent\": 50000", "\"snt\": 50000",
	  "r.json: pktgen.sent missing or not a non-negative integer" },
	{ pps, "\"received\": 49990", "\"received\": null",
	  "r.json: pktgen.received missing or not a non-negative integer" },
	{ pps, "\"errors\": 0", "\"errors\": \"0\"",
	  "r.json: pktgen.errors missing or not a non-negative integer" },
	{ pps, "\"elapsed_us\": 314509", "\"elapsed_us\": 99999999999999999999",
	  "r.json: pktgen.elapsed_us missing or not a non-negative integer" },
	{ pps, "\"pkt_size\": 60", "\"pkt_size\": 1514",
	  "r.json: pktgen.pkt_size 1514 is not pps64's 60" },
	{ pps, "\"sent\": 50000", "\"sent\": 0",
	  "r.json: pktgen.sent is 0: no packet was sent" },
	{ pps, "\"elapsed_us\": 314509", "\"elapsed_us\": 0", "r.json: pktgen.elapsed_us is 0" },
	{ bytes, "\"bytes_per_flow\": 33554432", "\"bytes_per_flow\": 0",
	  "r.json: \"bytes_per_flow\" missing or not a positive integer" },
	{ bytes, "\"bytes_per_flow\"", "\"bytes\"",
	  "r.json: \"bytes_per_flow\" missing or not a positive integer" },
	{ bytes, "\"flows\"", "\"flow\"", "r.json: \"flows\" missing, not an array or empty" },
	{ bytes, "\"port\": 5201", "\"port\": 0",
	  "r.json: flows[0].port missing or not a port number" },
	{ pass, "\"rules\": \"physdev\"", "\"rules\": \"mac\"",
	  "r.json: \"rules\" missing or not physdev/iif/nft-bridge" },
	{ pass, "\"traffic\": \"iperf3", "\"traffic\": [\"iperf3\"], \"x\": \"",
	  "r.json: \"traffic\" is not a string" },
	{ pass, "\"result\": \"yes\"", "\"result\": \"YES\"",
	  "r.json: verify.result missing or not yes/no/n/a" },
	{ pass, "\"order\": 7,", "",
	  "r.json: \"order\" missing or not a non-negative integer" },
	{ pass, "\"br-wlan\": [0,0,0]", "\"br-wan\": [0,0,0]",
	  "r.json: readback.bridges: unknown bridge 'br-wan' (known: br-lan, br-wlan)" },
	{ pps, "\"ruleset\": \"none\",", "\"ruleset\": \"none\", \"path\": \"lan\",",
	  "r.json: row.path is not \"routed\" or \"wlan\"" },
	{ pps, "\"ruleset\": \"none\",", "\"ruleset\": \"none\", \"path\": 1,",
	  "r.json: row.path is not \"routed\" or \"wlan\"" },
	/* a name with a newline (found by fuzz_record): the message stays on one line */
	{ pass, "\"br-wlan\": [0,0,0]", "\"br-\\nwlan\": [0,0,0]",
	  "r.json: readback.bridges: unknown bridge 'br-?wlan' (known: br-lan, br-wlan)" },
};

/* row.path: absent is routed (every record before path= existed); a path other than
 * routed is part of the row's key */
static void test_schema2_path(void **state)
{
	struct raw_run run;
	char err[512] = "", *t;

	(void)state;
	assert_int_equal(raw_parse_record("r.json", pps, strlen(pps), &run, err, sizeof(err)), 0);
	assert_int_equal(run.row.path, BRNF_PATH_ROUTED);
	assert_string_equal(run.key, "kernel=ondemand global=0 local=br-lan ruleset=none");

	t = subst_in(pps, "\"ruleset\": \"none\",", "\"ruleset\": \"none\", \"path\": \"routed\",");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_int_equal(run.row.path, BRNF_PATH_ROUTED);
	assert_string_equal(run.key, "kernel=ondemand global=0 local=br-lan ruleset=none");
	free(t);

	t = subst_in(pass, "\"ruleset\": \"none\",", "\"ruleset\": \"none\", \"path\": \"wlan\",");
	assert_int_equal(raw_parse_record("r.json", t, strlen(t), &run, err, sizeof(err)), 0);
	assert_int_equal(run.row.path, BRNF_PATH_WLAN);
	assert_string_equal(run.key, "kernel=ondemand global=0 local=br-lan ruleset=none "
				     "path=wlan");
	assert_int_equal(run.kind, RAW_VERIFY_PASS);
	free(t);
}

static void test_schema2_bad(void **state)
{
	struct raw_run run;
	char err[512], *text;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad2) / sizeof(bad2[0]); i++) {
		text = subst_in(bad2[i].base, bad2[i].from, bad2[i].to);
		err[0] = '\0';
		assert_int_equal(raw_parse_record("r.json", text, strlen(text), &run, err,
						  sizeof(err)), -EINVAL);
		if (strcmp(err, bad2[i].msg))
			fail_msg("case %zu: got '%s', want '%s'", i, err, bad2[i].msg);
		free(text);
	}
}

static void test_schema2_truncated(void **state)
{
	const char *const texts[] = { pps, bytes, pass };
	struct raw_run run;
	char err[512];
	size_t n, i;

	(void)state;
	for (i = 0; i < 3; i++) {
		for (n = 0; n < strlen(texts[i]) - 1; n++) {
			err[0] = '\0';
			if (raw_parse_record("r.json", texts[i], n, &run, err, sizeof(err)) !=
			    -EINVAL)
				fail_msg("text %zu: prefix of %zu bytes accepted", i, n);
			assert_memory_equal(err, "r.json: ", 8);
		}
	}
}

static void test_run_txt(void **state)
{
	static const struct {
		const char *text, *msg;
		double target;
		unsigned int workloads;
	} cases[] = {
		{ "series=6.12 clock=icount\ntarget_pct=0.3 max_boots=8\n", NULL, 0.3, 0 },
		{ "target_pct=1.5", NULL, 1.5, 0 },
		{ "target_pct=0.3 target_pct=0.3\n", NULL, 0.3, 0 },
		{ "series=6.12 boots=3\n", NULL, NAN, 0 },
		{ "", NULL, NAN, 0 },
		{ "workloads=pps64,tcp target_workloads=pps64,pps1514\n", NULL, NAN,
		  1u << WL_PPS64 | 1u << WL_PPS1514 },
		{ "target_workloads=tcp\ntarget_workloads=tcp\n", NULL, NAN, 1u << WL_TCP },
		{ "target_pct=0.3 target_workloads=none\n", NULL, 0.3, RAW_TARGET_NONE },
		{ "target_workloads=none,tcp", "run.txt:1: target_workloads: 'none' is not "
		  "pps64/pps1514/tcp-bytes/tcp", 0, 0 },
		{ "target_workloads=none target_workloads=tcp", "run.txt:1: target_workloads "
		  "given twice", 0, 0 },
		{ "a=1\n\n  target_pct=x\n", "run.txt:3: target_pct 'x' is not a number above 0 "
		  "and at most 100", 0, 0 },
		{ "target_pct=", "run.txt:1: target_pct '' is not a number above 0 and at most "
		  "100", 0, 0 },
		{ "target_pct=0", "run.txt:1: target_pct '0' is not a number above 0 and at most "
		  "100", 0, 0 },
		{ "target_pct=nan", "run.txt:1: target_pct 'nan' is not a number above 0 and at "
		  "most 100", 0, 0 },
		{ "target_pct=101", "run.txt:1: target_pct '101' is not a number above 0 and at "
		  "most 100", 0, 0 },
		{ "target_pct=0.3\ntarget_pct=0.5\n", "run.txt:2: target_pct given twice (0.3, "
		  "0.5)", 0, 0 },
		{ "target_workloads=pps64,udp", "run.txt:1: target_workloads: 'udp' is not "
		  "pps64/pps1514/tcp-bytes/tcp", 0, 0 },
		{ "target_workloads=", "run.txt:1: target_workloads: '' is not "
		  "pps64/pps1514/tcp-bytes/tcp", 0, 0 },
		{ "target_workloads=tcp target_workloads=pps64", "run.txt:1: target_workloads "
		  "given twice", 0, 0 },
		{ "part_value=min", "run.txt:1: part_value 'min' is not mean, best or floor",
		  0, 0 },
		{ "reps=3\npart_value=", "run.txt:2: part_value '' is not mean, best or floor",
		  0, 0 },
		{ "target_pct=0.300000000000000000000000000000000000000000000000000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000001",
		  "run.txt:1: 'target_pct=0.3000000...' is too long", 0, 0 },
	};
	struct raw_run_txt rt;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (!cases[i].msg) {
			assert_int_equal(raw_parse_run_txt("run.txt", cases[i].text,
							   strlen(cases[i].text), &rt, err,
							   sizeof(err)), 0);
			if (isnan(cases[i].target))
				assert_true(isnan(rt.target_pct));
			else
				assert_true(rt.target_pct == cases[i].target);
			assert_int_equal(rt.target_workloads, cases[i].workloads);
			assert_false(rt.part_best);
			continue;
		}
		assert_int_equal(raw_parse_run_txt("run.txt", cases[i].text, strlen(cases[i].text),
						   &rt, err, sizeof(err)), -EINVAL);
		if (strcmp(err, cases[i].msg))
			fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].msg);
	}
}

/* part_value=: best, mean or floor (a boot's best run, and the floor estimator), the
 * last one given counts; absent: mean */
static void test_run_txt_part_value(void **state)
{
	static const char best[] = "reps=3 part_value=best target_pct=0.3\n";
	static const char mean[] = "part_value=mean\n";
	static const char fl[] = "part_value=floor\n";
	static const char fl_best[] = "part_value=floor part_value=best\n";
	struct raw_run_txt rt;
	char err[256];

	(void)state;
	assert_int_equal(raw_parse_run_txt("run.txt", best, strlen(best), &rt, err,
					   sizeof(err)), 0);
	assert_true(rt.part_best);
	assert_false(rt.part_floor);
	assert_true(rt.target_pct == 0.3);
	assert_int_equal(raw_parse_run_txt("run.txt", mean, strlen(mean), &rt, err,
					   sizeof(err)), 0);
	assert_false(rt.part_best);
	assert_false(rt.part_floor);
	assert_int_equal(raw_parse_run_txt("run.txt", fl, strlen(fl), &rt, err,
					   sizeof(err)), 0);
	assert_true(rt.part_best);
	assert_true(rt.part_floor);
	assert_int_equal(raw_parse_run_txt("run.txt", fl_best, strlen(fl_best), &rt, err,
					   sizeof(err)), 0);
	assert_true(rt.part_best);
	assert_false(rt.part_floor);
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
		cmocka_unit_test(test_schema2_pps),
		cmocka_unit_test(test_schema2_tcp_and_pass),
		cmocka_unit_test(test_schema2_path),
		cmocka_unit_test(test_schema2_bad),
		cmocka_unit_test(test_schema2_truncated),
		cmocka_unit_test(test_run_txt),
		cmocka_unit_test(test_run_txt_part_value),
		cmocka_unit_test(test_provenance),
	};

	unit_init();
	return cmocka_run_group_tests_name("raw", tests, NULL, NULL);
}
