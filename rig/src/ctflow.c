// SPDX-License-Identifier: GPL-2.0
/* The pps flow's conntrack entry in the AP (see ctflow.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctflow.h"
#include "pktgen.h"
#include "util.h"

#define STR_(x) #x
#define STR(x) STR_(x)
/* the flow both ways: sport and dport are the same port */
#define CT_FLOW_MATCH "-p udp --sport " STR(PKTGEN_UDP_PORT) " --dport " STR(PKTGEN_UDP_PORT)

int ct_flow_forget(const struct host *ap)
{
	/* conntrack -D says 1 when there was nothing to delete: absence is checked by
	 * the reader; a missing conntrack is 127, which host_cmd names */
	static const char script[] =
		"command -v conntrack >/dev/null || exit 127\n"
		"conntrack -D " CT_FLOW_MATCH " >/dev/null 2>&1\n"
		"exit 0\n";

	return host_cmd_sh(ap, "forget the pps flow (conntrack -D)", script, NULL, 0, NULL);
}

/* "udp      17 29 src=198.18.2.2 dst=198.18.1.2 sport=9 dport=9 src=... [OFFLOAD] ..."
 * (conntrack -L prints one line per entry on stdout, its summary on stderr) */
static void ct_flow_parse(const char *out, struct ct_flow *f)
{
	const char *line = out;
	size_t n;

	memset(f, 0, sizeof(*f));
	while (*line && strncmp(line, "udp ", 4)) {
		line += strcspn(line, "\n");
		line += *line == '\n';
	}
	if (!*line)
		return;
	n = strcspn(line, "\n");
	snprintf(f->entry, sizeof(f->entry), "%.*s", (int)n, line);
	f->tracked = true;
	f->offloaded = strstr(f->entry, " [OFFLOAD]") != NULL;
}

int ct_flow_read(const struct host *ap, struct ct_flow *f)
{
	char *argv[] = { "conntrack", "-L", "-p", "udp", "--sport", STR(PKTGEN_UDP_PORT),
			 "--dport", STR(PKTGEN_UDP_PORT), NULL };
	char *out = NULL;
	int err;

	err = host_cmd(ap, "read the pps flow's entry (conntrack -L)", "conntrack", argv, NULL,
		       0, &out);
	if (!err)
		ct_flow_parse(out ? out : "", f);
	free(out);
	return err;
}
