// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the rbtrace KUnit suites (declared in rbt_kunit.h),
 * and the test module's own init: the one NMI handler every suite that
 * nests writers in an NMI uses.
 */
#include <linux/module.h>
#include "rbt_kunit.h"

u64 rbt_fake_ns;
atomic64_t rbt_tick_ns;
struct rbt_nester rbt_nester;
struct rbt_scn *rbt_scn_cur;

KUNIT_DEFINE_ACTION_WRAPPER(rbt_free_action, rbt_free, struct rbt_buffer *);

u64 rbt_fake_clock(void)
{
	return READ_ONCE(rbt_fake_ns);
}

void rbt_fake_set(u64 ns)
{
	WRITE_ONCE(rbt_fake_ns, ns);
}

u64 rbt_tick_clock(void)
{
	return atomic64_add_return(RBT_TICK_NS, &rbt_tick_ns);
}

/* A buffer freed when the test case ends, however it ends. */
struct rbt_buffer *rbt_kunit_alloc(struct kunit *test, unsigned long size,
				   unsigned int flags, unsigned int order)
{
	struct rbt_buffer *buf = rbt_alloc(size, flags, order);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rbt_free_action, buf), 0);
	return buf;
}

/*
 * Pin the test's thread to the CPU it runs on, so that what it writes
 * and what it reads are on one per-CPU ring. KUnit runs every case in a
 * thread of its own, so the pin dies with the case.
 */
int rbt_kunit_pin(struct kunit *test)
{
	int cpu = raw_smp_processor_id();

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, (int)raw_smp_processor_id(), cpu);
	return cpu;
}

struct rb_cpu_buffer *rbt_cpu(struct rbt_buffer *buf, int cpu)
{
	return buf->buffers[cpu];
}

/* Bytes already written on the tail page of @cpu. */
unsigned long rbt_tail_write(struct rbt_buffer *buf, int cpu)
{
	return rb_page_write(READ_ONCE(buf->buffers[cpu]->tail_page));
}

struct rbt_cpu_stats rbt_stats(struct kunit *test, struct rbt_buffer *buf,
			       int cpu)
{
	struct rbt_cpu_stats st = {};

	KUNIT_EXPECT_EQ(test, rbt_cpu_stats(buf, cpu, &st), 0);
	return st;
}

/*
 * Print the state of one CPU's ring (for a failing case): where head,
 * tail, commit and reader pages are, and each page's counts.
 */
void rbt_dump_cpu(struct kunit *test, struct rbt_buffer *buf, int cpu)
{
	struct rb_cpu_buffer *cb = buf->buffers[cpu];
	struct rb_page *p = cb->head_page, *start = p;
	unsigned long flags;
	int n = 0;

	raw_spin_lock_irqsave(&cb->reader_lock, flags);
	kunit_info(test, "cpu %d: nr_pages %lu entries %lu overrun %ld read %lu lost %lu last_overrun %lu\n",
		   cpu, cb->nr_pages, (unsigned long)local_read(&cb->entries),
		   local_read(&cb->overrun), cb->read, cb->lost_events, cb->last_overrun);
	kunit_info(test, "reader %p read %u write %lx commit %lx entries %lx; head %p tail %p commit %p\n",
		   cb->reader_page, cb->reader_page->read, local_read(&cb->reader_page->write),
		   rb_page_commit(cb->reader_page), local_read(&cb->reader_page->entries),
		   cb->head_page, cb->tail_page, cb->commit_page);
	do {
		kunit_info(test, "  page %p next %p flag %lu write %lx commit %lx entries %lx read %u\n",
			   p, rb_list_head(p->list.next),
			   (unsigned long)p->list.next & RB_FLAG_MASK, local_read(&p->write),
			   rb_page_commit(p), local_read(&p->entries), p->read);
		rb_inc_page(&p);
	} while (p != start && ++n < 64);
	raw_spin_unlock_irqrestore(&cb->reader_lock, flags);
}

/*
 * Bytes ftrace's rb_calculate_event_length() reserves for a payload of
 * @len on x86 (no forced 8-byte alignment): written out from ftrace's
 * rules, not taken from rbtrace, so that it can disagree.
 */
unsigned int rbt_ftrace_event_bytes(unsigned int len)
{
	unsigned int bytes = len ? len : 1;

	if (bytes > 4 * 28)			/* RB_MAX_SMALL_DATA */
		bytes += 4;			/* length in array[0] */
	bytes = ALIGN(bytes + 4, 4);		/* header, 4-byte aligned */
	if (bytes == 12)			/* room for extend + padding */
		bytes = 16;
	return bytes;
}

/* The context level (as interrupt_context_level()) each kind runs at. */
int rbt_nest_level(enum rbt_nest_kind kind)
{
	switch (kind) {
	case RBT_NEST_SOFTIRQ:
		return 1;
	case RBT_NEST_HRTIMER:
	case RBT_NEST_IRQ_WORK:
		return 2;
	default:
		return 3;
	}
}

static bool rbt_nest_run(struct rbt_nest_slot *s)
{
	if (atomic_cmpxchg(&s->state, RBT_SLOT_ARMED, RBT_SLOT_RUNNING) != RBT_SLOT_ARMED)
		return false;
	s->cpu = raw_smp_processor_id();
	s->level = interrupt_context_level();
	s->fn(s->arg);
	atomic_set_release(&s->state, RBT_SLOT_DONE);
	return true;
}

static void rbt_nest_tasklet(struct tasklet_struct *t)
{
	rbt_nest_run(&rbt_nester.slot[RBT_NEST_SOFTIRQ]);
}

static enum hrtimer_restart rbt_nest_hrtimer(struct hrtimer *t)
{
	rbt_nest_run(&rbt_nester.slot[RBT_NEST_HRTIMER]);
	return HRTIMER_NORESTART;
}

static void rbt_nest_irq_work(struct irq_work *w)
{
	rbt_nest_run(&rbt_nester.slot[RBT_NEST_IRQ_WORK]);
}

static int rbt_nest_nmi(unsigned int type, struct pt_regs *regs)
{
	/* Not ours unless armed: let the other NMI handlers have it. */
	return rbt_nest_run(&rbt_nester.slot[RBT_NEST_NMI]) ? NMI_HANDLED : NMI_DONE;
}

/* For a suite's suite_init: set up every kind of interrupt once. */
int rbt_nest_init(void)
{
	int i;

	for (i = 0; i < RBT_NEST_NR; i++)
		atomic_set(&rbt_nester.slot[i].state, RBT_SLOT_IDLE);
	tasklet_setup(&rbt_nester.tasklet, rbt_nest_tasklet);
	hrtimer_init(&rbt_nester.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	rbt_nester.timer.function = rbt_nest_hrtimer;
	init_irq_work(&rbt_nester.work, rbt_nest_irq_work);
	return 0;
}

void rbt_nest_exit(void)
{
	hrtimer_cancel(&rbt_nester.timer);
	irq_work_sync(&rbt_nester.work);
	tasklet_kill(&rbt_nester.tasklet);
}

/*
 * rbt_nest - run @fn(@arg) in an interrupt of @kind on this CPU, now
 *
 * Returns once @fn has run, so that it is nested exactly where the caller
 * stands. The caller must run at a shallower context than @kind, and
 * with interrupts enabled (preemption may be off).
 *
 * Return: 0; -EINVAL when @kind cannot nest here; -EBUSY when that kind
 * is already in use; -ETIMEDOUT when the interrupt never came; -EIO when
 * it ran on another CPU or at another context level than it should.
 */
int rbt_nest(enum rbt_nest_kind kind, void (*fn)(void *arg),
	     void *arg)
{
	struct rbt_nest_slot *s = &rbt_nester.slot[kind];
	int cpu = raw_smp_processor_id();
	u64 deadline;

	if (interrupt_context_level() >= rbt_nest_level(kind))
		return -EINVAL;
	/* Waiting for an interrupt with interrupts off would never end. */
	if (kind != RBT_NEST_NMI && irqs_disabled())
		return -EINVAL;
	if (kind == RBT_NEST_NMI && !rbt_nester.nmi_registered)
		return -EINVAL;
	if (atomic_read(&s->state) != RBT_SLOT_IDLE)
		return -EBUSY;
	s->fn = fn;
	s->arg = arg;
	s->cpu = -1;
	s->level = -1;
	atomic_set_release(&s->state, RBT_SLOT_ARMED);

	switch (kind) {
	case RBT_NEST_SOFTIRQ:
		tasklet_schedule(&rbt_nester.tasklet);
		break;
	case RBT_NEST_HRTIMER:
		hrtimer_start(&rbt_nester.timer, ns_to_ktime(1000),
			      HRTIMER_MODE_REL_PINNED_HARD);
		break;
	case RBT_NEST_IRQ_WORK:
		irq_work_queue(&rbt_nester.work);
		break;
	default:
#ifdef CONFIG_X86_LOCAL_APIC
		/*
		 * send_IPI_mask, not send_IPI_self: in x2APIC mode the
		 * self-IPI register cannot deliver an NMI.
		 */
		apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
#endif
		break;
	}

	deadline = ktime_get_mono_fast_ns() + RBT_NEST_TIMEOUT_NS;
	while (atomic_read_acquire(&s->state) != RBT_SLOT_DONE) {
		/* Task context: run the pending tasklet right here. */
		if (kind == RBT_NEST_SOFTIRQ) {
			local_bh_disable();
			local_bh_enable();
		}
		if (ktime_get_mono_fast_ns() > deadline &&
		    atomic_cmpxchg(&s->state, RBT_SLOT_ARMED, RBT_SLOT_IDLE) == RBT_SLOT_ARMED)
			return -ETIMEDOUT;
		cpu_relax();
	}
	atomic_set(&s->state, RBT_SLOT_IDLE);
	if (s->cpu != cpu || s->level != rbt_nest_level(kind))
		return -EIO;
	return 0;
}

/*
 * Decode @page up to @commit into @kev (at most @max records). Like
 * kbuffer: an absolute stamp sets the time, a time extend and every other
 * record (padding included) add their delta; a null padding (type 29,
 * delta 0) ends the page.
 *
 * Return: the number of records, or -EINVAL for a page that does not
 * decode (a length that runs past @commit, or a stamp without a record).
 */
int rbt_walk(struct rb_data_page *page, unsigned long commit,
	     struct rbt_kev *kev, int max)
{
	unsigned int off = 0, start = 0, prefix = 0;
	u64 ts = page->time_stamp;
	int n = 0;

	commit &= ~RB_MISSED_FLAGS;
	while (off < commit && n < max) {
		struct rbt_event *e = (void *)page->data + off;
		unsigned int bytes;

		switch (e->type_len) {
		case RB_TYPE_TIME_STAMP:
		case RB_TYPE_TIME_EXTEND:
			if (prefix || off + 8 > commit)
				return -EINVAL;
			if (e->type_len == RB_TYPE_TIME_STAMP)
				ts = ((u64)e->array[0] << RB_TS_SHIFT) | e->time_delta;
			else
				ts += ((u64)e->array[0] << RB_TS_SHIFT) | e->time_delta;
			prefix = e->type_len;
			start = off;
			off += 8;
			continue;
		case RB_TYPE_PADDING:
			if (!e->time_delta) {
				kev[n] = (struct rbt_kev){ .off = off, .type_len = 29,
							   .bytes = commit - off, .ts = ts };
				return n + 1;
			}
			bytes = e->array[0] + 4;
			break;
		case 0:
			bytes = e->array[0] + 4;
			break;
		default:
			bytes = e->type_len * 4 + 4;
			break;
		}
		if (bytes < 8 || off + bytes > commit)
			return -EINVAL;
		ts += e->time_delta;
		if (!prefix)
			start = off;
		kev[n++] = (struct rbt_kev){
			.off = start, .type_len = e->type_len, .prefix = prefix,
			.bytes = off + bytes - start, .delta = e->time_delta, .ts = ts,
			.data = e->type_len ? (void *)&e->array[0] : (void *)&e->array[1],
		};
		prefix = 0;
		off += bytes;
	}
	return prefix ? -EINVAL : n;
}

void rbt_scn_init(struct kunit *test, struct rbt_scn *s,
		  struct rbt_buffer *buf, int cpu,
		  u64 (*clock)(void), int max_rec)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->cpu = cpu;
	s->clock = clock;
	s->max_rec = max_rec;
	s->rec = kunit_kcalloc(test, max_rec, sizeof(*s->rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->rec);
	for (i = 0; i < RBT_SCN_LEVELS; i++)
		s->active[i] = -1;
	s->prng = 2463534242U;
	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, clock), 0);
}

static void rbt_scn_error(struct rbt_scn *s, int err)
{
	if (!s->errors++)
		s->first_error = err;
}

/*
 * Write one event of @len payload bytes (at least a struct rbt_scn_payload)
 * at the current context level; with @discard, reserve it and discard it.
 */
int rbt_scn_write(struct rbt_scn *s, unsigned int len, bool discard)
{
	int level = interrupt_context_level();
	struct rbt_scn_payload *p;
	struct rbt_scn_rec *r;
	struct rbt_event *ev;
	int id, l;

	if (s->nrec >= s->max_rec) {
		rbt_scn_error(s, -ENOSPC);
		return -1;
	}
	id = s->nrec++;
	r = &s->rec[id];
	r->level = level;
	r->parent = -1;
	r->pos = -1;
	r->discarded = discard;
	for (l = level - 1; l >= 0; l--) {
		if (s->active[l] >= 0) {
			r->parent = s->active[l];
			break;
		}
	}
	WRITE_ONCE(s->active[level], id);
	barrier();
	r->t_before = s->clock();
	ev = rbt_lock_reserve(s->buf, max_t(unsigned int, len, sizeof(*p)));
	if (ev) {
		p = rbt_event_data(ev);
		p->magic = RBT_SCN_MAGIC;
		p->id = id;
		p->t_before = r->t_before;
		if (discard)
			rbt_discard_commit(s->buf, ev);
		else
			rbt_unlock_commit(s->buf);
	}
	r->t_after = s->clock();
	r->reserved = ev;
	barrier();
	WRITE_ONCE(s->active[level], -1);
	return id;
}

/* What a nested interrupt does: the scenario's body, in order. */
static void rbt_scn_body(void *arg)
{
	struct rbt_scn *s = arg;
	int i;

	if (s->storm) {
		rbt_scn_write(s, 16, false);
		rbt_scn_write(s, 16 + 4 * (s->prng % 8), false);
		return;
	}
	for (i = 0; i < s->body_len; i++) {
		if (s->body[i] == RBT_SCN_JUMP)
			atomic64_add(RBT_SCN_JUMP_NS, &rbt_tick_ns);
		else
			rbt_scn_write(s, 16, s->body[i] == RBT_SCN_DISCARD);
	}
}

static u32 rbt_scn_rand(struct rbt_scn *s)
{
	u32 x = s->prng;	/* xorshift32: repeatable */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	s->prng = x;
	return x;
}

/* The reserve path's hook: interrupt the writer where the scenario says. */
static void rbt_scn_hook(struct rbt_buffer *buffer, int point)
{
	struct rbt_scn *s = READ_ONCE(rbt_scn_cur);
	int level = interrupt_context_level();
	enum rbt_nest_kind kind;
	int err;

	if (!s || buffer != s->buf || level >= RBT_SCN_LEVELS || s->active[level] < 0)
		return;
	if (s->storm) {
		u32 r = rbt_scn_rand(s);

		/* A task writer one time in four, deeper ones one in eight. */
		if (level >= 3 || (r & (level ? 7 : 3)))
			return;
		r >>= 8;
		switch (level) {
		case 0:
			kind = r % RBT_NEST_NR;
			break;
		case 1:
			kind = RBT_NEST_HRTIMER + r % 3;
			break;
		default:
			kind = RBT_NEST_NMI;
			break;
		}
	} else {
		if (!(s->fire[level] & BIT(point)))
			return;
		s->fire[level] &= ~BIT(point);
		kind = s->kind[level];
	}
	s->fired++;
	s->rec[s->active[level]].fired |= BIT(point);
	err = rbt_nest(kind, rbt_scn_body, s);
	if (err)
		rbt_scn_error(s, err);
}

static void rbt_scn_unhook(void *unused)
{
	WRITE_ONCE(rbt_test_hook, NULL);
	WRITE_ONCE(rbt_scn_cur, NULL);
}

/* Install the hook for @s until the case ends (however it ends). */
void rbt_scn_hook_on(struct kunit *test, struct rbt_scn *s)
{
	WRITE_ONCE(rbt_scn_cur, s);
	WRITE_ONCE(rbt_test_hook, rbt_scn_hook);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rbt_scn_unhook, NULL), 0);
}

/* Consume every event of the scenario's CPU and match it to its record. */
void rbt_scn_drain(struct rbt_scn *s)
{
	struct rbt_scn_payload *p;
	unsigned long lost = 0;
	struct rbt_event *ev;
	u64 ts, prev = 0;
	int n = 0;

	while ((ev = rbt_consume(s->buf, s->cpu, &ts, &lost))) {
		p = rbt_event_data(ev);
		s->lost += lost;
		if (rbt_event_length(ev) < sizeof(*p) || p->magic != RBT_SCN_MAGIC ||
		    p->id >= s->nrec || s->rec[p->id].pos >= 0 ||
		    s->rec[p->id].discarded) {
			s->foreign++;
			continue;
		}
		s->rec[p->id].ts = ts;
		s->rec[p->id].pos = n;
		if (n && ts < prev)
			s->backwards++;
		if (n && ts == prev)
			s->zero_deltas++;
		prev = ts;
		n++;
	}
	s->streamed = n;
}

/*
 * The checks every scenario must pass, after rbt_scn_drain(). @strict
 * (ticking clock): stamps lie strictly inside their windows, and the
 * events one nested writer wrote have strictly increasing stamps. With a
 * real clock two reads may be equal, so only <= is asked.
 */
void rbt_scn_check(struct kunit *test, struct rbt_scn *s, bool strict)
{
	int i, sib, kept = 0;

	KUNIT_EXPECT_EQ_MSG(test, s->errors, 0,
			    "%d nested interrupts failed, first with %d", s->errors,
			    s->first_error);
	KUNIT_EXPECT_EQ(test, s->foreign, 0);
	KUNIT_EXPECT_EQ_MSG(test, s->backwards, 0, "decoded stamps went backwards");
	KUNIT_EXPECT_EQ(test, s->lost, 0UL);
	for (i = 0; i < s->nrec; i++)
		kept += s->rec[i].reserved && !s->rec[i].discarded;
	KUNIT_EXPECT_EQ(test, s->streamed, kept);

	for (i = 0; i < s->nrec; i++) {
		struct rbt_scn_rec *r = &s->rec[i];
		struct rbt_scn_rec *pa = r->parent >= 0 ? &s->rec[r->parent] : NULL;
		bool ok;

		if (!r->reserved || r->discarded) {
			KUNIT_EXPECT_TRUE_MSG(test, r->reserved, "event %d not reserved", i);
			KUNIT_EXPECT_EQ_MSG(test, r->pos, -1, "discarded event %d was read", i);
			if (!r->reserved)
				break;
			continue;
		}
		if (r->pos < 0) {
			KUNIT_FAIL(test, "event %d (level %d) missing from the buffer",
				   i, r->level);
			break;
		}
		ok = strict ? r->t_before < r->ts && r->ts < r->t_after :
			      r->t_before <= r->ts && r->ts <= r->t_after;
		if (!ok) {
			KUNIT_FAIL(test,
				   "event %d (level %d): stamp %llu outside its window [%llu, %llu]",
				   i, r->level, r->ts, r->t_before, r->t_after);
			break;
		}
		if (pa) {
			KUNIT_EXPECT_GT_MSG(test, r->level, pa->level, "event %d", i);
			ok = strict ? pa->t_before < r->ts && r->ts < pa->t_after :
				      pa->t_before <= r->ts && r->ts <= pa->t_after;
			if (!ok) {
				KUNIT_FAIL(test,
					   "nested event %d: stamp %llu outside parent %d's window [%llu, %llu]",
					   i, r->ts, r->parent, pa->t_before, pa->t_after);
				break;
			}
		}
		if (!pa)
			continue;
		/*
		 * Siblings (events nested in one parent) were written one
		 * after the other: their stamps must increase. Ids grow in
		 * real time, so the sibling before lies between the parent
		 * and us.
		 */
		for (sib = i - 1; sib > r->parent; sib--)
			if (s->rec[sib].parent == r->parent && s->rec[sib].reserved &&
			    !s->rec[sib].discarded)
				break;
		if (sib > r->parent) {
			u64 before = s->rec[sib].ts;

			ok = strict ? r->ts > before : r->ts >= before;
			if (!ok) {
				KUNIT_FAIL(test,
					   "nested events %d and %d: stamps %llu then %llu do not increase",
					   sib, i, before, r->ts);
				break;
			}
		}
	}
}

/*
 * The module's one NMI handler, for every suite: registered before KUnit
 * runs the suites (they run once the module is live) and removed after.
 */
static int __init rbt_kunit_init(void)
{
#ifdef CONFIG_X86_LOCAL_APIC
	if (register_nmi_handler(NMI_LOCAL, rbt_nest_nmi, 0, "rbt_kunit"))
		return -EBUSY;
	rbt_nester.nmi_registered = true;
#endif
	return 0;
}

static void __exit rbt_kunit_exit(void)
{
#ifdef CONFIG_X86_LOCAL_APIC
	if (rbt_nester.nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "rbt_kunit");
	rbt_nester.nmi_registered = false;
#endif
}

module_init(rbt_kunit_init);
module_exit(rbt_kunit_exit);
MODULE_DESCRIPTION("KUnit tests of rbtrace: format, nesting, discard, accounting, clocks, duration filter");
MODULE_LICENSE("GPL");
