// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: rbt_discard_commit() and rbt_discard().
 *
 * An event discarded while it is still the last one on the tail page
 * gives its bytes back (the write index moves back by one cmpxchg) and
 * the next event takes an absolute stamp, as write_stamp still holds the
 * discarded one's. An event that is not last any more (an interrupt wrote
 * after it) turns into padding that readers skip. Either way the events
 * before it are untouched, and the stamps of the events after it must
 * decode exactly: checked with rbtrace's reader and with a kbuffer-style
 * walk of the page, on a fake clock the test moves.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "rbt_kunit.h"

struct dsc_payload {
	u32	id;
	u32	pad[3];
};

static void dsc_fill(struct rbt_event *ev, u32 id)
{
	struct dsc_payload *p = rbt_event_data(ev);

	p->id = id;
	memset(p->pad, 0xa5, sizeof(p->pad));
}

/* Commit one event of id @id at fake time @t. */
static void dsc_write(struct kunit *test, struct rbt_buffer *buf, u32 id, u64 t)
{
	struct rbt_event *ev;

	rbt_fake_set(t);
	ev = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	dsc_fill(ev, id);
	rbt_unlock_commit(buf);
}

/* Drain @cpu: expect exactly the events @ids, at the times @ts. */
static void dsc_expect_stream(struct kunit *test, struct rbt_buffer *buf, int cpu,
			      const u32 *ids, const u64 *ts, int n)
{
	unsigned long lost;
	struct rbt_event *ev;
	u64 t;
	int i;

	for (i = 0; i < n; i++) {
		ev = rbt_consume(buf, cpu, &t, &lost);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "event %d of %d missing", i, n);
		KUNIT_EXPECT_EQ(test, ((struct dsc_payload *)rbt_event_data(ev))->id, ids[i]);
		KUNIT_EXPECT_EQ_MSG(test, t, ts[i], "stamp of event id %u", ids[i]);
		KUNIT_EXPECT_EQ(test, lost, 0UL);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
}

static const unsigned int dsc_orders[] = { 0, 2 };

static void dsc_order_desc(const unsigned int *order, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "order %u", *order);
}

KUNIT_ARRAY_PARAM(dsc_orders, dsc_orders, dsc_order_desc);

static void rbtrace_discard_last_event_reclaims_space(struct kunit *test)
{
	unsigned int order = *(const unsigned int *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * (PAGE_SIZE << order), 0, order);
	int cpu = rbt_kunit_pin(test);
	static const u32 ids[] = { 1, 3 };
	static const u64 ts[] = { 100, 300 };
	struct rbt_cpu_stats st0, st1;
	struct rbt_event *ev2, *ev3;
	struct rbt_kev kev[4];
	unsigned long w0;
	int n;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	dsc_write(test, buf, 1, 100);
	st0 = rbt_stats(test, buf, cpu);
	w0 = rbt_tail_write(buf, cpu);

	rbt_fake_set(200);
	ev2 = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev2);
	dsc_fill(ev2, 2);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w0 + 20);
	rbt_discard_commit(buf, ev2);

	/* Its bytes are back, and nothing counts it. */
	st1 = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w0);
	KUNIT_EXPECT_EQ(test, st1.written, st0.written);
	KUNIT_EXPECT_EQ(test, st1.entries, 1ULL);
	KUNIT_EXPECT_EQ(test, st1.bytes, st0.bytes);

	/* The next event takes its place, with an absolute stamp. */
	rbt_fake_set(300);
	ev3 = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev3);
	KUNIT_EXPECT_PTR_EQ(test, (void *)ev3, (void *)ev2);
	KUNIT_EXPECT_EQ(test, (u32)ev3->type_len, (u32)RB_TYPE_TIME_STAMP);
	dsc_fill(ev3, 3);
	rbt_unlock_commit(buf);

	n = rbt_walk(rbt_cpu(buf, cpu)->tail_page->page, rbt_tail_write(buf, cpu), kev, 4);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, kev[0].ts, 100ULL);
	KUNIT_EXPECT_EQ(test, kev[1].ts, 300ULL);
	KUNIT_EXPECT_EQ(test, kev[1].type_len, 4U);	/* 16 bytes of payload */
	dsc_expect_stream(test, buf, cpu, ids, ts, 2);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).bytes, 0ULL);
}

/*
 * The first event of a page reclaimed: the page is empty again, and the
 * next event starts it, on its own stamp.
 */
static void rbtrace_discard_first_on_page_reclaims_page_start(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	int cpu = rbt_kunit_pin(test);
	static const u32 ids[] = { 2 };
	static const u64 ts[] = { 5000 };
	struct rbt_event *ev;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	rbt_fake_set(4000);
	ev = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), 20UL);
	rbt_discard_commit(buf, ev);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), 0UL);
	KUNIT_EXPECT_TRUE(test, rbt_empty_cpu(buf, cpu));

	dsc_write(test, buf, 2, 5000);
	KUNIT_EXPECT_EQ(test, rbt_cpu(buf, cpu)->tail_page->page->time_stamp, 5000ULL);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), 20UL);
	dsc_expect_stream(test, buf, cpu, ids, ts, 1);
}

struct dsc_nested {
	struct rbt_buffer	*buf;
	u64			t;
	u32			id;
	bool			ok;
};

static void dsc_nested_write(void *arg)
{
	struct dsc_nested *n = arg;
	struct rbt_event *ev;

	rbt_fake_set(n->t);
	ev = rbt_lock_reserve(n->buf, sizeof(struct dsc_payload));
	n->ok = ev;
	if (ev) {
		dsc_fill(ev, n->id);
		rbt_unlock_commit(n->buf);
	}
}

/*
 * e2 is reserved; an interrupt writes e3 after it; e2 is discarded. It
 * cannot be reclaimed, so it becomes padding with its length and its
 * delta (e3's delta is from e2). Readers skip it; e3 and the events after
 * keep their exact stamps, both in rbtrace's reader and as kbuffer (which
 * adds a padding's delta) decodes the page.
 *
 * "stamped": e2 carries an absolute stamp (it follows a reclaimed
 * discard), so its own delta is 0, and padding cannot have delta 0 (that
 * is the null padding that ends a page). "first": e2 is the first event
 * of its page, whose stamp is the page's: its delta is 0 too.
 */
enum dsc_case { DSC_DELTA, DSC_STAMPED, DSC_FIRST };

static const enum dsc_case dsc_cases[] = { DSC_DELTA, DSC_STAMPED, DSC_FIRST };

static void dsc_case_desc(const enum dsc_case *c, char *desc)
{
	static const char * const names[] = {
		"delta 100", "stamped, delta 0", "first on page, delta 0",
	};

	strscpy(desc, names[*c], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dsc_cases, dsc_cases, dsc_case_desc);

static void rbtrace_discard_non_last_becomes_padding(struct kunit *test)
{
	enum dsc_case c = *(const enum dsc_case *)test->param_value;
	bool stamped = c == DSC_STAMPED;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	int cpu = rbt_kunit_pin(test);
	static const u32 ids[] = { 1, 3, 4 };
	static const u64 ts[] = { 100, 250, 300 };
	struct dsc_nested nest = { .buf = buf, .t = 250, .id = 3 };
	unsigned int pre = stamped ? 8 : 0, skip = c == DSC_FIRST;
	struct rb_data_page *page;
	struct rbt_event *ev2, *pad;
	struct rbt_cpu_stats st;
	struct rbt_kev kev[6];
	unsigned long w0;
	int n;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	if (c != DSC_FIRST)
		dsc_write(test, buf, 1, 100);
	w0 = rbt_tail_write(buf, cpu);
	if (stamped) {
		ev2 = rbt_lock_reserve(buf, 16);
		KUNIT_ASSERT_NOT_NULL(test, ev2);
		rbt_discard_commit(buf, ev2);
		KUNIT_ASSERT_EQ(test, rbt_tail_write(buf, cpu), w0);
	}
	rbt_fake_set(200);
	ev2 = rbt_lock_reserve(buf, 40);
	KUNIT_ASSERT_NOT_NULL(test, ev2);
	/* 40 bytes of payload: type_len 10, behind an absolute stamp or not. */
	KUNIT_EXPECT_EQ(test, (u32)ev2->type_len, stamped ? (u32)RB_TYPE_TIME_STAMP : 10U);
	dsc_fill(ev2, 2);
	KUNIT_ASSERT_EQ(test, rbt_nest(RBT_NEST_IRQ_WORK, dsc_nested_write, &nest), 0);
	KUNIT_ASSERT_TRUE(test, nest.ok);
	rbt_discard_commit(buf, ev2);

	/* e2's 44 bytes stay, as padding: type 29, its length, a delta. */
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu),
			w0 + pre + rb_calculate_event_length(40) +
			rb_calculate_event_length(sizeof(struct dsc_payload)));
	pad = (void *)ev2 + pre;
	KUNIT_EXPECT_EQ(test, (u32)pad->type_len, (u32)RB_TYPE_PADDING);
	KUNIT_EXPECT_NE(test, (u32)pad->time_delta, 0U);
	if (c == DSC_DELTA)
		KUNIT_EXPECT_EQ(test, (u32)pad->time_delta, 100U);
	KUNIT_EXPECT_EQ(test, pad->array[0], 40U);

	dsc_write(test, buf, 4, 300);
	st = rbt_stats(test, buf, cpu);
	/* Counted as discarded, not as reclaimed (the stamped case's first was). */
	KUNIT_EXPECT_EQ(test, st.discarded, 1ULL + stamped);
	KUNIT_EXPECT_EQ(test, st.reclaimed, (u64)stamped);
	KUNIT_EXPECT_EQ(test, st.written, 3ULL - skip);
	KUNIT_EXPECT_EQ(test, st.entries, 3ULL - skip);

	/* The page as kbuffer decodes it. */
	page = rbt_cpu(buf, cpu)->tail_page->page;
	n = rbt_walk(page, rbt_tail_write(buf, cpu), kev, ARRAY_SIZE(kev));
	KUNIT_ASSERT_EQ(test, n, 4 - (int)skip);
	if (!skip)
		KUNIT_EXPECT_EQ(test, kev[0].ts, 100ULL);
	KUNIT_EXPECT_EQ(test, kev[1 - skip].type_len, (unsigned int)RB_TYPE_PADDING);
	KUNIT_EXPECT_EQ(test, kev[1 - skip].bytes, pre + 44);
	KUNIT_EXPECT_EQ_MSG(test, kev[2 - skip].ts, 250ULL, "kbuffer's stamp after the padding");
	KUNIT_EXPECT_EQ_MSG(test, kev[3 - skip].ts, 300ULL, "kbuffer's stamp after the padding");

	/* rbtrace's reader must agree. */
	dsc_expect_stream(test, buf, cpu, ids + skip, ts + skip, 3 - skip);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.read, 3ULL - skip);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
}

/*
 * rbt_discard() finds the header from the payload and its length: one
 * word before a small payload, two before one over RB_MAX_SMALL_DATA
 * (its length is in array[0]). Either side of the limit, the event last
 * on the page gives its bytes back and is counted as discarded and
 * reclaimed; the event before it is untouched.
 */
static const unsigned int dsc_lengths[] = { 4, 16, RB_MAX_SMALL_DATA, RB_MAX_SMALL_DATA + 1, 300 };

static void dsc_length_desc(const unsigned int *len, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u-byte payload", *len);
}

KUNIT_ARRAY_PARAM(dsc_lengths, dsc_lengths, dsc_length_desc);

static void rbtrace_discard_payload_finds_its_header(struct kunit *test)
{
	unsigned int len = *(const unsigned int *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	int cpu = rbt_kunit_pin(test);
	static const u32 ids[] = { 1, 3 };
	static const u64 ts[] = { 100, 300 };
	struct rbt_cpu_stats st;
	unsigned long w0;
	u8 *p;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	dsc_write(test, buf, 1, 100);
	w0 = rbt_tail_write(buf, cpu);

	rbt_fake_set(200);
	p = rbt_reserve(buf, len);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w0 + rb_calculate_event_length(len));
	memset(p, 0x5a, len);
	rbt_discard(buf, p, len);

	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w0);
	KUNIT_EXPECT_EQ(test, st.discarded, 1ULL);
	KUNIT_EXPECT_EQ(test, st.reclaimed, 1ULL);
	KUNIT_EXPECT_EQ(test, st.entries, 1ULL);

	dsc_write(test, buf, 3, 300);
	dsc_expect_stream(test, buf, cpu, ids, ts, 2);
	rbt_reset(buf);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.discarded, 0ULL);
	KUNIT_EXPECT_EQ(test, st.reclaimed, 0ULL);
}

/*
 * An event with a stamp in front (a time extend, or an absolute stamp in
 * absolute mode) discarded while last: all its bytes come back, stamp
 * included, in the page and in the byte count.
 */
static const bool dsc_abs_modes[] = { false, true };

static void dsc_abs_desc(const bool *abs, char *desc)
{
	strscpy(desc, *abs ? "absolute stamp" : "time extend", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dsc_abs, dsc_abs_modes, dsc_abs_desc);

static void rbtrace_discard_reclaims_stamp_too(struct kunit *test)
{
	bool abs = *(const bool *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, abs ? RBT_FL_ABS_TS : 0, 0);
	u64 t2 = 100 + (abs ? 50 : 1ULL << 28);
	int cpu = rbt_kunit_pin(test);
	static const u32 ids[] = { 1, 3 };
	u64 ts[] = { 100, t2 + 10 };
	struct rbt_cpu_stats st0, st1;
	struct rbt_event *ev;
	unsigned long w0;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	dsc_write(test, buf, 1, 100);
	st0 = rbt_stats(test, buf, cpu);
	w0 = rbt_tail_write(buf, cpu);

	rbt_fake_set(t2);
	ev = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, (u32)ev->type_len,
			(u32)(abs ? RB_TYPE_TIME_STAMP : RB_TYPE_TIME_EXTEND));
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu),
			w0 + RB_LEN_TIME_EXTEND +
			rb_calculate_event_length(sizeof(struct dsc_payload)));
	dsc_fill(ev, 2);
	rbt_discard_commit(buf, ev);

	st1 = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w0);
	KUNIT_EXPECT_EQ(test, st1.written, st0.written);
	KUNIT_EXPECT_EQ_MSG(test, st1.bytes, st0.bytes,
			    "bytes of the reclaimed event and its stamp still counted");

	dsc_write(test, buf, 3, t2 + 10);
	dsc_expect_stream(test, buf, cpu, ids, ts, 2);
	KUNIT_EXPECT_EQ_MSG(test, rbt_stats(test, buf, cpu).bytes, 0ULL,
			    "bytes left over in an empty buffer");
}

/*
 * Discards from an interrupt at each step of an outer writer's
 * reservation: the interrupt writes one event and discards the next
 * (which is last, so reclaimed). Every surviving event, outer and nested,
 * must decode inside its clock window, and nothing must be left over.
 */
static const enum rbt_scn_op dsc_body[] = { RBT_SCN_WRITE, RBT_SCN_DISCARD };

struct dsc_step {
	const char	*name;
	unsigned int	points;
};

static const struct dsc_step dsc_steps[] = {
	{ "A", BIT(RBT_HOOK_A) }, { "B", BIT(RBT_HOOK_B) }, { "C", BIT(RBT_HOOK_C) },
	{ "D", BIT(RBT_HOOK_D) }, { "B+E", BIT(RBT_HOOK_B) | BIT(RBT_HOOK_E) },
	{ "COMMIT", BIT(RBT_HOOK_COMMIT) },
};

static void dsc_step_desc(const struct dsc_step *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dsc_steps, dsc_steps, dsc_step_desc);

static void rbtrace_discard_nested_at_each_step(struct kunit *test)
{
	const struct dsc_step *p = test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 16 * PAGE_SIZE, 0, 0);
	struct rbt_scn *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st;
	struct rbt_kev kev[16];
	int i, n, kept = 0, pads = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	rbt_scn_init(test, s, buf, cpu, rbt_tick_clock, 32);
	s->body = dsc_body;
	s->body_len = ARRAY_SIZE(dsc_body);
	rbt_scn_hook_on(test, s);

	rbt_scn_write(s, 16, false);
	s->fire[0] = p->points;
	s->kind[0] = RBT_NEST_IRQ_WORK;
	rbt_scn_write(s, 16, false);
	KUNIT_EXPECT_EQ(test, s->fire[0], 0U);
	s->fire[0] = 0;
	rbt_scn_write(s, 16, false);
	rbt_scn_write(s, 16, true);	/* the outer writer discards too */
	rbt_scn_write(s, 16, false);

	/* Every discard was last when it happened: no padding left. */
	n = rbt_walk(rbt_cpu(buf, cpu)->tail_page->page, rbt_tail_write(buf, cpu),
		     kev, ARRAY_SIZE(kev));
	for (i = 0; i < n; i++)
		pads += kev[i].type_len == RB_TYPE_PADDING;
	for (i = 0; i < s->nrec; i++)
		kept += !s->rec[i].discarded;
	KUNIT_EXPECT_EQ(test, n, kept);
	KUNIT_EXPECT_EQ(test, pads, 0);

	st = rbt_stats(test, buf, cpu);
	rbt_scn_drain(s);
	rbt_scn_check(test, s, true);
	KUNIT_EXPECT_EQ(test, st.written, (u64)kept);
	KUNIT_EXPECT_EQ(test, (u64)s->zero_deltas, st.ts_lost);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).bytes, 0ULL);
}

/*
 * Discards while the writer is on the reader page (a reader took the page
 * being written): the entry count to undo is that page's, not one of the
 * ring's. Reclaimed and non-reclaimed alike; then every count adds up.
 */
static void rbtrace_discard_on_reader_page(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	int cpu = rbt_kunit_pin(test);
	struct rb_cpu_buffer *cb = rbt_cpu(buf, cpu);
	struct dsc_nested nest = { .buf = buf, .t = 650, .id = 6 };
	static const u32 ids[] = { 2, 4, 6, 7 };
	struct rbt_event *ev;
	struct rbt_cpu_stats st;
	struct rbt_kev kev[8];
	unsigned long w;
	int n, i;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	dsc_write(test, buf, 1, 100);
	dsc_write(test, buf, 2, 200);
	ev = rbt_consume(buf, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_PTR_EQ_MSG(test, READ_ONCE(cb->tail_page), cb->reader_page,
				"the writer should be on the reader page now");

	/* Last: reclaimed. */
	w = rbt_tail_write(buf, cpu);
	rbt_fake_set(300);
	ev = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	rbt_discard_commit(buf, ev);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w);
	dsc_write(test, buf, 4, 400);

	/* Not last: padding. */
	rbt_fake_set(500);
	ev = rbt_lock_reserve(buf, sizeof(struct dsc_payload));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_EQ(test, rbt_nest(RBT_NEST_IRQ_WORK, dsc_nested_write, &nest), 0);
	KUNIT_ASSERT_TRUE(test, nest.ok);
	rbt_discard_commit(buf, ev);
	dsc_write(test, buf, 7, 700);

	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.written, 5ULL);
	KUNIT_EXPECT_EQ(test, st.read, 1ULL);
	KUNIT_EXPECT_EQ(test, st.entries, 4ULL);
	/* The reader page's own entry count: what is on it, discards undone. */
	KUNIT_EXPECT_EQ(test, rb_page_entries(cb->reader_page), 5UL);

	/* The page as kbuffer decodes it: 1, 2, 4, padding, 6, 7. */
	n = rbt_walk(cb->reader_page->page, rbt_tail_write(buf, cpu), kev, ARRAY_SIZE(kev));
	KUNIT_ASSERT_EQ(test, n, 6);
	KUNIT_EXPECT_EQ(test, kev[3].type_len, (unsigned int)RB_TYPE_PADDING);
	KUNIT_EXPECT_EQ(test, kev[4].ts, 650ULL);
	KUNIT_EXPECT_EQ(test, kev[5].ts, 700ULL);

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		ev = rbt_consume(buf, cpu, NULL, NULL);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, ((struct dsc_payload *)rbt_event_data(ev))->id, ids[i]);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.read, 5ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
}

static int rbtrace_discard_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_discard_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_discard_cases[] = {
	KUNIT_CASE_PARAM(rbtrace_discard_last_event_reclaims_space, dsc_orders_gen_params),
	KUNIT_CASE(rbtrace_discard_first_on_page_reclaims_page_start),
	KUNIT_CASE_PARAM(rbtrace_discard_payload_finds_its_header, dsc_lengths_gen_params),
	KUNIT_CASE_PARAM(rbtrace_discard_non_last_becomes_padding, dsc_cases_gen_params),
	KUNIT_CASE(rbtrace_discard_on_reader_page),
	KUNIT_CASE_PARAM(rbtrace_discard_reclaims_stamp_too, dsc_abs_gen_params),
	KUNIT_CASE_PARAM(rbtrace_discard_nested_at_each_step, dsc_steps_gen_params),
	{}
};

static struct kunit_suite rbtrace_discard_suite = {
	.name = "rbtrace_discard",
	.suite_init = rbtrace_discard_suite_init,
	.suite_exit = rbtrace_discard_suite_exit,
	.test_cases = rbtrace_discard_cases,
};

kunit_test_suite(rbtrace_discard_suite);

