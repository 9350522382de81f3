/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw_json: the JSON getters the readers of a results directory share (raw_record.c,
 * raw_meta.c). Internal to the data side; a message is one line (rj_one_line()).
 */
#ifndef BRNF_RAW_JSON_H
#define BRNF_RAW_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "matrix.h"

struct json_object;

/* o's member key, NULL when o is no object or has none */
struct json_object *rj_get(struct json_object *o, const char *key);
/* an unsigned integer member: 0, or -1 when missing or not one */
int rj_uint(struct json_object *o, const char *key, unsigned int *v);
int rj_u64(struct json_object *o, const char *key, unsigned long long *v);
/* a string member or NULL */
const char *rj_str(struct json_object *o, const char *key);
/* [0|1, 0|1, 0|1] (brnf_family_names order): 0, or -1 */
int rj_flags(struct json_object *a, bool flags[BRNF_NFAMILIES]);
/* text as a JSON object, or NULL with "<name>: <why>" in err */
struct json_object *rj_parse_top(const char *name, const char *text, size_t len, char *err,
				 size_t errlen);
/* the index of string member key among names (NULL terminated), or -1 */
int rj_enum(struct json_object *o, const char *key, const char *const *names);
/* control characters of a message (it quotes the input) replaced: one line */
void rj_one_line(char *msg);

#endif
