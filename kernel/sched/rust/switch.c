// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime selection between the C and the Rust implementation of each piece
 * of CONFIG_SCHED_RUST_CFS.
 *
 * Each piece has a static key, true when Rust is selected, so the choice costs
 * nothing on the hot path. The C bodies stay compiled: they are the oracle of
 * the parity tests and the baseline of the benchmarks.
 *
 *   sched_rust_cfs=on|off|<piece>[,<piece>...]   boot parameter; the pieces
 *                                                listed run on Rust, the
 *                                                others on C (default: on)
 *   /sys/kernel/debug/sched/rust_cfs/<piece>     reads "rust" or "c"; accepts
 *                                                "rust", "c", 1, 0, y, n
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kstrtox.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sched_rust.h"

DEFINE_STATIC_KEY_TRUE(sched_rust_pick_key);

struct rust_sched_piece {
	const char *name;
	struct static_key_true *key;
};

static const struct rust_sched_piece rust_sched_pieces[] = {
	{ "pick", &sched_rust_pick_key },
};

static void rust_sched_piece_set(const struct rust_sched_piece *piece, bool rust)
{
	if (rust)
		static_branch_enable(piece->key);
	else
		static_branch_disable(piece->key);
}

static const struct rust_sched_piece *rust_sched_piece_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rust_sched_pieces); i++) {
		if (!strcmp(rust_sched_pieces[i].name, name))
			return &rust_sched_pieces[i];
	}
	return NULL;
}

static int __init setup_sched_rust_cfs(char *str)
{
	const struct rust_sched_piece *piece;
	bool all;
	char *tok;
	int i;

	if (!kstrtobool(str, &all) || !strcmp(str, "all") || !strcmp(str, "none")) {
		all = all && strcmp(str, "none");
		for (i = 0; i < ARRAY_SIZE(rust_sched_pieces); i++)
			rust_sched_piece_set(&rust_sched_pieces[i], all);
		return 1;
	}

	for (i = 0; i < ARRAY_SIZE(rust_sched_pieces); i++)
		rust_sched_piece_set(&rust_sched_pieces[i], false);
	while ((tok = strsep(&str, ",")) != NULL) {
		piece = rust_sched_piece_find(tok);
		if (piece)
			rust_sched_piece_set(piece, true);
		else
			pr_warn("sched_rust_cfs: unknown piece '%s'\n", tok);
	}
	return 1;
}
__setup("sched_rust_cfs=", setup_sched_rust_cfs);

static ssize_t rust_sched_piece_read(struct file *file, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	const struct rust_sched_piece *piece = file_inode(file)->i_private;
	const char *val = static_key_enabled(piece->key) ? "rust\n" : "c\n";

	return simple_read_from_buffer(ubuf, cnt, ppos, val, strlen(val));
}

static ssize_t rust_sched_piece_write(struct file *file, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	const struct rust_sched_piece *piece = file_inode(file)->i_private;
	char buf[8] = {};
	bool rust;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	strim(buf);
	if (!strcmp(buf, "rust"))
		rust = true;
	else if (!strcmp(buf, "c"))
		rust = false;
	else if (kstrtobool(buf, &rust))
		return -EINVAL;

	rust_sched_piece_set(piece, rust);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rust_sched_piece_fops = {
	.read	= rust_sched_piece_read,
	.write	= rust_sched_piece_write,
	.llseek	= default_llseek,
};

void __init rust_sched_init_debugfs(struct dentry *parent)
{
	struct dentry *dir = debugfs_create_dir("rust_cfs", parent);
	int i;

	for (i = 0; i < ARRAY_SIZE(rust_sched_pieces); i++) {
		const struct rust_sched_piece *piece = &rust_sched_pieces[i];

		debugfs_create_file(piece->name, 0644, dir, (void *)piece,
				    &rust_sched_piece_fops);
		pr_info("sched_rust_cfs: %s on %s\n", piece->name,
			static_key_enabled(piece->key) ? "Rust" : "C");
	}
}
