// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace time stamps: the validation mode that re-decodes the tail page
 * after every reservation (the clocks are in rb_clock.c).
 */
#include <linux/module.h>
#include <linux/printk.h>
#include "rb_internal.h"

bool rb_validate;
/* The same switch for the write fast path: no load when it is off. */
DEFINE_STATIC_KEY_FALSE(rb_validate_key);

/*
 * Setting the parameter flips the key with it. At load the module's jump
 * entries are set up before its parameters are parsed (load_module()).
 */
static int rb_validate_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_bool(val, kp);

	if (ret)
		return ret;
	if (READ_ONCE(rb_validate))
		static_branch_enable(&rb_validate_key);
	else
		static_branch_disable(&rb_validate_key);
	return 0;
}

static const struct kernel_param_ops rb_validate_ops = {
	.set	= rb_validate_set,
	.get	= param_get_bool,
};
module_param_cb(validate, &rb_validate_ops, &rb_validate, 0600);
MODULE_PARM_DESC(validate,
		 "re-decode the tail page after every event and stop a CPU's buffer on a time stamp mismatch (slow; default off)");

/**
 * rb_ts_went_back - step A found the clock behind write_stamp
 * @cpu_buffer: the per-CPU buffer
 *
 * The clock stepped back (a mono or boot fast clock read in an NMI during
 * a timekeeping update, a TSC recalibration, a clock of rbt_set_clock()).
 * As ftrace does in this case (before == after > ts), the event gets
 * delta 0: it repeats the stamp of the event before it. Unlike ftrace,
 * the caller also takes that stamp as the event's own, so that step D
 * leaves write_stamp where it was: the events after it are stamped
 * exactly again once the clock passes it, instead of staying ahead by the
 * size of the step. Counted in ts_lost; reported once, without a
 * backtrace (a WARN would be out of proportion: the buffer is fine).
 *
 * Out of line and cold, called only from the "delta too big" branch of
 * step A, with nothing but @cpu_buffer: with the stamps as arguments the
 * write fast path took two more instructions per event (-icount bench).
 */
noinline void rb_ts_went_back(struct rb_cpu_buffer *cpu_buffer)
{
	pr_warn_once("rbtrace: CPU %d: the trace clock went back behind %llu; events repeat the last stamp until it catches up (counted in ts_lost)\n",
		     cpu_buffer->cpu, (u64)local64_read(&cpu_buffer->write_stamp));
	local_inc(&cpu_buffer->ts_lost);
}

/* Walk the page from its start to @end, adding up the stamps. */
static u64 rb_decode_page_ts(struct rb_page *bpage, unsigned long end)
{
	u64 ts = bpage->page->time_stamp;
	unsigned long i = 0;

	while (i < end) {
		struct rbt_event *event = rb_page_index(bpage, i);

		ts = rb_event_next_ts(ts, event);
		i += rb_event_length(event);
	}
	return ts;
}

static void rb_dump_page(struct rb_page *bpage, unsigned long end)
{
	unsigned long i = 0;

	pr_warn("rbtrace: page stamp %llu, events up to %lu:\n",
		bpage->page->time_stamp, end);
	while (i <= end) {
		struct rbt_event *event = rb_page_index(bpage, i);

		pr_warn("rbtrace:   [%4lu] type_len %2u delta %9u array0 %u\n",
			i, event->type_len, event->time_delta, event->array[0]);
		i += rb_event_length(event);
	}
}

/**
 * rb_validate_tail - check that the event just reserved decodes to its stamp
 * @cpu_buffer: the per-CPU buffer
 * @info: the reservation
 * @event: the event reserved
 *
 * Only the outermost writer with nothing nested in flight checks: then
 * every event before ours on the page is complete. On a mismatch, report
 * once (ratelimited) with the page, and stop this CPU's buffer.
 */
void rb_validate_tail(struct rb_cpu_buffer *cpu_buffer,
		      struct rb_event_info *info, struct rbt_event *event)
{
	struct rb_page *bpage = info->tail_page;
	unsigned long tail = (unsigned long)event - (unsigned long)bpage->page->data;
	u64 ts;

	if (local_read(&cpu_buffer->committing) != 1 || info->ts_lost)
		return;
	ts = rb_decode_page_ts(bpage, tail + rb_event_ts_length(event));
	if (ts == info->ts)
		return;

	atomic_inc(&cpu_buffer->refuse);
	cpu_buffer->validate_failed++;
	pr_warn_ratelimited("rbtrace: CPU %d: time stamp mismatch: decoded %llu, written %llu (before %llu after %llu); recording stopped on this CPU\n",
			    cpu_buffer->cpu, ts, info->ts, info->before, info->after);
	rb_dump_page(bpage, tail);
}
