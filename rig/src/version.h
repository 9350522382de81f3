/* SPDX-License-Identifier: GPL-2.0 */
/* Build-time facts: controller version (git describe) and the data directory. */
#ifndef BRNF_VERSION_H
#define BRNF_VERSION_H

extern const char brnf_version[];
/* Directory holding rulesets/ and matrices/ (env BRNF_DATADIR overrides). */
const char *brnf_datadir(void);

#endif
