// SPDX-License-Identifier: GPL-2.0
/*
 * raw: read the raw data of a results directory, see raw.h: its parts, their runs and
 * flows, in order and checked. The files themselves: raw_record.c (record.json),
 * raw_meta.c (run.txt, provenance.json, qemu.json), raw_json.c (the JSON getters).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errbuf.h"
#include "file.h"
#include "iperf_json.h"
#include "raw.h"

#define RAW_MAX_FILE (16 << 20)

static int path_join(char *buf, size_t len, const char *a, const char *b,
		     char *err, size_t errlen)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	if (n < 0 || (size_t)n >= len) {
		seterr(err, errlen, "%s/%s: path too long", a, b);
		return -ENAMETOOLONG;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the entries of @path (without . and ..), directories only when
 * @dirs. */
static int list_dir(const char *path, bool dirs, char ***names, size_t *n,
		    char *err, size_t errlen)
{
	char **v = NULL, **tmp, sub[4096];
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret;

	d = opendir(path);
	if (!d) {
		ret = -errno;
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (dirs) {
			ret = path_join(sub, sizeof(sub), path, de->d_name, err, errlen);
			if (ret)
				goto out_free;
			if (stat(sub, &st)) {
				ret = -errno;
				seterr(err, errlen, "%s: %s", sub, strerror(errno));
				goto out_free;
			}
			if (!S_ISDIR(st.st_mode))
				continue;
		}
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			tmp = realloc(v, cap * sizeof(*v));
			if (!tmp)
				goto out_nomem;
			v = tmp;
		}
		v[cnt] = strdup(de->d_name);
		if (!v[cnt])
			goto out_nomem;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;

out_nomem:
	ret = -ENOMEM;
	seterr(err, errlen, "%s: out of memory", path);
out_free:
	while (cnt)
		free(v[--cnt]);
	free(v);
	closedir(d);
	return ret;
}

static void free_names(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/* Kernel release from iperf3's system_info "Linux host 6.12.0 #1 SMP ..." */
static void release_from_sysinfo(const char *si, char *buf, size_t len)
{
	char sys[32], host[128], rel[128];

	buf[0] = '\0';
	if (sscanf(si, "%31s %127s %127s", sys, host, rel) == 3)
		snprintf(buf, len, "%s", rel);
}

/* tcp: the sum of the flows' received rates; tcp-bytes: the bytes all flows received
 * over the longest flow's time. In Mbit/s. */
static int read_flows(const char *rundir, struct raw_run *run, struct raw_part *part,
		      char *err, size_t errlen)
{
	struct iperf_result res;
	char path[4096], msg[256], *buf;
	double bps = 0, bytes = 0, seconds = 0;
	unsigned int i;
	size_t len;
	int ret;

	for (i = 0; i < run->nflows; i++) {
		ret = path_join(path, sizeof(path), rundir, run->flow_file[i], err, errlen);
		if (ret)
			return ret;
		ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
		if (ret)
			return ret;
		ret = iperf_json_parse(buf, len, &res, msg, sizeof(msg));
		free(buf);
		if (ret) {
			seterr(err, errlen, "%s: %s", path, msg);
			return ret;
		}
		bps += res.bps;
		if (!isfinite(bps)) {
			seterr(err, errlen, "%s: the flows' rates add up to %g", path, bps);
			return -ERANGE;
		}
		if (run->workload == WL_TCP_BYTES) {
			if (!(res.bytes > 0) || !(res.seconds > 0)) {
				seterr(err, errlen, "%s: end.sum_received.bytes or .seconds missing "
				       "or 0 (a tcp-bytes run needs both)", path);
				return -EINVAL;
			}
			bytes += res.bytes;
			if (res.seconds > seconds)
				seconds = res.seconds;
		}
		if (i == 0) {
			run->duration = res.duration;
			run->omit = res.omit;
			if (!part->kernel_release[0] && res.system_info[0]) {
				release_from_sysinfo(res.system_info, part->kernel_release,
						     sizeof(part->kernel_release));
				part->release_from_iperf = part->kernel_release[0];
			}
		}
	}
	if (run->workload == WL_TCP_BYTES)
		run->value = bytes * 8 / seconds / 1e6;
	else
		run->value = bps / 1e6;
	if (!isfinite(run->value)) {
		seterr(err, errlen, "%s: the flows' bytes add up to %g", rundir, bytes);
		return -ERANGE;
	}
	return 0;
}

static int add_run(struct raw_set *s, size_t *cap, const struct raw_run *run)
{
	struct raw_run *tmp;

	if (s->nruns == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		tmp = realloc(s->runs, *cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		s->runs = tmp;
	}
	s->runs[s->nruns++] = *run;
	return 0;
}

static const struct raw_run *cmp_base;

static int cmp_uint(unsigned int a, unsigned int b)
{
	return (a > b) - (a < b);
}

static int cmp_run_id(const void *a, const void *b)
{
	const struct raw_run *x = &cmp_base[*(const size_t *)a];
	const struct raw_run *y = &cmp_base[*(const size_t *)b];

	return cmp_uint(x->row_index, y->row_index) ?: cmp_uint(x->kind, y->kind) ?:
	       cmp_uint(x->workload, y->workload) ?: cmp_uint(x->dir, y->dir) ?:
	       cmp_uint(x->repetition, y->repetition) ?: strcmp(x->name, y->name);
}

/*
 * Within one part a row index names one configuration (in measured runs and
 * verification passes alike), and (row, workload, direction, repetition) one measured
 * run: anything else would be counted twice or mixed up.
 */
static int check_part(const char *path, const struct raw_set *s, size_t first,
		      char *err, size_t errlen)
{
	const struct raw_run *a, *b;
	size_t n = s->nruns - first, i, *ix;
	int ret = 0;

	ix = malloc((n ? n : 1) * sizeof(*ix));
	if (!ix) {
		seterr(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ix[i] = first + i;
	cmp_base = s->runs;
	qsort(ix, n, sizeof(*ix), cmp_run_id);
	for (i = 1; i < n && !ret; i++) {
		a = &s->runs[ix[i - 1]];
		b = &s->runs[ix[i]];
		if (a->row_index != b->row_index)
			continue;
		if (strcmp(a->key, b->key)) {
			seterr(err, errlen, "%s/%s/record.json: row.index %u is '%s' here but "
			       "'%s' in %s", path, b->name, b->row_index, b->key, a->key, a->name);
			ret = -EINVAL;
		} else if (a->kind == RAW_MEASURE && b->kind == RAW_MEASURE &&
			   a->workload == b->workload && a->dir == b->dir &&
			   a->repetition == b->repetition) {
			seterr(err, errlen, "%s/%s/record.json: row %u, %s, %s, repetition %u "
			       "again (also in %s)", path, b->name, b->row_index,
			       brnf_workloads[b->workload].name, raw_dir_names[b->dir],
			       b->repetition, a->name);
			ret = -EINVAL;
		}
	}
	free(ix);
	return ret;
}

/* A schema 2 run directory is named after the record's order, workload and direction. */
static int check_name(const char *rec, const struct raw_run *run, char *err, size_t errlen)
{
	char want[RAW_NAME_LEN];

	if (raw_run_dir_name(run, want, sizeof(want)) || strcmp(run->name, want)) {
		seterr(err, errlen, "%s: the run directory is '%s', the record says '%s' "
		       "(order, workload, direction)", rec, run->name, want);
		return -EINVAL;
	}
	return 0;
}

static int read_part(const char *dir, size_t pi, struct raw_set *s, size_t *cap,
		     char *err, size_t errlen)
{
	size_t first = s->nruns;
	struct raw_part *part = &s->parts[pi];
	char path[4096], rundir[4096], rec[4096], *buf;
	char **runs = NULL;
	struct raw_run *run;
	size_t nruns = 0, i, len;
	int ret;

	snprintf(path, sizeof(path), "%s/raw/%s/provenance.json", dir, part->name);
	ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = raw_parse_provenance(path, buf, len, part, err, errlen);
	free(buf);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/raw/%s/qemu.json", dir, part->name);
	if (!access(path, F_OK)) {
		ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
		if (ret)
			return ret;
		ret = raw_parse_qemu(path, buf, len, part, err, errlen);
		free(buf);
		if (ret)
			return ret;
	}
	if (!part->clock[0])
		strcpy(part->clock, "realtime");

	snprintf(path, sizeof(path), "%s/raw/%s/runs", dir, part->name);
	ret = list_dir(path, false, &runs, &nruns, err, errlen);
	if (ret)
		return ret;
	if (!nruns) {
		seterr(err, errlen, "%s: no runs", path);
		ret = -ENOENT;
		goto out_free;
	}
	run = malloc(sizeof(*run));
	if (!run) {
		ret = -ENOMEM;
		seterr(err, errlen, "%s: out of memory", path);
		goto out_free;
	}
	for (i = 0; i < nruns; i++) {
		ret = path_join(rundir, sizeof(rundir), path, runs[i], err, errlen);
		if (ret)
			break;
		ret = path_join(rec, sizeof(rec), rundir, "record.json", err, errlen);
		if (ret)
			break;
		ret = file_read(rec, RAW_MAX_FILE, &buf, &len, err, errlen);
		if (ret)
			break;
		ret = raw_parse_record(rec, buf, len, run, err, errlen);
		free(buf);
		if (ret)
			break;
		run->part = pi;
		snprintf(run->name, sizeof(run->name), "%s", runs[i]);
		if (run->schema >= 2) {
			ret = check_name(rec, run, err, errlen);
			if (ret)
				break;
		}
		if (run->nflows) {
			ret = read_flows(rundir, run, part, err, errlen);
			if (ret)
				break;
		}
		ret = add_run(s, cap, run);
		if (ret) {
			seterr(err, errlen, "%s: out of memory", rundir);
			break;
		}
	}
	free(run);
	if (!ret)
		ret = check_part(path, s, first, err, errlen);
out_free:
	free_names(runs, nruns);
	return ret;
}

/* A part still being written (results.c names it <part>.tmp.<pid>) is not data. */
static bool is_tmp_name(const char *name)
{
	const char *p = strstr(name, ".tmp.");

	if (!p || !p[5])
		return false;
	for (p += 5; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* <dir>/run.txt is optional */
static int read_run_txt(const char *dir, struct raw_set *s, char *err, size_t errlen)
{
	char path[4096], *buf;
	size_t len;
	int ret;

	s->run_txt.target_pct = NAN;
	s->run_txt.target_workloads = 0;
	ret = path_join(path, sizeof(path), dir, "run.txt", err, errlen);
	if (ret || access(path, F_OK))
		return ret;
	ret = file_read(path, RAW_MAX_FILE, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = raw_parse_run_txt(path, buf, len, &s->run_txt, err, errlen);
	free(buf);
	return ret;
}

int raw_read_dir(const char *dir, struct raw_set *s, char *err, size_t errlen)
{
	char path[4096], **parts = NULL;
	size_t nparts = 0, cap = 0, i;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/raw", dir);
	ret = list_dir(path, true, &parts, &nparts, err, errlen);
	if (ret)
		return ret;
	s->parts = calloc(nparts ? nparts : 1, sizeof(*s->parts));
	if (!s->parts) {
		seterr(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < nparts; i++) {
		if (is_tmp_name(parts[i])) {
			fprintf(stderr, "brnf: %s/%s: ignored, an unfinished part (.tmp.<pid>)\n",
				path, parts[i]);
			continue;
		}
		if (strlen(parts[i]) >= RAW_NAME_LEN) {
			seterr(err, errlen, "%s/%s: name too long", path, parts[i]);
			ret = -ENAMETOOLONG;
			goto out_free;
		}
		strcpy(s->parts[s->nparts].name, parts[i]);
		ret = read_part(dir, s->nparts++, s, &cap, err, errlen);
		if (ret)
			goto out_free;
	}
	if (!s->nparts) {
		seterr(err, errlen, "%s: no parts (no raw data)", path);
		ret = -ENOENT;
		goto out_free;
	}
	ret = read_run_txt(dir, s, err, errlen);
	if (ret)
		goto out_free;
	free_names(parts, nparts);
	return 0;

out_free:
	free_names(parts, nparts);
	raw_free(s);
	return ret;
}

void raw_free(struct raw_set *s)
{
	free(s->parts);
	free(s->runs);
	memset(s, 0, sizeof(*s));
}
