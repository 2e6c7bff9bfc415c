// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace module: parameters, the default buffer behind the debugfs
 * interface, load and unload.
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "trace.h"
#include "tp.h"
#include "tree.h"
#include "function.h"
#include "kprobe.h"
#include "persist.h"
#include "stack.h"

#define RBTR_DEFAULT_SIZE_KB	1024UL
#define RBTR_MAX_SIZE_KB		BIT(22)	/* 4 GiB per CPU: beyond is absurd */

static unsigned long buffer_size_kb = RBTR_DEFAULT_SIZE_KB;
module_param(buffer_size_kb, ulong, 0400);
MODULE_PARM_DESC(buffer_size_kb,
		 "per-CPU buffer size in KiB at load (default 1024, at least 1)");

static char *mode = "overwrite";
module_param(mode, charp, 0400);
MODULE_PARM_DESC(mode,
		 "overwrite (flight recorder, default) or consumer (producer/consumer: drop new events when full)");

static unsigned int subbuf_order;
module_param(subbuf_order, uint, 0400);
MODULE_PARM_DESC(subbuf_order, "sub-buffer size is PAGE_SIZE << order (0 to 7, default 0)");

#ifdef RBTRACE_TEST_HOOKS
static unsigned int fail_init_at;
module_param(fail_init_at, uint, 0400);
MODULE_PARM_DESC(fail_init_at,
		 "test builds: make step N of the load fail with -ENOMEM (0: none)");

static unsigned int fail_init_wait_ms;
module_param(fail_init_wait_ms, uint, 0400);
MODULE_PARM_DESC(fail_init_wait_ms,
		 "test builds: wait this long before the failure of fail_init_at");

/* Step @step of rbtr_module_init() is done: fail here if told to. */
static int __init rbtr_init_step(unsigned int step)
{
	if (step != fail_init_at)
		return 0;
	pr_info("rbtrace: fail_init_at=%u: the load fails here in %u ms\n",
		step, fail_init_wait_ms);
	msleep(fail_init_wait_ms);
	return -ENOMEM;
}
#else
static inline int rbtr_init_step(unsigned int step)
{
	return 0;
}
#endif

static int __init rbtr_parse_params(unsigned int *flags)
{
	if (!strcmp(mode, "overwrite")) {
		*flags = RBT_FL_OVERWRITE;
	} else if (!strcmp(mode, "consumer")) {
		*flags = 0;
	} else {
		pr_err("rbtrace: mode=%s: must be overwrite or consumer\n", mode);
		return -EINVAL;
	}
	if (!buffer_size_kb || buffer_size_kb > RBTR_MAX_SIZE_KB) {
		pr_err("rbtrace: buffer_size_kb=%lu: must be 1 to %lu\n",
		       buffer_size_kb, RBTR_MAX_SIZE_KB);
		return -EINVAL;
	}
	if (subbuf_order > RBT_MAX_SUBBUF_ORDER) {
		pr_err("rbtrace: subbuf_order=%u: must be 0 to %d\n",
		       subbuf_order, RBT_MAX_SUBBUF_ORDER);
		return -EINVAL;
	}
	return 0;
}

/*
 * Load: the buffer, the tracer's state and its events first; the
 * debugfs tree last of what can fail. A file opened during the load
 * would outlive a failed one (the module is freed without waiting for
 * its references): opens are refused until rbtr_files_publish(), and
 * nothing can fail after the tree exists (fail_init_at's step 3 only
 * stands in for a step that could, in test builds).
 */
static int __init rbtr_module_init(void)
{
	struct rbtr_trace *tr = &rbtr_global_trace;
	struct rbt_buffer *buffer;
	unsigned int flags;
	int ret;

	ret = rbtr_parse_params(&flags);
	if (ret)
		return ret;
	/* Each instance's buffer is made as the top one is at load. */
	rbtr_instances_defaults(buffer_size_kb << 10, flags, subbuf_order);
	ret = rbt_init();
	if (ret)
		return ret;

	/* persist=, persist_addr=: the reserved range sets the size. */
	if (rbtr_persist_wanted()) {
		buffer = rbtr_persist_alloc(flags, subbuf_order);
		if (IS_ERR(buffer)) {
			ret = PTR_ERR(buffer);
			goto fail_clock;
		}
	} else {
		buffer = rbt_alloc(buffer_size_kb << 10, flags, subbuf_order);
		if (!buffer) {
			pr_err("rbtrace: cannot allocate %lu KiB per CPU\n", buffer_size_kb);
			ret = -ENOMEM;
			goto fail_clock;
		}
	}
	ret = rbtr_trace_init(tr, buffer);
	if (ret)
		goto fail_buffer;
	ret = rbtr_init_step(1);
	if (ret)
		goto fail_trace;
	ret = rbtr_cmdlines_init(tr);
	if (ret)
		goto fail_trace;
	ret = rbtr_marker_init(tr);
	if (ret)
		goto fail_cmdlines;
	ret = rbtr_tracepoints_init(tr);
	if (ret)
		goto fail_marker;
	ret = rbtr_function_init(tr);
	if (ret)
		goto fail_tracepoints;
	ret = rbtr_stack_init();
	if (ret)
		goto fail_function;
	ret = rbtr_event_cond_init();
	if (ret)
		goto fail_stack;
	ret = rbtr_init_step(2);
	if (ret)
		goto fail_cond;
	/* What a later boot needs to decode a persistent buffer's data. */
	if (rbt_in_range(buffer)) {
		ret = rbtr_persist_meta_init(tr, buffer);
		if (ret)
			goto fail_meta;
	}
	ret = rbtr_tree_init(tr);
	if (ret) {
		pr_err("rbtrace: cannot create the debugfs files (%d)\n", ret);
		goto fail_meta;
	}
	ret = rbtr_init_step(3);
	if (ret)
		goto fail_files;
	rbtr_files_publish();
	return 0;

	/* No event could be enabled (no file opened): no probe is running. */
fail_files:
	rbtr_tree_exit(tr);
fail_meta:
	rbtr_persist_meta_exit();
fail_cond:
	rbtr_event_cond_exit();
fail_stack:
	rbtr_stack_exit();
fail_function:
	rbtr_function_exit();
fail_tracepoints:
	rbtr_tracepoints_exit();
fail_marker:
	rbtr_marker_exit();
fail_cmdlines:
	rbtr_cmdlines_exit();
fail_trace:
	rbtr_trace_exit(tr);
fail_buffer:
	rbt_free(buffer);
fail_clock:
	rbt_exit();
	return ret;
}

static void __exit rbtr_module_exit(void)
{
	struct rbtr_trace *tr = &rbtr_global_trace;

	rbtr_kprobes_exit();
	rbtr_function_exit();
	rbtr_tracepoints_exit();
	rbtr_stack_exit();
	rbtr_tree_exit(tr);
	rbtr_event_cond_exit();
	rbtr_marker_exit();
	rbtr_cmdlines_exit();
	rbtr_trace_exit(tr);
	rbtr_persist_free(tr->buffer);
	rbt_exit();
}

module_init(rbtr_module_init);
module_exit(rbtr_module_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION("0.2.0");
MODULE_DESCRIPTION("rbtrace: per-CPU lockless tracing ring buffer");
MODULE_AUTHOR("The rbtrace developers");
