// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the kernel symbol table and the per-symbol attribution of executed
 * instructions that the QEMU plugin (rig/profile/insn-profile.c) does with it. */
#include "unit.h"

#include "symtab.h"

#define ALL UINT64_MAX

static void parse_ok(const char *text, uint64_t mask, struct symtab *st)
{
	char err[256] = "";

	if (symtab_parse("nm.txt", text, strlen(text), mask, st, err, sizeof(err)))
		fail_msg("symtab_parse: %s", err);
}

static void parse_err(const char *text, const char *want)
{
	struct symtab st;
	char err[256] = "";

	assert_int_equal(symtab_parse("nm.txt", text, strlen(text), ALL, &st, err,
				      sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
	assert_null(st.v);
}

/* nm -n -S: sizes, aliases, data and undefined symbols */
static void test_parse(void **state)
{
	struct symtab st;

	(void)state;
	parse_ok("                 U undefined_one\n"
		 "                 w weak_undefined\n"
		 "ffffffff81000000 0000000000000010 T _stext\n"
		 "ffffffff81000000 0000000000000010 t a_local_alias\n"
		 "ffffffff81000010 0000000000000020 t helper\n"
		 "ffffffff81000030 T no_size\n"
		 "ffffffff81000100 0000000000000008 D some_data\n"
		 "ffffffff81000200 0000000000000010 W weak_fn\n"
		 "\n", ALL, &st);
	assert_int_equal(st.n, 4);
	assert_string_equal(st.v[0].name, "_stext");	/* T before t at one address */
	assert_true(st.v[0].addr == 0xffffffff81000000ull);
	assert_true(st.v[0].end == 0xffffffff81000010ull);
	assert_string_equal(st.v[1].name, "helper");
	assert_true(st.v[1].end == 0xffffffff81000030ull);
	/* no size: up to the next text symbol (data symbols are not text) */
	assert_string_equal(st.v[2].name, "no_size");
	assert_true(st.v[2].end == 0xffffffff81000200ull);
	assert_string_equal(st.v[3].name, "weak_fn");
	assert_true(st.v[3].end == 0xffffffff81000210ull);
	assert_int_equal(symtab_find(&st, "helper"), 1);
	assert_true(symtab_find(&st, "some_data") == (size_t)-1);
	symtab_free(&st);
}

/* x86_64: _stext and _text label startup_64's address; the function is kept */
static void test_label_alias(void **state)
{
	struct symtab st;

	(void)state;
	parse_ok("ffffffff81000000 T _stext\n"
		 "ffffffff81000000 T _text\n"
		 "ffffffff81000000 0000000000000056 T startup_64\n"
		 "ffffffff81000060 00000000000001e5 T __startup_64\n", ALL, &st);
	assert_int_equal(st.n, 2);
	assert_string_equal(st.v[0].name, "startup_64");
	assert_true(st.v[0].end == 0xffffffff81000056ull);
	assert_int_equal(symtab_lookup(&st, 0xffffffff81000058ull), SYMTAB_OTHER(&st));
	symtab_free(&st);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_err("ffffffff81000000 T a\nxyz T b\n", "nm.txt:2: 'xyz' is not a hex address");
	parse_err("ffffffff81000000 T a\nffffffff81000010 zz T b\n",
		  "nm.txt:2: 'zz' is not a hex size");
	parse_err("ffffffff81000000 TT a\n", "nm.txt:1: 'TT' is not a one-letter symbol type");
	parse_err("ffffffff81000000 T a\n\nffffffff81000010\n", "nm.txt:3: want \"ADDR");
	parse_err("ffffffff81000000 1 2 T a\n", "nm.txt:1: want \"ADDR");
	parse_err("ffffffff81000000 D only_data\n", "nm.txt: no text symbol");
	parse_err("", "nm.txt: no text symbol");
}

/* a 32-bit guest: nm's sign-extended MIPS addresses cut to 32 bits */
static void test_mask32(void **state)
{
	struct symtab st;

	(void)state;
	parse_ok("ffffffff80100000 00000010 T kernel_entry\n", 0xffffffffu, &st);
	assert_true(st.v[0].addr == 0x80100000u);
	assert_int_equal(symtab_lookup(&st, 0x80100004u), 0);
	assert_int_equal(symtab_lookup(&st, 0x00400000u), SYMTAB_USER(&st));
	assert_int_equal(symtab_lookup(&st, 0x80100010u), SYMTAB_OTHER(&st));
	symtab_free(&st);
}

static const char seq_nm[] =
	"0000000000001000 0000000000000010 T fa\n"
	"0000000000001010 0000000000000030 t fb\n"
	"0000000000001040 0000000000000040 T fc\n"
	"0000000000002000 T fd\n";

static void test_lookup(void **state)
{
	struct symtab st;

	(void)state;
	parse_ok(seq_nm, ALL, &st);
	assert_int_equal(symtab_lookup(&st, 0x0fff), SYMTAB_USER(&st));
	assert_int_equal(symtab_lookup(&st, 0x1000), 0);
	assert_int_equal(symtab_lookup(&st, 0x100f), 0);
	assert_int_equal(symtab_lookup(&st, 0x1010), 1);
	assert_int_equal(symtab_lookup(&st, 0x107f), 2);
	assert_int_equal(symtab_lookup(&st, 0x1080), SYMTAB_OTHER(&st));	/* a gap */
	assert_int_equal(symtab_lookup(&st, 0x2000), 3);
	assert_int_equal(symtab_lookup(&st, 0x2fff), 3);	/* the last, no size: 4 KiB */
	assert_int_equal(symtab_lookup(&st, 0x3000), SYMTAB_OTHER(&st));
	assert_string_equal(symtab_name(&st, SYMTAB_USER(&st)), "[user]");
	assert_string_equal(symtab_name(&st, SYMTAB_OTHER(&st)), "[other]");
	assert_string_equal(symtab_name(&st, 2), "fc");
	symtab_free(&st);
}

/*
 * A known function sequence: translation blocks as the plugin sees them (instruction
 * addresses in order, one block falling through from fa into fb), each executed a
 * known number of times, counted the plugin's way (a run of one symbol adds its length
 * once per execution of the block) must give known counts per function.
 */
static void test_known_sequence(void **state)
{
	static const uint64_t tb1[] = { 0x1000, 0x1004, 0x1008, 0x100c, 0x1010, 0x1014 };
	static const uint64_t tb2[] = { 0x1040, 0x1048, 0x1050 };
	static const uint64_t tb3[] = { 0x400, 0x404 };	/* user space */
	static const uint64_t tb4[] = { 0x1090, 0x2000, 0x2004, 0x1044 };
	static const struct {
		const uint64_t *a;
		size_t n;
		unsigned int times;
	} trace[] = {
		{ tb1, 6, 3 }, { tb2, 3, 2 }, { tb3, 2, 7 }, { tb1, 6, 1 }, { tb4, 4, 5 },
	};
	struct symtab_seg seg[8];
	uint64_t counts[6] = { 0 }, total = 0;
	struct symtab st;
	size_t i, k, n;

	(void)state;
	parse_ok(seq_nm, ALL, &st);
	n = symtab_segments(&st, tb1, 6, seg);
	assert_int_equal(n, 2);
	assert_int_equal(seg[0].sym, 0);
	assert_int_equal(seg[0].n, 4);
	assert_int_equal(seg[1].sym, 1);
	assert_int_equal(seg[1].n, 2);
	/* tb4: [other], fd twice, then fc again: 3 runs */
	assert_int_equal(symtab_segments(&st, tb4, 4, seg), 3);
	for (i = 0; i < sizeof(trace) / sizeof(trace[0]); i++) {
		n = symtab_segments(&st, trace[i].a, trace[i].n, seg);
		for (unsigned int t = 0; t < trace[i].times; t++)
			for (k = 0; k < n; k++)
				counts[seg[k].sym] += seg[k].n;
	}
	assert_int_equal(counts[0], 4 * 4);		/* fa: tb1 x 4 */
	assert_int_equal(counts[1], 2 * 4);		/* fb: tb1's fall-through x 4 */
	assert_int_equal(counts[2], 3 * 2 + 1 * 5);	/* fc: tb2 x 2, tb4's last x 5 */
	assert_int_equal(counts[3], 2 * 5);		/* fd */
	assert_int_equal(counts[SYMTAB_USER(&st)], 2 * 7);
	assert_int_equal(counts[SYMTAB_OTHER(&st)], 1 * 5);
	for (k = 0; k < 6; k++)
		total += counts[k];
	assert_int_equal(total, 6 * 4 + 3 * 2 + 2 * 7 + 4 * 5);
	symtab_free(&st);
}

static void test_load(void **state)
{
	char path[] = "/tmp/brnf-symtab-XXXXXX", err[256];
	struct symtab st;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	spit(path, seq_nm, strlen(seq_nm));
	assert_int_equal(symtab_load(path, ALL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.n, 4);
	symtab_free(&st);
	unlink(path);
	assert_int_equal(symtab_load(path, ALL, &st, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_label_alias),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_mask32),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_known_sequence),
		cmocka_unit_test(test_load),
	};

	unit_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
