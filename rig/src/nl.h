/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only door to libmnl: an rtnetlink socket with extended acks, requests
 * built, sent and answered, and the answers' attributes read. No other file
 * of the controller calls libmnl (or includes it).
 */
#ifndef BRNF_NL_H
#define BRNF_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mnl_socket;
struct nlattr;
struct nlmsghdr;

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
/* Enter namespace ns and open a socket there (allocated). NULL, with *err set and
 * one line on stderr, on failure (then ns is left again). */
struct nl *nl_enter(const char *ns, int *err);
/* Close and free what nl_enter() gave, back to the namespace brnf started in. */
void nl_leave(struct nl *nl);

/* Start a request in nl->buf: header + zeroed family header of hdrlen bytes. */
struct nlmsghdr *nl_req(struct nl *nl, uint16_t type, uint16_t flags, size_t hdrlen,
			void **hdr);
/* Attributes of the request being built. */
void nl_put(struct nlmsghdr *nlh, uint16_t type, size_t len, const void *data);
void nl_put_u8(struct nlmsghdr *nlh, uint16_t type, uint8_t v);
void nl_put_u32(struct nlmsghdr *nlh, uint16_t type, uint32_t v);
void nl_put_strz(struct nlmsghdr *nlh, uint16_t type, const char *s);
struct nlattr *nl_nest_start(struct nlmsghdr *nlh, uint16_t type);
void nl_nest_end(struct nlmsghdr *nlh, struct nlattr *nest);
/* A zeroed header of len bytes inside the message (a nested peer's ifinfomsg). */
void *nl_put_header(struct nlmsghdr *nlh, size_t len);

/* Called for each answer; 0 goes on, a negative errno stops with that error. */
typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);
/*
 * Send nlh (built in nl->buf) with NLM_F_ACK and run cb (may be NULL) over the
 * answers until the ack or the end of a dump (NLMSG_DONE, whose error a failed dump
 * returns). On a kernel error prints one line "Error: <kernel's message> (<what> in
 * <ns>)" and returns -errno; a kernel message with success (extack) is printed as
 * "Warning: <message> (<what> in <ns>)", as iproute2's mnl utilities do.
 */
int nl_talk(struct nl *nl, struct nlmsghdr *nlh, nl_msg_cb cb, void *data, const char *what);

/* The attributes after the family header (hdrlen bytes) of nlh, or inside nest:
 * tb[type] for type <= max; types newer than max are skipped, as libmnl's
 * data_attr_cb does, so a newer kernel does not break the reader. */
void nl_parse(const struct nlmsghdr *nlh, size_t hdrlen, const struct nlattr **tb,
	      unsigned int max);
void nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb, unsigned int max);
/* Validated reads: false (NULL) when a is NULL or not of that type. */
bool nl_get_u8(const struct nlattr *a, uint8_t *v);
const char *nl_get_str(const struct nlattr *a);
/* The message type of an answer (RTM_NEWLINK, ...). */
uint16_t nl_msg_type(const struct nlmsghdr *nlh);

#endif
