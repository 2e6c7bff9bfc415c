// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot: a spare buffer of the live one's geometry (sizes per CPU,
 * sub-buffer order, clock, overwrite mode), and "echo 1 > snapshot"
 * swapping the two in one step for every CPU, as ftrace's max_buffer and
 * update_max_tr() do. The swap is two pointer stores: what was live is the
 * snapshot, frozen; what was the spare records from then on.
 *
 * The swap, from any context (NMI included), never waits:
 *
 *   A take snap.lock with a cmpxchg; held (another swap, or a change that
 *     applies to both buffers): count a miss and give up;
 *   B refuse while a trace_pipe_raw is mapped (its reader owns its pages);
 *   C give the spare the live buffer's on/off state (ftrace: "inherit the
 *     recordable setting"), so that tracing_on reads the same after;
 *   D swap the roles: snap.spare first, then the live pointer with a
 *     release (its partner: the address dependency of rbtr_live_buffer());
 *   E note the RCU state in snap.gp (get_state_synchronize_rcu(), NMI-safe:
 *     a full barrier, then a load of the grace-period counter). Its smp_mb()
 *     orders D before that load; its partner is the grace period's own
 *     ordering: once a grace period that began after E has ended, every
 *     preemption-disabled section that began before D has ended too.
 *
 * What the writers see: each reads the live pointer once per event, with
 * preemption disabled from that read to its commit (rbtr_live_buffer()).
 * A writer that read it before D finishes its event on the old buffer,
 * which is the snapshot after D: every event lands whole in one buffer.
 * Nothing a writer holds is waited for here, not even by "echo 1 >
 * snapshot": the writers still on the old buffer are waited for lazily,
 * where it matters, by cond_synchronize_rcu(snap.gp) (which returns at
 * once when a grace period has passed since E; see "The lazy wait" below).
 *
 * The lazy wait. A writer W that read the live pointer P before the swap
 * S (W1 read P, S:D, S:E, W2 commit into P, P now the spare) is what each
 * later use of P must account for:
 *
 *   opened: a reader of the snapshot (snapshot, per_cpu/cpuN/snapshot,
 *     snapshot_raw) must not start before W2, or it would miss W's event
 *     for good (a reader sees only what is committed). rbtr_reader_open()
 *     reads the spare and snap.gp together under snap.lock and calls
 *     cond_synchronize_rcu(gp) before the reader reads: outcomes (a) a
 *     grace period since E has ended: W2 happened, no wait; (b) not yet:
 *     one synchronize_rcu(), after which W2 happened. A swap S' between
 *     the two reads is impossible (snap.lock): the gp read is the one of
 *     the swap that made the spare read the spare. The write of "1" starts
 *     the grace period at once (start_poll_synchronize_rcu(), once irqs
 *     are on), so that "echo 1 > snapshot; cat snapshot" waits at most the
 *     rest of it; a trigger's swap (any context) only notes the state.
 *   reset ("echo 2", a clock change): rbt_reset() and rbt_reset_cpu()
 *     stop the CPU's writers and wait a full grace period of their own
 *     (they must: a trigger may swap P back to live meanwhile), which
 *     includes W: nothing more to wait for.
 *   freed ("echo 0", rbtr_snapshot_exit()): rbt_free() stops the writers
 *     and waits a full grace period (its contract: "writers in flight are
 *     waited for"), which includes W.
 *   reused: a later swap S2 makes P live again while W may still be in
 *     it. New writers W' then reserve on P too. A writer writes only its
 *     own CPU's ring and W runs with preemption off, so a W' on W's CPU
 *     is an interrupt nested in W: the ring's ordinary nesting; a W' on
 *     another CPU writes another ring. Outcomes: W's event and W''s are
 *     both whole in P, each once. No wait (KUnit
 *     rbtrace_snapshot_swap_twice_inside_writes).
 *
 * A reader that stays open across swaps keeps the buffer it opened,
 * whatever its role becomes (as ftrace's iterators), and is not waited
 * for again: it reads a buffer that was live meanwhile.
 *
 * What the readers see: a reader binds to one buffer at open
 * (rbtr_reader_open()), which is pinned: "echo 0 > snapshot" refuses with
 * -EBUSY to free a pinned spare. The consuming readers of the live buffer
 * (trace_pipe, trace_pipe_raw) follow it, as ftrace's, whose iterators
 * reach it through &tr->array_buffer: before each consuming step, with
 * their file's lock held, a reader that sees tr->buffer changed gives
 * back what it holds of its buffer (a read page) and moves its pin to the
 * live one (rbtr_reader_follow()). The swap wakes the readers asleep on
 * the old buffer (@wake, an irq_work: a swap may be in NMI), so that a
 * blocked reader follows too. The readers of trace (it pauses recording,
 * ftrace's pause-on-trace), of snapshot and of snapshot_raw keep what
 * they opened.
 */
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include "event.h"
#include "persist.h"
#include "trace.h"

/*
 * snap.lock from sleeping context: the caller holds files_mutex, so the
 * only other holder is a swap (preemption disabled, a few stores, or on
 * this CPU nested in us): the wait is bounded.
 */
static void rbtr_snap_lock(struct rbtr_trace *tr)
{
	lockdep_assert_held(&tr->files_mutex);
	while (atomic_cmpxchg_acquire(&tr->snap.lock, 0, 1))
		cpu_relax();
}

static void notrace rbtr_snap_unlock(struct rbtr_trace *tr)
{
	atomic_set_release(&tr->snap.lock, 0);
}

/* Steps B to D; snap.lock held, preemption disabled. */
static int notrace rbtr_snap_swap(struct rbtr_trace *tr)
{
	struct rbt_buffer *live = tr->buffer, *spare = tr->snap.spare;

	if (!spare)
		return -ENODEV;
	/*B: pairs with synchronize_rcu() in rbtr_snapshot_map_get() */
	if (atomic_read(&tr->snap.mapped))
		return -EBUSY;
	/*C*/
	if (rbt_record_is_on(live))
		rbt_record_on(spare);
	else
		rbt_record_off(spare);
	/*D*/
	WRITE_ONCE(tr->snap.spare, live);
	/* The spare's set-up before it: pairs with rbtr_live_buffer()'s dependency */
	smp_store_release(&tr->buffer, spare);
	/*E: smp_mb(), then the counter: the writers of @live left when it has elapsed */
	tr->snap.gp = get_state_synchronize_rcu();
	atomic_long_inc(&tr->snap.taken);
	/* NMI-safe; the readers of the old buffer follow (rbtr_snap_wake()). */
	irq_work_queue(&tr->snap.wake);
	return 0;
}

/*
 * The readers asleep on the buffer that a swap made the snapshot wake up
 * and follow the live one; the live one's too, as ftrace's update_max_tr()
 * wakes them. The RCU read side keeps the spare from rbt_free() in
 * rbtr_snap_free_locked() between the read of the pointer and the wake.
 */
static void rbtr_snap_wake(struct irq_work *work)
{
	struct rbtr_trace *tr = container_of(work, struct rbtr_trace, snap.wake);
	struct rbt_buffer *spare;

	rcu_read_lock();
	spare = READ_ONCE(tr->snap.spare);
	if (spare)
		rbt_wake_waiters(spare, RBT_ALL_CPUS);
	rbt_wake_waiters(READ_ONCE(tr->buffer), RBT_ALL_CPUS);
	rcu_read_unlock();
}

/**
 * rbtr_snapshot_take - swap the live buffer and the snapshot, every CPU
 * @tr: the tracer
 *
 * Callable from any context, NMI included, preemption disabled or not:
 * it takes no lock it could wait for. ftrace refuses a snapshot from NMI
 * (its swap takes an arch spinlock); this swap is two pointer stores
 * and a read of RCU's state under a trylock, so an NMI that interrupted
 * a swap or a resize on its CPU only fails to take the lock. It waits
 * for no writer: a reader of the snapshot does (rbtr_reader_open()).
 *
 * Return: 0; -ENODEV when no snapshot is allocated (rbtr_snapshot_alloc());
 * -EBUSY when a swap or a change of both buffers holds the lock (counted
 * in missed) or a trace_pipe_raw of @tr is mapped.
 */
int notrace rbtr_snapshot_take(struct rbtr_trace *tr)
{
	int ret;

	preempt_disable_notrace();
	/*A*/
	if (atomic_cmpxchg_acquire(&tr->snap.lock, 0, 1)) {
		atomic_long_inc(&tr->snap.missed);
		ret = -EBUSY;
	} else {
		ret = rbtr_snap_swap(tr);
		rbtr_snap_unlock(tr);
	}
	preempt_enable_notrace();
	return ret;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_snapshot_take);
#endif

/* The spare a swap gives recording to: the live buffer's geometry. */
static struct rbt_buffer *rbtr_snap_new(struct rbtr_trace *tr)
{
	struct rbt_buffer *live = tr->buffer, *spare;
	unsigned int order = ilog2(rbt_read_page_size(live) >> PAGE_SHIFT), i;
	int cpu, ret = 0;

	spare = rbt_alloc(rbt_size(live, RBT_ALL_CPUS),
			  rbt_overwrite(live) ? RBT_FL_OVERWRITE : 0, order);
	if (!spare)
		return ERR_PTR(-ENOMEM);
	/* buffer_size_kb of one CPU may differ from the others'. */
	for_each_possible_cpu(cpu) {
		if (rbt_size(spare, cpu) != rbt_size(live, cpu))
			ret = rbt_resize(spare, rbt_size(live, cpu), cpu);
		if (ret)
			goto fail;
	}
	/* A clock a module set by hand (tr->clock NULL) stays its own. */
	if (tr->clock) {
		ret = rbt_set_clock(spare, tr->clock->read);
		if (ret)
			goto fail;
	}
	/* As the live buffer: paused while trace is open (rbtr_pause()). */
	for (i = 0; i < tr->snap.stop_count; i++)
		rbt_record_disable(spare);
	return spare;
fail:
	rbt_free(spare);
	return ERR_PTR(ret);
}

static int rbtr_snap_alloc_locked(struct rbtr_trace *tr)
{
	struct rbt_buffer *spare;
	int slot;

	lockdep_assert_held(&tr->files_mutex);
	/* Without a spare no swap can happen: tr->buffer holds still. */
	if (tr->snap.spare)
		return 0;
	/*
	 * A buffer in reserved memory stays the live one (a later boot reads
	 * it there): no snapshot, as ftrace's boot-mapped instance has none.
	 */
	if (rbt_in_range(tr->buffer)) {
		pr_warn_ratelimited("rbtrace: snapshot: the buffer is in reserved memory (persist=): none is taken\n");
		return -EINVAL;
	}
	spare = rbtr_snap_new(tr);
	if (IS_ERR(spare))
		return PTR_ERR(spare);
	rbtr_snap_lock(tr);
	slot = tr->snap.bufs[0] ? 1 : 0;
	tr->snap.bufs[slot] = spare;
	tr->snap.pins[slot] = 0;
	WRITE_ONCE(tr->snap.spare, spare);
	/* No writer ever had it: any state will do; this one ends soon. */
	tr->snap.gp = get_state_synchronize_rcu();
	rbtr_snap_unlock(tr);
	return 0;
}

/**
 * rbtr_snapshot_spare - the spare, for a reader of the snapshot to bind to
 * @tr: the tracer, its files_mutex held
 * @gp: set to the RCU state noted by the swap that made it the spare
 *
 * Both read under snap.lock, so that they come from the same swap. The
 * caller pins the spare, drops files_mutex, then calls
 * cond_synchronize_rcu(*@gp) before it reads: the writers that were still
 * on the spare when it became the spare have committed by then.
 *
 * Return: the spare, or NULL (@gp untouched then).
 */
struct rbt_buffer *rbtr_snapshot_spare(struct rbtr_trace *tr, unsigned long *gp)
{
	struct rbt_buffer *spare;

	rbtr_snap_lock(tr);
	spare = tr->snap.spare;
	if (spare)
		*gp = tr->snap.gp;
	rbtr_snap_unlock(tr);
	return spare;
}

/**
 * rbtr_snapshot_alloc - allocate the snapshot's spare buffer if needed
 * @tr: the tracer
 *
 * Sleeping context: a snapshot trigger calls it when it is set, as
 * ftrace's does, so that rbtr_snapshot_take() never allocates.
 *
 * Return: 0 or -ENOMEM (or the errno of a resize of the spare).
 */
int rbtr_snapshot_alloc(struct rbtr_trace *tr)
{
	int ret;

	mutex_lock(&tr->files_mutex);
	ret = rbtr_snap_alloc_locked(tr);
	mutex_unlock(&tr->files_mutex);
	return ret;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_snapshot_alloc);
#endif

/**
 * rbtr_snapshot_get - a snapshot trigger is being set: allocate and hold
 * @tr: the tracer
 *
 * As ftrace's tracing_arm_snapshot(): the spare is allocated if needed
 * and "echo 0 > snapshot" refuses with -EBUSY to free it until the
 * matching rbtr_snapshot_put(). Sleeping context.
 *
 * Return: 0, or the error of rbtr_snapshot_alloc() (nothing held then).
 */
int rbtr_snapshot_get(struct rbtr_trace *tr)
{
	int ret;

	mutex_lock(&tr->files_mutex);
	ret = rbtr_snap_alloc_locked(tr);
	if (!ret)
		atomic_inc(&tr->snap.armed);
	mutex_unlock(&tr->files_mutex);
	return ret;
}

/**
 * rbtr_snapshot_put - undo one rbtr_snapshot_get()
 * @tr: the tracer
 *
 * Takes no lock (the trigger is freed under the events' lock); the spare
 * is not freed here, only allowed to be by "echo 0 > snapshot".
 */
void rbtr_snapshot_put(struct rbtr_trace *tr)
{
	WARN_ON_ONCE(atomic_dec_return(&tr->snap.armed) < 0);
}

/*
 * "echo 0 > snapshot": free the spare unless a reader is bound to it or
 * a snapshot trigger holds it (ftrace's tr->snapshot refcount, checked
 * under files_mutex, which rbtr_snapshot_get() increments it under).
 */
static int rbtr_snap_free_locked(struct rbtr_trace *tr)
{
	struct rbt_buffer *spare;
	int slot;

	rbtr_snap_lock(tr);
	spare = tr->snap.spare;
	if (!spare) {
		rbtr_snap_unlock(tr);
		return 0;
	}
	slot = tr->snap.bufs[1] == spare;
	if (tr->snap.pins[slot] || atomic_read(&tr->snap.armed)) {
		rbtr_snap_unlock(tr);
		return -EBUSY;
	}
	WRITE_ONCE(tr->snap.spare, NULL);
	tr->snap.bufs[slot] = NULL;
	rbtr_snap_unlock(tr);
	/*
	 * A wake queued before may be reading the pointer still; after
	 * this none can (no swap without a spare). The writers that read
	 * it as the live buffer before the last swap are in preemption-
	 * disabled sections: rbt_free() waits a grace period for them.
	 */
	irq_work_sync(&tr->snap.wake);
	rbt_free(spare);
	return 0;
}

/* The slot of rbtr_snap.bufs holding @buffer. */
static int rbtr_snap_slot(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	return tr->snap.bufs[1] == buffer;
}

/**
 * rbtr_reader_open - a file that reads a buffer is being opened
 * @tr: the tracer
 * @snapshot: it reads the snapshot, else the live buffer
 *
 * The file is bound to the buffer that has the role asked for now, and
 * keeps reading that one across snapshots (a reader's per-buffer state,
 * its read pages and iterators, is of that buffer), as ftrace's
 * iterators do. The buffer is pinned: "echo 0 > snapshot" refuses to
 * free it with -EBUSY until rbtr_reader_close(). The snapshot is whole
 * when this returns: the writers still on it since the swap are waited
 * for, if a grace period has not ended them yet (snapshot.c, the lazy
 * wait). Sleeps.
 *
 * Return: the buffer; NULL for the snapshot when none is allocated
 * (nothing pinned then, but the reader is counted all the same).
 */
struct rbt_buffer *rbtr_reader_open(struct rbtr_trace *tr, bool snapshot)
{
	struct rbt_buffer *buffer;
	unsigned long gp;

	mutex_lock(&tr->files_mutex);
	tr->readers_open++;
	/* Under files_mutex a swap may change the roles, never free one. */
	buffer = snapshot ? rbtr_snapshot_spare(tr, &gp) : READ_ONCE(tr->buffer);
	if (buffer)
		tr->snap.pins[rbtr_snap_slot(tr, buffer)]++;
	mutex_unlock(&tr->files_mutex);
	/* Pinned: not freed while the writers of before the swap finish. */
	if (snapshot && buffer)
		cond_synchronize_rcu(gp);
	return buffer;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_reader_open);
#endif

/**
 * rbtr_reader_close - it was released (or its open failed)
 * @tr: the tracer
 * @buffer: what rbtr_reader_open() returned
 */
void rbtr_reader_close(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	mutex_lock(&tr->files_mutex);
	tr->readers_open--;
	if (buffer)
		tr->snap.pins[rbtr_snap_slot(tr, buffer)]--;
	mutex_unlock(&tr->files_mutex);
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_reader_close);
#endif

/**
 * rbtr_reader_follow - move a consuming reader's pin to the live buffer
 * @tr: the tracer
 * @buffer: the buffer the reader is bound to (rbtr_reader_open())
 *
 * Called with the reader's own lock held (it serialises the reader's
 * state), none of @tr's, when the reader saw tr->buffer differ from
 * @buffer, after it gave back what it held of @buffer. Under files_mutex
 * a swap may change the roles of the two buffers, never free one; the
 * live one read here may be the snapshot again by the time the reader
 * reads it, which the next follow sees.
 *
 * Return: the live buffer, pinned instead of @buffer.
 */
struct rbt_buffer *rbtr_reader_follow(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	struct rbt_buffer *live;

	mutex_lock(&tr->files_mutex);
	live = READ_ONCE(tr->buffer);
	if (live != buffer) {
		tr->snap.pins[rbtr_snap_slot(tr, live)]++;
		tr->snap.pins[rbtr_snap_slot(tr, buffer)]--;
	}
	mutex_unlock(&tr->files_mutex);
	return live;
}

/**
 * rbtr_reader_pin - hold @buffer while sleeping on it
 * @tr: the tracer
 * @buffer: a buffer of @tr the caller has pinned, its file's lock held
 *
 * A reader drops its file's lock to sleep; another thread reading the
 * same file may then follow the live buffer and drop the file's pin.
 * The sleeper's own pin keeps the buffer it waits on.
 */
void rbtr_reader_pin(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	mutex_lock(&tr->files_mutex);
	tr->snap.pins[rbtr_snap_slot(tr, buffer)]++;
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_reader_unpin - undo rbtr_reader_pin()
 * @tr: the tracer
 * @buffer: the buffer
 */
void rbtr_reader_unpin(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	mutex_lock(&tr->files_mutex);
	tr->snap.pins[rbtr_snap_slot(tr, buffer)]--;
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_reader_poll_pin - a file is polling @buffer's wait queue
 * @tr: the tracer
 * @buffer: the buffer polled, pinned by the reader
 * @polled: the reader's mask of the slots it polled
 *
 * An epoll entry stays on the wait queue after the reader followed the
 * live buffer: the buffer it is on stays pinned, not freed, until the
 * file is released (rbtr_reader_poll_unpin()). One pin per slot.
 */
void rbtr_reader_poll_pin(struct rbtr_trace *tr, struct rbt_buffer *buffer,
			  unsigned int *polled)
{
	/* Unlocked: @buffer is pinned, its slot cannot change meanwhile. */
	int slot = rbtr_snap_slot(tr, buffer);

	if (*polled & BIT(slot))
		return;
	mutex_lock(&tr->files_mutex);
	*polled |= BIT(slot);
	tr->snap.pins[slot]++;
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_reader_poll_unpin - the file is released: drop its poll pins
 * @tr: the tracer
 * @polled: its mask (rbtr_reader_poll_pin())
 */
void rbtr_reader_poll_unpin(struct rbtr_trace *tr, unsigned int polled)
{
	int slot;

	if (!polled)
		return;
	mutex_lock(&tr->files_mutex);
	for (slot = 0; slot < ARRAY_SIZE(tr->snap.pins); slot++)
		if (polled & BIT(slot))
			tr->snap.pins[slot]--;
	mutex_unlock(&tr->files_mutex);
}

/*
 * The swap of "echo 1 > snapshot": waits for snap.lock, never misses.
 * It does not wait for the writers still on the old buffer: a reader of
 * the snapshot does, if they are still there when it opens (the lazy
 * wait above). The grace period that ends them is started now, so that
 * it is likely over by then.
 */
static int rbtr_snap_swap_locked(struct rbtr_trace *tr)
{
	int ret;

	rbtr_snap_lock(tr);
	/* In one preemption-off section for rbtr_snapshot_map_get(). */
	preempt_disable();
	ret = rbtr_snap_swap(tr);
	preempt_enable();
	rbtr_snap_unlock(tr);
	/* Its state is at least snap.gp's: starting it is all that is wanted. */
	if (!ret)
		start_poll_synchronize_rcu();
	return ret;
}

/**
 * rbtr_reset_buffer - empty one CPU's ring of a buffer of @tr, or all
 * @tr: the tracer
 * @buffer: its live buffer or its snapshot
 * @cpu: the CPU or RBT_ALL_CPUS
 *
 * Waits for the consuming reader of each CPU to finish its event first.
 * Every CPU is emptied by one rbt_reset() under all the access locks, so
 * that the writers are quiesced once for all CPUs (one RCU grace period),
 * not once per possible CPU. The caller holds @tr->files_mutex, which
 * also tells lockdep that the access locks taken together are in order.
 */
void rbtr_reset_buffer(struct rbtr_trace *tr, struct rbt_buffer *buffer, int cpu)
{
	int i;

	lockdep_assert_held(&tr->files_mutex);
	if (cpu != RBT_ALL_CPUS) {
		rbtr_access_lock(tr, cpu);
		rbt_reset_cpu(buffer, cpu);
		rbtr_access_unlock(tr, cpu);
		return;
	}
	for_each_possible_cpu(i)
		mutex_lock_nest_lock(&tr->access[i], &tr->files_mutex);
	rbt_reset(buffer);
	for_each_possible_cpu(i)
		mutex_unlock(&tr->access[i]);
	rbtr_persist_reset(buffer);
}

/**
 * rbtr_reset - empty one CPU's live ring, or all, as "echo > trace" does
 * @tr: the tracer
 * @cpu: the CPU or RBT_ALL_CPUS
 *
 * The caller holds @tr->files_mutex: see rbtr_reset_buffer().
 */
void rbtr_reset(struct rbtr_trace *tr, int cpu)
{
	rbtr_reset_buffer(tr, READ_ONCE(tr->buffer), cpu);
}

/**
 * rbtr_buffers_resize - rbt_resize() of the live buffer and the snapshot
 * @tr: the tracer, its files_mutex held
 * @size: bytes per CPU
 * @cpu: the CPU or RBT_ALL_CPUS
 *
 * As ftrace resizes max_buffer with the live one. If the snapshot's
 * resize fails, the live buffer is given back its sizes.
 *
 * Return: what rbt_resize() returns.
 */
int rbtr_buffers_resize(struct rbtr_trace *tr, unsigned long size, int cpu)
{
	struct rbt_buffer *live, *spare;
	int ret, i;

	rbtr_snap_lock(tr);
	live = tr->buffer;
	spare = tr->snap.spare;
	ret = rbt_resize(live, size, cpu);
	if (!ret && spare) {
		ret = rbt_resize(spare, size, cpu);
		for_each_possible_cpu(i) {
			if (ret && (cpu == RBT_ALL_CPUS || cpu == i) &&
			    rbt_size(live, i) != rbt_size(spare, i))
				rbt_resize(live, rbt_size(spare, i), i);
		}
	}
	rbtr_snap_unlock(tr);
	return ret;
}

/**
 * rbtr_buffers_set_subbuf_order - rbt_set_subbuf_order() of both buffers
 * @tr: the tracer, its files_mutex held
 * @order: the order
 *
 * Return: what rbt_set_subbuf_order() returns; on failure the live
 * buffer keeps its order.
 */
int rbtr_buffers_set_subbuf_order(struct rbtr_trace *tr, unsigned int order)
{
	struct rbt_buffer *live, *spare;
	unsigned int old;
	int ret;

	rbtr_snap_lock(tr);
	live = tr->buffer;
	spare = tr->snap.spare;
	old = ilog2(rbt_read_page_size(live) >> PAGE_SHIFT);
	ret = rbt_set_subbuf_order(live, order);
	if (!ret && spare) {
		ret = rbt_set_subbuf_order(spare, order);
		if (ret)
			rbt_set_subbuf_order(live, old);
	}
	rbtr_snap_unlock(tr);
	return ret;
}

/**
 * rbtr_buffers_set_clock - rbt_set_clock() of both buffers
 * @tr: the tracer, its files_mutex held, @tr->clock still the old clock
 * @clock: the new clock's read function
 *
 * Return: what rbt_set_clock() returns; on failure the live buffer keeps
 * the old clock.
 */
int rbtr_buffers_set_clock(struct rbtr_trace *tr, u64 (*clock)(void))
{
	struct rbt_buffer *live, *spare;
	int ret;

	rbtr_snap_lock(tr);
	live = tr->buffer;
	spare = tr->snap.spare;
	ret = rbt_set_clock(live, clock);
	if (!ret && spare) {
		ret = rbt_set_clock(spare, clock);
		if (ret && tr->clock)
			rbt_set_clock(live, tr->clock->read);
	}
	rbtr_snap_unlock(tr);
	return ret;
}

/**
 * rbtr_buffers_set_overwrite - options/overwrite: the mode of both buffers
 * @tr: the tracer
 * @on: overwrite the oldest events when full (else refuse new ones)
 *
 * Both buffers, as ftrace's set_tracer_flag() changes the live and the
 * max buffer; under snap.lock, so that a swap in between does not leave
 * one of them in the old mode.
 */
void rbtr_buffers_set_overwrite(struct rbtr_trace *tr, bool on)
{
	mutex_lock(&tr->files_mutex);
	rbtr_snap_lock(tr);
	rbt_set_overwrite(tr->buffer, on);
	if (tr->snap.spare)
		rbt_set_overwrite(tr->snap.spare, on);
	rbtr_snap_unlock(tr);
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_buffers_set_on - tracing_on: the live buffer's recording on or off
 * @tr: the tracer
 * @on: on
 *
 * Under snap.lock, so that a swap does not take the old state along just
 * before it changes. Off wakes the waiting readers of both buffers: they
 * see the end.
 */
void rbtr_buffers_set_on(struct rbtr_trace *tr, bool on)
{
	mutex_lock(&tr->files_mutex);
	rbtr_snap_lock(tr);
	if (on) {
		rbt_record_on(tr->buffer);
	} else {
		rbt_record_off(tr->buffer);
		rbt_wake_waiters(tr->buffer, RBT_ALL_CPUS);
		if (tr->snap.spare)
			rbt_wake_waiters(tr->snap.spare, RBT_ALL_CPUS);
	}
	rbtr_snap_unlock(tr);
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_pause - no recording while trace is open (ftrace's pause-on-trace)
 * @tr: the tracer
 *
 * Both buffers are paused, and a spare allocated meanwhile is too, as
 * ftrace's tracing_stop_tr() stops max_buffer with the live one: a swap
 * while trace is open does not start recording.
 */
void rbtr_pause(struct rbtr_trace *tr)
{
	mutex_lock(&tr->files_mutex);
	rbtr_snap_lock(tr);
	tr->snap.stop_count++;
	rbt_record_disable(tr->buffer);
	if (tr->snap.spare)
		rbt_record_disable(tr->snap.spare);
	rbtr_snap_unlock(tr);
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_unpause - undo one rbtr_pause()
 * @tr: the tracer
 */
void rbtr_unpause(struct rbtr_trace *tr)
{
	mutex_lock(&tr->files_mutex);
	rbtr_snap_lock(tr);
	tr->snap.stop_count--;
	rbt_record_enable(tr->buffer);
	if (tr->snap.spare)
		rbt_record_enable(tr->snap.spare);
	rbtr_snap_unlock(tr);
	mutex_unlock(&tr->files_mutex);
}

/**
 * rbtr_snapshot_map_get - a trace_pipe_raw of @tr is being mapped
 * @tr: the tracer
 *
 * From then on no swap: ftrace refuses one while the buffer is mapped
 * (-EBUSY), since the mapping's reader owns its pages. The grace period
 * waits for a swap that read the count before the increment (a swap runs
 * with preemption disabled), as ftrace's get_snapshot_map() does.
 *
 * Return: 0.
 */
int rbtr_snapshot_map_get(struct rbtr_trace *tr)
{
	if (atomic_inc_return(&tr->snap.mapped) == 1)
		synchronize_rcu();
	return 0;
}

/**
 * rbtr_snapshot_map_put - a mapping of rbtr_snapshot_map_get() is gone
 * @tr: the tracer
 */
void rbtr_snapshot_map_put(struct rbtr_trace *tr)
{
	WARN_ON_ONCE(atomic_dec_return(&tr->snap.mapped) < 0);
}

/**
 * rbtr_snapshot_help - ftrace's text of an empty or freed snapshot file
 * @m: where to print
 * @tr: the tracer
 * @cpu: the file's CPU or RBT_ALL_CPUS
 */
void rbtr_snapshot_help(struct seq_file *m, struct rbtr_trace *tr, int cpu)
{
	if (READ_ONCE(tr->snap.spare))
		seq_puts(m, "#\n# * Snapshot is allocated *\n#\n");
	else
		seq_puts(m, "#\n# * Snapshot is freed *\n#\n");
	seq_puts(m, "# Snapshot commands:\n");
	if (cpu == RBT_ALL_CPUS) {
		seq_puts(m, "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
			 "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			 "#                      Takes a snapshot of the main buffer.\n"
			 "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n");
	} else {
		/* ftrace's text without CONFIG_RING_BUFFER_ALLOW_SWAP */
		seq_puts(m, "# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"
			 "# echo 1 > snapshot : Not supported with this kernel.\n"
			 "#                     Must use main snapshot file to allocate.\n"
			 "# echo 2 > snapshot : Clears this cpu's snapshot buffer (but does not allocate)\n");
	}
	seq_puts(m, "#                      (Doesn't have to be '2' works with any number that\n"
		 "#                       is not a '0' or '1')\n");
}

/**
 * rbtr_snap_cmd - a write of snapshot or per_cpu/cpuN/snapshot (snapshot_fs.c)
 * @tr: the tracer, its files_mutex held
 * @cpu: the file's CPU or RBT_ALL_CPUS
 * @val: the number written
 *
 * ftrace's values: 0 frees (main file only), 1 allocates and swaps (main
 * file only: the ring buffer's API has no swap of one CPU, so the per-CPU
 * file refuses with -EINVAL, as ftrace's does without
 * CONFIG_RING_BUFFER_ALLOW_SWAP), any other number clears the snapshot
 * (of the file's CPU), keeping it.
 *
 * Return: 0, or the errno of the free, the allocation or the swap
 * (-EINVAL, -EBUSY, -ENOMEM, ...).
 */
int rbtr_snap_cmd(struct rbtr_trace *tr, int cpu, unsigned long val)
{
	lockdep_assert_held(&tr->files_mutex);
	switch (val) {
	case 0:
		if (cpu != RBT_ALL_CPUS)
			return -EINVAL;
		return rbtr_snap_free_locked(tr);
	case 1:
		if (cpu != RBT_ALL_CPUS)
			return -EINVAL;
		/* As ftrace: a mapped buffer is neither swapped nor given a spare. */
		if (atomic_read(&tr->snap.mapped))
			return -EBUSY;
		return rbtr_snap_alloc_locked(tr) ?: rbtr_snap_swap_locked(tr);
	default:
		/* Under files_mutex the spare may change role, not go away. */
		if (tr->snap.spare)
			rbtr_reset_buffer(tr, READ_ONCE(tr->snap.spare), cpu);
		return 0;
	}
}

/**
 * rbtr_snapshot_init - no snapshot yet; @tr->buffer set
 * @tr: the tracer
 */
void rbtr_snapshot_init(struct rbtr_trace *tr)
{
	tr->snap.spare = NULL;
	tr->snap.bufs[0] = tr->buffer;
	tr->snap.bufs[1] = NULL;
	tr->snap.pins[0] = 0;
	tr->snap.pins[1] = 0;
	tr->snap.stop_count = 0;
	atomic_set(&tr->snap.lock, 0);
	atomic_set(&tr->snap.mapped, 0);
	atomic_set(&tr->snap.armed, 0);
	init_irq_work(&tr->snap.wake, rbtr_snap_wake);
	atomic_long_set(&tr->snap.taken, 0);
	atomic_long_set(&tr->snap.missed, 0);
	tr->snap.gp = get_state_synchronize_rcu();
}

/**
 * rbtr_snapshot_exit - free the spare; no file open, no writer left
 * @tr: the tracer
 *
 * The live buffer is the caller's to free (it may be either of the two
 * allocated buffers by now).
 */
void rbtr_snapshot_exit(struct rbtr_trace *tr)
{
	struct rbt_buffer *spare = tr->snap.spare;

	/* No swap is left to queue it: the writers and triggers are gone. */
	irq_work_sync(&tr->snap.wake);
	tr->snap.spare = NULL;
	/* A writer may have read it before the last swap: rbt_free() waits. */
	rbt_free(spare);
}
