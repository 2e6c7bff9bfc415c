// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the write path at the edges of its ranges.
 *
 *  - The write index of a page holds the page's size plus one reservation
 *    in flight for every writer nested on the CPU. At the largest
 *    sub-buffers a maximum-size event fills a page exactly; the next one
 *    takes the index to twice the page size, and writers that nest at its
 *    step C (RBT_HOOK_C) add their own lengths on top before any of them
 *    moves the tail. The hook does not nest a writer whose reservation
 *    would carry the index into the updater count, and each writer checks
 *    that its event lies inside a sub-buffer of the ring before it fills
 *    the payload: a narrow index then fails the case instead of writing
 *    over memory the buffer does not own. Every page must be within its
 *    size and decode, and the drained stream must hold every event whole,
 *    in order, with its stamp inside the window of clock reads around it.
 *  - A clock that steps back: the event must repeat the stamp of the one
 *    before it (delta 0, counted in ts_lost), not carry a time extend of
 *    the wrapped difference, about 2^59 ns (18 years).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "rbt_kunit.h"

#define WL_MAX_DEPTH	4	/* task, softirq, hard IRQ, NMI */
#define WL_MAX_RECS	8
#define WL_PAGES	8	/* the deepest stack uses five sub-buffers */
#define WL_MAGIC	0x776c6d74	/* "wlmt" */
#define WL_MAX_LEN	0	/* in a stack: the largest payload */

struct wl_payload {
	u32	magic;
	u32	id;
};

/* One event of the scenario. */
struct wl_rec {
	unsigned int	len;		/* payload bytes */
	u64		t_before;	/* clock before rbt_lock_reserve() */
	u64		t_after;	/* clock after rbt_unlock_commit() */
	bool		reserved;
	bool		in_ring;	/* inside one sub-buffer of the ring */
	bool		sparse;		/* payload filled sparsely (in NMI) */
};

struct wl_stack {
	const char		*name;
	unsigned int		order;
	int			depth;			/* writers, task first */
	unsigned int		len[WL_MAX_DEPTH];	/* payload, or WL_MAX_LEN */
	enum rbt_nest_kind	kind[WL_MAX_DEPTH];	/* where writer i > 0 runs */
};

struct wl_ctx {
	const struct wl_stack	*p;
	struct rbt_buffer	*buf;
	int			cpu;
	unsigned int		max_len;
	bool			armed;		/* the hook nests at step C */
	bool			fired[WL_MAX_DEPTH];
	int			cur;		/* writer of the stack running, or -1 */
	int			next;		/* writer the hook starts */
	int			nest_err;
	unsigned long		carry;		/* an index that would not fit */
	unsigned long		top;		/* largest index + nested bytes seen */
	struct wl_rec		rec[WL_MAX_RECS];
	int			nrec;
};

static struct wl_ctx *wl_cur;

#define WL_SPARSE	1024	/* an NMI fills one payload byte in this many */

static u8 wl_fill(int id)
{
	return 0x25 * id + 1;
}

/* Set *@p to @v, or (@check) tell whether it holds @v. */
static bool wl_byte(u8 *p, u8 v, bool check)
{
	if (check)
		return *p == v;
	*p = v;
	return true;
}

/*
 * Fill the payload after the header, or check it. An NMI writer fills a
 * byte every WL_SPARSE and the last one: the whole of a 512 KiB payload
 * takes over a millisecond under TCG, which the NMI code reports.
 */
static bool wl_payload(struct wl_payload *pl, unsigned int len, int id, bool sparse,
		       bool check)
{
	unsigned int n = len - sizeof(*pl), step = sparse ? WL_SPARSE : 1, i;
	u8 *p = (u8 *)(pl + 1);

	for (i = 0; i < n; i += step)
		if (!wl_byte(&p[i], wl_fill(id), check))
			return false;
	return !n || wl_byte(&p[n - 1], wl_fill(id), check);
}

/*
 * Is [@ev, @ev + @bytes) inside the data of one sub-buffer of the ring
 * (or of the reader page)? Walked from the tail page: the writer runs on
 * this CPU with nothing moving the pages but itself.
 */
static bool wl_in_ring(struct wl_ctx *c, void *ev, unsigned int bytes)
{
	struct rb_cpu_buffer *cb = rbt_cpu(c->buf, c->cpu);
	unsigned long size = rbt_subbuf_size(c->buf);
	struct rb_page *p = READ_ONCE(cb->tail_page), *start = p;
	unsigned long n = 0;

	if ((void *)cb->reader_page->page->data <= ev &&
	    ev + bytes <= (void *)cb->reader_page->page->data + size)
		return true;
	do {
		if ((void *)p->page->data <= ev && ev + bytes <= (void *)p->page->data + size)
			return true;
		rb_inc_page(&p);
	} while (p != start && ++n <= cb->nr_pages);
	return false;
}

/* Write one event of @len payload bytes at the current context level. */
static void wl_write(struct wl_ctx *c, unsigned int len)
{
	struct wl_rec *r = &c->rec[c->nrec];
	struct wl_payload *pl;
	struct rbt_event *ev;
	int id = c->nrec++;

	r->len = len;
	r->t_before = rbt_tick_clock();
	ev = rbt_lock_reserve(c->buf, len);
	if (ev) {
		r->reserved = true;
		r->in_ring = wl_in_ring(c, ev, rb_calculate_event_length(len));
		/* Outside the ring: the header is there already, add nothing. */
		if (r->in_ring) {
			pl = rbt_event_data(ev);
			pl->magic = WL_MAGIC;
			pl->id = id;
			r->sparse = in_nmi();
			wl_payload(pl, len, id, r->sparse, false);
		}
		rbt_unlock_commit(c->buf);
	}
	r->t_after = rbt_tick_clock();
}

static unsigned int wl_len(struct wl_ctx *c, int i)
{
	return c->p->len[i] == WL_MAX_LEN ? c->max_len : c->p->len[i];
}

/* Writer i of the stack, run in an interrupt by the hook of writer i - 1. */
static void wl_nested(void *arg)
{
	struct wl_ctx *c = arg;
	int outer = c->cur;

	c->cur = c->next;
	wl_write(c, wl_len(c, c->cur));
	c->cur = outer;
}

/* At the first step C of each writer of the stack, nest the next one. */
static void wl_hook(struct rbt_buffer *buffer, int point)
{
	struct wl_ctx *c = READ_ONCE(wl_cur);
	unsigned long index, bytes;
	int i, err;

	if (!c || buffer != c->buf || point != RBT_HOOK_C || !c->armed)
		return;
	i = c->cur;
	if (i < 0 || i + 1 >= c->p->depth || c->fired[i])
		return;
	c->fired[i] = true;
	c->next = i + 1;
	/*
	 * Where the nested reservation would carry the index into the
	 * updater count, the event would be written at a wrapped tail,
	 * outside the page (a page fault or memory corruption, not a
	 * failed expectation): count it and do not nest.
	 */
	index = rb_page_write(READ_ONCE(rbt_cpu(c->buf, c->cpu)->tail_page));
	bytes = rb_calculate_event_length(wl_len(c, i + 1)) + RB_LEN_TIME_EXTEND;
	c->top = max(c->top, index + bytes);
	if (index + bytes > RB_WRITE_MASK) {
		c->carry = index + bytes;
		return;
	}
	err = rbt_nest(c->p->kind[i + 1], wl_nested, c);
	if (err && !c->nest_err)
		c->nest_err = err;
}

static void wl_unhook(void *unused)
{
	WRITE_ONCE(rbt_test_hook, NULL);
	WRITE_ONCE(wl_cur, NULL);
}

/*
 * Every page of the ring and the reader page: the write index and the
 * commit word within the sub-buffer, and the committed data decodes.
 */
static void wl_check_pages(struct kunit *test, struct wl_ctx *c)
{
	struct rbt_kev *kev = kunit_kcalloc(test, WL_MAX_RECS + 2, sizeof(*kev), GFP_KERNEL);
	struct rb_cpu_buffer *cb = rbt_cpu(c->buf, c->cpu);
	unsigned long size = rbt_subbuf_size(c->buf);
	struct rb_page *p = cb->reader_page;
	int n = 0, events = 0, ret;

	KUNIT_ASSERT_NOT_NULL(test, kev);
	for (;;) {
		KUNIT_ASSERT_LE_MSG(test, rb_page_write(p), size, "page %d: write index", n);
		KUNIT_ASSERT_LE_MSG(test, rb_page_size(p), size, "page %d: commit", n);
		ret = rbt_walk(p->page, rb_page_commit(p), kev, WL_MAX_RECS + 2);
		KUNIT_ASSERT_GE_MSG(test, ret, 0, "page %d does not decode", n);
		while (ret--)
			events += kev[ret].type_len != RB_TYPE_PADDING;
		if (!n++)
			p = cb->head_page;
		else
			rb_inc_page(&p);
		if (p == cb->head_page && n > 1)
			break;
		KUNIT_ASSERT_LE(test, n, (int)cb->nr_pages + 1);
	}
	KUNIT_EXPECT_EQ(test, events, c->nrec);
}

/*
 * A maximum-size event fills the first page; a second one is interrupted
 * at its step C, at the page's end, by the stack of @p; then check.
 */
static void wl_run_stack(struct kunit *test, const struct wl_stack *p)
{
	struct wl_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct rbt_cpu_stats st;
	struct rbt_event *ev;
	u64 ts, prev = 0;
	unsigned long lost;
	int i, k;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->p = p;
	c->buf = rbt_kunit_alloc(test, WL_PAGES * (PAGE_SIZE << p->order), 0, p->order);
	c->cpu = rbt_kunit_pin(test);
	c->max_len = rbt_max_event_size(c->buf);
	c->cur = -1;
	KUNIT_ASSERT_EQ(test, rbt_set_clock(c->buf, rbt_tick_clock), 0);
	if (p->kind[p->depth - 1] == RBT_NEST_NMI)
		KUNIT_ASSERT_TRUE(test, rbt_nester.nmi_registered);
	WRITE_ONCE(wl_cur, c);
	WRITE_ONCE(rbt_test_hook, wl_hook);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, wl_unhook, NULL), 0);

	wl_write(c, c->max_len);
	KUNIT_ASSERT_EQ(test, rbt_tail_write(c->buf, c->cpu),
			(unsigned long)rbt_subbuf_size(c->buf));
	c->cur = 0;
	c->armed = true;
	wl_write(c, wl_len(c, 0));
	c->armed = false;
	c->cur = -1;

	KUNIT_EXPECT_EQ_MSG(test, c->carry, 0UL,
			    "the write index (mask %#lx) cannot hold the nested reservation",
			    RB_WRITE_MASK);
	KUNIT_EXPECT_EQ(test, c->nest_err, 0);
	KUNIT_ASSERT_EQ(test, c->nrec, p->depth + 1);
	/* The stack did pile up past a 20-bit index, as the did. */
	KUNIT_EXPECT_GT(test, c->top, 0xfffffUL);
	for (i = 0; i < c->nrec; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, c->rec[i].reserved, "event %d", i);
		KUNIT_EXPECT_TRUE_MSG(test, c->rec[i].in_ring,
				      "event %d (%u bytes) written outside the ring's pages",
				      i, c->rec[i].len);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&c->buf->record_disabled), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rbt_cpu(c->buf, c->cpu)->refuse), 0);
	wl_check_pages(test, c);

	st = rbt_stats(test, c->buf, c->cpu);
	KUNIT_EXPECT_EQ(test, st.written, (u64)c->nrec);
	KUNIT_EXPECT_EQ(test, st.dropped + st.commit_overrun + st.overrun, 0ULL);
	KUNIT_EXPECT_EQ(test, st.too_big + st.recursion, 0ULL);

	/*
	 * The deepest writer completes first and takes the next page; each
	 * one it interrupted retries after it: 0, then depth down to 1.
	 */
	for (k = 0; (ev = rbt_consume(c->buf, c->cpu, &ts, &lost)); k++) {
		struct wl_payload *pl = rbt_event_data(ev);
		int want = k ? c->nrec - k : 0;
		struct wl_rec *r;

		KUNIT_ASSERT_LT(test, k, c->nrec);
		KUNIT_EXPECT_EQ(test, lost, 0UL);
		KUNIT_ASSERT_EQ(test, pl->magic, (u32)WL_MAGIC);
		KUNIT_ASSERT_EQ_MSG(test, pl->id, (u32)want, "stream position %d", k);
		r = &c->rec[want];
		KUNIT_EXPECT_EQ_MSG(test, rbt_event_length(ev), r->len, "event %d", want);
		KUNIT_EXPECT_TRUE_MSG(test, wl_payload(pl, r->len, want, r->sparse, true),
				      "event %d: payload changed", want);
		KUNIT_EXPECT_GT_MSG(test, ts, r->t_before, "event %d", want);
		KUNIT_EXPECT_LT_MSG(test, ts, r->t_after, "event %d", want);
		KUNIT_EXPECT_GT_MSG(test, ts, prev, "event %d", want);
		prev = ts;
	}
	KUNIT_EXPECT_EQ(test, k, c->nrec);
}

#define M	WL_MAX_LEN

/*
 * With the 20-bit index of before the fix, every stack here carried the
 * index into the updater count: the masked index came out small, the
 * tail below zero, and the nested event was written 4 GiB less a few
 * bytes past its page (the index of rb_page_index() is an unsigned int):
 * a page fault in rb_add_time_stamp() from the hrtimer of the first stack.
 */
static const struct wl_stack wl_stacks[] = {
	{ "order 7: softirq 16, hrtimer 16, NMI 32", 7, 4, { M, 16, 16, 32 },
	  { 0, RBT_NEST_SOFTIRQ, RBT_NEST_HRTIMER, RBT_NEST_NMI } },
	{ "order 7: softirq 12, NMI 32", 7, 3, { M, 12, 32 },
	  { 0, RBT_NEST_SOFTIRQ, RBT_NEST_NMI } },
	{ "order 7: NMI 32", 7, 2, { M, 32 }, { 0, RBT_NEST_NMI } },
	{ "order 7: irq_work 32", 7, 2, { M, 32 }, { 0, RBT_NEST_IRQ_WORK } },
	{ "order 7: softirq max, hrtimer max, NMI max", 7, 4, { M, M, M, M },
	  { 0, RBT_NEST_SOFTIRQ, RBT_NEST_HRTIMER, RBT_NEST_NMI } },
	{ "order 6: softirq max, irq_work max, NMI max", 6, 4, { M, M, M, M },
	  { 0, RBT_NEST_SOFTIRQ, RBT_NEST_IRQ_WORK, RBT_NEST_NMI } },
};

#undef M

static void wl_stack_desc(const struct wl_stack *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wl_stacks, wl_stacks, wl_stack_desc);

static void rbtrace_write_limits_nested_at_page_end(struct kunit *test)
{
	wl_run_stack(test, test->param_value);
}

/*
 * The clock steps back from 2000 to 1500 on one page: that event and the
 * one at 1600 repeat the stamp 2000 (delta 0, no time extend), counted in
 * ts_lost; the stamps are exact again once the clock passes 2000. A step
 * back of more than a 27-bit delta (to 1) is the same.
 */
static void rbtrace_write_limits_clock_steps_back(struct kunit *test)
{
	static const u64 clock[] = { 1000, 2000, 1500, 1600, 2500, 1, 2600 };
	static const u64 want[] = { 1000, 2000, 2000, 2000, 2500, 2500, 2600 };
	const int nr = ARRAY_SIZE(clock);
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	struct rbt_kev kev[ARRAY_SIZE(clock)];
	int cpu = rbt_kunit_pin(test);
	struct rb_page *tail = rbt_cpu(buf, cpu)->tail_page;
	struct rbt_cpu_stats st;
	struct rbt_event *ev;
	int i, n;
	u32 seq;
	u64 ts;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	for (seq = 0; seq < nr; seq++) {
		rbt_fake_set(clock[seq]);
		KUNIT_ASSERT_EQ(test, rbt_write(buf, sizeof(seq), &seq), 0);
	}
	st = rbt_stats(test, buf, cpu);

	/* One page, plain deltas: nothing needed a time extend. */
	KUNIT_ASSERT_PTR_EQ(test, rbt_cpu(buf, cpu)->tail_page, tail);
	n = rbt_walk(tail->page, rb_page_commit(tail), kev, nr);
	KUNIT_ASSERT_EQ(test, n, nr);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, kev[i].prefix, 0U, "event %d", i);
		KUNIT_EXPECT_EQ_MSG(test, kev[i].ts, want[i], "event %d", i);
	}

	for (i = 0; (ev = rbt_consume(buf, cpu, &ts, NULL)); i++) {
		KUNIT_ASSERT_LT(test, i, nr);
		KUNIT_EXPECT_EQ(test, *(u32 *)rbt_event_data(ev), (u32)i);
		KUNIT_EXPECT_EQ_MSG(test, ts, want[i], "event %d, clock %llu", i, clock[i]);
	}
	KUNIT_EXPECT_EQ(test, i, nr);
	KUNIT_EXPECT_EQ(test, st.written, (u64)nr);
	KUNIT_EXPECT_EQ(test, st.ts_lost, 3ULL);
}

static int rbtrace_write_limits_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_write_limits_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_write_limits_cases[] = {
	KUNIT_CASE(rbtrace_write_limits_clock_steps_back),
	KUNIT_CASE_PARAM(rbtrace_write_limits_nested_at_page_end, wl_stacks_gen_params),
	{}
};

static struct kunit_suite rbtrace_write_limits_suite = {
	.name = "rbtrace_write_limits",
	.suite_init = rbtrace_write_limits_suite_init,
	.suite_exit = rbtrace_write_limits_suite_exit,
	.test_cases = rbtrace_write_limits_cases,
};

kunit_test_suite(rbtrace_write_limits_suite);

