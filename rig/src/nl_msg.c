// SPDX-License-Identifier: GPL-2.0
/*
 * Reading rtnetlink answers with libmnl (nl.h): attributes checked against a policy
 * as libmnl's examples (data_attr_cb) and ethtool's attr_cb do, and the answers to a
 * request run until its ack or the end of its dump, with the kernel's extack message
 * printed as iproute2's lib/mnl_utils.c prints it. No socket and no namespace here:
 * the unit tests (test_nl.c) and brnf-storm's fuzzer feed it crafted messages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "nl.h"

static const enum mnl_attr_data_type mnl_type[] = {
	[NL_ATTR_ANY] = MNL_TYPE_UNSPEC,
	[NL_ATTR_U8] = MNL_TYPE_U8,
	[NL_ATTR_U16] = MNL_TYPE_U16,
	[NL_ATTR_U32] = MNL_TYPE_U32,
	[NL_ATTR_U64] = MNL_TYPE_U64,
	[NL_ATTR_STR] = MNL_TYPE_NUL_STRING,
	[NL_ATTR_NESTED] = MNL_TYPE_NESTED,
	[NL_ATTR_FLAG] = MNL_TYPE_FLAG,
};

struct attr_table {
	const struct nlattr **tb;
	unsigned int max;
	const enum nl_attr_kind *policy;
	const char *next;	/* where the walk goes on after the last attribute */
};

static int attr_cb(const struct nlattr *attr, void *data)
{
	struct attr_table *t = data;
	unsigned int type = mnl_attr_get_type(attr);
	enum nl_attr_kind kind;

	t->next = (const char *)attr + MNL_ALIGN(attr->nla_len);
	if (type > t->max)
		return MNL_CB_OK;	/* newer than this reader: skipped */
	kind = t->policy ? t->policy[type] : NL_ATTR_ANY;
	if (kind != NL_ATTR_ANY &&
	    (kind >= sizeof(mnl_type) / sizeof(mnl_type[0]) ||
	     mnl_attr_validate(attr, mnl_type[kind]) < 0))
		return MNL_CB_ERROR;
	t->tb[type] = attr;
	return MNL_CB_OK;
}

/* After a walk over [start, end): an attribute of the wrong size, or bytes left that
 * are no whole attribute (libmnl stops there without a word). */
static int attrs_end(int ret, const struct attr_table *t, const void *start, const void *end)
{
	if (ret == MNL_CB_ERROR)
		return -EINVAL;
	if ((t->next ? t->next : (const char *)start) < (const char *)end)
		return -EBADMSG;
	return 0;
}

int nl_parse(const struct nlmsghdr *nlh, size_t hdrlen, const struct nlattr **tb,
	     unsigned int max, const enum nl_attr_kind *policy)
{
	struct attr_table t = { tb, max, policy, NULL };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN ||
	    mnl_nlmsg_get_payload_len(nlh) < MNL_ALIGN(hdrlen))
		return -EBADMSG;
	return attrs_end(mnl_attr_parse(nlh, hdrlen, attr_cb, &t), &t,
			 mnl_nlmsg_get_payload_offset(nlh, hdrlen),
			 mnl_nlmsg_get_payload_tail(nlh));
}

int nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb, unsigned int max,
		    const enum nl_attr_kind *policy)
{
	struct attr_table t = { tb, max, policy, NULL };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (!nest)
		return 0;
	return attrs_end(mnl_attr_parse_nested(nest, attr_cb, &t), &t,
			 mnl_attr_get_payload(nest),
			 (const char *)mnl_attr_get_payload(nest) +
			 mnl_attr_get_payload_len(nest));
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
	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return NULL;
	return mnl_attr_get_str(a);
}

uint16_t nl_msg_type(const struct nlmsghdr *nlh)
{
	return nlh->nlmsg_type;
}

/*
 * Are the message lengths in buf sane (each at least a header and within what is
 * left)? libmnl 1.0.4's mnl_nlmsg_ok() compares (int)nlmsg_len <= len, so a length
 * above INT_MAX passes and mnl_cb_run() walks off the buffer (found by
 * fuzz_storm_parse: rig/storm/fuzz/corpus/netlink-len-over-int-max).
 */
static bool lengths_ok(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	struct nlmsghdr h;

	while (len >= sizeof(h)) {
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return false;
		if (MNL_ALIGN(h.nlmsg_len) >= len)
			return true;
		p += MNL_ALIGN(h.nlmsg_len);
		len -= MNL_ALIGN(h.nlmsg_len);
	}
	return true;
}

/* One request's state: the ack/error seen and the caller's data callback. */
struct ack {
	int err;
	char msg[256];
	nl_msg_cb cb;
	void *data;
	const char *what, *ns;	/* for a warning */
};

static const enum nl_attr_kind extack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG] = NL_ATTR_STR,
};

/* The kernel's extack message (NLMSGERR_ATTR_MSG) of an NLMSG_ERROR or NLMSG_DONE whose
 * TLVs start off bytes into the payload, into ack->msg ("" when none). */
static void extack_msg(const struct nlmsghdr *nlh, unsigned int off, struct ack *ack)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	ack->msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	if (!nl_parse(nlh, off, tb, NLMSGERR_ATTR_MAX, extack_policy) && tb[NLMSGERR_ATTR_MSG])
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
/* The kernel answers 0 or a negative errno (at least -4095, its MAX_ERRNO);
 * anything else is a broken message, and -INT_MIN would not even be an int.
 */
static bool errno_ok(int err)
{
	return err <= 0 && err >= -4095;
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct ack *ack = data;
	unsigned int off = sizeof(*e);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		ack->err = -EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!errno_ok(e->error)) {
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
	if (!errno_ok(err)) {
		ack->err = -EBADMSG;
		return MNL_CB_ERROR;
	}
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

int nl_answers(const void *buf, size_t len, unsigned int seq, unsigned int portid,
	       nl_msg_cb cb, void *data, const char *what, const char *ns)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {};
	struct ack ack = { .cb = cb, .data = data, .what = what, .ns = ns };
	int ret, err;

	ctl[NLMSG_ERROR] = error_cb;
	ctl[NLMSG_DONE] = done_cb;
	errno = 0;
	if (!lengths_ok(buf, len)) {
		ret = MNL_CB_ERROR;
		ack.err = -EBADMSG;
	} else {
		ret = mnl_cb_run2(buf, len, seq, portid, data_cb, &ack, ctl, NLMSG_MIN_TYPE);
	}
	if (ret == MNL_CB_STOP)
		return 0;
	if (ret != MNL_CB_ERROR)
		return NL_MORE;
	err = ack.err ? ack.err : errno ? -errno : -EIO;
	fprintf(stderr, "Error: %s (%s in %s)\n", ack.msg[0] ? ack.msg : strerror(-err), what, ns);
	return err;
}
