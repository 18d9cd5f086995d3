/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instructions a translated block executes, for the TCG plugins of
 * evaluation/bench/.
 *
 * QEMU 7.2's x86 translator backs out of an instruction that would reach
 * into another page than the block's first instruction (unless it is that
 * first instruction) and translates it again as the first of the next
 * block; but the plugin API has already listed it in the block it backed
 * out of (plugin_gen_insn_start() runs before the translator reads the
 * instruction, and backing out removes only its TCG ops), with the bytes it
 * had read: those up to the page's end. qemu_plugin_tb_n_insns() then
 * counts it twice, once in a block where it does not run. Seen in this
 * project's kernel: fair.c's eligibility test counted 17 instructions on a
 * 16-instruction path, a 4-byte sarq at 0x...9ffd listed with 3 bytes at the
 * end of one block and with 4 at the start of the next.
 *
 * Such a listed instruction ends exactly at a page boundary, and the block
 * that starts at its address has a longer first instruction; a block's last
 * instruction that merely ends there (a jump) has no longer twin. The first
 * of the two blocks to be translated records the address, the second takes
 * the instruction off the first's count: at most one execution of each
 * translation is miscounted. arm64's fixed 4-byte, aligned instructions
 * never reach into another page.
 */
#ifndef TB_INSNS_H
#define TB_INSNS_H

#include <pthread.h>
#include <stdint.h>

#include <qemu-plugin.h>

#define TB_INSNS_PAGE	4096ULL		/* x86_64's TARGET_PAGE_SIZE */
#define TB_INSNS_SLOTS	(1 << 16)

/* A block's instruction count, which its execution callback adds. */
struct tb_count {
	size_t n;
};

struct tb_insns_slot {
	uint64_t va;
	size_t size;			/* the instruction's length as listed */
	struct tb_count *count;		/* the block it ends (tb_insns_ends) */
};

static struct tb_insns_slot tb_insns_ends[TB_INSNS_SLOTS], tb_insns_starts[TB_INSNS_SLOTS];
static pthread_mutex_t tb_insns_lock = PTHREAD_MUTEX_INITIALIZER;

static struct tb_insns_slot *tb_insns_slot(struct tb_insns_slot *map, uint64_t va)
{
	size_t i = (va ^ (va >> 16)) & (TB_INSNS_SLOTS - 1);

	/* Stops at the address or at a free slot; a full map reuses the last one probed. */
	for (size_t k = 0; k < 64; k++, i = (i + 1) & (TB_INSNS_SLOTS - 1))
		if (!map[i].va || map[i].va == va)
			break;
	return &map[i];
}

/* Sets @count->n to @tb's instructions; may later take one off another block's. */
static void tb_insns(struct qemu_plugin_tb *tb, struct tb_count *count)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
	struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
	uint64_t va = qemu_plugin_insn_vaddr(first), lva = qemu_plugin_insn_vaddr(last);
	size_t fsize = qemu_plugin_insn_size(first), lsize = qemu_plugin_insn_size(last);
	struct tb_insns_slot *s;

	count->n = n;
	pthread_mutex_lock(&tb_insns_lock);
	if (n > 1 && !((lva + lsize) & (TB_INSNS_PAGE - 1))) {
		s = tb_insns_slot(tb_insns_starts, lva);
		if (s->va == lva && s->size > lsize) {
			count->n = n - 1;
		} else {
			s = tb_insns_slot(tb_insns_ends, lva);
			s->va = lva;
			s->size = lsize;
			s->count = count;
		}
	}
	/* A block that may start with such an instruction: one that reaches into the next page, or at a page's start. */
	if (((va ^ (va + fsize - 1)) & ~(TB_INSNS_PAGE - 1)) || !(va & (TB_INSNS_PAGE - 1))) {
		s = tb_insns_slot(tb_insns_starts, va);
		s->va = va;
		s->size = fsize;
		s = tb_insns_slot(tb_insns_ends, va);
		if (s->va == va && s->count && s->size < fsize && s->count->n > 1) {
			s->count->n--;
			s->count = NULL;
		}
	}
	pthread_mutex_unlock(&tb_insns_lock);
}

#endif /* TB_INSNS_H */
