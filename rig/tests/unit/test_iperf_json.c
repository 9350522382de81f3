// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the iperf3 -J reader (rig/src/data/iperf_json.c). */
#include <math.h>

#include "unit.h"

#include "iperf_json.h"

/* data/iperf3-ok.json: `iperf3 -c 127.0.0.1 -t 1 -O 0 -J` on loopback, iperf 3.12 */
#define OK_BPS 19285000539.183823

static void test_real_output(void **state)
{
	struct iperf_result res;
	char err[256] = "", *text;
	double bps = -1;
	size_t len;

	(void)state;
	text = slurp(data_path("iperf3-ok.json"), &len);
	assert_int_equal(iperf_json_received_bps(text, len, &bps, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_true(bps == OK_BPS);
	assert_int_equal(iperf_json_parse(text, len, &res, err, sizeof(err)), 0);
	assert_true(res.bps == OK_BPS);
	assert_true(fabs(res.seconds - 1.010787) < 1e-9);
	assert_true(res.duration == 1);
	assert_true(res.omit == 0);
	assert_int_equal(res.num_streams, 1);
	assert_false(res.reverse);
	assert_string_equal(res.version, "iperf 3.12");
	assert_memory_equal(res.system_info, "Linux ", 6);
	free(text);
}

static void test_iperf_error(void **state)
{
	char err[256] = "", *text;
	double bps = -1;
	size_t len;

	(void)state;
	text = slurp(data_path("iperf3-refused.json"), &len);
	assert_int_equal(iperf_json_received_bps(text, len, &bps, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "iperf3 error: unable to connect to server: Connection refused");
	assert_true(bps == -1);		/* untouched on error */
	free(text);
}

/* Every proper prefix of a real output is rejected with a message, never crashes. */
static void test_truncated(void **state)
{
	char err[256], *text;
	double bps;
	size_t len, n;

	(void)state;
	text = slurp(data_path("iperf3-ok.json"), &len);
	err[0] = '\0';
	assert_int_equal(iperf_json_received_bps(text, len / 2, &bps, err, sizeof(err)),
			 -EINVAL);
	assert_memory_equal(err, "truncated JSON", 14);
	for (n = 0; n < len - 1; n++) {
		/* the last byte is a newline: cutting only it leaves valid JSON */
		err[0] = '\0';
		if (iperf_json_received_bps(text, n, &bps, err, sizeof(err)) != -EINVAL)
			fail_msg("prefix of %zu bytes accepted", n);
		assert_true(err[0] != '\0');
	}
	free(text);
}

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "", "empty output (no JSON)" },
	{ "hello", "bad JSON at byte 0: unexpected character" },
	{ "[1, 2]", "top level is not a JSON object" },
	{ "{} x", "trailing data after the JSON value at byte 3" },
	{ "{}", "no \"end\" object" },
	{ "{\"end\": {}}", "no \"end.sum_received\" object" },
	{ "{\"end\": {\"sum_received\": {}}}",
	  "end.sum_received.bits_per_second missing or not a number" },
	{ "{\"end\": {\"sum_received\": {\"bits_per_second\": \"fast\"}}}",
	  "end.sum_received.bits_per_second missing or not a number" },
	{ "{\"end\": {\"sum_received\": {\"bits_per_second\": -1}}}",
	  "end.sum_received.bits_per_second is -1" },
	{ "{\"start\": {\"test_start\": {\"protocol\": \"UDP\"}},"
	  " \"end\": {\"sum_received\": {\"bits_per_second\": 1}}}", "protocol is UDP, not TCP" },
	{ "{\"start\": {}, \"intervals\": [], \"end\": {},"
	  " \"error\": \"the server is busy running a test. try again later\"}",
	  "iperf3 error: the server is busy running a test. try again later" },
};

static void test_bad(void **state)
{
	char err[256];
	double bps;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(iperf_json_received_bps(bad[i].text, strlen(bad[i].text), &bps,
							 err, sizeof(err)), -EINVAL);
		if (strcmp(err, bad[i].msg))
			fail_msg("input '%s': got '%s', want '%s'", bad[i].text, err, bad[i].msg);
	}
}

static void test_minimal_and_integer_rate(void **state)
{
	static const char text[] = "{\"end\": {\"sum_received\": {\"bits_per_second\": 1000}}}\n";
	struct iperf_result res;
	char err[256] = "";

	(void)state;
	assert_int_equal(iperf_json_parse(text, strlen(text), &res, err, sizeof(err)), 0);
	assert_true(res.bps == 1000);
	assert_true(res.duration == -1);
	assert_true(res.omit == -1);
	assert_int_equal(res.num_streams, -1);
	assert_string_equal(res.version, "");
}

static void test_nul_byte(void **state)
{
	static const char text[] = "{\"end\": {\"sum_received\": {\"bits_per_second\": 1}}}\0";
	char err[256] = "";
	double bps;

	(void)state;
	assert_int_equal(iperf_json_received_bps(text, sizeof(text), &bps, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "NUL byte in JSON text");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_output),
		cmocka_unit_test(test_iperf_error),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_minimal_and_integer_rate),
		cmocka_unit_test(test_nul_byte),
	};

	unit_init();
	return cmocka_run_group_tests_name("iperf_json", tests, NULL, NULL);
}
