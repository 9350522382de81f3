/* SPDX-License-Identifier: GPL-2.0 */
/*
 * floor: the headline estimator of a pps cell's change, "the floor's change ± (S + w)"
 * (docs/methodology.md, "The headline estimator").
 *
 * The runs of a pps cell are every measured run in which pktgen counted no transmit
 * error (rowstats.c leaves the others out); each gives b = busy_us * 1000 / sent,
 * pktgen's busy time per packet (the c part of its result, raw.h).
 *
 * - Per cell: its floor F, the lowest b over every boot and test bed; each run's
 *   excess e = b - F; a run is raised when e >= FLOOR_RAISED_NS (less 1e-9, a rounding
 *   residue); its first level, the smallest e of a raised run (none when none is).
 * - Per results directory, over every pps cell of every pps workload, the baseline's
 *   included: S, the median of the cells' first levels (the mean of the middle two when
 *   their number is even), the typical first level; w, the largest excess of a run not
 *   raised, the spread within a level.
 * - The change of cell V against the cell B of its baseline row: pct = 100 (F_V - F_B) /
 *   F_B, h = 100 (S + w) / F_B, the interval [pct - h, pct + h], "indistinguishable"
 *   when it holds 0.
 *
 * That is a resolution bound, the floor's change known to one level, not a 95%
 * confidence interval. It is printed with the decimals of any change (two when the
 * interval is narrower than 0.2, else one), its low end rounded down and its high end
 * up to them (floor_round_out()), the change itself to the nearest.
 *
 * A pps cell whose runs, or its baseline's, lack the busy time keeps the mean over
 * boots with its 95% Welch interval (rowstats.h), marked FLOOR_FALLBACK_MARK; so does
 * every pps cell when no run of the directory is raised (S unknown).
 */
#ifndef BRNF_FLOOR_H
#define BRNF_FLOOR_H

#include <stdbool.h>
#include <stddef.h>

#include "raw.h"
#include "stats.h"

#define FLOOR_RAISED_NS 2.0	/* a run this much above its cell's floor is raised */
#define FLOOR_FALLBACK_MARK "¶"	/* a pps cell that keeps the mean over boots */

/* One pps cell's floor, over its runs' busy times. */
struct floor_cell {
	double floor;		/* F, ns/packet */
	double first;		/* its first level: the smallest excess of a raised run,
				 * NAN when no run is raised */
	double within;		/* the largest excess of a run not raised (0: the floor's
				 * own) */
	size_t n, raised;
};

/* A directory's S and w, over its pps cells with busy times. */
struct floor_bound {
	double S;		/* ns/packet, NAN when no cell has a raised run */
	double w;		/* ns/packet */
	size_t ncells;		/* pps cells with busy times */
	size_t nfirst;		/* those with a raised run: S is their median */
	size_t nfallback;	/* pps cells that keep the mean over boots */
};

/* Is a run @excess ns/packet above its cell's floor raised? */
bool floor_raised(double excess);

/*
 * The busy times per packet of the @n runs @vrun (indices into raw->runs) into @v;
 * false when one lacks it (no c part, or nothing sent), @v then undefined.
 */
bool floor_busy_values(const struct raw_set *raw, const size_t *vrun, size_t n, double *v);

/* The floor of @n values @b. 0, or -EINVAL when n is 0 or a value is not finite. */
int floor_cell(const double *b, size_t n, struct floor_cell *fc);

/* The median of @n values, sorted in place (the mean of the middle two when n is
 * even); NAN when n is 0. */
double floor_median(double *v, size_t n);

/* S and w over @n cells (floor_bound.nfallback left 0). 0 or -ENOMEM. */
int floor_bound_compute(const struct floor_cell *cells, size_t n, struct floor_bound *fb);

/*
 * The change of floor @fv against the baseline's floor @fbase, ± (S + w) of @fb, into
 * @c (dof NAN, has_interval set). 0, or -EINVAL when the baseline's floor is not
 * positive or S is unknown.
 */
int floor_change(double fv, double fbase, const struct floor_bound *fb,
		 struct stats_change *c);

/* @low rounded down and @high up to @dec decimals, into @lo and @hi (no -0). */
void floor_round_out(double low, double high, int dec, double *lo, double *hi);

/*
 * "+0.31% [+0.22, +0.41]": a change and its interval, two decimals when the interval
 * is narrower than 0.2, else one; with @outward its ends rounded outward
 * (floor_round_out()), else to the nearest.
 */
void floor_change_text(const struct stats_change *c, bool outward, char *buf, size_t len);

#endif /* BRNF_FLOOR_H */
