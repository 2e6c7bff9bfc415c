// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace waiting: readers sleep until a CPU (or any CPU) has data, or
 * until it is filled to a watermark (buffer_percent, as ftrace).
 *
 * The handshake with writers:
 *
 *	reader				writer (any context, NMI too)
 *	------				------
 *  R1	waiters_pending = true		W1 commit the event
 *  R2	smp_mb()			W2 if (waiters_pending) {
 *  R3	check for data, else sleep		waiters_pending = false
 *						irq_work_queue()  -> wake_up
 *					   }
 *
 * This is the store-buffering pattern: each side stores, then loads what
 * the other stored. The reader's smp_mb() orders R1 before R3; it has no
 * partner on the writer's side, which has no barrier between W1 and W2
 * (a full barrier on every commit is what the fast path cannot pay, the
 * choice ftrace makes too: see its ring_buffer_poll_wait()). So a writer
 * whose load at W2 is satisfied before its store at W1 is visible (x86
 * reorders a load before an older store, too) can read the flag clear
 * just as the reader, at R3, does not see the event: neither wakes the
 * other. This window is accepted, and bounded:
 *
 *  - rbt_wait() does not sleep on the flag alone: it looks again every
 *    RB_WAIT_RECHECK (100 ms), so an event whose wake-up was missed is
 *    seen within that time, whether or not more events follow;
 *  - rbt_poll_wait() cannot look again by itself: its caller is woken
 *    by the next event on that CPU (the next sub-buffer filled, for a
 *    fill level), by rbt_wake_waiters(), or by its own poll timeout.
 *
 * Readers that must not wait at all (trace-cmd stopping) are woken by
 * rbt_wake_waiters().
 */
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include "rb_internal.h"
#include "rb_timestamp.h"

/* How often a sleeping rbt_wait() looks again (see the handshake above). */
#define RB_WAIT_RECHECK		(HZ / 10)

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
	/*
	 * R2: the flag before the check. No barrier of the writer pairs
	 * with it: the window that leaves is bounded as the handshake says.
	 */
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
 * A wake-up the writer missed (see the handshake at the top of this file)
 * delays the return by at most RB_WAIT_RECHECK.
 *
 * Return: 0 when there is data or rbt_wake_waiters() was called, -EINTR
 * on a signal, -EINVAL for a bad CPU or percentage.
 */
int rbt_wait(struct rbt_buffer *buffer, int cpu, int full)
{
	struct rb_waitq *wq;
	int seq;
	long ret;

	ret = rb_check_wait_args(buffer, cpu, full);
	if (ret)
		return ret;
	wq = rb_get_waitq(buffer, cpu);
	seq = atomic_read(&wq->wakeup_seq);
	/* 0: RB_WAIT_RECHECK went by, still not ready; look again. */
	do {
		ret = wait_event_interruptible_timeout(wq->waitq,
						       atomic_read(&wq->wakeup_seq) != seq ||
						       rb_ready(buffer, cpu, full),
						       RB_WAIT_RECHECK);
	} while (!ret);
	return ret < 0 ? -EINTR : 0;
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
