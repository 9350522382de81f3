// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the L1 cache model the QEMU plugin runs with cache= (cachesim.h):
 * known access sequences give known hits and misses. */
#include "unit.h"

#include "cachesim.h"

static void geom(struct cachesim *c, unsigned int size, unsigned int ways, unsigned int line)
{
	struct cachesim_geom g = { size, ways, line };

	assert_int_equal(cachesim_init(c, &g), 0);
}

/* 2 sets x 2 ways x 16 bytes: LRU within a set, sets independent */
static void test_lru(void **state)
{
	struct cachesim c;

	(void)state;
	geom(&c, 64, 2, 16);
	assert_int_equal(c.sets, 2);
	/* lines 0, 2, 4 map to set 0; line 1 to set 1 */
	assert_int_equal(cachesim_access(&c, 0x00, 4), 1);	/* line 0: cold */
	assert_int_equal(cachesim_access(&c, 0x0c, 4), 0);	/* line 0 again */
	assert_int_equal(cachesim_access(&c, 0x20, 1), 1);	/* line 2 */
	assert_int_equal(cachesim_access(&c, 0x10, 8), 1);	/* line 1, set 1 */
	assert_int_equal(cachesim_access(&c, 0x00, 1), 0);	/* line 0: now MRU */
	assert_int_equal(cachesim_access(&c, 0x40, 1), 1);	/* line 4 evicts line 2 */
	assert_int_equal(cachesim_access(&c, 0x00, 1), 0);	/* line 0 stayed */
	assert_int_equal(cachesim_access(&c, 0x20, 1), 1);	/* line 2 was evicted */
	assert_int_equal(cachesim_access(&c, 0x10, 1), 0);	/* set 1 untouched */
	assert_int_equal(c.acc, 9);
	assert_int_equal(c.miss, 5);
	cachesim_reset(&c);
	assert_int_equal(c.acc, 0);
	assert_int_equal(cachesim_access(&c, 0x00, 1), 1);	/* reset invalidates */
	cachesim_free(&c);
}

/* an access across a line boundary touches both lines */
static void test_span(void **state)
{
	struct cachesim c;

	(void)state;
	geom(&c, 1024, 4, 32);
	assert_int_equal(cachesim_access(&c, 0x1e, 4), 2);
	assert_int_equal(c.acc, 2);
	assert_int_equal(cachesim_access(&c, 0x20, 32), 0);
	assert_int_equal(cachesim_access(&c, 0x00, 0), 0);	/* len 0 is one byte */
	/* a 64-bit address near the top wraps no counter */
	assert_int_equal(cachesim_access(&c, 0xffffffffffffffe0ull, 32), 1);
	assert_int_equal(c.acc, 5);
	cachesim_free(&c);
}

/* fetch: straight-line code reads each line once; a loop within a line hits */
static void test_fetch(void **state)
{
	struct cachesim c;
	uint64_t a;

	(void)state;
	geom(&c, 128, 1, 32);	/* direct mapped, 4 sets */
	for (a = 0; a < 64; a += 4)
		cachesim_fetch(&c, a, 4);
	assert_int_equal(c.acc, 2);
	assert_int_equal(c.miss, 2);
	/* a 7-byte instruction across lines 1 and 2 */
	assert_int_equal(cachesim_fetch(&c, 0x3d, 7), 1);
	assert_int_equal(c.acc, 3);
	/* a jump back to line 0 and on: line 0 hits, line 4 evicts it */
	assert_int_equal(cachesim_fetch(&c, 0x00, 4), 0);
	assert_int_equal(cachesim_fetch(&c, 0x80, 4), 1);
	assert_int_equal(cachesim_fetch(&c, 0x04, 4), 1);
	assert_int_equal(c.acc, 6);
	assert_int_equal(c.miss, 5);
	cachesim_free(&c);
}

/* 74Kc-like and A53-like geometries: a working set that fits hits after one pass */
static void test_working_set(void **state)
{
	struct cachesim c;
	uint64_t a;
	int pass;

	(void)state;
	geom(&c, 32768, 4, 32);
	for (pass = 0; pass < 2; pass++)
		for (a = 0; a < 32768; a += 8)
			cachesim_access(&c, 0xffffffff80000000ull + a, 8);
	assert_int_equal(c.miss, 1024);
	/* one line more than a set holds, in a loop: LRU misses every time */
	cachesim_reset(&c);
	for (pass = 0; pass < 3; pass++)
		for (a = 0; a < 5; a++)
			cachesim_access(&c, a * 8192, 4);
	assert_int_equal(c.miss, 15);
	cachesim_free(&c);
}

static void spec_err(const char *s, const char *want)
{
	struct cachesim_spec sp;
	char err[256] = "";

	assert_int_equal(cachesim_parse_spec(s, &sp, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': error '%s' does not say '%s'", s, err, want);
}

static void test_spec(void **state)
{
	struct cachesim_spec sp;
	char err[256] = "";

	(void)state;
	assert_int_equal(cachesim_parse_spec("74kc:65536:4:32:32768:4:32", &sp, err,
					     sizeof(err)), 0);
	assert_string_equal(sp.name, "74kc");
	assert_int_equal(sp.i.size, 65536);
	assert_int_equal(sp.i.ways, 4);
	assert_int_equal(sp.i.line, 32);
	assert_int_equal(sp.d.size, 32768);
	assert_int_equal(sp.d.line, 32);
	assert_int_equal(cachesim_parse_spec("a53:32768:2:64:32768:4:64", &sp, err,
					     sizeof(err)), 0);
	assert_int_equal(sp.i.ways, 2);
	spec_err("74kc", "want NAME:");
	spec_err(":1024:4:32:1024:4:32", "want NAME:");
	spec_err("a b:1024:4:32:1024:4:32", "NAME of letters");
	spec_err("x:1024:4:32", "want NAME:");
	spec_err("x:1024:4:32:1024:4", "want SIZE:WAYS:LINE");
	spec_err("x:1000:4:32:1024:4:32", "powers of two");
	spec_err("x:1024:4:32:1024:4:32:", "want SIZE:WAYS:LINE");
	spec_err("x:1024:64:32:1024:4:32", "WAYS x LINE at most SIZE");
	spec_err("x:1024:4:2:1024:4:32", "LINE at least 4");
	spec_err("x:1024:4:32:1024:-4:32", "whole numbers");
	spec_err("x:99999999999:4:32:1024:4:32", "whole numbers");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_fetch),
		cmocka_unit_test(test_working_set),
		cmocka_unit_test(test_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
