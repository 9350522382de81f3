/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachesim: an L1 cache model, set associative with LRU replacement, for the QEMU
 * plugin (rig/profile/insn-profile.c, cache=) and its unit tests. Only libc.
 *
 * A cache of SIZE bytes, WAYS ways and LINE-byte lines (each a power of two, SIZE a
 * multiple of WAYS x LINE) is indexed and tagged by the address given (the plugin
 * gives guest virtual addresses). Every access allocates its line (loads and stores
 * alike: write-allocate), so a miss is a line that had to be filled.
 *
 * cachesim_access() is a data access: every line of [addr, addr + len) is one access.
 * cachesim_fetch() is an instruction fetch: the same, except that a line equal to the
 * one fetched last is not fetched again (a fetch unit reads a line once while it
 * executes straight through it).
 *
 * A spec for the plugin names an I and a D cache: NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE
 * (sizes in bytes), e.g. 74kc:65536:4:32:32768:4:32.
 */
#ifndef BRNF_CACHESIM_H
#define BRNF_CACHESIM_H

#include <stddef.h>
#include <stdint.h>

#define CACHESIM_NAME_LEN 32

struct cachesim_geom {
	unsigned int size, ways, line;
};

struct cachesim {
	struct cachesim_geom g;
	unsigned int sets, line_shift;
	uint64_t *tag;			/* sets x ways: line number + 1, 0 empty; most
					 * recently used first in each set */
	uint64_t last;			/* line fetched last + 1, 0 none */
	uint64_t acc, miss;
};

struct cachesim_spec {
	char name[CACHESIM_NAME_LEN];
	struct cachesim_geom i, d;
};

/* "SIZE:WAYS:LINE" at @s (up to @n bytes): 0, or -EINVAL with why in @err */
int cachesim_parse_geom(const char *s, size_t n, struct cachesim_geom *g, char *err,
			size_t errlen);
/* NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE: 0, or -EINVAL with why in @err */
int cachesim_parse_spec(const char *s, struct cachesim_spec *sp, char *err, size_t errlen);

/* 0, or -ENOMEM; @g must have parsed */
int cachesim_init(struct cachesim *c, const struct cachesim_geom *g);
void cachesim_free(struct cachesim *c);
/* every line invalid, the counters 0 */
void cachesim_reset(struct cachesim *c);
/* the misses of this access (also added to c->miss) */
unsigned int cachesim_access(struct cachesim *c, uint64_t addr, unsigned int len);
unsigned int cachesim_fetch(struct cachesim *c, uint64_t addr, unsigned int len);

#endif /* BRNF_CACHESIM_H */
