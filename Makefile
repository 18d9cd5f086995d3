# SPDX-License-Identifier: GPL-2.0
#
# rust-sched-cfs: Rust pieces of the Linux fair scheduler, as an overlay on a
# Linux 7.3.x tree. See README.md.
#
#   make          build the kernel with CONFIG_SCHED_RUST_CFS=y and boot it
#   make test     build the debug test kernel, run the KUnit suites and the
#                 boot test in QEMU
#   make test-kasan  make test with KASAN and kmemleak in the test kernel
#   make test-arm64  make test on arm64: the test kernel built for arm64 and
#                 booted on QEMU's virt machine (4 CPUs, two L2 caches)
#   make test-all  make test and make test-arm64
#   make stress   the test kernel under 10 minutes of hotplug, cpuset
#                 partitions, runtime switching, cgroup churn, fault
#                 injection and the kernel's selftests (STRESS_SECONDS=)
#   make bench    benchmarks, C and Rust in the same boot: microbenchmarks
#                 (instructions per call), per-call cost and simulated cache
#                 misses inside workloads, the field's benchmarks with 95 %
#                 intervals; tables and plots in the cache's bench-results
#   make bench-arm64  make bench's microbenchmarks and workloads on the arm64
#                 main kernel (ARCH=arm64 make bench)
#   make bench-readme  put the last make bench results into README.md and
#                 tests/bench/results/
#   make bench-readme-arm64  the same for make bench-arm64 (results-arm64/)
#   make kunit    run the suites through tools/testing/kunit/kunit.py
#   make kunit-uml  the same on UML (4 CPUs, no int128)
#   make patches  export an upstream-style patch series (git format-patch)
#   make check-series  apply the series patch by patch to a git tree of the
#                 pristine source and build every step with the option on
#                 and off (clippy, rustfmt, checkpatch on each), then lay
#                 it out with b4 prep
#   make lint     rustfmtcheck, a CLIPPY=1 build, checkpatch on patches/
#   make check-off  CONFIG_SCHED_RUST_CFS=n: fair.o equals the pristine one
#   make check-inline  the main kernel: no call into Rust left on hot paths
#   make check-rust-min  build the Rust code with the kernel's minimum rustc
#   make check-unsound  compile tests/unsound/'s misuse snippets against the
#                 built kernel crate: each must be refused with its error
#   make clean    remove the build directories (keeps the kernel source)

SHELL := /bin/bash
S := scripts

.PHONY: all main test test-kasan test-arm64 test-all stress bench bench-arm64 bench-readme bench-readme-arm64 kunit kunit-uml patches check-series setup fetch overlay lint check-off \
	check-inline check-rust-min check-unsound clean

all: main

main:
	@$(S)/run.sh main

test:
	@$(S)/run.sh test

test-kasan:
	@$(S)/run.sh test-kasan

test-arm64:
	@ARCH=arm64 $(S)/run.sh test

test-all: test test-arm64

stress:
	@$(S)/run.sh stress

bench:
	@$(S)/bench.sh

bench-arm64:
	@ARCH=arm64 $(S)/bench.sh

bench-readme:
	@$(S)/bench-readme.sh

bench-readme-arm64:
	@ARCH=arm64 $(S)/bench-readme.sh

kunit:
	@$(S)/kunit.sh

kunit-uml:
	@KUNIT_ARCH=um $(S)/kunit.sh

setup:
	@$(S)/setup.sh

fetch:
	@$(S)/fetch-kernel.sh

overlay:
	@$(S)/overlay.sh

patches:
	@$(S)/export-patches.sh

check-series:
	@$(S)/check-series.sh

lint:
	@$(S)/lint.sh

check-off:
	@$(S)/check-off.sh

check-inline:
	@$(S)/run.sh check-inline

check-rust-min:
	@$(S)/check-rust-min.sh

check-unsound:
	@$(S)/check-unsound.sh

clean:
	@. $(S)/common.sh; rm -rf "$$CACHE"/build-* "$$CACHE"/boot-* "$$CACHE"/stage
