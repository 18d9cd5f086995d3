// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_SCHED_RUST_CFS_DEBUG: runtime selection between the C and the Rust
 * implementation of each piece of CONFIG_SCHED_RUST_CFS.
 *
 * Each piece has a static key, true when Rust is selected (see
 * sched_rust_debug.h). The C implementations are compiled with this option
 * only: they are the oracle of the parity tests and the baseline of the
 * benchmarks.
 *
 *   sched_rust=on|off|<piece>[,<piece>...]  boot parameter; the pieces
 *                                            listed run on Rust, the others
 *                                            on C (default: on)
 *   /sys/kernel/debug/sched/sched_rust/<piece>
 *                                            reads "rust" or "c"; accepts
 *                                            "rust", "c", 1, 0, y, n
 *
 * Debug instrumentation of the pick, off by default:
 *   sched_rust/pick_stats  1 enables per-route pick counters, 0 disables;
 *                          reading prints them per implementation
 *   sched_rust/shadow      (CONFIG_SCHED_RUST_CFS_SHADOW) 1 runs the other
 *                          implementation on every pick and eligibility
 *                          test and counts divergences; reading prints
 *                          "<on> <checks> <divergences>"
 *   sched_rust/llc_state   (CONFIG_SCHED_CACHE) the LLC counters of every
 *                          CPU, and every task that has a preferred LLC
 *   sched_rust/llc_check   (CONFIG_SCHED_CACHE, CONFIG_SCHED_RUST_CFS_SHADOW)
 *                          with the shadow check on, every LLC dequeue
 *                          recounts the tasks queued on its runqueue and
 *                          compares nr_llc_running/nr_pref_llc_running;
 *                          reading prints "<on> <checks> <violations>"
 *   sched_rust/llc_shadow  (CONFIG_SCHED_CACHE, CONFIG_SCHED_RUST_CFS_SHADOW)
 *                          with the shadow check on, every call of an LLC
 *                          function is recomputed by both implementations
 *                          from the state it starts from; reading prints
 *                          "<on> <divergences> <skipped>", then per side
 *                          selected the comparisons made per function
 *   sched_rust/llc_choice  (CONFIG_SCHED_CACHE, CONFIG_SCHED_RUST_CFS_SHADOW)
 *                          with the shadow check on, every preferred-LLC
 *                          choice of task_cache_work() is compared with its
 *                          specification; reading prints "<on> <checks>
 *                          <moves> <divergences> <skipped> <left>" (left:
 *                          the preferred CPUs left in the group compared)
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "../../sched.h"

DEFINE_STATIC_KEY_TRUE(sched_rust_tg_state_key);
DEFINE_STATIC_KEY_TRUE(sched_rust_pick_key);
DEFINE_STATIC_KEY_TRUE(sched_rust_llc_key);
/*
 * make bench only: the C side of the pick and of the eligibility test runs
 * 7.3's stock code (rust/debug/fair_debug.c) instead of fair.c's.
 */
DEFINE_STATIC_KEY_FALSE(sched_rust_pick_stock_key);
/* The shadow check is on from the first pick when built in. */
DEFINE_STATIC_KEY_MAYBE(CONFIG_SCHED_RUST_CFS_SHADOW, sched_rust_pick_debug_key);

bool sched_rust_pick_stats_on;
bool sched_rust_pick_shadow_on = IS_ENABLED(CONFIG_SCHED_RUST_CFS_SHADOW);
DEFINE_PER_CPU(struct sched_rust_pick_stats, sched_rust_pick_stats);
atomic_long_t sched_rust_shadow_checks;
atomic_long_t sched_rust_shadow_divergences;
atomic_long_t sched_rust_tg_shadow[2];
atomic_long_t sched_rust_tg_shadow_divergences;
atomic_long_t sched_rust_tg_shadow_skipped;
atomic_long_t sched_rust_llc_checks;
atomic_long_t sched_rust_llc_violations;
atomic_long_t sched_rust_llc_shadow[2][SCHED_RUST_LLC_NR_OPS];
atomic_long_t sched_rust_llc_shadow_divergences;
atomic_long_t sched_rust_llc_shadow_skipped;
atomic_long_t sched_rust_llc_choice[SCHED_RUST_CHOICE_NR];
#ifdef CONFIG_SCHED_RUST_CFS_KUNIT_TEST
atomic_long_t sched_rust_test_calls[3][2];
#endif
static DEFINE_MUTEX(sched_rust_debug_mutex);

struct sched_rust_switch {
	const char *name;
	struct static_key_true *key;
	enum sched_rust_piece bit;
};

static const struct sched_rust_switch sched_rust_switches[] = {
#ifdef CONFIG_FAIR_GROUP_SCHED
	{ "tg_state", &sched_rust_tg_state_key, SCHED_RUST_TG_STATE },
#endif
	{ "pick", &sched_rust_pick_key, SCHED_RUST_PICK },
#ifdef CONFIG_SCHED_CACHE
	{ "llc", &sched_rust_llc_key, SCHED_RUST_LLC },
#endif
};

static bool sched_rust_piece_rust(const struct sched_rust_switch *piece)
{
	return static_key_enabled(piece->key);
}

static void sched_rust_piece_set(const struct sched_rust_switch *piece, bool rust)
{
	if (rust)
		static_branch_enable(piece->key);
	else
		static_branch_disable(piece->key);
}

/* The piece called @name (@len bytes, not NUL-terminated), or NULL. */
static const struct sched_rust_switch *sched_rust_piece_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sched_rust_switches); i++) {
		if (strlen(sched_rust_switches[i].name) == len &&
		    !strncmp(sched_rust_switches[i].name, name, len))
			return &sched_rust_switches[i];
	}
	return NULL;
}

/**
 * sched_rust_parse() - parse the value of sched_rust=
 * @str: "on" or "all" (every piece on Rust), "off" or "none" (every piece on
 *       C), or a comma-separated list of pieces (those on Rust, the others
 *       on C), exactly
 *
 * Context: any; @str is not modified.
 * Return: the pieces to run on Rust, as a mask of BIT(SCHED_RUST_*), or
 * -EINVAL (with an error message naming the valid values) for anything else.
 */
int sched_rust_parse(const char *str)
{
	const struct sched_rust_switch *piece;
	int i, mask = 0, all = 0;
	const char *end;
	size_t len;

	for (i = 0; i < ARRAY_SIZE(sched_rust_switches); i++)
		all |= BIT(sched_rust_switches[i].bit);
	if (!strcmp(str, "on") || !strcmp(str, "all"))
		return all;
	if (!strcmp(str, "off") || !strcmp(str, "none"))
		return 0;

	do {
		end = strchrnul(str, ',');
		len = end - str;
		piece = sched_rust_piece_find(str, len);
		if (!piece) {
			char names[32] = "";

			for (i = 0; i < ARRAY_SIZE(sched_rust_switches); i++) {
				strlcat(names, " ", sizeof(names));
				strlcat(names, sched_rust_switches[i].name, sizeof(names));
			}
			pr_err("sched_rust: unknown piece '%.*s'; valid: on, off, all, none, or a comma-separated list of:%s\n",
			       (int)len, str, names);
			return -EINVAL;
		}
		mask |= BIT(piece->bit);
		str = end + 1;
	} while (*end);
	return mask;
}

static int __init setup_sched_rust(char *str)
{
	int i, mask = sched_rust_parse(str);

	/* A bad value leaves the default (every piece on Rust). */
	if (mask < 0)
		return 1;
	for (i = 0; i < ARRAY_SIZE(sched_rust_switches); i++)
		sched_rust_piece_set(&sched_rust_switches[i],
				     mask & BIT(sched_rust_switches[i].bit));
	return 1;
}
__setup("sched_rust=", setup_sched_rust);

static ssize_t sched_rust_piece_read(struct file *file, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	const struct sched_rust_switch *piece = file_inode(file)->i_private;
	const char *val = sched_rust_piece_rust(piece) ? "rust\n" : "c\n";

	return simple_read_from_buffer(ubuf, cnt, ppos, val, strlen(val));
}

static ssize_t sched_rust_piece_write(struct file *file, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	const struct sched_rust_switch *piece = file_inode(file)->i_private;
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

	sched_rust_piece_set(piece, rust);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations sched_rust_piece_fops = {
	.read	= sched_rust_piece_read,
	.write	= sched_rust_piece_write,
	.llseek	= default_llseek,
};

void sched_rust_pick_debug_update(void)
{
	if (READ_ONCE(sched_rust_pick_stats_on) || READ_ONCE(sched_rust_pick_shadow_on))
		static_branch_enable(&sched_rust_pick_debug_key);
	else
		static_branch_disable(&sched_rust_pick_debug_key);
}

static int sched_rust_bool_write(const char __user *ubuf, size_t cnt, bool *val)
{
	char buf[8] = {};

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	return kstrtobool(strim(buf), val);
}

static const char * const sched_rust_route_names[SCHED_RUST_NR_ROUTES] = {
	[SCHED_RUST_ROUTE_SINGLE]	= "single",
	[SCHED_RUST_ROUTE_BUDDY]		= "buddy",
	[SCHED_RUST_ROUTE_PROTECT]	= "protect",
	[SCHED_RUST_ROUTE_FAST]		= "fast",
	[SCHED_RUST_ROUTE_HEAP]		= "heap",
};

static int sched_rust_pick_stats_show(struct seq_file *m, void *v)
{
	unsigned long sum[2][SCHED_RUST_NR_ROUTES] = {};
	int impl, r, cpu;

	for_each_possible_cpu(cpu) {
		struct sched_rust_pick_stats *st = per_cpu_ptr(&sched_rust_pick_stats, cpu);

		for (impl = 0; impl < 2; impl++)
			for (r = 0; r < SCHED_RUST_NR_ROUTES; r++)
				sum[impl][r] += READ_ONCE(st->route[impl][r]);
	}
	seq_printf(m, "enabled %d\n", sched_rust_pick_stats_on);
	for (impl = 0; impl < 2; impl++) {
		seq_printf(m, "%-4s", impl ? "rust" : "c");
		for (r = 0; r < SCHED_RUST_NR_ROUTES; r++)
			seq_printf(m, " %s %lu", sched_rust_route_names[r], sum[impl][r]);
		seq_putc(m, '\n');
	}
	return 0;
}

static int sched_rust_pick_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, sched_rust_pick_stats_show, NULL);
}

static ssize_t sched_rust_pick_stats_write(struct file *file, const char __user *ubuf,
					   size_t cnt, loff_t *ppos)
{
	bool on;
	int cpu, err;

	err = sched_rust_bool_write(ubuf, cnt, &on);
	if (err)
		return err;

	guard(mutex)(&sched_rust_debug_mutex);
	if (on && !sched_rust_pick_stats_on) {
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(&sched_rust_pick_stats, cpu), 0,
			       sizeof(struct sched_rust_pick_stats));
	}
	WRITE_ONCE(sched_rust_pick_stats_on, on);
	sched_rust_pick_debug_update();
	return cnt;
}

static const struct file_operations sched_rust_pick_stats_fops = {
	.open		= sched_rust_pick_stats_open,
	.read		= seq_read,
	.write		= sched_rust_pick_stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int sched_rust_shadow_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %ld %ld\n", sched_rust_pick_shadow_on,
		   atomic_long_read(&sched_rust_shadow_checks),
		   atomic_long_read(&sched_rust_shadow_divergences));
	return 0;
}

static int sched_rust_shadow_open(struct inode *inode, struct file *file)
{
	return single_open(file, sched_rust_shadow_show, NULL);
}

static ssize_t sched_rust_shadow_write(struct file *file, const char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	bool on;
	int err;

	err = sched_rust_bool_write(ubuf, cnt, &on);
	if (err)
		return err;

	guard(mutex)(&sched_rust_debug_mutex);
	WRITE_ONCE(sched_rust_pick_shadow_on, on);
	sched_rust_pick_debug_update();
	return cnt;
}

static const struct file_operations sched_rust_shadow_fops = {
	.open		= sched_rust_shadow_open,
	.read		= seq_read,
	.write		= sched_rust_shadow_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* "<on> <divergences> <allocations failed> c <groups> rust <groups>" */
static int sched_rust_tg_shadow_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %ld %ld c %ld rust %ld\n", READ_ONCE(sched_rust_pick_shadow_on),
		   atomic_long_read(&sched_rust_tg_shadow_divergences),
		   atomic_long_read(&sched_rust_tg_shadow_skipped),
		   atomic_long_read(&sched_rust_tg_shadow[0]),
		   atomic_long_read(&sched_rust_tg_shadow[1]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_rust_tg_shadow);

#ifdef CONFIG_SCHED_CACHE
static int sched_rust_llc_show(struct seq_file *m, void *v)
{
	struct task_struct *g, *p;
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		seq_printf(m, "cpu %d llc %d nr_llc_running %u nr_pref_llc_running %u\n", cpu,
			   per_cpu(sd_llc_id, cpu), READ_ONCE(rq->nr_llc_running),
			   READ_ONCE(rq->nr_pref_llc_running));
	}
	guard(rcu)();
	for_each_process_thread(g, p) {
		int pref = READ_ONCE(p->preferred_llc);

		if (pref >= 0)
			seq_printf(m, "task %d tgid %d cpu %d llc %d preferred_llc %d\n",
				   task_pid_nr(p), task_tgid_nr(p), task_cpu(p),
				   per_cpu(sd_llc_id, task_cpu(p)), pref);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_rust_llc);

static int sched_rust_llc_check_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %ld %ld\n", READ_ONCE(sched_rust_pick_shadow_on),
		   atomic_long_read(&sched_rust_llc_checks),
		   atomic_long_read(&sched_rust_llc_violations));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_rust_llc_check);

static int sched_rust_llc_shadow_show(struct seq_file *m, void *v)
{
	static const char *const ops[SCHED_RUST_LLC_NR_OPS] = {
		"enqueue", "dequeue", "pref", "epoch", "avg",
	};
	int side, op;

	seq_printf(m, "%d %ld %ld\n", READ_ONCE(sched_rust_pick_shadow_on),
		   atomic_long_read(&sched_rust_llc_shadow_divergences),
		   atomic_long_read(&sched_rust_llc_shadow_skipped));
	for (side = 0; side < 2; side++) {
		seq_puts(m, side ? "rust" : "c");
		for (op = 0; op < SCHED_RUST_LLC_NR_OPS; op++)
			seq_printf(m, " %s %ld", ops[op],
				   atomic_long_read(&sched_rust_llc_shadow[side][op]));
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_rust_llc_shadow);

static int sched_rust_llc_choice_show(struct seq_file *m, void *v)
{
	int i;

	seq_printf(m, "%d", READ_ONCE(sched_rust_pick_shadow_on));
	for (i = 0; i < SCHED_RUST_CHOICE_NR; i++)
		seq_printf(m, " %ld", atomic_long_read(&sched_rust_llc_choice[i]));
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_rust_llc_choice);
#endif

void __init sched_rust_init_debugfs(struct dentry *parent)
{
	struct dentry *dir = debugfs_create_dir("sched_rust", parent);
	int i;

	for (i = 0; i < ARRAY_SIZE(sched_rust_switches); i++) {
		const struct sched_rust_switch *piece = &sched_rust_switches[i];

		debugfs_create_file(piece->name, 0644, dir, (void *)piece,
				    &sched_rust_piece_fops);
	}

	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_STATS))
		debugfs_create_file("pick_stats", 0644, dir, NULL, &sched_rust_pick_stats_fops);
	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_SHADOW))
		debugfs_create_file("shadow", 0644, dir, NULL, &sched_rust_shadow_fops);
	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_SHADOW) && IS_ENABLED(CONFIG_FAIR_GROUP_SCHED))
		debugfs_create_file("tg_shadow", 0444, dir, NULL, &sched_rust_tg_shadow_fops);
	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_BENCH))
		sched_rust_bench_init_debugfs(dir);
#ifdef CONFIG_SCHED_CACHE
	debugfs_create_file("llc_state", 0444, dir, NULL, &sched_rust_llc_fops);
	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_SHADOW))
		debugfs_create_file("llc_check", 0444, dir, NULL, &sched_rust_llc_check_fops);
	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_SHADOW))
		debugfs_create_file("llc_shadow", 0444, dir, NULL, &sched_rust_llc_shadow_fops);
	if (IS_ENABLED(CONFIG_SCHED_RUST_CFS_SHADOW))
		debugfs_create_file("llc_choice", 0444, dir, NULL, &sched_rust_llc_choice_fops);
#endif
}
