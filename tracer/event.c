// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace events: the registry of event types, enabling them, their
 * format files, writing their records, and their text.
 *
 * What a tracer decides about an event (enabled, filter, triggers) is in
 * the event's file of that tracer (event_file.c); the registry here is
 * one for all tracers.
 *
 * Most types are registered at module load and stay until unload; the
 * generic events of a module come and go with it (kevents_mod.c). Readers
 * that print a record look its type up without a lock, under RCU: the
 * slot of an id is published only after the type is complete, and a type
 * unregistered at run time is freed only after a grace period. The
 * registry mutex serialises registration and enabling, which may sleep
 * (registering a tracepoint probe does).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/hardirq.h>
#include <linux/seq_file.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <linux/xarray.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "filter.h"
#include "pid.h"
#include "trace.h"
#include "stack.h"
#include "trigger.h"

static DEFINE_MUTEX(rbtr_events_mutex);
static LIST_HEAD(rbtr_event_list);
/* id -> type; loads are RCU-safe (xa_load()), stores under the mutex. */
static DEFINE_XARRAY(rbtr_event_ids);
static unsigned int rbtr_next_id = RBTR_EVENT_DYN_TOP;

/*
 * One tracing_cpumask change at a time, of any tracer; the masks
 * themselves are each tracer's (rbtr_trace.untraced_cpus).
 */
static DEFINE_MUTEX(rbtr_cpumask_mutex);

/* The common fields, as every format file of the kernel lists them. */
static const struct rbtr_field rbtr_common_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_entry)->type, "unsigned short", "common_type",
		   RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct rbtr_entry)->flags, "unsigned char", "common_flags",
		   RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct rbtr_entry)->preempt_count, "unsigned char",
		   "common_preempt_count", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct rbtr_entry)->pid, "int", "common_pid", RBTR_FIELD_NUM),
};

#ifdef RBTRACE_TEST_HOOKS
static unsigned int cpumask_step_us;
module_param(cpumask_step_us, uint, 0600);
MODULE_PARM_DESC(cpumask_step_us,
		 "test builds: sleep this long between the CPUs of a tracing_cpumask change");

static void rbtr_test_cpumask_step(void)
{
	unsigned int us = READ_ONCE(cpumask_step_us);

	if (us)
		fsleep(us);
}

/*
 * The ids of rbtrace's own range a test build gives: fewer make a test
 * that goes round the range (kprobes/kprobe-cycles.tc) shorter.
 */
static unsigned int dyn_ids;
module_param(dyn_ids, uint, 0400);
MODULE_PARM_DESC(dyn_ids,
		 "test builds: rbtrace's own event ids, from 65535 down (0: all 16,384)");

static unsigned int rbtr_dyn_bottom(void)
{
	unsigned int all = RBTR_EVENT_DYN_TOP - RBTR_EVENT_DYN_BOTTOM + 1;

	return dyn_ids && dyn_ids < all ? RBTR_EVENT_DYN_TOP - dyn_ids + 1 :
					  RBTR_EVENT_DYN_BOTTOM;
}
#else
static inline void rbtr_test_cpumask_step(void)
{
}

static inline unsigned int rbtr_dyn_bottom(void)
{
	return RBTR_EVENT_DYN_BOTTOM;
}
#endif

/*
 * Event ids. rbtrace's ids are one namespace with the kernel's, so that a
 * record's common_type means the same event in rbtrace's buffer, in
 * ftrace's and to tools that read both:
 *
 *  - a type registered with an id keeps it: ftrace's fixed ids for the
 *    ftrace system (below RBTR_EVENT_FIRST_DYN_ID), and the kernel's own
 *    id (from its format file) for every event the kernel has;
 *  - a type registered with id 0 is rbtrace's alone: it is given a free
 *    id of RBTR_EVENT_DYN_TOP (65535) down to RBTR_EVENT_DYN_BOTTOM, the
 *    next one below the id given last, round the range: an id freed
 *    (a kprobe event deleted) is given again, but only after every other
 *    free id of the range has been given since, which keeps a record
 *    still held by a reader from being printed as the next event to get
 *    its id (kprobe.c empties the buffers too, as ftrace does). The
 *    kernel gives its dynamic ids counting up from its last fixed type
 *    (trace_output.c, alloc_trace_event_type()) and reuses freed ones:
 *    it would need some 49,000 events loaded to reach the range. Should
 *    a kernel id fall there anyway, registering it fails with -EEXIST:
 *    an id never names two events.
 */
static int rbtr_event_assign_id(struct rbtr_event_type *type)
{
	unsigned int id = rbtr_next_id, bottom = rbtr_dyn_bottom(), n;

	if (type->id)
		return xa_load(&rbtr_event_ids, type->id) ? -EEXIST : 0;
	/* Each id of the range once at most: -ENOSPC only when all are taken. */
	for (n = 0; n <= RBTR_EVENT_DYN_TOP - bottom; n++, id--) {
		if (id < bottom)
			id = RBTR_EVENT_DYN_TOP;
		if (!xa_load(&rbtr_event_ids, id)) {
			type->id = id;
			rbtr_next_id = id - 1;
			return 0;
		}
	}
	return -ENOSPC;
}

/**
 * rbtr_event_register - add an event type, with a file in every tracer
 * @type: the type; it must stay valid until rbtr_event_unregister()
 *
 * Return: 0, -EEXIST for a taken id or name, -ENOSPC when out of ids, or
 * the error of creating its files.
 */
int rbtr_event_register(struct rbtr_event_type *type)
{
	struct rbtr_event_type *t;
	LIST_HEAD(gone);
	int ret;

	rbtr_event_tree_lock();
	mutex_lock(&rbtr_events_mutex);
	list_for_each_entry(t, &rbtr_event_list, list) {
		if (!strcmp(t->system, type->system) && !strcmp(t->name, type->name)) {
			ret = -EEXIST;
			goto out;
		}
	}
	ret = rbtr_event_assign_id(type);
	if (ret)
		goto out;
	/* The slot first: storing may allocate, and fail. Not yet visible. */
	ret = xa_insert(&rbtr_event_ids, type->id, XA_ZERO_ENTRY, GFP_KERNEL);
	if (ret)
		goto out;
	ret = rbtr_events_files_register(type, &gone);
	if (ret) {
		xa_release(&rbtr_event_ids, type->id);
		goto out;
	}
	list_add_tail(&type->list, &rbtr_event_list);
	/*
	 * Publish the complete type: xa_store() is a release
	 * (rcu_assign_pointer()), paired with xa_load() in rbtr_event_find().
	 * The slot exists: no allocation, no failure.
	 */
	xa_store(&rbtr_event_ids, type->id, type, GFP_KERNEL);
out:
	mutex_unlock(&rbtr_events_mutex);
	/* Outside the mutex: see rbtr_event_unregister(). None was enabled. */
	rbtr_events_files_free(&gone);
	rbtr_event_tree_unlock();
	return ret;
}

/**
 * rbtr_event_unregister - disable an event type and remove its files
 * @type: a registered type
 *
 * In every tracer. Records of the type already in the buffers print as
 * "Unknown type". A reader may still be printing one with @type: free
 * it only after an RCU grace period (rbtr_event_print()).
 */
void rbtr_event_unregister(struct rbtr_event_type *type)
{
	LIST_HEAD(gone);

	rbtr_event_tree_lock();
	mutex_lock(&rbtr_events_mutex);
	/* Its triggers, the enable_event triggers that hold it, its probes, its filters. */
	rbtr_events_files_detach(type, &gone);
	xa_erase(&rbtr_event_ids, type->id);
	list_del(&type->list);
	mutex_unlock(&rbtr_events_mutex);
	/*
	 * Outside the mutex: removing a file waits for the operations in
	 * flight on it, and its enable file's write takes the mutex.
	 */
	rbtr_events_files_free(&gone);
	rbtr_event_tree_unlock();
}

/**
 * rbtr_event_common_fields - the fields every record starts with
 * @nr: set to their number
 *
 * Return: ftrace's common fields (struct rbtr_entry), as format files list them.
 */
const struct rbtr_field *rbtr_event_common_fields(unsigned int *nr)
{
	*nr = ARRAY_SIZE(rbtr_common_fields);
	return rbtr_common_fields;
}

/**
 * rbtr_events_lock - hold the registry: no type comes, goes or changes
 *
 * For the filter, trigger and pid files, which look files up and change
 * their conditions (rbtr_event_cond_update()). May sleep.
 */
void rbtr_events_lock(void)
{
	mutex_lock(&rbtr_events_mutex);
}

/**
 * rbtr_events_unlock - release rbtr_events_lock()
 */
void rbtr_events_unlock(void)
{
	mutex_unlock(&rbtr_events_mutex);
}

/**
 * rbtr_events_lock_held - is rbtr_events_lock() held?
 *
 * For lockdep's checks (rcu_dereference_protected()).
 *
 * Return: true if held, or without lockdep.
 */
bool rbtr_events_lock_held(void)
{
	/* Without lockdep, lockdep_is_held() is declared only, for dead code. */
	return !IS_ENABLED(CONFIG_LOCKDEP) || lockdep_is_held(&rbtr_events_mutex);
}

/**
 * rbtr_event_for_each - call @fn for every registered type
 * @fn: the function; a non-zero return stops the walk
 * @data: passed to @fn
 *
 * Under rbtr_events_lock().
 *
 * Return: 0, or what @fn returned to stop.
 */
int rbtr_event_for_each(int (*fn)(struct rbtr_event_type *type, void *data), void *data)
{
	struct rbtr_event_type *t;
	int ret;

	lockdep_assert_held(&rbtr_events_mutex);
	list_for_each_entry(t, &rbtr_event_list, list) {
		ret = fn(t, data);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * rbtr_event_is_ftrace - is @type one of the ftrace system's own records?
 * @type: a type
 *
 * Those (function, print, kernel_stack, ...) have no enable file and, as
 * in ftrace, no pid filter, filter or triggers of their own.
 *
 * Return: true for them.
 */
bool rbtr_event_is_ftrace(const struct rbtr_event_type *type)
{
	return !type->reg;
}

/**
 * rbtr_event_find - the type of a record's id
 * @id: the record's common_type
 *
 * Return: the type, or NULL for an unknown id.
 */
const struct rbtr_event_type *rbtr_event_find(unsigned int id)
{
	if (!id || id >= RBTR_EVENT_MAX_ID)
		return NULL;
	/* Pairs with xa_store() in rbtr_event_register(). */
	return xa_load(&rbtr_event_ids, id);
}

static void rbtr_show_field(struct seq_file *m, const struct rbtr_field *f)
{
	seq_printf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
		   f->type, f->name, f->offset, f->size, f->is_signed);
}

/**
 * rbtr_events_show_format - the text of events/<system>/<name>/format
 * @m: the seq_file
 * @type: the type
 *
 * Byte for byte what tracefs prints (trace_events.c, f_show()): common
 * fields, a blank line, the type's fields, a blank line, the print fmt.
 */
void rbtr_events_show_format(struct seq_file *m, const struct rbtr_event_type *type)
{
	unsigned int i;

	if (type->format) {
		seq_puts(m, type->format);
		return;
	}
	seq_printf(m, "name: %s\nID: %d\nformat:\n", type->name, type->id);
	for (i = 0; i < ARRAY_SIZE(rbtr_common_fields); i++)
		rbtr_show_field(m, &rbtr_common_fields[i]);
	seq_putc(m, '\n');
	for (i = 0; i < type->nr_fields; i++)
		rbtr_show_field(m, &type->fields[i]);
	seq_printf(m, "\nprint fmt: %s\n", type->print_fmt);
}

/*
 * ftrace's tracing_gen_ctx(), with @skip levels of preemption disabled
 * since the event left out of the depth before it is capped.
 */
static __always_inline unsigned int rbtr_trace_ctx_of(unsigned int skip)
{
	unsigned int pc = preempt_count(), flags = 0, migrate = 0, depth;

	/* Without a preempt count, preempt_disable() left no level to skip. */
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		skip = 0;
	depth = pc & 0xff;
	if (skip)
		depth = depth > skip ? depth - skip : 0;
	if (irqs_disabled())
		flags |= RBTR_FLAG_IRQS_OFF;
	if (pc & NMI_MASK)
		flags |= RBTR_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= RBTR_FLAG_HARDIRQ;
	if (in_serving_softirq())
		flags |= RBTR_FLAG_SOFTIRQ;
	if (softirq_count() >> (SOFTIRQ_SHIFT + 1))
		flags |= RBTR_FLAG_BH_OFF;
	if (tif_need_resched())
		flags |= RBTR_FLAG_NEED_RESCHED;
	if (test_preempt_need_resched())
		flags |= RBTR_FLAG_PREEMPT_RESCHED;
#ifdef CONFIG_SMP
	migrate = current->migration_disabled;
#endif
	return (flags << 16) | min(depth, 0xfU) | min(migrate, 0xfU) << 4;
}

/**
 * rbtr_trace_ctx - ftrace's tracing_gen_ctx(), which modules cannot call
 *
 * Return: the RBTR_FLAG_* bits << 16, the migrate-disable depth << 4 and the
 * preempt depth, both depths capped at 15.
 */
unsigned int rbtr_trace_ctx(void)
{
	return rbtr_trace_ctx_of(0);
}

/**
 * rbtr_trace_ctx_skip - rbtr_trace_ctx() as it read @skip preempt_disable()s ago
 * @skip: levels of preemption disabled since, by the caller (at most the
 *        current depth)
 *
 * For a header filled after the event's own code ran (rbtr_event_reserve_fast()):
 * the flags are read now, in the same context; only the need-resched
 * bits may have changed since, as they may between any two reads.
 *
 * Return: as rbtr_trace_ctx().
 */
unsigned int rbtr_trace_ctx_skip(unsigned int skip)
{
	return rbtr_trace_ctx_of(skip);
}

/**
 * rbtr_set_traced_cpus - set a tracer's tracing_cpumask
 * @tr: the tracer (the top's also rules the function tracers)
 * @mask: the CPUs whose events @tr records
 *
 * Stored inverted in @tr->untraced_cpus: a tracer allocated zeroed (an
 * instance) traces every CPU from its first event on, and the top's
 * static one too, with no init ordering. One change at a time: two
 * writers' bit loops interleaved would leave a mask neither wrote.
 * Writers of events read the mask without a lock: an event racing with
 * the change may be recorded or not, as in ftrace; a CPU in both the old
 * and the new mask is traced throughout.
 */
void rbtr_set_traced_cpus(struct rbtr_trace *tr, const struct cpumask *mask)
{
	int cpu;

	mutex_lock(&rbtr_cpumask_mutex);
	for_each_possible_cpu(cpu) {
		if (cpumask_test_cpu(cpu, mask))
			cpumask_clear_cpu(cpu, &tr->untraced_cpus);
		else
			cpumask_set_cpu(cpu, &tr->untraced_cpus);
		rbtr_test_cpumask_step();
	}
	mutex_unlock(&rbtr_cpumask_mutex);
}

/**
 * rbtr_get_traced_cpus - read a tracer's tracing_cpumask
 * @tr: the tracer
 * @mask: set to the possible CPUs @tr traces
 */
void rbtr_get_traced_cpus(struct rbtr_trace *tr, struct cpumask *mask)
{
	mutex_lock(&rbtr_cpumask_mutex);
	cpumask_andnot(mask, cpu_possible_mask, &tr->untraced_cpus);
	mutex_unlock(&rbtr_cpumask_mutex);
}

/*
 * The reservation of rbtr_event_reserve() and rbtr_event_reserve_type(),
 * past the conditions: @cond is the condition word as read once for this
 * hit (0 for a type without a file); @tr the tracer whose tracing_cpumask
 * applies if @mask (a constant: a file's tracer is never NULL, and is
 * not tested for it), none if not (a stack after a record that passed it).
 */
static __always_inline void *rbtr_event_reserve_cond(const struct rbtr_trace *tr, bool mask,
						     struct rbt_buffer *buffer,
						     unsigned short id, unsigned long cond,
						     unsigned int size, unsigned int ctx)
{
	struct rbtr_entry *ent = NULL;

	preempt_disable_notrace();
	if (mask && !rbtr_cpu_traced(tr, smp_processor_id())) {
		preempt_enable_notrace();
		return NULL;
	}
	/*
	 * A record to be tested first goes to a scratch slot, as ftrace's
	 * buffered event: one the test drops never touches the buffer (nor
	 * saved_cmdlines: its comm is saved when it is kept), and triggers
	 * see it while recording is off. Both keep preemption off until the
	 * commit. rbt_reserve() returns the payload.
	 */
	if (unlikely(cond & RBTR_EVC_BUFFERED))
		ent = rbtr_event_scratch_get(size);
	if (likely(!ent)) {
		rbtr_cmdline_save();
		ent = rbt_reserve(buffer, size);
	}
	preempt_enable_notrace();
	if (!ent)
		return NULL;
	ent->type = id;
	ent->flags = ctx >> 16;
	ent->preempt_count = ctx & 0xff;
	ent->pid = current->pid;
	return ent;
}

/**
 * rbtr_event_reserve - reserve a record of @file's event on this CPU
 * @buffer: the live buffer of @file->tr, read once for this record
 * @file: the event in the tracer it is recorded by
 * @size: bytes of the record, struct rbtr_entry included
 * @ctx: rbtr_trace_ctx() of the context the event describes
 *
 * Fills the common header. On success preemption stays disabled until
 * rbtr_event_commit(). Also remembers the current task's comm for
 * saved_cmdlines.
 *
 * Return: the record, or NULL if the CPU is not traced, a condition of
 * @file leaves the hit out, or the buffer refused the event (recording
 * off, too big, full, recursion).
 */
void *rbtr_event_reserve(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			 unsigned int size, unsigned int ctx)
{
	/* Read once here, once at the commit (rbtr_event_finish()). */
	unsigned long cond = READ_ONCE(file->cond);

	/* Triggers, soft disable, pid filter: ftrace's trace_trigger_soft_disabled(). */
	if (unlikely(cond & RBTR_EVC_AT_RESERVE) && rbtr_event_cond_skip(buffer, file))
		return NULL;
	return rbtr_event_reserve_cond(file->tr, true, buffer, file->id, cond, size, ctx);
}

/**
 * rbtr_event_reserve_plain - rbtr_event_reserve() of a hit without conditions
 * @buffer: the live buffer of @file->tr, read once for this record
 * @file: the event in the tracer it is recorded by
 * @size: bytes of the record, struct rbtr_entry included
 * @ctx: rbtr_trace_ctx() of the context the event describes
 *
 * For a writer that read @file->cond once and found none of
 * RBTR_EVC_AT_RESERVE_ALL (the tracepoints' probes): the word is not
 * read again. One set since is seen at the commit, as by a writer of
 * rbtr_event_reserve() that read the word before the change.
 *
 * Return: as rbtr_event_reserve().
 */
void *rbtr_event_reserve_plain(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			       unsigned int size, unsigned int ctx)
{
	return rbtr_event_reserve_cond(file->tr, true, buffer, file->id, 0, size, ctx);
}

/**
 * rbtr_event_reserve_type - rbtr_event_reserve() for a type without a file
 * @tr: the tracer whose tracing_cpumask decides (the one of @buffer), or
 *      NULL for a record that follows one of its tracer's, which passed
 *      it (a stack: stack.c)
 * @buffer: the buffer
 * @type: the record's type: one of the ftrace system's, which has no
 *        condition (rbtr_event_is_ftrace())
 * @size: bytes of the record, struct rbtr_entry included
 * @ctx: rbtr_trace_ctx() of the context the event describes
 *
 * Committed by rbtr_event_commit_type().
 *
 * Return: the record, or NULL.
 */
void *rbtr_event_reserve_type(const struct rbtr_trace *tr, struct rbt_buffer *buffer,
			      const struct rbtr_event_type *type, unsigned int size,
			      unsigned int ctx)
{
	if (tr)
		return rbtr_event_reserve_cond(tr, true, buffer, type->id, 0, size, ctx);
	return rbtr_event_reserve_cond(NULL, false, buffer, type->id, 0, size, ctx);
}

/**
 * rbtr_event_commit_type - commit a record of rbtr_event_reserve_type()
 * @buffer: the buffer it was reserved on
 * @rec: the record, filled
 *
 * Then the stack of options/stacktrace.
 */
void rbtr_event_commit_type(struct rbt_buffer *buffer, void *rec)
{
	rbt_unlock_commit(buffer);
	if (static_branch_unlikely(&rbtr_stacktrace_key))
		rbtr_stack_after_event(buffer);
}

/**
 * rbtr_event_finish - commit or discard a record of rbtr_event_reserve()
 * @buffer: the buffer
 * @file: the file it was reserved with
 * @rec: the record, filled
 * @size: the size it was reserved with
 * @post: set to the triggers to run once the commit and its stack are
 *        done (rbtr_event_cond_post()); left alone when there are none
 *
 * For the writers that add their own stack after the record (the stack
 * of a kernel event starts at its caller's registers). The others call
 * rbtr_event_commit().
 *
 * Return: true if the record was committed, false if it was discarded
 * (its filter, a soft disable, the pid filter).
 */
bool rbtr_event_finish(struct rbt_buffer *buffer, struct rbtr_event_file *file,
		       void *rec, unsigned int size, unsigned long *post)
{
	if (unlikely(READ_ONCE(file->cond) & RBTR_EVC_AT_COMMIT))
		return rbtr_event_cond_commit(buffer, file, rec, size, post);
	rbt_unlock_commit(buffer);
	return true;
}

/**
 * rbtr_event_commit - commit the record reserved by rbtr_event_reserve()
 * @buffer: the buffer
 * @file: the file it was reserved with
 * @rec: the record, filled
 * @size: the size it was reserved with
 *
 * Then the stack of options/stacktrace, then the triggers that run after
 * the record (ftrace's event_trigger_unlock_commit()).
 */
void rbtr_event_commit(struct rbt_buffer *buffer, struct rbtr_event_file *file,
		       void *rec, unsigned int size)
{
	unsigned long post = 0;

	/* options/stacktrace: one patched-out jump while it is 0. */
	if (rbtr_event_finish(buffer, file, rec, size, &post) &&
	    static_branch_unlikely(&rbtr_stacktrace_key))
		rbtr_stack_after_event(buffer);
	if (unlikely(post))
		rbtr_event_cond_post(buffer, file, post);
}

/*
 * Read an integer field of 1, 2, 4 or 8 bytes, sign-extended if signed.
 * memcpy: a record in the buffer is only four-byte aligned.
 */
static u64 rbtr_field_int(const struct rbtr_field *f, const void *p)
{
	union { u8 b; u16 h; u32 w; u64 d; } v = { .d = 0 };

	memcpy(&v, p, min_t(unsigned int, f->size, sizeof(v)));
	switch (f->size) {
	case 1:
		return f->is_signed ? (u64)(s64)(s8)v.b : v.b;
	case 2:
		return f->is_signed ? (u64)(s64)(s16)v.h : v.h;
	case 4:
		return f->is_signed ? (u64)(s64)(s32)v.w : v.w;
	default:
		return v.d;
	}
}

static void rbtr_print_strloc(struct seq_buf *s, const void *rec, unsigned int len,
			      const void *p)
{
	unsigned int off, n;
	u32 loc;

	memcpy(&loc, p, sizeof(loc));
	off = loc & 0xffff;
	n = loc >> 16;

	if (off + n > len) {
		seq_buf_printf(s, "(bad __data_loc %#x)", loc);
		return;
	}
	seq_buf_printf(s, "%.*s", (int)strnlen(rec + off, n), (const char *)rec + off);
}

static void rbtr_print_field(struct seq_buf *s, const struct rbtr_field *f,
			     const void *rec, unsigned int len)
{
	const void *p = rec + f->offset;
	unsigned int i, size = f->size ? f->size : len - min(len, f->offset);

	if (f->offset + size > len) {
		seq_buf_printf(s, "?");
		return;
	}
	switch (f->kind) {
	case RBTR_FIELD_NUM:
		if (f->is_signed)
			seq_buf_printf(s, "%lld", (s64)rbtr_field_int(f, p));
		else
			seq_buf_printf(s, "%llu", rbtr_field_int(f, p));
		break;
	case RBTR_FIELD_HEX:
		seq_buf_printf(s, "0x%llx", rbtr_field_int(f, p));
		break;
	case RBTR_FIELD_CHARS:
		seq_buf_printf(s, "%.*s", (int)strnlen(p, size), (const char *)p);
		break;
	case RBTR_FIELD_STRLOC:
		rbtr_print_strloc(s, rec, len, p);
		break;
	default:
		for (i = 0; i < size; i++)
			seq_buf_printf(s, "%s%02x", i ? " " : "", ((u8 *)p)[i]);
		break;
	}
}

/**
 * rbtr_event_print_fields - "name: a=1 b=2\n", one @print_field call per value
 * @s: the text
 * @type: the record's type: its name and fields
 * @rec: the record
 * @len: its length in the buffer
 * @print_field: writes one field's value
 *
 * Each field is shown by its name without the array size, as ftrace's
 * "fields" option does; how the value looks is @print_field's.
 */
void rbtr_event_print_fields(struct seq_buf *s, const struct rbtr_event_type *type,
			     const void *rec, unsigned int len, rbtr_print_field_fn print_field)
{
	const struct rbtr_field *f;
	unsigned int i;

	seq_buf_printf(s, "%s:", type->name);
	for (i = 0; i < type->nr_fields; i++) {
		f = &type->fields[i];
		seq_buf_printf(s, " %.*s=", (int)strcspn(f->name, "["), f->name);
		print_field(s, f, rec, len);
	}
	seq_buf_printf(s, "\n");
}

/* "name: a=1 b=2": for types without a print function of their own. */
static void rbtr_print_generic(struct seq_buf *s, const struct rbtr_event_type *type,
			       const void *rec, unsigned int len)
{
	rbtr_event_print_fields(s, type, rec, len, rbtr_print_field);
}

/**
 * rbtr_event_print - the text of a record after its context columns
 * @s: where to print; ends with a newline
 * @rec: the record
 * @len: its size in the buffer
 */
void rbtr_event_print(struct seq_buf *s, const void *rec, unsigned int len)
{
	rbtr_event_print_as(s, rec, len, false);
}

/**
 * rbtr_event_print_as - the text of a record, or its fields
 * @s: where to print; ends with a newline
 * @rec: the record
 * @len: its size in the buffer
 * @fields: print its fields as name=value (options/fields) instead of
 *          its own text
 */
void rbtr_event_print_as(struct seq_buf *s, const void *rec, unsigned int len, bool fields)
{
	const struct rbtr_entry *ent = rec;
	const struct rbtr_event_type *type = NULL;

	/* A module's type may be unregistered meanwhile: freed after a grace period. */
	rcu_read_lock();
	if (len >= sizeof(*ent))
		type = rbtr_event_find(ent->type);
	if (!type)
		seq_buf_printf(s, "Unknown type %d\n",
			       len >= sizeof(*ent) ? ent->type : -1);
	else if (fields && type->print_fields)
		type->print_fields(s, type, rec, len);
	else if (type->print && !fields)
		type->print(s, type, rec, len);
	else
		rbtr_print_generic(s, type, rec, len);
	rcu_read_unlock();
}
