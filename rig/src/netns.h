/* SPDX-License-Identifier: GPL-2.0 */
/* Network namespaces made as iproute2 makes them (/run/netns/<name>). */
#ifndef BRNF_NETNS_H
#define BRNF_NETNS_H

#include <signal.h>

#define NETNS_RUN_DIR "/run/netns"
#define NETNS_PREFIX "brnf"	/* every namespace brnf makes starts with it */

/* Remember the namespace brnf started in (the root one). Call first. */
int netns_init(void);
/* Create /run/netns/<name>: unshare(CLONE_NEWNET) in a child, bind mount. */
int netns_add(const char *name);
/* Kill what still runs inside, unmount and unlink. Missing is not an error. */
int netns_del(const char *name);
/* O_RDONLY|O_CLOEXEC fd of /run/netns/<name>, or -errno. */
int netns_open(const char *name);
/* Move this process into <name> / back to where it started. */
int netns_enter(const char *name);
int netns_leave(void);
/* Name of the namespace entered with netns_enter(), NULL in the start one. */
const char *netns_current(void);
/* Abort unless this process is in a brnf namespace: the root one is never configured. */
void netns_assert_brnf(const char *what);
/* Send sig to every process whose network namespace is <name> (like `ip netns pids`). */
int netns_kill_pids(const char *name, int sig);

#endif
