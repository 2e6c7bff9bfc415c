// SPDX-License-Identifier: GPL-2.0
/*
 * rbt_fnbench: the cost of one traced function call. A noinline function
 * of this module (built with fentry calls, unlike rbtrace) is called in a
 * loop; writing N to /sys/module/rbt_fnbench/parameters/run times N calls
 * and logs "rbt_fnbench: calls=N ns=T". bench/fnbench.sh runs it with no
 * tracer, with rbtrace's function tracer and with ftrace's, each filtered
 * to rbt_fnbench_target: under -icount, guest time counts instructions.
 */
#include <linux/compiler.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>

static unsigned long rbt_fnbench_sink;

/*
 * The traced function: does next to nothing and is not inlined; its
 * argument varies, so no clone renames it (checked: "nm" shows it).
 */
static noinline void rbt_fnbench_target(unsigned long i)
{
	WRITE_ONCE(rbt_fnbench_sink, i);
}

static int rbt_fnbench_run(const char *val, const struct kernel_param *kp)
{
	unsigned long n, i;
	u64 t0, t1;
	int ret = kstrtoul(val, 0, &n);

	if (ret || !n)
		return -EINVAL;
	/* One CPU throughout: the per-CPU buffer paths, no migration. */
	preempt_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		rbt_fnbench_target(i);
	t1 = ktime_get_ns();
	preempt_enable();
	pr_info("rbt_fnbench: calls=%lu ns=%llu\n", n, t1 - t0);
	return 0;
}

static const struct kernel_param_ops rbt_fnbench_run_ops = {
	.set	= rbt_fnbench_run,
};
module_param_cb(run, &rbt_fnbench_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: time N calls of rbt_fnbench_target()");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rbtrace benchmark: cost of a traced function call");
