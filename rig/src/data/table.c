// SPDX-License-Identifier: GPL-2.0
/* table: one column list, four renderers, see table.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "table.h"

int table_init(struct table *t, const struct tcol *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = calloc(ncols, sizeof(*cols));
	if (!t->cols)
		return -ENOMEM;
	memcpy(t->cols, cols, ncols * sizeof(*cols));
	t->ncols = ncols;
	return 0;
}

static void strs_free(struct tcell *c)
{
	size_t i;

	for (i = 0; c->strs && i < c->nnums; i++)
		free(c->strs[i]);
	free(c->strs);
	c->strs = NULL;
}

static void cell_clear(struct tcell *c)
{
	free(c->text);
	free(c->str);
	free(c->nums);
	strs_free(c);
	memset(c, 0, sizeof(*c));
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		cell_clear(&t->cells[i]);
	free(t->cells);
	free(t->cols);
	memset(t, 0, sizeof(*t));
}

int table_add_row(struct table *t)
{
	struct tcell *tmp;
	size_t cap;

	if (t->nrows == t->cap) {
		cap = t->cap ? t->cap * 2 : 16;
		tmp = realloc(t->cells, cap * t->ncols * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		t->cells = tmp;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*tmp));
	return (int)t->nrows++;
}

int table_col(const struct table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (t->cols[i].key && !strcmp(t->cols[i].key, key))
			return (int)i;
	return -1;
}

static struct tcell *cell(const struct table *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

int table_text(struct table *t, size_t row, size_t col, bool emph, const char *fmt, ...)
{
	struct tcell *c = cell(t, row, col);
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	free(c->text);
	c->text = s;
	c->emph = emph;
	return 0;
}

static void value_clear(struct tcell *c)
{
	free(c->str);
	c->str = NULL;
	free(c->nums);
	c->nums = NULL;
	strs_free(c);
	c->nnums = 0;
	c->type = TV_NULL;
}

int table_str(struct table *t, size_t row, size_t col, const char *s)
{
	struct tcell *c = cell(t, row, col);

	value_clear(c);
	if (!s)
		return 0;
	c->str = strdup(s);
	if (!c->str)
		return -ENOMEM;
	c->type = TV_STR;
	return 0;
}

int table_num(struct table *t, size_t row, size_t col, double v)
{
	struct tcell *c = cell(t, row, col);

	value_clear(c);
	if (isfinite(v)) {
		c->type = TV_NUM;
		c->num = v;
	}
	return 0;
}

int table_int(struct table *t, size_t row, size_t col, long long v)
{
	struct tcell *c = cell(t, row, col);

	value_clear(c);
	c->type = TV_INT;
	c->i = v;
	return 0;
}

int table_bool(struct table *t, size_t row, size_t col, bool v)
{
	struct tcell *c = cell(t, row, col);

	value_clear(c);
	c->type = TV_BOOL;
	c->b = v;
	return 0;
}

int table_nums(struct table *t, size_t row, size_t col, const double *v, size_t n)
{
	struct tcell *c = cell(t, row, col);

	value_clear(c);
	c->nums = malloc((n ? n : 1) * sizeof(*v));
	if (!c->nums)
		return -ENOMEM;
	if (n)
		memcpy(c->nums, v, n * sizeof(*v));
	c->nnums = n;
	c->type = TV_NUMS;
	return 0;
}

int table_strs(struct table *t, size_t row, size_t col, const char *const *v, size_t n)
{
	struct tcell *c = cell(t, row, col);
	value_clear(c);
	c->strs = calloc(n ? n : 1, sizeof(*c->strs));
	if (!c->strs)
		return -ENOMEM;
	c->type = TV_STRS;
	for (c->nnums = 0; c->nnums < n; c->nnums++) {
		c->strs[c->nnums] = strdup(v[c->nnums]);
		if (!c->strs[c->nnums]) {
			value_clear(c);
			return -ENOMEM;
		}
	}
	return 0;
}

size_t utf8_width(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

void num_shortest(double v, char *buf, size_t len)
{
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static const char *text_of(const struct tcell *c)
{
	return c->text ? c->text : "";
}

/* Markdown form of a cell: '|' escaped, emphasis added. */
static char *md_cell(const struct tcell *c)
{
	const char *s = text_of(c);
	size_t n = strlen(s), i, o = 0;
	char *buf = malloc(2 * n + 5);

	if (!buf)
		return NULL;
	if (c->emph && *s)
		o += sprintf(buf, "**");
	for (i = 0; i < n; i++) {
		if (s[i] == '|' || s[i] == '\\')
			buf[o++] = '\\';
		buf[o++] = s[i];
	}
	if (c->emph && *s)
		o += sprintf(buf + o, "**");
	buf[o] = '\0';
	return buf;
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static void print_aligned(FILE *f, const char *s, size_t width, enum tcol_align a)
{
	size_t w = utf8_width(s);
	size_t fill = width > w ? width - w : 0;

	if (a == TA_RIGHT)
		pad(f, fill);
	fputs(s, f);
	if (a == TA_LEFT)
		pad(f, fill);
}

static bool shown(const struct tcol *c)
{
	return (c->flags & TC_TEXT) && !c->hidden;
}

int table_print_md_rows(struct table *t, FILE *f, size_t first, size_t n)
{
	size_t r, c, w, end = first + n > t->nrows ? t->nrows : first + n;
	char *s;

	for (c = 0; c < t->ncols; c++) {
		if (!shown(&t->cols[c]))
			continue;
		w = utf8_width(t->cols[c].header);
		if (w < 3)
			w = 3;
		for (r = first; r < end; r++) {
			s = md_cell(cell(t, r, c));
			if (!s)
				return -ENOMEM;
			if (utf8_width(s) > w)
				w = utf8_width(s);
			free(s);
		}
		t->cols[c].width = w;
	}
	fputc('|', f);
	for (c = 0; c < t->ncols; c++) {
		if (!shown(&t->cols[c]))
			continue;
		fputc(' ', f);
		print_aligned(f, t->cols[c].header, t->cols[c].width, TA_LEFT);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (c = 0; c < t->ncols; c++) {
		if (!shown(&t->cols[c]))
			continue;
		fputc(t->cols[c].align == TA_RIGHT ? '-' : ':', f);
		for (w = 0; w < t->cols[c].width; w++)
			fputc('-', f);
		fputs(t->cols[c].align == TA_RIGHT ? ":|" : "-|", f);
	}
	fputc('\n', f);
	for (r = first; r < end; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			if (!shown(&t->cols[c]))
				continue;
			s = md_cell(cell(t, r, c));
			if (!s)
				return -ENOMEM;
			fputc(' ', f);
			print_aligned(f, s, t->cols[c].width, t->cols[c].align);
			fputs(" |", f);
			free(s);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int table_print_md(struct table *t, FILE *f)
{
	return table_print_md_rows(t, f, 0, t->nrows);
}

static size_t last_shown(const struct table *t)
{
	size_t c, last = 0;

	for (c = 0; c < t->ncols; c++)
		if (shown(&t->cols[c]))
			last = c;
	return last;
}

#define TEXT_HEADER ((size_t)-1)

/* One line of the text table: row r, or the headers for TEXT_HEADER. No trailing
 * blanks: the last column is not padded on its right. */
static void print_text_line(const struct table *t, FILE *f, size_t r)
{
	size_t c, last = last_shown(t);
	bool first = true;
	const char *s;

	for (c = 0; c < t->ncols; c++) {
		if (!shown(&t->cols[c]))
			continue;
		if (!first)
			fputs("  ", f);
		s = r == TEXT_HEADER ? t->cols[c].header : text_of(cell(t, r, c));
		if (c == last && t->cols[c].align == TA_LEFT)
			fputs(s, f);
		else
			print_aligned(f, s, t->cols[c].width, t->cols[c].align);
		first = false;
	}
	fputc('\n', f);
}

int table_print_text_rows(struct table *t, FILE *f, size_t first, size_t n)
{
	size_t r, c, w, total = 0, end = first + n > t->nrows ? t->nrows : first + n;

	for (c = 0; c < t->ncols; c++) {
		if (!shown(&t->cols[c]))
			continue;
		w = utf8_width(t->cols[c].header);
		for (r = first; r < end; r++)
			if (utf8_width(text_of(cell(t, r, c))) > w)
				w = utf8_width(text_of(cell(t, r, c)));
		t->cols[c].width = w;
		total += w + (total ? 2 : 0);
	}
	print_text_line(t, f, TEXT_HEADER);
	for (w = 0; w < total; w++)
		fputc('-', f);
	fputc('\n', f);
	for (r = first; r < end; r++)
		print_text_line(t, f, r);
	return ferror(f) ? -EIO : 0;
}

int table_print_text(struct table *t, FILE *f)
{
	return table_print_text_rows(t, f, 0, t->nrows);
}

static void csv_quoted(FILE *f, const char *s, bool open, bool close)
{
	if (open)
		fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	if (close)
		fputc('"', f);
}

/* space separated, quoted as one field when any entry needs it */
static void csv_strs(FILE *f, const struct tcell *v)
{
	bool quote = false;
	size_t k;

	for (k = 0; k < v->nnums; k++)
		quote |= strpbrk(v->strs[k], ",\"\r\n") != NULL;
	if (quote)
		fputc('"', f);
	for (k = 0; k < v->nnums; k++) {
		if (k)
			fputc(' ', f);
		csv_quoted(f, v->strs[k], false, false);
	}
	if (quote)
		fputc('"', f);
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	csv_quoted(f, s, true, true);
}

int table_print_csv(const struct table *t, FILE *f)
{
	const struct tcell *v;
	bool first = true;
	char num[40];
	size_t r, c;

	for (c = 0; c < t->ncols; c++) {
		if (!(t->cols[c].flags & TC_DATA))
			continue;
		if (!first)
			fputc(',', f);
		csv_field(f, t->cols[c].key);
		first = false;
	}
	fputs("\r\n", f);
	for (r = 0; r < t->nrows; r++) {
		first = true;
		for (c = 0; c < t->ncols; c++) {
			if (!(t->cols[c].flags & TC_DATA))
				continue;
			if (!first)
				fputc(',', f);
			first = false;
			v = cell(t, r, c);
			switch (v->type) {
			case TV_STR:
				csv_field(f, v->str);
				break;
			case TV_NUM:
				num_shortest(v->num, num, sizeof(num));
				fputs(num, f);
				break;
			case TV_INT:
				fprintf(f, "%lld", v->i);
				break;
			case TV_BOOL:
				fputs(v->b ? "true" : "false", f);
				break;
			case TV_NUMS:
				for (size_t k = 0; k < v->nnums; k++) {
					num_shortest(v->nums[k], num, sizeof(num));
					fprintf(f, "%s%s", k ? " " : "", num);
				}
				break;
			case TV_STRS:
				csv_strs(f, v);
				break;
			case TV_NULL:
			default:
				break;
			}
		}
		fputs("\r\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

static struct json_object *cell_json(const struct tcell *v)
{
	struct json_object *a;
	char num[40];
	size_t k;

	switch (v->type) {
	case TV_STR:
		return json_object_new_string(v->str);
	case TV_NUM:
		num_shortest(v->num, num, sizeof(num));
		return json_object_new_double_s(v->num, num);
	case TV_INT:
		return json_object_new_int64(v->i);
	case TV_BOOL:
		return json_object_new_boolean(v->b);
	case TV_NUMS:
		a = json_object_new_array();
		for (k = 0; a && k < v->nnums; k++) {
			num_shortest(v->nums[k], num, sizeof(num));
			if (json_object_array_add(a, json_object_new_double_s(v->nums[k], num))) {
				json_object_put(a);
				return NULL;
			}
		}
		return a;
	case TV_STRS:
		a = json_object_new_array();
		for (k = 0; a && k < v->nnums; k++) {
			if (json_object_array_add(a, json_object_new_string(v->strs[k]))) {
				json_object_put(a);
				return NULL;
			}
		}
		return a;
	case TV_NULL:
	default:
		return NULL;
	}
}

static bool json_wanted(const struct tcol *c, enum tjson_cols which)
{
	if (!(c->flags & TC_DATA))
		return false;
	if (which == TJ_GROUP)
		return c->flags & TC_GROUP;
	if (which == TJ_MEMBER)
		return !(c->flags & TC_GROUP);
	return true;
}

struct json_object *table_row_json(const struct table *t, size_t r, enum tjson_cols which)
{
	struct json_object *row, *v;
	size_t c;

	row = json_object_new_object();
	if (!row)
		return NULL;
	for (c = 0; c < t->ncols; c++) {
		if (!json_wanted(&t->cols[c], which))
			continue;
		v = cell_json(cell(t, r, c));
		if (v == NULL && cell(t, r, c)->type != TV_NULL)
			goto out_put;
		if (json_object_object_add(row, t->cols[c].key, v))
			goto out_put;
	}
	return row;
out_put:
	json_object_put(row);
	return NULL;
}

struct json_object *table_to_json(const struct table *t)
{
	struct json_object *arr, *row;
	size_t r;

	arr = json_object_new_array();
	if (!arr)
		return NULL;
	for (r = 0; r < t->nrows; r++) {
		row = table_row_json(t, r, TJ_ALL);
		if (!row || json_object_array_add(arr, row)) {
			json_object_put(row);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}
