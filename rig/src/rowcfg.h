/* SPDX-License-Identifier: GPL-2.0 */
/* One matrix row applied to the AP (any transport): switches and ruleset; read back. */
#ifndef BRNF_ROWCFG_H
#define BRNF_ROWCFG_H

#include <stdbool.h>
#include "apctl.h"
#include "matrix.h"
#include "record.h"
#include "testbed.h"

/* Does the row switch anything of br_netfilter on? */
bool rowcfg_needs_brnf(const struct brnf_row *r);
/*
 * Set the global sysctls and both bridges' flags, read them back into rb and load
 * the row's ruleset (nft flush ruleset first: nothing else stays loaded, the
 * counting rules of a verification pass neither). *mismatch is set when the
 * read-back differs from the row (one line says what).
 */
int rowcfg_apply(const struct ap *ap, const struct brnf_row *r, const char *source,
		 struct readback *rb, bool *mismatch);
/* IPv4 traffic: bridge b's frames reach a bridge-layer filter iff global iptables, the
 * bridge's own nf_call_iptables, or the row's ruleset filters it in the bridge family
 * (a row has one of these mechanisms: matrix.c). */
void rowcfg_expected(const struct brnf_row *r, bool exp[BRNF_NBRIDGES]);

#endif
