// SPDX-License-Identifier: GPL-2.0
/* A kernel's text symbols from nm, and address lookup (symtab.h). Only libc and
 * the rig's errbuf.c and file.c. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "file.h"
#include "symtab.h"

#define SYMTAB_MAX_FILE	(256u << 20)
#define SYMTAB_LAST_SIZE 4096

/* a whole hex number of 1..16 digits in [s, e) */
static bool parse_hex(const char *s, const char *e, uint64_t *v)
{
	uint64_t x = 0;
	const char *p;
	int d;

	if (e <= s || e - s > 16)
		return false;
	for (p = s; p < e; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return true;
}

struct raw_sym {
	uint64_t addr, size;
	bool has_size;
	char type;
	char *name;
};

static int rank(char type)
{
	return type == 'T' ? 0 : type == 't' ? 1 : 2;
}

static int cmp_raw(const void *a, const void *b)
{
	const struct raw_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* a function (sized) before a label at its address (_stext, _text) */
	if (x->has_size != y->has_size)
		return x->has_size ? -1 : 1;
	if (rank(x->type) != rank(y->type))
		return rank(x->type) - rank(y->type);
	return strcmp(x->name, y->name);
}

/* the words of [s, e) split at blanks, at most max; returns how many (max + 1: more) */
static size_t split_words(const char *s, const char *e, const char **w, const char **we,
			  size_t max)
{
	size_t n = 0;

	while (s < e) {
		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == e)
			break;
		if (n == max)
			return max + 1;
		w[n] = s;
		while (s < e && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		we[n++] = s;
	}
	return n;
}

int symtab_parse(const char *name, const char *text, size_t len, uint64_t mask,
		 struct symtab *st, char *err, size_t errlen)
{
	struct raw_sym *raw = NULL, *tmp;
	size_t nraw = 0, cap = 0, lineno = 0, i, j;
	const char *p = text, *end = text + len, *nl, *w[4], *we[4];
	int ret = -EINVAL;

	st->v = NULL;
	st->n = 0;
	while (p < end) {
		struct raw_sym r = { 0 };
		size_t nw;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		lineno++;
		nw = split_words(p, nl, w, we, 4);
		/* undefined symbols: "                 U name" (no address) */
		if (nw == 2 && we[0] - w[0] == 1 && (*w[0] == 'U' || *w[0] == 'w' ||
						     *w[0] == 'v')) {
			p = nl + 1;
			continue;
		}
		if (nw == 0) {
			p = nl + 1;
			continue;
		}
		if (nw < 3 || nw > 4) {
			seterr(err, errlen, "%s:%zu: want \"ADDR [SIZE] TYPE NAME\" (nm -n [-S])",
			      name, lineno);
			goto out_free;
		}
		if (!parse_hex(w[0], we[0], &r.addr)) {
			seterr(err, errlen, "%s:%zu: '%.*s' is not a hex address", name, lineno,
			      (int)(we[0] - w[0] > 40 ? 40 : we[0] - w[0]), w[0]);
			goto out_free;
		}
		if (nw == 4) {
			if (!parse_hex(w[1], we[1], &r.size)) {
				seterr(err, errlen, "%s:%zu: '%.*s' is not a hex size", name,
				      lineno, (int)(we[1] - w[1] > 40 ? 40 : we[1] - w[1]), w[1]);
				goto out_free;
			}
			r.has_size = true;
		}
		if (we[nw - 2] - w[nw - 2] != 1) {
			seterr(err, errlen, "%s:%zu: '%.*s' is not a one-letter symbol type", name,
			      lineno, (int)(we[nw - 2] - w[nw - 2] > 40 ? 40 :
					    we[nw - 2] - w[nw - 2]), w[nw - 2]);
			goto out_free;
		}
		r.type = *w[nw - 2];
		p = nl + 1;
		if (!strchr("tTwW", r.type))
			continue;
		r.addr &= mask;
		r.name = strndup(w[nw - 1], (size_t)(we[nw - 1] - w[nw - 1]));
		if (!r.name)
			goto out_nomem;
		if (nraw == cap) {
			cap = cap ? cap * 2 : 4096;
			tmp = realloc(raw, cap * sizeof(*raw));
			if (!tmp) {
				free(r.name);
				goto out_nomem;
			}
			raw = tmp;
		}
		raw[nraw++] = r;
	}
	if (!nraw) {
		seterr(err, errlen, "%s: no text symbol (types t T w W)", name);
		goto out_free;
	}
	qsort(raw, nraw, sizeof(*raw), cmp_raw);
	st->v = calloc(nraw, sizeof(*st->v));
	if (!st->v)
		goto out_nomem;
	/* one symbol per address: the first after sorting */
	for (i = 0; i < nraw; i = j) {
		uint64_t next = 0, e;
		bool has_next;

		for (j = i + 1; j < nraw && raw[j].addr == raw[i].addr; j++)
			;
		has_next = j < nraw;
		if (has_next)
			next = raw[j].addr;
		if (raw[i].has_size) {
			e = raw[i].addr + raw[i].size;
			if (e < raw[i].addr || (has_next && e > next))
				e = has_next ? next : UINT64_MAX;
		} else {
			e = has_next ? next : raw[i].addr + SYMTAB_LAST_SIZE;
			if (e < raw[i].addr)
				e = UINT64_MAX;
		}
		st->v[st->n].addr = raw[i].addr;
		st->v[st->n].end = e;
		st->v[st->n].name = raw[i].name;
		raw[i].name = NULL;
		st->n++;
	}
	ret = 0;
	goto out_free;

out_nomem:
	seterr(err, errlen, "%s: out of memory", name);
	ret = -ENOMEM;
out_free:
	for (i = 0; i < nraw; i++)
		free(raw[i].name);
	free(raw);
	if (ret)
		symtab_free(st);
	return ret;
}

int symtab_load(const char *path, uint64_t mask, struct symtab *st, char *err,
		size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	st->v = NULL;
	st->n = 0;
	ret = file_read(path, SYMTAB_MAX_FILE, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = symtab_parse(path, buf, len, mask, st, err, errlen);
	free(buf);
	return ret;
}

void symtab_free(struct symtab *st)
{
	size_t i;

	for (i = 0; st->v && i < st->n; i++)
		free(st->v[i].name);
	free(st->v);
	st->v = NULL;
	st->n = 0;
}

size_t symtab_lookup(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n, mid;

	if (!st->n || addr < st->v[0].addr)
		return SYMTAB_USER(st);
	/* the last symbol with addr <= address */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (st->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return addr < st->v[lo].end ? lo : SYMTAB_OTHER(st);
}

const char *symtab_name(const struct symtab *st, size_t i)
{
	if (i < st->n)
		return st->v[i].name;
	return i == SYMTAB_USER(st) ? SYMTAB_USER_NAME : SYMTAB_OTHER_NAME;
}

size_t symtab_find(const struct symtab *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->v[i].name, name))
			return i;
	return (size_t)-1;
}

size_t symtab_segments(const struct symtab *st, const uint64_t *addr, size_t n,
		       struct symtab_seg *seg)
{
	size_t i, k = 0, s;

	for (i = 0; i < n; i++) {
		s = symtab_lookup(st, addr[i]);
		if (k && seg[k - 1].sym == s) {
			seg[k - 1].n++;
			continue;
		}
		seg[k].sym = s;
		seg[k].n = 1;
		k++;
	}
	return k;
}
