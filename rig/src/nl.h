/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only door to libmnl: an rtnetlink socket with extended acks, requests
 * built, sent and answered (nl.c), and the answers read, their attributes checked
 * (nl_msg.c). No other file of the controller or of brnf-storm calls libmnl (or
 * includes it).
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
/*
 * What nl_talk() does with one buffer of answers as received (len bytes) to request
 * seq of port portid (0 and 0: any): cb over its data messages, the ack, the end of
 * a dump. Returns 0 at the ack or the end of the dump, NL_MORE when more answers are
 * to come, or -errno after the "Error: ..." line (-EBADMSG for message lengths that
 * do not add up, whatever cb returned).
 */
#define NL_MORE 1
int nl_answers(const void *buf, size_t len, unsigned int seq, unsigned int portid,
	       nl_msg_cb cb, void *data, const char *what, const char *ns);

/* What an attribute must be before it is read (libmnl validates it by its type). */
enum nl_attr_kind {
	NL_ATTR_ANY,		/* not checked */
	NL_ATTR_U8,
	NL_ATTR_U16,
	NL_ATTR_U32,
	NL_ATTR_U64,
	NL_ATTR_STR,		/* NUL-terminated, as the kernel's nla_put_string() */
	NL_ATTR_NESTED,
	NL_ATTR_FLAG,
};
/*
 * The attributes after the family header (hdrlen bytes) of nlh, or inside nest:
 * tb[type] for type <= max (the others NULL); types newer than max are skipped, as
 * libmnl's data_attr_cb does, so a newer kernel does not break the reader. policy
 * (NULL, or max + 1 kinds) says what each type must be. Returns 0; -EINVAL when an
 * attribute is not of its kind; -EBADMSG when the attributes do not fill the
 * message or the nest (one cut short, bytes left that are no attribute). tb holds
 * what came before the error.
 */
int nl_parse(const struct nlmsghdr *nlh, size_t hdrlen, const struct nlattr **tb,
	     unsigned int max, const enum nl_attr_kind *policy);
int nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb, unsigned int max,
		    const enum nl_attr_kind *policy);
/* Validated reads: false (NULL) when a is NULL or not of that type (a string: not
 * NUL-terminated). */
bool nl_get_u8(const struct nlattr *a, uint8_t *v);
const char *nl_get_str(const struct nlattr *a);
/* The message type of an answer (RTM_NEWLINK, ...). */
uint16_t nl_msg_type(const struct nlmsghdr *nlh);

#endif
