// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace buffer controls and counters: the sizes a client asks for, the
 * clock, the overwrite and absolute-stamp modes, the record switches and
 * the per-CPU counters. Each is a word or two of a buffer that exists:
 * nothing here allocates, frees or moves a page, which is what
 * rb_buffer.c does (allocation, free, resize, reset); the two are apart
 * so that the buffer's lifecycle reads without its many small accessors.
 */
#include <linux/mutex.h>
#include "rb_internal.h"
#include "rb_clock.h"

/**
 * rbt_size - bytes of sub-buffer data in one CPU's ring
 * @buffer: the buffer
 * @cpu: the CPU, or RBT_ALL_CPUS for the default size of the buffer
 *
 * Return: the size, or 0 for a bad CPU.
 */
unsigned long rbt_size(struct rbt_buffer *buffer, int cpu)
{
	if (cpu == RBT_ALL_CPUS)
		return buffer->nr_pages * buffer->subbuf_size;
	if (!rb_valid_cpu(buffer, cpu))
		return 0;
	return READ_ONCE(buffer->buffers[cpu]->nr_pages) * buffer->subbuf_size;
}
EXPORT_SYMBOL_GPL(rbt_size);

/**
 * rbt_subbuf_size - bytes of event data one sub-buffer holds
 * @buffer: the buffer
 *
 * Return: the data bytes, header excluded.
 */
unsigned int rbt_subbuf_size(struct rbt_buffer *buffer)
{
	return buffer->subbuf_size;
}
EXPORT_SYMBOL_GPL(rbt_subbuf_size);

/**
 * rbt_read_page_size - bytes of one sub-buffer, header and data
 * @buffer: the buffer
 *
 * What rbt_read_page() fills and trace_pipe_raw hands out per sub-buffer.
 *
 * Return: the bytes, RBT_PAGE_HDR_SIZE included.
 */
size_t rbt_read_page_size(struct rbt_buffer *buffer)
{
	return buffer->subbuf_size + RB_PAGE_HDR_SIZE;
}
EXPORT_SYMBOL_GPL(rbt_read_page_size);

/**
 * rbt_buffer_clock - the trace clock a buffer's events are stamped with
 * @buffer: the buffer
 *
 * Return: the clock, or NULL when a module set a clock of its own with
 * rbt_set_clock().
 */
const struct rbt_clock *rbt_buffer_clock(struct rbt_buffer *buffer)
{
	return rb_clock_of(READ_ONCE(buffer->clock));
}
EXPORT_SYMBOL_GPL(rbt_buffer_clock);

/**
 * rbt_max_event_size - the largest payload rbt_lock_reserve() accepts
 * @buffer: the buffer
 *
 * Return: the largest payload in bytes.
 */
unsigned int rbt_max_event_size(struct rbt_buffer *buffer)
{
	if (READ_ONCE(buffer->time_stamp_abs))
		return buffer->max_data_size - RB_LEN_TIME_STAMP;
	return buffer->max_data_size;
}
EXPORT_SYMBOL_GPL(rbt_max_event_size);

/**
 * rbt_set_clock - choose the clock events are stamped with
 * @buffer: the buffer
 * @clock: returns nanoseconds (or counts); must be callable from NMI
 *
 * Stamps from two clocks do not compare: reset the buffer after switching
 * (the debugfs trace_clock file does).
 *
 * Return: 0, or -EINVAL for a NULL clock.
 */
int rbt_set_clock(struct rbt_buffer *buffer, u64 (*clock)(void))
{
	if (!clock)
		return -EINVAL;
	WRITE_ONCE(buffer->clock, clock);
	rb_range_set_clock(buffer);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_set_clock);

/**
 * rbt_set_clock_by_name - stamp a buffer's events with a trace clock
 * @buffer: the buffer
 * @name: local, global, mono, mono_raw, boot, counter or latch (a
 *        trailing newline is ignored)
 *
 * Every clock is callable from any context, NMI included. The latch clock
 * runs without more ado; it follows changes of tsc_khz while the debugfs
 * trace_clock file has selected it. As with rbt_set_clock(), stamps of
 * two clocks do not compare: reset the buffer after switching.
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int rbt_set_clock_by_name(struct rbt_buffer *buffer, const char *name)
{
	const struct rbt_clock *clock = rbt_clock_find(name);

	if (!clock)
		return -EINVAL;
	return rbt_set_clock(buffer, clock->read);
}
EXPORT_SYMBOL_GPL(rbt_set_clock_by_name);

/**
 * rbt_set_overwrite - switch between overwrite and producer/consumer mode
 * @buffer: the buffer
 * @overwrite: true: overwrite the oldest data when full; false: drop new
 *
 * Takes effect at the next page crossing; safe while writers run.
 */
void rbt_set_overwrite(struct rbt_buffer *buffer, bool overwrite)
{
	mutex_lock(&buffer->mutex);
	if (overwrite)
		WRITE_ONCE(buffer->flags, buffer->flags | RBT_FL_OVERWRITE);
	else
		WRITE_ONCE(buffer->flags, buffer->flags & ~RBT_FL_OVERWRITE);
	mutex_unlock(&buffer->mutex);
}
EXPORT_SYMBOL_GPL(rbt_set_overwrite);

/**
 * rbt_overwrite - is the buffer in overwrite mode?
 * @buffer: the buffer
 *
 * Return: true in overwrite mode, false in producer/consumer mode.
 */
bool rbt_overwrite(struct rbt_buffer *buffer)
{
	return READ_ONCE(buffer->flags) & RBT_FL_OVERWRITE;
}
EXPORT_SYMBOL_GPL(rbt_overwrite);

/**
 * rbt_set_time_stamp_abs - give every event an absolute 59-bit stamp
 * @buffer: the buffer
 * @abs: on or off
 *
 * Context: process context; takes the buffer's mutex (it sets each CPU's
 * RB_REFUSE_ABS bit, which sends writers to the slow reservation).
 */
void rbt_set_time_stamp_abs(struct rbt_buffer *buffer, bool abs)
{
	int cpu;

	/*
	 * The mutex orders concurrent switches, so that every CPU's bit
	 * ends as the flag does. A writer that read its word before the
	 * change writes its event as it would have before the call.
	 */
	mutex_lock(&buffer->mutex);
	WRITE_ONCE(buffer->time_stamp_abs, abs);
	for_each_possible_cpu(cpu) {
		if (abs)
			atomic_or(RB_REFUSE_ABS, &buffer->buffers[cpu]->refuse);
		else
			atomic_andnot(RB_REFUSE_ABS, &buffer->buffers[cpu]->refuse);
	}
	mutex_unlock(&buffer->mutex);
}
EXPORT_SYMBOL_GPL(rbt_set_time_stamp_abs);

/**
 * rbt_record_off - stop recording on every CPU
 * @buffer: the buffer
 *
 * Writers already past the check finish their event.
 */
void rbt_record_off(struct rbt_buffer *buffer)
{
	/* Only the call that sets the bit counts it in the CPUs' words. */
	if (!(atomic_fetch_or(RB_BUFFER_OFF, &buffer->record_disabled) & RB_BUFFER_OFF))
		rb_refuse_all(buffer, 1);
}
EXPORT_SYMBOL_GPL(rbt_record_off);

/**
 * rbt_record_on - resume recording after rbt_record_off()
 * @buffer: the buffer
 *
 * Recording stays off if an internal check failed (a warning said so).
 */
void rbt_record_on(struct rbt_buffer *buffer)
{
	if (atomic_fetch_andnot(RB_BUFFER_OFF, &buffer->record_disabled) & RB_BUFFER_OFF)
		rb_refuse_all(buffer, -1);
}
EXPORT_SYMBOL_GPL(rbt_record_on);

/**
 * rbt_record_disable - pause recording on every CPU, nesting
 * @buffer: the buffer
 *
 * As ftrace's ring_buffer_record_disable(): a count per CPU, not the
 * switch of rbt_record_off(), so rbt_record_is_on() (tracing_on) does not
 * change. Writers already past the check finish their event; there is
 * no wait. Each call needs one rbt_record_enable().
 */
void rbt_record_disable(struct rbt_buffer *buffer)
{
	int cpu;

	for_each_possible_cpu(cpu)
		atomic_inc(&buffer->buffers[cpu]->refuse);
}
EXPORT_SYMBOL_GPL(rbt_record_disable);

/**
 * rbt_record_enable - undo one rbt_record_disable()
 * @buffer: the buffer
 */
void rbt_record_enable(struct rbt_buffer *buffer)
{
	int cpu;

	for_each_possible_cpu(cpu)
		atomic_dec(&buffer->buffers[cpu]->refuse);
}
EXPORT_SYMBOL_GPL(rbt_record_enable);

/**
 * rbt_record_is_on - is the buffer recording?
 * @buffer: the buffer
 *
 * Return: true unless rbt_record_off() (or a broken ring) stopped it.
 */
bool rbt_record_is_on(struct rbt_buffer *buffer)
{
	return !atomic_read(&buffer->record_disabled);
}
EXPORT_SYMBOL_GPL(rbt_record_is_on);

/**
 * rb_num_of_entries - events committed and neither read nor overwritten
 * @cpu_buffer: the per-CPU buffer
 */
unsigned long rb_num_of_entries(struct rb_cpu_buffer *cpu_buffer)
{
	return local_read(&cpu_buffer->entries) -
		(local_read(&cpu_buffer->overrun) + cpu_buffer->read);
}

/**
 * rbt_cpu_stats - the counters of one CPU's ring
 * @buffer: the buffer
 * @cpu: the CPU
 * @stats: filled in
 *
 * Every event a writer committed ends in exactly one of read, entries
 * (still there) and overrun. Of the events asked for and not reserved,
 * dropped, commit_overrun, recursion and too_big count the refusals for
 * those reasons; refusals while recording is off (rbt_record_off(), a
 * resize or reset in progress) are not counted, nor are discards.
 *
 * Return: 0, or -EINVAL for a bad CPU.
 */
int rbt_cpu_stats(struct rbt_buffer *buffer, int cpu, struct rbt_cpu_stats *stats)
{
	struct rb_cpu_buffer *cpu_buffer;
	unsigned long flags;

	if (!rb_valid_cpu(buffer, cpu))
		return -EINVAL;
	cpu_buffer = buffer->buffers[cpu];

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	stats->entries = rb_num_of_entries(cpu_buffer);
	stats->written = local_read(&cpu_buffer->entries);
	stats->bytes = local_read(&cpu_buffer->entries_bytes) - cpu_buffer->read_bytes;
	stats->overrun = local_read(&cpu_buffer->overrun);
	stats->commit_overrun = local_read(&cpu_buffer->commit_overrun);
	stats->dropped = local_read(&cpu_buffer->dropped);
	stats->read = cpu_buffer->read;
	stats->recursion = local_read(&cpu_buffer->recursion);
	stats->too_big = local_read(&cpu_buffer->too_big);
	stats->ts_lost = local_read(&cpu_buffer->ts_lost);
	stats->discarded = local_read(&cpu_buffer->discarded);
	stats->reclaimed = local_read(&cpu_buffer->reclaimed);
	stats->pages_touched = local_read(&cpu_buffer->pages_touched);
	if (cpu_buffer->reader_page->read < rb_page_size(cpu_buffer->reader_page))
		stats->oldest_ts = cpu_buffer->reader_page->page->time_stamp;
	else
		stats->oldest_ts = cpu_buffer->head_page->page->time_stamp;
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_cpu_stats);

/**
 * rbt_entries - unread events in the whole buffer
 * @buffer: the buffer
 *
 * Return: the sum over the CPUs of events not yet read or overwritten.
 */
u64 rbt_entries(struct rbt_buffer *buffer)
{
	u64 sum = 0;
	int cpu;

	for_each_cpu(cpu, buffer->cpumask)
		sum += rb_num_of_entries(buffer->buffers[cpu]);
	return sum;
}
EXPORT_SYMBOL_GPL(rbt_entries);
