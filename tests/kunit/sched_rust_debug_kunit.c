// SPDX-License-Identifier: GPL-2.0
/*
 * The eligibility column of print_task() with CONFIG_SCHED_RUST_CFS
 * (kernel/sched/debug.c): sched/debug's listing (m != NULL) takes the
 * runqueue lock; the console dump (sysrq-t, m == NULL) only tries it and
 * prints '?' when another context holds it, so that a dump still works
 * while a CPU holds a runqueue lock for good.
 *
 * Included at the end of debug.c, whose print_task_eligible() is static.
 */
#include <kunit/test.h>

/* At most this many tries for a lock another CPU may hold for a moment. */
#define SCHED_RUST_DEBUG_TRIES	1000

static char sched_rust_eligible_unlocked(struct seq_file *m)
{
	char c = '?';
	int i;

	for (i = 0; i < SCHED_RUST_DEBUG_TRIES && c == '?'; i++) {
		struct rq *rq;

		guard(preempt)();
		rq = this_rq();
		/* current runs on rq, so its entity is on one of rq's cfs_rqs. */
		c = print_task_eligible(m, rq, current);
	}
	return c;
}

/* The console dump with the runqueue lock held elsewhere (here): '?'. */
static void sched_rust_print_eligible_held_test(struct kunit *test)
{
	struct rq_flags rf;
	struct rq *rq;
	char c;

	rq = task_rq_lock(current, &rf);
	c = print_task_eligible(NULL, rq, current);
	task_rq_unlock(rq, current, &rf);
	KUNIT_EXPECT_EQ_MSG(test, c, '?',
			    "the console dump did not give up a runqueue lock that was held");
}

/* With the lock free: the eligibility, from both paths. */
static void sched_rust_print_eligible_free_test(struct kunit *test)
{
	struct seq_file m = {};
	char c;

	c = sched_rust_eligible_unlocked(NULL);
	KUNIT_EXPECT_TRUE_MSG(test, c == 'E' || c == 'N',
			      "the console dump printed '%c' with the lock free", c);

	/* sched/debug's listing takes the lock: never '?'. */
	c = sched_rust_eligible_unlocked(&m);
	KUNIT_EXPECT_TRUE_MSG(test, c == 'E' || c == 'N',
			      "sched/debug's listing printed '%c'", c);
}

static struct kunit_case sched_rust_debug_cases[] = {
	KUNIT_CASE(sched_rust_print_eligible_held_test),
	KUNIT_CASE(sched_rust_print_eligible_free_test),
	{}
};

static struct kunit_suite sched_rust_debug_suite = {
	.name = "sched_rust_debug",
	.test_cases = sched_rust_debug_cases,
};

kunit_test_suite(sched_rust_debug_suite);
