/* SPDX-License-Identifier: GPL-2.0 */
/*
 * brnf-storm: toggle every bridge-netfilter switch, from several processes at
 * once, while traffic crosses two bridges; then check the kernel log and that
 * `nft list hooks` matches the switches that are set.
 */
#ifndef BRNF_STORM_H
#define BRNF_STORM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "matrix.h"
#include "nl.h"
#include "testbed.h"

#define STORM_PREFIX "brnfstorm"	/* every namespace name starts with it */
#define STORM_MAX_WORKERS 16

enum storm_op {
	OP_SYSCTL,	/* net.bridge.bridge-nf-call-* of the AP namespace */
	OP_NL_FLAG,	/* IFLA_BR_NF_CALL_* of br-wlan/br-lan over rtnetlink */
	OP_SYSFS_FLAG,	/* /sys/class/net/<br>/bridge/nf_call_* */
	OP_BR_ADD,	/* an extra bridge in AP, created with random flags */
	OP_BR_DEL,
	OP_PORT_ADD,	/* a veth enslaved to a bridge (main or extra) */
	OP_PORT_DEL,
	OP_NS_ADD,	/* a namespace holding a flagged bridge with a port */
	OP_NS_DEL,
	OP_MODULE,	/* rmmod and modprobe br_netfilter (worker 0, --module-churn) */
	OP_NKINDS
};
extern const char *const storm_op_names[OP_NKINDS];

/* Written by the workers (MAP_SHARED), read by the parent. */
struct storm_shared {
	unsigned long done[STORM_MAX_WORKERS][OP_NKINDS];
	unsigned long failed[STORM_MAX_WORKERS][OP_NKINDS];
	char first_error[STORM_MAX_WORKERS][200];
	int finished[STORM_MAX_WORKERS];	/* 1: all its operations, 2: time limit */
	unsigned long module_gen;	/* module churn: odd while br_netfilter is unloaded
					 * or being loaded; changes at every rmmod/modprobe */
};

struct storm_opts {
	unsigned long ops;		/* in total, over all workers */
	unsigned int workers;
	unsigned long seed;
	unsigned int time_limit;	/* seconds, for the whole run */
	unsigned int flow_time;		/* seconds per iperf3 client run */
	unsigned int flows;		/* 0: no traffic */
	bool ping;
	const char *expect;		/* auto, ondemand, always */
	bool module_churn;		/* --module-churn: OP_MODULE on worker 0 */
	const char *out;		/* directory for logs, or NULL */
	bool verbose;
};

struct storm_bed {
	struct testbed tb;	/* tb.ns[TB_AP], ...: brnfstorm<n>-ap, ... */
	struct ledger undo;	/* its namespaces, deleted by bed_down() */
	bool made;
};

/* bed.c */
int bed_up(struct storm_bed *bed);
void bed_down(struct storm_bed *bed);
int bed_reap_stale(void);
/* Load the AP's rules: iptables physdev/conntrack counters, an nft bridge chain. */
int bed_rules(struct storm_bed *bed);

/* traffic.c */
struct traffic;
struct traffic *traffic_start(struct storm_bed *bed, const struct storm_opts *o, char *err,
			      size_t errlen);
/* Restart finished client runs while keep_going; collect results. 0 or -errno. */
void traffic_poll(struct traffic *t, bool keep_going);
/* Stop starting new runs, wait for the ones running (bounded), stop servers. */
void traffic_finish(struct traffic *t);
/* Print the totals; returns the number of failed runs. */
unsigned int traffic_report(struct traffic *t, FILE *f, unsigned long long *bytes);
void traffic_kill(struct traffic *t);

/* ops.c */
/* Fork the workers; returns 0 and their pids, or -errno. */
int ops_start(struct storm_bed *bed, const struct storm_opts *o, struct storm_shared *sh,
	      double deadline, int *pids);

/* check.c */
struct kmsg;
/* Follow /dev/kmsg from now on; every record is copied to log (may be NULL). */
struct kmsg *kmsg_open(FILE *log);
/* Read what is new; a splat's first line is printed on stdout. */
void kmsg_poll(struct kmsg *k);
/* Poll a last time; the number of splats, *lost = times records were overwritten unread. */
unsigned int kmsg_scan(struct kmsg *k, unsigned int *lost);
void kmsg_close(struct kmsg *k);
/* The hook checks in AP; returns the number of failed checks, -1 when n/a. */
int check_hooks(struct storm_bed *bed, const char *expect, FILE *f);
/* Delete what the workers left in AP (links named "ss*"). */
int check_cleanup_extras(struct storm_bed *bed);

/* leak.c */
/* Forget the leaks boot left: 1 when kmemleak is there, 0 when not, or -errno. */
int leak_begin(void);
/* Scan after the storm; the report goes to report (may be NULL). Returns the number
 * of unreferenced objects, -ENOENT without kmemleak, or another -errno. */
int leak_end(FILE *report);

#endif
