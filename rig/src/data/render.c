// SPDX-License-Identifier: GPL-2.0
/*
 * render: the files of a results directory from its raw data alone, see render.h.
 *
 * rowstats.c reads the runs and computes the statistics, rtables.c fills the tables;
 * this file writes matrix.md (main tables per workload, notes, spread tables, lost
 * packets, what was run), matrix.txt (the same for a terminal), matrix.csv (the cell
 * table) and matrix.json (parts, run, target, rows -> cells), each through a
 * temporary file and rename(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "errbuf.h"
#include "file.h"
#include "render.h"
#include "rowstats.h"
#include "rtables.h"
#include "verdict.h"

/* ---- what was run (from the raw data and provenance) ---------------------------- */

/* Distinct values in order of appearance, at most a few; a negative one is unknown. */
#define DISTINCT_MAX 8
struct distinct {
	double v[DISTINCT_MAX];
	size_t n;
	bool more;		/* there were more than DISTINCT_MAX */
};

struct summary {
	struct distinct flows[2];	/* tcp, tcp-bytes */
	struct distinct duration, omit, bytes, pkts, reps, parts;
};

static void distinct_add(struct distinct *d, double v)
{
	size_t j;

	for (j = 0; j < d->n; j++)
		if (d->v[j] == v)
			return;
	if (d->n == DISTINCT_MAX)
		d->more = true;
	else
		d->v[d->n++] = v;
}

/* "3 s" or "1 s, 3 s" (each with @unit) */
static const char *distinct_str(const struct distinct *d, const char *unit, char *buf, size_t len)
{
	size_t off = 0, i;
	char num[40];

	buf[0] = '\0';
	for (i = 0; i < d->n && off < len; i++) {
		if (d->v[i] == floor(d->v[i]) && fabs(d->v[i]) < 1e15)
			snprintf(num, sizeof(num), "%.0f", d->v[i]);
		else
			num_shortest(d->v[i], num, sizeof(num));
		if (d->v[i] < 0)
			off += snprintf(buf + off, len - off, "%sunknown", i ? ", " : "");
		else
			off += snprintf(buf + off, len - off, "%s%s%s", i ? ", " : "", num, unit);
	}
	if (d->more && off < len)
		snprintf(buf + off, len - off, ", ...");
	return buf;
}

/* [3] or [1, 3]: numbers (null for unknown), so that matrix.json is typed */
static struct json_object *distinct_json(const struct distinct *d)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < d->n; i++)
		json_object_array_add(a, d->v[i] < 0 ? NULL : d->v[i] == floor(d->v[i]) ?
				      json_object_new_int64(d->v[i]) :
				      json_object_new_double(d->v[i]));
	return a;
}

static void summarize(struct rowstats *rs, struct summary *sm)
{
	const struct raw_run *run;
	const struct rcell *c;
	size_t i;
	int w, d;

	memset(sm, 0, sizeof(*sm));
	for (i = 0; i < rs->raw.nruns; i++) {
		run = &rs->raw.runs[i];
		if (run->kind != RAW_MEASURE)
			continue;
		if (run->nflows)
			distinct_add(&sm->flows[run->workload == WL_TCP_BYTES], run->nflows);
		if (run->workload == WL_TCP) {
			distinct_add(&sm->duration, run->duration);
			distinct_add(&sm->omit, run->omit);
		}
		if (run->workload == WL_TCP_BYTES)
			distinct_add(&sm->bytes, run->bytes_per_flow);
		if (rowstats_is_pps(run->workload))
			distinct_add(&sm->pkts, run->pktgen.count);
	}
	for (w = 0; w < WL_N; w++) {
		for (i = 0; i < rs->nrows; i++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				c = &rs->rows[i].cell[w][d];
				if (!c->n)
					continue;
				distinct_add(&sm->reps, c->n);
				distinct_add(&sm->parts, c->u.nparts);
			}
		}
	}
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static void print_parts(struct rowstats *rs, FILE *f, const char *bullet)
{
	const struct raw_part *p;
	size_t i;

	for (i = 0; i < rs->raw.nparts; i++) {
		p = &rs->raw.parts[i];
		fprintf(f, "%s%s: kernel %s%s, clock %s, test bed %s", bullet, p->name,
			or_unknown(p->kernel_release),
			p->release_from_iperf ? " (from iperf3 system_info)" : "",
			or_unknown(p->clock), or_unknown(p->testbed));
		if (p->offloads[0])
			fprintf(f, " (offloads %s)", p->offloads);
		if (p->qemu)
			fprintf(f, " in a QEMU guest (%s; %s)", or_unknown(p->qemu_version),
				or_unknown(p->qemu_options));
		if (p->host_cpu[0])
			fprintf(f, ", host CPU %s", p->host_cpu);
		if (p->date[0])
			fprintf(f, ", %s", p->date);
		if (p->wall_seconds >= 0)
			fprintf(f, ", wall time %.0f s", p->wall_seconds);
		if (p->exit_status)
			fprintf(f, "; the guest's run ended with exit status %d", p->exit_status);
		fputc('\n', f);
	}
}

static bool any_icount(const struct rowstats *rs)
{
	size_t i;

	for (i = 0; i < rs->raw.nparts; i++)
		if (!strcmp(rs->raw.parts[i].clock, "icount"))
			return true;
	return false;
}

static bool any_pps(const struct rowstats *rs)
{
	return rs->has_wl[WL_PPS64] || rs->has_wl[WL_PPS1514];
}

enum cell_note { NOTE_LOST, NOTE_LEFT_OUT };

/*
 * One line per pps cell of workload @w that has @what: NOTE_LOST, runs whose received !=
 * sent; NOTE_LEFT_OUT, runs left out for pktgen's transmit errors.
 */
static void print_cell_notes(struct rowstats *rs, int w, FILE *f, const char *bullet,
			     enum cell_note what)
{
	const struct rcell *c;
	char buf[320];
	size_t i;
	int d;

	for (i = 0; i < rs->nrows; i++) {
		for (d = 0; d < RAW_NDIRS; d++) {
			c = &rs->rows[i].cell[w][d];
			if (what == NOTE_LOST ? !c->lost_runs : !c->error_runs)
				continue;
			fprintf(f, "%s%s %s, %s %s: ", bullet,
				what == NOTE_LOST ? LOST_MARK : ERROR_MARK, brnf_workloads[w].name,
				rowstats_row_text(&rs->rows[i].row, buf, sizeof(buf)), raw_dir_names[d]);
			if (what == NOTE_LOST)
				fprintf(f, "%zu of %zu runs received %llu packets of %llu sent "
					"(%s%llu)\n", c->lost_runs, c->n, c->received, c->sent,
					c->received > c->sent ? "+" : "-",
					c->received > c->sent ? c->received - c->sent :
								c->sent - c->received);
			else
				fprintf(f, "%zu of %zu runs left out, pktgen counted %llu transmit "
					"errors in them\n", c->error_runs, c->error_runs + c->n,
					c->errors);
		}
	}
}

/* What stands for a boot in the texts: run.txt part_value (rowstats.c). */
static const char *part_word(const struct rowstats *rs)
{
	return rs->raw.run_txt.part_best ? "best runs" : "means";
}

/* what a part stands for in a cell's units (run.txt part_value) */
static const char *part_units(const struct rowstats *rs)
{
	if (!rs->raw.run_txt.part_best)
		return "means";
	return rs->raw.run_txt.part_floor ? "best runs (run.txt part_value=floor: of a "
		"boot's runs, each on a test bed built anew, the lowest ns/packet or the "
		"highest Mbit/s, its cost without what a test bed draws on top)" :
		"best runs (run.txt part_value=best: of a boot's runs, each on a test bed "
		"built anew, the lowest ns/packet or the highest Mbit/s, its cost without "
		"what a test bed draws on top)";
}

static bool any_other(const struct rowstats *rs)
{
	int w;

	for (w = 0; w < WL_N; w++)
		if (rs->has_wl[w] && !rowstats_is_pps(w))
			return true;
	return false;
}

static bool any_target(const struct rowstats *rs)
{
	int w;

	for (w = 0; w < WL_N; w++)
		if (rs->has_wl[w] && rs->has_target[w])
			return true;
	return false;
}

/* Where the floor estimator came from, in the texts. */
static const char *floor_source(const struct rowstats *rs)
{
	return rs->raw.run_txt.part_floor ? "run.txt part_value=floor" :
	       "brnf render --estimator floor";
}

/* The notes' paragraph on a cell and its change with the floor estimator (floor.h). */
static void print_floor_note(struct rowstats *rs, FILE *f)
{
	const struct floor_bound *fb = &rs->fb;
	char keys[BRNF_NPATHS * (RAW_KEY_LEN + 4)];

	rowstats_base_keys(rs, "`", keys, sizeof(keys));
	fprintf(f, "\nA cell is the mean over its units ± the half-width of the 95%% "
		   "confidence interval (Student t, n-1 degrees of freedom). The units are "
		   "the parts' (boots') %s when the cell's runs come from two or more parts, "
		   "because runs in one boot are not independent, else its runs; \"parts × "
		   "runs\" says how many of each; \"n=1\" has no interval.\n\n",
		part_units(rs));
	fprintf(f, "Δ of a pps cell is the floor estimator's (%s; docs/methodology.md, "
		   "\"The headline estimator\"): the change of the cell's floor against the "
		   "floor of the baseline row %s(%s) in percent, ± (S + w) in percent of the "
		   "baseline's floor. A cell's floor is its lowest run over every boot and "
		   "test bed in pktgen's busy time per packet (the c part of its result: "
		   "the time it did not yield; \"busy floor\" in the spread table), not the "
		   "elapsed time of the mean column; a run lying %.0f ns/packet or more "
		   "above it is raised. ",
		floor_source(rs), rs->any_path ? "of its path " : "", keys, FLOOR_RAISED_NS);
	if (isnan(fb->S))
		fprintf(f, "No run of the %zu pps cells with busy times is raised, so the "
			   "level, S, is unknown: every pps cell keeps the change of the mean "
			   "over boots with its 95%% Welch interval (%s).\n\n", fb->ncells,
			FLOOR_FALLBACK_MARK);
	else
		fprintf(f, "S = %.2f ns/packet, the typical first level: the median, over "
			   "the %zu pps cells with a raised run, of each one's smallest raised "
			   "excess. w = %.2f ns/packet, the spread within a level: the largest "
			   "excess of a run not raised, over all %zu pps cells, the baseline's "
			   "included. **The interval is a resolution bound, the floor's change "
			   "known to one level, not a 95%% confidence interval**; its low end is "
			   "rounded down and its high end up; \"indistinguishable\" when it "
			   "holds 0. A positive change is a cost.\n\n",
			fb->S, fb->nfirst, fb->w, fb->ncells);
	if (fb->nfallback && !isnan(fb->S))
		fprintf(f, "%s a pps cell whose runs, or its baseline's, lack pktgen's busy "
			   "time: its Δ is the change of the mean over boots, with the 95%% "
			   "Welch interval of the difference divided by the baseline mean.\n\n",
			FLOOR_FALLBACK_MARK);
	if (any_other(rs))
		fprintf(f, "Δ of a cell of another workload: change of the mean against the "
			   "baseline row %s(%s) in percent, with the 95%% Welch interval of the "
			   "difference divided by the baseline mean; \"indistinguishable\" when "
			   "that interval contains 0. A positive change in Mbit/s is a gain.\n\n",
			rs->any_path ? "of its path " : "", keys);
	if (any_target(rs))
		fprintf(f, "\"reached ±%g%%\" (the target, %s): yes when the half-width of a "
			   "95%% Welch interval, (high - low) / 2, is at most %g%%; for the "
			   "baseline row, when its own 95%% half-width in percent of its mean "
			   "is. The pps cells have none: a floor's bound does not narrow with "
			   "more boots.\n\n", rs->target, rs->target_src, rs->target);
}

static void print_notes(struct rowstats *rs, FILE *f)
{
	char keys[BRNF_NPATHS * (RAW_KEY_LEN + 4)];

	fprintf(f, "## How to read the tables\n\n");
	if (any_pps(rs))
		fprintf(f, "- %s: kernel pktgen's time per packet sent, `elapsed_us` "
			   "× 1000 / `sent`, in nanoseconds per packet (lower is better); under "
			   "`-icount` guest time counts instructions, so this is instructions "
			   "per packet of the whole path (sender, AP, receiver's ingress). Mpps "
			   "= sent / elapsed_us; wire Mbit/s = received × (pkt_size + 4) × 8 / "
			   "elapsed_us.\n", rs->has_wl[WL_PPS64] && rs->has_wl[WL_PPS1514] ?
			"pps64, pps1514" : rs->has_wl[WL_PPS64] ? "pps64" : "pps1514");
	if (rs->has_wl[WL_TCP_BYTES])
		fprintf(f, "- tcp-bytes: the bytes received over all parallel flows (iperf3 "
			   "`-n`, `end.sum_received.bytes`) × 8 / the longest flow's receive "
			   "time, in Mbit/s.\n");
	if (rs->has_wl[WL_TCP])
		fprintf(f, "- tcp: the receiver's rate (iperf3 `end.sum_received`) summed over "
			   "the parallel flows of a run, in Mbit/s (10^6 bit/s).\n");
	if (rs->floor)
		print_floor_note(rs, f);
	else
		fprintf(f, "\nA cell is the mean over its units ± the half-width of the 95%% "
			   "confidence interval (Student t, n-1 degrees of freedom). The units "
			   "are the parts' (boots') %s when the cell's runs come from two or more "
			   "parts, because runs in one boot are not independent, else its runs; "
			   "\"parts × runs\" says how many of each; \"n=1\" has no interval. "
			   "Δ: change of the mean against the baseline row %s(%s) in percent, "
			   "with the 95%% Welch interval of the difference divided by the "
			   "baseline mean; \"indistinguishable\" when that interval contains "
			   "0.%s \"reached ±%g%%\" (the target, %s): yes when the half-width of "
			   "that interval, (high - low) / 2, is at most %g%%; for the baseline "
			   "row, when its own 95%% half-width in percent of its mean is.\n\n",
			part_units(rs), rs->any_path ? "of its path " : "",
			rowstats_base_keys(rs, "`", keys, sizeof(keys)),
			any_pps(rs) ? " A positive change in ns/packet is a "
			"cost, in Mbit/s a gain." : "", rs->target, rs->target_src, rs->target);
	if (rs->any_v2)
		fprintf(f, "Filtering verified: measured runs load no counting rules. A "
			   "verification pass of each row in each part (boot), in the same "
			   "configuration, loads them for its own traffic only (iptables "
			   "`physdev` counters where br_netfilter exists; `-i` rules where it "
			   "does not, whose result is n/a) and shows whether exactly the bridges "
			   "the row configured passed their frames to iptables (yes: every pass "
			   "that can tell; no: some pass did not, the row's numbers do not "
			   "measure what it claims; n/a: not checked; missing: a part with "
			   "measured runs of the row but no pass; \"no (readback)\": a flag read "
			   "back differed from the row; \"no (expected)\": a row marked "
			   "expect=mismatch, which shows a design that ignores its "
			   "configuration, and it did).\n\n");
	if (rs->any_v1)
		fprintf(f, "Filtering verified%s: iptables `physdev` counters in the AP "
			   "namespace show whether exactly the bridges the row configured passed "
			   "their frames to iptables (yes: every run; no: some run did not, the "
			   "row's numbers do not measure what it claims; n/a: not checked; "
			   "partial: some runs yes, the others not checked; \"no (readback)\": a "
			   "flag read back differed from the row; \"no (expected)\": a row marked "
			   "expect=mismatch, which shows a design that ignores its "
			   "configuration, and it did). These runs (raw schema 1) were measured "
			   "with the counting rules loaded.\n\n",
			rs->any_v2 ? " (raw schema 1 runs)" : "");
	if (rs->any_path)
		fprintf(f, "Path: the way the row's measured flows take through the AP. routed: "
			   "sta <-> pc, into one bridge, routed, out of the other; wlan: sta <-> "
			   "sta2 on br-wlan, bridged, never routed (upload sta -> sta2, download "
			   "sta2 -> sta). A row is compared with the baseline of its path, and a "
			   "wlan row's filtering is verified on br-wlan alone: br-lan carries none "
			   "of its flow.\n\n");
	fprintf(f, "%s CV (sd/mean) of the units above 3%%: they spread widely, possibly "
		   "between modes; see the spread table.\n\n", CV_MARK);
	if (rs->nlost_cells)
		fprintf(f, "%s some runs of the cell received a different number of packets "
			   "than pktgen sent (the value is per packet sent): see \"Lost "
			   "packets\".\n\n", LOST_MARK);
	if (rs->nerror_cells)
		fprintf(f, "%s some pps runs of the cell were left out: pktgen counted transmit "
			   "errors in them (its device refused frames, and it sent them again "
			   "until the count was reached), not the one transmission per frame "
			   "that a time per frame assumes; see \"Runs left out\". Their raw "
			   "records stay in raw/.\n\n", ERROR_MARK);
	if (any_icount(rs))
		fprintf(f, "Clock `icount`: guest time advances one nanosecond per executed "
			   "instruction, so a rate measures instructions per byte%s: every "
			   "instruction costs the same, and no pipeline, issue width, cache or "
			   "memory latency of a real CPU is modelled.\n\n",
			any_pps(rs) ? " (ns/packet: instructions per packet)" : "");
}

/* why workload @w has no target */
static const char *no_target_why(const struct rowstats *rs, int w)
{
	return rs->floor && rowstats_is_pps(w) ? "the floor estimator: its bound does not "
	       "narrow with more boots" : "run.txt target_workloads";
}

static void print_run(struct rowstats *rs, const struct summary *sm, FILE *f)
{
	char buf[160], b2[160];
	int w, n;

	for (w = 0; w < WL_N; w++) {
		if (!rs->has_wl[w])
			continue;
		fprintf(f, "- %s: %s", brnf_workloads[w].name, brnf_workloads[w].what);
		if (rowstats_is_pps(w))
			fprintf(f, "; packets per run: %s",
				distinct_str(&sm->pkts, "", buf, sizeof(buf)));
		else
			fprintf(f, "; flows per run: %s",
				distinct_str(&sm->flows[w == WL_TCP_BYTES], "", buf, sizeof(buf)));
		if (w == WL_TCP_BYTES)
			fprintf(f, "; bytes per flow: %s",
				distinct_str(&sm->bytes, "", buf, sizeof(buf)));
		if (w == WL_TCP)
			fprintf(f, "; duration: %s, omitted warm-up: %s",
				distinct_str(&sm->duration, " s", buf, sizeof(buf)),
				distinct_str(&sm->omit, " s", b2, sizeof(b2)));
		fputc('\n', f);
	}
	fprintf(f, "- runs per cell: %s, from parts: %s (%zu measured runs, %zu verification "
		   "passes, in %zu part%s)\n", distinct_str(&sm->reps, "", buf, sizeof(buf)),
		distinct_str(&sm->parts, "", b2, sizeof(b2)), rs->nmeasured, rs->npasses,
		rs->raw.nparts, rs->raw.nparts == 1 ? "" : "s");
	if (!rs->ncounting)
		fprintf(f, "- counting rules during measured runs: none\n");
	else
		fprintf(f, "- counting rules during measured runs: loaded in %zu of %zu\n",
			rs->ncounting, rs->nmeasured);
	if (rs->floor && !any_target(rs)) {
		fprintf(f, "- target: none (%s)\n", no_target_why(rs, WL_PPS64));
	} else {
		fprintf(f, "- target: 95%% half-width of a change at most %g%% (%s), for",
			rs->target, rs->target_src);
		for (n = 0, w = 0; w < WL_N; w++)
			if (rs->has_wl[w] && rs->has_target[w])
				fprintf(f, "%s %s", n++ ? "," : "", brnf_workloads[w].name);
		fputc('\n', f);
	}
	if (rs->floor && isnan(rs->fb.S))
		fprintf(f, "- estimator of the pps cells' changes: the floor's change ± (S + "
			   "w) (%s), but no run is raised: S unknown, the mean over boots "
			   "instead\n", floor_source(rs));
	else if (rs->floor)
		fprintf(f, "- estimator of the pps cells' changes: the floor's change ± (S + "
			   "w) (%s): S = %.2f ns/packet over %zu cells with a raised run, w = "
			   "%.2f ns/packet over %zu pps cells, S + w = %.2f ns/packet\n",
			floor_source(rs), rs->fb.S, rs->fb.nfirst, rs->fb.w, rs->fb.ncells,
			rs->fb.S + rs->fb.w);
	if (rs->floor && rs->fb.nfallback)
		fprintf(f, "- %s %zu pps cell%s the change of the mean over boots: its runs or "
			   "its baseline's lack pktgen's busy time\n", FLOOR_FALLBACK_MARK,
			rs->fb.nfallback, rs->fb.nfallback == 1 ? " keeps" : "s keep");
}

static int write_md(struct rowstats *rs, struct rtables *tb, const struct summary *sm,
		    FILE *f)
{
	int w, ret;

	fprintf(f, "# brnf matrix\n\n");
	for (w = 0; w < WL_N; w++) {
		if (!rs->has_wl[w])
			continue;
		fprintf(f, "## %s: %s, %s is better\n\n%s.\n\n", brnf_workloads[w].name,
			brnf_workloads[w].unit, brnf_workloads[w].lower_better ? "lower" : "higher",
			brnf_workloads[w].what);
		ret = table_print_md(&tb->mains[w], f);
		if (ret)
			return ret;
		if (!rs->has_target[w])
			fprintf(f, "\nNo target for %s (%s).\n", brnf_workloads[w].name,
				no_target_why(rs, w));
		fputc('\n', f);
	}
	print_notes(rs, f);
	fprintf(f, "## Spread per cell\n\n");
	for (w = 0; w < WL_N; w++) {
		if (!rs->has_wl[w])
			continue;
		fprintf(f, "### %s (%s)\n\n", brnf_workloads[w].name, brnf_workloads[w].unit);
		rtables_spread_show(tb, w);
		ret = table_print_md_rows(&tb->cells, f, tb->wl_first[w], tb->wl_rows[w]);
		if (ret)
			return ret;
		fputc('\n', f);
	}
	fprintf(f, "Values in the workload's unit; mean, sd, CV, min and max over the units. "
		   "\"units in order\": the parts' (boots') %s in part name order when the "
		   "cell has two or more parts, so that boot-to-boot modes show, else every "
		   "run in run order (matrix.json holds every run). \"reps for 2%%\": units "
		   "per row that would detect a 2%% change at this sd (two-sample, 95%%, 80%% "
		   "power, normal approximation).\n\n",
		part_word(rs));
	if (rs->nlost_cells) {
		fprintf(f, "## Lost packets\n\n");
		for (w = 0; w < WL_N; w++)
			print_cell_notes(rs, w, f, "- ", NOTE_LOST);
		fputc('\n', f);
	}
	if (rs->nerror_cells) {
		fprintf(f, "## Runs left out\n\n");
		for (w = 0; w < WL_N; w++)
			print_cell_notes(rs, w, f, "- ", NOTE_LEFT_OUT);
		fputc('\n', f);
	}
	fprintf(f, "## What was run\n\n");
	print_run(rs, sm, f);
	print_parts(rs, f, "- ");
	if (rs->nverify_no)
		fprintf(f, "\n**Filtering verification failed for %u row%s.**\n",
			rs->nverify_no, rs->nverify_no == 1 ? "" : "s");
	return ferror(f) ? -EIO : 0;
}

static int write_txt(struct rowstats *rs, struct rtables *tb, const struct summary *sm,
		     FILE *f)
{
	char keys[BRNF_NPATHS * (RAW_KEY_LEN + 4)];
	int w, ret;

	for (w = 0; w < WL_N; w++) {
		if (!rs->has_wl[w])
			continue;
		fprintf(f, "%s: %s, %s is better\n\n", brnf_workloads[w].name,
			brnf_workloads[w].unit, brnf_workloads[w].lower_better ? "lower" : "higher");
		ret = table_print_text(&tb->mains[w], f);
		if (ret)
			return ret;
		if (!rs->has_target[w])
			fprintf(f, "no target for %s (%s)\n", brnf_workloads[w].name,
				no_target_why(rs, w));
		fputc('\n', f);
	}
	if (rs->floor && !isnan(rs->fb.S))
		fprintf(f, "mean ± 95%% CI over units (boots' %s with >= 2 boots, else runs); "
			   "Δ vs %s: pps cells the floor's change (busy time) ± (S + w), S %.2f "
			   "+ w %.2f ns/packet, a resolution bound, not a 95%% CI (%s; "
			   "docs/methodology.md), " FLOOR_FALLBACK_MARK " and other cells with "
			   "95%% Welch interval; reached: half-width <= %g%% (%s); " CV_MARK
			   " CV > 3%%%s%s\n\n", part_word(rs),
			rowstats_base_keys(rs, "", keys, sizeof(keys)), rs->fb.S, rs->fb.w,
			floor_source(rs), rs->target, rs->target_src,
			rs->nlost_cells ? "; " LOST_MARK " received != sent" : "",
			rs->nerror_cells ? "; " ERROR_MARK " runs left out (pktgen errors)" : "");
	else
		fprintf(f, "mean ± 95%% CI over units (boots' %s with >= 2 boots, else runs); "
			   "Δ vs %s with 95%% Welch interval; reached: half-width <= %g%% (%s); "
			   CV_MARK " CV > 3%%%s%s\n\n", part_word(rs),
			rowstats_base_keys(rs, "", keys, sizeof(keys)), rs->target,
			rs->target_src,
			rs->nlost_cells ? "; " LOST_MARK " received != sent" : "",
			rs->nerror_cells ? "; " ERROR_MARK " runs left out (pktgen errors)" : "");
	for (w = 0; w < WL_N; w++) {
		if (!rs->has_wl[w])
			continue;
		fprintf(f, "%s spread (%s)\n\n", brnf_workloads[w].name, brnf_workloads[w].unit);
		rtables_spread_show(tb, w);
		ret = table_print_text_rows(&tb->cells, f, tb->wl_first[w], tb->wl_rows[w]);
		if (ret)
			return ret;
		fputc('\n', f);
	}
	for (w = 0; w < WL_N; w++)
		print_cell_notes(rs, w, f, "", NOTE_LOST);
	for (w = 0; w < WL_N; w++)
		print_cell_notes(rs, w, f, "", NOTE_LEFT_OUT);
	print_run(rs, sm, f);
	if (any_icount(rs))
		fprintf(f, "icount: rates measure instructions per byte%s; no pipeline, "
			   "issue width, cache or memory latency is modelled\n",
			any_pps(rs) ? " (ns/packet: instructions per packet)" : "");
	print_parts(rs, f, "");
	if (rs->nverify_no)
		fprintf(f, "FILTERING VERIFICATION FAILED for %u row%s\n", rs->nverify_no,
			rs->nverify_no == 1 ? "" : "s");
	return ferror(f) ? -EIO : 0;
}

static struct json_object *parts_json(struct rowstats *rs)
{
	struct json_object *parts, *p;
	const struct raw_part *rp;
	size_t i;

	parts = json_object_new_array();
	for (i = 0; parts && i < rs->raw.nparts; i++) {
		rp = &rs->raw.parts[i];
		p = json_object_new_object();
		if (!p || json_object_array_add(parts, p)) {
			json_object_put(p);
			json_object_put(parts);
			return NULL;
		}
		json_object_object_add(p, "name", json_object_new_string(rp->name));
		json_object_object_add(p, "kernel_release",
				       json_object_new_string(rp->kernel_release));
		json_object_object_add(p, "kernel_release_source",
				       json_object_new_string(rp->release_from_iperf ?
							      "iperf3 system_info" :
							      "provenance"));
		json_object_object_add(p, "clock", json_object_new_string(rp->clock));
		json_object_object_add(p, "testbed", json_object_new_string(rp->testbed));
		json_object_object_add(p, "date", json_object_new_string(rp->date));
		json_object_object_add(p, "offloads", json_object_new_string(rp->offloads));
		json_object_object_add(p, "qemu", json_object_new_boolean(rp->qemu));
		json_object_object_add(p, "qemu_version", json_object_new_string(rp->qemu_version));
		json_object_object_add(p, "qemu_options", json_object_new_string(rp->qemu_options));
		json_object_object_add(p, "host_cpu", json_object_new_string(rp->host_cpu));
		json_object_object_add(p, "exit_status", json_object_new_int(rp->exit_status));
		json_object_object_add(p, "wall_seconds", rp->wall_seconds >= 0 ?
				       json_object_new_double(rp->wall_seconds) : NULL);
	}
	return parts;
}

static struct json_object *run_json(struct rowstats *rs, const struct summary *sm)
{
	struct json_object *run = json_object_new_object();

	if (!run)
		return NULL;
	json_object_object_add(run, "flows", distinct_json(&sm->flows[0]));
	json_object_object_add(run, "flows_tcp_bytes", distinct_json(&sm->flows[1]));
	json_object_object_add(run, "duration_seconds", distinct_json(&sm->duration));
	json_object_object_add(run, "omit_seconds", distinct_json(&sm->omit));
	json_object_object_add(run, "bytes_per_flow", distinct_json(&sm->bytes));
	json_object_object_add(run, "pktgen_count", distinct_json(&sm->pkts));
	json_object_object_add(run, "runs_per_cell", distinct_json(&sm->reps));
	json_object_object_add(run, "parts_per_cell", distinct_json(&sm->parts));
	json_object_object_add(run, "runs", json_object_new_int64(rs->nmeasured));
	json_object_object_add(run, "verify_passes", json_object_new_int64(rs->npasses));
	json_object_object_add(run, "counting_rules_runs", json_object_new_int64(rs->ncounting));
	/* only where run.txt says so: directories rendered before it stay byte-identical */
	if (rs->raw.run_txt.part_best)
		json_object_object_add(run, "part_value", json_object_new_string(
					       rs->raw.run_txt.part_floor ? "floor" : "best"));
	return run;
}

/* the floor estimator's S and w (floor.h), and over how many cells */
static struct json_object *floor_json(struct rowstats *rs)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "S_ns", isnan(rs->fb.S) ? NULL :
			       json_object_new_double(rs->fb.S));
	json_object_object_add(o, "w_ns", json_object_new_double(rs->fb.w));
	json_object_object_add(o, "pps_cells", json_object_new_int64(rs->fb.ncells));
	json_object_object_add(o, "first_level_cells", json_object_new_int64(rs->fb.nfirst));
	json_object_object_add(o, "fallback_cells", json_object_new_int64(rs->fb.nfallback));
	json_object_object_add(o, "source", json_object_new_string(
				       rs->raw.run_txt.part_floor ? "run.txt" : "option"));
	return o;
}

static struct json_object *workloads_json(struct rowstats *rs)
{
	struct json_object *a = json_object_new_array(), *o;
	int w;

	for (w = 0; a && w < WL_N; w++) {
		if (!rs->has_wl[w])
			continue;
		o = json_object_new_object();
		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
		json_object_object_add(o, "name", json_object_new_string(brnf_workloads[w].name));
		json_object_object_add(o, "unit", json_object_new_string(brnf_workloads[w].unit));
		json_object_object_add(o, "better", json_object_new_string(
					       brnf_workloads[w].lower_better ? "lower" : "higher"));
		json_object_object_add(o, "what", json_object_new_string(brnf_workloads[w].what));
	}
	return a;
}

/* rows -> cells: a row's fields from its first cell's TC_GROUP columns */
static struct json_object *rows_json(struct rowstats *rs, const struct table *cells)
{
	struct json_object *rows, *row = NULL, *arr, *c;
	const struct rrow *r;
	size_t i, first;
	int w, d;

	rows = json_object_new_array();
	for (i = 0; rows && i < rs->nrows; i++) {
		r = &rs->rows[i];
		first = (size_t)-1;
		for (w = 0; w < WL_N && first == (size_t)-1; w++)
			for (d = 0; d < RAW_NDIRS && first == (size_t)-1; d++)
				if (r->cell[w][d].has_stats)
					first = r->cell[w][d].trow;
		row = table_row_json(cells, first, TJ_GROUP);
		arr = row ? json_object_new_array() : NULL;
		if (!arr || json_object_object_add(row, "cells", arr)) {
			json_object_put(arr);
			goto out_put;
		}
		for (w = 0; w < WL_N; w++) {
			for (d = 0; d < RAW_NDIRS; d++) {
				if (!r->cell[w][d].has_stats)
					continue;
				c = table_row_json(cells, r->cell[w][d].trow, TJ_MEMBER);
				if (!c || json_object_array_add(arr, c)) {
					json_object_put(c);
					goto out_put;
				}
			}
		}
		if (json_object_array_add(rows, row))
			goto out_put;
	}
	return rows;
out_put:
	json_object_put(row);
	json_object_put(rows);
	return NULL;
}

static int write_json(struct rowstats *rs, struct rtables *tb, const struct summary *sm,
		      FILE *f)
{
	struct json_object *top, *o;
	char num[40];
	const char *s;
	int w, ret = -ENOMEM;

	top = json_object_new_object();
	if (!top)
		return -ENOMEM;
	json_object_object_add(top, "format", json_object_new_int(2));
	o = parts_json(rs);
	if (!o || json_object_object_add(top, "parts", o))
		goto out_put;
	o = run_json(rs, sm);
	if (!o || json_object_object_add(top, "run", o))
		goto out_put;
	num_shortest(rs->target, num, sizeof(num));
	json_object_object_add(top, "target_pct", json_object_new_double_s(rs->target, num));
	json_object_object_add(top, "target_source", json_object_new_string(rs->target_key));
	o = json_object_new_array();
	for (w = 0; o && w < WL_N; w++)
		if (rs->has_wl[w] && rs->has_target[w])
			json_object_array_add(o, json_object_new_string(brnf_workloads[w].name));
	if (!o || json_object_object_add(top, "target_workloads", o))
		goto out_put;
	json_object_object_add(top, "baseline",
			       json_object_new_string(rs->rows[rs->base].key));
	if (rs->any_path) {
		o = verdict_path_baselines_json(rs);
		if (!o || json_object_object_add(top, "path_baselines", o))
			goto out_put;
	}
	json_object_object_add(top, "verify_failed_rows",
			       json_object_new_int64(rs->nverify_no));
	if (rs->floor) {
		o = floor_json(rs);
		if (!o || json_object_object_add(top, "floor_bound", o))
			goto out_put;
		json_object_object_add(top, "estimator", json_object_new_string("floor"));
	}
	o = workloads_json(rs);
	if (!o || json_object_object_add(top, "workloads", o))
		goto out_put;
	o = rows_json(rs, &tb->cells);
	if (!o || json_object_object_add(top, "rows", o))
		goto out_put;
	s = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		goto out_put;
	fprintf(f, "%s\n", s);
	ret = ferror(f) ? -EIO : 0;
out_put:
	json_object_put(top);
	return ret;
}

/* ---- files -------------------------------------------------------------------- */

typedef int (*writer_fn)(struct rowstats *, struct rtables *, const struct summary *,
			 FILE *);

static int write_csv(struct rowstats *rs, struct rtables *tb, const struct summary *sm,
		     FILE *f)
{
	(void)rs;
	(void)sm;
	return table_print_csv(&tb->cells, f);
}

struct render_out {
	writer_fn fn;
	struct rowstats *rs;
	struct rtables *tb;
	const struct summary *sm;
};

static int render_one(FILE *f, void *arg)
{
	struct render_out *o = arg;

	return o->fn(o->rs, o->tb, o->sm, f);
}

/* <dir>/<name>, whole or not at all (file_render()) */
static int write_one(struct rowstats *rs, const char *name, writer_fn fn,
		      struct rtables *tb, const struct summary *sm)
{
	struct render_out o = { fn, rs, tb, sm };

	return file_render(rs->dir, name, render_one, &o);
}

/* The text tables and the verdict, or the JSON summary. */
static int print_stdout(struct rowstats *rs, struct rtables *tb, const struct summary *sm,
			bool json)
{
	struct json_object *js;
	struct verdict v;
	const char *s;
	int ret = 0;

	verdict_make(rs, &v);
	if (json) {
		js = verdict_summary_json(rs, &v);
		s = js ? json_object_to_json_string_ext(js, JSON_C_TO_STRING_PRETTY |
							JSON_C_TO_STRING_SPACED |
							JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
		if (s)
			printf("%s\n", s);
		else
			ret = -ENOMEM;
		json_object_put(js);
	} else {
		ret = write_txt(rs, tb, sm, stdout);
		if (!ret)
			printf("\n%s\n", v.text);
	}
	if (fflush(stdout) || ferror(stdout))
		ret = ret ?: -EIO;
	if (ret)
		pr_err("%s: %s", rs->dir, ret == -ENOMEM ? "out of memory" :
		       "cannot write the tables to stdout");
	return ret;
}

int render_dir(const char *dir, const struct render_opts *o)
{
	static const struct {
		const char *name;
		writer_fn fn;
	} files[] = {
		{ "matrix.md", write_md },
		{ "matrix.csv", write_csv },
		{ "matrix.json", write_json },
		{ "matrix.txt", write_txt },
	};
	struct rowstats_opts ro = {
		.baseline = o ? o->baseline : NULL,
		.target_pct = o ? o->target_pct : 0,
		.strict = o && o->strict,
		.estimator = o ? o->estimator : RS_EST_RUN_TXT,
	};
	struct rowstats rs;
	struct rtables tb;
	struct summary sm;
	size_t i;
	int ret;

	memset(&tb, 0, sizeof(tb));
	ret = rowstats_load(&rs, dir, &ro);
	if (ret)
		goto out_free;
	summarize(&rs, &sm);
	ret = rtables_build(&tb, &rs);
	if (ret) {
		pr_err("%s: out of memory", dir);
		goto out_free;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ret = write_one(&rs, files[i].name, files[i].fn, &tb, &sm);
		if (ret)
			goto out_free;
	}
	if (o && (o->print || o->json)) {
		ret = print_stdout(&rs, &tb, &sm, o->json);
		if (ret)
			goto out_free;
	}
	ret = rs.nverify_no ? RENDER_VERIFY_FAILED : 0;
out_free:
	rtables_free(&tb);
	rowstats_free(&rs);
	return ret;
}
