/* SPDX-License-Identifier: GPL-2.0 */
/* sysctls through /proc/sys of the namespace this process is in. */
#ifndef BRNF_SYSCTL_H
#define BRNF_SYSCTL_H

#include <stdbool.h>
#include <stddef.h>

/* /proc/sys/<name with every dot a slash>; -ENAMETOOLONG when it does not fit. */
int sysctl_path(char *buf, size_t len, const char *name);
/* name in dotted form ("net.ipv4.ip_forward"); only inside a brnf namespace. */
int sysctl_write(const char *name, const char *val);
/* Reading is allowed anywhere; value without trailing newline. */
int sysctl_read(const char *name, char *val, size_t len);
int sysctl_read_bool(const char *name, bool *v);
/* Does /proc/sys/net/bridge exist here (br_netfilter present)? */
bool sysctl_have_br_netfilter(void);

#endif
