// SPDX-License-Identifier: GPL-2.0
/* Build-time facts, baked in by rig/rig.mk. */
#include <stdlib.h>

#include "version.h"

#ifndef BRNF_VERSION
#define BRNF_VERSION "unknown"
#endif
#ifndef BRNF_DATADIR
#define BRNF_DATADIR "rig"
#endif

const char brnf_version[] = BRNF_VERSION;

const char *brnf_datadir(void)
{
	const char *d = getenv("BRNF_DATADIR");

	return d && *d ? d : BRNF_DATADIR;
}
