// SPDX-License-Identifier: GPL-2.0
/*
 * Cache-line layout guards of CONFIG_SCHED_RUST_CFS_DEBUG's evaluation
 * (build time only): the production build does not freeze these layouts.
 *
 * Two C layouts exist for cache behaviour, and the Rust pieces read and
 * write fields next to them:
 *
 *  - struct task_group: load_avg (and runnable_avg) on a cache line of
 *    their own, away from the fields read at every tick (commit "sched/fair:
 *    Move the cache-hot 'load_avg' variable into its own cacheline", 2015).
 *    The Rust group allocation writes shares and cfs_rq.
 *  - struct rq: nr_running .. idle on the first line (read without the lock
 *    in update_sg_lb_stats()), the runqueue lock on the next one, the clock
 *    fields on a line of their own (commit "sched: Reorder some fields in
 *    struct rq", 2026). The Rust LLC accounting writes nr_llc_running and
 *    nr_pref_llc_running and reads sd; its decay writes the cpu_epoch
 *    fields: the same fields, on the same lines, as their C twins, and none
 *    of them on a line of the three groups.
 *
 * The Rust pick reads, like pick_eevdf(), h_nr_queued .. next of struct
 * cfs_rq: the first two lines, apart from 'removed', which other CPUs write.
 *
 * A layout change that breaks one of these fails the build with the guard's
 * name; the KUnit case sched_rust_layout_test (sched_rust_parity) prints the
 * lines of the running kernel and checks the same conditions.
 */

#include <linux/build_bug.h>
#include <linux/cache.h>
#include <linux/stddef.h>

#include "../../sched.h"

#define SR_FIRST_LINE(type, f)	(offsetof(type, f) / SMP_CACHE_BYTES)
#define SR_LAST_LINE(type, f)	((offsetofend(type, f) - 1) / SMP_CACHE_BYTES)
/* @a ends on a cache line before the one @b starts on. */
#define SR_BEFORE(type, a, b)	(SR_LAST_LINE(type, a) < SR_FIRST_LINE(type, b))
/* @a .. @b (@a declared first) lie on one cache line. */
#define SR_ONE_LINE(type, a, b)	(SR_FIRST_LINE(type, a) == SR_LAST_LINE(type, b))

/* The guards' names, as the build error prints them; the commits are above. */
#define SR_TG	"sched_rust layout guard tg_load_avg: "
#define SR_RQ	"sched_rust layout guard rq_groups: "
#define SR_CFS	"sched_rust layout guard cfs_rq_pick: "

#ifdef CONFIG_FAIR_GROUP_SCHED
static_assert(__alignof__(struct task_group) >= SMP_CACHE_BYTES,
	      SR_TG "struct task_group is not cache-line aligned");
static_assert(offsetof(struct task_group, load_avg) % SMP_CACHE_BYTES == 0,
	      SR_TG "load_avg does not start a cache line");
static_assert(SR_ONE_LINE(struct task_group, load_avg, runnable_avg),
	      SR_TG "load_avg and runnable_avg are split");
static_assert(SR_BEFORE(struct task_group, css, load_avg),
	      SR_TG "load_avg shares a cache line with css");
static_assert(SR_BEFORE(struct task_group, shares, load_avg),
	      SR_TG "load_avg shares a cache line with shares (a Rust write)");
static_assert(SR_BEFORE(struct task_group, cfs_rq, load_avg),
	      SR_TG "load_avg shares a cache line with cfs_rq (a Rust write)");
#ifdef CONFIG_GROUP_SCHED_WEIGHT
static_assert(SR_BEFORE(struct task_group, idle, load_avg),
	      SR_TG "load_avg shares a cache line with idle");
#endif
#endif /* CONFIG_FAIR_GROUP_SCHED */

static_assert(__alignof__(struct rq) >= SMP_CACHE_BYTES,
	      SR_RQ "struct rq is not cache-line aligned");
static_assert(offsetof(struct rq, nr_running) == 0 && SR_ONE_LINE(struct rq, nr_running, idle),
	      SR_RQ "nr_running .. idle are no longer on the first cache line");
static_assert(SR_BEFORE(struct rq, idle, __lock),
	      SR_RQ "the runqueue lock moved onto the nr_running .. idle line");
static_assert(offsetof(struct rq, clock_task) % SMP_CACHE_BYTES == 0 &&
	      SR_ONE_LINE(struct rq, clock_task, clock_idle),
	      SR_RQ "clock_task .. clock_idle are not one cache line");

/*
 * The fields the Rust pieces access stay off the three groups' lines:
 * between the lock's line and the clock line, or after the clock line.
 */
static_assert(SR_BEFORE(struct rq, clock_idle, sd),
	      SR_RQ "rq->sd (read by the Rust LLC accounting) is on the clock line");
#ifdef CONFIG_SCHED_CACHE
static_assert(SR_BEFORE(struct rq, __lock, nr_pref_llc_running) &&
	      SR_BEFORE(struct rq, nr_llc_running, clock_task),
	      SR_RQ "the LLC counters (Rust writes) are on a hot group's line");
static_assert(SR_ONE_LINE(struct rq, nr_pref_llc_running, nr_llc_running),
	      SR_RQ "the two LLC counters are split across cache lines");
static_assert(SR_BEFORE(struct rq, __lock, cpu_runtime) &&
	      SR_BEFORE(struct rq, cpu_epoch_next, clock_task),
	      SR_RQ "cpu_runtime .. cpu_epoch_next (Rust writes) are on a hot group's line");
#endif

static_assert(__alignof__(struct cfs_rq) >= SMP_CACHE_BYTES,
	      SR_CFS "struct cfs_rq is not cache-line aligned");
static_assert(SR_FIRST_LINE(struct cfs_rq, h_nr_queued) == 0 &&
	      SR_LAST_LINE(struct cfs_rq, next) <= 1,
	      SR_CFS "what the pick reads (h_nr_queued .. next) left the first two cache lines");
static_assert(SR_BEFORE(struct cfs_rq, next, removed),
	      SR_CFS "the pick's fields share a cache line with 'removed' (remote writes)");
