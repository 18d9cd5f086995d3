/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instructions a translated block executes, for the TCG plugins of
 * tests/bench/.
 *
 * QEMU 7.2's x86 translator ends a block before an instruction that would
 * end on another page than the block's first instruction (unless it is
 * that first instruction) and translates it again as the first of the next
 * block; but it has already listed it in the block the plugin API gives
 * (plugin_gen_insn_start() comes before the translator backs out, and only
 * the TCG ops are removed), so qemu_plugin_tb_n_insns() counts it twice:
 * once in that block, where it does not run, and once in the next. A
 * function with an instruction across a page boundary on its path then
 * counts one instruction more per pass there. Instructions never cross a
 * page on arm64, so this changes nothing there.
 */
#ifndef TB_INSNS_H
#define TB_INSNS_H

#include <qemu-plugin.h>

#define TB_INSNS_PAGE	4096ULL		/* x86_64's TARGET_PAGE_SIZE */

static inline size_t tb_insns(struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *last;
	uint64_t end;

	if (n < 2)
		return n;
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	end = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last) - 1;
	return (end ^ qemu_plugin_tb_vaddr(tb)) & ~(TB_INSNS_PAGE - 1) ? n - 1 : n;
}

#endif /* TB_INSNS_H */
