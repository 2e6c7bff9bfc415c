// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace waiting: readers sleep until a CPU (or any CPU) has data, or
 * until it is filled to a watermark (buffer_percent, as ftrace).
 *
 * The handshake with writers:
 *
 *	reader				writer (any context, NMI too)
 *	------				------
 *	waiters_pending = true		commit the event
 *	smp_mb()			if (waiters_pending) {
 *	check for data, else sleep		waiters_pending = false
 *						irq_work_queue()  -> wake_up
 *					}
 *
 * The reader's smp_mb() orders its flag before its check. The writer has
 * no barrier on its fast path, so a writer that reads the flag just before
 * the reader sets it does not wake it; the next event on that CPU does.
 * Readers that must not wait for a next event (trace-cmd stopping) are
 * woken by rbt_wake_waiters().
 */
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include "rb_internal.h"
#include "rb_timestamp.h"

static void rb_wake_work(struct irq_work *work)
{
	struct rb_waitq *wq = container_of(work, struct rb_waitq, work);

	wake_up_all(&wq->waitq);
}

/**
 * rb_waitq_init - initialise a wait queue for readers
 * @wq: the queue
 */
void rb_waitq_init(struct rb_waitq *wq)
{
	init_waitqueue_head(&wq->waitq);
	init_irq_work(&wq->work, rb_wake_work);
	atomic_set(&wq->wakeup_seq, 0);
}

/**
 * rb_waitq_sync - wait for a queued wake-up to finish before freeing
 * @wq: the queue
 */
void rb_waitq_sync(struct rb_waitq *wq)
{
	irq_work_sync(&wq->work);
}

/* Sub-buffers written and not yet read, plus the one being written. */
static bool rb_full_hit(struct rb_cpu_buffer *cpu_buffer, int full)
{
	unsigned long touched = local_read(&cpu_buffer->pages_touched);
	unsigned long lost = local_read(&cpu_buffer->pages_lost);
	unsigned long read = local_read(&cpu_buffer->pages_read);
	unsigned long dirty;

	if (!full)
		return !rbt_empty_cpu(cpu_buffer->buffer, cpu_buffer->cpu);
	touched -= min(lost, touched);
	dirty = touched - min(read, touched) + 1;
	return dirty * 100 >= (unsigned long)full * READ_ONCE(cpu_buffer->nr_pages);
}

static bool rb_any_cpu_ready(struct rbt_buffer *buffer, int full)
{
	int cpu;

	for_each_cpu(cpu, buffer->cpumask)
		if (rb_full_hit(buffer->buffers[cpu], full))
			return true;
	return false;
}

static struct rb_waitq *rb_get_waitq(struct rbt_buffer *buffer, int cpu)
{
	if (cpu == RBT_ALL_CPUS)
		return &buffer->wq;
	return &buffer->buffers[cpu]->wq;
}

/* Announce that we wait, then look: see the handshake above. */
static bool rb_ready(struct rbt_buffer *buffer, int cpu, int full)
{
	struct rb_waitq *wq = rb_get_waitq(buffer, cpu);

	if (full && cpu != RBT_ALL_CPUS)
		WRITE_ONCE(wq->full_waiters_pending, true);
	else
		WRITE_ONCE(wq->waiters_pending, true);
	/* Flag before the check: pairs with the writer's read of the flag. */
	smp_mb();
	if (cpu == RBT_ALL_CPUS)
		return rb_any_cpu_ready(buffer, full);
	return rb_full_hit(buffer->buffers[cpu], full);
}

static int rb_check_wait_args(struct rbt_buffer *buffer, int cpu, int full)
{
	if (full < 0 || full > 100)
		return -EINVAL;
	if (cpu != RBT_ALL_CPUS && !rb_valid_cpu(buffer, cpu))
		return -EINVAL;
	return 0;
}

/**
 * rbt_wait - sleep until a CPU's ring has data
 * @buffer: the buffer
 * @cpu: the CPU, or RBT_ALL_CPUS for any
 * @full: 0 to wake on any data, else the percentage of sub-buffers that
 *        must be filled (buffer_percent; with RBT_ALL_CPUS, on any CPU)
 *
 * Return: 0 when there is data or rbt_wake_waiters() was called, -EINTR
 * on a signal, -EINVAL for a bad CPU or percentage.
 */
int rbt_wait(struct rbt_buffer *buffer, int cpu, int full)
{
	struct rb_waitq *wq;
	int seq, ret;

	ret = rb_check_wait_args(buffer, cpu, full);
	if (ret)
		return ret;
	wq = rb_get_waitq(buffer, cpu);
	seq = atomic_read(&wq->wakeup_seq);
	ret = wait_event_interruptible(wq->waitq,
				       atomic_read(&wq->wakeup_seq) != seq ||
				       rb_ready(buffer, cpu, full));
	return ret ? -EINTR : 0;
}
EXPORT_SYMBOL_GPL(rbt_wait);

/**
 * rbt_poll_wait - poll support for a CPU's ring
 * @buffer: the buffer
 * @cpu: the CPU, or RBT_ALL_CPUS
 * @filp: the file being polled
 * @pt: the poll table
 * @full: as for rbt_wait()
 *
 * Return: EPOLLIN | EPOLLRDNORM when there is data, 0 when not, EPOLLERR
 * for a bad CPU or percentage.
 */
__poll_t rbt_poll_wait(struct rbt_buffer *buffer, int cpu, struct file *filp,
		       struct poll_table_struct *pt, int full)
{
	if (rb_check_wait_args(buffer, cpu, full))
		return EPOLLERR;
	poll_wait(filp, &rb_get_waitq(buffer, cpu)->waitq, pt);
	if (rb_ready(buffer, cpu, full))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_poll_wait);

/**
 * rbt_wake_waiters - wake every reader sleeping in rbt_wait() on a CPU
 * @buffer: the buffer
 * @cpu: the CPU, or RBT_ALL_CPUS (wakes the waiters of every CPU too)
 *
 * The woken readers return 0 from rbt_wait() whether or not there is data.
 */
void rbt_wake_waiters(struct rbt_buffer *buffer, int cpu)
{
	int i;

	if (cpu != RBT_ALL_CPUS) {
		if (!rb_valid_cpu(buffer, cpu))
			return;
		atomic_inc(&buffer->buffers[cpu]->wq.wakeup_seq);
		wake_up_all(&buffer->buffers[cpu]->wq.waitq);
		return;
	}
	atomic_inc(&buffer->wq.wakeup_seq);
	wake_up_all(&buffer->wq.waitq);
	for_each_cpu(i, buffer->cpumask) {
		atomic_inc(&buffer->buffers[i]->wq.wakeup_seq);
		wake_up_all(&buffer->buffers[i]->wq.waitq);
	}
}
EXPORT_SYMBOL_GPL(rbt_wake_waiters);

/**
 * rbt_time_stamp - the buffer's clock, now
 * @buffer: the buffer
 *
 * Return: the time stamp an event written now would get (59 bits).
 */
u64 rbt_time_stamp(struct rbt_buffer *buffer)
{
	return rb_time_stamp(buffer);
}
EXPORT_SYMBOL_GPL(rbt_time_stamp);
