// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the matrix file parser (rig/src/data/matrix.c). */
#include "unit.h"

#include <dirent.h>

#include "matrix.h"

static void test_good_file(void **state)
{
	struct brnf_matrix m;
	char err[256] = "", key[256];
	const struct brnf_row *r;

	(void)state;
	assert_int_equal(matrix_parse_file(data_path("good.matrix"), &m, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(m.nrows, 5);

	r = &m.rows[0];
	assert_int_equal(r->line, 2);
	assert_string_equal(r->kernel, "running");
	assert_string_equal(r->label, "");
	assert_false(r->global[BRNF_IPTABLES] || r->global[BRNF_IP6TABLES] ||
		     r->global[BRNF_ARPTABLES]);
	assert_int_equal(r->nlocal, 0);
	assert_string_equal(r->ruleset, "none");
	assert_int_equal(row_key(r, key, sizeof(key)), 44);
	assert_string_equal(key, "kernel=running global=0 local=- ruleset=none");

	r = &m.rows[1];
	assert_int_equal(r->line, 3);
	assert_int_equal(r->nlocal, 1);
	assert_true(row_local_has(r, "br-lan"));
	assert_false(row_local_has(r, "br-wlan"));

	/* local list stored in canonical order, so the key does not depend on it */
	r = &m.rows[2];
	assert_int_equal(r->line, 5);
	assert_int_equal(r->nlocal, 2);
	assert_string_equal(r->local[0], "br-lan");
	assert_string_equal(r->local[1], "br-wlan");
	assert_true(row_key(r, key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=running global=0 local=br-lan,br-wlan ruleset=none");
	assert_true(row_local_str(r, key, sizeof(key)) > 0);
	assert_string_equal(key, "br-lan br-wlan");

	r = &m.rows[3];
	assert_int_equal(r->line, 6);
	assert_true(r->global[BRNF_IPTABLES] && r->global[BRNF_IP6TABLES] &&
		    r->global[BRNF_ARPTABLES]);
	assert_string_equal(r->label, "brfilter-global");
	assert_true(row_global_str(r, key, sizeof(key)) > 0);
	assert_string_equal(key, "1");

	r = &m.rows[4];
	assert_int_equal(r->line, 7);
	assert_string_equal(r->kernel, "vanilla");
	assert_true(r->global[BRNF_IPTABLES]);
	assert_false(r->global[BRNF_IP6TABLES]);
	assert_true(r->global[BRNF_ARPTABLES]);
	assert_string_equal(r->ruleset, "openwrt-flowtable");
	assert_true(row_global_str(r, key, sizeof(key)) > 0);
	assert_string_equal(key, "iptables,arptables");
	assert_true(row_key(r, key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=vanilla global=iptables,arptables local=- "
				 "ruleset=openwrt-flowtable");
	matrix_free(&m);
	assert_null(m.rows);
	assert_int_equal(m.nrows, 0);
}

static void test_buf_crlf_and_no_final_newline(void **state)
{
	static const char text[] = "global=1\r\nkernel=nobrnf label=default";
	struct brnf_matrix m;
	char err[256] = "";

	(void)state;
	assert_int_equal(matrix_parse_buf("x", text, strlen(text), &m, err, sizeof(err)), 0);
	assert_int_equal(m.nrows, 2);
	assert_true(m.rows[0].global[BRNF_ARPTABLES]);
	assert_string_equal(m.rows[1].kernel, "nobrnf");
	assert_string_equal(m.rows[1].label, "default");
	assert_int_equal(m.rows[1].line, 2);
	matrix_free(&m);
}

/* ruleset=a+b: the files loaded together, what they do is the union of theirs */
/* which rows set ruleset= themselves (brnf run --ruleset fills in the others) */
static void test_ruleset_set(void **state)
{
	static const char text[] = "global=0 local=-\n"
				   "global=0 local=- ruleset=none # ruleset=openwrt\n"
				   "# ruleset=openwrt\n"
				   "label=noruleset global=1\n";
	struct brnf_matrix m;
	char err[256] = "";

	(void)state;
	assert_int_equal(matrix_parse_buf("x", text, strlen(text), &m, err, sizeof(err)), 0);
	assert_int_equal(m.nrows, 3);
	assert_false(m.rows[0].ruleset_set);
	assert_true(m.rows[1].ruleset_set);
	assert_string_equal(m.rows[1].ruleset, "none");
	assert_false(m.rows[2].ruleset_set);
	matrix_free(&m);
}

static void test_ruleset_combined(void **state)
{
	static const char text[] = "kernel=nftbridge ruleset=openwrt+bridge-lan\n"
				   "ruleset=openwrt-flowtable\nruleset=bridge-both+openwrt\n";
	const char *parts[BRNF_MAX_RULESETS];
	struct brnf_ruleset info;
	struct brnf_matrix m;
	char err[256] = "", key[256];

	(void)state;
	assert_int_equal(matrix_parse_buf("x", text, strlen(text), &m, err, sizeof(err)), 0);
	assert_int_equal(m.nrows, 3);
	assert_true(row_key(&m.rows[0], key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=nftbridge global=0 local=- ruleset=openwrt+bridge-lan");
	assert_int_equal(matrix_ruleset_parts(m.rows[0].ruleset, parts, err, sizeof(err)), 2);
	assert_string_equal(parts[0], "openwrt");
	assert_string_equal(parts[1], "bridge-lan");
	row_ruleset_info(&m.rows[0], &info);
	assert_true(info.conntrack);
	assert_false(info.flowtable);
	assert_true(info.bridge[0]);
	assert_false(info.bridge[1]);
	row_ruleset_info(&m.rows[1], &info);
	assert_true(info.conntrack && info.flowtable);
	assert_false(info.bridge[0] || info.bridge[1]);
	row_ruleset_info(&m.rows[2], &info);
	assert_true(info.bridge[0] && info.bridge[1]);
	assert_true(m.rows[0].ruleset_set && m.rows[1].ruleset_set && m.rows[2].ruleset_set);
	assert_false(info.flowtable);
	assert_int_equal(matrix_check_ruleset("openwrt-flowtable+bridge-both", err, sizeof(err)), 0);
	assert_int_equal(matrix_ruleset_parts("none", parts, err, sizeof(err)), 1);
	matrix_free(&m);
}

/* path=: routed by default, wlan a row of its own (its key says so), routed rows keep
 * the keys they had before path= existed */
static void test_path(void **state)
{
	static const char text[] =
		"kernel=nobrnf global=0 local=-\n"
		"kernel=nobrnf global=0 local=- path=wlan\n"
		"kernel=vanilla global=0 local=br-lan path=routed   # explicit default\n"
		"path=wlan local=br-lan expect=mismatch label=x\n";
	struct brnf_matrix m;
	char err[256] = "", key[256];

	(void)state;
	assert_int_equal(matrix_parse_buf("p.matrix", text, strlen(text), &m, err, sizeof(err)),
			 0);
	assert_int_equal(m.nrows, 4);
	assert_int_equal(m.rows[0].path, BRNF_PATH_ROUTED);
	assert_int_equal(m.rows[1].path, BRNF_PATH_WLAN);
	assert_int_equal(m.rows[2].path, BRNF_PATH_ROUTED);
	assert_int_equal(m.rows[3].path, BRNF_PATH_WLAN);
	assert_true(row_key(&m.rows[0], key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=nobrnf global=0 local=- ruleset=none");
	assert_true(row_key(&m.rows[1], key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=nobrnf global=0 local=- ruleset=none path=wlan");
	assert_true(row_key(&m.rows[2], key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=vanilla global=0 local=br-lan ruleset=none");
	assert_true(row_key(&m.rows[3], key, sizeof(key)) > 0);
	assert_string_equal(key, "kernel=running global=0 local=br-lan ruleset=none path=wlan "
				 "expect=mismatch");
	matrix_free(&m);

	/* a ruleset that tracks connections, on a path whose every bridge the row filters:
	 * br_netfilter's switches or the ruleset's bridge family */
	{
		static const char ct[] =
			"path=wlan ruleset=openwrt local=br-wlan\n"
			"path=wlan ruleset=openwrt global=iptables\n"
			"path=wlan ruleset=bridge-both\n"
			"path=wlan ruleset=policy-bridge-both\n"
			"path=wlan ruleset=policy-inet-both local=br-lan,br-wlan\n";

		assert_int_equal(matrix_parse_buf("c.matrix", ct, strlen(ct), &m, err,
						  sizeof(err)), 0);
		assert_int_equal(m.nrows, 5);
		matrix_free(&m);
	}

	assert_string_equal(brnf_path_names[BRNF_PATH_ROUTED], "routed");
	assert_string_equal(brnf_path_names[BRNF_PATH_WLAN], "wlan");
	assert_null(brnf_path_names[BRNF_NPATHS]);
	/* routed crosses both bridges, wlan br-wlan alone (brnf_bridge_names order) */
	assert_true(brnf_path_crosses(BRNF_PATH_ROUTED, 0));
	assert_true(brnf_path_crosses(BRNF_PATH_ROUTED, 1));
	assert_false(brnf_path_crosses(BRNF_PATH_WLAN, 0));
	assert_true(brnf_path_crosses(BRNF_PATH_WLAN, 1));
	assert_false(brnf_path_crosses(BRNF_PATH_WLAN, BRNF_NBRIDGES));
	assert_int_equal(matrix_parse_path("wlan", err, sizeof(err)), BRNF_PATH_WLAN);
	assert_int_equal(matrix_parse_path("", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad path '' (routed or wlan)");
}

static void test_key_too_small(void **state)
{
	struct brnf_row r = { .kernel = "running", .ruleset = "none" };
	char key[10];

	(void)state;
	assert_int_equal(row_key(&r, key, sizeof(key)), -ENOSPC);
	assert_int_equal(row_local_str(&r, key, 1), -ENOSPC);
}

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "foo=1", "t.matrix:1: unknown key 'foo' (known: kernel, global, local, ruleset, label, "
		   "expect, path)" },
	{ "path=bogus", "t.matrix:1: bad path 'bogus' (routed or wlan)" },
	{ "global=0\nglobal=1 path=", "t.matrix:2: bad path '' (routed or wlan)" },
	{ "path=wlan path=routed", "t.matrix:1: duplicate key 'path'" },
	{ "path=WLAN", "t.matrix:1: bad path 'WLAN' (routed or wlan)" },
	{ "path=wlan ruleset=openwrt",
	  "t.matrix:1: ruleset 'openwrt' tracks connections: with path=wlan, only where "
	  "br-wlan is filtered (local=, global= or the ruleset's bridge family), whose "
	  "bridged flow the verification's conntrack check reads" },
	{ "ruleset=bridge-lan path=wlan",
	  "t.matrix:1: ruleset 'bridge-lan' tracks connections: with path=wlan, only where "
	  "br-wlan is filtered (local=, global= or the ruleset's bridge family), whose "
	  "bridged flow the verification's conntrack check reads" },
	{ "expect=maybe", "t.matrix:1: bad expect 'maybe' (match or mismatch)" },
	{ "expect=match expect=mismatch", "t.matrix:1: duplicate key 'expect'" },
	{ "global=2",
	  "t.matrix:1: bad global value '2' (0, 1 or a list of iptables,ip6tables,arptables)" },
	{ "global=iptables,",
	  "t.matrix:1: bad global value 'iptables,' (0, 1 or a list of iptables,ip6tables,arptables)" },
	{ "global=iptables,ebtables",
	  "t.matrix:1: bad global value 'ebtables' (0, 1 or a list of iptables,ip6tables,arptables)" },
	{ "global=iptables,iptables", "t.matrix:1: 'iptables' listed twice in global" },
	{ "global=0 global=1", "t.matrix:1: duplicate key 'global'" },
	{ "kernel=a kernel=b", "t.matrix:1: duplicate key 'kernel'" },
	{ "local=br-foo", "t.matrix:1: unknown bridge 'br-foo' (known: br-lan, br-wlan)" },
	{ "local=br-lan,br-lan", "t.matrix:1: bridge 'br-lan' listed twice in local" },
	{ "local=", "t.matrix:1: bad local value '' (- or a list of bridges)" },
	{ "local=br-lan,,br-wlan", "t.matrix:1: bad local value 'br-lan,,br-wlan' (- or a list of bridges)" },
	{ "ruleset=pf", "t.matrix:1: unknown ruleset 'pf' (known: none, bridge-both, "
			"bridge-lan, openwrt, openwrt-flowtable, policy-bridge-both, "
			"policy-bridge-lan, policy-inet-both, policy-inet-lan)" },
	{ "ruleset=openwrt+pf", "t.matrix:1: unknown ruleset 'pf' (known: none, bridge-both, "
				"bridge-lan, openwrt, openwrt-flowtable, policy-bridge-both, "
				"policy-bridge-lan, policy-inet-both, policy-inet-lan)" },
	{ "ruleset=openwrt+", "t.matrix:1: unknown ruleset '' (known: none, bridge-both, "
			      "bridge-lan, openwrt, openwrt-flowtable, policy-bridge-both, "
			      "policy-bridge-lan, policy-inet-both, policy-inet-lan)" },
	{ "ruleset=openwrt+openwrt", "t.matrix:1: ruleset 'openwrt' listed twice in 'openwrt+openwrt'" },
	{ "ruleset=none+bridge-lan", "t.matrix:1: ruleset 'none+bridge-lan': none combines with nothing" },
	{ "ruleset=openwrt+bridge-lan+bridge-both+none+x",
	  "t.matrix:1: ruleset 'openwrt+bridge-lan+bridge-both+none+x' is longer than 31 characters" },
	{ "ruleset=none+none+none+none+none", "t.matrix:1: ruleset 'none' listed twice in 'none+none+none+none+none'" },
	{ "ruleset=openwrt+bridge-lan local=br-lan",
	  "t.matrix:1: ruleset 'openwrt+bridge-lan' filters in the bridge family: a row with it "
	  "sets no br_netfilter switch (global=0 local=-)" },
	{ "global=iptables ruleset=bridge-both",
	  "t.matrix:1: ruleset 'bridge-both' filters in the bridge family: a row with it "
	  "sets no br_netfilter switch (global=0 local=-)" },
	{ "kernel", "t.matrix:1: token 'kernel' is not key=value" },
	{ "=x", "t.matrix:1: token '=x' is not key=value" },
	{ "kernel=", "t.matrix:1: empty kernel" },
	{ "label=", "t.matrix:1: empty label" },
	{ "kernel=a;b", "t.matrix:1: bad character ';' (0x3b) in kernel 'a;b'" },
	{ "kernel=0123456789012345678901234567890123456789",
	  "t.matrix:1: kernel '0123456789012345678901234567890123456789...' is longer than 31 characters" },
	{ "\n# comment\n\nglobal=0\nglobal=x # bad\n",
	  "t.matrix:5: bad global value 'x' (0, 1 or a list of iptables,ip6tables,arptables)" },
	{ "# only a comment\n\n   \n", "t.matrix: no rows (every line is blank or a comment)" },
	{ "", "t.matrix: no rows (every line is blank or a comment)" },
};

static void test_errors(void **state)
{
	struct brnf_matrix m;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		m.nrows = 99;
		assert_int_equal(matrix_parse_buf("t.matrix", bad[i].text, strlen(bad[i].text),
						  &m, err, sizeof(err)), -EINVAL);
		if (strcmp(err, bad[i].msg))
			fail_msg("input '%s': got '%s', want '%s'", bad[i].text, err, bad[i].msg);
		assert_null(m.rows);
		assert_int_equal(m.nrows, 0);
	}
}

static void test_nul_byte(void **state)
{
	static const char text[] = "global=0\nglobal=1\0x\n";
	struct brnf_matrix m;
	char err[256] = "";

	(void)state;
	assert_int_equal(matrix_parse_buf("t.matrix", text, sizeof(text) - 1, &m, err,
					  sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.matrix:2: NUL byte in line");
}

static void test_missing_file(void **state)
{
	struct brnf_matrix m;
	char err[256] = "";

	(void)state;
	assert_int_equal(matrix_parse_file("/nonexistent/x.matrix", &m, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "/nonexistent/x.matrix: No such file or directory");
}

static void test_long_file(void **state)
{
	size_t n = 20000, i, off = 0;
	char *text = malloc(n * 16 + 1), err[256] = "";
	struct brnf_matrix m;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < n; i++)
		off += sprintf(text + off, "global=%zu\n", i % 2);
	assert_int_equal(matrix_parse_buf("big", text, off, &m, err, sizeof(err)), 0);
	assert_int_equal(m.nrows, n);
	assert_int_equal(m.rows[n - 1].line, n);
	assert_true(m.rows[n - 1].global[0]);
	matrix_free(&m);
	free(text);
}

/* brnf_rulesets[] is the files of rig/rulesets, each bridge it names a known one */
static void test_rulesets_are_the_files(void **state)
{
	const struct brnf_ruleset_file *rs;
	char dir[4096], err[256];
	struct dirent *de;
	size_t len, nfiles = 0, ntable = 0;
	int k;
	DIR *d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/../../../rulesets", UNIT_DATA_DIR);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len <= 4 || strcmp(de->d_name + len - 4, ".nft"))
			continue;
		nfiles++;
		for (rs = brnf_rulesets; rs->name; rs++)
			if (strlen(rs->name) == len - 4 && !strncmp(rs->name, de->d_name, len - 4))
				break;
		if (!rs->name)
			fail_msg("%s/%s is not in brnf_rulesets[]", dir, de->d_name);
	}
	closedir(d);
	for (rs = brnf_rulesets; rs->name; rs++) {
		ntable++;
		for (k = 0; rs->bridges[k]; k++)
			if (matrix_check_bridge(rs->bridges[k], err, sizeof(err)))
				fail_msg("ruleset %s: %s", rs->name, err);
	}
	assert_int_equal(ntable, nfiles);
	assert_string_equal(brnf_rulesets[0].name, "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_buf_crlf_and_no_final_newline),
		cmocka_unit_test(test_ruleset_set),
		cmocka_unit_test(test_ruleset_combined),
		cmocka_unit_test(test_rulesets_are_the_files),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_key_too_small),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_long_file),
	};

	unit_init();
	return cmocka_run_group_tests_name("matrix", tests, NULL, NULL);
}
