/* SPDX-License-Identifier: GPL-2.0 */
/* Firewall rulesets (rig/rulesets/<name>.nft) loaded into the AP namespace. */
#ifndef BRNF_RULESET_H
#define BRNF_RULESET_H

#include <stddef.h>
#include "host.h"

/* <datadir>/rulesets/<name>.nft; -ENOENT with a message when missing. */
int ruleset_path(const char *name, char *buf, size_t len);
/* sha256 of the file, 64 hex characters. */
int ruleset_digest(const char *name, char hex[65]);
/* `nft flush ruleset` then `nft -f <file>` on h (a netns: the file itself,
 * else the file on stdin, `nft -f /proc/self/fd/0`); one line naming the ruleset
 * and nft's error when it does not load. */
int ruleset_load(const struct host *h, const char *name);

#endif
