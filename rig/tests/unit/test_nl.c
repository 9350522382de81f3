// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of reading rtnetlink answers (rig/src/nl_msg.c, link_msg.c) and of
 * brnf-storm's link dump reader (rig/storm/parse.c) on messages made here byte by
 * byte: attributes checked against their policy, one cut short rejected, acks and
 * the ends of dumps, the kernel's extack message as a warning or an error.
 */
#include "unit.h"

#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "link_msg.h"
#include "nl.h"
#include "parse.h"

/* A buffer of messages being made. */
struct msgbuf {
	union {
		unsigned char b[4096];
		struct nlmsghdr align;
	} u;
	size_t len;		/* of the messages so far */
	size_t cur;		/* where the message being made starts */
};

static struct nlmsghdr *cur_msg(struct msgbuf *m)
{
	return (struct nlmsghdr *)(m->u.b + m->cur);
}

static void *put(struct msgbuf *m, const void *data, size_t len)
{
	void *p = m->u.b + m->len;

	assert_true(m->len + NLMSG_ALIGN(len) <= sizeof(m->u.b));
	memset(p, 0, NLMSG_ALIGN(len));
	if (data)
		memcpy(p, data, len);
	m->len += NLMSG_ALIGN(len);
	cur_msg(m)->nlmsg_len = m->len - m->cur;
	return p;
}

static struct nlmsghdr *msg_start(struct msgbuf *m, uint16_t type, uint16_t flags)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = flags };

	m->cur = m->len;
	put(m, &h, sizeof(h));
	return cur_msg(m);
}

static struct nlattr *attr(struct msgbuf *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = put(m, NULL, NLA_HDRLEN);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		put(m, data, len);
	return a;
}

static void attr_str(struct msgbuf *m, uint16_t type, const char *s)
{
	attr(m, type, s, strlen(s) + 1);
}

static void attr_u8(struct msgbuf *m, uint16_t type, uint8_t v)
{
	attr(m, type, &v, 1);
}

static void nest_end(struct msgbuf *m, struct nlattr *nest)
{
	nest->nla_len = m->u.b + m->len - (unsigned char *)nest;
}

/* RTM_NEWLINK of a link name; a bridge (kind "bridge") with nf_call_* = nf, or any
 * other kind */
static struct nlmsghdr *newlink(struct msgbuf *m, const char *name, const char *kind,
				const uint8_t nf[3])
{
	struct nlattr *li, *data;
	struct ifinfomsg ifm = { .ifi_family = AF_UNSPEC, .ifi_index = 7 };
	unsigned int f;

	msg_start(m, RTM_NEWLINK, NLM_F_MULTI);
	put(m, &ifm, sizeof(ifm));
	attr_str(m, IFLA_IFNAME, name);
	attr_u8(m, IFLA_OPERSTATE, 6);
	li = attr(m, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
	attr_str(m, IFLA_INFO_KIND, kind);
	if (nf) {
		data = attr(m, IFLA_INFO_DATA | NLA_F_NESTED, NULL, 0);
		for (f = 0; f < 3; f++)
			attr_u8(m, link_nf_call_attr[f], nf[f]);
		nest_end(m, data);
	}
	nest_end(m, li);
	/* a type newer than any reader: skipped, not an error */
	attr_u8(m, 4000, 1);
	return cur_msg(m);
}

static const uint8_t nf_101[3] = { 1, 0, 1 };

static void test_link_read(void **state)
{
	struct msgbuf m = {};
	struct link_msg l;

	(void)state;
	assert_int_equal(link_msg_read(newlink(&m, "br-lan", "bridge", nf_101), &l), 0);
	assert_string_equal(l.name, "br-lan");
	assert_true(l.bridge);
	assert_true(l.nf_call_seen[0] && l.nf_call_seen[1] && l.nf_call_seen[2]);
	assert_true(l.nf_call[0] && !l.nf_call[1] && l.nf_call[2]);

	m.len = 0;
	assert_int_equal(link_msg_read(newlink(&m, "wlan0", "veth", NULL), &l), 0);
	assert_string_equal(l.name, "wlan0");
	assert_false(l.bridge);

	m.len = 0;
	msg_start(&m, RTM_NEWADDR, 0);
	assert_int_equal(link_msg_read(cur_msg(&m), &l), 1);
}

/* the attributes' end: the last one claims more bytes than the message has */
static void test_truncated_attr(void **state)
{
	struct msgbuf m = {};
	struct nlmsghdr *nlh;
	const struct nlattr *tb[IFLA_MAX + 1];
	struct nlattr *last;
	struct link_msg l;

	(void)state;
	nlh = newlink(&m, "br-lan", "bridge", nf_101);
	last = (struct nlattr *)((unsigned char *)nlh + nlh->nlmsg_len - NLA_ALIGN(NLA_HDRLEN + 1));
	assert_int_equal(last->nla_type, 4000);
	last->nla_len = 64;		/* cut short: 59 bytes missing */
	assert_int_equal(nl_parse(nlh, sizeof(struct ifinfomsg), tb, IFLA_MAX, NULL), -EBADMSG);
	assert_int_equal(link_msg_read(nlh, &l), -EBADMSG);

	/* a nest cut short inside: IFLA_INFO_DATA longer than its IFLA_LINKINFO */
	m.len = 0;
	nlh = newlink(&m, "br-lan", "bridge", nf_101);
	assert_int_equal(nl_parse(nlh, sizeof(struct ifinfomsg), tb, IFLA_MAX, NULL), 0);
	((struct nlattr *)tb[IFLA_LINKINFO])->nla_len -= 8;	/* the last nf_call_* outside */
	assert_int_equal(link_msg_read(nlh, &l), -EBADMSG);

	/* bytes after the last attribute that are no attribute */
	m.len = 0;
	newlink(&m, "br-lan", "bridge", nf_101);
	put(&m, "\1\2", 2);
	nlh = cur_msg(&m);
	nlh->nlmsg_len -= 2;		/* 2 bytes, less than an attribute's header */
	assert_int_equal(link_msg_read(nlh, &l), -EBADMSG);

	/* a message too short for its family header */
	m.len = 0;
	nlh = msg_start(&m, RTM_NEWLINK, 0);
	put(&m, "\0\0\0\0", 4);
	assert_int_equal(link_msg_read(nlh, &l), -EBADMSG);
}

/* an attribute that is not of its policy's kind */
static void test_policy(void **state)
{
	static const uint8_t none[3];
	struct ifinfomsg ifm = { .ifi_family = AF_UNSPEC };
	struct msgbuf m = {};
	struct nlmsghdr *nlh;
	struct nlattr *a, *d;
	struct link_msg l;
	uint32_t four = 1;

	(void)state;
	/* nf_call_iptables of 4 bytes, not 1 */
	msg_start(&m, RTM_NEWLINK, 0);
	put(&m, &ifm, sizeof(ifm));
	attr_str(&m, IFLA_IFNAME, "br-lan");
	a = attr(&m, IFLA_LINKINFO, NULL, 0);
	attr_str(&m, IFLA_INFO_KIND, "bridge");
	d = attr(&m, IFLA_INFO_DATA, NULL, 0);
	attr(&m, IFLA_BR_NF_CALL_IPTABLES, &four, sizeof(four));
	nest_end(&m, d);
	nest_end(&m, a);
	assert_int_equal(link_msg_read(cur_msg(&m), &l), -EINVAL);

	/* a name without its NUL */
	m.len = 0;
	nlh = newlink(&m, "br-lan", "bridge", none);
	a = (struct nlattr *)((unsigned char *)NLMSG_DATA(nlh) + NLMSG_ALIGN(sizeof(struct ifinfomsg)));
	assert_int_equal(a->nla_type, IFLA_IFNAME);
	((char *)a + NLA_HDRLEN)[6] = 'x';
	assert_int_equal(link_msg_read(nlh, &l), -EINVAL);
}

/* stderr of f(arg), NUL terminated, in buf */
static void capture_stderr(char *buf, size_t len, void (*f)(void *), void *arg)
{
	FILE *tmp = tmpfile();
	int saved;
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	f(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

struct run {
	struct msgbuf m;
	int ret;
	int seen;
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	((struct run *)data)->seen++;
	return 0;
}

static void run_answers(void *arg)
{
	struct run *r = arg;

	r->ret = nl_answers(r->m.u.b, r->m.len, 0, 0, count_cb, r, "set link br-lan",
			    "brnf1-ap");
}

/* NLMSG_ERROR (or NLMSG_DONE with done) with error err and extack message msg */
static void ack(struct msgbuf *m, bool done, int err, const char *msg)
{
	struct nlmsgerr e = { .error = err, .msg = { .nlmsg_len = sizeof(struct nlmsghdr) } };

	msg_start(m, done ? NLMSG_DONE : NLMSG_ERROR, msg ? NLM_F_ACK_TLVS | NLM_F_CAPPED : 0);
	if (done)
		put(m, &err, sizeof(err));
	else
		put(m, &e, sizeof(e));
	if (msg)
		attr_str(m, NLMSGERR_ATTR_MSG, msg);
}

/* An ack or a dump's end alone: what nl_answers() returns and prints. */
static const struct {
	bool done;		/* NLMSG_DONE, else NLMSG_ERROR */
	int err;		/* its error */
	const char *msg;	/* its extack message (NULL: none) */
	int ret;
	const char *printed;
} acks[] = {
	/* the request worked, the kernel warns */
	{ false, 0, "some setting ignored", 0,
	  "Warning: some setting ignored (set link br-lan in brnf1-ap)\n" },
	/* an error with the kernel's reason, or strerror */
	{ false, -EOPNOTSUPP, "bridge: no such option", -EOPNOTSUPP,
	  "Error: bridge: no such option (set link br-lan in brnf1-ap)\n" },
	{ false, -ENODEV, NULL, -ENODEV, "Error: No such device (set link br-lan in brnf1-ap)\n" },
	/* a plain ack: silent */
	{ false, 0, NULL, 0, "" },
	/* a dump's end, one that warns, and one that failed */
	{ true, 0, NULL, 0, "" },
	{ true, 0, "dump filtered", 0, "Warning: dump filtered (set link br-lan in brnf1-ap)\n" },
	{ true, -EMSGSIZE, "dump interrupted", -EMSGSIZE,
	  "Error: dump interrupted (set link br-lan in brnf1-ap)\n" },
};

static void test_extack(void **state)
{
	char err[512];
	unsigned int i;
	struct run r;

	(void)state;
	for (i = 0; i < sizeof(acks) / sizeof(acks[0]); i++) {
		memset(&r, 0, sizeof(r));
		ack(&r.m, acks[i].done, acks[i].err, acks[i].msg);
		capture_stderr(err, sizeof(err), run_answers, &r);
		assert_int_equal(r.ret, acks[i].ret);
		assert_string_equal(err, acks[i].printed);
	}
}

static void test_dump(void **state)
{
	struct run r = {};
	char err[512];

	(void)state;
	/* two links, more to come */
	newlink(&r.m, "br-lan", "bridge", nf_101);
	newlink(&r.m, "eth0", "veth", NULL);
	capture_stderr(err, sizeof(err), run_answers, &r);
	assert_int_equal(r.ret, NL_MORE);
	assert_int_equal(r.seen, 2);
	/* then its end */
	memset(&r, 0, sizeof(r));
	newlink(&r.m, "br-wlan", "bridge", nf_101);
	ack(&r.m, true, 0, NULL);
	capture_stderr(err, sizeof(err), run_answers, &r);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.seen, 1);
	assert_string_equal(err, "");
	/* a message length above INT_MAX (libmnl 1.0.4 walks off the buffer) */
	memset(&r, 0, sizeof(r));
	newlink(&r.m, "br-lan", "bridge", nf_101);
	cur_msg(&r.m)->nlmsg_len = 0x80000010u;
	capture_stderr(err, sizeof(err), run_answers, &r);
	assert_int_equal(r.ret, -EBADMSG);
	assert_int_equal(r.seen, 0);
}

/* brnf-storm's reader of the AP's links: through nl_answers() and link_msg_read() */
struct storm_run {
	struct msgbuf m;
	struct ap_state st;
	int ret;
};

static void run_storm(void *arg)
{
	struct storm_run *s = arg;

	s->ret = nl_answers(s->m.u.b, s->m.len, 0, 0, parse_link_dump, &s->st, "RTM_GETLINK dump",
			    "brnfstorm-ap");
}

static void test_storm_dump(void **state)
{
	static const uint8_t none[3];
	struct storm_run s = {};
	struct nlmsghdr *nlh;
	char err[512];

	(void)state;
	newlink(&s.m, "br-lan", "bridge", nf_101);
	newlink(&s.m, "br-wlan", "bridge", none);
	newlink(&s.m, "ss3", "veth", NULL);
	ack(&s.m, true, 0, NULL);
	capture_stderr(err, sizeof(err), run_storm, &s);
	assert_int_equal(s.ret, 0);
	assert_int_equal(s.st.nbridges, 2);
	assert_int_equal(s.st.nflagged, 1);
	assert_string_equal(s.st.names[0], "br-lan*");
	assert_string_equal(s.st.names[1], "br-wlan");
	assert_int_equal(s.st.nlinks_extra, 1);
	assert_string_equal(s.st.extra[0], "ss3");

	/* a bridge whose last attribute is cut short: the dump is an error, the bridge
	 * not counted (the storm's own attribute walk stopped there and went on) */
	memset(&s, 0, sizeof(s));
	nlh = newlink(&s.m, "br-lan", "bridge", nf_101);
	((struct nlattr *)((unsigned char *)nlh + nlh->nlmsg_len - 8))->nla_len = 200;
	ack(&s.m, true, 0, NULL);
	capture_stderr(err, sizeof(err), run_storm, &s);
	assert_int_equal(s.ret, -EBADMSG);
	assert_int_equal(s.st.nbridges, 0);
	assert_string_equal(err, "Error: Bad message (RTM_GETLINK dump in brnfstorm-ap)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_read),
		cmocka_unit_test(test_truncated_attr),
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_extack),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_storm_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
