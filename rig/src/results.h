/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results directory, written so that nothing half-done ever looks
 * complete: a new <dir> is built as <dir>.tmp.<pid> and renamed at the end; a
 * part added to an existing <dir> is built as raw/<part>.tmp.<pid> and renamed.
 */
#ifndef BRNF_RESULTS_H
#define BRNF_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

struct results {
	char dir[1024];		/* final directory */
	char top[1100];		/* where we write now (tmp or dir) */
	char part_final[1200];	/* raw/<part> under dir */
	char part[1200];	/* raw/<part> where we write now */
	bool whole;		/* we made dir (rename top), or added a part */
};

#define RESULTS_PART_LEN 128

/* A part name: letters, digits and ._+- , not starting with . or -, no ".tmp.".
 * 0 or -EINVAL with what is wrong in err. */
int results_check_part(const char *part, char *err, size_t errlen);
/* The part name is good and dir/raw/<part> does not exist yet (one line if not):
 * checked before a run changes anything, and again by results_open(). */
int results_check(const char *dir, const char *part);
int results_open(struct results *r, const char *dir, const char *part);
/* results_open() in two steps: the names (nothing made), then the directories (the
 * temporary tree made new: a run journals it in between, journal.h). */
int results_plan(struct results *r, const char *dir, const char *part);
int results_make(struct results *r);
/* <part>/runs/<NNNN>-<name>, created (name: "<workload>-<direction>" or "verify"). */
int results_run_dir(struct results *r, unsigned int order, const char *name,
		    char *buf, size_t len);
/* Rename into place. After this, r->dir holds the complete result. 0, or -errno with
 * what went wrong in err[0..errlen): what was written stays where it is. */
int results_commit(struct results *r, char *err, size_t errlen);
/* Where the results are written until results_commit(): <dir>.tmp.<pid>, or
 * <dir>/raw/<part>.tmp.<pid> for a part added to an existing directory. */
const char *results_where(const struct results *r);
/* Remove what we wrote (on error or signal, before a measured run is complete). */
void results_abort(struct results *r);
/* The default results directory: results/<UTC date and time>-<uname -r>-netns,
 * or results/<UTC date and time>-<rig file name> for a rig (rig_path not NULL);
 * when that is taken (it exists, or <it>.tmp.* is being written), the same with
 * -2, -3, ... (one line says so). 0 or -EEXIST with a message. */
int results_default_dir(char *buf, size_t len, const char *rig_path);

#endif
