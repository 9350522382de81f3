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
/* `nft flush ruleset` then `nft -f <file>` of each file on h (a netns: the file itself,
 * else the file on stdin, `nft -f /proc/self/fd/0`); one line naming the ruleset,
 * what its file needs and nft's error when it does not load. */
int ruleset_load(const struct host *h, const char *name);

#endif
