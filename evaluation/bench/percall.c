// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU TCG plugin: what each call of chosen kernel functions costs inside a
 * whole workload: instructions, distinct data and instruction cache lines,
 * and misses of a simulated per-vCPU L1D and L2.
 *
 *   -plugin libpercall.so,conf=<file>[,cache=on][,raw=<dir>] -d plugin -D <log>
 *
 * <file> lists guest virtual addresses (hex), found by scripts/bench.sh in
 * the disassembly of vmlinux:
 *   fn <id> <name>           a function measured (id < MAX_FNS)
 *   call <insn> <ret> <id>   a direct call of function <id>: the call
 *                            instruction and the address after it
 *   icall <insn> <ret>       an indirect call site that may reach an
 *   entry <addr> <id>        entry-tracked function <id>
 *   mark <addr>              a function each entry of which starts a new
 *                            segment (the switch being written, so that a
 *                            segment is one run on one side)
 *   irq <addr>               an interrupt or exception entry, or the context
 *                            switch: a call it lands in is not recorded
 *   route <addr> <bit> <names>
 *                            an instruction that stands for a decision of
 *                            the measured functions <names> (the names of
 *                            their fn lines, comma-separated, all given
 *                            before; scripts/routes.py finds it by its
 *                            source line): each time it runs, bit <bit>
 *                            (< 24) is set in the route word of the
 *                            innermost open call if it is one of those
 *                            functions' (a dequeue's line that runs inside
 *                            a pick marks nothing; the wake-up pick's
 *                            lines inside a pick mark the wake-up pick's
 *                            call, if it is measured, not the pick's); a <bit>
 *                            of 24 or more counts instead (bits 24-31 of
 *                            the word, saturating at 255). An address may
 *                            have several route lines, all for the same
 *                            <names>
 *
 * An indirect call site's pending return is dropped when the site's return
 * address is reached or a direct call of a measured function comes first, so
 * that an entry is never taken for an indirect call that already returned.
 * A call starts at its call instruction and ends when the same vCPU next
 * enters the translated block at its return address: it includes whatever
 * the function calls, tail calls included. A call during which its vCPU
 * took an interrupt or exception or switched tasks (a preempted or sleeping
 * call) is not recorded but counted as disturbed; a call that never returns
 * on its vCPU (the task migrated) is counted as lost. With cache=on every guest data access, user and kernel,
 * feeds the vCPU's cache model; without it only instructions are counted.
 * The caches are virtually tagged (one kernel address space; user space of
 * different processes aliases), private per vCPU, with LRU replacement and
 * no prefetcher; there is no shared LLC model.
 *
 * At exit the log gets one summary line per segment and function; with raw=
 * every call's record (6 x uint32: instructions, data lines, instruction
 * lines, L1D misses, L2 misses, measured calls made inside it) goes to
 * <dir>/<segment>.<function>, and, when the configuration has routes, the
 * call's route word (one uint32 per record, in the same order: the
 * decision bits 0-23, the count of the counting route in bits 24-31) to
 * <dir>/<segment>.<function>.routes. A function whose name starts with "pair_" (one
 * side of a check that runs every side once per event, in the same order)
 * also gets a record for each disturbed call, all fields UINT32_MAX, so
 * that its records pair up with the other sides' by position.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "tb_insns.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS	64
#define MAX_FNS		24
#define MAX_SEGS	1024
#define MAX_DEPTH	8
#define SET_SLOTS	16384			/* lines remembered per call */
#define STALE		(200ULL * 1000 * 1000)	/* instructions */
#define LINE_SHIFT	6

enum { M_INS, M_DLINES, M_ILINES, M_L1M, M_L2M, M_NESTED, NR_METRICS };
static const char *const metric_name[NR_METRICS] = {
	"ins", "dlines", "ilines", "l1d_miss", "l2_miss", "nested",
};

struct cache {
	uint64_t *tag, *age, clock;
	unsigned int sets, ways;
};

struct frame {
	uint64_t ret, ins0, l1m0, l2m0;
	unsigned int fn, seg, nd, ni, nused, disturbed, nested;
	uint32_t route;
	uint64_t *set;			/* open addressing, 0 = empty */
	uint32_t *used;			/* slots to clear */
};

struct vcpu {
	uint64_t ins, l1m, l2m;
	uint64_t pend_ret, pend_ins;
	unsigned int depth;
	struct frame fr[MAX_DEPTH];
	struct cache l1, l2;
};

struct rec { uint32_t v[NR_METRICS]; uint32_t route; };

struct series {
	struct rec *r;
	size_t n, cap, lost, disturbed;
};

struct tbinfo { struct tb_count n; uint64_t line0, line1; };

/* A small open-addressing map from guest address to a value. */
struct map {
	uint64_t *key, *val;
	size_t cap, n;
};

static struct vcpu vcpus[MAX_VCPUS];
static char *fn_name[MAX_FNS];
static int fn_pair[MAX_FNS];		/* "pair_": disturbed calls keep their place */
static struct series data[MAX_SEGS][MAX_FNS];
static struct map calls, callret, icalls, rets, entries, irqs, routes;
static int have_routes;
static uint64_t mark_addr;
static unsigned int seg;
static int cache_on;
static const char *raw_dir;

static uint64_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	return k ^ (k >> 33);
}

static void map_put(struct map *m, uint64_t k, uint64_t v)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct map o = *m;

		m->cap = m->cap ? 2 * m->cap : 64;
		m->key = calloc(m->cap, sizeof(*m->key));
		m->val = calloc(m->cap, sizeof(*m->val));
		m->n = 0;
		if (!m->key || !m->val) {
			fprintf(stderr, "percall: out of memory\n");
			exit(1);
		}
		for (i = 0; i < o.cap; i++)
			if (o.key[i])
				map_put(m, o.key[i], o.val[i]);
		free(o.key);
		free(o.val);
	}
	for (i = hash(k) & (m->cap - 1); m->key[i] && m->key[i] != k; i = (i + 1) & (m->cap - 1))
		;
	if (!m->key[i])
		m->n++;
	m->key[i] = k;
	m->val[i] = v;
}

static int map_get(const struct map *m, uint64_t k, uint64_t *v)
{
	size_t i;

	if (!m->cap)
		return 0;
	for (i = hash(k) & (m->cap - 1); m->key[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == k) {
			*v = m->val[i];
			return 1;
		}
	return 0;
}

static void cache_init(struct cache *c, unsigned int sets, unsigned int ways)
{
	c->sets = sets;
	c->ways = ways;
	c->tag = calloc((size_t)sets * ways, sizeof(*c->tag));
	c->age = calloc((size_t)sets * ways, sizeof(*c->age));
	if (!c->tag || !c->age) {
		fprintf(stderr, "percall: out of memory\n");
		exit(1);
	}
}

/* Returns 1 on a hit; on a miss the least recently used way is replaced. */
static int cache_access(struct cache *c, uint64_t line)
{
	uint64_t *tag = c->tag + (line & (c->sets - 1)) * c->ways;
	uint64_t *age = c->age + (line & (c->sets - 1)) * c->ways;
	unsigned int w, victim = 0;

	for (w = 0; w < c->ways; w++) {
		if (tag[w] == line + 1) {
			age[w] = ++c->clock;
			return 1;
		}
		if (age[w] < age[victim])
			victim = w;
	}
	tag[victim] = line + 1;
	age[victim] = ++c->clock;
	return 0;
}

/* Remembers a line touched by the call; returns 1 if it is new to it. */
static int frame_touch(struct frame *f, uint64_t key)
{
	uint32_t i;

	if (4 * (f->nused + 1) > 3 * SET_SLOTS)
		return 0;		/* saturated: reported as at least this */
	for (i = hash(key) & (SET_SLOTS - 1); f->set[i]; i = (i + 1) & (SET_SLOTS - 1))
		if (f->set[i] == key)
			return 0;
	f->set[i] = key;
	f->used[f->nused++] = i;
	return 1;
}

static void frame_reset(struct frame *f)
{
	unsigned int i;

	for (i = 0; i < f->nused; i++)
		f->set[f->used[i]] = 0;
	f->nused = f->nd = f->ni = f->nested = 0;
}

static void record(struct vcpu *v, struct frame *f)
{
	struct series *s = &data[f->seg][f->fn];
	uint64_t ins = v->ins - f->ins0;
	struct rec *r;
	unsigned int i;

	if (f->disturbed) {
		s->disturbed++;
		if (!fn_pair[f->fn])
			return;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		struct rec *n = realloc(s->r, cap * sizeof(*n));

		if (!n) {
			s->lost++;
			return;
		}
		s->r = n;
		s->cap = cap;
	}
	r = &s->r[s->n++];
	r->v[M_INS] = ins > UINT32_MAX ? UINT32_MAX : ins;
	r->v[M_DLINES] = f->nd;
	r->v[M_ILINES] = f->ni;
	r->v[M_L1M] = v->l1m - f->l1m0;
	r->v[M_L2M] = v->l2m - f->l2m0;
	r->v[M_NESTED] = f->nested;
	r->route = f->route;
	if (f->disturbed)
		for (i = 0; i < NR_METRICS; i++)
			r->v[i] = UINT32_MAX;
}

static void push(struct vcpu *v, uint64_t ret, unsigned int fn, uint64_t ins0)
{
	struct frame *f;

	/* Frames left behind by calls that ended elsewhere. */
	while (v->depth && v->ins - v->fr[0].ins0 > STALE) {
		data[v->fr[v->depth - 1].seg][v->fr[v->depth - 1].fn].lost++;
		frame_reset(&v->fr[--v->depth]);
	}
	if (v->depth == MAX_DEPTH) {
		data[seg][fn].lost++;
		return;
	}
	/* A measured call made inside the open ones (task_cache_work()'s scan). */
	for (unsigned int i = 0; i < v->depth; i++)
		v->fr[i].nested++;
	f = &v->fr[v->depth++];
	frame_reset(f);
	f->ret = ret;
	f->disturbed = 0;
	f->fn = fn;
	f->route = 0;
	f->seg = seg;
	f->ins0 = ins0;
	f->l1m0 = v->l1m;
	f->l2m0 = v->l2m;
}

static void call_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];
	uint64_t site = (uintptr_t)udata, ret, fn;

	if (map_get(&calls, site, &fn) && map_get(&callret, site, &ret)) {
		/* The entry that follows is this call's, not an earlier icall's. */
		v->pend_ret = 0;
		push(v, ret, fn, v->ins);
	}
}

static void icall_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];

	v->pend_ret = (uintptr_t)udata;
	v->pend_ins = v->ins;
}

static void entry_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];

	/* Reached from the indirect call just before (through its thunk)? */
	if (v->pend_ret && v->ins - v->pend_ins <= 16)
		push(v, v->pend_ret, (uintptr_t)udata, v->pend_ins);
	v->pend_ret = 0;
}

static void ret_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];
	uint64_t ret = (uintptr_t)udata;
	unsigned int i;

	/* An indirect call that returned without reaching a tracked entry. */
	if (v->pend_ret == ret)
		v->pend_ret = 0;
	for (i = v->depth; i-- > 0;) {
		if (v->fr[i].ret != ret)
			continue;
		record(v, &v->fr[i]);
		/* Frames above it never returned here: lost. */
		while (v->depth > i) {
			struct frame *f = &v->fr[--v->depth];

			if (v->depth > i)
				data[f->seg][f->fn].lost++;
			frame_reset(f);
		}
		return;
	}
}

static void irq_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];
	unsigned int i;

	for (i = 0; i < v->depth; i++)
		v->fr[i].disturbed = 1;
}

/*
 * The routes' map gives an instruction the decision bits (0-23) of every
 * route it stands for, ROUTE_COUNT when it stands for the counting one too
 * (one instruction may serve several routes: a loop's first load is both
 * "heap search entered" and one of its steps), and in bits 32-55 the
 * functions (bit <id> for fn <id>) whose calls those routes mark.
 */
#define ROUTE_COUNT	(1ULL << 24)
#define ROUTE_FN_SHIFT	32

/*
 * A route instruction ran: if the innermost open call is of a function it
 * marks, its decision bits into that call's mask (bits 0-23), and one more
 * in its count (bits 24-31, saturating at 255) if it counts. Only the
 * innermost: the line may run for a measured call nested in it (the
 * wake-up pick of a task that the newly idle balance inside a pick pulls,
 * the LLC accounting of curr inside an enqueue's update_curr()), and is
 * then that call's decision, not the outer one's.
 */
static void route_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];
	uint64_t what = (uintptr_t)udata;
	struct frame *f;

	if (!v->depth)
		return;
	f = &v->fr[v->depth - 1];
	if (!((what >> ROUTE_FN_SHIFT) & (1ULL << f->fn)))
		return;
	f->route |= what & 0xffffff;
	if ((what & ROUTE_COUNT) && (f->route >> 24) < 255)
		f->route += 1U << 24;
}

static void mark_exec(unsigned int cpu, void *udata)
{
	if (seg < MAX_SEGS - 1)
		seg++;
}

static void tb_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];
	const struct tbinfo *t = udata;
	unsigned int i;
	uint64_t l;

	v->ins += t->n.n;
	for (i = 0; i < v->depth; i++)
		for (l = t->line0; l <= t->line1; l++)
			v->fr[i].ni += frame_touch(&v->fr[i], l << 1 | 1);
}

static void mem_exec(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct vcpu *v = &vcpus[cpu % MAX_VCPUS];
	uint64_t line = vaddr >> LINE_SHIFT;
	unsigned int i;

	if (!cache_access(&v->l1, line)) {
		v->l1m++;
		if (!cache_access(&v->l2, line))
			v->l2m++;
	}
	for (i = 0; i < v->depth; i++)
		v->fr[i].nd += frame_touch(&v->fr[i], line << 1);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb), x;
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
	struct tbinfo *t = malloc(sizeof(*t));

	if (!t) {
		fprintf(stderr, "percall: out of memory\n");
		exit(1);
	}
	/* Without an instruction listed here that runs in the next block. */
	tb_insns(tb, &t->n);
	/* Before the counting callback: the caller's block is not the call's. */
	if (map_get(&rets, va, &x) && x)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, ret_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)va);
	if (map_get(&entries, va, &x))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, entry_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)x);
	if (map_get(&irqs, va, &x))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, irq_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (va == mark_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	t->line0 = va >> LINE_SHIFT;
	t->line1 = (qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last) - 1) >> LINE_SHIFT;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t iva = qemu_plugin_insn_vaddr(insn);

		/*
		 * A route first: a route's instruction that calls a measured
		 * function (pick_task_fair()'s call of update_curr()) marks
		 * the call it runs in, before the callee's opens.
		 */
		if (map_get(&routes, iva, &x))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, route_exec, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)x);
		if (map_get(&calls, iva, &x))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, call_exec, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)iva);
		if (map_get(&icalls, iva, &x))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, icall_exec, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)x);
		if (cache_on)
			qemu_plugin_register_vcpu_mem_cb(insn, mem_exec, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

/* A pair_ piece's disturbed call, kept for its place. */
static int is_hole(const struct rec *r)
{
	return r->v[M_INS] == UINT32_MAX && r->v[M_NESTED] == UINT32_MAX;
}

static int cmp32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void write_raw(unsigned int s, unsigned int f, const struct series *d)
{
	char path[4096];
	FILE *o;

	snprintf(path, sizeof(path), "%s/%u.%s", raw_dir, s, fn_name[f]);
	o = fopen(path, "wb");
	for (size_t i = 0; o && i < d->n; i++)
		if (fwrite(d->r[i].v, sizeof(d->r[i].v), 1, o) != 1)
			break;
	if (!o || ferror(o))
		fprintf(stderr, "percall: cannot write %s\n", path);
	if (o)
		fclose(o);
	if (!have_routes)
		return;
	snprintf(path, sizeof(path), "%s/%u.%s.routes", raw_dir, s, fn_name[f]);
	o = fopen(path, "wb");
	for (size_t i = 0; o && i < d->n; i++)
		if (fwrite(&d->r[i].route, sizeof(d->r[i].route), 1, o) != 1)
			break;
	if (!o || ferror(o))
		fprintf(stderr, "percall: cannot write %s\n", path);
	if (o)
		fclose(o);
}

/*
 * One line per segment and function:
 *   percall <seg> <fn> calls <n> lost <n> disturbed <n> <metric> <p10> <p50> <p90> <p99> <max> <mean> ...
 */
static void at_exit(qemu_plugin_id_t id, void *p)
{
	unsigned int s, f, m;
	size_t i, n, len;
	uint32_t *v;
	char line[1024];

	for (s = 0; s <= seg; s++)
		for (f = 0; f < MAX_FNS; f++) {
			struct series *d = &data[s][f];

			/* The calls recorded, a pair_ piece's disturbed ones apart. */
			for (i = n = 0; i < d->n; i++)
				n += !is_hole(&d->r[i]);
			if (!fn_name[f] || (!d->n && !d->lost && !d->disturbed))
				continue;
			len = snprintf(line, sizeof(line), "percall %u %s calls %zu lost %zu disturbed %zu",
				       s, fn_name[f], n, d->lost, d->disturbed);
			v = malloc((n ? n : 1) * sizeof(*v));
			for (m = 0; v && n && m < NR_METRICS; m++) {
				double sum = 0;
				size_t k = 0;

				for (i = 0; i < d->n; i++) {
					if (is_hole(&d->r[i]))
						continue;
					v[k] = d->r[i].v[m];
					sum += v[k++];
				}
				qsort(v, n, sizeof(*v), cmp32);
				len += snprintf(line + len, sizeof(line) - len,
						" %s %u %u %u %u %u %.1f", metric_name[m],
						v[n / 10], v[n / 2], v[n * 9 / 10], v[n * 99 / 100],
						v[n - 1], sum / n);
			}
			free(v);
			snprintf(line + len, sizeof(line) - len, "\n");
			qemu_plugin_outs(line);
			if (raw_dir && d->n)
				write_raw(s, f, d);
		}
	snprintf(line, sizeof(line), "percall_segments %u cache %s\n", seg + 1, cache_on ? "on" : "off");
	qemu_plugin_outs(line);
}

/*
 * The functions a route line names (its comma-separated <names>, each the
 * name of a fn line read before it), as a mask of their ids; 0 if a name
 * is none of them.
 */
static uint64_t route_fns(char *names)
{
	uint64_t mask = 0;
	char *save, *n;
	unsigned int id;

	for (n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		for (id = 0; id < MAX_FNS; id++)
			if (fn_name[id] && !strcmp(fn_name[id], n))
				break;
		if (id == MAX_FNS)
			return 0;
		mask |= 1ULL << id;
	}
	return mask;
}

static int read_conf(const char *path)
{
	FILE *f = fopen(path, "r");
	char kind[16], name[128];
	uint64_t a, b;
	unsigned int id;
	char buf[256];

	if (!f) {
		fprintf(stderr, "percall: cannot open %s\n", path);
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, "%15s", kind) != 1)
			continue;
		if (!strcmp(kind, "fn") && sscanf(buf, "fn %u %127s", &id, name) == 2 && id < MAX_FNS) {
			fn_name[id] = strdup(name);
			fn_pair[id] = !strncmp(name, "pair_", 5);
		} else if (!strcmp(kind, "call") &&
			   sscanf(buf, "call %" SCNx64 " %" SCNx64 " %u", &a, &b, &id) == 3 && id < MAX_FNS) {
			map_put(&calls, a, id);
			map_put(&callret, a, b);
			map_put(&rets, b, 1);
		} else if (!strcmp(kind, "icall") &&
			   sscanf(buf, "icall %" SCNx64 " %" SCNx64, &a, &b) == 2) {
			map_put(&icalls, a, b);
			map_put(&rets, b, 1);
		} else if (!strcmp(kind, "entry") &&
			   sscanf(buf, "entry %" SCNx64 " %u", &a, &id) == 2 && id < MAX_FNS) {
			map_put(&entries, a, id);
		} else if (!strcmp(kind, "irq") && sscanf(buf, "irq %" SCNx64, &a) == 1) {
			map_put(&irqs, a, 1);
		} else if (!strcmp(kind, "route") &&
			   sscanf(buf, "route %" SCNx64 " %u %127s", &a, &id, name) == 3 && id < 32) {
			uint64_t what = 0, fns = route_fns(name);

			if (!fns) {
				fprintf(stderr, "percall: %s: route naming a function no fn line before it names: %s",
					path, buf);
				fclose(f);
				return -1;
			}
			if (map_get(&routes, a, &what) && what >> ROUTE_FN_SHIFT != fns) {
				fprintf(stderr, "percall: %s: route at %" PRIx64 " for other functions than before: %s",
					path, a, buf);
				fclose(f);
				return -1;
			}
			what |= fns << ROUTE_FN_SHIFT;
			map_put(&routes, a, what | (id < 24 ? 1ULL << id : ROUTE_COUNT));
			have_routes = 1;
		} else if (!strcmp(kind, "mark") && sscanf(buf, "mark %" SCNx64, &a) == 1) {
			mark_addr = a;
		} else {
			fprintf(stderr, "percall: bad line in %s: %s", path, buf);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *conf = NULL;
	unsigned int c, d;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "conf=", 5))
			conf = argv[i] + 5;
		else if (!strcmp(argv[i], "cache=on"))
			cache_on = 1;
		else if (!strncmp(argv[i], "raw=", 4))
			raw_dir = argv[i] + 4;
	}
	if (!conf || read_conf(conf))
		return -1;
	for (c = 0; c < MAX_VCPUS; c++) {
		for (d = 0; d < MAX_DEPTH; d++) {
			vcpus[c].fr[d].set = calloc(SET_SLOTS, sizeof(uint64_t));
			vcpus[c].fr[d].used = calloc(SET_SLOTS, sizeof(uint32_t));
			if (!vcpus[c].fr[d].set || !vcpus[c].fr[d].used)
				return -1;
		}
		if (cache_on && c < (unsigned int)info->system.max_vcpus) {
			cache_init(&vcpus[c].l1, 64, 8);	/* 32 KiB, 8-way, 64-byte lines */
			cache_init(&vcpus[c].l2, 1024, 16);	/* 1 MiB, 16-way */
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
