// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU TCG plugin: instructions executed between two marker functions.
 *
 *   -plugin libicount.so,begin=0x<addr>,end=0x<addr> -d plugin -D <log>
 *
 * Every translated block adds its instruction count (tb_insns.h) to its
 * vCPU's counter; entering the block at <begin> remembers that vCPU's
 * counter, entering the block at <end> appends the difference to a list,
 * printed at exit as "icount <n>" lines in order. The benchmark calls the markers around each
 * timed batch with interrupts off, so a difference is the instructions of one
 * batch. Counts are deterministic where wall time under TCG is not.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "tb_insns.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64

static uint64_t count[MAX_VCPUS], start[MAX_VCPUS];
static uint64_t begin_addr, end_addr;
static uint64_t *deltas;
static size_t ndeltas, cap;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void tb_exec(unsigned int vcpu, void *udata)
{
	count[vcpu % MAX_VCPUS] += ((struct tb_count *)udata)->n;
}

static void begin_exec(unsigned int vcpu, void *udata)
{
	start[vcpu % MAX_VCPUS] = count[vcpu % MAX_VCPUS];
}

static void end_exec(unsigned int vcpu, void *udata)
{
	uint64_t d = count[vcpu % MAX_VCPUS] - start[vcpu % MAX_VCPUS];

	pthread_mutex_lock(&lock);
	if (ndeltas == cap) {
		cap = cap ? 2 * cap : 1024;
		deltas = realloc(deltas, cap * sizeof(*deltas));
	}
	if (deltas)
		deltas[ndeltas++] = d;
	pthread_mutex_unlock(&lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct tb_count *n = malloc(sizeof(*n));

	if (!n) {
		fprintf(stderr, "icount: out of memory\n");
		exit(1);
	}
	tb_insns(tb, n);
	if (va == begin_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, begin_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (va == end_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, end_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, n);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	char line[64];
	size_t i;

	for (i = 0; i < ndeltas; i++) {
		snprintf(line, sizeof(line), "icount %" PRIu64 "\n", deltas[i]);
		qemu_plugin_outs(line);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "begin=", 6))
			begin_addr = strtoull(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "end=", 4))
			end_addr = strtoull(argv[i] + 4, NULL, 0);
	}
	if (!begin_addr || !end_addr) {
		fprintf(stderr, "icount: begin= and end= addresses are required\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
