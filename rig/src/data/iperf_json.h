/* SPDX-License-Identifier: GPL-2.0 */
/* iperf_json: read the JSON an `iperf3 -J` client writes (json-c). */
#ifndef BRNF_IPERF_JSON_H
#define BRNF_IPERF_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* What the tables need from one client's output. */
struct iperf_result {
	double bps;		/* end.sum_received.bits_per_second */
	double seconds;		/* end.sum_received.seconds (omitted time excluded), -1 if
				 * absent */
	double bytes;		/* end.sum_received.bytes, -1 if absent */
	double duration;	/* start.test_start.duration, -1 if absent */
	double omit;		/* start.test_start.omit, -1 if absent */
	int num_streams;	/* start.test_start.num_streams, -1 if absent */
	bool reverse;		/* start.test_start.reverse */
	char version[32];	/* start.version, "" if absent */
	char system_info[160];	/* start.system_info (uname -a of the client) */
};

/* Parse one `iperf3 -J` client output; *bps = end.sum_received.bits_per_second
   (TCP) – the rate the receiver saw, omitted (-O) seconds excluded by iperf3 itself.
   Returns 0 or -EINVAL with a message (e.g. the "error" field iperf3 wrote). */
int iperf_json_received_bps(const char *text, size_t len, double *bps, char *err, size_t errlen);

/* The same, filling every field of @res. */
int iperf_json_parse(const char *text, size_t len, struct iperf_result *res,
		     char *err, size_t errlen);

/* Parse @text as exactly one JSON value (whitespace may follow); NULL with a message in
 * err for truncated or malformed text, trailing data or NUL bytes. Shared with raw.c. */
struct json_object;
struct json_object *json_text_parse(const char *text, size_t len, char *err, size_t errlen);

#endif /* BRNF_IPERF_JSON_H */
