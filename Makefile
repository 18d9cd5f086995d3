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

.PHONY: all help main test test-kasan test-arm64 test-all stress latency weights cpumax boot shell bench bench-arm64 \
	bench-prod bench-scale bench-native bench-native-bundle \
	kunit kunit-uml kunit-spec setup fetch overlay patches series-branch series-import check-series \
	lint check-off check-inline check-rust-min check-unsound check-harness check-claims clean

all: main

# The targets share the cache (the overlaid kernel tree, the build
# directories, the stage directory of the overlay): two of them at once
# (make -j2 test-all) would overwrite each other's files. One at a time.
.NOTPARALLEL:

help: ## this list
	@sed -n 's/^\([a-z0-9-]*\):.*## \(.*\)/\1\t\2/p' $(firstword $(MAKEFILE_LIST)) | \
		awk -F'\t' '{ printf "  %-19s %s\n", $$1, $$2 }'
	@echo "Variables: V=1 (verbose), FLAVOUR= and BOOT_ARGS= (boot, shell), ARCH=arm64,"
	@echo "  RUST_SCHED_CFS_CACHE=<dir> (builds and logs), KSRC=<kernel tree>: Documentation/rust-sched-cfs-evaluation.rst (\"Targets, variables and results\") lists them all."
	@echo "BENCH_SAVE=1 on a bench target writes its results, with their provenance, to tests/bench/."
	@echo "Exit status of the scripts: 0 pass, 1 a check failed, 2 harness or environment, 4 skipped."

main: ## build the production kernel (CONFIG_SCHED_RUST_CFS=y, no debug option, distribution-like), check it, boot it
	@$(S)/run.sh main

test: ## build the test kernel, boot it: KUnit parity suites, cgroup workloads, shadow check; then the production kernel, short
	@$(S)/run.sh test

test-kasan: ## make test with KASAN and kmemleak
	@$(S)/run.sh test-kasan

test-arm64: ## make test on arm64 (QEMU virt, 4 CPUs in two L2 caches)
	@ARCH=arm64 $(S)/run.sh test

test-all: test test-arm64 ## make test and make test-arm64

stress: ## the test kernel under 10 min of hotplug, partitions, switching, churn, faults, selftests
	@$(S)/run.sh stress

latency: ## scheduling latency of the cgroup workload, C against Rust in paired rounds (30-50 min)
	@$(S)/run.sh latency

weights: ## CPU shares of test_cpu's nested groups, C against Rust in paired rounds (5 min)
	@$(S)/run.sh weights

cpumax: ## test_cpu's cpu.max tests timed: usage against the test's expectation, C against Rust (10 min)
	@$(S)/run.sh cpumax

boot: ## boot the last FLAVOUR= build again (default test) and check it; BOOT_ARGS= adds parameters
	@$(S)/boot.sh $(FLAVOUR) $(BOOT_ARGS)

shell: ## an interactive shell in the guest of make test (Rust paths on, debugfs mounted)
	@BOOT_NAME=shell $(S)/boot.sh $(FLAVOUR) rsc.mode=shell kunit.enable=0 $(BOOT_ARGS)

bench: ## C, Rust, 7.3.4's stock pick in one boot: instructions per call, workloads; BENCH_CONFIG=size
	@$(S)/bench.sh

bench-arm64: ## make bench on the arm64 bench kernel
	@ARCH=arm64 $(S)/bench.sh

bench-prod: ## production kernels head to head: stock, =n, =y, 5 boots each, per-call plugin; BENCH_SAVE=1
	@$(S)/bench-prod.sh


bench-scale: ## per-call instructions, C and Rust, at 4 to 64 CPUs in 2 to 16 LLCs, and how often each side aggregates (SCALE_SIZES=, SCALE_AGGR_RUNS=)
	@$(S)/bench-scale.sh

bench-native: ## make bench's microbenchmarks in ns on the host CPU (UML), 5 layout builds x 100 reps; BENCH_SAVE=1
	@$(S)/bench-native.sh

bench-native-bundle: ## make bench-native, and a tar of its UML kernel, root and runner that runs on any x86_64 Linux host
	@$(S)/bench-native.sh bundle





kunit: ## the KUnit suites through tools/testing/kunit/kunit.py (x86_64 under QEMU)
	@$(S)/kunit.sh

kunit-uml: ## the same on UML
	@KUNIT_ARCH=um $(S)/kunit.sh

kunit-spec: ## the executable specification's exhaustive check, full scope, on UML (suite sched_rust_spec)
	@KUNIT_ARCH=um $(S)/kunit.sh 'sched_rust_spec' --kernel_args=sched_rust_spec_full=1 --kernel_args=kunit.timeout=3600

setup: ## install the toolchain: Debian packages, rustc 1.86.0, bindgen
	@$(S)/setup.sh

fetch: ## fetch and unpack Debian's linux-source-7.3 into the cache (or KSRC=)
	@$(S)/fetch-kernel.sh

overlay: ## copy the overlay and apply patches/ onto the cache's kernel tree
	@$(S)/overlay.sh

patches: ## export the upstream-style patch series (git format-patch layout)
	@$(S)/export-patches.sh

series-branch: ## the series as a git repository in the cache, one commit per patch, to edit with git
	@$(S)/export-patches.sh branch

series-import: ## write the series-branch repository's commits back into patches/
	@$(S)/import-series.sh

check-series: ## apply the series patch by patch, build each with the option on and off, b4 prep
	@$(S)/check-series.sh

lint: ## rustfmt, CLIPPY=1, checkpatch, docutils, check-claims, check-unsound, check-harness, check-rust-min
	@$(S)/lint.sh

check-off: ## =n: every function of what the series touches identical to stock + its C patches; =y production: no twin, no panic
	@$(S)/check-off.sh

check-inline: ## the production kernel: no call into Rust left on the hot paths
	@$(S)/run.sh check-inline

check-rust-min: ## build the Rust code with the kernel's minimum rustc (1.85.0)
	@$(S)/check-rust-min.sh

check-unsound: ## compile tests/unsound/'s misuse snippets: each must be refused with its error
	@$(S)/check-unsound.sh

check-claims: ## every figure the documents quote against the committed result it comes from (seconds)
	@/usr/bin/python3 $(S)/check-claims.py

check-harness: ## the harness itself: exit statuses, O= refusal, make help, the harness manual's report sample
	@tests/harness/run.sh

clean: ## remove the build and boot directories (keeps the kernel source and ccache)
	@. $(S)/common.sh; rm -rf "$$CACHE"/build-* "$$CACHE"/boot-* "$$CACHE"/stage
