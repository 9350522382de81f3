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
 *   expect=match|mismatch   mismatch: the verification must say no
 *   path=routed|wlan     the measured flows' way through the AP (brnf_path_names):
 *                        routed, sta <-> pc across both bridges (default); wlan,
 *                        sta <-> sta2 bridged on br-wlan alone
 * A row whose ruleset filters in the bridge family sets no br_netfilter switch (global,
 * local): its verification counts the bridge table's frames, not iptables'. A path=wlan
 * row has a ruleset that tracks no connections (the conntrack check of the verification
 * knows the routed flow only).
 */
#ifndef BRNF_MATRIX_H
#define BRNF_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

enum brnf_family { BRNF_IPTABLES, BRNF_IP6TABLES, BRNF_ARPTABLES, BRNF_NFAMILIES };
#define BRNF_NBRIDGES 2		/* the bridges a row switches: brnf_bridge_names */
#define BRNF_MAX_BRIDGES 4
#define BRNF_NAME_LEN 32

/* The way the measured flows take through the AP. routed: sta <-> pc, in at one bridge,
 * routed, out at the other; wlan: sta <-> sta2, bridged on br-wlan, never routed. */
enum brnf_path { BRNF_PATH_ROUTED, BRNF_PATH_WLAN, BRNF_NPATHS };

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
	enum brnf_path path;			/* path= (default routed) */
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
/* "routed", "wlan", NULL */
extern const char *const brnf_path_names[BRNF_NPATHS + 1];
/* Does the path's traffic cross bridge b (brnf_bridge_names index)? routed: both;
 * wlan: br-wlan only. */
bool brnf_path_crosses(enum brnf_path path, unsigned int b);

/* What a row's ruleset does, of what its verification pass checks (cells.c). */
struct brnf_ruleset {
	const char *name;
	bool conntrack;			/* its rules track connections (ct) */
	bool flowtable;			/* offloads forwarded TCP and UDP flows (flow add @ft) */
	bool bridge[BRNF_NBRIDGES];	/* filters the bridge's IPv4/IPv6 frames in the bridge
					 * family (table bridge filter, chain stateful: verify.h) */
};
/* A file of rig/rulesets, as scripts/ruleset-facts reads it at build time (rig.mk):
 * never written by hand. */
#define BRNF_RULESET_MAX_BRIDGES 8
struct brnf_ruleset_file {
	const char *name;		/* NAME of rig/rulesets/NAME.nft */
	bool conntrack;			/* a rule matches "ct ..." */
	bool flowtable;			/* a rule does "flow add @..." (or offload) */
	/* the names after "ibrname" in a table of the bridge family; NULL terminated */
	const char *bridges[BRNF_RULESET_MAX_BRIDGES + 1];
};
extern const struct brnf_ruleset_file brnf_rulesets[];	/* "none" first; { NULL } ends */
#define BRNF_MAX_RULESETS 4		/* files one row may combine: ruleset=a+b */

/* 0 or -errno; on error writes "FILE:LINE: message" into err */
int matrix_parse_file(const char *path, struct brnf_matrix *m, char *err, size_t errlen);
int matrix_parse_buf(const char *name, const char *buf, size_t len,
		     struct brnf_matrix *m, char *err, size_t errlen);
void matrix_free(struct brnf_matrix *m);
bool row_local_has(const struct brnf_row *r, const char *bridge);
/* canonical text "kernel=.. global=.. local=.. ruleset=.." (then " path=wlan" for a path
 * other than routed, and " expect=mismatch" when set) used as the row's identity (the
 * keys of routed rows are those of the results before path= existed);
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
/* "routed" or "wlan": the path, or -EINVAL. */
int matrix_parse_path(const char *v, char *err, size_t errlen);
/* A path=wlan row's ruleset tracks no connections, or the row filters every bridge the
 * path crosses: 0 or -EINVAL (the run's --ruleset given to rows without ruleset= is
 * checked with it too). */
int matrix_check_path_ruleset(const struct brnf_row *r, char *err, size_t errlen);

/* The files of a ruleset value ("openwrt+bridge-lan": 2), checked as
 * matrix_check_ruleset() does; the number of names or -EINVAL. */
int matrix_ruleset_parts(const char *v, const char *parts[BRNF_MAX_RULESETS], char *err,
			 size_t errlen);
/* What a row's ruleset does: the union of its files (a value that does not check: none). */
void row_ruleset_info(const struct brnf_row *r, struct brnf_ruleset *info);
/* The same of one value ("openwrt+bridge-lan"). */
void ruleset_info(const char *v, struct brnf_ruleset *info);

#endif /* BRNF_MATRIX_H */
