// SPDX-License-Identifier: GPL-2.0
/* matrix: parser of the matrix file format, see matrix.h. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "file.h"
#include "matrix.h"

const char *const brnf_family_names[BRNF_NFAMILIES + 1] = {
	[BRNF_IPTABLES] = "iptables",
	[BRNF_IP6TABLES] = "ip6tables",
	[BRNF_ARPTABLES] = "arptables",
	[BRNF_NFAMILIES] = NULL,
};
const char *const brnf_bridge_names[BRNF_NBRIDGES + 1] = { "br-lan", "br-wlan", NULL };
const char *const brnf_path_names[BRNF_NPATHS + 1] = {
	[BRNF_PATH_ROUTED] = "routed",
	[BRNF_PATH_WLAN] = "wlan",
	[BRNF_NPATHS] = NULL,
};
/* the bridges each path crosses, brnf_bridge_names order */
static const bool path_bridges[BRNF_NPATHS][BRNF_NBRIDGES] = {
	[BRNF_PATH_ROUTED] = { true, true },
	[BRNF_PATH_WLAN] = { false, true },
};
/* rig/rulesets/<name>.nft, what each does read from the file (scripts/ruleset-facts) */
const struct brnf_ruleset_file brnf_rulesets[] = {
#include "rulesets.inc"
	{ .name = NULL },
};

#define MATRIX_MAX_BYTES (1 << 20)

static int name_index(const char *const *names, const char *v)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

void matrix_names_join(const char *const *names, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; names[i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
}

/* Names (kernel variants, labels): letters, digits and . _ + - : / ( ) */
int matrix_check_name(const char *what, const char *v, char *err, size_t errlen)
{
	const char *p;

	if (!*v) {
		seterr(err, errlen, "empty %s", what);
		return -EINVAL;
	}
	if (strlen(v) >= BRNF_NAME_LEN) {
		seterr(err, errlen, "%s '%.40s...' is longer than %d characters",
		       what, v, BRNF_NAME_LEN - 1);
		return -EINVAL;
	}
	for (p = v; *p; p++) {
		if (isalnum((unsigned char)*p) || strchr("._+-:/()", *p))
			continue;
		seterr(err, errlen, "bad character '%c' (0x%02x) in %s '%s'",
		       isprint((unsigned char)*p) ? *p : '?', (unsigned char)*p, what, v);
		return -EINVAL;
	}
	return 0;
}

int matrix_check_bridge(const char *v, char *err, size_t errlen)
{
	char known[64];

	if (name_index(brnf_bridge_names, v) >= 0)
		return 0;
	matrix_names_join(brnf_bridge_names, known, sizeof(known));
	seterr(err, errlen, "unknown bridge '%s' (known: %s)", v, known);
	return -EINVAL;
}

static const struct brnf_ruleset_file *ruleset_find(const char *v, size_t len)
{
	const struct brnf_ruleset_file *rs;

	for (rs = brnf_rulesets; rs->name; rs++)
		if (strlen(rs->name) == len && !strncmp(rs->name, v, len))
			return rs;
	return NULL;
}

int matrix_ruleset_parts(const char *v, const char *parts[BRNF_MAX_RULESETS], char *err,
			 size_t errlen)
{
	const struct brnf_ruleset_file *rs;
	const char *p = v, *end;
	char known[512];
	size_t off = 0;
	int n = 0, i;

	if (strlen(v) >= BRNF_NAME_LEN) {
		seterr(err, errlen, "ruleset '%.40s' is longer than %d characters", v,
		       BRNF_NAME_LEN - 1);
		return -EINVAL;
	}
	for (;; p = end + 1) {
		end = strchr(p, '+');
		if (!end)
			end = p + strlen(p);
		rs = ruleset_find(p, end - p);
		if (!rs) {
			for (rs = brnf_rulesets; rs->name; rs++)
				off += snprintf(known + off, off < sizeof(known) ?
						sizeof(known) - off : 0, "%s%s",
						rs == brnf_rulesets ? "" : ", ", rs->name);
			seterr(err, errlen, "unknown ruleset '%.*s' (known: %s)",
			       (int)(end - p), p, known);
			return -EINVAL;
		}
		for (i = 0; i < n; i++)
			if (parts[i] == rs->name) {
				seterr(err, errlen, "ruleset '%s' listed twice in '%s'", rs->name, v);
				return -EINVAL;
			}
		if (n == BRNF_MAX_RULESETS) {
			seterr(err, errlen, "ruleset '%s': more than %d files", v,
			       BRNF_MAX_RULESETS);
			return -EINVAL;
		}
		parts[n++] = rs->name;
		if (!*end)
			break;
	}
	if (n > 1)
		for (i = 0; i < n; i++)
			if (!strcmp(parts[i], "none")) {
				seterr(err, errlen, "ruleset '%s': none combines with nothing", v);
				return -EINVAL;
			}
	return n;
}

int matrix_check_ruleset(const char *v, char *err, size_t errlen)
{
	const char *parts[BRNF_MAX_RULESETS];

	return matrix_ruleset_parts(v, parts, err, errlen) < 0 ? -EINVAL : 0;
}

void ruleset_info(const char *v, struct brnf_ruleset *info)
{
	const char *parts[BRNF_MAX_RULESETS];
	const struct brnf_ruleset_file *rs;
	char err[8];
	int n, i, k;
	unsigned int b;

	memset(info, 0, sizeof(*info));
	info->name = v;
	n = matrix_ruleset_parts(v, parts, err, sizeof(err));
	for (i = 0; i < n; i++) {
		rs = ruleset_find(parts[i], strlen(parts[i]));
		info->conntrack |= rs->conntrack;
		info->flowtable |= rs->flowtable;
		for (k = 0; rs->bridges[k]; k++)
			for (b = 0; b < BRNF_NBRIDGES; b++)
				info->bridge[b] |= !strcmp(rs->bridges[k], brnf_bridge_names[b]);
	}
}

void row_ruleset_info(const struct brnf_row *r, struct brnf_ruleset *info)
{
	ruleset_info(r->ruleset, info);
}

bool brnf_path_crosses(enum brnf_path path, unsigned int b)
{
	return path < BRNF_NPATHS && b < BRNF_NBRIDGES && path_bridges[path][b];
}

int matrix_parse_path(const char *v, char *err, size_t errlen)
{
	int p = name_index(brnf_path_names, v);

	if (p >= 0)
		return p;
	seterr(err, errlen, "bad path '%s' (routed or wlan)", v);
	return -EINVAL;
}

int matrix_check_path_ruleset(const struct brnf_row *r, char *err, size_t errlen)
{
	struct brnf_ruleset info;
	unsigned int b, f;
	bool filtered;

	if (r->path == BRNF_PATH_ROUTED)
		return 0;
	row_ruleset_info(r, &info);
	if (!info.conntrack)
		return 0;
	/* the verification reads the conntrack entry of the path's own flow: every bridge
	 * it crosses must hand its frames to the tracking rules (br_netfilter's switches
	 * for the IP families, or the ruleset's bridge family) */
	for (b = 0; b < BRNF_NBRIDGES; b++) {
		if (!brnf_path_crosses(r->path, b))
			continue;
		filtered = info.bridge[b] || row_local_has(r, brnf_bridge_names[b]);
		for (f = 0; f < BRNF_NFAMILIES; f++)
			filtered |= r->global[f];
		if (filtered)
			continue;
		seterr(err, errlen, "ruleset '%s' tracks connections: with path=%s, only where "
		       "%s is filtered (local=, global= or the ruleset's bridge family), whose "
		       "bridged flow the verification's conntrack check reads", r->ruleset,
		       brnf_path_names[r->path], brnf_bridge_names[b]);
		return -EINVAL;
	}
	return 0;
}

static int parse_global(char *v, struct brnf_row *r, char *err, size_t errlen)
{
	char *tok, *save = NULL;
	int i, f;

	if (!strcmp(v, "0") || !strcmp(v, "1")) {
		for (i = 0; i < BRNF_NFAMILIES; i++)
			r->global[i] = v[0] == '1';
		return 0;
	}
	if (!*v || v[strlen(v) - 1] == ',' || v[0] == ',' || strstr(v, ",,"))
		goto bad;
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		f = name_index(brnf_family_names, tok);
		if (f < 0) {
			seterr(err, errlen,
			       "bad global value '%s' (0, 1 or a list of iptables,ip6tables,arptables)",
			       tok);
			return -EINVAL;
		}
		if (r->global[f]) {
			seterr(err, errlen, "'%s' listed twice in global", tok);
			return -EINVAL;
		}
		r->global[f] = true;
	}
	return 0;
bad:
	seterr(err, errlen,
	       "bad global value '%s' (0, 1 or a list of iptables,ip6tables,arptables)", v);
	return -EINVAL;
}

static int parse_local(char *v, struct brnf_row *r, char *err, size_t errlen)
{
	bool seen[BRNF_MAX_BRIDGES] = { false };
	char *tok, *save = NULL;
	int b, i;

	if (!strcmp(v, "-"))
		return 0;
	if (!*v || v[strlen(v) - 1] == ',' || v[0] == ',' || strstr(v, ",,")) {
		seterr(err, errlen, "bad local value '%s' (- or a list of bridges)", v);
		return -EINVAL;
	}
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (matrix_check_bridge(tok, err, errlen))
			return -EINVAL;
		b = name_index(brnf_bridge_names, tok);
		if (seen[b]) {
			seterr(err, errlen, "bridge '%s' listed twice in local", tok);
			return -EINVAL;
		}
		seen[b] = true;
	}
	/* canonical order: the order of brnf_bridge_names */
	for (i = 0; brnf_bridge_names[i]; i++)
		if (seen[i])
			strcpy(r->local[r->nlocal++], brnf_bridge_names[i]);
	return 0;
}

enum { K_KERNEL, K_GLOBAL, K_LOCAL, K_RULESET, K_LABEL, K_EXPECT, K_PATH, K_NKEYS };
static const char *const key_names[] = {
	"kernel", "global", "local", "ruleset", "label", "expect", "path", NULL
};

/* Bridge-family filtering and br_netfilter's switches in one row: the verification
 * pass counts one of them (verify.h), so a row has one. */
static int check_bridge_family(const struct brnf_row *r, char *err, size_t errlen)
{
	struct brnf_ruleset info;
	unsigned int b, f;
	bool family = false, brnf = r->nlocal > 0;

	row_ruleset_info(r, &info);
	for (b = 0; b < BRNF_NBRIDGES; b++)
		family |= info.bridge[b];
	for (f = 0; f < BRNF_NFAMILIES; f++)
		brnf |= r->global[f];
	if (!family || !brnf)
		return 0;
	seterr(err, errlen, "ruleset '%s' filters in the bridge family: a row with it sets "
	       "no br_netfilter switch (global=0 local=-)", r->ruleset);
	return -EINVAL;
}

/* Parse one line (already NUL terminated, comment stripped). Returns 1 when
 * a row was parsed, 0 for a blank line, -EINVAL with err set. */
static int parse_line(char *line, struct brnf_row *r, char *err, size_t errlen)
{
	bool seen[K_NKEYS] = { false };
	char *tok, *save = NULL, *v;
	int k, ntok = 0, ret;

	memset(r, 0, sizeof(*r));
	strcpy(r->kernel, "running");
	strcpy(r->ruleset, "none");
	for (tok = strtok_r(line, " \t\r\v\f", &save); tok;
	     tok = strtok_r(NULL, " \t\r\v\f", &save)) {
		ntok++;
		v = strchr(tok, '=');
		if (!v || v == tok) {
			seterr(err, errlen, "token '%s' is not key=value", tok);
			return -EINVAL;
		}
		*v++ = '\0';
		k = name_index(key_names, tok);
		if (k < 0) {
			seterr(err, errlen,
			       "unknown key '%s' (known: kernel, global, local, ruleset, label, "
			       "expect, path)",
			       tok);
			return -EINVAL;
		}
		if (seen[k]) {
			seterr(err, errlen, "duplicate key '%s'", tok);
			return -EINVAL;
		}
		seen[k] = true;
		switch (k) {
		case K_KERNEL:
			ret = matrix_check_name("kernel", v, err, errlen);
			if (!ret)
				strcpy(r->kernel, v);
			break;
		case K_LABEL:
			ret = matrix_check_name("label", v, err, errlen);
			if (!ret)
				strcpy(r->label, v);
			break;
		case K_GLOBAL:
			ret = parse_global(v, r, err, errlen);
			break;
		case K_LOCAL:
			ret = parse_local(v, r, err, errlen);
			break;
		case K_EXPECT:
			/* a row that documents a broken design: filtering must NOT
			 * happen as configured (the legacy bypass and br-lan) */
			ret = 0;
			if (!strcmp(v, "mismatch"))
				r->expect_mismatch = true;
			else if (strcmp(v, "match")) {
				seterr(err, errlen,
				       "bad expect '%s' (match or mismatch)", v);
				ret = -EINVAL;
			}
			break;
		case K_PATH:
			ret = matrix_parse_path(v, err, errlen);
			if (ret >= 0) {
				r->path = ret;
				ret = 0;
			}
			break;
		case K_RULESET:
		default:
			ret = matrix_check_ruleset(v, err, errlen);
			if (!ret) {
				strcpy(r->ruleset, v);
				r->ruleset_set = true;
			}
			break;
		}
		if (ret)
			return ret;
	}
	if (!ntok)
		return 0;
	ret = check_bridge_family(r, err, errlen);
	if (!ret)
		ret = matrix_check_path_ruleset(r, err, errlen);
	return ret ? ret : 1;
}

int matrix_parse_buf(const char *name, const char *buf, size_t len,
		     struct brnf_matrix *m, char *err, size_t errlen)
{
	char msg[256], *line = NULL, *p;
	struct brnf_row row, *rows = NULL, *tmp;
	size_t nrows = 0, cap = 0, start, end, n;
	unsigned int lineno = 0;
	int ret;

	m->rows = NULL;
	m->nrows = 0;
	if (len > MATRIX_MAX_BYTES) {
		seterr(err, errlen, "%s: larger than %d bytes", name, MATRIX_MAX_BYTES);
		return -EFBIG;
	}
	line = malloc(len + 1);
	if (!line) {
		seterr(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	for (start = 0; start < len; start = end + 1) {
		lineno++;
		for (end = start; end < len && buf[end] != '\n'; end++)
			;
		n = end - start;
		memcpy(line, buf + start, n);
		line[n] = '\0';
		if (strlen(line) != n) {
			seterr(err, errlen, "%s:%u: NUL byte in line", name, lineno);
			ret = -EINVAL;
			goto out_free;
		}
		p = strchr(line, '#');
		if (p)
			*p = '\0';
		ret = parse_line(line, &row, msg, sizeof(msg));
		if (ret < 0) {
			seterr(err, errlen, "%s:%u: %s", name, lineno, msg);
			goto out_free;
		}
		if (!ret)
			continue;
		row.line = lineno;
		if (nrows == cap) {
			cap = cap ? cap * 2 : 8;
			tmp = realloc(rows, cap * sizeof(*rows));
			if (!tmp) {
				seterr(err, errlen, "%s: out of memory", name);
				ret = -ENOMEM;
				goto out_free;
			}
			rows = tmp;
		}
		rows[nrows++] = row;
	}
	if (!nrows) {
		seterr(err, errlen, "%s: no rows (every line is blank or a comment)", name);
		ret = -EINVAL;
		goto out_free;
	}
	free(line);
	m->rows = rows;
	m->nrows = nrows;
	return 0;

out_free:
	free(line);
	free(rows);
	return ret;
}

int matrix_parse_file(const char *path, struct brnf_matrix *m, char *err, size_t errlen)
{
	size_t len;
	char *buf;
	int ret;

	m->rows = NULL;
	m->nrows = 0;
	ret = file_read(path, MATRIX_MAX_BYTES, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = matrix_parse_buf(path, buf, len, m, err, errlen);
	free(buf);
	return ret;
}

void matrix_free(struct brnf_matrix *m)
{
	free(m->rows);
	m->rows = NULL;
	m->nrows = 0;
}

bool row_local_has(const struct brnf_row *r, const char *bridge)
{
	unsigned int i;

	for (i = 0; i < r->nlocal; i++)
		if (!strcmp(r->local[i], bridge))
			return true;
	return false;
}

static int global_str(const struct brnf_row *r, char *buf, size_t len)
{
	size_t off = 0;
	int i, n = 0;

	for (i = 0; i < BRNF_NFAMILIES; i++)
		n += r->global[i];
	if (n == 0 || n == BRNF_NFAMILIES)
		return snprintf(buf, len, "%d", n ? 1 : 0);
	buf[0] = '\0';
	for (i = 0, n = 0; i < BRNF_NFAMILIES; i++) {
		if (!r->global[i])
			continue;
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%s",
				n++ ? "," : "", brnf_family_names[i]);
	}
	return off;
}

static int local_str(const struct brnf_row *r, char *buf, size_t len, char sep)
{
	size_t off = 0;
	unsigned int i;

	if (!r->nlocal)
		return snprintf(buf, len, "-");
	if (len)
		buf[0] = '\0';
	for (i = 0; i < r->nlocal; i++)
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%s",
				i ? (char[]){ sep, 0 } : "", r->local[i]);
	return off;
}

int row_global_str(const struct brnf_row *r, char *buf, size_t len)
{
	int n = global_str(r, buf, len);

	return (size_t)n < len ? n : -ENOSPC;
}

int row_local_str(const struct brnf_row *r, char *buf, size_t len)
{
	int n = local_str(r, buf, len, ' ');

	return (size_t)n < len ? n : -ENOSPC;
}

int row_key(const struct brnf_row *r, char *buf, size_t len)
{
	char g[64], l[BRNF_MAX_BRIDGES * BRNF_NAME_LEN + 8];
	int n;

	global_str(r, g, sizeof(g));
	local_str(r, l, sizeof(l), ',');
	n = snprintf(buf, len, "kernel=%s global=%s local=%s ruleset=%s%s%s%s",
		     r->kernel, g, l, r->ruleset, r->path ? " path=" : "",
		     r->path ? brnf_path_names[r->path] : "",
		     r->expect_mismatch ? " expect=mismatch" : "");
	return n >= 0 && (size_t)n < len ? n : -ENOSPC;
}
