// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink over libmnl, as in libmnl's examples/rtnl and iproute2's
 * lib/mnl_utils.c: NETLINK_EXT_ACK on, requests built and sent; their answers are
 * read in nl_msg.c (attributes, acks, the kernel's own message).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "netns.h"
#include "nl.h"
#include "util.h"

int nl_open(struct nl *nl)
{
	int one = 1;
	const char *ns;

	netns_assert_brnf("opening rtnetlink");
	ns = netns_current();
	snprintf(nl->ns, sizeof(nl->ns), "%s", ns ? ns : "?");
	/* close-on-exec: a child (nft, iperf3) must not inherit a socket of the AP */
	nl->sock = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl->sock)
		return -errno;
	/* Best effort, as iproute2: old kernels lack them. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		mnl_socket_close(nl->sock);
		nl->sock = NULL;
		return err;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = time(NULL);
	return 0;
}

void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

struct nl *nl_enter(const char *ns, int *err)
{
	struct nl *nl;

	nl = calloc(1, sizeof(*nl));
	if (!nl) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = netns_enter(ns);
	if (*err)
		goto out_free;
	*err = nl_open(nl);
	if (*err) {
		pr_err("rtnetlink socket in %s: %s", ns, strerror(-*err));
		goto out_leave;
	}
	return nl;

out_leave:
	netns_leave();
out_free:
	free(nl);
	return NULL;
}

void nl_leave(struct nl *nl)
{
	if (!nl)
		return;
	nl_close(nl);
	free(nl);
	netns_leave();
}

struct nlmsghdr *nl_req(struct nl *nl, uint16_t type, uint16_t flags, size_t hdrlen,
			void **hdr)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	*hdr = mnl_nlmsg_put_extra_header(nlh, hdrlen);
	return nlh;
}

void nl_put(struct nlmsghdr *nlh, uint16_t type, size_t len, const void *data)
{
	mnl_attr_put(nlh, type, len, data);
}

void nl_put_u8(struct nlmsghdr *nlh, uint16_t type, uint8_t v)
{
	mnl_attr_put_u8(nlh, type, v);
}

void nl_put_u32(struct nlmsghdr *nlh, uint16_t type, uint32_t v)
{
	mnl_attr_put_u32(nlh, type, v);
}

void nl_put_strz(struct nlmsghdr *nlh, uint16_t type, const char *s)
{
	mnl_attr_put_strz(nlh, type, s);
}

struct nlattr *nl_nest_start(struct nlmsghdr *nlh, uint16_t type)
{
	return mnl_attr_nest_start(nlh, type);
}

void nl_nest_end(struct nlmsghdr *nlh, struct nlattr *nest)
{
	mnl_attr_nest_end(nlh, nest);
}

void *nl_put_header(struct nlmsghdr *nlh, size_t len)
{
	return mnl_nlmsg_put_extra_header(nlh, len);
}

int nl_talk(struct nl *nl, struct nlmsghdr *nlh, nl_msg_cb cb, void *data, const char *what)
{
	char rbuf[32768];
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret = 0;

	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		pr_err("netlink send (%s in %s): %s", what, nl->ns, strerror(errno));
		return ret;
	}
	do {
		n = mnl_socket_recvfrom(nl->sock, rbuf, sizeof(rbuf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			pr_err("netlink receive (%s in %s): %s", what, nl->ns, strerror(errno));
			return ret;
		}
		ret = nl_answers(rbuf, n, seq, nl->portid, cb, data, what, nl->ns);
	} while (n < 0 || ret == NL_MORE);
	return ret;
}
