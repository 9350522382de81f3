/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table: one column list, four renderers (Markdown, plain text, CSV, JSON).
 *
 * As in iproute2 misc/ss.c, a table is described once by its columns[] (header,
 * alignment, measured width). Columns flagged TC_TEXT appear in the Markdown and text
 * forms, columns flagged TC_DATA in the CSV and JSON forms; each renderer walks the same
 * array, so the forms cannot drift apart. A cell carries a display text (rounded, for
 * people) and a typed value (unrounded, for programs).
 *
 * A table may hold one row per member of a group (e.g. per cell of a matrix row): its
 * TC_GROUP columns describe the group. CSV repeats them on every line; JSON can put them
 * in the group's object and the other data columns in its members' (table_row_json()).
 */
#ifndef BRNF_TABLE_H
#define BRNF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

enum tcol_align { TA_LEFT, TA_RIGHT };

enum tcol_flags {
	TC_TEXT = 1 << 0,	/* Markdown and plain text */
	TC_DATA = 1 << 1,	/* CSV and JSON */
	TC_BOTH = TC_TEXT | TC_DATA,
	TC_GROUP = 1 << 2,	/* describes the group the row belongs to */
};

struct tcol {
	const char *header;	/* Markdown and text header */
	const char *key;	/* CSV header and JSON key */
	enum tcol_align align;
	unsigned int flags;
	bool hidden;		/* left out of the Markdown and text forms */
	unsigned int width;	/* measured: display width in the text form */
};

enum tval_type { TV_NULL, TV_STR, TV_NUM, TV_INT, TV_BOOL, TV_NUMS, TV_STRS };

struct tcell {
	char *text;		/* display text; NULL prints as "" */
	bool emph;		/* **bold** in Markdown */
	enum tval_type type;
	char *str;
	double *nums;		/* TV_NUMS: JSON array, CSV space separated */
	char **strs;		/* TV_STRS: the same */
	size_t nnums;		/* entries of nums or strs */
	double num;
	long long i;
	bool b;
};

struct table {
	struct tcol *cols;
	size_t ncols;
	struct tcell *cells;	/* nrows * ncols */
	size_t nrows, cap;
};

int table_init(struct table *t, const struct tcol *cols, size_t ncols);
void table_free(struct table *t);
/* Append an empty row; its index, or -ENOMEM. */
int table_add_row(struct table *t);
int table_col(const struct table *t, const char *key);	/* column index or -1 */

/* Setters; 0 or -ENOMEM. A NAN or infinite number is stored as null. */
int table_text(struct table *t, size_t row, size_t col, bool emph, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int table_str(struct table *t, size_t row, size_t col, const char *s);
int table_num(struct table *t, size_t row, size_t col, double v);
int table_int(struct table *t, size_t row, size_t col, long long v);
int table_bool(struct table *t, size_t row, size_t col, bool v);
int table_nums(struct table *t, size_t row, size_t col, const double *v, size_t n);
int table_strs(struct table *t, size_t row, size_t col, const char *const *v, size_t n);

/* Display width of UTF-8 text (code points; the tables use no wide characters). */
size_t utf8_width(const char *s);
/* Shortest "%.*g" form of @v that reads back as the same double. */
void num_shortest(double v, char *buf, size_t len);

int table_print_md(struct table *t, FILE *f);
int table_print_text(struct table *t, FILE *f);
/* The same for rows first .. first + n - 1 only (column widths measured on them). */
int table_print_md_rows(struct table *t, FILE *f, size_t first, size_t n);
int table_print_text_rows(struct table *t, FILE *f, size_t first, size_t n);
int table_print_csv(const struct table *t, FILE *f);

enum tjson_cols {
	TJ_ALL,		/* every TC_DATA column */
	TJ_GROUP,	/* TC_DATA columns with TC_GROUP */
	TJ_MEMBER,	/* TC_DATA columns without TC_GROUP */
};
/* One row as an object of the columns @which selects; NULL when out of memory. */
struct json_object *table_row_json(const struct table *t, size_t row, enum tjson_cols which);
/* Array of objects, one per row, TC_DATA columns only; NULL when out of memory. */
struct json_object *table_to_json(const struct table *t);

#endif /* BRNF_TABLE_H */
