// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: rbtrace's events and pages are ftrace's, byte for byte.
 *
 * Each event type is checked word by word against the layout of
 * <linux/ring_buffer.h> and read back with the kernel's own helpers
 * (ring_buffer_event_length(), ring_buffer_event_data()); whole pages are
 * compared with pages of the kernel's ring buffer written with the same
 * sizes and payloads. Stamps come from a fake clock that only the test
 * moves, so every delta, extend and absolute stamp is known in advance.
 * Bad arguments must be refused (NULL, -EINVAL or -ENOMEM, and the
 * too_big counter for sizes), never crash or warn.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include "rbt_kunit.h"

#define FMT_SMALL_MAX	112	/* largest payload kept in type_len (4 * 28) */

/* The sub-buffer page an event lies in. */
static struct rb_data_page *fmt_page_of(struct rbt_buffer *buf, void *ev)
{
	unsigned long mask = (PAGE_SIZE << buf->subbuf_order) - 1;

	return (void *)((unsigned long)ev & ~mask);
}

static unsigned long fmt_offset_of(struct rbt_buffer *buf, void *ev)
{
	return (void *)ev - (void *)fmt_page_of(buf, ev)->data;
}

static u32 fmt_word(const void *p)
{
	return *(const u32 *)p;
}

static void rbtrace_format_layout_matches_ftrace(struct kunit *test)
{
	static const struct { u32 type, delta; } cases[] = {
		{ 0, 0 }, { 1, 1 }, { 28, 0x7ffffff }, { 29, 1 }, { 30, 0x5555555 },
		{ 31, 0x2aaaaaa },
	};
	union {
		struct rbt_event r;
		struct ring_buffer_event f;
		u32 word;
	} u;
	int i;

	KUNIT_EXPECT_EQ(test, sizeof(struct rbt_event), sizeof(struct ring_buffer_event));
	KUNIT_EXPECT_EQ(test, offsetof(struct rbt_event, array),
			offsetof(struct ring_buffer_event, array));
	KUNIT_EXPECT_EQ(test, (int)RB_TYPE_DATA_MAX, (int)RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
	KUNIT_EXPECT_EQ(test, (int)RB_TYPE_PADDING, (int)RINGBUF_TYPE_PADDING);
	KUNIT_EXPECT_EQ(test, (int)RB_TYPE_TIME_EXTEND, (int)RINGBUF_TYPE_TIME_EXTEND);
	KUNIT_EXPECT_EQ(test, (int)RB_TYPE_TIME_STAMP, (int)RINGBUF_TYPE_TIME_STAMP);

	/* type_len in the low 5 bits of the first word, time_delta above. */
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u.word = 0;
		u.r.type_len = cases[i].type;
		u.r.time_delta = cases[i].delta;
		KUNIT_EXPECT_EQ(test, (u32)u.f.type_len, cases[i].type);
		KUNIT_EXPECT_EQ(test, (u32)u.f.time_delta, cases[i].delta);
		KUNIT_EXPECT_EQ(test, u.word, cases[i].delta << 5 | cases[i].type);
	}

	/* The page header events/header_page describes. */
	KUNIT_EXPECT_EQ(test, offsetof(struct rb_data_page, time_stamp), 0UL);
	KUNIT_EXPECT_EQ(test, sizeof_field(struct rb_data_page, time_stamp), 8UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct rb_data_page, commit), 8UL);
	KUNIT_EXPECT_EQ(test, sizeof_field(struct rb_data_page, commit), sizeof(long));
	KUNIT_EXPECT_EQ(test, RB_PAGE_HDR_SIZE, 16UL);
	KUNIT_EXPECT_EQ(test, RB_MISSED_EVENTS, 1UL << 31);
	KUNIT_EXPECT_EQ(test, RB_MISSED_STORED, 1UL << 30);
	KUNIT_EXPECT_EQ(test, RB_TS_SHIFT, 27);
}

/* ftrace's rules for the bytes of a payload, spelled out at the edges. */
static void rbtrace_format_event_sizes_follow_ftrace(struct kunit *test)
{
	static const struct { u32 len, bytes; } edges[] = {
		{ 1, 8 }, { 4, 8 }, { 5, 16 }, { 8, 16 }, { 12, 16 }, { 13, 20 },
		{ 108, 112 }, { 112, 116 }, { 113, 124 }, { 116, 124 }, { 117, 128 },
		{ 4072, 4080 },
	};
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 16 * PAGE_SIZE, 0, 0);
	int cpu = rbt_kunit_pin(test);
	int i;

	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		struct rbt_event *ev;
		unsigned long w;

		KUNIT_EXPECT_EQ(test, rbt_ftrace_event_bytes(edges[i].len), edges[i].bytes);
		rbt_reset_cpu(buf, cpu);
		ev = rbt_lock_reserve(buf, edges[i].len);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		w = rbt_tail_write(buf, cpu);
		rbt_unlock_commit(buf);
		KUNIT_EXPECT_EQ_MSG(test, w, (unsigned long)edges[i].bytes,
				    "payload %u", edges[i].len);
	}
}

/*
 * One event of every payload size from 1 to the maximum: its header, what
 * the kernel's helpers make of it, its stamp, and its bytes read back.
 */
static bool fmt_one_size(struct kunit *test, struct rbt_buffer *buf, int cpu,
			 unsigned int len, u64 now)
{
	unsigned int bytes = rbt_ftrace_event_bytes(len);
	bool small = bytes - 4 <= FMT_SMALL_MAX;
	unsigned int cap = bytes - (small ? 4 : 8);
	unsigned long lost = 1, off;
	struct rbt_event *ev, *rd;
	unsigned int i, bad = 0;
	u64 ts = 0;
	u8 *data;

	rbt_fake_set(now);
	ev = rbt_lock_reserve(buf, len);
	KUNIT_EXPECT_NOT_NULL_MSG(test, ev, "payload %u", len);
	if (!ev)
		return false;
	off = fmt_offset_of(buf, ev);
	KUNIT_EXPECT_EQ_MSG(test, (u32)ev->type_len, small ? (bytes - 4) / 4 : 0,
			    "payload %u", len);
	if (!small)
		KUNIT_EXPECT_EQ_MSG(test, ev->array[0], bytes - 4, "payload %u", len);
	/* 7 ns after the one before, or the page's own stamp if first. */
	KUNIT_EXPECT_EQ_MSG(test, (u32)ev->time_delta, off ? 7U : 0U, "payload %u", len);
	KUNIT_EXPECT_EQ_MSG(test, ring_buffer_event_length((void *)ev), cap, "payload %u", len);
	KUNIT_EXPECT_EQ_MSG(test, rbt_event_length(ev), cap, "payload %u", len);
	KUNIT_EXPECT_PTR_EQ(test, ring_buffer_event_data((void *)ev), rbt_event_data(ev));
	KUNIT_EXPECT_PTR_EQ(test, rbt_event_data(ev), (void *)&ev->array[small ? 0 : 1]);
	data = rbt_event_data(ev);
	for (i = 0; i < len; i++)
		data[i] = len + i;
	rbt_unlock_commit(buf);
	KUNIT_EXPECT_EQ_MSG(test, rbt_tail_write(buf, cpu), off + bytes, "payload %u", len);
	if (!off)
		KUNIT_EXPECT_EQ_MSG(test, fmt_page_of(buf, ev)->time_stamp, now, "payload %u", len);

	rd = rbt_consume(buf, cpu, &ts, &lost);
	KUNIT_EXPECT_PTR_EQ_MSG(test, rd, ev, "payload %u", len);
	KUNIT_EXPECT_EQ_MSG(test, ts, now, "payload %u", len);
	KUNIT_EXPECT_EQ_MSG(test, lost, 0UL, "payload %u", len);
	if (rd != ev)
		return false;
	for (i = 0; i < len; i++)
		bad += data[i] != (u8)(len + i);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "payload %u: bytes changed", len);
	return ev->time_delta == (off ? 7 : 0) && ts == now && !bad &&
	       ring_buffer_event_length((void *)ev) == cap;
}

static unsigned int fmt_next_len(unsigned int len, unsigned int step, unsigned int max)
{
	if (len < 200 || len >= max - 16)
		return len + 1;
	return min(len + step, max - 16);
}

static const unsigned int fmt_orders[] = { 0, 1, 3 };

static void fmt_order_desc(const unsigned int *order, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "order %u", *order);
}

KUNIT_ARRAY_PARAM(fmt_orders, fmt_orders, fmt_order_desc);

static void rbtrace_format_every_payload_size(struct kunit *test)
{
	unsigned int order = *(const unsigned int *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 8 * (PAGE_SIZE << order),
						 RBT_FL_OVERWRITE, order);
	unsigned int sub = (PAGE_SIZE << order) - RB_PAGE_HDR_SIZE;
	unsigned int max = rbt_max_event_size(buf), len, step, n = 0;
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st;
	u64 now = 1000;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	KUNIT_EXPECT_EQ(test, rbt_subbuf_size(buf), sub);
	KUNIT_EXPECT_EQ(test, max, sub - 8);
	/* Every size on order 0; on bigger ones the edges and a sample. */
	step = order ? 13 : 1;
	for (len = 1; len <= max; len = fmt_next_len(len, step, max)) {
		now += 7;
		n++;
		if (!fmt_one_size(test, buf, cpu, len, now))
			break;
	}
	KUNIT_EXPECT_GT(test, len, max);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.written, (u64)n);
	KUNIT_EXPECT_EQ(test, st.read, (u64)n);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.too_big + st.dropped + st.overrun, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
	/* One byte more is too big, and counted. */
	KUNIT_EXPECT_NULL(test, rbt_lock_reserve(buf, max + 1));
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).too_big, 1ULL);
}

/*
 * Page crossing: a page filled up to @gap bytes from its end, then an
 * event that does not fit. Under 8 bytes left, a null padding (type 29,
 * delta 0) that commit does not cover; 8 or more, a discarded-event
 * padding (type 29, delta 1, length in array[0]) up to the end.
 */
static const unsigned int fmt_gaps[] = { 0, 4, 8, 12, 16, 20, 24, 60, 112, 116 };

static void fmt_gap_desc(const unsigned int *gap, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "gap %u", *gap);
}

KUNIT_ARRAY_PARAM(fmt_gaps, fmt_gaps, fmt_gap_desc);

#define FMT_MAX_FILL	48
#define FMT_CROSS_LEN	120	/* 128 bytes: bigger than any gap */

/* Payload sizes that fill all but @gap bytes of @bsize; returns their count. */
static int fmt_fill_sizes(u32 *sizes, unsigned int bsize, unsigned int gap)
{
	unsigned int rem = bsize - gap;
	int n = 0;

	while (rem > 116) {
		sizes[n++] = 96;		/* 100 bytes */
		rem -= 100;
	}
	sizes[n++] = rem - 4;			/* 20 to 116 bytes: small */
	sizes[n++] = FMT_CROSS_LEN;
	return n;
}

static void fmt_payload(u8 *p, unsigned int len, int i)
{
	unsigned int j;

	for (j = 0; j < len; j++)
		p[j] = i * 31 + j;
}

#if IS_ENABLED(CONFIG_RING_BUFFER)
KUNIT_DEFINE_ACTION_WRAPPER(fmt_ring_buffer_free, ring_buffer_free, struct trace_buffer *);

/*
 * Write @sizes into a fresh ftrace ring buffer on @cpu and return its first
 * page (read whole with ring_buffer_read_page()) in @out. Data headers'
 * deltas differ (ftrace runs on the real clock): they are masked out, as
 * ftrace's clock cannot be set from a module. Returns the page's commit,
 * or -EAGAIN when ftrace had to write a time extend (the clock jumped).
 */
static long fmt_ftrace_page(struct kunit *test, struct trace_buffer *fb, int cpu,
			    const u32 *sizes, int n, u8 *out)
{
	struct buffer_data_read_page *rpage = NULL;
	struct rbt_kev *kev = kunit_kcalloc(test, FMT_MAX_FILL + 2, sizeof(*kev), GFP_KERNEL);
	struct rb_data_page *fpage;
	unsigned long commit;
	u8 payload[128];
	int i, nk, ret;

	KUNIT_ASSERT_NOT_NULL(test, kev);

	ring_buffer_reset_cpu(fb, cpu);
	for (i = 0; i < n; i++) {
		fmt_payload(payload, sizes[i], i);
		KUNIT_ASSERT_EQ(test, ring_buffer_write(fb, sizes[i], payload), 0);
	}
	/* Debian's 6.12 has the newer signature: the page comes back in rpage. */
	KUNIT_ASSERT_EQ(test, ring_buffer_alloc_read_page(fb, cpu, &rpage), 0);
	ret = ring_buffer_read_page(fb, rpage, PAGE_SIZE, cpu, 1);
	fpage = ring_buffer_read_page_data(rpage);
	memcpy(out, fpage, PAGE_SIZE);
	ring_buffer_free_read_page(fb, cpu, rpage);
	KUNIT_ASSERT_EQ(test, ret, 0);

	fpage = (void *)out;
	commit = local_read(&fpage->commit);
	nk = rbt_walk(fpage, commit, kev, FMT_MAX_FILL + 2);
	KUNIT_ASSERT_GT(test, nk, 0);
	for (i = 0; i < nk; i++) {
		if (kev[i].prefix)
			return -EAGAIN;
		if (kev[i].type_len != RB_TYPE_PADDING)
			*(u32 *)(fpage->data + kev[i].off) &= 0x1f;
	}
	return commit;
}
#endif

static void rbtrace_format_page_end_padding_matches_ftrace(struct kunit *test)
{
	unsigned int gap = *(const unsigned int *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 8 * PAGE_SIZE, 0, 0);
	struct rbt_kev *kev = kunit_kcalloc(test, FMT_MAX_FILL + 2, sizeof(*kev), GFP_KERNEL);
	unsigned int bsize = rbt_subbuf_size(buf);
	int cpu = rbt_kunit_pin(test);
	struct rb_cpu_buffer *cb = rbt_cpu(buf, cpu);
	struct rb_data_page *page, *next;
	u32 sizes[FMT_MAX_FILL + 2];
	unsigned long commit, lost;
	struct rbt_event *ev;
	unsigned int cap;
	u8 payload[128];
	int i, n, nk;
	u64 ts;

	KUNIT_ASSERT_NOT_NULL(test, kev);
	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	n = fmt_fill_sizes(sizes, bsize, gap);
	page = cb->head_page->page;
	for (i = 0; i < n; i++) {
		rbt_fake_set(1000 + 10 * i);
		fmt_payload(payload, sizes[i], i);
		KUNIT_ASSERT_EQ(test, rbt_write(buf, sizes[i], payload), 0);
		if (i == n - 2)
			KUNIT_ASSERT_EQ(test, rbt_tail_write(buf, cpu), (unsigned long)bsize - gap);
	}

	/* The first page: the fill events, then the padding. */
	commit = local_read(&page->commit);
	KUNIT_EXPECT_EQ(test, commit, (unsigned long)(gap && gap < 8 ? bsize - gap : bsize));
	nk = rbt_walk(page, commit, kev, FMT_MAX_FILL + 2);
	KUNIT_EXPECT_EQ(test, nk, n - 1 + (gap >= 8));
	for (i = 0; i < n - 1 && i < nk; i++) {
		KUNIT_EXPECT_EQ(test, kev[i].bytes, rbt_ftrace_event_bytes(sizes[i]));
		KUNIT_EXPECT_EQ(test, kev[i].ts, 1000ULL + 10 * i);
	}
	if (gap >= 8 && nk == n) {
		ev = (void *)page->data + bsize - gap;
		KUNIT_EXPECT_EQ(test, kev[n - 1].off, bsize - gap);
		KUNIT_EXPECT_EQ(test, fmt_word(ev), 1U << 5 | RB_TYPE_PADDING);
		KUNIT_EXPECT_EQ(test, ev->array[0], gap - 4);
	} else if (gap) {
		/* Null padding: past commit, "nothing more on this page". */
		KUNIT_EXPECT_EQ(test, fmt_word(page->data + bsize - gap), (u32)RB_TYPE_PADDING);
	}

	/* The event that did not fit starts the next page, on its stamp. */
	ev = (void *)rbt_cpu(buf, cpu)->tail_page->page->data;
	next = rbt_cpu(buf, cpu)->tail_page->page;
	KUNIT_EXPECT_PTR_NE(test, next, page);
	KUNIT_EXPECT_EQ(test, next->time_stamp, 1000ULL + 10 * (n - 1));
	KUNIT_EXPECT_EQ(test, fmt_word(ev), (u32)RB_TYPE_DATA_LONG);	/* delta 0 */
	KUNIT_EXPECT_EQ(test, ev->array[0], rbt_ftrace_event_bytes(FMT_CROSS_LEN) - 4);

#if IS_ENABLED(CONFIG_RING_BUFFER)
	{
		struct trace_buffer *fb = ring_buffer_alloc(8 * PAGE_SIZE, 0);
		u8 *fp = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
		u8 *rp = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
		long fcommit = -EAGAIN;
		int try;

		KUNIT_ASSERT_NOT_NULL(test, fb);
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fmt_ring_buffer_free, fb), 0);
		KUNIT_ASSERT_NOT_NULL(test, fp);
		KUNIT_ASSERT_NOT_NULL(test, rp);
		for (try = 0; try < 3 && fcommit == -EAGAIN; try++)
			fcommit = fmt_ftrace_page(test, fb, cpu, sizes, n, fp);
		KUNIT_ASSERT_GE_MSG(test, fcommit, 0L, "ftrace wrote a time extend three times");

		/* ftrace hands the page out up to where its data ends. */
		KUNIT_EXPECT_EQ(test, fcommit, (long)(bsize - gap));
		memcpy(rp, page, PAGE_SIZE);
		for (i = 0; i < nk; i++)
			if (kev[i].type_len != RB_TYPE_PADDING)
				*(u32 *)(((struct rb_data_page *)rp)->data + kev[i].off) &= 0x1f;
		KUNIT_EXPECT_MEMEQ(test, ((struct rb_data_page *)rp)->data,
				   ((struct rb_data_page *)fp)->data, bsize - gap);
	}
#else
	KUNIT_FAIL(test, "this kernel has no ring buffer (CONFIG_RING_BUFFER) to compare with");
#endif

	/* A reader skips the padding and gets every event on its stamp. */
	for (i = 0; i < n; i++) {
		ev = rbt_consume(buf, cpu, &ts, &lost);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, ts, 1000ULL + 10 * i);
		cap = rbt_ftrace_event_bytes(sizes[i]) - (sizes[i] > FMT_SMALL_MAX ? 8 : 4);
		KUNIT_EXPECT_EQ(test, rbt_event_length(ev), cap);
		fmt_payload(payload, sizes[i], i);
		KUNIT_EXPECT_MEMEQ(test, rbt_event_data(ev), payload, sizes[i]);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).bytes, 0ULL);
}

/*
 * Time extends: a delta of 2^27 or more is carried by a type 30 event in
 * front (bits 0-26 in time_delta, 27-58 in array[0]); the data event after
 * it has delta 0. The first event of a page never needs one.
 */
/*
 * rbt_reserve() hands back the payload of the event it reserved, the
 * pointer rbt_event_data() finds, on every way through the write path:
 * the fast one (short and long header), the slow exit S1 (first event
 * of a page, a time extend), absolute mode (the refuse word's
 * RB_REFUSE_ABS exit), and nothing when recording is off. The events
 * then read back with the payload and the stamp written.
 */
static void rbtrace_format_reserve_returns_payload(struct kunit *test)
{
	static const struct {
		u64 step;
		unsigned int len;
		bool abs;
	} cases[] = {
		{ 0, 10 },		/* first on the page: S1 */
		{ 5, 10 },		/* fast, short header */
		{ 5, 200 },		/* fast, long header: length in array[0] */
		{ 1ULL << 30, 10 },	/* time extend in front: S1 */
		{ 5, 10, true },	/* absolute stamp in front */
		{ 5, 200, true },
		{ 5, 4 },		/* fast again once absolute mode is off */
	};
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 8 * PAGE_SIZE, 0, 0);
	int cpu = rbt_kunit_pin(test);
	u64 t = 1000, times[ARRAY_SIZE(cases)], ts;
	struct rbt_event *ev;
	struct rb_page *tail_page;
	unsigned long w;
	u8 *p;
	int i;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		t += cases[i].step;
		times[i] = t;
		rbt_fake_set(t);
		rbt_set_time_stamp_abs(buf, cases[i].abs);
		tail_page = READ_ONCE(rbt_cpu(buf, cpu)->tail_page);
		w = rbt_tail_write(buf, cpu);
		p = rbt_reserve(buf, cases[i].len);
		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "case %d", i);
		/* No page crossing in this short run: the event is at w. */
		ev = rb_page_index(tail_page, w);
		KUNIT_EXPECT_PTR_EQ_MSG(test, (void *)p, rbt_event_data(ev), "case %d", i);
		memset(p, i + 1, cases[i].len);
		rbt_unlock_commit(buf);
	}
	rbt_set_time_stamp_abs(buf, false);

	w = rbt_tail_write(buf, cpu);
	rbt_record_off(buf);
	KUNIT_EXPECT_NULL(test, rbt_reserve(buf, 10));
	rbt_record_on(buf);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w);
	KUNIT_EXPECT_EQ(test, atomic_read(&rbt_cpu(buf, cpu)->refuse), 0);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ev = rbt_consume(buf, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "case %d", i);
		/* Rounded up to 4 bytes, as ftrace's. */
		KUNIT_EXPECT_EQ_MSG(test, rbt_event_length(ev), ALIGN(cases[i].len, 4),
				    "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ts, times[i], "case %d", i);
		p = rbt_event_data(ev);
		KUNIT_EXPECT_EQ_MSG(test, p[0], (u8)(i + 1), "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, p[cases[i].len - 1], (u8)(i + 1), "case %d", i);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
}

static void rbtrace_format_time_extend(struct kunit *test)
{
	static const u64 steps[] = {
		0, (1ULL << 27) - 1, 1ULL << 27, 0x123456789ULL, 5, (1ULL << 40) + 3,
	};
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 8 * PAGE_SIZE, 0, 0);
	unsigned int bsize = rbt_subbuf_size(buf);
	int cpu = rbt_kunit_pin(test);
	struct rbt_event *ev, *data;
	u64 t = 1000, times[ARRAY_SIZE(steps) + 2], ts;
	unsigned long left;
	int i;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		t += steps[i];
		times[i] = t;
		rbt_fake_set(t);
		ev = rbt_lock_reserve(buf, 16);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		if (steps[i] >> 27) {
			KUNIT_EXPECT_EQ(test, (u32)ev->type_len, (u32)RB_TYPE_TIME_EXTEND);
			KUNIT_EXPECT_EQ(test, (u32)ev->time_delta, (u32)(steps[i] & RB_TS_MASK));
			KUNIT_EXPECT_EQ(test, ev->array[0], (u32)(steps[i] >> 27));
			data = (void *)ev + 8;
			KUNIT_EXPECT_EQ(test, fmt_word(data), 4U);	/* 16 bytes, delta 0 */
		} else {
			KUNIT_EXPECT_EQ(test, fmt_word(ev), (u32)steps[i] << 5 | 4);
			data = ev;
		}
		/* The kernel's helpers skip the extend as rbtrace's do. */
		KUNIT_EXPECT_EQ(test, ring_buffer_event_length((void *)ev), 16U);
		KUNIT_EXPECT_PTR_EQ(test, ring_buffer_event_data((void *)ev), rbt_event_data(ev));
		KUNIT_EXPECT_PTR_EQ(test, rbt_event_data(ev), (void *)&data->array[0]);
		*(u32 *)rbt_event_data(ev) = i;
		rbt_unlock_commit(buf);
	}

	/*
	 * 24 bytes left: the 20-byte event would fit, but not with the
	 * extend its delta needs; it moves to the next page, where it needs
	 * none. The 24 bytes become padding.
	 */
	left = bsize - rbt_tail_write(buf, cpu);
	ev = rbt_lock_reserve(buf, left - 24 - 8);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	*(u32 *)rbt_event_data(ev) = i;
	times[i++] = t;		/* same stamp as the one before: delta 0 */
	rbt_unlock_commit(buf);
	KUNIT_ASSERT_EQ(test, rbt_tail_write(buf, cpu), (unsigned long)bsize - 24);
	t += 1ULL << 30;
	times[i] = t;
	rbt_fake_set(t);
	ev = rbt_lock_reserve(buf, 16);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, fmt_offset_of(buf, ev), 0UL);
	KUNIT_EXPECT_EQ(test, fmt_word(ev), 4U);
	*(u32 *)rbt_event_data(ev) = i;
	rbt_unlock_commit(buf);
	KUNIT_EXPECT_EQ(test, fmt_page_of(buf, ev)->time_stamp, t);
	ev = (void *)rbt_cpu(buf, cpu)->head_page->page->data + bsize - 24;
	KUNIT_EXPECT_EQ(test, fmt_word(ev), 1U << 5 | RB_TYPE_PADDING);
	KUNIT_EXPECT_EQ(test, ev->array[0], 20U);

	for (i = 0; i < ARRAY_SIZE(times); i++) {
		ev = rbt_consume(buf, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, *(u32 *)rbt_event_data(ev), (u32)i);
		KUNIT_EXPECT_EQ(test, ts, times[i]);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
}

/*
 * Absolute stamps: every event behind a type 31 event holding the whole
 * stamp (59 bits: what does not fit is dropped), the data's delta 0. On
 * from allocation, or switched on and off while the buffer is in use.
 */
static void rbtrace_format_absolute_stamps(struct kunit *test)
{
	static const u64 stamps[] = {
		5, 0x123456789abcULL, (1ULL << 59) - 1, (1ULL << 62) | 77, 1ULL << 40,
	};
	bool switched = *(const bool *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 8 * PAGE_SIZE,
						 switched ? 0 : RBT_FL_ABS_TS, 0);
	unsigned int sub = rbt_subbuf_size(buf);
	int cpu = rbt_kunit_pin(test);
	/* the stamps, the largest event; switched: one before, one after */
	u64 times[ARRAY_SIZE(stamps) + 3], ts;
	struct rbt_event *ev;
	int i, n = 0;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	if (switched) {
		KUNIT_EXPECT_EQ(test, rbt_max_event_size(buf), sub - 8);
		rbt_fake_set(3);
		KUNIT_ASSERT_EQ(test, rbt_write(buf, 4, &n), 0);
		times[n++] = 3;
		rbt_set_time_stamp_abs(buf, true);
	}
	KUNIT_EXPECT_EQ(test, rbt_max_event_size(buf), sub - 16);

	for (i = 0; i < ARRAY_SIZE(stamps); i++) {
		u64 v = stamps[i] & RB_ABS_TS_MASK;

		rbt_fake_set(stamps[i]);
		ev = rbt_lock_reserve(buf, 16);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, (u32)ev->type_len, (u32)RB_TYPE_TIME_STAMP);
		KUNIT_EXPECT_EQ(test, (u32)ev->time_delta, (u32)(v & RB_TS_MASK));
		KUNIT_EXPECT_EQ(test, ev->array[0], (u32)(v >> 27));
		KUNIT_EXPECT_EQ(test, fmt_word((void *)ev + 8), 4U);
		KUNIT_EXPECT_EQ(test, ring_buffer_event_length((void *)ev), 16U);
		KUNIT_EXPECT_PTR_EQ(test, ring_buffer_event_data((void *)ev), rbt_event_data(ev));
		*(u32 *)rbt_event_data(ev) = n;
		rbt_unlock_commit(buf);
		times[n++] = v;
	}

	/* The largest payload fills a page with its stamp; one more byte cannot. */
	ev = rbt_lock_reserve(buf, sub - 16);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, fmt_offset_of(buf, ev), 0UL);
	*(u32 *)rbt_event_data(ev) = n;
	rbt_unlock_commit(buf);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), (unsigned long)sub);
	times[n++] = stamps[ARRAY_SIZE(stamps) - 1];
	KUNIT_EXPECT_NULL(test, rbt_lock_reserve(buf, sub - 15));
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).too_big, 1ULL);

	if (switched) {
		/* Back to deltas, from the last absolute stamp. */
		rbt_set_time_stamp_abs(buf, false);
		rbt_fake_set((1ULL << 40) + 9);
		ev = rbt_lock_reserve(buf, 16);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, fmt_word(ev), 4U);	/* first on its page */
		*(u32 *)rbt_event_data(ev) = n;
		rbt_unlock_commit(buf);
		times[n++] = (1ULL << 40) + 9;
	}

	for (i = 0; i < n; i++) {
		ev = rbt_consume(buf, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, *(u32 *)rbt_event_data(ev), (u32)i);
		KUNIT_EXPECT_EQ(test, ts, times[i]);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
}

static const bool fmt_abs_switched[] = { false, true };

static void fmt_abs_desc(const bool *switched, char *desc)
{
	strscpy(desc, *switched ? "switched at run time" : "from allocation",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fmt_abs, fmt_abs_switched, fmt_abs_desc);

/* ---- bad input ------------------------------------------------------ */

static void rbtrace_format_alloc_refuses_bad_arguments(struct kunit *test)
{
	unsigned long ram = totalram_pages() << PAGE_SHIFT;
	struct rbt_buffer *buf;

	KUNIT_EXPECT_NULL(test, rbt_alloc(0, 0, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc(PAGE_SIZE, RBT_FL_VALID + 1, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc(PAGE_SIZE, 1U << 31, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc(PAGE_SIZE, ~0U, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc(PAGE_SIZE, 0, RB_MAX_ORDER + 1));
	KUNIT_EXPECT_NULL(test, rbt_alloc(PAGE_SIZE, 0, ~0U));
	KUNIT_EXPECT_NULL(test, rbt_alloc(ULONG_MAX, 0, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc(ULONG_MAX / 2 + 1, 0, 0));
	/* More than all memory, and more than half of what is free. */
	KUNIT_EXPECT_NULL(test, rbt_alloc(2 * ram, 0, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc(ram - PAGE_SIZE, RBT_FL_OVERWRITE, 0));

	/* The smallest buffer has two sub-buffers per CPU. */
	buf = rbt_kunit_alloc(test, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, rbt_size(buf, RBT_ALL_CPUS), 2UL * rbt_subbuf_size(buf));
	KUNIT_EXPECT_EQ(test, rbt_size(buf, raw_smp_processor_id()), 2UL * rbt_subbuf_size(buf));
	KUNIT_EXPECT_FALSE(test, rbt_overwrite(buf));
	KUNIT_EXPECT_TRUE(test, rbt_record_is_on(buf));
	/* The largest sub-buffer order is accepted. */
	buf = rbt_kunit_alloc(test, 1, RBT_FL_VALID, RB_MAX_ORDER);
	KUNIT_EXPECT_EQ(test, rbt_subbuf_size(buf),
			(unsigned int)((PAGE_SIZE << RB_MAX_ORDER) - RB_PAGE_HDR_SIZE));
	KUNIT_EXPECT_TRUE(test, rbt_overwrite(buf));
}

static void rbtrace_format_reserve_refuses_bad_sizes(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	static const unsigned long bad[] = { 0, PAGE_SIZE, ULONG_MAX, 1UL << 32 };
	int cpu = rbt_kunit_pin(test);
	int pc = preempt_count();
	struct rbt_cpu_stats st;
	u32 word = 42;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_NULL_MSG(test, rbt_lock_reserve(buf, bad[i]), "size %lu", bad[i]);
	KUNIT_EXPECT_NULL(test, rbt_lock_reserve(buf, rbt_max_event_size(buf) + 1));
	KUNIT_EXPECT_EQ(test, rbt_write(buf, 0, &word), -EBUSY);
	/* Refusals leave preemption as it was. */
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);

	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.too_big, (u64)ARRAY_SIZE(bad) + 2);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
	KUNIT_EXPECT_TRUE(test, rbt_empty_cpu(buf, cpu));

	/* And the buffer still works. */
	KUNIT_EXPECT_EQ(test, rbt_write(buf, sizeof(word), &word), 0);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).written, 1ULL);
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);
}

static void rbtrace_format_bad_cpu_and_sizes_refused(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	static const int bad_cpus[] = { -2, -1000, INT_MIN, INT_MAX };
	unsigned long ram = totalram_pages() << PAGE_SHIFT;
	unsigned long size = rbt_size(buf, RBT_ALL_CPUS);
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st;
	u64 ts;
	int i;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	rbt_fake_set(777);
	KUNIT_ASSERT_EQ(test, rbt_write(buf, 4, &i), 0);

	KUNIT_EXPECT_EQ(test, rbt_resize(buf, PAGE_SIZE, nr_cpu_ids), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_cpu_stats(buf, nr_cpu_ids, &st), -EINVAL);
	KUNIT_EXPECT_NULL(test, rbt_peek(buf, nr_cpu_ids, NULL, NULL));
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, nr_cpu_ids, NULL, NULL));
	KUNIT_EXPECT_TRUE(test, rbt_empty_cpu(buf, nr_cpu_ids));
	KUNIT_EXPECT_EQ(test, rbt_size(buf, nr_cpu_ids), 0UL);
	for (i = 0; i < ARRAY_SIZE(bad_cpus); i++) {
		KUNIT_EXPECT_EQ(test, rbt_resize(buf, PAGE_SIZE, bad_cpus[i]), -EINVAL);
		KUNIT_EXPECT_EQ(test, rbt_cpu_stats(buf, bad_cpus[i], &st), -EINVAL);
		KUNIT_EXPECT_NULL(test, rbt_peek(buf, bad_cpus[i], NULL, NULL));
		KUNIT_EXPECT_NULL(test, rbt_consume(buf, bad_cpus[i], NULL, NULL));
		KUNIT_EXPECT_TRUE(test, rbt_empty_cpu(buf, bad_cpus[i]));
		KUNIT_EXPECT_EQ(test, rbt_size(buf, bad_cpus[i]), 0UL);
		rbt_reset_cpu(buf, bad_cpus[i]);
	}
	rbt_reset_cpu(buf, nr_cpu_ids);

	KUNIT_EXPECT_EQ(test, rbt_resize(buf, 0, RBT_ALL_CPUS), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_resize(buf, 0, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_resize(buf, ULONG_MAX, RBT_ALL_CPUS), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_resize(buf, ULONG_MAX / 2 + 1, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_resize(buf, 2 * ram, RBT_ALL_CPUS), -ENOMEM);
	KUNIT_EXPECT_EQ(test, rbt_resize(buf, ram - PAGE_SIZE, cpu), -ENOMEM);
	KUNIT_EXPECT_EQ(test, rbt_size(buf, RBT_ALL_CPUS), size);
	KUNIT_EXPECT_EQ(test, rbt_size(buf, cpu), size);
	KUNIT_EXPECT_EQ(test, rbt_set_clock(buf, NULL), -EINVAL);

	/* Nothing above touched the event, nor the clock. */
	rbt_fake_set(778);
	KUNIT_ASSERT_EQ(test, rbt_write(buf, 4, &i), 0);
	KUNIT_EXPECT_NOT_NULL(test, rbt_consume(buf, cpu, &ts, NULL));
	KUNIT_EXPECT_EQ(test, ts, 777ULL);
	KUNIT_EXPECT_NOT_NULL(test, rbt_consume(buf, cpu, &ts, NULL));
	KUNIT_EXPECT_EQ(test, ts, 778ULL);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.written, 2ULL);
	KUNIT_EXPECT_EQ(test, st.read, 2ULL);
}

static struct kunit_case rbtrace_format_cases[] = {
	KUNIT_CASE(rbtrace_format_layout_matches_ftrace),
	KUNIT_CASE(rbtrace_format_event_sizes_follow_ftrace),
	KUNIT_CASE_PARAM(rbtrace_format_every_payload_size, fmt_orders_gen_params),
	KUNIT_CASE_PARAM(rbtrace_format_page_end_padding_matches_ftrace, fmt_gaps_gen_params),
	KUNIT_CASE(rbtrace_format_time_extend),
	KUNIT_CASE(rbtrace_format_reserve_returns_payload),
	KUNIT_CASE_PARAM(rbtrace_format_absolute_stamps, fmt_abs_gen_params),
	KUNIT_CASE(rbtrace_format_alloc_refuses_bad_arguments),
	KUNIT_CASE(rbtrace_format_reserve_refuses_bad_sizes),
	KUNIT_CASE(rbtrace_format_bad_cpu_and_sizes_refused),
	{}
};

static struct kunit_suite rbtrace_format_suite = {
	.name = "rbtrace_format",
	.test_cases = rbtrace_format_cases,
};

kunit_test_suite(rbtrace_format_suite);

