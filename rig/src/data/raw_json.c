// SPDX-License-Identifier: GPL-2.0
/* raw_json: JSON getters of the results directory's readers (see raw_json.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "errbuf.h"
#include "iperf_json.h"
#include "raw_json.h"

struct json_object *rj_get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A non-negative integer that fits an unsigned int. */
int rj_uint(struct json_object *o, const char *key, unsigned int *v)
{
	struct json_object *x = rj_get(o, key);
	int64_t i;

	if (!x || !json_object_is_type(x, json_type_int))
		return -1;
	i = json_object_get_int64(x);
	if (i < 0 || i > 0x7fffffff)
		return -1;
	*v = (unsigned int)i;
	return 0;
}

/* A non-negative integer. */
int rj_u64(struct json_object *o, const char *key, unsigned long long *v)
{
	struct json_object *x = rj_get(o, key);
	int64_t i;

	if (!x || !json_object_is_type(x, json_type_int))
		return -1;
	i = json_object_get_int64(x);
	if (i < 0 || i == INT64_MAX)	/* json-c saturates what does not fit */
		return -1;
	*v = (unsigned long long)i;
	return 0;
}

const char *rj_str(struct json_object *o, const char *key)
{
	struct json_object *x = rj_get(o, key);

	return x && json_object_is_type(x, json_type_string) ? json_object_get_string(x) : NULL;
}

/* [a, b, c] of 0/1 (or booleans) */
int rj_flags(struct json_object *a, bool flags[BRNF_NFAMILIES])
{
	struct json_object *x;
	int i;
	int64_t v;

	if (!a || !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != BRNF_NFAMILIES)
		return -1;
	for (i = 0; i < BRNF_NFAMILIES; i++) {
		x = json_object_array_get_idx(a, i);
		if (json_object_is_type(x, json_type_boolean)) {
			flags[i] = json_object_get_boolean(x);
			continue;
		}
		if (!json_object_is_type(x, json_type_int))
			return -1;
		v = json_object_get_int64(x);
		if (v != 0 && v != 1)
			return -1;
		flags[i] = v;
	}
	return 0;
}
/* text as a JSON object, or NULL with "<name>: <why>" in err */
struct json_object *rj_parse_top(const char *name, const char *text, size_t len, char *err,
				 size_t errlen)
{
	struct json_object *top;
	char msg[256];

	top = json_text_parse(text, len, msg, sizeof(msg));
	if (!top) {
		seterr(err, errlen, "%s: %s", name, msg);
		return NULL;
	}
	if (!json_object_is_type(top, json_type_object)) {
		json_object_put(top);
		seterr(err, errlen, "%s: top level is not a JSON object", name);
		return NULL;
	}
	return top;
}

/* "name" of @key (a string) among @names (NULL terminated); its index or -1 */
int rj_enum(struct json_object *o, const char *key, const char *const *names)
{
	const char *s = rj_str(o, key);
	int i;

	for (i = 0; s && names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}
/* A message quotes names from the input: keep it on one line. */
void rj_one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}
