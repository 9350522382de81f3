// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the storm's readers of kernel and tool output
 * (rig/storm/parse.c). The first byte picks the reader: 0 a /dev/kmsg record,
 * 1 `nft list hooks` output, 2 ping's summary, 3 an rtnetlink link dump (through
 * nl_answers() and link_msg_read(), as brnf-storm reads one).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nl.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ap_state st;
	unsigned long long a, b;
	struct hooks h;
	char *text, *msg;
	int r;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] & 3) {
	case 0:
		r = parse_kmsg_record(text, &a, &msg);
		if (r >= 0 && r != SPLAT_NONE && r != SPLAT_TRACE && !splat_patterns[r])
			abort();
		if (r >= 0 && strlen(msg) > size)
			abort();
		break;
	case 1:
		parse_hooks(text, &h);
		if (h.complete && !h.pre)
			abort();
		break;
	case 2:
		parse_ping(text, &a, &b);
		break;
	case 3:
		/* the bytes as received from the socket, not NUL terminated */
		memset(&st, 0, sizeof(st));
		memcpy(text, data + 1, size - 1);
		nl_answers(text, size - 1, 0, 0, parse_link_dump, &st, "fuzz", "fuzz");
		if (st.nflagged > st.nbridges || st.nlinks_extra > MAX_BRIDGES * 2)
			abort();
		break;
	}
	free(text);
	return 0;
}
