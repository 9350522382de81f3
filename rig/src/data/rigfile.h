/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rig files: the test bed a run measures on, one role per line.
 *
 *   # comment
 *   role=ap  transport=ssh dest=root@192.168.1.1 bridge=br-lan:lan1 bridge=br-wlan:wlan0
 *   role=sta transport=ssh dest=user@192.168.2.20 addr=192.168.2.20
 *   role=pc  transport=local addr=192.168.1.20
 *
 * Keys (whitespace separated key=value tokens, every line names a role):
 *   role=ap|sta|pc|staN|pcN   (N = 2..9) each at most once; ap, sta and pc needed
 *   transport=netns|ssh|local default netns
 *   netns=NAME                netns: an existing namespace (/run/netns/NAME);
 *                             without it the role is in the test bed brnf builds
 *   dest=[USER@]HOST          ssh: the destination (needed for ssh)
 *   port=N                    ssh: -p N
 *   identity=PATH             ssh: -i PATH
 *   config=PATH               ssh: -F PATH (default: the user's ~/.ssh/config)
 *   addr=ADDRESS              pc roles: where its iperf3 servers listen (needed);
 *                             sta roles: recorded only
 *   bridge=BRIDGE:PORT        ap only, once per bridge of the matrix (br-lan and
 *                             br-wlan): the bridge and its port the station or the PC
 *                             sends into (counted with -m physdev --physdev-in PORT)
 * Either every role is transport=netns without netns= (the namespace test bed,
 * rig/rigs/netns.rig) or none is. Errors are "FILE:LINE: what is wrong".
 * Only libc: the parser is unit tested and fuzzed on its own.
 */
#ifndef BRNF_RIGFILE_H
#define BRNF_RIGFILE_H

#include <stdbool.h>
#include <stddef.h>

#define RIG_MAX_ROLES 19	/* ap, sta, sta2..sta9, pc, pc2..pc9 */
#define RIG_MAX_BRIDGES 2
#define RIG_NAME_LEN 64
#define RIG_PATH_LEN 256

enum rig_transport { RIG_NETNS, RIG_SSH, RIG_LOCAL };
extern const char *const rig_transport_names[];	/* "netns", "ssh", "local" */

enum rig_kind { RIG_AP, RIG_STA, RIG_PC };

struct rig_role {
	char name[16];			/* "ap", "sta", "sta2", "pc" ... */
	enum rig_kind kind;
	enum rig_transport transport;
	char netns[RIG_NAME_LEN];	/* "" = the test bed's own */
	char dest[RIG_NAME_LEN * 2];	/* ssh destination */
	unsigned int port;		/* 0 = not given */
	char identity[RIG_PATH_LEN];
	char config[RIG_PATH_LEN];
	char addr[RIG_NAME_LEN];
	unsigned int nbridges;
	char bridge[RIG_MAX_BRIDGES][16];
	char bport[RIG_MAX_BRIDGES][16];
	unsigned int line;
};

struct rig {
	struct rig_role roles[RIG_MAX_ROLES];
	unsigned int nroles;
	bool testbed;			/* every role is in the namespace test bed */
};

/* 0 or -EINVAL/-ENOMEM/-errno; on error "NAME:LINE: message" in err. */
int rig_parse_buf(const char *name, const char *buf, size_t len, struct rig *rig,
		  char *err, size_t errlen);
int rig_parse_file(const char *path, struct rig *rig, char *err, size_t errlen);
/* The role called name, or NULL. */
const struct rig_role *rig_role(const struct rig *rig, const char *name);
/* Roles of one kind in file order; returns how many (at most max). */
unsigned int rig_roles_of(const struct rig *rig, enum rig_kind kind,
			  const struct rig_role **out, unsigned int max);
/* The AP's port of bridge, or NULL. */
const char *rig_bridge_port(const struct rig_role *ap, const char *bridge);
/* One role as a canonical line (rig check prints these). */
int rig_role_str(const struct rig_role *r, char *buf, size_t len);

#endif
