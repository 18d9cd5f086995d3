// SPDX-License-Identifier: GPL-2.0
/*
 * The field offsets scripts/shapes.py reads from a build: compiled to
 * assembly by scripts/bench-shapes.sh with the command that compiled the
 * build's kernel/sched/fair.o ("->name $offset" lines).
 */
#include "sched.h"

#define SHAPES_OFFSET(name, type, member) \
	asm volatile("\n.ascii \"->" #name " %0\"" : : "i" (offsetof(type, member)))

void shapes_offsets(void);

void shapes_offsets(void)
{
	SHAPES_OFFSET(cfs, struct rq, cfs);
	SHAPES_OFFSET(h_nr_queued, struct rq, cfs.h_nr_queued);
	SHAPES_OFFSET(curr, struct rq, cfs.curr);
	SHAPES_OFFSET(leftmost, struct rq, cfs.tasks_timeline.rb_leftmost);
	SHAPES_OFFSET(run_node, struct sched_entity, run_node);
	SHAPES_OFFSET(on_rq, struct sched_entity, on_rq);
	SHAPES_OFFSET(sched_delayed, struct sched_entity, sched_delayed);
}
