/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile: the instruction profiles of rig/profile/insn-profile.c (one file per boot,
 * raw/<part>/insn-profile.txt) read, matched to the pps runs of the same boot, and
 * attributed: per row, workload and direction, instructions per packet by kernel
 * symbol and their difference against the baseline row.
 *
 * File format (written by the plugin; every line is checked):
 *   brnf-insn-profile 1
 *   symbols NSYMS PATH
 *   markers START END
 *   cache-model SPEC        (optional, up to PROF_MAX_CACHES, before the first window)
 *                           a cache= of the plugin, NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE
 *   window N TOTAL          N = 1, 2, ... in order; TOTAL = the sum of its counts
 *   COUNT NAME              COUNT > 0; a NAME twice in a window (local symbols of one
 *   ...                     name in several files) is one symbol, the counts added
 *   cache NAME ifetch F imiss M dacc A dmiss D   after the symbols, one per
 *                           cache-model in its order (M <= F, D <= A): lines fetched
 *                           and missed, data lines accessed and missed in the window
 *   end N
 *   summary windows N restarts R stray_ends S open_at_exit 0|1   (last line, needed:
 *                           without it QEMU did not exit normally)
 * Anything else is an error "FILE:LINE: what is wrong".
 *
 * Matching: the part's pps runs (schema 2 measure records of pps64/pps1514) in their
 * order, against the windows in theirs. A window of fewer instructions than
 * PROF_SMALL_FRACTION of the next run's pktgen time in ns (a priming frame's run) is
 * passed over; the next one must lie within the tolerance of the run's pktgen time
 * (elapsed_us x 1000 ns: under -icount shift=0 a nanosecond of guest time is one
 * instruction), else it is an error naming both. A large window left over is an error.
 */
#ifndef BRNF_PROFILE_H
#define BRNF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cachesim.h"
#include "raw.h"

#define PROF_SMALL_FRACTION 0.1
#define PROF_MAX_CACHES 4
#define PROF_CACHE_NAME_LEN 32

/* a cache model's counts: line fetches and misses (I), line accesses and misses (D) */
enum { PROF_IFETCH, PROF_IMISS, PROF_DACC, PROF_DMISS, PROF_NCOUNTS };
extern const char *const prof_cache_count_names[PROF_NCOUNTS];

struct prof_cache {
	char name[PROF_CACHE_NAME_LEN];
	uint64_t v[PROF_NCOUNTS];
};

struct prof_entry {
	char *name;
	uint64_t count;
};

struct prof_window {
	unsigned long n;
	uint64_t total;
	size_t line;			/* of its "window" line */
	struct prof_entry *e;		/* sorted by name, names unique */
	size_t ne;
	struct prof_cache cache[PROF_MAX_CACHES];	/* the file's models, in order */
	size_t ncache;
};

struct prof_file {
	size_t nsyms;
	char start[128], end[128];
	struct prof_window *w;
	size_t nw;
	unsigned long restarts, stray_ends;
	int open_at_exit;
	struct cachesim_spec model[PROF_MAX_CACHES];
	size_t nmodel;
};

/* Parse @text (@len bytes) named @name. 0, or -EINVAL ("NAME:LINE: ..." in err) or
 * -ENOMEM. */
int prof_parse(const char *name, const char *text, size_t len, struct prof_file *pf,
	       char *err, size_t errlen);
void prof_free(struct prof_file *pf);

/* One symbol of a cell: mean instructions per packet over the cell's boots. */
struct prof_sym {
	char *name;
	double row, base, diff;		/* diff = row - base */
};

/* A row, workload and direction: its boots' profiles against the baseline row's. */
struct prof_cell {
	char key[RAW_KEY_LEN];
	char base_key[RAW_KEY_LEN];
	unsigned int row_index;
	enum brnf_workload workload;
	enum raw_dir dir;
	bool is_base;
	size_t nboots, base_nboots;
	/* means over boots, per packet: pktgen's ns (the measured value) and the profile's
	 * instructions (the sum of its symbols) */
	double measured, base_measured, profiled, base_profiled;
	/* the floor estimator of the measured change (floor.h): each side's floor, its
	 * lowest pktgen busy time per packet over every matched run, and the bound S + w
	 * over the result's cells (ns per packet); NAN when a side's runs lack the busy
	 * time or no run of any cell is raised */
	double floor, base_floor, bound;
	struct prof_sym *s;		/* every symbol of either side, by |diff| (row's
					 * value for the baseline), then name */
	size_t ns;
	/* the cache models, per packet, means over boots (the result's cache_names) */
	double cache_row[PROF_MAX_CACHES][PROF_NCOUNTS];
	double cache_base[PROF_MAX_CACHES][PROF_NCOUNTS];
	/* the lowest and highest per packet over every matched run of the row's cell
	 * (every run, not only the boots' values) */
	double cache_min[PROF_MAX_CACHES][PROF_NCOUNTS];
	double cache_max[PROF_MAX_CACHES][PROF_NCOUNTS];
	size_t cache_nruns;
};

struct prof_result {
	struct prof_cell *c;
	size_t nc;
	size_t nmatched, nskipped;	/* windows matched to runs, small ones passed over */
	double max_mark_dev;		/* largest |window - pktgen ns| / packets sent */
	double max_mark_rel;		/* the same in parts of the run's ns */
	struct cachesim_spec model[PROF_MAX_CACHES];	/* every profile models these
					 * caches, in this order */
	size_t ncache;
};

/* one more comparison beside each row's against its path's baseline: the row of key
 * @row against the row of key @base, in every workload and direction both have */
struct prof_pair {
	const char *row;
	const char *base;
	const char *where;		/* what an error about it starts with ("FILE:LINE"),
					 * or NULL: "pair N" */
};

struct prof_opts {
	double tolerance;		/* a window's allowed deviation from its run's pktgen
					 * time, a fraction (0.01) */
	bool part_best;			/* a boot's value: its best run (else the mean) */
	const struct prof_pair *pairs;	/* @npairs more comparisons (may be NULL) */
	size_t npairs;
};

/*
 * Attribute: @files[i] is part i's profile (NULL when the part has none: its runs are
 * left out). 0, or -EINVAL with "FILE: ..." in err (names from @names[i], the files'
 * paths), or -ENOMEM. A pair of @o whose rows share no workload and direction is
 * -EINVAL, "WHERE: ..." in err (the pair's where, else "pair N", N from 1).
 */
int prof_attribute(const struct raw_set *s, struct prof_file *const *files,
		   const char *const *names, const struct prof_opts *o,
		   struct prof_result *res, char *err, size_t errlen);
void prof_result_free(struct prof_result *res);

/* Markdown: per cell the @top symbols, the rest summed, the sums against the measured
 * change. */
void prof_write_md(FILE *f, const struct prof_result *res, size_t top);
/* CSV: every symbol of every cell. */
void prof_write_csv(FILE *f, const struct prof_result *res);
/* The cache models (res->ncache > 0): per cell and cache, misses per packet and the
 * cycles per packet estimated as instructions + penalty x misses for each of the
 * @npen penalties @pen (cycles). */
void prof_write_cache_md(FILE *f, const struct prof_result *res, const unsigned int *pen,
			 size_t npen);
void prof_write_cache_csv(FILE *f, const struct prof_result *res, const unsigned int *pen,
			  size_t npen);

#endif /* BRNF_PROFILE_H */
