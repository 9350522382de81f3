// SPDX-License-Identifier: GPL-2.0
/* One matrix row applied to the AP namespace (see rowcfg.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
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

void rowcfg_expected(const struct brnf_row *r, bool exp[BRNF_NBRIDGES])
{
	struct brnf_ruleset info;
	unsigned int b;

	row_ruleset_info(r, &info);
	for (b = 0; b < BRNF_NBRIDGES; b++)
		exp[b] = r->global[BRNF_IPTABLES] || row_local_has(r, brnf_bridge_names[b]) ||
			 info.bridge[b];
}

static int switches_set(const struct ap *ap, const struct brnf_row *r, struct readback *rb)
{
	bool set_bridge[BRNF_NBRIDGES], v[BRNF_NBRIDGES][BRNF_NFAMILIES];
	unsigned int b, f;
	int err;

	for (b = 0; b < BRNF_NBRIDGES; b++) {
		bool want = row_local_has(r, brnf_bridge_names[b]);

		for (f = 0; f < BRNF_NFAMILIES; f++)
			v[b][f] = want;
		set_bridge[b] = ap->br_netfilter || want;
	}
	err = ap_switches_set(ap, ap->br_netfilter, r->global, set_bridge, v);
	if (!err && !ap->built)
		journal_fault("change");
	if (!err)
		err = ap_switches_get(ap, rb);
	if (err)
		return err;
	for (b = 0; b < BRNF_NBRIDGES; b++)
		if (row_local_has(r, brnf_bridge_names[b]) && !rb->have_bridges) {
			pr_err("%s: kernel does not report nf_call_* of %s", ap->h.what,
			       brnf_bridge_names[b]);
			return -EOPNOTSUPP;
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
	for (b = 0; b < BRNF_NBRIDGES && rb->have_bridges; b++)
		for (f = 0; f < BRNF_NFAMILIES; f++)
			if (rb->bridge[b][f] != row_local_has(r, brnf_bridge_names[b])) {
				pr_err("row %s: %s nf_call_%s read back %d", source,
				       brnf_bridge_names[b], brnf_family_names[f], rb->bridge[b][f]);
				return true;
			}
	return false;
}

int rowcfg_apply(const struct ap *ap, const struct brnf_row *r, const char *source,
		 struct readback *rb, bool *mismatch)
{
	int err;

	memset(rb, 0, sizeof(*rb));
	err = switches_set(ap, r, rb);
	if (err)
		return err;
	*mismatch = readback_differs(r, source, rb);
	return ruleset_load(&ap->h, r->ruleset);
}
