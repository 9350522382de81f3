// SPDX-License-Identifier: GPL-2.0
/* The pps workloads with the kernel's pktgen (see pktgen.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktgen.h"
#include "util.h"

#define PG_DIR "/proc/net/pktgen"
#define SINK_TABLE "brnf_sink"
#define PG_PORT PKTGEN_UDP_PORT

bool pktgen_available(const struct host *h)
{
	char *argv[] = { "test", "-w", PG_DIR "/pgctrl", NULL };

	return host_run(h, argv, NULL, 0, NULL, NULL, 30) == 0;
}

int pktgen_check(const struct host *h)
{
	if (pktgen_available(h))
		return 0;
	pr_err("%s: no " PG_DIR "/pgctrl: the pps workloads need the kernel's packet "
	       "generator (CONFIG_NET_PKTGEN; modprobe pktgen), or choose --workloads tcp",
	       h->what);
	return -ENOENT;
}

/*
 * "Result: OK: 314509(c314432+d76) usec, 50000 (60byte,0frags)\n
 *   158978pps 76Mb/sec (76309440bps) errors: 0"
 */
int pktgen_parse_result(const char *text, struct pktgen_result *res)
{
	const char *r = strstr(text, "Result: "), *e;
	uint64_t busy, idle;
	size_t n;

	if (!r)
		return -EINVAL;
	r += strlen("Result: ");
	if (sscanf(r, "OK: %" SCNu64 "(c%" SCNu64 "+d%" SCNu64 ") usec, %" SCNu64,
		   &res->elapsed_us, &busy, &idle, &res->sent) != 4)
		return -EINVAL;
	e = strstr(r, "errors: ");
	if (!e || sscanf(e, "errors: %" SCNu64, &res->errors) != 1)
		return -EINVAL;
	/* the whole result on one line, for the record */
	e = strchrnul(e, '\n');
	n = e - r < (long)sizeof(res->result) ? (size_t)(e - r) : sizeof(res->result) - 1;
	memcpy(res->result, r, n);
	res->result[n] = '\0';
	for (char *c = res->result; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return 0;
}

/* A fresh sink on the receiver: the table made (if missing), deleted and made again,
 * so its counter starts at 0, in one transaction. */
static int sink_load(const struct pktgen_opts *o)
{
	char *argv[] = { "nft", "-f", "/proc/self/fd/0", NULL };
	char rules[512];

	snprintf(rules, sizeof(rules),
		 "table netdev " SINK_TABLE "\n"
		 "delete table netdev " SINK_TABLE "\n"
		 "table netdev " SINK_TABLE " {\n"
		 "\tchain rx {\n"
		 "\t\ttype filter hook ingress device \"%s\" priority 0; policy accept;\n"
		 "\t\tudp dport %u counter drop\n"
		 "\t}\n"
		 "}\n", o->rx_dev, PG_PORT);
	return host_cmd(o->rx, "pktgen sink (nft netdev ingress)", "nftables", argv, rules,
			strlen(rules), NULL);
}

/* The sink's count, then the sink removed. */
static int sink_read(const struct pktgen_opts *o, uint64_t *received)
{
	char *list[] = { "nft", "list", "table", "netdev", SINK_TABLE, NULL };
	char *del[] = { "nft", "delete", "table", "netdev", SINK_TABLE, NULL };
	char *out = NULL, *c;
	int err;

	err = host_cmd(o->rx, "read the pktgen sink", "nftables", list, NULL, 0, &out);
	if (!err) {
		c = out ? strstr(out, "counter packets ") : NULL;
		if (!c || sscanf(c, "counter packets %" SCNu64, received) != 1) {
			pr_err("%s: pktgen sink: no counter in 'nft list table netdev "
			       SINK_TABLE "'", o->rx->what);
			err = -EINVAL;
		}
	}
	free(out);
	if (!err)
		err = host_cmd(o->rx, "remove the pktgen sink", "nftables", del, NULL, 0, NULL);
	return err;
}

/*
 * The sender's side as POSIX sh: the device on thread kpktgend_0 of the sender's
 * namespace, its parameters one write each (pktgen refuses a bad one with an error),
 * start (returns when the count is sent), the device file (its Result) on stdout,
 * and the device removed from the thread again.
 */
static void sender_script(const struct pktgen_opts *o, unsigned long count, char *buf,
			  size_t len)
{
	snprintf(buf, len,
		 "P=" PG_DIR "; t=$P/kpktgend_0; d='%s'\n"
		 "echo rem_device_all > $t || exit 1\n"
		 "echo \"add_device $d\" > $t || exit 1\n"
		 "for c in 'count %lu' 'pkt_size %u' 'dst %s' 'dst_mac %s' "
		 "'udp_src_min %u' 'udp_src_max %u' 'udp_dst_min %u' 'udp_dst_max %u' "
		 "'clone_skb 0' 'burst 1' 'delay 0'; do\n"
		 "\techo \"$c\" > \"$P/$d\" || { echo \"pktgen refused '$c'\" >&2; exit 1; }\n"
		 "done\n"
		 "echo start > $P/pgctrl || exit 1\n"
		 "cat \"$P/$d\"\n"
		 "echo rem_device_all > $t\n",
		 o->tx_dev, count, o->pkt_size, o->dst_ip, o->dst_mac, PG_PORT, PG_PORT,
		 PG_PORT, PG_PORT);
}

/* count frames from o->tx into a fresh sink at o->rx, which counts them and is removed */
static int send_counted(const struct pktgen_opts *o, unsigned long count,
			struct pktgen_result *res)
{
	char script[1024], what[128], *out = NULL;
	char *argv[] = { "sh", "-c", script, NULL };
	int err;

	err = sink_load(o);
	if (err)
		return err;
	sender_script(o, count, script, sizeof(script));
	snprintf(what, sizeof(what), "pktgen, %lu frames of %u bytes on %s", count,
		 o->pkt_size, o->tx_dev);
	/* a generous bound: a frame costs microseconds even in an emulated guest */
	err = host_cmd_timeout(o->tx, what, NULL, argv, NULL, 0, &out, 120 + count / 1000.0);
	if (!err && pktgen_parse_result(out ? out : "", res)) {
		char *r = out ? strstr(out, "Result: ") : NULL;

		pr_err("%s: %s: no OK result%s%.*s", o->tx->what, what, r ? ": " : "",
		       r ? (int)strcspn(r, "\n") : 0, r ? r : "");
		err = -EIO;
	}
	free(out);
	if (!err)
		err = sink_read(o, &res->received);
	return err;
}

int pktgen_prime(const struct pktgen_opts *o)
{
	const struct pktgen_opts *way[] = { o, o->reply };
	struct pktgen_result res;
	unsigned int i;
	int err = 0;

	for (i = 0; i < 2 && !err; i++) {
		memset(&res, 0, sizeof(res));
		err = send_counted(way[i], 1, &res);
		if (!err && res.received != 1) {
			pr_err("%s: the priming frame from %s to %s did not arrive (%" PRIu64
			       " counted)", way[i]->rx->what, way[i]->tx_dev, way[i]->dst_ip,
			       res.received);
			err = -EIO;
		}
	}
	return err;
}

int pktgen_send(const struct pktgen_opts *o, struct pktgen_result *res)
{
	int err;

	memset(res, 0, sizeof(*res));
	if (o->reply) {
		err = pktgen_prime(o);
		if (err)
			return err;
		res->primed = true;
	}
	return send_counted(o, o->count, res);
}
