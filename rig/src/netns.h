/* SPDX-License-Identifier: GPL-2.0 */
/* Network namespaces made as iproute2 makes them (/run/netns/<name>). */
#ifndef BRNF_NETNS_H
#define BRNF_NETNS_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#define NETNS_RUN_DIR "/run/netns"
#define NETNS_PREFIX "brnf"	/* every namespace brnf makes starts with it */

/* Remember the namespace brnf started in (the root one). Call first. */
int netns_init(void);
/* Which namespace a name stands for: the device and inode of /run/netns/<name>. */
struct netns_id {
	dev_t dev;
	ino_t ino;
};
/* Called once /run/netns/<name> was created (O_EXCL: it is ours), before the
 * namespace is made and mounted on it; an error stops netns_add(). */
typedef int (*netns_reserved_fn)(void *ctx, const char *name);
/*
 * Create /run/netns/<name>: the file O_EXCL (a name that exists is never taken
 * over: -EEXIST with one line), reserved(ctx, name) when not NULL, then
 * unshare(CLONE_NEWNET) in a child and bind mount. *id: the namespace made.
 */
int netns_add(const char *name, netns_reserved_fn reserved, void *ctx, struct netns_id *id);
/* The namespace /run/netns/<name> stands for now. 0 or -errno. */
int netns_id(const char *name, struct netns_id *id);
/*
 * Delete <name> only when it still is namespace id: kill what runs inside,
 * unmount, unlink. Missing is not an error; another namespace under that name is
 * left alone (-ESTALE, one line). id NULL: the file was created by this owner with
 * O_EXCL and the namespace not yet recorded (a claim's "pending" entry).
 */
int netns_del_id(const char *name, const struct netns_id *id);
/* O_RDONLY|O_CLOEXEC fd of /run/netns/<name>, or -errno. */
int netns_open(const char *name);
/* Move this process into <name> / back to where it started. */
int netns_enter(const char *name);
int netns_leave(void);
/* A child about to exec: netns_enter(), then a mount namespace of its own with sysfs
 * mounted from inside <name> on /sys, as `ip netns exec` does. 0 or -errno, one line. */
int netns_enter_child(const char *name);
/* Name of the namespace entered with netns_enter(), NULL in the start one. */
const char *netns_current(void);
/* Abort unless this process is in a brnf namespace: the root one is never configured. */
void netns_assert_brnf(const char *what);
/* Send sig to every process of brnf's pid namespace (or one below it) whose network
 * namespace is <name> (like `ip netns pids`), through pidfds of /proc; how many. */
int netns_kill_pids(const char *name, int sig);

#endif
