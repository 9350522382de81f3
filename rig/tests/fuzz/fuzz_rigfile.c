// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: the rig file parser. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rigfile.h"

/* What reaches argv and the AP's shell: no quote, blank or shell character. */
static void check_safe(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._@:%[]/+-", *s))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], line[1200];
	struct rig rig;
	unsigned int i, b;

	err[0] = '\0';
	if (rig_parse_buf("fuzz", (const char *)data, size, &rig, err, sizeof(err))) {
		/* an error always names the input, on one line, and leaves nothing */
		if (strncmp(err, "fuzz", 4) || strchr(err, '\n') || rig.nroles)
			abort();
		return 0;
	}
	if (rig.nroles < 3 || rig.nroles > RIG_MAX_ROLES || !rig_role(&rig, "ap") ||
	    !rig_role(&rig, "sta") || !rig_role(&rig, "pc"))
		abort();
	for (i = 0; i < rig.nroles; i++) {
		const struct rig_role *r = &rig.roles[i];

		if (rig_role_str(r, line, sizeof(line)) < 0 || !r->line)
			abort();
		if (r->transport == RIG_SSH && !r->dest[0])
			abort();
		if (r->kind == RIG_PC && !r->addr[0])
			abort();
		if (r->kind == RIG_AP && (!rig_bridge_port(r, "br-lan") ||
					  !rig_bridge_port(r, "br-wlan")))
			abort();
		if (rig.testbed && (r->transport != RIG_NETNS || r->netns[0]))
			abort();
		if (r->dest[0] == '-' || r->identity[0] == '-' || r->config[0] == '-')
			abort();
		check_safe(r->netns);
		check_safe(r->dest);
		check_safe(r->identity);
		check_safe(r->config);
		check_safe(r->addr);
		for (b = 0; b < r->nbridges; b++)
			check_safe(r->bport[b]);
	}
	return 0;
}
