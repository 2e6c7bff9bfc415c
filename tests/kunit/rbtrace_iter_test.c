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

/*
 * An iterator used from an NMI that interrupted a reader of the same CPU
 * holding reader_lock (in its head page search, RBT_HOOK_HEAD_SEARCH):
 * the iterator calls are refused in NMI, at once, as rbt_iter_start()
 * (which allocates) must be. Taking reader_lock there would spin for
 * ever on the lock the interrupted reader holds.
 */
struct it_nmi {
	struct rbt_buffer	*buf;
	struct rbt_iter		*it;
	int			cpu;
	atomic_t		fired;
	int			nest_ret;
	bool			peeked;		/* rbt_iter_peek() gave an event */
	bool			empty;
	bool			started;	/* rbt_iter_start() gave an iterator */
};

static struct it_nmi *it_nmi_cur;

static void it_nmi_use(void *arg)
{
	struct it_nmi *n = arg;
	struct rbt_iter *it2;

	n->peeked = rbt_iter_peek(n->it, NULL);
	rbt_iter_advance(n->it);
	rbt_iter_reset(n->it);
	n->empty = rbt_iter_empty(n->it);
	it2 = rbt_iter_start(n->buf, n->cpu, GFP_ATOMIC);
	n->started = it2;
	rbt_iter_finish(it2);
}

static void it_nmi_hook(struct rbt_buffer *buffer, int point)
{
	struct it_nmi *n = READ_ONCE(it_nmi_cur);

	if (!n || buffer != n->buf || point != RBT_HOOK_HEAD_SEARCH || in_nmi() ||
	    atomic_cmpxchg(&n->fired, 0, 1))
		return;
	n->nest_ret = rbt_nest(RBT_NEST_NMI, it_nmi_use, n);
}

static void it_nmi_unhook(void *unused)
{
	WRITE_ONCE(rbt_test_hook, NULL);
	WRITE_ONCE(it_nmi_cur, NULL);
}

static void rbtrace_iter_refused_in_nmi(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, IT_PAGES * PAGE_SIZE, 0, 0);
	struct it_nmi *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	u64 seq;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_TRUE(test, rbt_nester.nmi_registered);
	n->buf = buf;
	n->cpu = rbt_kunit_pin(test);
	n->nest_ret = -ENODATA;
	for (i = 1; i <= 10; i++)
		KUNIT_ASSERT_EQ(test, it_write(buf, i), 0);
	n->it = rbt_iter_start(buf, n->cpu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n->it);
	WRITE_ONCE(it_nmi_cur, n);
	WRITE_ONCE(rbt_test_hook, it_nmi_hook);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, it_nmi_unhook, NULL), 0);

	/* reader_lock held, the head searched: the NMI comes there. */
	KUNIT_EXPECT_FALSE(test, rbt_empty_cpu(buf, n->cpu));
	it_nmi_unhook(NULL);
	KUNIT_ASSERT_EQ(test, atomic_read(&n->fired), 1);
	KUNIT_EXPECT_EQ(test, n->nest_ret, 0);
	KUNIT_EXPECT_FALSE(test, n->peeked);
	KUNIT_EXPECT_TRUE(test, n->empty);
	KUNIT_EXPECT_FALSE(test, n->started);
	/* Outside NMI the iterator is as it was: at the first event. */
	KUNIT_ASSERT_NOT_NULL(test, it_next(test, n->it, &seq));
	KUNIT_EXPECT_EQ(test, seq, 1ULL);
	rbt_iter_finish(n->it);
	KUNIT_EXPECT_TRUE(test, rbt_record_is_on(buf));
}

static int rbtrace_iter_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_iter_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_iter_cases[] = {
	KUNIT_CASE(rbtrace_iter_lapped_by_own_writer),
	KUNIT_CASE(rbtrace_iter_paused_writer_ends_the_read),
	/* Last: without the refusal it hangs the CPU. */
	KUNIT_CASE(rbtrace_iter_refused_in_nmi),
	{}
};

static struct kunit_suite rbtrace_iter_suite = {
	.name = "rbtrace_iter",
	.suite_init = rbtrace_iter_suite_init,
	.suite_exit = rbtrace_iter_suite_exit,
	.test_cases = rbtrace_iter_cases,
};

kunit_test_suite(rbtrace_iter_suite);
