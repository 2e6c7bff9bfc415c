// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace_tp_test.ko: a module with tracepoint events of its own, which
 * the kernel's tracefs lists under events/rbtrace_tp_test/ while it is
 * loaded. The scenario events/kevents-module loads it after rbtrace and
 * unloads it with its events enabled in rbtrace.
 *
 *   echo N > /sys/module/rbtrace_tp_test/parameters/fire
 *
 * fires rbtt_fire N times (seq 1..N, val N, msg "fire-<seq>"), then
 * rbtt_count once with the number fired since the load.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#define CREATE_TRACE_POINTS
#include "rbtrace_tp_test_trace.h"

/* At most this many events per write. */
#define RBTT_FIRE_MAX	10000

static atomic_t rbtt_total = ATOMIC_INIT(0);

static int rbtt_fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	char msg[24];
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > RBTT_FIRE_MAX)
		return -EINVAL;
	for (i = 1; i <= n; i++) {
		snprintf(msg, sizeof(msg), "fire-%u", i);
		trace_rbtt_fire(i, n, msg);
	}
	trace_rbtt_count(atomic_add_return(n, &rbtt_total));
	return 0;
}

static int rbtt_fire_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&rbtt_total));
}

static const struct kernel_param_ops rbtt_fire_ops = {
	.set	= rbtt_fire_set,
	.get	= rbtt_fire_get,
};

module_param_cb(fire, &rbtt_fire_ops, NULL, 0600);
MODULE_PARM_DESC(fire, "write N: fire rbtt_fire N times, then rbtt_count; read: the total");

/*
 * oops: an oops that does not panic (the test kernel has no LKDTM), for
 * tests/guest/persist.sh: the persistent buffer's die notifier must stop
 * recording. The writer of the parameter is killed; the kernel goes on.
 * The line before it is where qemu-run stops scanning that boot's log.
 */
static int *rbtt_nowhere;

static int rbtt_oops_set(const char *val, const struct kernel_param *kp)
{
	pr_info("rbtrace_tp_test: an oops on purpose\n");
	WRITE_ONCE(*rbtt_nowhere, 1);
	return 0;
}

static const struct kernel_param_ops rbtt_oops_ops = {
	.set	= rbtt_oops_set,
};

module_param_cb(oops, &rbtt_oops_ops, NULL, 0200);
MODULE_PARM_DESC(oops, "write anything: a NULL write, an oops that does not panic");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rbtrace tests: a module with tracepoint events of its own");
