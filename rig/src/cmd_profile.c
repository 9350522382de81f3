// SPDX-License-Identifier: GPL-2.0
/* `brnf profile DIR [--tolerance PCT] [--top N] [--miss-penalty LIST]`: instructions
 * per packet by kernel symbol from the boots' insn-profile.txt and their pps runs
 * (profile.h), into DIR/profile.md and DIR/profile.csv; with cache models in the
 * profiles, their misses per packet into DIR/cache.md and DIR/cache.csv. Every row is
 * compared with its path's baseline, and with another row where DIR/profile.pairs
 * asks: one "ROW against BASE" per line (the rows' keys, as profile.csv names them;
 * '#' starts a comment line). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "errbuf.h"
#include "file.h"
#include "profile.h"
#include "util.h"

#define PROF_FILE "insn-profile.txt"
#define PAIRS_FILE "profile.pairs"
#define PAIRS_SEP " against "
#define PAIRS_MAX 64
#define PROF_MAX_FILE (64u << 20)
#define MAX_PENALTIES 8

struct profile_cmd {
	double tolerance_pct;
	unsigned long top;
	unsigned int pen[MAX_PENALTIES];
	size_t npen;
};

static int set_tolerance(void *ctx, const char *v)
{
	struct profile_cmd *o = ctx;
	char *end;

	errno = 0;
	o->tolerance_pct = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(o->tolerance_pct) ||
	    o->tolerance_pct <= 0 || o->tolerance_pct > 100)
		return -EINVAL;
	return 0;
}

static int set_top(void *ctx, const char *v)
{
	struct profile_cmd *o = ctx;
	char *end;

	errno = 0;
	o->top = strtoul(v, &end, 10);
	if (errno || end == v || *end || !o->top || *v == '-')
		return -EINVAL;
	return 0;
}

static int set_penalty(void *ctx, const char *v)
{
	struct profile_cmd *o = ctx;
	const char *p = v;
	char *end;

	o->npen = 0;
	for (;;) {
		unsigned long x;

		if (*p < '0' || *p > '9' || o->npen == MAX_PENALTIES)
			return -EINVAL;
		errno = 0;
		x = strtoul(p, &end, 10);
		if (errno || !x || x > 100000)
			return -EINVAL;
		o->pen[o->npen++] = (unsigned int)x;
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}

const struct opt profile_opts[] = {
	{ "--tolerance", "PCT", "how far a window's instructions may lie from its run's "
	  "pktgen time, in percent (default 1)", set_tolerance },
	{ "--top", "N", "symbols per table in profile.md, the rest summed (default 25)",
	  set_top },
	{ "--miss-penalty", "LIST", "cycles per cache miss for cache.md's estimate, up to 8, "
	  "comma separated (default 13,50,100)", set_penalty },
	{ NULL, NULL, NULL, NULL },
};

struct profile_out {
	const char *name;
	const struct prof_result *res;
	const struct profile_cmd *o;
};

static int render_profile(FILE *f, void *arg)
{
	const struct profile_out *p = arg;

	if (!strcmp(p->name, "profile.md"))
		prof_write_md(f, p->res, p->o->top);
	else if (!strcmp(p->name, "profile.csv"))
		prof_write_csv(f, p->res);
	else if (!strcmp(p->name, "cache.md"))
		prof_write_cache_md(f, p->res, p->o->pen, p->o->npen);
	else
		prof_write_cache_csv(f, p->res, p->o->pen, p->o->npen);
	return 0;
}

static int write_out(const char *dir, const char *name, const struct prof_result *res,
		     const struct profile_cmd *o)
{
	return render_and_say(dir, name, render_profile, &(struct profile_out){ name, res, o });
}

struct pairs {
	char *buf;			/* the file, cut into the keys */
	struct prof_pair p[PAIRS_MAX];	/* where: "FILE:LINE", allocated */
	size_t n;
};

static void pairs_free(struct pairs *pp)
{
	size_t q;

	for (q = 0; q < pp->n; q++)
		free((char *)pp->p[q].where);
	free(pp->buf);
	memset(pp, 0, sizeof(*pp));
}

/* DIR/profile.pairs into @pp (none when there is no such file); 0, or -1 with the
 * error said ("FILE:LINE: ...") */
static int read_pairs(const char *dir, struct pairs *pp)
{
	char *name, *line, *next, err[512];
	size_t len, ln = 0;

	memset(pp, 0, sizeof(*pp));
	if (asprintf(&name, "%s/" PAIRS_FILE, dir) < 0) {
		pr_err("out of memory");
		return -1;
	}
	if (access(name, F_OK)) {
		free(name);
		return 0;
	}
	if (file_read(name, 1u << 20, &pp->buf, &len, err, sizeof(err))) {
		pr_err("%s", err);
		free(name);
		return -1;
	}
	for (line = pp->buf; line && *line; line = next) {
		char *sep, *end;

		ln++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line || *line == '#')
			continue;
		sep = strstr(line, PAIRS_SEP);
		end = line + strlen(line);
		if (!sep || sep == line || sep + strlen(PAIRS_SEP) == end ||
		    strstr(sep + 1, PAIRS_SEP)) {
			pr_err("%s:%zu: want 'ROW against BASE' (two row keys of profile.csv)",
			       name, ln);
			goto fail;
		}
		if (pp->n == PAIRS_MAX) {
			pr_err("%s:%zu: more than %d pairs", name, ln, PAIRS_MAX);
			goto fail;
		}
		*sep = '\0';
		pp->p[pp->n].row = line;
		pp->p[pp->n].base = sep + strlen(PAIRS_SEP);
		if (asprintf((char **)&pp->p[pp->n].where, "%s:%zu", name, ln) < 0) {
			pr_err("out of memory");
			goto fail;
		}
		pp->n++;
	}
	free(name);
	return 0;
fail:
	free(name);
	pairs_free(pp);
	return -1;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_cmd o = { .tolerance_pct = 1, .top = 25, .pen = { 13, 50, 100 },
				 .npen = 3 };
	struct prof_opts po = { 0 };
	struct prof_file **files = NULL;
	struct prof_result res = { 0 };
	struct raw_set s = { 0 };
	struct pairs pp = { 0 };
	char **names = NULL, *dir[1], err[1024];
	size_t p, nfiles = 0;
	int n, ret = EXIT_ERR;

	n = opts_parse(profile_opts, argc, argv, &o, dir, 1);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 1) {
		pr_err("usage: brnf profile DIR [--tolerance PCT] [--top N] [--miss-penalty "
		       "LIST]");
		return EXIT_USAGE;
	}
	if (read_pairs(dir[0], &pp))
		return EXIT_ERR;
	if (raw_read_dir(dir[0], &s, err, sizeof(err))) {
		pr_err("%s", err);
		pairs_free(&pp);
		return EXIT_ERR;
	}
	files = calloc(s.nparts ? s.nparts : 1, sizeof(*files));
	names = calloc(s.nparts ? s.nparts : 1, sizeof(*names));
	if (!files || !names) {
		pr_err("out of memory");
		goto out;
	}
	for (p = 0; p < s.nparts; p++) {
		char *buf;
		size_t len;

		if (asprintf(&names[p], "%s/raw/%s/" PROF_FILE, dir[0], s.parts[p].name) < 0) {
			names[p] = NULL;
			pr_err("out of memory");
			goto out;
		}
		if (access(names[p], F_OK))
			continue;
		if (file_read(names[p], PROF_MAX_FILE, &buf, &len, err, sizeof(err))) {
			pr_err("%s", err);
			goto out;
		}
		files[p] = calloc(1, sizeof(**files));
		if (!files[p] || prof_parse(names[p], buf, len, files[p], err, sizeof(err))) {
			free(buf);
			pr_err("%s", files[p] ? err : "out of memory");
			free(files[p]);
			files[p] = NULL;
			goto out;
		}
		free(buf);
		nfiles++;
	}
	if (!nfiles) {
		pr_err("%s: no raw/<part>/" PROF_FILE " (run the matrix with scripts/ab-matrix "
		       "--profile, or make profile)", dir[0]);
		goto out;
	}
	po.tolerance = o.tolerance_pct / 100.0;
	po.part_best = s.run_txt.part_best;
	po.pairs = pp.p;
	po.npairs = pp.n;
	if (prof_attribute(&s, files, (const char *const *)names, &po, &res, err,
			   sizeof(err))) {
		pr_err("%s", err);
		goto out;
	}
	if (write_out(dir[0], "profile.md", &res, &o) ||
	    write_out(dir[0], "profile.csv", &res, &o))
		goto out;
	if (res.ncache && (write_out(dir[0], "cache.md", &res, &o) ||
			   write_out(dir[0], "cache.csv", &res, &o)))
		goto out;
	ret = EXIT_OK;
out:
	prof_result_free(&res);
	for (p = 0; p < s.nparts; p++) {
		if (files && files[p]) {
			prof_free(files[p]);
			free(files[p]);
		}
		if (names)
			free(names[p]);
	}
	free(files);
	free(names);
	raw_free(&s);
	pairs_free(&pp);
	return ret;
}
