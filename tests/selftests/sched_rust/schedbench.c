// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler workloads for the boot test and the benchmarks, built as a static
 * binary into the initramfs: the ones no tool in the guest has. Messaging
 * and pipe ping-pong come from the field's tools (rt-tests' hackbench,
 * stress-ng --switch, perf bench sched), latency under load from cyclictest;
 * what is here is specific to this project: a wakeup storm, a process whose
 * threads cache-aware scheduling aggregates, a cgroup tree built and removed
 * at speed, schbench-style latency inside cpu.max-limited groups, test_cpu's
 * cpu.max process timed, and fault injection into cgroup creation.
 *
 *   schedbench wake <tasks> <seconds>     many processes sleep for random
 *                                         short times and wake; prints
 *                                         wakeups/s
 *   schedbench threads <threads> <seconds> [cpus] [nap] [llc=<file>]
 *                      [until_pref=<seconds>]
 *                                         one process whose threads keep
 *                                         walking a shared buffer (a process
 *                                         cache-aware scheduling aggregates)
 *                                         for <seconds> once all are created;
 *                                         prints passes/s (and with "cpus"
 *                                         the CPUs the threads ran on); with
 *                                         "nap" each thread sleeps 200 us
 *                                         every 8 passes (a dequeue while it
 *                                         is owed no time: delayed). With
 *                                         llc=<file> (the debug kernel's
 *                                         sched_rust/llc_state) the main thread
 *                                         reads it every 100 ms once the
 *                                         threads exist and prints how long
 *                                         creating them took, when (from its
 *                                         start) it first saw one with a
 *                                         preferred LLC and the most that had
 *                                         one at once; until_pref=<cap> runs
 *                                         on past <seconds> until one has,
 *                                         for at most <cap> seconds
 *   schedbench cgtree <dir> <width> <depth>
 *                                         create a cgroup v2 tree of
 *                                         width + ... + width^depth groups
 *                                         with the cpu controller below <dir>,
 *                                         a sleeping task in every leaf, then
 *                                         remove it; prints groups created and
 *                                         removed per second
 *   schedbench schlat <dir> <width> <depth> <seconds>
 *                                         schbench-style wakeup latency: the
 *                                         same cgroup tree, cpu.max 80 % over
 *                                         a 10 ms period in every leaf, in
 *                                         each leaf a process whose message
 *                                         thread wakes 2 worker threads that
 *                                         record their wakeup latency, then
 *                                         think for 200 us; prints requests/s
 *                                         and the p50/p99 latency in us
 *   schedbench nap <usec>                 sleep in a loop forever (no fork)
 *   schedbench failmkdir <dir> <max>      mkdir with fault point 1, 2, ...
 *                                         failed (fail-nth) until one
 *                                         succeeds; prints the counts, and
 *                                         the per-CPU allocations in use
 *                                         before and after
 *   schedbench pcpu [<max>]               the per-CPU allocations in use ("-"
 *                                         without CONFIG_PERCPU_STATS), after
 *                                         a visit of every CPU, waiting up to
 *                                         15 s for them to come to <max>
 *   schedbench cpumax <cgroup> <threads> <seconds>
 *                                         test_cpucg_max's process, timed: a
 *                                         child enters <cgroup> (cpu.max set
 *                                         by the caller), spins <threads>
 *                                         threads and sleeps <seconds> of wall
 *                                         time, then exits; prints when it
 *                                         woke, exited and was reaped and the
 *                                         group's usage at each point
 *
 * The last line of each mode is "<mode> <rate>" with an integer rate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int wake_storm(int tasks, double seconds)
{
	int res[2];
	long total = 0;

	if (pipe(res))
		die("pipe");
	for (int t = 0; t < tasks; t++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			unsigned int seed = t + 1;
			double t0 = now();
			long n = 0;

			while (now() - t0 < seconds) {
				struct timespec ts = { 0, 50000 + rand_r(&seed) % 200000 };

				nanosleep(&ts, NULL);
				n++;
			}
			if (write(res[1], &n, sizeof(n)) != sizeof(n))
				die("write");
			_exit(0);
		}
	}
	for (int t = 0; t < tasks; t++) {
		long n;

		if (read(res[0], &n, sizeof(n)) != sizeof(n))
			die("read");
		total += n;
	}
	while (wait(NULL) > 0)
		;
	printf("wake %ld\n", (long)(total / seconds));
	return 0;
}

static int threads_stop;	/* read and set with __atomic builtins */
static int threads_nap;
static char *shared_buf;
#define SHARED_SIZE (1024 * 1024)
/* The CPUs the threads ran on, seen once per pass (threads ... cpus). */
#define SEEN_CPUS 1024
static unsigned long seen[SEEN_CPUS / (8 * sizeof(long))];

static void *thread_walk(void *arg)
{
	long passes = 0;

	while (!__atomic_load_n(&threads_stop, __ATOMIC_RELAXED)) {
		int cpu = sched_getcpu();

		for (int i = 0; i < SHARED_SIZE; i += 64)
			shared_buf[i]++;
		passes++;
		if (threads_nap && !(passes % 8))
			usleep(200);
		if (cpu >= 0 && cpu < SEEN_CPUS)
			__atomic_fetch_or(&seen[cpu / (8 * sizeof(long))],
					  1UL << (cpu % (8 * sizeof(long))), __ATOMIC_RELAXED);
	}
	return (void *)passes;
}

/*
 * The threads of this process that llc_state lists with a preferred LLC, the
 * main thread (the sampler) left out.
 */
static int threads_with_pref(const char *llc_state)
{
	FILE *f = fopen(llc_state, "r");
	char line[160];
	int pid, tgid, n = 0;

	if (!f)
		die("llc_state");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "task %d tgid %d", &pid, &tgid) == 2 && tgid == getpid() &&
		    pid != tgid)
			n++;
	fclose(f);
	return n;
}

static int run_threads(int n, double seconds, int show_cpus, const char *llc_state,
		       double cap)
{
	pthread_t *tids = calloc(n, sizeof(*tids));
	double t0 = now(), t_created, t, first = -1;
	int most = 0;
	long total = 0;

	shared_buf = calloc(1, SHARED_SIZE);
	for (int i = 0; i < n; i++)
		if (pthread_create(&tids[i], NULL, thread_walk, NULL))
			die("pthread_create");
	t_created = now();
	if (llc_state) {
		struct sched_param sp = { .sched_priority = 1 };

		/*
		 * The sampler at a real-time priority, so that when it samples
		 * does not depend on the fair class it samples (best effort:
		 * without the privilege it stays where it is).
		 */
		sched_setscheduler(0, SCHED_FIFO, &sp);
	}
	if (!llc_state) {
		usleep((useconds_t)(seconds * 1e6));
	} else {
		for (;;) {
			int k = threads_with_pref(llc_state);

			t = now() - t_created;
			if (k > 0 && first < 0)
				first = now() - t0;
			if (k > most)
				most = k;
			if (t >= seconds && (first >= 0 || t >= cap))
				break;
			usleep(100000);
		}
	}
	__atomic_store_n(&threads_stop, 1, __ATOMIC_RELAXED);
	t = now() - t_created;
	for (int i = 0; i < n; i++) {
		void *r;

		pthread_join(tids[i], &r);
		total += (long)r;
	}
	/* Per second since the first thread could run. */
	printf("threads %ld", (long)(total / (t_created - t0 + t)));
	if (llc_state) {
		printf(" created_ms %ld run_ms %ld max_pref %d first_pref_ms ",
		       (long)((t_created - t0) * 1000), (long)(t * 1000), most);
		if (first < 0)
			printf("none");
		else
			printf("%ld", (long)(first * 1000));
	}
	if (show_cpus) {
		printf(" cpus");
		for (int c = 0; c < SEEN_CPUS; c++)
			if (seen[c / (8 * sizeof(long))] & (1UL << (c % (8 * sizeof(long)))))
				printf(" %d", c);
	}
	printf("\n");
	return 0;
}

static void write_file(const char *dir, const char *file, const char *val)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

/* Leaves of the tree below dir, depth levels deep, in creation order. */
static int cg_build(const char *dir, int width, int depth, char (*leaves)[256], int *nleaves)
{
	int n = 0;

	write_file(dir, "cgroup.subtree_control", "+cpu");
	for (int i = 1; i <= width; i++) {
		char sub[256];

		snprintf(sub, sizeof(sub), "%s/c%d", dir, i);
		if (mkdir(sub, 0755))
			die(sub);
		n++;
		if (depth > 1)
			n += cg_build(sub, width, depth - 1, leaves, nleaves);
		else
			strcpy(leaves[(*nleaves)++], sub);
	}
	return n;
}

static int cg_remove(const char *dir, int width, int depth)
{
	int n = 0;

	for (int i = 1; i <= width; i++) {
		char sub[256];

		snprintf(sub, sizeof(sub), "%s/c%d", dir, i);
		if (depth > 1)
			n += cg_remove(sub, width, depth - 1);
		if (rmdir(sub))
			die(sub);
		n++;
	}
	return n;
}

static int run_cgtree(const char *dir, int width, int depth)
{
	int maxleaves = 1, nleaves = 0, n;
	char (*leaves)[256];
	pid_t *pids;
	double t0, t1, t2;

	for (int d = 0; d < depth; d++)
		maxleaves *= width;
	leaves = calloc(maxleaves, sizeof(*leaves));
	pids = calloc(maxleaves, sizeof(*pids));
	if (mkdir(dir, 0755))
		die(dir);
	t0 = now();
	n = cg_build(dir, width, depth, leaves, &nleaves);
	t1 = now();
	for (int i = 0; i < nleaves; i++) {
		char pid[32];

		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i] == 0) {
			pause();
			_exit(0);
		}
		snprintf(pid, sizeof(pid), "%d", pids[i]);
		write_file(leaves[i], "cgroup.procs", pid);
	}
	for (int i = 0; i < nleaves; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < nleaves; i++)
		waitpid(pids[i], NULL, 0);
	t2 = now();
	if (cg_remove(dir, width, depth) != n || rmdir(dir))
		die("rmdir");
	printf("cgtree groups %d mkdir_per_s %ld rmdir_per_s %ld\n", n,
	       (long)(n / (t1 - t0)), (long)(n / (now() - t2)));
	return 0;
}

/*
 * schlat: schbench's shape (a message thread waking worker threads that
 * measure how long the wakeup took, then burn CPU "thinking"), in cgroup
 * leaves throttled by cpu.max. schbench itself is not packaged here.
 */
#define SCHLAT_WORKERS	2
#define SCHLAT_MAX	200000		/* latencies kept per leaf */

struct schlat_leaf {
	int req[SCHLAT_WORKERS][2], rep[2];
	double end;
	unsigned int *lat;		/* shared with the parent */
	unsigned long *n;
};

struct schlat_worker {
	struct schlat_leaf *l;
	int id;
};

static void spin_us(double us)
{
	double t = now() + us / 1e6;

	while (now() < t)
		;
}

static void *schlat_worker(void *arg)
{
	struct schlat_worker *w = arg;
	struct schlat_leaf *l = w->l;
	double ts;
	char c = 0;

	while (read(l->req[w->id][0], &ts, sizeof(ts)) == sizeof(ts)) {
		double us = (now() - ts) * 1e6;
		unsigned long i = __atomic_fetch_add(l->n, 1, __ATOMIC_RELAXED);

		if (i < SCHLAT_MAX)
			l->lat[i] = us > 4e9 ? 4000000000u : (unsigned int)us;
		spin_us(200);
		if (write(l->rep[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void schlat_leaf_run(struct schlat_leaf *l)
{
	struct schlat_worker w[SCHLAT_WORKERS];
	pthread_t t[SCHLAT_WORKERS];
	char c;

	for (int i = 0; i < SCHLAT_WORKERS; i++) {
		w[i].l = l;
		w[i].id = i;
		if (pthread_create(&t[i], NULL, schlat_worker, &w[i]))
			die("pthread_create");
	}
	while (now() < l->end) {
		for (int i = 0; i < SCHLAT_WORKERS; i++) {
			double ts = now();

			if (write(l->req[i][1], &ts, sizeof(ts)) != sizeof(ts))
				die("write");
		}
		for (int i = 0; i < SCHLAT_WORKERS; i++)
			if (read(l->rep[0], &c, 1) != 1)
				die("read");
	}
	_exit(0);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static int run_schlat(const char *dir, int width, int depth, double seconds)
{
	int maxleaves = 1, nleaves = 0, n, status, bad = 0;
	unsigned long total = 0, *counts;
	char (*leaves)[256];
	unsigned int *lat, *all;
	pid_t *pids;
	double t0;

	for (int d = 0; d < depth; d++)
		maxleaves *= width;
	leaves = calloc(maxleaves, sizeof(*leaves));
	pids = calloc(maxleaves, sizeof(*pids));
	lat = mmap(NULL, (size_t)maxleaves * SCHLAT_MAX * sizeof(*lat), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	counts = mmap(NULL, maxleaves * sizeof(*counts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!leaves || !pids || lat == MAP_FAILED || counts == MAP_FAILED)
		die("schlat: memory");
	if (mkdir(dir, 0755))
		die(dir);
	n = cg_build(dir, width, depth, leaves, &nleaves);
	t0 = now();
	for (int i = 0; i < nleaves; i++) {
		struct schlat_leaf l = {
			.end = t0 + seconds, .lat = lat + (size_t)i * SCHLAT_MAX, .n = &counts[i],
		};
		char pid[32];

		write_file(leaves[i], "cpu.max", "8000 10000");
		for (int j = 0; j < SCHLAT_WORKERS; j++)
			if (pipe(l.req[j]))
				die("pipe");
		if (pipe(l.rep))
			die("pipe");
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i] == 0) {
			/* Wait until the parent has moved us into the leaf. */
			char c;

			if (read(l.rep[0], &c, 1) != 1)
				_exit(1);
			schlat_leaf_run(&l);
		}
		snprintf(pid, sizeof(pid), "%d", pids[i]);
		write_file(leaves[i], "cgroup.procs", pid);
		if (write(l.rep[1], "", 1) != 1)
			die("write");
		for (int j = 0; j < SCHLAT_WORKERS; j++) {
			close(l.req[j][0]);
			close(l.req[j][1]);
		}
		close(l.rep[0]);
		close(l.rep[1]);
	}
	for (int i = 0; i < nleaves; i++)
		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	seconds = now() - t0;
	if (bad) {
		fprintf(stderr, "schlat: %d leaf processes failed\n", bad);
		exit(1);
	}
	for (int i = 0; i < nleaves; i++)
		total += counts[i] < SCHLAT_MAX ? counts[i] : SCHLAT_MAX;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		die("malloc");
	total = 0;
	for (int i = 0; i < nleaves; i++) {
		unsigned long m = counts[i] < SCHLAT_MAX ? counts[i] : SCHLAT_MAX;

		memcpy(all + total, lat + (size_t)i * SCHLAT_MAX, m * sizeof(*all));
		total += m;
	}
	if (!total) {
		fprintf(stderr, "schlat: no wakeups measured\n");
		exit(1);
	}
	qsort(all, total, sizeof(*all), cmp_uint);
	if (cg_remove(dir, width, depth) != n || rmdir(dir))
		die("rmdir");
	printf("schlat groups %d leaves %d requests_per_s %ld p50_us %u p99_us %u\n", n, nleaves,
	       (long)(total / seconds), all[total / 2], all[total * 99 / 100]);
	return 0;
}

/* Sleep <usec> at a time, forever, without forking (a task to move around). */
static int nap(long usec)
{
	for (;;)
		usleep(usec);
	return 0;
}

static int fail_nth_write(int fd, int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -1;
}

/*
 * mkdir(dir) with the n-th fault point of this thread made to fail, for
 * n = 1, 2, ... until a mkdir completes without reaching its n-th fault point
 * (/proc/thread-self/fail-nth; Documentation/fault-injection). A failed mkdir
 * must leave no directory behind; a successful one is removed again.
 */
static long cpu_stat(const char *cg, const char *key)
{
	char path[512], k[64];
	long v, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", k, &v) == 2)
		if (!strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

static void *spin(void *arg)
{
	for (;;)
		;
	return arg;
}

/*
 * tools/testing/selftests/cgroup/test_cpu.c's test_cpucg_max, with clocks:
 * cg_run() forks a child that writes itself into the group, and
 * hog_cpus_timed() starts the spinning threads and nanosleep()s until the
 * wall time has passed, then returns and the child exit()s; the test
 * expects the group's usage to be the quota of every period of the sleep.
 * The parent, outside the group and so never throttled, reads the group's
 * usage when the sleep ends, when the child's main thread is about to
 * exit() (the child tells it through a pipe), and once it has reaped the
 * child; the child reports when its main thread ran after the sleep.
 */
static int run_cpumax(const char *cg, int nthreads, double seconds)
{
	long usage_sleep, usage_exit, usage_end, t[3];
	double t_start, t_reaped;
	char pid[32];
	int fd[2], status, i;
	pid_t child;

	if (pipe(fd))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		snprintf(pid, sizeof(pid), "%d", getpid());
		write_file(cg, "cgroup.procs", pid);
		t[0] = (long)(now() * 1e6);
		if (write(fd[1], t, sizeof(t[0])) != sizeof(t[0]))
			_exit(1);
		for (i = 0; i < nthreads; i++) {
			pthread_t th;

			if (pthread_create(&th, NULL, spin, NULL))
				_exit(1);
		}
		for (;;) {
			double left = seconds - (now() - t[0] / 1e6);
			struct timespec ts = { (time_t)left,
					       (long)((left - (time_t)left) * 1e9) };

			if (left <= 0)
				break;
			nanosleep(&ts, NULL);
		}
		t[1] = (long)(now() * 1e6);
		t[2] = (long)(now() * 1e6);
		if (write(fd[1], t + 1, 2 * sizeof(t[0])) != 2 * sizeof(t[0]))
			_exit(1);
		/* As the test: return from the hog, exit() with the threads. */
		exit(0);
	}
	close(fd[1]);
	if (read(fd[0], t, sizeof(t[0])) != sizeof(t[0]))
		return 1;
	t_start = t[0] / 1e6;
	while (now() < t_start + seconds)
		usleep((useconds_t)((t_start + seconds - now()) * 1e6) + 1);
	usage_sleep = cpu_stat(cg, "usage_usec");
	if (read(fd[0], t + 1, 2 * sizeof(t[0])) != 2 * sizeof(t[0]))
		return 1;
	usage_exit = cpu_stat(cg, "usage_usec");
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	t_reaped = now();
	usage_end = cpu_stat(cg, "usage_usec");
	printf("cpumax wake_us %ld exit_us %ld reaped_us %ld", t[1] - t[0], t[2] - t[0],
	       (long)(t_reaped * 1e6) - t[0]);
	printf(" usage_sleep %ld usage_exit %ld usage_end %ld\n", usage_sleep, usage_exit,
	       usage_end);
	return 0;
}

/*
 * The per-CPU allocations in use (percpu_stats' nr_cur_alloc), or -1 without
 * CONFIG_PERCPU_STATS.
 */
static long pcpu_allocs(void)
{
	FILE *f = fopen("/sys/kernel/debug/percpu_stats", "r");
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " nr_cur_alloc : %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * Runs this process once on every CPU it may run on: a CPU that switches
 * to it from idle drops the memory context it kept from the last process
 * that ran there (an exited one's is then freed, with its per-CPU
 * counters).
 */
static void visit_cpus(void)
{
	cpu_set_t all, one;
	int cpu;

	if (sched_getaffinity(0, sizeof(all), &all))
		return;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			sched_yield();
	}
	sched_setaffinity(0, sizeof(all), &all);
}

/* The allocations in use once they are <= @max, polled for up to 15 s (no wait for @max < 0). */
static long pcpu_settle(long max)
{
	long n;
	int i;

	visit_cpus();
	n = pcpu_allocs();
	/* Up to 15 s, polled every 100 ms. */
	for (i = 0; max >= 0 && n > max && i < 15 * 10; i++) {
		usleep(100 * 1000);
		visit_cpus();
		n = pcpu_allocs();
	}
	return n;
}

/*
 * The allocations in use once steady: unchanged for 1 s, polled every 100 ms
 * (for up to 5 s), after the frees that earlier work left pending.
 */
static long pcpu_steady(void)
{
	long n, last = -2;
	int i, same = 0;

	for (i = 0; i < 50; i++) {
		visit_cpus();
		n = pcpu_allocs();
		if (n < 0)
			return n;
		same = n == last ? same + 1 : 0;
		last = n;
		if (same >= 10)
			break;
		usleep(100 * 1000);
	}
	return n;
}

static int pcpu(long max)
{
	long n = pcpu_settle(max);

	if (n < 0)
		printf("-\n");
	else
		printf("%ld\n", n);
	return 0;
}

/*
 * The per-CPU allocations in use are counted before the sweep and after it,
 * by this one process (no process starts or ends in between to move the
 * count: a process's memory context has per-CPU counters of its own), each
 * time after a visit of every CPU (so that no CPU keeps an exited process's
 * context): before it once the count is steady, after it once the removed
 * groups' frees, which follow RCU grace periods and the css release work,
 * are back to the count before (polled for up to 15 s).
 */
static int run_failmkdir(const char *dir, int max)
{
	int injected = 0, failed = 0, tolerated = 0, enomem = 0, n;
	struct stat st;
	int fd = open("/proc/thread-self/fail-nth", O_RDWR);
	long before, after;

	if (fd < 0)
		die("/proc/thread-self/fail-nth");
	before = pcpu_steady();
	for (n = 1; n <= max; n++) {
		char left[16] = "";
		int r, e;

		if (fail_nth_write(fd, n))
			die("write fail-nth");
		r = mkdir(dir, 0755);
		e = errno;
		if (pread(fd, left, sizeof(left) - 1, 0) <= 0)
			die("read fail-nth");
		if (fail_nth_write(fd, 0))
			die("clear fail-nth");
		if (atoi(left) > 0) {
			/* The n-th fault point was never reached: done. */
			if (r) {
				errno = e;
				die("mkdir without a fault injected");
			}
			if (rmdir(dir))
				die("rmdir");
			break;
		}
		injected++;
		if (r == 0) {
			/* A failure the caller recovered from. */
			tolerated++;
			if (rmdir(dir))
				die("rmdir");
			continue;
		}
		failed++;
		enomem += e == ENOMEM;
		if (stat(dir, &st) == 0) {
			fprintf(stderr, "mkdir failed (fault point %d, errno %d) but %s exists\n",
				n, e, dir);
			exit(1);
		}
	}
	if (n > max) {
		fprintf(stderr, "mkdir still reached fault point %d\n", max);
		exit(1);
	}
	after = pcpu_settle(before);
	printf("failmkdir points %d injected %d failed %d enomem %d tolerated %d", n - 1,
	       injected, failed, enomem, tolerated);
	if (before >= 0)
		printf(" percpu_allocs %ld %ld\n", before, after);
	else
		printf(" percpu_allocs - -\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "wake"))
		return wake_storm(atoi(argv[2]), atof(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "threads")) {
		const char *llc_state = NULL;
		double cap = 0;
		int cpus = 0;

		for (int i = 4; i < argc; i++) {
			cpus |= !strcmp(argv[i], "cpus");
			threads_nap |= !strcmp(argv[i], "nap");
			if (!strncmp(argv[i], "llc=", 4))
				llc_state = argv[i] + 4;
			if (!strncmp(argv[i], "until_pref=", 11))
				cap = atof(argv[i] + 11);
		}
		return run_threads(atoi(argv[2]), atof(argv[3]), cpus, llc_state, cap);
	}
	if (argc >= 5 && !strcmp(argv[1], "cgtree"))
		return run_cgtree(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc >= 6 && !strcmp(argv[1], "schlat"))
		return run_schlat(argv[2], atoi(argv[3]), atoi(argv[4]), atof(argv[5]));
	if (argc >= 3 && !strcmp(argv[1], "nap"))
		return nap(atol(argv[2]));
	if (argc >= 4 && !strcmp(argv[1], "failmkdir"))
		return run_failmkdir(argv[2], atoi(argv[3]));
	if (argc >= 2 && !strcmp(argv[1], "pcpu"))
		return pcpu(argc >= 3 && strcmp(argv[2], "-") ? atol(argv[2]) : -1);
	if (argc >= 5 && !strcmp(argv[1], "cpumax"))
		return run_cpumax(argv[2], atoi(argv[3]), atof(argv[4]));
	fputs("usage: schedbench wake <tasks> <s>\n", stderr);
	fputs("       schedbench cgtree <dir> <width> <depth>\n", stderr);
	fputs("       schedbench schlat <dir> <width> <depth> <s>\n", stderr);
	fputs("       schedbench nap <usec>\n", stderr);
	fputs("       schedbench failmkdir <dir> <max>\n", stderr);
	fputs("       schedbench pcpu [<max>]\n", stderr);
	fputs("       schedbench threads <threads> <s> [cpus] [nap]\n", stderr);
	fputs("                          [llc=<file>] [until_pref=<s>]\n", stderr);
	fputs("       schedbench cpumax <cgroup> <threads> <seconds>\n", stderr);
	return 2;
}
