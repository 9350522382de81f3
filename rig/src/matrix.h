/* SPDX-License-Identifier: GPL-2.0 */
/*
 * matrix: the matrix file format (one configuration row per line).
 *
 *   # comment
 *   kernel=vanilla global=0 local=br-lan ruleset=none label=brfilter-local
 *
 * Keys (each optional, each at most once per line, at least one token):
 *   kernel=<variant>     default "running"
 *   global=0|1|<list>    list of iptables,ip6tables,arptables set to 1
 *   local=-|<bridge>,... bridges (br-lan, br-wlan) with nf_call_* = 1
 *   ruleset=<name>[+<name>...]   files of rig/rulesets (brnf_rulesets), loaded together
 *   label=<text>         display label for the kernel column
 * A row whose ruleset filters in the bridge family sets no br_netfilter switch (global,
 * local): its verification counts the bridge table's frames, not iptables'.
 */
#ifndef BRNF_MATRIX_H
#define BRNF_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

enum brnf_family { BRNF_IPTABLES, BRNF_IP6TABLES, BRNF_ARPTABLES, BRNF_NFAMILIES };
#define BRNF_NBRIDGES 2		/* the bridges a row switches: brnf_bridge_names */
#define BRNF_MAX_BRIDGES 4
#define BRNF_NAME_LEN 32

struct brnf_row {
	char kernel[BRNF_NAME_LEN];
	char label[BRNF_NAME_LEN];		/* "" when not given */
	bool global[BRNF_NFAMILIES];
	unsigned int nlocal;
	char local[BRNF_MAX_BRIDGES][BRNF_NAME_LEN];
	char ruleset[BRNF_NAME_LEN];
	bool ruleset_set;			/* the line says ruleset= (else "none", or the
						 * run's --ruleset) */
	bool expect_mismatch;			/* expect=mismatch: verification must say no */
	unsigned int line;			/* line in the matrix file */
};

struct brnf_matrix {
	struct brnf_row *rows;
	size_t nrows;
};

extern const char *const brnf_family_names[BRNF_NFAMILIES + 1];	/* "iptables", ..., NULL */
/* "br-lan", "br-wlan", NULL: the one list of the bridges, in this order everywhere
 * (row keys, records, the test bed, the AP's scripts) */
extern const char *const brnf_bridge_names[BRNF_NBRIDGES + 1];

/* A file of rig/rulesets, and what of it a row's verification pass checks (cells.c). */
struct brnf_ruleset {
	const char *name;
	bool conntrack;			/* its rules track connections (ct) */
	bool flowtable;			/* offloads forwarded TCP and UDP flows (flow add @ft) */
	bool bridge[BRNF_NBRIDGES];	/* filters the bridge's IPv4/IPv6 frames in the bridge
					 * family (table bridge filter, chain stateful: verify.h) */
};
extern const struct brnf_ruleset brnf_rulesets[];		/* { NULL } terminated */
#define BRNF_MAX_RULESETS 4		/* files one row may combine: ruleset=a+b */

/* 0 or -errno; on error writes "FILE:LINE: message" into err */
int matrix_parse_file(const char *path, struct brnf_matrix *m, char *err, size_t errlen);
int matrix_parse_buf(const char *name, const char *buf, size_t len,
		     struct brnf_matrix *m, char *err, size_t errlen);
void matrix_free(struct brnf_matrix *m);
bool row_local_has(const struct brnf_row *r, const char *bridge);
/* canonical text "kernel=.. global=.. local=.. ruleset=.." (and " expect=mismatch" when
 * set) used as the row's identity;
 * returns the length written, or -ENOSPC when it does not fit */
int row_key(const struct brnf_row *r, char *buf, size_t len);

/* Display forms used by the tables: "0", "1" or "iptables,arptables";
 * "-" or "br-lan br-wlan" (space separated, as in the seed's table). */
int row_global_str(const struct brnf_row *r, char *buf, size_t len);
int row_local_str(const struct brnf_row *r, char *buf, size_t len);

/* "a, b, c" of a NULL terminated list of names (brnf_bridge_names ...). */
void matrix_names_join(const char *const *names, char *buf, size_t len);

/* Validation shared with the raw-data reader: 0 or -EINVAL with a message
 * (without file:line) in err. */
int matrix_check_name(const char *what, const char *v, char *err, size_t errlen);
int matrix_check_bridge(const char *v, char *err, size_t errlen);
int matrix_check_ruleset(const char *v, char *err, size_t errlen);

/* The files of a ruleset value ("openwrt+bridge-lan": 2), checked as
 * matrix_check_ruleset() does; the number of names or -EINVAL. */
int matrix_ruleset_parts(const char *v, const char *parts[BRNF_MAX_RULESETS], char *err,
			 size_t errlen);
/* What a row's ruleset does: the union of its files (a value that does not check: none). */
void row_ruleset_info(const struct brnf_row *r, struct brnf_ruleset *info);

#endif /* BRNF_MATRIX_H */
