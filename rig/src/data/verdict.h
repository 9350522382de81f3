/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict: what a results directory says in one line, and as a JSON summary, from
 * rowstats (the figures the tables show). A change counts when its 95% interval
 * excludes 0; it is worse or better by its workload's direction (ns/packet: lower
 * is better). Changes without an interval (one unit) are counted apart, not judged.
 *
 *   verdict: 4 of 8 changes against nobrnf · global 0 · no iface lie beyond their
 *   95% intervals (4 worse, 0 better), the largest vanilla · global 0 · br-lan pps64
 *   download +10.2% [+9.4, +10.9]; no row's filtering verification said no
 *
 * With rows of a path other than routed, each path's rows are compared with their
 * path's baseline and the line names every path's ("against A and B", B ending in
 * "· path wlan").
 *
 * With the floor estimator (rowstats.h) a pps cell's interval is its floor's change ±
 * one level, a resolution bound, and the line says so; a change's "estimator" in the
 * JSON summary says which ("floor" or "boots").
 *
 * The JSON summary (brnf run --json, brnf render --json) holds the directory, the
 * baseline (with other paths also "path_baselines"), the verdict (its counts, the
 * largest change and the line) and every change: row, workload, direction, unit, mean,
 * change_pct, change_low_pct, change_high_pct (null without an interval),
 * indistinguishable.
 */
#ifndef BRNF_VERDICT_H
#define BRNF_VERDICT_H

#include <stddef.h>

#include <json-c/json.h>

#include "rowstats.h"

struct verdict {
	size_t nchanges;	/* cells of the other rows with a change */
	size_t nworse, nbetter;	/* those whose 95% interval excludes 0 */
	size_t nsame;		/* whose interval contains 0 */
	size_t nsingle;		/* without an interval */
	const struct rrow *top;	/* the largest change beyond its interval, or NULL */
	int top_w, top_d;
	char text[768];		/* the line, without a newline */
};

void verdict_make(const struct rowstats *rs, struct verdict *v);
/* {"routed": key or null, "wlan": ...}: each path's baseline row (matrix.json and the
 * summary, when rs->any_path); NULL when out of memory. */
struct json_object *verdict_path_baselines_json(const struct rowstats *rs);
/* The JSON summary; NULL when out of memory. */
struct json_object *verdict_summary_json(const struct rowstats *rs, const struct verdict *v);

#endif /* BRNF_VERDICT_H */
