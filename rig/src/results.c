// SPDX-License-Identifier: GPL-2.0
/* The results directory (see results.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
#include "util.h"

void results_default_dir(char *buf, size_t len)
{
	struct utsname u;
	char date[32];
	time_t t = time(NULL);

	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%dT%H%M%SZ", gmtime(&t));
	snprintf(buf, len, "results/%s-%s-netns", date, u.release);
}

int results_open(struct results *r, const char *dir, const char *part)
{
	int err;

	memset(r, 0, sizeof(*r));
	if (!*part || strchr(part, '/') || part[0] == '.') {
		pr_err("--part %s: not a plain name", part);
		return -EINVAL;
	}
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	while (strlen(r->dir) > 1 && r->dir[strlen(r->dir) - 1] == '/')
		r->dir[strlen(r->dir) - 1] = '\0';
	snprintf(r->part_final, sizeof(r->part_final), "%s/raw/%s", r->dir, part);
	if (path_exists(r->dir)) {
		/* Add a part to an existing results directory. */
		if (path_exists(r->part_final)) {
			pr_err("%s exists already; choose another --part or --out", r->part_final);
			return -EEXIST;
		}
		r->whole = false;
		snprintf(r->top, sizeof(r->top), "%s", r->dir);
		snprintf(r->part, sizeof(r->part), "%s/raw/%s.tmp.%d", r->dir, part, getpid());
	} else {
		r->whole = true;
		snprintf(r->top, sizeof(r->top), "%s.tmp.%d", r->dir, getpid());
		snprintf(r->part, sizeof(r->part), "%s/raw/%s", r->top, part);
	}
	err = mkdir_p(r->part);
	if (!err) {
		char runs[1300];

		snprintf(runs, sizeof(runs), "%s/runs", r->part);
		err = mkdir_p(runs);
	}
	if (err)
		pr_err("mkdir %s: %s", r->part, strerror(-err));
	return err;
}

int results_run_dir(struct results *r, unsigned int order, const char *direction,
		    char *buf, size_t len)
{
	int err;

	if (snprintf(buf, len, "%s/runs/%04u-%s", r->part, order, direction) >= (int)len)
		return -ENAMETOOLONG;
	err = mkdir_p(buf);
	if (err)
		pr_err("mkdir %s: %s", buf, strerror(-err));
	return err;
}

int results_commit(struct results *r)
{
	const char *from = r->whole ? r->top : r->part;
	const char *to = r->whole ? r->dir : r->part_final;

	if (rename(from, to)) {
		int err = -errno;

		pr_err("rename %s to %s: %s (the data stay in %s)", from, to, strerror(errno),
		       from);
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
