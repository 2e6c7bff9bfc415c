// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the non-consuming iterator (the `trace` file) lapped by the
 * writer of its own CPU, in overwrite mode.
 *
 * A reader of `trace` causes events on its CPU by reading (its system
 * calls, its page faults, the timer ticks that interrupt it). With many
 * events on, those outpace the iterator: the writer comes round and
 * rewrites the page the iterator is on, again and again. Before the
 * tracer paused recording while `trace` is open (ftrace's pause-on-trace),
 * `grep -c . trace` with kmem, timer and block events on never ended.
 *
 *  - Lapped: after each event it reads, the iterator's own CPU writes two
 *    more. Every event it returns is whole (the payload it was written
 *    with), in the order written, and each jump forward over events it did
 *    not return is announced by rbt_iter_dropped(). Once the writer stops,
 *    the iterator reaches the end within what the ring holds.
 *  - Paused: with rbt_record_disable() held, the same reader that writes
 *    as it reads gets every write refused, and the iterator ends after
 *    exactly the events that were in the ring.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include "rbt_kunit.h"

/* A record: its sequence number, and the same bits inverted as a check. */
struct it_rec {
	u64	seq;
	u64	check;
	u8	fill[40];
};

static int it_write(struct rbt_buffer *buf, u64 seq)
{
	struct it_rec r = { .seq = seq, .check = ~seq };

	memset(r.fill, (u8)seq, sizeof(r.fill));
	return rbt_write(buf, sizeof(r), &r);
}

/* Is @ev a whole record? Its sequence number in *@seq. */
static bool it_whole(struct rbt_event *ev, u64 *seq)
{
	const struct it_rec *r = rbt_event_data(ev);
	unsigned int i;

	if (rbt_event_length(ev) < sizeof(*r) || r->check != ~r->seq)
		return false;
	for (i = 0; i < sizeof(r->fill); i++)
		if (r->fill[i] != (u8)r->seq)
			return false;
	*seq = r->seq;
	return true;
}

/*
 * Records a ring of @pages holds (order 0): its pages and the reader
 * page, each a header and then records of a 4-byte header and the payload.
 */
static unsigned int it_capacity(unsigned int pages)
{
	return (pages + 1) * ((PAGE_SIZE - RBT_PAGE_HDR_SIZE) / (sizeof(struct it_rec) + 4));
}

#define IT_PAGES	4

/* The next data event (rbt_iter_peek() steps over paddings), or NULL. */
static struct rbt_event *it_next(struct kunit *test, struct rbt_iter *it, u64 *seq)
{
	struct rbt_event *ev = rbt_iter_peek(it, NULL);

	if (ev)
		KUNIT_EXPECT_TRUE_MSG(test, it_whole(ev, seq), "a torn event");
	return ev;
}

static void rbtrace_iter_lapped_by_own_writer(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, IT_PAGES * PAGE_SIZE, RBT_FL_OVERWRITE, 0);
	int cpu = rbt_kunit_pin(test);
	unsigned int cap = it_capacity(IT_PAGES), read = 0, jumps = 0, drops = 0, tail;
	u64 written = 0, seq, last = 0;
	struct rbt_iter *it;
	bool first = true;
	bool dropped_now;

	/* The ring full, then lapped once more, before the iterator starts. */
	while (written < 2 * cap)
		KUNIT_ASSERT_EQ(test, it_write(buf, ++written), 0);
	it = rbt_iter_start(buf, cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, it);

	/* Step 1: two writes for each event read, for ten rings' worth. */
	while (written < 12 * cap) {
		if (!it_next(test, it, &seq))
			break;
		dropped_now = rbt_iter_dropped(it);
		drops += dropped_now;
		if (!first && seq != last + 1) {
			jumps++;
			KUNIT_EXPECT_TRUE_MSG(test, dropped_now, "%llu to %llu, not said",
					      last, seq);
			KUNIT_EXPECT_GT_MSG(test, seq, last, "the iterator went back in time");
		}
		first = false;
		last = seq;
		read++;
		rbt_iter_advance(it);
		KUNIT_ASSERT_EQ(test, it_write(buf, ++written), 0);
		KUNIT_ASSERT_EQ(test, it_write(buf, ++written), 0);
	}
	kunit_info(test, "lapped: %u read, %llu written, %u jumps, %u drops reported\n",
		   read, written, jumps, drops);
	/* The writer does not run inside a peek here: no reason to give up. */
	KUNIT_EXPECT_GE_MSG(test, written, 12ULL * cap,
			    "the iterator took itself for at the end while the writer ran");
	/* The writer outran it: it was overrun, and said so each time. */
	KUNIT_EXPECT_GT(test, jumps, 0U);
	KUNIT_EXPECT_GE(test, drops, jumps);

	/* Step 2: the writer stops; the iterator ends within the ring. */
	for (tail = 0; tail <= cap && it_next(test, it, &seq); tail++) {
		KUNIT_EXPECT_GT(test, seq, last);
		last = seq;
		rbt_iter_advance(it);
	}
	KUNIT_EXPECT_LE_MSG(test, tail, cap, "the iterator did not end once the writer stopped");
	KUNIT_EXPECT_EQ_MSG(test, last, written, "the last event read is not the last written");
	KUNIT_EXPECT_TRUE(test, rbt_iter_empty(it));
	rbt_iter_finish(it);
}

static void rbtrace_iter_paused_writer_ends_the_read(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, IT_PAGES * PAGE_SIZE, RBT_FL_OVERWRITE, 0);
	int cpu = rbt_kunit_pin(test);
	unsigned int cap = it_capacity(IT_PAGES), read = 0, refused = 0;
	struct rbt_cpu_stats st;
	struct rbt_iter *it;
	u64 written = 0, seq, last = 0;

	while (written < 2 * cap)
		KUNIT_ASSERT_EQ(test, it_write(buf, ++written), 0);
	st = rbt_stats(test, buf, cpu);
	rbt_record_disable(buf);
	it = rbt_iter_start(buf, cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, it);
	while (read <= cap && it_next(test, it, &seq)) {
		KUNIT_EXPECT_FALSE(test, rbt_iter_dropped(it));
		if (read)
			KUNIT_EXPECT_EQ(test, seq, last + 1);
		last = seq;
		read++;
		rbt_iter_advance(it);
		/* The reader's own events, refused while paused. */
		refused += it_write(buf, written + 1) != 0;
		refused += it_write(buf, written + 2) != 0;
	}
	rbt_iter_finish(it);
	rbt_record_enable(buf);
	KUNIT_EXPECT_EQ(test, (u64)read, st.entries);
	KUNIT_EXPECT_EQ(test, refused, 2 * read);
	KUNIT_EXPECT_EQ(test, last, written);
	/* Recording goes on after the pause. */
	KUNIT_EXPECT_EQ(test, it_write(buf, ++written), 0);
}

static struct kunit_case rbtrace_iter_cases[] = {
	KUNIT_CASE(rbtrace_iter_lapped_by_own_writer),
	KUNIT_CASE(rbtrace_iter_paused_writer_ends_the_read),
	{}
};

static struct kunit_suite rbtrace_iter_suite = {
	.name = "rbtrace_iter",
	.test_cases = rbtrace_iter_cases,
};

kunit_test_suite(rbtrace_iter_suite);
