// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler workloads for the boot test and the benchmarks, built as a static
 * binary into the initramfs.
 *
 *   schedbench pipe  <seconds>            two processes ping-pong a byte over
 *                                         pipes; prints context switches/s
 *   schedbench hackbench <groups> <loops> hackbench-style: per group 10
 *                                         senders x 10 receivers over pipes;
 *                                         prints messages/s
 *   schedbench wake <tasks> <seconds>     many processes sleep for random
 *                                         short times and wake; prints
 *                                         wakeups/s
 *
 * The last line of each mode is "<mode> <rate>" with an integer rate.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int pipe_pingpong(double seconds)
{
	int a[2], b[2], res[2];
	long n = 0;
	char c = 0;
	pid_t pid;
	double t0;

	if (pipe(a) || pipe(b) || pipe(res))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		while (read(a[0], &c, 1) == 1 && c)
			if (write(b[1], &c, 1) != 1)
				die("write");
		_exit(0);
	}
	t0 = now();
	while (now() - t0 < seconds) {
		for (int i = 0; i < 100; i++) {
			c = 1;
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				die("pingpong");
			n++;
		}
	}
	c = 0;
	if (write(a[1], &c, 1) != 1)
		die("write");
	waitpid(pid, NULL, 0);
	/* Two context switches per round trip. */
	printf("pipe %ld\n", (long)(2 * n / (now() - t0)));
	return 0;
}

#define HB_FDS 10

static int hackbench(int groups, int loops)
{
	pid_t *pids = calloc(groups * 2 * HB_FDS, sizeof(*pids));
	int np = 0;
	double t0 = now();

	for (int g = 0; g < groups; g++) {
		int fds[HB_FDS][2];

		for (int r = 0; r < HB_FDS; r++)
			if (pipe(fds[r]))
				die("pipe");
		for (int r = 0; r < HB_FDS; r++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char buf[100];
				long want = (long)loops * HB_FDS * sizeof(buf), got = 0;

				while (got < want) {
					ssize_t k = read(fds[r][0], buf, sizeof(buf));

					if (k <= 0)
						die("read");
					got += k;
				}
				_exit(0);
			}
			pids[np++] = pid;
		}
		for (int s = 0; s < HB_FDS; s++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char buf[100] = { 0 };

				for (int l = 0; l < loops; l++)
					for (int r = 0; r < HB_FDS; r++)
						if (write(fds[r][1], buf, sizeof(buf)) != sizeof(buf))
							die("write");
				_exit(0);
			}
			pids[np++] = pid;
		}
		for (int r = 0; r < HB_FDS; r++) {
			close(fds[r][0]);
			close(fds[r][1]);
		}
	}
	for (int i = 0; i < np; i++)
		waitpid(pids[i], NULL, 0);
	printf("hackbench %ld\n",
	       (long)((double)groups * HB_FDS * HB_FDS * loops / (now() - t0)));
	return 0;
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

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "pipe"))
		return pipe_pingpong(atof(argv[2]));
	if (argc >= 4 && !strcmp(argv[1], "hackbench"))
		return hackbench(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "wake"))
		return wake_storm(atoi(argv[2]), atof(argv[3]));
	fprintf(stderr, "usage: schedbench pipe <s> | hackbench <groups> <loops> | wake <tasks> <s>\n");
	return 2;
}
