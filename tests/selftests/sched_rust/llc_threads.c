// SPDX-License-Identifier: GPL-2.0
/*
 * llc_threads <threads> <seconds>: one process whose threads walk a shared
 * buffer, the load cache-aware scheduling (CONFIG_SCHED_CACHE) gathers in
 * one LLC. Every eighth pass a thread naps for a millisecond, so that the
 * dequeue paths of a task with a preferred LLC run too. Prints "passes N"
 * (all threads' passes over the buffer) and exits 0.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BUF_SIZE (1024 * 1024)

static atomic_int stop;
static char *buf;

static void *walk(void *arg)
{
	unsigned long *passes = arg;
	unsigned long sum = 0;
	size_t i;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (i = 0; i < BUF_SIZE; i += 64)
			sum += buf[i]++;
		if (!(++*passes % 8))
			usleep(1000);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	int seconds = argc > 2 ? atoi(argv[2]) : 0;
	unsigned long *passes, total = 0;
	pthread_t *tid;
	int i;

	if (n < 1 || n > 1024 || seconds < 1) {
		fprintf(stderr, "usage: llc_threads <threads 1-1024> <seconds>\n");
		return 2;
	}
	buf = malloc(BUF_SIZE);
	passes = calloc(n, sizeof(*passes));
	tid = calloc(n, sizeof(*tid));
	if (!buf || !passes || !tid) {
		perror("llc_threads");
		return 1;
	}
	memset(buf, 1, BUF_SIZE);
	for (i = 0; i < n; i++) {
		if (pthread_create(&tid[i], NULL, walk, &passes[i])) {
			fprintf(stderr, "llc_threads: pthread_create failed\n");
			return 1;
		}
	}
	sleep(seconds);
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		total += passes[i];
	}
	printf("passes %lu\n", total);
	return 0;
}
