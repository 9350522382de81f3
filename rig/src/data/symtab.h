/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symtab: a kernel's text symbols from `nm -n [-S] vmlinux`, and which symbol an
 * address belongs to. Shared by the QEMU plugin (rig/profile/insn-profile.c), which
 * counts executed instructions per symbol, and its unit tests. Only libc.
 *
 * Input lines: "ADDR TYPE NAME" or "ADDR SIZE TYPE NAME" (hex ADDR and SIZE). Only
 * text symbols (types t, T, w, W) are kept; lines of other types and undefined
 * symbols (no address) are skipped. A symbol covers [ADDR, ADDR + SIZE) cut at the
 * next symbol's address, or [ADDR, next symbol's ADDR) without a SIZE (the last one
 * without a SIZE: 4 KiB). Of several symbols at one address one is kept: one with a
 * SIZE (a function) before one without (a label such as _stext), then global (T)
 * before local (t) before weak, then the smallest name.
 *
 * Two buckets follow the symbols: SYMTAB_USER(st) for an address below the lowest
 * symbol (user space, on every guest the rig runs), SYMTAB_OTHER(st) for any other
 * address in no symbol (module text, gaps, code the vmlinux does not name).
 */
#ifndef BRNF_SYMTAB_H
#define BRNF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symtab_sym {
	uint64_t addr, end;	/* [addr, end) */
	char *name;
};

struct symtab {
	struct symtab_sym *v;
	size_t n;
};

#define SYMTAB_USER(st)		((st)->n)
#define SYMTAB_OTHER(st)	((st)->n + 1)
#define SYMTAB_NBUCKETS(st)	((st)->n + 2)
#define SYMTAB_USER_NAME	"[user]"
#define SYMTAB_OTHER_NAME	"[other]"

/*
 * Parse nm output @text (@len bytes) named @name in messages. Addresses are ANDed with
 * @mask (0xffffffff for a 32-bit guest: nm prints a 32-bit MIPS kernel's addresses
 * sign-extended to 64 bits). 0, or -EINVAL ("NAME:LINE: what is wrong" in err) or
 * -ENOMEM. No text symbol at all is an error too.
 */
int symtab_parse(const char *name, const char *text, size_t len, uint64_t mask,
		 struct symtab *st, char *err, size_t errlen);
/* symtab_parse() of the file @path. */
int symtab_load(const char *path, uint64_t mask, struct symtab *st, char *err,
		size_t errlen);
void symtab_free(struct symtab *st);

/* The index of the symbol @addr is in, or SYMTAB_USER(st) or SYMTAB_OTHER(st). */
size_t symtab_lookup(const struct symtab *st, uint64_t addr);
/* The name of bucket @i (a symbol or one of the two buckets). */
const char *symtab_name(const struct symtab *st, size_t i);
/* The index of the symbol named @name, or (size_t)-1. Linear: for a few markers. */
size_t symtab_find(const struct symtab *st, const char *name);

/* A run of consecutive instructions of one symbol within a translation block. */
struct symtab_seg {
	size_t sym;
	unsigned int n;
};

/*
 * Split the @n instruction addresses of a block, in execution order, into runs of one
 * symbol (at most @n runs in @seg). Returns the number of runs. Executing the block
 * once adds seg[i].n instructions to symbol seg[i].sym for each i.
 */
size_t symtab_segments(const struct symtab *st, const uint64_t *addr, size_t n,
		       struct symtab_seg *seg);

#endif /* BRNF_SYMTAB_H */
