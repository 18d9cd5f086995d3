// SPDX-License-Identifier: GPL-2.0

#include <linux/cpumask.h>
#include <linux/percpu.h>

/* Per-CPU allocations, for rust/kernel/percpu.rs. */

__rust_helper void __percpu *rust_helper___alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp)
{
	return __alloc_percpu_gfp(size, align, gfp);
}

__rust_helper bool rust_helper_cpu_possible(unsigned int cpu)
{
	return cpu_possible(cpu);
}

__rust_helper unsigned int rust_helper_cpumask_next(int n, const struct cpumask *srcp)
{
	return cpumask_next(n, srcp);
}

__rust_helper void *rust_helper_per_cpu_ptr(void __percpu *ptr, unsigned int cpu)
{
	return per_cpu_ptr(ptr, cpu);
}
