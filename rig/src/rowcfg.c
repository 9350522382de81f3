// SPDX-License-Identifier: GPL-2.0
/* One matrix row applied to the AP namespace (see rowcfg.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brflags.h"
#include "netns.h"
#include "nl.h"
#include "rowcfg.h"
#include "ruleset.h"
#include "util.h"

bool rowcfg_needs_brnf(const struct brnf_row *r)
{
	unsigned int f;

	for (f = 0; f < BRNF_NFAMILIES; f++)
		if (r->global[f])
			return true;
	return r->nlocal > 0;
}

void rowcfg_expected(const struct brnf_row *r, bool exp[TB_NBRIDGES])
{
	unsigned int b;

	for (b = 0; b < TB_NBRIDGES; b++)
		exp[b] = r->global[BRNF_IPTABLES] || row_local_has(r, tb_bridges[b]);
}

static int switches_set(const struct testbed *tb, struct nl *nl, const struct brnf_row *r,
			struct readback *rb)
{
	bool v[BRNF_NFAMILIES];
	unsigned int b, f;
	int err;

	if (tb->br_netfilter) {
		err = brflags_global_set(r->global);
		if (!err)
			err = brflags_global_get(rb->global);
		if (err)
			return err;
		rb->have_global = true;
	}
	rb->have_bridges = true;
	for (b = 0; b < TB_NBRIDGES; b++) {
		bool want = row_local_has(r, tb_bridges[b]);

		for (f = 0; f < BRNF_NFAMILIES; f++)
			v[f] = want;
		if (tb->br_netfilter || want) {
			err = brflags_set(nl, tb_bridges[b], v);
			if (err)
				return err;
		}
		err = brflags_get(nl, tb_bridges[b], rb->bridge[b]);
		if (err == -EOPNOTSUPP && !want) {
			rb->have_bridges = false;
			continue;
		}
		if (err) {
			if (err == -EOPNOTSUPP)
				pr_err("kernel does not report nf_call_* of %s", tb_bridges[b]);
			return err;
		}
	}
	return 0;
}

static bool readback_differs(const struct brnf_row *r, const char *source,
			     const struct readback *rb)
{
	unsigned int b, f;

	for (f = 0; f < BRNF_NFAMILIES && rb->have_global; f++)
		if (rb->global[f] != r->global[f]) {
			pr_err("row %s: bridge-nf-call-%s read back %d, configured %d", source,
			       brnf_family_names[f], rb->global[f], r->global[f]);
			return true;
		}
	for (b = 0; b < TB_NBRIDGES && rb->have_bridges; b++)
		for (f = 0; f < BRNF_NFAMILIES; f++)
			if (rb->bridge[b][f] != row_local_has(r, tb_bridges[b])) {
				pr_err("row %s: %s nf_call_%s read back %d", source,
				       tb_bridges[b], brnf_family_names[f], rb->bridge[b][f]);
				return true;
			}
	return false;
}

int rowcfg_apply(const struct testbed *tb, const struct brnf_row *r, const char *source,
		 enum verify_mode mode, struct readback *rb, bool *mismatch)
{
	struct nl *nl;
	int err;

	memset(rb, 0, sizeof(*rb));
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = netns_enter(tb->ns[TB_AP]);
	if (err)
		goto out_free;
	err = nl_open(nl);
	if (err) {
		pr_err("rtnetlink socket in %s: %s", tb->ns[TB_AP], strerror(-err));
		goto out_leave;
	}
	err = switches_set(tb, nl, r, rb);
	nl_close(nl);
out_leave:
	netns_leave();
out_free:
	free(nl);
	if (err)
		return err;
	*mismatch = readback_differs(r, source, rb);
	err = ruleset_load(tb->ns[TB_AP], r->ruleset);
	if (!err)
		err = verify_install(tb->ns[TB_AP], mode);
	return err;
}
