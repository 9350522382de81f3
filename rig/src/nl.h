/* SPDX-License-Identifier: GPL-2.0 */
/* The only door to libmnl: an rtnetlink socket with extended acks. */
#ifndef BRNF_NL_H
#define BRNF_NL_H

#include <libmnl/libmnl.h>

struct nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	char ns[64];		/* namespace the socket lives in, for messages */
	char buf[16384];	/* one request */
};

/* Open NETLINK_ROUTE in the current namespace (must be a brnf one). 0 or -errno. */
int nl_open(struct nl *nl);
void nl_close(struct nl *nl);
/* Start a request in nl->buf: header + zeroed family header of hdrlen bytes. */
struct nlmsghdr *nl_req(struct nl *nl, uint16_t type, uint16_t flags, size_t hdrlen,
			void **hdr);
/*
 * Send nlh (built in nl->buf) with NLM_F_ACK and run cb (may be NULL) over the
 * answers until the ack or the end of a dump. On a kernel error prints one
 * line "Error: <kernel's message> (<what>)" and returns -errno.
 */
int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what);

#endif
