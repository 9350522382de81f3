// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink over libmnl, as in libmnl's examples/rtnl and iproute2's
 * lib/mnl_utils.c: NETLINK_EXT_ACK on, and the kernel's own message printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
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
	nl->sock = mnl_socket_open(NETLINK_ROUTE);
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

struct attr_table {
	const struct nlattr **tb;
	unsigned int max;
};

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct attr_table *t = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= t->max)
		t->tb[type] = attr;
	return MNL_CB_OK;
}

void nl_parse(const struct nlmsghdr *nlh, size_t hdrlen, const struct nlattr **tb,
	      unsigned int max)
{
	struct attr_table t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	mnl_attr_parse(nlh, hdrlen, attr_cb, &t);
}

void nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb, unsigned int max)
{
	struct attr_table t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (nest)
		mnl_attr_parse_nested(nest, attr_cb, &t);
}

bool nl_get_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return false;
	*v = mnl_attr_get_u8(a);
	return true;
}

const char *nl_get_str(const struct nlattr *a)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

uint16_t nl_msg_type(const struct nlmsghdr *nlh)
{
	return nlh->nlmsg_type;
}

/* One request's state: the ack/error seen and the caller's data callback. */
struct ack {
	int err;
	char msg[256];
	nl_msg_cb cb;
	void *data;
	const char *what, *ns;	/* for a warning */
};

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > NLMSGERR_ATTR_MAX)
		return MNL_CB_OK;
	if (type == NLMSGERR_ATTR_MSG && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return MNL_CB_OK;
	tb[type] = attr;
	return MNL_CB_OK;
}

/* The kernel's extack message (NLMSGERR_ATTR_MSG) of an NLMSG_ERROR or NLMSG_DONE whose
 * TLVs start off bytes into the payload, into ack->msg ("" when none). */
static void extack_msg(const struct nlmsghdr *nlh, unsigned int off, struct ack *ack)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};

	ack->msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	if (mnl_attr_parse(nlh, off, extack_attr_cb, tb) == MNL_CB_OK && tb[NLMSGERR_ATTR_MSG])
		snprintf(ack->msg, sizeof(ack->msg), "%s",
			 mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
}

/* A message with success that still says something: a warning, as iproute2 prints it. */
static void extack_warn(const struct ack *ack)
{
	if (ack->msg[0])
		fprintf(stderr, "Warning: %s (%s in %s)\n", ack->msg, ack->what, ack->ns);
}

/* NLMSG_ERROR: the ack (error 0) or an error with the kernel's extack message. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct ack *ack = data;
	unsigned int off = sizeof(*e);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		ack->err = -EBADMSG;
		return MNL_CB_ERROR;
	}
	ack->err = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&e->msg);
	extack_msg(nlh, off, ack);
	if (!e->error) {
		extack_warn(ack);
		return MNL_CB_STOP;
	}
	return MNL_CB_ERROR;
}

/* NLMSG_DONE: the end of a dump; its int is the dump's error (< 0: it failed). */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ack *ack = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(int));
	ack->err = err;
	extack_msg(nlh, sizeof(int), ack);
	if (err < 0)
		return MNL_CB_ERROR;
	extack_warn(ack);
	return MNL_CB_STOP;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ack *ack = data;
	int err;

	if (!ack->cb)
		return MNL_CB_OK;
	err = ack->cb(nlh, ack->data);
	if (err < 0) {
		ack->err = err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

int nl_talk(struct nl *nl, struct nlmsghdr *nlh, nl_msg_cb cb, void *data, const char *what)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {};
	struct ack ack = { .cb = cb, .data = data, .what = what, .ns = nl->ns };
	char rbuf[32768];
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	ctl[NLMSG_ERROR] = error_cb;
	ctl[NLMSG_DONE] = done_cb;
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		pr_err("netlink send (%s in %s): %s", what, nl->ns, strerror(errno));
		return ret;
	}
	for (;;) {
		n = mnl_socket_recvfrom(nl->sock, rbuf, sizeof(rbuf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			pr_err("netlink receive (%s in %s): %s", what, nl->ns, strerror(errno));
			return ret;
		}
		ack.err = 0;
		ret = mnl_cb_run2(rbuf, n, seq, nl->portid, data_cb, &ack,
				  ctl, ARRAY_SIZE(ctl));
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret == MNL_CB_ERROR) {
			int err = ack.err ? ack.err : -errno;

			if (!err)
				err = -EIO;
			if (ack.msg[0])
				fprintf(stderr, "Error: %s (%s in %s)\n", ack.msg, what, nl->ns);
			else
				fprintf(stderr, "Error: %s (%s in %s)\n", strerror(-err), what,
					nl->ns);
			return err;
		}
	}
}
