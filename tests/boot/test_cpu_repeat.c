// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's cgroup selftest test_cpu, some of its cases many times
 * (make bench-verdicts): test_cpu.c is compiled in unchanged (its cases,
 * its checks, its tolerances), and only its main() is replaced:
 *
 *   test_cpu_repeat <runs> <case>...
 *
 * runs each named case <runs> times, the cases in turn, and prints one
 * KTAP result per run ("ok 3 test_cpucg_max_nested run 2"). An unknown
 * case name is an error (exit 2), so that a renamed case cannot pass as
 * no run.
 */
#define main test_cpu_main
#include "test_cpu.c"
#undef main

int main(int argc, char *argv[])
{
	char root[PATH_MAX];
	int runs, r, a, i;

	runs = argc > 2 ? atoi(argv[1]) : 0;
	if (runs < 1) {
		fprintf(stderr, "usage: %s <runs> <case>...\n", argv[0]);
		return 2;
	}
	for (a = 2; a < argc; a++) {
		for (i = 0; i < ARRAY_SIZE(tests); i++)
			if (!strcmp(tests[i].name, argv[a]))
				break;
		if (i == ARRAY_SIZE(tests)) {
			fprintf(stderr, "%s: no case %s in test_cpu.c\n", argv[0], argv[a]);
			return 2;
		}
	}

	ksft_print_header();
	if (cg_find_unified_root(root, sizeof(root), NULL))
		ksft_exit_skip("cgroup v2 isn't mounted\n");
	if (cg_read_strstr(root, "cgroup.subtree_control", "cpu"))
		if (cg_write(root, "cgroup.subtree_control", "+cpu"))
			ksft_exit_skip("Failed to set cpu controller\n");

	ksft_set_plan(runs * (argc - 2));
	for (r = 1; r <= runs; r++) {
		for (a = 2; a < argc; a++) {
			for (i = 0; strcmp(tests[i].name, argv[a]); i++)
				;
			switch (tests[i].fn(root)) {
			case KSFT_PASS:
				ksft_test_result_pass("%s run %d\n", tests[i].name, r);
				break;
			case KSFT_SKIP:
				ksft_test_result_skip("%s run %d\n", tests[i].name, r);
				break;
			default:
				ksft_test_result_fail("%s run %d\n", tests[i].name, r);
				break;
			}
		}
	}
	ksft_finished();
}
