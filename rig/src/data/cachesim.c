// SPDX-License-Identifier: GPL-2.0
/* An L1 cache model: set associative, LRU, write-allocate (cachesim.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim.h"
#include "errbuf.h"

static bool pow2(unsigned long v)
{
	return v && !(v & (v - 1));
}

int cachesim_parse_geom(const char *s, size_t n, struct cachesim_geom *g, char *err,
			size_t errlen)
{
	unsigned long v[3];
	size_t i = 0, k;

	for (k = 0; k < 3; k++) {
		unsigned long x = 0;
		size_t d = 0;

		for (; i < n && s[i] >= '0' && s[i] <= '9' && d < 10; i++, d++)
			x = x * 10 + (unsigned long)(s[i] - '0');
		if (!d || (i < n && s[i] >= '0' && s[i] <= '9')) {
			seterr(err, errlen, "'%.*s': want SIZE:WAYS:LINE, whole numbers",
			       (int)n, s);
			return -EINVAL;
		}
		v[k] = x;
		if (k < 2) {
			if (i >= n || s[i] != ':') {
				seterr(err, errlen, "'%.*s': want SIZE:WAYS:LINE", (int)n, s);
				return -EINVAL;
			}
			i++;
		}
	}
	if (i != n) {
		seterr(err, errlen, "'%.*s': want SIZE:WAYS:LINE", (int)n, s);
		return -EINVAL;
	}
	if (!pow2(v[0]) || !pow2(v[1]) || !pow2(v[2]) || v[0] > (1ul << 30)) {
		seterr(err, errlen, "'%.*s': SIZE, WAYS and LINE must be powers of two "
		       "(SIZE at most 1 GiB)", (int)n, s);
		return -EINVAL;
	}
	if (v[2] < 4 || v[1] * v[2] > v[0]) {
		seterr(err, errlen, "'%.*s': LINE at least 4 and WAYS x LINE at most SIZE",
		       (int)n, s);
		return -EINVAL;
	}
	g->size = (unsigned int)v[0];
	g->ways = (unsigned int)v[1];
	g->line = (unsigned int)v[2];
	return 0;
}

int cachesim_parse_spec(const char *s, struct cachesim_spec *sp, char *err, size_t errlen)
{
	const char *c1 = strchr(s, ':'), *p;
	size_t i, colons = 0;
	char why[160];

	memset(sp, 0, sizeof(*sp));
	if (!c1 || c1 == s || (size_t)(c1 - s) >= sizeof(sp->name)) {
		seterr(err, errlen, "cache '%s': want NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE "
		       "(NAME 1 to %zu characters)", s, sizeof(sp->name) - 1);
		return -EINVAL;
	}
	for (p = s; p < c1; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.')) {
			seterr(err, errlen, "cache '%s': NAME of letters, digits, '-', '_' "
			       "and '.'", s);
			return -EINVAL;
		}
	memcpy(sp->name, s, (size_t)(c1 - s));
	p = c1 + 1;
	for (i = 0; p[i]; i++)
		if (p[i] == ':' && ++colons == 3)
			break;
	if (colons != 3) {
		seterr(err, errlen, "cache '%s': want NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE",
		       s);
		return -EINVAL;
	}
	if (cachesim_parse_geom(p, i, &sp->i, why, sizeof(why)) ||
	    cachesim_parse_geom(p + i + 1, strlen(p + i + 1), &sp->d, why, sizeof(why))) {
		seterr(err, errlen, "cache '%s': %s", s, why);
		return -EINVAL;
	}
	return 0;
}

int cachesim_init(struct cachesim *c, const struct cachesim_geom *g)
{
	memset(c, 0, sizeof(*c));
	c->g = *g;
	c->sets = g->size / (g->ways * g->line);
	while ((1u << c->line_shift) < g->line)
		c->line_shift++;
	c->tag = calloc((size_t)c->sets * g->ways, sizeof(*c->tag));
	return c->tag ? 0 : -ENOMEM;
}

void cachesim_free(struct cachesim *c)
{
	free(c->tag);
	c->tag = NULL;
}

void cachesim_reset(struct cachesim *c)
{
	memset(c->tag, 0, (size_t)c->sets * c->g.ways * sizeof(*c->tag));
	c->last = 0;
	c->acc = 0;
	c->miss = 0;
}

/* one line: 1 on a miss */
static unsigned int line_access(struct cachesim *c, uint64_t line)
{
	uint64_t *set = &c->tag[(size_t)(line & (c->sets - 1)) * c->g.ways];
	uint64_t t = line + 1;
	unsigned int w, hit;

	c->acc++;
	for (w = 0; w < c->g.ways && set[w] != t; w++)
		;
	hit = w < c->g.ways;
	if (!hit) {
		c->miss++;
		w = c->g.ways - 1;	/* the least recently used goes */
	}
	memmove(&set[1], &set[0], w * sizeof(*set));
	set[0] = t;
	return !hit;
}

/* every line of [addr, addr + len) (len 0: one byte); @fetch: not the line fetched
 * last */
static unsigned int lines(struct cachesim *c, uint64_t addr, unsigned int len, bool fetch)
{
	uint64_t l = addr >> c->line_shift, last = (addr + (len ? len : 1) - 1) >> c->line_shift;
	unsigned int m = 0;

	for (;; l++) {
		if (!fetch || c->last != l + 1) {
			m += line_access(c, l);
			if (fetch)
				c->last = l + 1;
		}
		if (l == last)
			break;
	}
	return m;
}

unsigned int cachesim_access(struct cachesim *c, uint64_t addr, unsigned int len)
{
	return lines(c, addr, len, false);
}

unsigned int cachesim_fetch(struct cachesim *c, uint64_t addr, unsigned int len)
{
	return lines(c, addr, len, true);
}
