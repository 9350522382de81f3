// SPDX-License-Identifier: GPL-2.0
/*
 * insn-profile: a QEMU TCG plugin (plugin API 1, QEMU 7.2) that counts the guest
 * instructions executed per kernel symbol, inside windows marked by two kernel
 * functions, and writes one profile per window (rig/profile/README.md).
 *
 *   qemu-system-x86_64 ... -plugin build/profile/insn-profile.so,syms=NM,out=FILE,
 *       arm=pgctrl_write,start=pktgen_xmit,end=pktgen_stop_device.isra.0
 *
 * Arguments:
 *   syms=PATH     `nm -n -S vmlinux` of the guest's kernel (symtab.h), required
 *   out=PATH      where the profile goes (truncated), required
 *   start=SYMBOL  a window opens when the first instruction of SYMBOL executes
 *   end=SYMBOL    an open window closes when the first instruction of SYMBOL executes
 *                 (without start= and end=: one window, from the first instruction to
 *                 QEMU's exit)
 *   arm=SYMBOL    with it, start= opens a window only once after each execution of
 *                 SYMBOL's first instruction (start= may then be a function that runs
 *                 for every packet: the window opens at the first packet's)
 *   counters=insn|inline|percpu   insn (default with one vCPU): an add of 1 inlined
 *                 before every instruction into one array (TCG runs one vCPU, or all of
 *                 them round robin under -icount, in one thread); inline: one add of a
 *                 run's length at the first instruction of each run of one symbol in a
 *                 block (cheaper, but where QEMU leaves a block part way and re-enters
 *                 it, as under -icount at an I/O instruction or at an exception, the
 *                 run's rest is counted twice: up to 6 instructions per packet too many on the rig's 6.12
 *                 kernels, results/2026-12-03-6.12-icount-profile-3); percpu (default
 *                 with several vCPUs): a callback per run adds into the vCPU's own
 *                 array, atomically (the same caveat as inline)
 *   addrbits=32|64  guest virtual address width (default: 32 for mips, mipsel, arm,
 *                 i386 guests, else 64); nm's sign-extended addresses are cut to it
 *   cache=NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE   (up to 4 times) an L1 instruction
 *                 and data cache model (cachesim.h) fed, inside a window only, with
 *                 every line the vCPU fetches instructions from and every load and
 *                 store it makes, at their guest virtual addresses; both caches are
 *                 invalidated when a window opens
 *
 * Output (parsed by rig/src/data/profile.c):
 *   brnf-insn-profile 1
 *   symbols NSYMS PATH
 *   markers START END          ("-" "-" without markers; ARM:START with arm=)
 *   cache-model SPEC           one per cache=, in its order
 *   window N TOTAL             then one "COUNT NAME" line per symbol with COUNT > 0,
 *   COUNT NAME                 the largest first; [user] is every address below the
 *                              kernel's lowest symbol, [other] any other one in none;
 *   cache NAME ifetch F imiss M dacc A dmiss D   per cache= in its order: line
 *                              fetches and misses, data line accesses and misses
 *   end N
 *   summary windows N restarts R stray_ends S open_at_exit 0|1
 * A start while a window is open restarts it (counted as a restart); an end with none
 * open is a stray end. Counts include every instruction of the vCPUs in the window:
 * interrupts, softirqs, other tasks, user space.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "cachesim.h"
#include "symtab.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define ME "insn-profile"
#define MAX_TB_INSNS 1024
#define MAX_CACHES 4

static struct symtab st;
static size_t nb;			/* buckets: symbols + [user] + [other] */
static uint64_t *counts;		/* inline: nb counters */
static uint64_t **vcounts;		/* percpu: per vCPU, nb counters each */
static int nvcpus;
static bool percpu, per_insn;
static uint64_t *snap, *now;
static uint64_t start_addr, end_addr, arm_addr;
static bool markers, armed, has_arm;
static bool open_window;
static unsigned long nwindows, restarts, stray_ends;
static FILE *out;
static char *out_path;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* cache=: the models, and the instruction-fetch granule (the smallest I line) */
struct cache_model {
	struct cachesim_spec spec;
	struct cachesim i, d;
};
static struct cache_model caches[MAX_CACHES];
static int ncaches;
static unsigned int fetch_shift;

/* an instruction fetch: the bytes of an instruction that ends in a granule its
 * predecessor in the block did not end in (register_caches()), fetched when it
 * executes */
struct fetch_udata {
	uint64_t addr;
	unsigned int len;
};

static void fetch_exec(unsigned int vcpu, void *udata)
{
	const struct fetch_udata *f = udata;
	int k;

	(void)vcpu;
	if (!open_window)
		return;
	for (k = 0; k < ncaches; k++)
		cachesim_fetch(&caches[k].i, f->addr, f->len);
}

static void mem_exec(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		     void *udata)
{
	unsigned int len = 1u << qemu_plugin_mem_size_shift(info);
	int k;

	(void)vcpu;
	(void)udata;
	if (!open_window)
		return;
	for (k = 0; k < ncaches; k++)
		cachesim_access(&caches[k].d, vaddr, len);
}

struct seg_udata {
	size_t sym;
	uint64_t n;
};

static void seg_exec(unsigned int vcpu, void *udata)
{
	const struct seg_udata *s = udata;

	if (vcpu < (unsigned int)nvcpus)
		__atomic_fetch_add(&vcounts[vcpu][s->sym], s->n, __ATOMIC_RELAXED);
}

/* the counters now, into @dst */
static void read_counts(uint64_t *dst)
{
	size_t i;
	int c;

	if (!percpu) {
		memcpy(dst, counts, nb * sizeof(*dst));
		return;
	}
	memset(dst, 0, nb * sizeof(*dst));
	for (c = 0; c < nvcpus; c++)
		for (i = 0; i < nb; i++)
			dst[i] += __atomic_load_n(&vcounts[c][i], __ATOMIC_RELAXED);
}

static uint64_t *sort_base;

static int cmp_desc(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_base[x] != sort_base[y])
		return sort_base[x] > sort_base[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* window nwindows: now - snap, the largest first */
static void write_window(void)
{
	size_t i, k = 0, *idx;
	uint64_t total = 0;
	int c;

	read_counts(now);
	for (i = 0; i < nb; i++) {
		now[i] -= snap[i];
		total += now[i];
	}
	idx = malloc(nb * sizeof(*idx));
	if (!idx) {
		fprintf(stderr, ME ": %s: out of memory for window %lu\n", out_path, nwindows);
		return;
	}
	for (i = 0; i < nb; i++)
		if (now[i])
			idx[k++] = i;
	sort_base = now;
	qsort(idx, k, sizeof(*idx), cmp_desc);
	fprintf(out, "window %lu %" PRIu64 "\n", nwindows, total);
	for (i = 0; i < k; i++)
		fprintf(out, "%" PRIu64 " %s\n", now[idx[i]], symtab_name(&st, idx[i]));
	for (c = 0; c < ncaches; c++)
		fprintf(out, "cache %s ifetch %" PRIu64 " imiss %" PRIu64 " dacc %" PRIu64
			" dmiss %" PRIu64 "\n", caches[c].spec.name, caches[c].i.acc,
			caches[c].i.miss, caches[c].d.acc, caches[c].d.miss);
	fprintf(out, "end %lu\n", nwindows);
	fflush(out);
	free(idx);
}

static void open_it(void)
{
	int c;

	if (open_window)
		restarts++;
	for (c = 0; c < ncaches; c++) {
		cachesim_reset(&caches[c].i);
		cachesim_reset(&caches[c].d);
	}
	read_counts(snap);
	open_window = true;
}

static void close_it(void)
{
	if (!open_window) {
		stray_ends++;
		return;
	}
	nwindows++;
	write_window();
	open_window = false;
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	pthread_mutex_lock(&lock);
	if (udata == &arm_addr) {
		armed = true;
	} else if (udata == &start_addr) {
		if (!has_arm) {
			open_it();
		} else if (armed) {
			armed = false;
			open_it();
		}
	} else {
		close_it();
	}
	pthread_mutex_unlock(&lock);
}

/* cache=: a fetch at every instruction that ends in a granule the previous one did not
 * end in, and the loads and stores of every instruction */
static void register_caches(struct qemu_plugin_tb *tb, size_t n)
{
	uint64_t prev_last = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t a = qemu_plugin_insn_vaddr(insn);
		size_t len = qemu_plugin_insn_size(insn);
		uint64_t last = (a + (len ? len : 1) - 1) >> fetch_shift;
		struct fetch_udata *f;

		qemu_plugin_register_vcpu_mem_cb(insn, mem_exec, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
		if (i && last == prev_last)
			continue;
		prev_last = last;
		f = malloc(sizeof(*f));
		if (!f) {
			fprintf(stderr, ME ": out of memory: the cache models miss a fetch\n");
			continue;
		}
		f->addr = a;
		f->len = (unsigned int)len;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, fetch_exec, QEMU_PLUGIN_CB_NO_REGS,
						       f);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i, k, nseg, first;
	uint64_t addr[MAX_TB_INSNS];
	struct symtab_seg seg[MAX_TB_INSNS];
	struct qemu_plugin_insn *insn;

	(void)id;
	if (n > MAX_TB_INSNS)
		n = MAX_TB_INSNS;	/* TCG's own limit is 512 */
	for (i = 0; i < n; i++) {
		insn = qemu_plugin_tb_get_insn(tb, i);
		addr[i] = qemu_plugin_insn_vaddr(insn);
		if (!markers)
			continue;
		if (addr[i] == start_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS, &start_addr);
		else if (addr[i] == end_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS, &end_addr);
		else if (has_arm && addr[i] == arm_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS, &arm_addr);
	}
	if (ncaches)
		register_caches(tb, n);
	nseg = symtab_segments(&st, addr, n, seg);
	for (k = 0, first = 0; k < nseg; first += seg[k].n, k++) {
		insn = qemu_plugin_tb_get_insn(tb, first);
		if (per_insn) {
			unsigned int j;

			for (j = 0; j < seg[k].n; j++)
				qemu_plugin_register_vcpu_insn_exec_inline(
					qemu_plugin_tb_get_insn(tb, first + j),
					QEMU_PLUGIN_INLINE_ADD_U64, &counts[seg[k].sym], 1);
		} else if (!percpu) {
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &counts[seg[k].sym], seg[k].n);
		} else {
			struct seg_udata *u = malloc(sizeof(*u));

			if (!u)
				continue;	/* not counted: reported nowhere, but never */
			u->sym = seg[k].sym;
			u->n = seg[k].n;
			qemu_plugin_register_vcpu_insn_exec_cb(insn, seg_exec,
							       QEMU_PLUGIN_CB_NO_REGS, u);
		}
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	bool was_open;

	(void)id;
	(void)p;
	pthread_mutex_lock(&lock);
	was_open = open_window;
	if (!markers && open_window)
		close_it();
	fprintf(out, "summary windows %lu restarts %lu stray_ends %lu open_at_exit %d\n",
		nwindows, restarts, stray_ends, markers && was_open);
	if (fclose(out))
		fprintf(stderr, ME ": %s: %s\n", out_path, strerror(errno));
	out = NULL;
	pthread_mutex_unlock(&lock);
}

static bool is32(const char *target)
{
	return !strcmp(target, "mips") || !strcmp(target, "mipsel") ||
	       !strcmp(target, "arm") || !strcmp(target, "i386");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *syms = NULL, *start = NULL, *end = NULL, *ctr = NULL, *bits = NULL;
	const char *arm = NULL;
	char err[512];
	uint64_t mask;
	size_t s, e;
	int i, c;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *v = eq ? eq + 1 : "";
		size_t kl = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

		if (kl == 4 && !strncmp(argv[i], "syms", 4))
			syms = v;
		else if (kl == 3 && !strncmp(argv[i], "out", 3))
			out_path = (char *)v;
		else if (kl == 5 && !strncmp(argv[i], "start", 5))
			start = v;
		else if (kl == 3 && !strncmp(argv[i], "end", 3))
			end = v;
		else if (kl == 3 && !strncmp(argv[i], "arm", 3))
			arm = v;
		else if (kl == 8 && !strncmp(argv[i], "counters", 8))
			ctr = v;
		else if (kl == 8 && !strncmp(argv[i], "addrbits", 8))
			bits = v;
		else if (kl == 5 && !strncmp(argv[i], "cache", 5)) {
			if (ncaches == MAX_CACHES) {
				fprintf(stderr, ME ": cache= at most %d times\n", MAX_CACHES);
				return -1;
			}
			if (cachesim_parse_spec(v, &caches[ncaches].spec, err, sizeof(err))) {
				fprintf(stderr, ME ": %s\n", err);
				return -1;
			}
			for (c = 0; c < ncaches; c++)
				if (!strcmp(caches[c].spec.name, caches[ncaches].spec.name)) {
					fprintf(stderr, ME ": cache %s named twice\n",
						caches[c].spec.name);
					return -1;
				}
			if (cachesim_init(&caches[ncaches].i, &caches[ncaches].spec.i) ||
			    cachesim_init(&caches[ncaches].d, &caches[ncaches].spec.d)) {
				fprintf(stderr, ME ": out of memory for cache %s\n",
					caches[ncaches].spec.name);
				return -1;
			}
			if (!ncaches || caches[ncaches].i.line_shift < fetch_shift)
				fetch_shift = caches[ncaches].i.line_shift;
			ncaches++;
		} else {
			fprintf(stderr, ME ": unknown argument '%s' (syms= out= start= end= arm= "
				"counters= addrbits= cache=)\n", argv[i]);
			return -1;
		}
	}
	if (!syms || !*syms || !out_path || !*out_path) {
		fprintf(stderr, ME ": syms=PATH and out=PATH are required\n");
		return -1;
	}
	if (!start != !end || (start && (!*start || !*end))) {
		fprintf(stderr, ME ": start=SYMBOL and end=SYMBOL go together\n");
		return -1;
	}
	if (!info->system_emulation) {
		fprintf(stderr, ME ": counts kernel symbols: system emulation only\n");
		return -1;
	}
	if (bits && strcmp(bits, "32") && strcmp(bits, "64")) {
		fprintf(stderr, ME ": addrbits=%s: 32 or 64\n", bits);
		return -1;
	}
	if (bits)
		mask = !strcmp(bits, "32") ? 0xffffffffu : UINT64_MAX;
	else
		mask = is32(info->target_name) ? 0xffffffffu : UINT64_MAX;
	if (symtab_load(syms, mask, &st, err, sizeof(err))) {
		fprintf(stderr, ME ": %s\n", err);
		return -1;
	}
	nb = SYMTAB_NBUCKETS(&st);
	markers = start != NULL;
	if (markers) {
		s = symtab_find(&st, start);
		e = symtab_find(&st, end);
		if (s == (size_t)-1 || e == (size_t)-1) {
			fprintf(stderr, ME ": %s: no text symbol %s\n", syms,
				s == (size_t)-1 ? start : end);
			return -1;
		}
		if (s == e) {
			fprintf(stderr, ME ": start= and end= are one symbol (%s)\n", start);
			return -1;
		}
		start_addr = st.v[s].addr;
		end_addr = st.v[e].addr;
	}
	if (arm) {
		size_t a = markers && *arm ? symtab_find(&st, arm) : (size_t)-1;

		if (!markers || a == (size_t)-1 || a == s || a == e) {
			fprintf(stderr, ME ": arm=%s: needs start= and end=, and a text symbol "
				"of its own in %s\n", arm, syms);
			return -1;
		}
		arm_addr = st.v[a].addr;
		has_arm = true;
	}
	nvcpus = info->system.max_vcpus > 0 ? info->system.max_vcpus : 1;
	if (!ctr) {
		percpu = nvcpus > 1;
		per_insn = !percpu;
	}
	else if (!strcmp(ctr, "inline") || !strcmp(ctr, "percpu") || !strcmp(ctr, "insn")) {
		percpu = !strcmp(ctr, "percpu");
		per_insn = !strcmp(ctr, "insn");
	}
	else {
		fprintf(stderr, ME ": counters=%s: inline, insn or percpu\n", ctr);
		return -1;
	}
	snap = calloc(nb, sizeof(*snap));
	now = calloc(nb, sizeof(*now));
	if (percpu) {
		vcounts = calloc((size_t)nvcpus, sizeof(*vcounts));
		for (c = 0; vcounts && c < nvcpus; c++)
			if (!(vcounts[c] = calloc(nb, sizeof(**vcounts))))
				break;
		if (!vcounts || c < nvcpus)
			snap = NULL;
	} else {
		counts = calloc(nb, sizeof(*counts));
		if (!counts)
			snap = NULL;
	}
	if (!snap || !now) {
		fprintf(stderr, ME ": out of memory for %zu counters\n", nb);
		return -1;
	}
	out = fopen(out_path, "w");
	if (!out) {
		fprintf(stderr, ME ": %s: %s\n", out_path, strerror(errno));
		return -1;
	}
	fprintf(out, "brnf-insn-profile 1\nsymbols %zu %s\nmarkers %s%s%s %s\n", st.n, syms,
		has_arm ? arm : "", has_arm ? ":" : "", markers ? start : "-",
		markers ? end : "-");
	for (c = 0; c < ncaches; c++) {
		const struct cachesim_spec *sp = &caches[c].spec;

		fprintf(out, "cache-model %s:%u:%u:%u:%u:%u:%u\n", sp->name, sp->i.size,
			sp->i.ways, sp->i.line, sp->d.size, sp->d.ways, sp->d.line);
	}
	fflush(out);
	open_window = !markers;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
