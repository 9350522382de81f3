// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the rig file parser (rig/src/data/rigfile.c). */
#include "unit.h"

#include "rigfile.h"

#ifndef RIG_RIGS_DIR
#define RIG_RIGS_DIR UNIT_DATA_DIR "/../../../rigs"
#endif

static void test_shipped_netns(void **state)
{
	struct rig rig;
	char err[256] = "", line[1200];
	const struct rig_role *ap, *sta, *pc;

	(void)state;
	assert_int_equal(rig_parse_file(RIG_RIGS_DIR "/netns.rig", &rig, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_true(rig.testbed);
	assert_int_equal(rig.nroles, 3);
	ap = rig_role(&rig, "ap");
	sta = rig_role(&rig, "sta");
	pc = rig_role(&rig, "pc");
	assert_non_null(ap);
	assert_non_null(sta);
	assert_non_null(pc);
	assert_int_equal(ap->kind, RIG_AP);
	assert_int_equal(ap->transport, RIG_NETNS);
	assert_string_equal(rig_bridge_port(ap, "br-wlan"), "wlan0");
	assert_string_equal(rig_bridge_port(ap, "br-lan"), "eth0");
	assert_null(rig_bridge_port(ap, "br-guest"));
	assert_string_equal(pc->addr, "198.18.2.2");
	assert_true(rig_role_str(ap, line, sizeof(line)) > 0);
	assert_string_equal(line, "role=ap transport=netns bridge=br-wlan:wlan0 bridge=br-lan:eth0");
}

static void test_shipped_openwrt(void **state)
{
	struct rig rig;
	char err[256] = "", line[1200];
	const struct rig_role *ap;

	(void)state;
	assert_int_equal(rig_parse_file(RIG_RIGS_DIR "/openwrt-example.rig", &rig, err,
					sizeof(err)), 0);
	assert_false(rig.testbed);
	ap = rig_role(&rig, "ap");
	assert_int_equal(ap->transport, RIG_SSH);
	assert_string_equal(ap->dest, "root@192.168.1.1");
	assert_int_equal(rig_role(&rig, "pc")->transport, RIG_LOCAL);
	assert_int_equal(rig_role(&rig, "sta")->transport, RIG_SSH);
	assert_string_equal(rig_bridge_port(ap, "br-lan"), "lan1");
	assert_true(rig_role_str(rig_role(&rig, "sta"), line, sizeof(line)) > 0);
	assert_string_equal(line, "role=sta transport=ssh dest=user@192.168.2.20 addr=192.168.2.20");
}

static void test_all_keys(void **state)
{
	static const char text[] =
		"# comment\n\n"
		"role=ap transport=ssh dest=root@[2001:2::1] port=2222 identity=/k/id_ed25519 "
		"config=/k/cfg bridge=br-lan:lan1 bridge=br-wlan:phy0-ap0 # trailing\r\n"
		"\t role=sta transport=netns netns=brnf1-sta addr=198.18.1.2\n"
		"role=sta2 transport=local addr=2001:2:0:1::3\n"
		"role=pc transport=netns netns=brnf1-pc addr=198.18.2.2\n"
		"role=pc2 transport=ssh dest=pc2.example addr=pc2.example";	/* no final \n */
	const struct rig_role *out[RIG_MAX_ROLES];
	struct rig rig;
	char err[256] = "";

	(void)state;
	assert_int_equal(rig_parse_buf("t", text, strlen(text), &rig, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_false(rig.testbed);
	assert_int_equal(rig.nroles, 5);
	assert_int_equal(rig.roles[0].port, 2222);
	assert_string_equal(rig.roles[0].identity, "/k/id_ed25519");
	assert_string_equal(rig.roles[0].config, "/k/cfg");
	assert_string_equal(rig.roles[0].dest, "root@[2001:2::1]");
	assert_int_equal(rig.roles[0].line, 3);
	assert_int_equal(rig.roles[1].line, 4);
	assert_string_equal(rig.roles[1].netns, "brnf1-sta");
	assert_int_equal(rig_roles_of(&rig, RIG_STA, out, RIG_MAX_ROLES), 2);
	assert_string_equal(out[1]->name, "sta2");
	assert_int_equal(rig_roles_of(&rig, RIG_PC, out, RIG_MAX_ROLES), 2);
	assert_string_equal(out[1]->addr, "pc2.example");
	assert_int_equal(out[1]->line, 7);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "role=ap bridge=br-lan:a bridge=br-wlan:b\nrole=sta\nrole=pc addr=1.2.3.4\n"
		  "role=xx\n", "e:4: role 'xx' is unknown" },
		{ "role=sta10\n", "e:1: role 'sta10': use ap, sta, sta2..sta9, pc or pc2..pc9" },
		{ "role=sta1\n", "e:1: role 'sta1': use ap" },
		{ "transport=ssh\n", "e:1: no role= on this line" },
		{ "role=sta transport=telnet\n", "e:1: transport 'telnet' is unknown" },
		{ "role=sta transport=ssh\n", "e:1: role sta: transport=ssh needs dest=" },
		{ "role=sta dest=a@b\n", "e:1: role sta: dest= is only for transport=ssh" },
		{ "role=sta transport=local netns=brnf1\n", "e:1: role sta: netns= is only for" },
		{ "role=sta port=22 transport=ssh dest=h\n", "" },
		{ "role=sta transport=ssh dest=h port=0\n", "e:1: port '0' is not 1..65535" },
		{ "role=sta transport=ssh dest=h port=65536\n", "e:1: port '65536'" },
		{ "role=sta transport=ssh dest=h port=+22\n", "e:1: port '+22'" },
		{ "role=sta transport=ssh dest=h;reboot\n", "e:1: bad character ';' (0x3b) in dest=" },
		{ "role=sta transport=ssh dest=-oProxyCommand=x\n", "e:1: dest='-oProxyCommand=x' must not" },
		{ "role=sta transport=ssh dest=h identity=/a'b\n", "e:1: bad character '''" },
		{ "role=sta role=pc\n", "e:1: role= given twice" },
		{ "role=sta\nrole=sta\n", "e:2: role sta given twice (first on line 1)" },
		{ "role=sta foo=1\n", "e:1: unknown key 'foo'" },
		{ "role=sta foo\n", "e:1: 'foo' is not key=value" },
		{ "role=sta =x\n", "e:1: '=x' is not key=value" },
		{ "role=sta addr=\n", "e:1: empty addr=" },
		{ "role=sta bridge=br-lan:eth0\n", "e:1: role sta: bridge= is only for role=ap" },
		{ "role=ap bridge=br-lan\n", "e:1: bridge='br-lan': want BRIDGE:PORT" },
		{ "role=ap bridge=:eth0\n", "e:1: bridge=':eth0': want" },
		{ "role=ap bridge=br-guest:eth0\n", "e:1: bridge 'br-guest' is not one the matrix knows" },
		{ "role=ap bridge=br-lan:eth0 bridge=br-lan:eth1\n", "e:1: bridge br-lan given twice" },
		{ "role=ap bridge=br-lan:a$b\n", "e:1: bad character '$' (0x24) in bridge port=" },
		{ "role=ap bridge=br-lan:eth0\n", "e:1: role ap: bridge=br-wlan:PORT is missing" },
		{ "role=ap addr=1.2.3.4 bridge=br-lan:a bridge=br-wlan:b\n",
		  "e:1: role ap: addr= is only for sta and pc roles" },
		{ "role=pc\n", "e:1: role pc: addr= is needed" },
		{ "", "e: roles ap, sta and pc are needed (missing ap)" },
		{ "role=ap bridge=br-lan:a bridge=br-wlan:b\nrole=pc addr=x\n",
		  "e: roles ap, sta and pc are needed (missing sta)" },
		{ "role=ap bridge=br-lan:a bridge=br-wlan:b\nrole=sta2\nrole=pc addr=x\n",
		  "e: roles ap, sta and pc are needed (missing sta)" },
		{ "role=ap bridge=br-lan:a bridge=br-wlan:b\nrole=sta transport=local\n"
		  "role=pc addr=x\n", "e:1: role ap: netns= is needed" },
		{ "role=ap bridge=br-lan:a bridge=br-wlan:b\nrole=sta\nrole=sta2\nrole=pc addr=x\n",
		  "e: the namespace test bed has one sta and one pc" },
		{ "role=ap bridge=br-lan:a bridge=br-wlan:b\nrole=sta\nrole=pc addr=x\n", "" },
	};
	struct rig rig;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret;

		err[0] = '\0';
		ret = rig_parse_buf("e", cases[i].text, strlen(cases[i].text), &rig, err,
				    sizeof(err));
		if (!cases[i].want[0] && !strncmp(cases[i].text, "role=sta port", 13)) {
			/* a single line is fine by itself; the file misses ap and pc */
			assert_int_equal(ret, -EINVAL);
			assert_string_equal(err, "e: roles ap, sta and pc are needed (missing ap)");
			continue;
		}
		if (!cases[i].want[0]) {
			if (ret)
				fail_msg("case %zu: unexpected error %s", i, err);
			continue;
		}
		if (ret != -EINVAL || strncmp(err, cases[i].want, strlen(cases[i].want)))
			fail_msg("case %zu: got %d \"%s\", want \"%s...\"", i, ret, err,
				 cases[i].want);
		if (strchr(err, '\n'))
			fail_msg("case %zu: error has a newline", i);
	}
}

static void test_nul_and_long(void **state)
{
	static const char nul[] = "role=ap\0x\n";
	struct rig rig;
	char err[256] = "", *big;

	(void)state;
	assert_int_equal(rig_parse_buf("n", nul, sizeof(nul) - 1, &rig, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "n:1: NUL character");
	big = malloc(5000);
	assert_non_null(big);
	memset(big, 'a', 5000);
	assert_int_equal(rig_parse_buf("l", big, 5000, &rig, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "l:1: line longer than 4095 characters");
	free(big);
	/* a tiny error buffer is fine */
	assert_int_equal(rig_parse_buf("n", nul, sizeof(nul) - 1, &rig, err, 4), -EINVAL);
	assert_string_equal(err, "n:1");
}

static void test_missing_file(void **state)
{
	struct rig rig;
	char err[256] = "";

	(void)state;
	assert_int_equal(rig_parse_file("/nonexistent/x.rig", &rig, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/x.rig: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_netns),
		cmocka_unit_test(test_shipped_openwrt),
		cmocka_unit_test(test_all_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nul_and_long),
		cmocka_unit_test(test_missing_file),
	};

	unit_init();
	return cmocka_run_group_tests_name("rigfile", tests, NULL, NULL);
}
