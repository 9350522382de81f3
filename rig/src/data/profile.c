// SPDX-License-Identifier: GPL-2.0
/* Instruction profiles: parse, match to pps runs, attribute (profile.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "floor.h"
#include "profile.h"
#include "stats.h"

#define PROF_MAGIC "brnf-insn-profile 1"

const char *const prof_cache_count_names[PROF_NCOUNTS] = {
	"ifetch", "imiss", "dacc", "dmiss",
};

/* ---- parsing ---- */

/* a whole decimal number without sign */
static bool parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!n || n > 20)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return true;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct prof_entry *)a)->name, ((const struct prof_entry *)b)->name);
}

static void window_free(struct prof_window *w)
{
	size_t i;

	for (i = 0; i < w->ne; i++)
		free(w->e[i].name);
	free(w->e);
	w->e = NULL;
	w->ne = 0;
}

void prof_free(struct prof_file *pf)
{
	size_t i;

	for (i = 0; i < pf->nw; i++)
		window_free(&pf->w[i]);
	free(pf->w);
	memset(pf, 0, sizeof(*pf));
}

/* sort by name, merge equal names; check the sum */
static int window_close(const char *name, size_t line, struct prof_window *w, char *err,
			size_t errlen)
{
	uint64_t sum = 0;
	size_t i, k = 0;

	if (w->ne)	/* an empty window has no array (qsort wants one) */
		qsort(w->e, w->ne, sizeof(*w->e), cmp_entry);
	for (i = 0; i < w->ne; i++) {
		if (sum + w->e[i].count < sum) {
			seterr(err, errlen, "%s:%zu: the counts of window %lu overflow", name,
			       line, w->n);
			return -EINVAL;
		}
		sum += w->e[i].count;
		if (k && !strcmp(w->e[k - 1].name, w->e[i].name)) {
			w->e[k - 1].count += w->e[i].count;
			free(w->e[i].name);
			continue;
		}
		w->e[k++] = w->e[i];
	}
	w->ne = k;
	if (sum != w->total) {
		seterr(err, errlen, "%s:%zu: window %lu says %" PRIu64 " instructions, its "
		       "symbols add up to %" PRIu64, name, w->line, w->n, w->total, sum);
		return -EINVAL;
	}
	return 0;
}

/* window @w has a cache line for every model of @pf, in order */
static int window_models(const char *name, size_t line, const struct prof_file *pf,
			 const struct prof_window *w, char *err, size_t errlen)
{
	size_t k;

	for (k = 0; k < pf->nmodel || k < w->ncache; k++)
		if (k >= pf->nmodel || k >= w->ncache ||
		    strcmp(pf->model[k].name, w->cache[k].name)) {
			seterr(err, errlen, "%s:%zu: window %lu's cache lines are not the "
			       "file's %zu cache-model lines, in their order", name, line, w->n,
			       pf->nmodel);
			return -EINVAL;
		}
	return 0;
}

/* "cache NAME ifetch F imiss M dacc A dmiss D" into @w */
static int parse_cache(const char *name, size_t line, char *buf, struct prof_window *w,
		       char *err, size_t errlen)
{
	char *tok[11], *save = NULL, *t;
	struct prof_cache *pc;
	size_t n = 0, k;

	for (t = strtok_r(buf, " ", &save); t && n < 11; t = strtok_r(NULL, " ", &save))
		tok[n++] = t;
	if (n != 10)
		goto bad;
	for (k = 0; k < PROF_NCOUNTS; k++)
		if (strcmp(tok[2 + 2 * k], prof_cache_count_names[k]))
			goto bad;
	if (strlen(tok[1]) >= PROF_CACHE_NAME_LEN) {
		seterr(err, errlen, "%s:%zu: cache name '%s' longer than %d bytes", name, line,
		       tok[1], PROF_CACHE_NAME_LEN - 1);
		return -EINVAL;
	}
	for (k = 0; k < w->ncache; k++)
		if (!strcmp(w->cache[k].name, tok[1])) {
			seterr(err, errlen, "%s:%zu: cache %s twice in window %lu", name, line,
			       tok[1], w->n);
			return -EINVAL;
		}
	if (w->ncache == PROF_MAX_CACHES) {
		seterr(err, errlen, "%s:%zu: more than %d caches in window %lu", name, line,
		       PROF_MAX_CACHES, w->n);
		return -EINVAL;
	}
	pc = &w->cache[w->ncache];
	snprintf(pc->name, sizeof(pc->name), "%s", tok[1]);
	for (k = 0; k < PROF_NCOUNTS; k++)
		if (!parse_u64(tok[3 + 2 * k], strlen(tok[3 + 2 * k]), &pc->v[k]))
			goto bad;
	if (pc->v[PROF_IMISS] > pc->v[PROF_IFETCH] || pc->v[PROF_DMISS] > pc->v[PROF_DACC]) {
		seterr(err, errlen, "%s:%zu: cache %s: more misses than accesses", name, line,
		       pc->name);
		return -EINVAL;
	}
	w->ncache++;
	return 0;
bad:
	seterr(err, errlen, "%s:%zu: want \"cache NAME ifetch F imiss M dacc A dmiss D\"",
	       name, line);
	return -EINVAL;
}

int prof_parse(const char *name, const char *text, size_t len, struct prof_file *pf,
	       char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl;
	struct prof_window *cur = NULL;
	size_t line = 0, cap = 0, ecap = 0;
	bool summary = false;
	int ret = -EINVAL;

	memset(pf, 0, sizeof(*pf));
	while (p < end) {
		char buf[512], word[32];
		size_t n;
		int used = 0;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			seterr(err, errlen, "%s:%zu: the last line has no newline (a truncated "
			       "file?)", name, line + 1);
			goto out_err;
		}
		n = (size_t)(nl - p);
		line++;
		if (n >= sizeof(buf)) {
			seterr(err, errlen, "%s:%zu: line longer than %zu bytes", name, line,
			       sizeof(buf) - 1);
			goto out_err;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		p = nl + 1;
		if (memchr(buf, '\0', n)) {
			seterr(err, errlen, "%s:%zu: a NUL byte", name, line);
			goto out_err;
		}
		if (summary) {
			seterr(err, errlen, "%s:%zu: a line after the summary", name, line);
			goto out_err;
		}
		if (line == 1) {
			if (strcmp(buf, PROF_MAGIC)) {
				seterr(err, errlen, "%s:1: not \"" PROF_MAGIC "\" (not an "
				       "insn-profile output)", name);
				goto out_err;
			}
			continue;
		}
		if (line == 2) {
			unsigned long long ns;

			if (sscanf(buf, "symbols %llu %*s%n", &ns, &used) != 1 ||
			    (size_t)used != n) {
				seterr(err, errlen, "%s:2: want \"symbols NSYMS PATH\"", name);
				goto out_err;
			}
			pf->nsyms = ns;
			continue;
		}
		if (line == 3) {
			if (sscanf(buf, "markers %127s %127s%n", pf->start, pf->end, &used) != 2 ||
			    (size_t)used != n) {
				seterr(err, errlen, "%s:3: want \"markers START END\"", name);
				goto out_err;
			}
			continue;
		}
		if (cur) {
			unsigned long en;
			char *sp;
			uint64_t c;

			if (sscanf(buf, "end %lu%n", &en, &used) == 1 && (size_t)used == n) {
				if (en != cur->n) {
					seterr(err, errlen, "%s:%zu: \"end %lu\" in window %lu", name,
					       line, en, cur->n);
					goto out_err;
				}
				if (window_models(name, line, pf, cur, err, errlen))
					goto out_err;
				ret = window_close(name, line, cur, err, errlen);
				if (ret)
					goto out_err;
				ret = -EINVAL;
				cur = NULL;
				continue;
			}
			if (!strncmp(buf, "cache ", 6)) {
				if (parse_cache(name, line, buf, cur, err, errlen))
					goto out_err;
				continue;
			}
			if (cur->ncache) {
				seterr(err, errlen, "%s:%zu: a symbol after the cache lines of "
				       "window %lu", name, line, cur->n);
				goto out_err;
			}
			sp = strchr(buf, ' ');
			if (!sp || !parse_u64(buf, (size_t)(sp - buf), &c) || !sp[1] ||
			    strchr(sp + 1, ' ')) {
				seterr(err, errlen, "%s:%zu: want \"COUNT NAME\" or \"end %lu\" in "
				       "window %lu", name, line, cur->n, cur->n);
				goto out_err;
			}
			if (!c) {
				seterr(err, errlen, "%s:%zu: a count of 0", name, line);
				goto out_err;
			}
			if (cur->ne == ecap) {
				struct prof_entry *t;

				ecap = ecap ? ecap * 2 : 256;
				t = realloc(cur->e, ecap * sizeof(*t));
				if (!t)
					goto out_nomem;
				cur->e = t;
			}
			cur->e[cur->ne].name = strdup(sp + 1);
			if (!cur->e[cur->ne].name)
				goto out_nomem;
			cur->e[cur->ne++].count = c;
			continue;
		}
		if (!strncmp(buf, "cache-model ", 12)) {
			size_t k;

			if (pf->nw || pf->nmodel == PROF_MAX_CACHES) {
				seterr(err, errlen, "%s:%zu: a cache-model after a window, or more "
				       "than %d", name, line, PROF_MAX_CACHES);
				goto out_err;
			}
			if (cachesim_parse_spec(buf + 12, &pf->model[pf->nmodel], err, errlen)) {
				char why[256];

				snprintf(why, sizeof(why), "%s", err);
				seterr(err, errlen, "%s:%zu: %s", name, line, why);
				goto out_err;
			}
			for (k = 0; k < pf->nmodel; k++)
				if (!strcmp(pf->model[k].name, pf->model[pf->nmodel].name)) {
					seterr(err, errlen, "%s:%zu: cache-model %s twice", name,
					       line, pf->model[k].name);
					goto out_err;
				}
			pf->nmodel++;
			continue;
		}
		if (sscanf(buf, "window %31s%n", word, &used) == 1) {
			struct prof_window w = { .line = line };
			char *sp = buf + strlen("window ");
			char *sp2 = strchr(sp, ' ');
			uint64_t num;

			if (!sp2 || !parse_u64(sp, (size_t)(sp2 - sp), &num) ||
			    !parse_u64(sp2 + 1, strlen(sp2 + 1), &w.total)) {
				seterr(err, errlen, "%s:%zu: want \"window N TOTAL\"", name, line);
				goto out_err;
			}
			w.n = num;
			if (w.n != pf->nw + 1) {
				seterr(err, errlen, "%s:%zu: window %lu after window %zu", name,
				       line, w.n, pf->nw);
				goto out_err;
			}
			if (pf->nw == cap) {
				struct prof_window *t;

				cap = cap ? cap * 2 : 16;
				t = realloc(pf->w, cap * sizeof(*t));
				if (!t)
					goto out_nomem;
				pf->w = t;
			}
			pf->w[pf->nw++] = w;
			cur = &pf->w[pf->nw - 1];
			ecap = 0;
			continue;
		}
		{
			unsigned long nwin;
			int open;

			if (sscanf(buf, "summary windows %lu restarts %lu stray_ends %lu "
				   "open_at_exit %d%n", &nwin, &pf->restarts, &pf->stray_ends,
				   &open, &used) == 4 && (size_t)used == n &&
			    (open == 0 || open == 1)) {
				if (nwin != pf->nw) {
					seterr(err, errlen, "%s:%zu: the summary says %lu windows, "
					       "the file has %zu", name, line, nwin, pf->nw);
					goto out_err;
				}
				pf->open_at_exit = open;
				summary = true;
				continue;
			}
		}
		seterr(err, errlen, "%s:%zu: want \"window N TOTAL\" or \"summary ...\"", name,
		       line);
		goto out_err;
	}
	if (line < 3) {
		seterr(err, errlen, "%s:%zu: the header ends early (3 lines: magic, symbols, "
		       "markers)", name, line);
		goto out_err;
	}
	if (cur) {
		seterr(err, errlen, "%s:%zu: window %lu has no end (QEMU stopped while writing "
		       "it?)", name, line, cur->n);
		goto out_err;
	}
	if (!summary) {
		seterr(err, errlen, "%s:%zu: no summary line (QEMU did not exit normally)", name,
		       line);
		goto out_err;
	}
	return 0;

out_nomem:
	seterr(err, errlen, "%s:%zu: out of memory", name, line);
	ret = -ENOMEM;
out_err:
	prof_free(pf);
	return ret;
}

/* ---- matching and attribution ---- */

struct match {
	size_t run;			/* index into raw_set.runs */
	const struct prof_window *w;
	const struct prof_file *pf;
	const char *fname;
};

static const struct raw_set *sort_set;

static int cmp_run_order(const void *a, const void *b)
{
	const struct raw_run *x = &sort_set->runs[*(const size_t *)a];
	const struct raw_run *y = &sort_set->runs[*(const size_t *)b];

	return (x->order > y->order) - (x->order < y->order);
}

static bool is_pps_run(const struct raw_run *r)
{
	return r->kind == RAW_MEASURE && r->schema == 2 && workload_is_pps(r->workload);
}

/* match the pps runs of part @p to the windows of @pf; appends to *m */
static int match_part(const struct raw_set *s, size_t p, const struct prof_file *pf,
		      const char *fname, const struct prof_opts *o, struct match **m,
		      size_t *nm, size_t *cap, struct prof_result *res, char *err,
		      size_t errlen)
{
	size_t *idx, n = 0, i, wi = 0;
	int ret = 0;

	idx = malloc((s->nruns ? s->nruns : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].part == p && is_pps_run(&s->runs[i]))
			idx[n++] = i;
	sort_set = s;
	qsort(idx, n, sizeof(*idx), cmp_run_order);
	for (i = 0; i < n; i++) {
		const struct raw_run *r = &s->runs[idx[i]];
		double ns = (double)r->pktgen.elapsed_us * 1000.0, dev;

		while (wi < pf->nw && (double)pf->w[wi].total < PROF_SMALL_FRACTION * ns) {
			wi++;
			res->nskipped++;
		}
		if (wi == pf->nw) {
			seterr(err, errlen, "%s: no window left for run %s (of part %s)", fname,
			       r->name, s->parts[p].name);
			ret = -EINVAL;
			goto out;
		}
		dev = (double)pf->w[wi].total - ns;
		if (fabs(dev) > o->tolerance * ns) {
			seterr(err, errlen, "%s:%zu: window %lu (%" PRIu64 " instructions) is not "
			       "run %s (pktgen: %llu us, %.0f ns): %+.2f%%, more than the "
			       "tolerance %.2f%%", fname, pf->w[wi].line, pf->w[wi].n,
			       pf->w[wi].total, r->name, r->pktgen.elapsed_us, ns,
			       100.0 * dev / ns, 100.0 * o->tolerance);
			ret = -EINVAL;
			goto out;
		}
		if (r->pktgen.sent && fabs(dev) / (double)r->pktgen.sent > res->max_mark_dev)
			res->max_mark_dev = fabs(dev) / (double)r->pktgen.sent;
		if (fabs(dev) / ns > res->max_mark_rel)
			res->max_mark_rel = fabs(dev) / ns;
		if (*nm == *cap) {
			struct match *t;

			*cap = *cap ? *cap * 2 : 64;
			t = realloc(*m, *cap * sizeof(*t));
			if (!t) {
				ret = -ENOMEM;
				goto out;
			}
			*m = t;
		}
		(*m)[*nm].run = idx[i];
		(*m)[*nm].pf = pf;
		(*m)[*nm].fname = fname;
		(*m)[(*nm)++].w = &pf->w[wi++];
		res->nmatched++;
	}
	for (; wi < pf->nw; wi++) {
		if (n && (double)pf->w[wi].total >= PROF_SMALL_FRACTION *
		    (double)s->runs[idx[n - 1]].pktgen.elapsed_us * 1000.0) {
			seterr(err, errlen, "%s:%zu: window %lu (%" PRIu64 " instructions) matches "
			       "no pps run of part %s", fname, pf->w[wi].line, pf->w[wi].n,
			       pf->w[wi].total, s->parts[p].name);
			ret = -EINVAL;
			goto out;
		}
		res->nskipped++;
	}
out:
	free(idx);
	return ret;
}

/* every profile models the caches the first one does, in its order */
static int check_caches(const struct match *m, size_t nm, struct prof_result *res,
			char *err, size_t errlen)
{
	const struct prof_file *p0 = m[0].pf;
	size_t i;

	for (i = 1; i < nm; i++) {
		const struct prof_file *p = m[i].pf;

		if (p == p0 || (p->nmodel == p0->nmodel &&
				!memcmp(p->model, p0->model, p->nmodel * sizeof(*p->model))))
			continue;
		seterr(err, errlen, "%s: its cache-model lines are not those of %s: one set "
		       "of cache= for every boot", m[i].fname, m[0].fname);
		return -EINVAL;
	}
	res->ncache = p0->nmodel;
	memcpy(res->model, p0->model, sizeof(res->model));
	return 0;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every name of every matched window, sorted, unique */
static int collect_names(const struct match *m, size_t nm, char ***names, size_t *nn)
{
	size_t i, j, k = 0, cap = 0;
	char **v = NULL, **t;

	for (i = 0; i < nm; i++)
		for (j = 0; j < m[i].w->ne; j++) {
			if (k == cap) {
				cap = cap ? cap * 2 : 1024;
				t = realloc(v, cap * sizeof(*t));
				if (!t) {
					free(v);
					return -ENOMEM;
				}
				v = t;
			}
			v[k++] = m[i].w->e[j].name;
		}
	if (k)
		qsort(v, k, sizeof(*v), cmp_strp);
	for (i = 0, j = 0; i < k; i++)
		if (!j || strcmp(v[j - 1], v[i]))
			v[j++] = v[i];
	*names = v;
	*nn = j;
	return 0;
}

static size_t name_id(char *const *names, size_t nn, const char *name)
{
	char *const *f = bsearch(&name, names, nn, sizeof(*names), cmp_strp);

	return f ? (size_t)(f - names) : (size_t)-1;
}

/* a cell while it is built: its matches and dense mean vector */
struct acell {
	char key[RAW_KEY_LEN];
	unsigned int row_index;
	enum brnf_path path;
	enum brnf_workload workload;
	enum raw_dir dir;
	double *vec;			/* mean over boots of instructions per packet */
	double *pv;			/* per boot: measured value */
	double *pp;			/* per boot: profiled instructions per packet */
	size_t nboots;
	struct floor_cell fl;		/* over every matched run's busy time */
	bool has_floor;			/* every matched run had one */
	double cache[PROF_MAX_CACHES][PROF_NCOUNTS];	/* mean over boots, per packet */
	double cmin[PROF_MAX_CACHES][PROF_NCOUNTS];	/* over every run, per packet */
	double cmax[PROF_MAX_CACHES][PROF_NCOUNTS];
	size_t nruns;
};

static double run_ns_per_packet(const struct raw_run *r)
{
	return (double)r->pktgen.elapsed_us * 1000.0 / (double)r->pktgen.sent;
}

static bool usable(const struct raw_run *r)
{
	return r->pktgen.sent && !r->pktgen.errors;
}

/* the boots of cell @c: per boot its best run (or the mean of its runs) */
static int build_cell(const struct raw_set *s, const struct match *m, size_t nm,
		      char *const *names, size_t nn, const struct prof_opts *o,
		      struct acell *c)
{
	size_t i, j, k, p, nparts = s->nparts;
	double *bootvec, *busy, bootcache[PROF_MAX_CACHES][PROF_NCOUNTS];
	size_t nbusy = 0;
	int ret = -ENOMEM;

	c->vec = calloc(nn ? nn : 1, sizeof(*c->vec));
	c->pv = calloc(nparts ? nparts : 1, sizeof(*c->pv));
	c->pp = calloc(nparts ? nparts : 1, sizeof(*c->pp));
	bootvec = calloc(nn ? nn : 1, sizeof(*bootvec));
	busy = calloc(nm ? nm : 1, sizeof(*busy));
	if (!c->vec || !c->pv || !c->pp || !bootvec || !busy)
		goto out;
	/* the floor over every matched run of the cell, when each has its busy time */
	c->has_floor = true;
	for (i = 0; i < nm && c->has_floor; i++) {
		const struct raw_run *r = &s->runs[m[i].run];

		if (r->workload != c->workload || r->dir != c->dir || strcmp(r->key, c->key) ||
		    !usable(r))
			continue;
		c->has_floor = floor_busy_values(s, &m[i].run, 1, &busy[nbusy]);
		nbusy++;
	}
	c->has_floor = c->has_floor && !floor_cell(busy, nbusy, &c->fl);
	for (p = 0; p < nparts; p++) {
		size_t nruns = 0, best = (size_t)-1;
		double bestv = INFINITY, sumv = 0;

		for (i = 0; i < nm; i++) {
			const struct raw_run *r = &s->runs[m[i].run];

			if (r->part != p || r->workload != c->workload || r->dir != c->dir ||
			    strcmp(r->key, c->key) || !usable(r))
				continue;
			nruns++;
			sumv += run_ns_per_packet(r);
			if (run_ns_per_packet(r) < bestv) {
				bestv = run_ns_per_packet(r);
				best = i;
			}
		}
		if (!nruns)
			continue;
		memset(bootvec, 0, nn * sizeof(*bootvec));
		memset(bootcache, 0, sizeof(bootcache));
		for (i = 0; i < nm; i++) {
			const struct raw_run *r = &s->runs[m[i].run];
			double w;

			if (r->part != p || r->workload != c->workload || r->dir != c->dir ||
			    strcmp(r->key, c->key) || !usable(r))
				continue;
			for (j = 0; j < m[i].w->ncache; j++)
				for (k = 0; k < PROF_NCOUNTS; k++) {
					double v = (double)m[i].w->cache[j].v[k] /
						   (double)r->pktgen.sent;

					if (!c->nruns || v < c->cmin[j][k])
						c->cmin[j][k] = v;
					if (!c->nruns || v > c->cmax[j][k])
						c->cmax[j][k] = v;
				}
			c->nruns++;
			if (o->part_best && i != best)
				continue;
			w = o->part_best ? 1.0 : 1.0 / (double)nruns;
			for (j = 0; j < m[i].w->ne; j++) {
				k = name_id(names, nn, m[i].w->e[j].name);
				bootvec[k] += w * (double)m[i].w->e[j].count /
					      (double)r->pktgen.sent;
			}
			for (j = 0; j < m[i].w->ncache; j++)
				for (k = 0; k < PROF_NCOUNTS; k++)
					bootcache[j][k] += w * (double)m[i].w->cache[j].v[k] /
							   (double)r->pktgen.sent;
		}
		for (j = 0; j < PROF_MAX_CACHES; j++)
			for (k = 0; k < PROF_NCOUNTS; k++)
				c->cache[j][k] += bootcache[j][k];
		c->pv[c->nboots] = o->part_best ? bestv : sumv / (double)nruns;
		c->pp[c->nboots] = 0;
		for (k = 0; k < nn; k++) {
			c->vec[k] += bootvec[k];
			c->pp[c->nboots] += bootvec[k];
		}
		c->nboots++;
	}
	for (k = 0; k < nn && c->nboots; k++)
		c->vec[k] /= (double)c->nboots;
	for (j = 0; j < PROF_MAX_CACHES && c->nboots; j++)
		for (k = 0; k < PROF_NCOUNTS; k++)
			c->cache[j][k] /= (double)c->nboots;
	ret = 0;
out:
	free(bootvec);
	free(busy);
	return ret;
}

static double mean_of(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

static const struct prof_cell *sort_cell;

static int cmp_sym(const void *a, const void *b)
{
	const struct prof_sym *x = a, *y = b;
	double kx = sort_cell->is_base ? x->row : fabs(x->diff);
	double ky = sort_cell->is_base ? y->row : fabs(y->diff);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct prof_cell *x = a, *y = b;

	if (x->workload != y->workload)
		return (int)x->workload - (int)y->workload;
	if (x->dir != y->dir)
		return (int)x->dir - (int)y->dir;
	if (x->row_index != y->row_index)
		return x->row_index < y->row_index ? -1 : 1;
	if (strcmp(x->key, y->key))
		return strcmp(x->key, y->key);
	/* a row against its path's baseline first, then against the rows of pairs */
	if (x->is_base != y->is_base)
		return x->is_base ? -1 : 1;
	return strcmp(x->base_key, y->base_key);
}

/* fill result cell @pc from built cell @a against the baseline @b (maybe @a itself) */
static int fill_cell(const struct acell *a, const struct acell *b, char *const *names,
		     size_t nn, double bound, struct prof_cell *pc)
{
	size_t k, n = 0;

	memset(pc, 0, sizeof(*pc));
	snprintf(pc->key, sizeof(pc->key), "%s", a->key);
	snprintf(pc->base_key, sizeof(pc->base_key), "%s", b->key);
	pc->row_index = a->row_index;
	pc->workload = a->workload;
	pc->dir = a->dir;
	pc->is_base = a == b;
	pc->nboots = a->nboots;
	pc->base_nboots = b->nboots;
	pc->measured = mean_of(a->pv, a->nboots);
	pc->base_measured = mean_of(b->pv, b->nboots);
	pc->profiled = mean_of(a->pp, a->nboots);
	pc->base_profiled = mean_of(b->pp, b->nboots);
	pc->floor = a->has_floor ? a->fl.floor : NAN;
	pc->base_floor = b->has_floor ? b->fl.floor : NAN;
	pc->bound = bound;
	pc->s = calloc(nn ? nn : 1, sizeof(*pc->s));
	if (!pc->s)
		return -ENOMEM;
	for (k = 0; k < nn; k++) {
		if (a->vec[k] == 0 && b->vec[k] == 0)
			continue;
		pc->s[n].name = strdup(names[k]);
		if (!pc->s[n].name)
			return -ENOMEM;
		pc->s[n].row = a->vec[k];
		pc->s[n].base = b->vec[k];
		pc->s[n].diff = a->vec[k] - b->vec[k];
		n++;
	}
	pc->ns = n;
	memcpy(pc->cache_row, a->cache, sizeof(pc->cache_row));
	memcpy(pc->cache_base, b->cache, sizeof(pc->cache_base));
	memcpy(pc->cache_min, a->cmin, sizeof(pc->cache_min));
	memcpy(pc->cache_max, a->cmax, sizeof(pc->cache_max));
	pc->cache_nruns = a->nruns;
	sort_cell = pc;
	qsort(pc->s, n, sizeof(*pc->s), cmp_sym);
	return 0;
}

/* S + w (floor.h) over the cells with a floor, in @bound; NAN when none is, or no run
 * of any is raised. 0 or -ENOMEM. */
static int cells_bound(const struct acell *ac, size_t nac, double *bound)
{
	struct floor_cell *fc = calloc(nac ? nac : 1, sizeof(*fc));
	struct floor_bound fb;
	size_t j, n = 0;
	int ret;

	if (!fc)
		return -ENOMEM;
	for (j = 0; j < nac; j++)
		if (ac[j].nboots && ac[j].has_floor)
			fc[n++] = ac[j].fl;
	*bound = NAN;
	ret = n ? floor_bound_compute(fc, n, &fb) : 0;
	if (!ret && n && !isnan(fb.S))
		*bound = fb.S + fb.w;
	free(fc);
	return ret;
}

/* the pairs of @o: each row against the other in every workload and direction both
 * have, appended to @res (room for them allocated) */
static int add_pairs(const struct acell *ac, size_t nac, char *const *names, size_t nn,
		     double bound, const struct prof_opts *o, struct prof_result *res,
		     char *err, size_t errlen)
{
	size_t q, i, j, found;
	int ret;

	for (q = 0; q < o->npairs; q++) {
		const struct prof_pair *pr = &o->pairs[q];
		char where[32];

		if (!pr->where)
			snprintf(where, sizeof(where), "pair %zu", q + 1);
		if (!strcmp(pr->row, pr->base)) {
			seterr(err, errlen, "%s: a row against itself (%s)",
			       pr->where ? pr->where : where, pr->row);
			return -EINVAL;
		}
		found = 0;
		for (j = 0; j < nac; j++) {
			if (!ac[j].nboots || strcmp(ac[j].key, pr->row))
				continue;
			for (i = 0; i < nac; i++)
				if (ac[i].nboots && ac[i].workload == ac[j].workload &&
				    ac[i].dir == ac[j].dir && !strcmp(ac[i].key, pr->base))
					break;
			if (i == nac)
				continue;
			ret = fill_cell(&ac[j], &ac[i], names, nn, bound, &res->c[res->nc]);
			res->nc++;
			if (ret) {
				seterr(err, errlen, "out of memory");
				return ret;
			}
			found++;
		}
		if (!found) {
			seterr(err, errlen, "%s: no workload and direction with profiled "
			       "runs of both '%s' and '%s'", pr->where ? pr->where : where,
			       pr->row, pr->base);
			return -EINVAL;
		}
	}
	return 0;
}

int prof_attribute(const struct raw_set *s, struct prof_file *const *files,
		   const char *const *names_of, const struct prof_opts *o,
		   struct prof_result *res, char *err, size_t errlen)
{
	struct match *m = NULL;
	struct acell *ac = NULL;
	size_t nm = 0, mcap = 0, nn = 0, nac = 0, i, j, p;
	char **names = NULL;
	double bound = NAN;
	int ret;

	memset(res, 0, sizeof(*res));
	for (p = 0; p < s->nparts; p++) {
		if (!files[p])
			continue;
		ret = match_part(s, p, files[p], names_of[p], o, &m, &nm, &mcap, res, err,
				 errlen);
		if (ret)
			goto out;
	}
	if (!nm) {
		seterr(err, errlen, "no pps run with a profile");
		ret = -EINVAL;
		goto out;
	}
	ret = check_caches(m, nm, res, err, errlen);
	if (ret)
		goto out;
	ret = collect_names(m, nm, &names, &nn);
	if (ret)
		goto out_nomem;
	/* the cells: distinct (key, workload, direction) of the matched runs */
	ac = calloc(nm, sizeof(*ac));
	if (!ac)
		goto out_nomem;
	for (i = 0; i < nm; i++) {
		const struct raw_run *r = &s->runs[m[i].run];

		for (j = 0; j < nac; j++)
			if (ac[j].workload == r->workload && ac[j].dir == r->dir &&
			    !strcmp(ac[j].key, r->key))
				break;
		if (j == nac) {
			snprintf(ac[nac].key, sizeof(ac[nac].key), "%s", r->key);
			ac[nac].row_index = r->row_index;
			ac[nac].path = r->row.path;
			ac[nac].workload = r->workload;
			ac[nac].dir = r->dir;
			nac++;
		} else if (r->row_index < ac[j].row_index) {
			ac[j].row_index = r->row_index;
		}
	}
	for (j = 0; j < nac; j++) {
		ret = build_cell(s, m, nm, names, nn, o, &ac[j]);
		if (ret)
			goto out_nomem;
	}
	ret = cells_bound(ac, nac, &bound);
	if (ret)
		goto out_nomem;
	res->c = calloc(nac * (1 + o->npairs), sizeof(*res->c));
	if (!res->c)
		goto out_nomem;
	for (j = 0; j < nac; j++) {
		const struct acell *b = NULL;

		if (!ac[j].nboots)
			continue;
		/* the baseline: the cell of the lowest row index of this workload,
		 * direction and path (the matrix's first row of the path) */
		for (i = 0; i < nac; i++)
			if (ac[i].workload == ac[j].workload && ac[i].dir == ac[j].dir &&
			    ac[i].path == ac[j].path &&
			    ac[i].nboots && (!b || ac[i].row_index < b->row_index))
				b = &ac[i];
		ret = fill_cell(&ac[j], b, names, nn, bound, &res->c[res->nc]);
		res->nc++;
		if (ret)
			goto out_nomem;
	}
	ret = add_pairs(ac, nac, names, nn, bound, o, res, err, errlen);
	if (ret)
		goto out;
	qsort(res->c, res->nc, sizeof(*res->c), cmp_cell);
	ret = 0;
	goto out;

out_nomem:
	seterr(err, errlen, "out of memory");
	ret = -ENOMEM;
out:
	for (j = 0; ac && j < nac; j++) {
		free(ac[j].vec);
		free(ac[j].pv);
		free(ac[j].pp);
	}
	free(ac);
	free(names);
	free(m);
	if (ret)
		prof_result_free(res);
	return ret;
}

void prof_result_free(struct prof_result *res)
{
	size_t i, k;

	for (i = 0; i < res->nc; i++) {
		for (k = 0; k < res->c[i].ns; k++)
			free(res->c[i].s[k].name);
		free(res->c[i].s);
	}
	free(res->c);
	memset(res, 0, sizeof(*res));
}

/* ---- output ---- */

static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '_' || *s == '*' || *s == '[' || *s == ']' ||
		    *s == '`' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void prof_write_md(FILE *f, const struct prof_result *res, size_t top)
{
	size_t i, k;

	fprintf(f, "# Instructions per packet by kernel symbol\n\n");
	fprintf(f, "From each boot's `raw/<part>/insn-profile.txt` (rig/profile/insn-profile.c: "
		"every instruction the vCPU executed between pktgen's start and stop, by the "
		"kernel symbol it belongs to) and the pps run each window was matched to: "
		"%zu windows matched, %zu small ones (priming frames) passed over. A window's "
		"instructions and its run's pktgen time (elapsed_us × 1000 ns) differ by at "
		"most %.3f per packet (%.4f%% of the run).\n\n", res->nmatched, res->nskipped,
		res->max_mark_dev, 100.0 * res->max_mark_rel);
	fprintf(f, "A boot contributes its best run (part_value) or the mean of its runs, "
		"as the matrix does; a cell is the mean over its boots. \"measured\" is "
		"pktgen's ns/packet of the same runs, \"profiled\" the sum of every symbol's "
		"instructions per packet. \"busy floor\" is the floor estimator's, as in "
		"matrix.md (docs/methodology.md, \"The headline estimator\"): a cell's lowest "
		"pktgen busy time per packet over every matched run, its change ± (S + w) ");
	if (isnan(res->nc ? res->c[0].bound : NAN))
		fprintf(f, "unknown here (no run raised, or a run without its busy time).\n");
	else
		fprintf(f, "with S + w = %.2f ns/packet over these cells, a resolution bound, "
			"not a 95%% confidence interval.\n", res->c[0].bound);
	for (i = 0; i < res->nc; i++) {
		const struct prof_cell *c = &res->c[i];
		double rest_r = 0, rest_b = 0, rest_d = 0;

		fprintf(f, "\n## %s %s: ", brnf_workloads[c->workload].name,
			raw_dir_names[c->dir]);
		md_escape(f, c->key);
		if (c->is_base) {
			fprintf(f, " (the baseline)\n\n%zu boot%s.\n\n", c->nboots,
				c->nboots == 1 ? "" : "s");
			fprintf(f, "| symbol | instructions/packet |\n|:--|--:|\n");
			for (k = 0; k < c->ns && k < top; k++) {
				fprintf(f, "| ");
				md_escape(f, c->s[k].name);
				fprintf(f, " | %.2f |\n", c->s[k].row);
			}
			for (; k < c->ns; k++)
				rest_r += c->s[k].row;
			if (c->ns > top)
				fprintf(f, "| %zu other symbols | %.2f |\n", c->ns - top, rest_r);
			fprintf(f, "| **all symbols (profiled)** | **%.2f** |\n", c->profiled);
			fprintf(f, "| pktgen ns/packet (measured) | %.2f |\n", c->measured);
			if (!isnan(c->floor))
				fprintf(f, "| pktgen busy floor ns/packet | %.2f |\n", c->floor);
			continue;
		}
		fprintf(f, " against ");
		md_escape(f, c->base_key);
		fprintf(f, "\n\n%zu boot%s against %zu.\n\n", c->nboots, c->nboots == 1 ? "" : "s",
			c->base_nboots);
		fprintf(f, "| symbol | row | baseline | difference |\n|:--|--:|--:|--:|\n");
		for (k = 0; k < c->ns && k < top; k++) {
			fprintf(f, "| ");
			md_escape(f, c->s[k].name);
			fprintf(f, " | %.2f | %.2f | %+.2f |\n", c->s[k].row, c->s[k].base,
				c->s[k].diff);
		}
		for (; k < c->ns; k++) {
			rest_r += c->s[k].row;
			rest_b += c->s[k].base;
			rest_d += c->s[k].diff;
		}
		if (c->ns > top)
			fprintf(f, "| %zu other symbols | %.2f | %.2f | %+.2f |\n", c->ns - top,
				rest_r, rest_b, rest_d);
		fprintf(f, "| **all symbols (profiled)** | **%.2f** | **%.2f** | **%+.2f** |\n",
			c->profiled, c->base_profiled, c->profiled - c->base_profiled);
		fprintf(f, "| pktgen ns/packet (measured) | %.2f | %.2f | %+.2f |\n",
			c->measured, c->base_measured, c->measured - c->base_measured);
		if (isnan(c->floor) || isnan(c->base_floor))
			continue;
		fprintf(f, "| pktgen busy floor ns/packet | %.2f | %.2f | %+.2f", c->floor,
			c->base_floor, c->floor - c->base_floor);
		if (isnan(c->bound))
			fprintf(f, " (no bound: S unknown) |\n");
		else
			fprintf(f, " [%+.2f, %+.2f] |\n", c->floor - c->base_floor - c->bound,
				c->floor - c->base_floor + c->bound);
	}
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* a CSV line's first fields: workload, direction, row, baseline, boots, baseline
 * boots, and @what (a symbol or a cache model) */
static void csv_cell(FILE *f, const struct prof_cell *c, const char *what)
{
	fprintf(f, "%s,%s,", brnf_workloads[c->workload].name, raw_dir_names[c->dir]);
	csv_field(f, c->key);
	fputc(',', f);
	csv_field(f, c->base_key);
	fprintf(f, ",%zu,%zu,", c->nboots, c->base_nboots);
	csv_field(f, what);
}

void prof_write_csv(FILE *f, const struct prof_result *res)
{
	size_t i, k;

	fprintf(f, "workload,direction,row,baseline,boots,baseline_boots,symbol,"
		"row_insn_per_packet,baseline_insn_per_packet,difference\n");
	for (i = 0; i < res->nc; i++) {
		const struct prof_cell *c = &res->c[i];

		for (k = 0; k < c->ns; k++) {
			csv_cell(f, c, c->s[k].name);
			fprintf(f, ",%.4f,%.4f,%.4f\n", c->s[k].row, c->s[k].base, c->s[k].diff);
		}
	}
}

/* ---- the cache models ---- */

static void kib(FILE *f, unsigned int bytes)
{
	if (bytes >= 1024 && !(bytes % 1024))
		fprintf(f, "%u KiB", bytes / 1024);
	else
		fprintf(f, "%u B", bytes);
}

static void geom_md(FILE *f, const char *what, const struct cachesim_geom *g)
{
	fprintf(f, "%s ", what);
	kib(f, g->size);
	fprintf(f, " %u-way %u-byte lines", g->ways, g->line);
}

static double cycles(const double *cnt, double insn, unsigned int pen)
{
	return insn + (double)pen * (cnt[PROF_IMISS] + cnt[PROF_DMISS]);
}

/* per model, workload and direction: the lowest and highest misses per packet of a
 * row's runs */
static void cache_spread_md(FILE *f, const struct prof_result *res, size_t j)
{
	const struct prof_cell *c0 = NULL;
	size_t i;

	for (i = 0; i < res->nc; i++) {
		const struct prof_cell *c = &res->c[i];

		if (!c0 || c0->workload != c->workload || c0->dir != c->dir) {
			fprintf(f, "\n### %s, %s %s: every run, lowest to highest\n\n"
				"| row | runs | I misses | D misses |\n|:--|--:|--:|--:|\n",
				res->model[j].name, brnf_workloads[c->workload].name,
				raw_dir_names[c->dir]);
			c0 = c;
		}
		fprintf(f, "| ");
		md_escape(f, c->key);
		fprintf(f, " | %zu | %.2f to %.2f | %.2f to %.2f |\n", c->cache_nruns,
			c->cache_min[j][PROF_IMISS], c->cache_max[j][PROF_IMISS],
			c->cache_min[j][PROF_DMISS], c->cache_max[j][PROF_DMISS]);
	}
}

void prof_write_cache_md(FILE *f, const struct prof_result *res, const unsigned int *pen,
			 size_t npen)
{
	size_t i, j, k;

	fprintf(f, "# L1 cache models: misses per packet\n\n");
	fprintf(f, "The QEMU plugin's cache= models (rig/src/data/cachesim.h: set associative, "
		"LRU, write-allocate, indexed by guest virtual address, invalidated when a "
		"window opens) fed with every instruction line the vCPU fetched and every load "
		"and store it made inside the pps windows of profile.md, per packet, the mean "
		"over boots as there. The guest is the kernel the matrix measured, not the "
		"CPU the model is named after: code and data are that architecture's.\n\n");
	for (j = 0; j < res->ncache; j++) {
		fprintf(f, "- %s: ", res->model[j].name);
		geom_md(f, "I", &res->model[j].i);
		fprintf(f, "; ");
		geom_md(f, "D", &res->model[j].d);
		fprintf(f, "\n");
	}
	fprintf(f, "\nest. cycles = instructions + penalty × (I misses + D misses): one cycle "
		"per instruction and per hit, a stated penalty per miss (");
	for (k = 0; k < npen; k++)
		fprintf(f, "%s%u", k ? ", " : "", pen[k]);
	fprintf(f, " cycles); a row's change is against its baseline row. The values are "
		"the boots' (each boot's best run, as in the matrix); under each model the "
		"lowest and highest of every run of a row.\n");
	for (j = 0; j < res->ncache; j++) {
		const struct prof_cell *c0 = NULL;

		for (i = 0; i < res->nc; i++) {
			const struct prof_cell *c = &res->c[i];
			const double *r = c->cache_row[j], *b = c->cache_base[j];

			if (!c0 || c0->workload != c->workload || c0->dir != c->dir) {
				fprintf(f, "\n## %s, %s %s\n\n| row | instructions | I fetches "
					"| I misses | D accesses | D misses |", res->model[j].name,
					brnf_workloads[c->workload].name, raw_dir_names[c->dir]);
				for (k = 0; k < npen; k++)
					fprintf(f, " est. cycles at %u |", pen[k]);
				fprintf(f, "\n|:--|--:|--:|--:|--:|--:|");
				for (k = 0; k < npen; k++)
					fprintf(f, "--:|");
				fprintf(f, "\n");
				c0 = c;
			}
			fprintf(f, "| ");
			md_escape(f, c->key);
			fprintf(f, " | %.1f | %.2f | %.2f | %.2f | %.2f |", c->profiled,
				r[PROF_IFETCH], r[PROF_IMISS], r[PROF_DACC], r[PROF_DMISS]);
			for (k = 0; k < npen; k++)
				fprintf(f, " %.1f |", cycles(r, c->profiled, pen[k]));
			fprintf(f, "\n");
			if (c->is_base)
				continue;
			fprintf(f, "| ↳ change | %+.2f%% | %+.2f | %+.2f | %+.2f | %+.2f |",
				100.0 * (c->profiled / c->base_profiled - 1),
				r[PROF_IFETCH] - b[PROF_IFETCH], r[PROF_IMISS] - b[PROF_IMISS],
				r[PROF_DACC] - b[PROF_DACC], r[PROF_DMISS] - b[PROF_DMISS]);
			for (k = 0; k < npen; k++)
				fprintf(f, " %+.2f%% |", 100.0 * (cycles(r, c->profiled, pen[k]) /
					cycles(b, c->base_profiled, pen[k]) - 1));
			fprintf(f, "\n");
		}
		cache_spread_md(f, res, j);
	}
}

void prof_write_cache_csv(FILE *f, const struct prof_result *res, const unsigned int *pen,
			  size_t npen)
{
	size_t i, j, k;

	fprintf(f, "workload,direction,row,baseline,boots,baseline_boots,cache,"
		"row_insn_per_packet,baseline_insn_per_packet");
	for (k = 0; k < PROF_NCOUNTS; k++)
		fprintf(f, ",row_%s,baseline_%s", prof_cache_count_names[k],
			prof_cache_count_names[k]);
	for (k = 0; k < npen; k++)
		fprintf(f, ",row_cycles_p%u,baseline_cycles_p%u", pen[k], pen[k]);
	fprintf(f, "\n");
	for (i = 0; i < res->nc; i++) {
		const struct prof_cell *c = &res->c[i];

		for (j = 0; j < res->ncache; j++) {
			csv_cell(f, c, res->model[j].name);
			fprintf(f, ",%.4f,%.4f", c->profiled, c->base_profiled);
			for (k = 0; k < PROF_NCOUNTS; k++)
				fprintf(f, ",%.4f,%.4f", c->cache_row[j][k], c->cache_base[j][k]);
			for (k = 0; k < npen; k++)
				fprintf(f, ",%.4f,%.4f", cycles(c->cache_row[j], c->profiled, pen[k]),
					cycles(c->cache_base[j], c->base_profiled, pen[k]));
			fprintf(f, "\n");
		}
	}
}
