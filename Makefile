# SPDX-License-Identifier: GPL-2.0
#
# rust-sched-cfs: Rust pieces of the Linux fair scheduler, as an overlay on a
# Linux 7.3.x tree. See README.md; "make help" lists the targets.
#
# Every target runs a script of scripts/; the "##" comments are the text of
# make help. Exit status of each script (GNU make itself exits 2 when a
# recipe fails and prints the script's status in its "Error N" line):
# 0 pass, 1 a check failed, 2 the harness or the environment failed,
# 4 skipped.

SHELL := /bin/bash
S := scripts

# Builds live in the cache ($RUST_SCHED_CFS_CACHE, default
# ~/.cache/rust-sched-cfs), one directory per kernel flavour, and the
# scripts give the kernel's make its own O= for each: an O= or a
# KBUILD_OUTPUT from here would reach the kernel's make through MAKEFLAGS
# or the environment and send some steps elsewhere. Refused, not ignored.
ifneq ($(filter command line environment,$(origin O)),)
$(error O=$(O) is not supported: the build directories are $${RUST_SCHED_CFS_CACHE:-~/.cache/rust-sched-cfs}/build-<flavour>; set RUST_SCHED_CFS_CACHE=<dir> to put them elsewhere)
endif
ifneq ($(KBUILD_OUTPUT),)
$(error KBUILD_OUTPUT=$(KBUILD_OUTPUT) is not supported: unset it; set RUST_SCHED_CFS_CACHE=<dir> to put the build directories elsewhere)
endif
# V=1 shows the kernel build's output and the guest's console as they come.
export V

# make boot / make shell: which build, and more kernel parameters.
FLAVOUR ?= test
BOOT_ARGS ?=

.PHONY: all help prod test test-kasan test-arm64 test-all stress bench-latency bench-weights bench-cpumax boot shell bench bench-arm64 bench-shapes \
	bench-prod bench-verdicts bench-scale bench-native bench-native-bundle \
	kunit kunit-uml kunit-spec kunit-guard setup fetch overlay patches series-branch series-import check-series \
	lint check-configs check-off check-inline check-rust-min check-unsound check-harness check-claims clean \
	rust-analyzer compile_commands.json

all: prod

# The targets share the cache (the overlaid kernel tree, the build
# directories, the stage directory of the overlay): two of them at once
# (make -j2 test-all) would overwrite each other's files. One at a time.
.NOTPARALLEL:

help: ## this list [instant]
	@awk -F'## ' '/^##@ / { printf "\n%s\n", substr($$0, 5); next } \
		/^[a-z0-9_.-]+:.*## / { t = $$1; sub(/:.*/, "", t); printf "  %-21s %s\n", t, $$2 }' \
		$(firstword $(MAKEFILE_LIST))
	@echo
	@echo "Times: 2 cores, a warm cache unless cold. Variables: V=1 (verbose), FLAVOUR=, BOOT_ARGS=,"
	@echo "ARCH=arm64, RUST_SCHED_CFS_CACHE=<dir>, KSRC=<kernel tree>; BENCH_SAVE=1 on a bench target"
	@echo "writes its results, with their provenance, to evaluation/bench/. All of them: the evaluation"
	@echo "document, \"Targets, variables and results\". Exit status of the scripts: 0 pass, 1 a check"
	@echo "failed, 2 harness or environment, 4 skipped."

##@ Build and boot
prod: ## build the production kernel (=y), check it, boot it [5 min; 22 cold]
	@$(S)/run.sh main

rust-analyzer: ## rust-project.json; sched_rust by its repository paths [10 s after make test]
	@$(S)/editor.sh rust-analyzer

compile_commands.json: ## the same for clangd, from the FLAVOUR= build (test) [15 s]
	@$(S)/editor.sh compile_commands.json

##@ Tests

test: ## the debug kernel: KUnit, kselftests, stress, shadow, prod [11 min, 30 cold]
	@$(S)/run.sh test

test-kasan: ## make test with KASAN and kmemleak (no production boot) [35 min]
	@$(S)/run.sh test-kasan

test-arm64: ## make test on arm64 (QEMU virt, 4 CPUs in two L2 caches) [about 30 min]
	@ARCH=arm64 $(S)/run.sh test

test-all: test test-arm64 ## make test and make test-arm64 [50 min cold]

stress: ## hotplug, partitions, churn, faults, selftests; FLAVOUR=prod [10 min + boot]
	@FLAVOUR=$(FLAVOUR) $(S)/run.sh stress

boot: ## boot the FLAVOUR= build (test) again and check it; BOOT_ARGS= [1-9 min]
	@$(S)/boot.sh $(FLAVOUR) $(BOOT_ARGS)

shell: ## a shell in the guest of make test (Rust on, debugfs mounted) [1 min to it]
	@BOOT_NAME=shell $(S)/boot.sh $(FLAVOUR) sched_rust.mode=shell kunit.enable=0 $(BOOT_ARGS)

##@ Benchmarks (BENCH_SAVE=1 writes the results to evaluation/bench/)

bench: ## C, Rust, stock pick in one boot: instructions per call, workloads [17 min]
	@$(S)/bench.sh

bench-arm64: ## make bench on the arm64 bench kernel, per-call boots included [35 min cold]
	@ARCH=arm64 $(S)/bench.sh

bench-prod: ## stock, =n, =y, =y out of line, GCC's =n and =y: 5 boots each [56 min warm]
	@$(S)/bench-prod.sh

bench-shapes: ## the Rust's forms given to C, judged by the object code [1 min warm]
	@$(S)/bench-shapes.sh

bench-verdicts: ## bench-prod's selftest cases that differ, 20 runs per kernel [32 min]
	@$(S)/bench-verdicts.sh

bench-scale: ## C and Rust at 4 to 64 CPUs in 2 to 16 LLCs; aggregation parity [60 min]
	@$(S)/bench-scale.sh

bench-native: ## make bench's microbenchmarks in ns on the host CPU (UML), 5 builds [16 min]
	@$(S)/bench-native.sh

bench-native-bundle: ## make bench-native as a tar that runs on any x86_64 Linux host [16 min]
	@$(S)/bench-native.sh bundle

bench-latency: ## the cgroup workload's longest waits, C against Rust, paired [30-50 min]
	@$(S)/run.sh latency

bench-weights: ## CPU shares of test_cpu's nested groups, C against Rust, paired [5 min]
	@$(S)/run.sh weights

bench-cpumax: ## test_cpu's cpu.max tests timed, C against Rust, paired rounds [10 min]
	@$(S)/run.sh cpumax

##@ KUnit

kunit: ## the KUnit suites through kunit.py (x86_64 under QEMU) [10 min cold]
	@$(S)/kunit.sh

kunit-uml: ## the same on UML [7 min cold]
	@KUNIT_ARCH=um $(S)/kunit.sh

kunit-guard: ## the series' suite sched_fair on UML, on the C and on the Rust [20 min cold]
	@KUNIT_GUARD=1 $(S)/kunit.sh

kunit-spec: ## the specification's full scope on UML, int128 and not; BENCH_SAVE=1 [8 min]
	@$(S)/kunit-spec.sh

##@ Set-up and the series

setup: ## install the toolchain: Debian packages, rustc 1.86.0, bindgen [4 min]
	@$(S)/setup.sh

fetch: ## fetch and unpack Debian's linux-source-7.3 into the cache (or KSRC=) [1 min]
	@$(S)/fetch-kernel.sh

overlay: ## the repository's files and patches/ onto the cache's kernel tree [5 s]
	@$(S)/overlay.sh

patches: ## export the upstream-style series (git format-patch), checkpatch [1 min]
	@$(S)/export-patches.sh

series-branch: ## the series as a git repository in the cache, one commit per patch [1 min]
	@$(S)/export-patches.sh branch

series-import: ## write the series-branch repository's commits back into patches/ [1 s]
	@$(S)/import-series.sh

check-series: ## the series patch by patch, each built with the option on and off [40 min]
	@$(S)/check-series.sh

##@ Checks

lint: ## shellcheck, claims, rustfmt, clippy, checkpatch [15 min; LINT_QUICK=1 2 min]
	@$(S)/lint.sh

check-off: ## =n identical to stock + its C patches; =y: no twin, no panic [13 min]
	@$(S)/check-off.sh

check-inline: ## the production kernel: no call into Rust left on the hot paths [20 s]
	@$(S)/run.sh check-inline

check-rust-min: ## build the Rust code with the kernel's minimum rustc (1.85.0) [2 min]
	@$(S)/check-rust-min.sh

check-configs: ## =y with bandwidth, group sched, SCHED_CACHE or schedstats off [5 min warm]
	@$(S)/check-configs.sh

check-unsound: ## compile tests/unsound/'s misuse snippets: each must be refused [20 s]
	@$(S)/check-unsound.sh

check-claims: ## every quoted figure against its committed result [2 min; 5 s after]
	@/usr/bin/python3 $(S)/check-claims.py

check-harness: ## the harness itself: exit statuses, O= refusal, make help, ... [3 min]
	@tests/harness/run.sh

clean: ## remove the builds and boots (keeps the kernel source and ccache) [instant]
	@. $(S)/common.sh; rm -rf "$$CACHE"/build-* "$$CACHE"/boot-* "$$CACHE"/stage
