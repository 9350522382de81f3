// SPDX-License-Identifier: GPL-2.0
/* Rig file parser (format in rigfile.h). Only libc and matrix.h's bridge names. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "errbuf.h"
#include "file.h"
#include "rigfile.h"

const char *const rig_transport_names[] = { "netns", "ssh", "local", NULL };

#define RIG_MAX_BYTES (1 << 20)

enum rig_key {
	K_ROLE, K_TRANSPORT, K_NETNS, K_DEST, K_PORT, K_IDENTITY, K_CONFIG, K_ADDR,
	K_BRIDGE, K_NKEYS
};
static const char *const key_names[K_NKEYS] = {
	"role", "transport", "netns", "dest", "port", "identity", "config", "addr", "bridge",
};

/* Every value ends up in an argv or in a shell script: allow only what names
 * and paths need, never quotes, blanks, $, `, ; or the like. */
static int check_chars(const char *key, const char *v, size_t max, const char *extra,
		       char *msg, size_t len)
{
	const char *p;

	if (!*v) {
		seterr(msg, len, "empty %s=", key);
		return -EINVAL;
	}
	if (strlen(v) >= max) {
		seterr(msg, len, "%s= is longer than %zu characters", key, max - 1);
		return -EINVAL;
	}
	if (v[0] == '-') {
		seterr(msg, len, "%s='%s' must not start with '-'", key, v);
		return -EINVAL;
	}
	for (p = v; *p; p++) {
		if (isalnum((unsigned char)*p) || strchr(extra, *p))
			continue;
		seterr(msg, len, "bad character '%c' (0x%02x) in %s=",
		       isprint((unsigned char)*p) ? *p : '?', (unsigned char)*p, key);
		return -EINVAL;
	}
	return 0;
}

static int parse_role_name(const char *v, struct rig_role *r, char *msg, size_t len)
{
	size_t n;

	if (!strcmp(v, "ap")) {
		r->kind = RIG_AP;
	} else if (!strncmp(v, "sta", 3) || !strncmp(v, "pc", 2)) {
		r->kind = v[0] == 's' ? RIG_STA : RIG_PC;
		n = r->kind == RIG_STA ? 3 : 2;
		if (v[n] && (v[n] < '2' || v[n] > '9' || v[n + 1])) {
			seterr(msg, len, "role '%.20s': use ap, sta, sta2..sta9, pc or pc2..pc9",
			       v);
			return -EINVAL;
		}
	} else {
		seterr(msg, len, "role '%.20s' is unknown (ap, sta, sta2..sta9, pc, pc2..pc9)", v);
		return -EINVAL;
	}
	snprintf(r->name, sizeof(r->name), "%s", v);
	return 0;
}

static int parse_bridge(const char *v, struct rig_role *r, char *msg, size_t len)
{
	const char *colon = strchr(v, ':');
	char br[16], names[64];
	unsigned int i;
	int known = 0;

	if (!colon || colon == v || !colon[1]) {
		seterr(msg, len, "bridge='%.40s': want BRIDGE:PORT (e.g. br-lan:eth0)", v);
		return -EINVAL;
	}
	snprintf(br, sizeof(br), "%.*s", (int)(colon - v) < 15 ? (int)(colon - v) : 15, v);
	for (i = 0; brnf_bridge_names[i]; i++)
		known |= !strcmp(brnf_bridge_names[i], br);
	if (!known || colon - v > 15) {
		matrix_names_join(brnf_bridge_names, names, sizeof(names));
		seterr(msg, len, "bridge '%.*s' is not one the matrix knows (%s)",
		       (int)(colon - v) < 40 ? (int)(colon - v) : 40, v, names);
		return -EINVAL;
	}
	if (check_chars("bridge port", colon + 1, 16, "._-", msg, len))
		return -EINVAL;
	for (i = 0; i < r->nbridges; i++)
		if (!strcmp(r->bridge[i], br)) {
			seterr(msg, len, "bridge %s given twice", br);
			return -EINVAL;
		}
	if (r->nbridges >= RIG_MAX_BRIDGES) {
		seterr(msg, len, "more than %d bridges", RIG_MAX_BRIDGES);
		return -EINVAL;
	}
	memcpy(r->bridge[r->nbridges], br, sizeof(br));
	snprintf(r->bport[r->nbridges], sizeof(r->bport[0]), "%.15s", colon + 1);
	r->nbridges++;
	return 0;
}

static int parse_token(const char *tok, struct rig_role *r, bool seen[K_NKEYS],
		       char *msg, size_t len)
{
	const char *eq = strchr(tok, '='), *v;
	unsigned long port;
	char *end;
	int k, i;

	if (!eq || eq == tok) {
		seterr(msg, len, "'%.40s' is not key=value", tok);
		return -EINVAL;
	}
	for (k = 0; k < K_NKEYS; k++)
		if (strlen(key_names[k]) == (size_t)(eq - tok) &&
		    !strncmp(key_names[k], tok, eq - tok))
			break;
	if (k == K_NKEYS) {
		seterr(msg, len, "unknown key '%.*s'", (int)(eq - tok) < 40 ? (int)(eq - tok) : 40,
		       tok);
		return -EINVAL;
	}
	if (seen[k] && k != K_BRIDGE) {
		seterr(msg, len, "%s= given twice", key_names[k]);
		return -EINVAL;
	}
	seen[k] = true;
	v = eq + 1;
	switch (k) {
	case K_ROLE:
		return parse_role_name(v, r, msg, len);
	case K_TRANSPORT:
		for (i = 0; rig_transport_names[i]; i++)
			if (!strcmp(rig_transport_names[i], v)) {
				r->transport = i;
				return 0;
			}
		seterr(msg, len, "transport '%.20s' is unknown (netns, ssh, local)", v);
		return -EINVAL;
	case K_NETNS:
		if (check_chars(key_names[k], v, sizeof(r->netns), "._-", msg, len))
			return -EINVAL;
		snprintf(r->netns, sizeof(r->netns), "%s", v);
		return 0;
	case K_DEST:
		if (check_chars(key_names[k], v, sizeof(r->dest), "._@:%[]-", msg, len))
			return -EINVAL;
		snprintf(r->dest, sizeof(r->dest), "%s", v);
		return 0;
	case K_PORT:
		errno = 0;
		port = strtoul(v, &end, 10);
		if (!isdigit((unsigned char)*v) || *end || errno || port < 1 || port > 65535) {
			seterr(msg, len, "port '%.20s' is not 1..65535", v);
			return -EINVAL;
		}
		r->port = port;
		return 0;
	case K_IDENTITY:
	case K_CONFIG:
		if (check_chars(key_names[k], v, RIG_PATH_LEN, "._/+-", msg, len))
			return -EINVAL;
		snprintf(k == K_IDENTITY ? r->identity : r->config, RIG_PATH_LEN, "%s", v);
		return 0;
	case K_ADDR:
		if (check_chars(key_names[k], v, sizeof(r->addr), ".:-", msg, len))
			return -EINVAL;
		snprintf(r->addr, sizeof(r->addr), "%s", v);
		return 0;
	case K_BRIDGE:
		return parse_bridge(v, r, msg, len);
	}
	return -EINVAL;
}

/* What one line says on its own: keys that belong to other transports or roles. */
static int check_role(const struct rig_role *r, const bool seen[K_NKEYS], char *msg,
		      size_t len)
{
	static const int ssh_only[] = { K_DEST, K_PORT, K_IDENTITY, K_CONFIG };
	unsigned int i;

	if (!seen[K_ROLE]) {
		seterr(msg, len, "no role= on this line");
		return -EINVAL;
	}
	if (r->transport == RIG_SSH && !r->dest[0]) {
		seterr(msg, len, "role %s: transport=ssh needs dest=[USER@]HOST", r->name);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(ssh_only) / sizeof(ssh_only[0]); i++)
		if (r->transport != RIG_SSH && seen[ssh_only[i]]) {
			seterr(msg, len, "role %s: %s= is only for transport=ssh", r->name,
			       key_names[ssh_only[i]]);
			return -EINVAL;
		}
	if (r->transport != RIG_NETNS && seen[K_NETNS]) {
		seterr(msg, len, "role %s: netns= is only for transport=netns", r->name);
		return -EINVAL;
	}
	if (r->kind != RIG_AP && r->nbridges) {
		seterr(msg, len, "role %s: bridge= is only for role=ap", r->name);
		return -EINVAL;
	}
	if (r->kind == RIG_AP && seen[K_ADDR]) {
		seterr(msg, len, "role ap: addr= is only for sta and pc roles");
		return -EINVAL;
	}
	if (r->kind == RIG_PC && !r->addr[0]) {
		seterr(msg, len, "role %s: addr= is needed (where its iperf3 servers listen)",
		       r->name);
		return -EINVAL;
	}
	if (r->kind == RIG_AP) {
		for (i = 0; brnf_bridge_names[i]; i++)
			if (!rig_bridge_port(r, brnf_bridge_names[i])) {
				char names[64];

				matrix_names_join(brnf_bridge_names, names, sizeof(names));
				seterr(msg, len, "role ap: bridge=%s:PORT is missing (the matrix "
				       "switches %s)", brnf_bridge_names[i], names);
				return -EINVAL;
			}
	}
	return 0;
}

/* What the whole file says: roles present, test bed or not. */
static int check_rig(const char *name, struct rig *rig, char *err, size_t errlen)
{
	unsigned int i, nbuilt = 0, nsta = 0, npc = 0;
	const struct rig_role *ap = NULL, *odd = NULL;

	for (i = 0; i < rig->nroles; i++) {
		const struct rig_role *r = &rig->roles[i];

		ap = r->kind == RIG_AP ? r : ap;
		nsta += r->kind == RIG_STA;
		npc += r->kind == RIG_PC;
		if (r->transport == RIG_NETNS && !r->netns[0])
			nbuilt++;
	}
	if (!ap || !rig_role(rig, "sta") || !rig_role(rig, "pc")) {
		seterr(err, errlen, "%s: roles ap, sta and pc are needed (missing %s)", name,
		       !ap ? "ap" : !rig_role(rig, "sta") ? "sta" : "pc");
		return -EINVAL;
	}
	rig->testbed = nbuilt == rig->nroles;
	if (!rig->testbed && nbuilt) {
		for (i = 0; i < rig->nroles && !odd; i++)
			if (rig->roles[i].transport == RIG_NETNS && !rig->roles[i].netns[0])
				odd = &rig->roles[i];
		seterr(err, errlen, "%s:%u: role %s: netns= is needed (only a rig of nothing "
		       "but transport=netns roles is the test bed brnf builds)", name, odd->line,
		       odd->name);
		return -EINVAL;
	}
	if (rig->testbed && (nsta > 1 || npc > 1)) {
		seterr(err, errlen, "%s: the namespace test bed has one sta and one pc", name);
		return -EINVAL;
	}
	return 0;
}

int rig_parse_buf(const char *name, const char *buf, size_t len, struct rig *rig,
		  char *err, size_t errlen)
{
	char line[4096], msg[200];
	size_t pos = 0, n;
	unsigned int lineno = 0, i;

	memset(rig, 0, sizeof(*rig));
	if (len > RIG_MAX_BYTES) {
		seterr(err, errlen, "%s: larger than %d bytes", name, RIG_MAX_BYTES);
		return -EINVAL;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		bool seen[K_NKEYS] = { false };
		struct rig_role r;
		char *tok, *save, *hash;

		n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		lineno++;
		if (n >= sizeof(line)) {
			seterr(msg, sizeof(msg), "line longer than %zu characters",
			       sizeof(line) - 1);
			goto out_line;
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (memchr(line, '\0', n)) {
			seterr(msg, sizeof(msg), "NUL character");
			goto out_line;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		memset(&r, 0, sizeof(r));
		r.line = lineno;
		msg[0] = '\0';
		for (tok = strtok_r(line, " \t\r\v\f", &save); tok;
		     tok = strtok_r(NULL, " \t\r\v\f", &save)) {
			if (parse_token(tok, &r, seen, msg, sizeof(msg)))
				goto out_line;
		}
		for (i = 0; i < K_NKEYS && !seen[i]; i++)
			;
		if (i == K_NKEYS)
			continue;	/* blank or comment */
		if (check_role(&r, seen, msg, sizeof(msg)))
			goto out_line;
		if (rig_role(rig, r.name)) {
			seterr(msg, sizeof(msg), "role %s given twice (first on line %u)", r.name,
			       rig_role(rig, r.name)->line);
			goto out_line;
		}
		rig->roles[rig->nroles++] = r;
	}
	if (check_rig(name, rig, err, errlen)) {
		memset(rig, 0, sizeof(*rig));
		return -EINVAL;
	}
	return 0;

out_line:
	seterr(err, errlen, "%s:%u: %s", name, lineno, msg);
	memset(rig, 0, sizeof(*rig));
	return -EINVAL;
}

int rig_parse_file(const char *path, struct rig *rig, char *err, size_t errlen)
{
	size_t len;
	char *buf;
	int ret;

	memset(rig, 0, sizeof(*rig));
	ret = file_read(path, RIG_MAX_BYTES, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = rig_parse_buf(path, buf, len, rig, err, errlen);
	free(buf);
	return ret;
}

const struct rig_role *rig_role(const struct rig *rig, const char *name)
{
	unsigned int i;

	for (i = 0; i < rig->nroles; i++)
		if (!strcmp(rig->roles[i].name, name))
			return &rig->roles[i];
	return NULL;
}

unsigned int rig_roles_of(const struct rig *rig, enum rig_kind kind,
			  const struct rig_role **out, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < rig->nroles && n < max; i++)
		if (rig->roles[i].kind == kind)
			out[n++] = &rig->roles[i];
	return n;
}

const char *rig_bridge_port(const struct rig_role *ap, const char *bridge)
{
	unsigned int i;

	for (i = 0; i < ap->nbridges; i++)
		if (!strcmp(ap->bridge[i], bridge))
			return ap->bport[i];
	return NULL;
}

int rig_role_str(const struct rig_role *r, char *buf, size_t len)
{
	size_t n;
	unsigned int i;

#define ADD(...) do { \
		n += snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__); \
	} while (0)
	n = 0;
	if (len)
		buf[0] = '\0';
	ADD("role=%s transport=%s", r->name, rig_transport_names[r->transport]);
	if (r->netns[0])
		ADD(" netns=%s", r->netns);
	if (r->dest[0])
		ADD(" dest=%s", r->dest);
	if (r->port)
		ADD(" port=%u", r->port);
	if (r->identity[0])
		ADD(" identity=%s", r->identity);
	if (r->config[0])
		ADD(" config=%s", r->config);
	if (r->addr[0])
		ADD(" addr=%s", r->addr);
	for (i = 0; i < r->nbridges; i++)
		ADD(" bridge=%s:%s", r->bridge[i], r->bport[i]);
#undef ADD
	return n < len ? (int)n : -ENOSPC;
}
