// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the table renderers (rig/src/data/table.c) against golden files. */
#include <math.h>

#include <json-c/json.h>

#include "unit.h"

#include "table.h"

enum { C_NAME, C_NOTE, C_RATE, C_RATE_MEAN, C_FLAG, C_SECRET, C_VALUES, C_NCOLS };

static const struct tcol cols[C_NCOLS] = {
	[C_NAME] = { "name", "name", TA_LEFT, TC_BOTH, false, 0 },
	[C_NOTE] = { "note", "note", TA_LEFT, TC_BOTH, false, 0 },
	[C_RATE] = { "rate Mbit/s", "rate", TA_RIGHT, TC_TEXT, false, 0 },
	[C_RATE_MEAN] = { "mean", "rate_mean_mbps", TA_RIGHT, TC_DATA, false, 0 },
	[C_FLAG] = { "ok", "ok", TA_LEFT, TC_BOTH, false, 0 },
	[C_SECRET] = { "hidden", "hidden", TA_LEFT, TC_BOTH, true, 0 },
	[C_VALUES] = { "values", "values", TA_LEFT, TC_DATA, false, 0 },
};

static void fill(struct table *t)
{
	int r;

	assert_int_equal(table_init(t, cols, C_NCOLS), 0);
	r = table_add_row(t);
	assert_int_equal(r, 0);
	table_text(t, r, C_NAME, false, "nobrnf");
	table_str(t, r, C_NAME, "nobrnf");
	table_text(t, r, C_NOTE, false, "a|b");
	table_str(t, r, C_NOTE, "comma, \"quote\"");
	table_text(t, r, C_RATE, false, "%.1f ± %.1f", 857.84, 0.26);
	table_num(t, r, C_RATE_MEAN, 857.84);
	table_text(t, r, C_FLAG, false, "yes");
	table_bool(t, r, C_FLAG, true);
	table_text(t, r, C_SECRET, false, "not shown");
	table_str(t, r, C_SECRET, "in data");
	table_nums(t, r, C_VALUES, (const double[]){ 857.7, 858, 1.0 / 3 }, 3);

	r = table_add_row(t);
	assert_int_equal(r, 1);
	table_text(t, r, C_NAME, false, "vanilla (brfilter-local)");
	table_str(t, r, C_NAME, "vanilla");
	/* no note: empty text, null value */
	table_text(t, r, C_RATE, false, "%.1f (n=1)", 1.0 / 3);
	table_num(t, r, C_RATE_MEAN, 1.0 / 3);
	table_text(t, r, C_FLAG, true, "no");
	table_bool(t, r, C_FLAG, false);
	table_nums(t, r, C_VALUES, NULL, 0);

	r = table_add_row(t);
	assert_int_equal(r, 2);
	table_text(t, r, C_NAME, false, "legacy");
	table_str(t, r, C_NAME, "legacy");
	table_text(t, r, C_RATE, false, "-");
	table_num(t, r, C_RATE_MEAN, NAN);	/* stored as null */
	table_text(t, r, C_FLAG, false, "n/a");
	table_int(t, r, C_FLAG, 42);
}

static char *render(struct table *t, int which, size_t *len)
{
	struct json_object *j;
	char *buf = NULL;
	FILE *f;

	f = open_memstream(&buf, len);
	assert_non_null(f);
	switch (which) {
	case 0:
		assert_int_equal(table_print_md(t, f), 0);
		break;
	case 1:
		assert_int_equal(table_print_text(t, f), 0);
		break;
	case 2:
		assert_int_equal(table_print_csv(t, f), 0);
		break;
	default:
		j = table_to_json(t);
		assert_non_null(j);
		fprintf(f, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_SPACED));
		json_object_put(j);
		break;
	}
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_golden(void **state)
{
	static const char *const golden[] = { "table.md", "table.txt", "table.csv",
					      "table.json" };
	struct table t;
	size_t len;
	char *out;
	int i;

	(void)state;
	fill(&t);
	for (i = 0; i < 4; i++) {
		out = render(&t, i, &len);
		assert_golden(golden[i], out, len);
		free(out);
	}
	table_free(&t);
	assert_null(t.cells);
}

/* The same column list drives every form: hiding a column removes it from the
 * Markdown and text forms only, and a data-only column never shows in them. */
static void test_columns_shared(void **state)
{
	struct table t;
	size_t len;
	char *md, *txt, *csv, *js;

	(void)state;
	fill(&t);
	md = render(&t, 0, &len);
	txt = render(&t, 1, &len);
	csv = render(&t, 2, &len);
	js = render(&t, 3, &len);
	assert_null(strstr(md, "not shown"));
	assert_null(strstr(txt, "not shown"));
	assert_non_null(strstr(csv, "in data"));
	assert_non_null(strstr(js, "in data"));
	assert_null(strstr(md, "rate_mean_mbps"));
	assert_non_null(strstr(csv, "rate_mean_mbps"));
	assert_null(strstr(csv, "rate Mbit/s"));
	assert_non_null(strstr(md, "**no**"));
	assert_non_null(strstr(md, "a\\|b"));
	/* unrounded numbers in the data forms */
	assert_non_null(strstr(csv, "0.3333333333333333"));
	assert_non_null(strstr(js, "0.3333333333333333"));
	free(md);
	free(txt);
	free(csv);
	free(js);

	t.cols[C_SECRET].hidden = false;
	md = render(&t, 0, &len);
	assert_non_null(strstr(md, "not shown"));
	free(md);
	table_free(&t);
}

static void test_helpers(void **state)
{
	char buf[40];

	(void)state;
	assert_int_equal(utf8_width("857.8 ± 0.3 †"), 13);
	assert_int_equal(utf8_width(""), 0);
	num_shortest(0.1, buf, sizeof(buf));
	assert_string_equal(buf, "0.1");
	num_shortest(1.0 / 3, buf, sizeof(buf));
	assert_string_equal(buf, "0.3333333333333333");
	assert_true(strtod(buf, NULL) == 1.0 / 3);
	num_shortest(857.84, buf, sizeof(buf));
	assert_string_equal(buf, "857.84");
	num_shortest(19285000539.183823, buf, sizeof(buf));
	assert_true(strtod(buf, NULL) == 19285000539.183823);
}

static void test_col_lookup(void **state)
{
	struct table t;

	(void)state;
	assert_int_equal(table_init(&t, cols, C_NCOLS), 0);
	assert_int_equal(table_col(&t, "rate_mean_mbps"), C_RATE_MEAN);
	assert_int_equal(table_col(&t, "nope"), -1);
	table_free(&t);
}

/* TC_GROUP columns go to the group's object, the others to the member's; TV_STRS is an
 * array in JSON and space separated in CSV (quoted when an entry needs it); a row range
 * prints and measures only its rows. */
static void test_groups_strs_ranges(void **state)
{
	enum { G_ROW, G_DIR, G_NAMES, G_NCOLS };
	static const struct tcol gcols[G_NCOLS] = {
		[G_ROW] = { "row", "row", TA_LEFT, TC_BOTH | TC_GROUP, false, 0 },
		[G_DIR] = { "direction", "direction", TA_LEFT, TC_BOTH, false, 0 },
		[G_NAMES] = { "names", "names", TA_LEFT, TC_DATA, false, 0 },
	};
	const char *const names[] = { "boot1/0001-pps64-download", "a,b" };
	struct json_object *j, *v;
	struct table t;
	char *buf = NULL;
	size_t len;
	FILE *f;
	int r;

	(void)state;
	assert_int_equal(table_init(&t, gcols, G_NCOLS), 0);
	r = table_add_row(&t);
	table_text(&t, r, G_ROW, false, "a-very-long-row-name");
	table_str(&t, r, G_ROW, "long");
	table_text(&t, r, G_DIR, false, "download");
	table_str(&t, r, G_DIR, "download");
	table_strs(&t, r, G_NAMES, names, 1);
	r = table_add_row(&t);
	table_text(&t, r, G_ROW, false, "b");
	table_str(&t, r, G_ROW, "b");
	table_text(&t, r, G_DIR, false, "up");
	table_str(&t, r, G_DIR, "up");
	table_strs(&t, r, G_NAMES, names, 2);

	j = table_row_json(&t, 1, TJ_GROUP);
	assert_non_null(j);
	assert_int_equal(json_object_object_length(j), 1);
	assert_true(json_object_object_get_ex(j, "row", &v));
	assert_string_equal(json_object_get_string(v), "b");
	json_object_put(j);
	j = table_row_json(&t, 1, TJ_MEMBER);
	assert_int_equal(json_object_object_length(j), 2);
	assert_false(json_object_object_get_ex(j, "row", &v));
	assert_true(json_object_object_get_ex(j, "names", &v));
	assert_int_equal(json_object_array_length(v), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 1)), "a,b");
	json_object_put(j);
	j = table_row_json(&t, 0, TJ_ALL);
	assert_int_equal(json_object_object_length(j), 3);
	json_object_put(j);

	f = open_memstream(&buf, &len);
	assert_int_equal(table_print_csv(&t, f), 0);
	fclose(f);
	assert_string_equal(buf, "row,direction,names\r\n"
				 "long,download,boot1/0001-pps64-download\r\n"
				 "b,up,\"boot1/0001-pps64-download a,b\"\r\n");
	free(buf);

	f = open_memstream(&buf, &len);
	assert_int_equal(table_print_text_rows(&t, f, 1, 1), 0);
	fclose(f);
	assert_string_equal(buf, "row  direction\n"
				 "--------------\n"
				 "b    up\n");
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(table_print_md_rows(&t, f, 1, 5), 0);	/* clipped at the end */
	fclose(f);
	assert_string_equal(buf, "| row | direction |\n"
				 "|:----|:----------|\n"
				 "| b   | up        |\n");
	free(buf);
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_columns_shared),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_col_lookup),
		cmocka_unit_test(test_groups_strs_ranges),
	};

	unit_init();
	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
