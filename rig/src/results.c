// SPDX-License-Identifier: GPL-2.0
/* The results directory (see results.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
#include "util.h"

/* Taken: it exists, or a run is writing it (<path>.tmp.<pid>). */
static bool dir_taken(const char *path)
{
	char pat[1100];
	glob_t g;
	bool taken;

	if (path_exists(path))
		return true;
	snprintf(pat, sizeof(pat), "%s.tmp.*", path);
	taken = glob(pat, GLOB_NOSORT, NULL, &g) == 0 && g.gl_pathc > 0;
	globfree(&g);
	return taken;
}

int results_default_dir(char *buf, size_t len, const char *rig_path)
{
	char base[900], date[32];
	time_t t = time(NULL);
	struct utsname u;
	unsigned int n;

	strftime(date, sizeof(date), "%Y-%m-%dT%H%M%SZ", gmtime(&t));
	if (rig_path) {
		/* the AP's kernel is not known yet: the rig file's name */
		const char *name = strrchr(rig_path, '/'), *end;

		name = name ? name + 1 : rig_path;
		end = strstr(name, ".rig");
		snprintf(base, sizeof(base), "results/%s-%.*s", date,
			 end ? (int)(end - name) : (int)strlen(name), name);
	} else {
		uname(&u);
		snprintf(base, sizeof(base), "results/%s-%s-netns", date, u.release);
	}
	snprintf(buf, len, "%s", base);
	for (n = 2; dir_taken(buf); n++) {
		if (n > 999) {
			pr_err("%s: it and %s-2 .. %s-999 are all taken; choose --out", base, base,
			       base);
			return -EEXIST;
		}
		snprintf(buf, len, "%s-%u", base, n);
	}
	if (n > 2)
		fprintf(stderr, "brnf: %s is taken; this run writes %s\n", base, buf);
	return 0;
}

int results_check_part(const char *part, char *err, size_t errlen)
{
	const char *p;

	if (!*part || strlen(part) >= RESULTS_PART_LEN) {
		seterr(err, errlen, "'%.40s': want 1 to %d characters", part, RESULTS_PART_LEN - 1);
		return -EINVAL;
	}
	if (part[0] == '.' || part[0] == '-') {
		seterr(err, errlen, "'%s' must not start with '%c'", part, part[0]);
		return -EINVAL;
	}
	for (p = part; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-", *p)) {
			seterr(err, errlen, "bad character '%c' (0x%02x) in '%s' (letters, digits "
			       "and ._+- only)", isprint((unsigned char)*p) ? *p : '?',
			       (unsigned char)*p, part);
			return -EINVAL;
		}
	if (strstr(part, ".tmp.")) {
		seterr(err, errlen, "'%s': .tmp. marks a part still being written", part);
		return -EINVAL;
	}
	return 0;
}

/* dir without trailing slashes, and dir/raw/part */
static void names(struct results *r, const char *dir, const char *part)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	while (strlen(r->dir) > 1 && r->dir[strlen(r->dir) - 1] == '/')
		r->dir[strlen(r->dir) - 1] = '\0';
	snprintf(r->part_final, sizeof(r->part_final), "%s/raw/%s", r->dir, part);
}

int results_check(const char *dir, const char *part)
{
	struct results r;
	char msg[200];

	if (results_check_part(part, msg, sizeof(msg))) {
		pr_err("--part: %s", msg);
		return -EINVAL;
	}
	names(&r, dir, part);
	if (path_exists(r.part_final)) {
		pr_err("%s exists already; choose another --part or --out", r.part_final);
		return -EEXIST;
	}
	return 0;
}

int results_plan(struct results *r, const char *dir, const char *part)
{
	int err;

	err = results_check(dir, part);
	if (err)
		return err;
	names(r, dir, part);
	if (path_exists(r->dir)) {
		/* Add a part to an existing results directory. */
		r->whole = false;
		snprintf(r->top, sizeof(r->top), "%s", r->dir);
		snprintf(r->part, sizeof(r->part), "%s/raw/%s.tmp.%d", r->dir, part, getpid());
	} else {
		r->whole = true;
		snprintf(r->top, sizeof(r->top), "%s.tmp.%d", r->dir, getpid());
		snprintf(r->part, sizeof(r->part), "%s/raw/%s", r->top, part);
	}
	return 0;
}

int results_make(struct results *r)
{
	char path[1300], *slash;
	const char *mine;
	bool made;
	int err = 0;

	/* The parents as they are (--out's own, an existing results directory); the
	 * temporary tree made new, never one that exists (a link planted there). */
	mine = r->whole ? r->top : r->part;
	snprintf(path, sizeof(path), "%s", r->whole ? r->top : r->part);
	slash = strrchr(path, '/');
	if (slash && slash != path) {
		*slash = '\0';
		err = mkdir_p(path);
	}
	if (!err) {
		snprintf(path, sizeof(path), "%s", mine);
		err = mkdir_new(path);
	}
	made = !err;
	if (!err && r->whole) {
		snprintf(path, sizeof(path), "%s/raw", r->top);
		err = mkdir_new(path);
		if (!err) {
			snprintf(path, sizeof(path), "%s", r->part);
			err = mkdir_new(path);
		}
	}
	if (!err) {
		snprintf(path, sizeof(path), "%s/runs", r->part);
		err = mkdir_new(path);
	}
	if (err) {
		pr_err("mkdir %s: %s", path, strerror(-err));
		if (made)
			rm_rf(mine);
	}
	return err;
}

int results_open(struct results *r, const char *dir, const char *part)
{
	return results_plan(r, dir, part) ?: results_make(r);
}

int results_run_dir(struct results *r, unsigned int order, const char *name,
		    char *buf, size_t len)
{
	int err;

	if (snprintf(buf, len, "%s/runs/%04u-%s", r->part, order, name) >= (int)len)
		return -ENAMETOOLONG;
	err = mkdir_new(buf);
	if (err)
		pr_err("mkdir %s: %s", buf, strerror(-err));
	return err;
}

const char *results_where(const struct results *r)
{
	return r->whole ? r->top : r->part;
}

int results_commit(struct results *r, char *msg, size_t msglen)
{
	const char *from = results_where(r);
	const char *to = r->whole ? r->dir : r->part_final;

	if (rename(from, to)) {
		int err = -errno;

		seterr(msg, msglen, "rename %s to %s: %s", from, to, strerror(errno));
		return err;
	}
	snprintf(r->top, sizeof(r->top), "%s", r->dir);
	snprintf(r->part, sizeof(r->part), "%s", r->part_final);
	return 0;
}

void results_abort(struct results *r)
{
	if (r->whole && strstr(r->top, ".tmp."))
		rm_rf(r->top);
	else if (!r->whole && strstr(r->part, ".tmp."))
		rm_rf(r->part);
}
