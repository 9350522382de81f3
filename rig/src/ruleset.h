/* SPDX-License-Identifier: GPL-2.0 */
/* Firewall rulesets (rig/rulesets/<name>.nft) loaded into the AP namespace. A row's
 * ruleset may name several files, "openwrt+bridge-lan" (matrix.h): loaded in that order. */
#ifndef BRNF_RULESET_H
#define BRNF_RULESET_H

#include <stddef.h>
#include "host.h"
#include "matrix.h"

/* <datadir>/rulesets/<file>.nft of one file; -ENOENT with a message when missing. */
int ruleset_path(const char *file, char *buf, size_t len);
/* sha256 of one file, 64 hex characters. */
int ruleset_digest(const char *file, char hex[65]);
/* The files of a ruleset: their number, or -EINVAL after one line. */
int ruleset_files(const char *name, const char *files[BRNF_MAX_RULESETS]);
/* One nft transaction on h (`nft -f /proc/self/fd/0`): `flush ruleset` and every file
 * of the ruleset, so that a ruleset that does not load leaves the one before it in
 * place. One line naming the ruleset, what its file needs and nft's error at the
 * file's own name and line when it does not load. */
int ruleset_load(const struct host *h, const char *name);

#endif
