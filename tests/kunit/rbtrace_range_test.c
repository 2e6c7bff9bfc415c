// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: buffers in a given memory range (rbt_alloc_in()), re-attached.
 *
 * The range is pages of the page allocator, filled with garbage first:
 * the first buffer must find no header and start empty. Records with
 * sequence numbers go in; the buffer is freed (the range keeps its
 * bytes, as reserved memory keeps them across a warm reboot) and a second
 * buffer is allocated on the same range, as the next boot's would be:
 *
 *  - Re-attached: every record is read back, in order, by a consuming
 *    reader and by rbt_read_page() (copies: the range's pages never leave
 *    it); writers are refused until rbt_reset(), after which recording
 *    goes on in the same memory, and a third attach finds only the new.
 *  - Wrapped: after the writer lapped the ring many times, the records
 *    read back are the newest, contiguous, ending at the last written.
 *  - Corrupted: sub-buffers damaged three ways (random bytes over the
 *    whole page, a commit word past the end, random events) are refused
 *    and counted; every record of the others is read, in order.
 *  - Another geometry (sub-buffer order) or garbage: a fresh start.
 *  - Metadata: the client's bytes (rbt_range_meta_write()) are read back
 *    by the next attach, the last complete write's; a torn write (a
 *    crash inside one) leaves the previous; writes are refused while the
 *    old data is shown.
 *  - Forged: what no writer commits (a null padding inside the commit, a
 *    time extend or absolute stamp with no event behind it) refuses the
 *    page, with no WARN and no event longer than a sub-buffer.
 *  - What writers do write is kept: an absolute stamp a discard took 1
 *    from, one behind the running time after the clock stepped back.
 *  - Order 1: sub-buffers aligned to their size, so that a discard finds
 *    its page (rb_event_index() masks the address); an older layout that
 *    did not align them is refused cleanly.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include "rbt_kunit.h"

#define RG_ORDER	7	/* 512 KiB of range */

struct rg_rec {
	u64	seq;
	u64	check;
	u8	fill[48];
};

struct rg_range {
	struct page	*pages;
	phys_addr_t	start;
	size_t		size;
};

static void rg_free_pages(void *arg)
{
	__free_pages(arg, RG_ORDER);
}

static struct rg_range rg_range(struct kunit *test)
{
	struct rg_range r = {};

	r.pages = alloc_pages(GFP_KERNEL, RG_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, r.pages);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rg_free_pages, r.pages), 0);
	r.start = page_to_phys(r.pages);
	r.size = PAGE_SIZE << RG_ORDER;
	/* Garbage, as a range that held something else. */
	memset(page_address(r.pages), 0xa5, r.size);
	return r;
}

static struct rbt_buffer *rg_attach(struct kunit *test, struct rg_range *r,
				    unsigned int order)
{
	struct rbt_buffer *buf = rbt_alloc_in(r->start, r->size, RBT_FL_OVERWRITE, order);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

static int rg_write(struct rbt_buffer *buf, u64 seq)
{
	struct rg_rec rec = { .seq = seq, .check = ~seq };

	memset(rec.fill, (u8)seq, sizeof(rec.fill));
	return rbt_write(buf, sizeof(rec), &rec);
}

static bool rg_whole(const struct rg_rec *rec)
{
	unsigned int i;

	if (rec->check != ~rec->seq)
		return false;
	for (i = 0; i < sizeof(rec->fill); i++)
		if (rec->fill[i] != (u8)rec->seq)
			return false;
	return true;
}

/*
 * Consume everything of @cpu: every record whole, the sequence rising
 * (by one, if @contiguous). Returns the count; *@first and *@last.
 */
static unsigned long rg_drain(struct kunit *test, struct rbt_buffer *buf, int cpu,
			      bool contiguous, u64 *first, u64 *last)
{
	struct rbt_event *ev;
	unsigned long n = 0;
	u64 prev = 0, ts, prev_ts = 0;

	while ((ev = rbt_consume(buf, cpu, &ts, NULL))) {
		const struct rg_rec *rec = rbt_event_data(ev);

		KUNIT_ASSERT_GE(test, rbt_event_length(ev), (unsigned int)sizeof(*rec));
		KUNIT_ASSERT_TRUE_MSG(test, rg_whole(rec), "a torn record");
		if (n) {
			if (contiguous)
				KUNIT_EXPECT_EQ(test, rec->seq, prev + 1);
			else
				KUNIT_EXPECT_GT(test, rec->seq, prev);
			KUNIT_EXPECT_GE(test, ts, prev_ts);
		} else {
			*first = rec->seq;
		}
		prev = rec->seq;
		prev_ts = ts;
		n++;
	}
	*last = prev;
	return n;
}

/* One record of id @id at fake time @t, reserved and committed. */
static void rg_write_at(struct kunit *test, struct rbt_buffer *buf, u32 id, u64 t)
{
	struct rbt_event *ev;

	rbt_fake_set(t);
	ev = rbt_lock_reserve(buf, sizeof(u32));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	*(u32 *)rbt_event_data(ev) = id;
	rbt_unlock_commit(buf);
}

/* Consume @cpu: exactly the records @ids, stamped @ts. */
static void rg_expect_ids(struct kunit *test, struct rbt_buffer *buf, int cpu,
			  const u32 *ids, const u64 *ts, int n)
{
	struct rbt_event *ev;
	u64 t;
	int i;

	for (i = 0; i < n; i++) {
		ev = rbt_consume(buf, cpu, &t, NULL);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "record %d of %d missing", i, n);
		KUNIT_EXPECT_EQ(test, *(u32 *)rbt_event_data(ev), ids[i]);
		KUNIT_EXPECT_EQ_MSG(test, t, ts[i], "stamp of record %u", ids[i]);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
}

static struct rbt_range_info rg_info(struct kunit *test, struct rbt_buffer *buf, int cpu)
{
	struct rbt_range_info info;

	KUNIT_EXPECT_EQ(test, rbt_range_info(buf, cpu, &info), 0);
	return info;
}

static void rbtrace_range_reattach(struct kunit *test)
{
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_range_info info;
	struct rbt_buffer *buf;
	u64 first = 0, last = 0, i;
	const u64 n = 150;	/* about three sub-buffers: within one lap */

	buf = rg_attach(test, &r, 0);
	KUNIT_EXPECT_TRUE(test, rbt_in_range(buf));
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_FALSE(test, info.restored);
	KUNIT_EXPECT_FALSE(test, info.old);
	/* The range is the ring: no other size. */
	KUNIT_EXPECT_EQ(test, rbt_resize(buf, rbt_size(buf, cpu) * 2, RBT_ALL_CPUS), -EBUSY);
	KUNIT_EXPECT_EQ(test, rbt_set_subbuf_order(buf, 1), -EBUSY);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);

	/* The next boot. */
	buf = rg_attach(test, &r, 0);
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_TRUE(test, info.restored);
	KUNIT_EXPECT_TRUE(test, info.old);
	KUNIT_EXPECT_EQ(test, info.events, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, info.pages_bad, 0UL);
	KUNIT_EXPECT_GE(test, info.pages_data, 3UL);
	KUNIT_EXPECT_STREQ(test, info.clock, "local");
	KUNIT_EXPECT_EQ(test, rbt_entries(buf), n);
	/* Read-only until cleared. */
	KUNIT_EXPECT_NE(test, rg_write(buf, 999), 0);
	KUNIT_EXPECT_EQ(test, rg_drain(test, buf, cpu, true, &first, &last), (unsigned long)n);
	KUNIT_EXPECT_EQ(test, first, 1ULL);
	KUNIT_EXPECT_EQ(test, last, n);

	/* Cleared: recording goes on in the same memory. */
	rbt_reset(buf);
	KUNIT_EXPECT_FALSE(test, rg_info(test, buf, cpu).old);
	for (i = 1001; i <= 1010; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);

	buf = rg_attach(test, &r, 0);
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_TRUE(test, info.restored);
	KUNIT_EXPECT_EQ(test, info.events, 10UL);
	KUNIT_EXPECT_EQ(test, rg_drain(test, buf, cpu, true, &first, &last), 10UL);
	KUNIT_EXPECT_EQ(test, first, 1001ULL);
	rbt_free(buf);
}

/* Whole sub-buffers of a restored buffer: copies, every record in order. */
static void rbtrace_range_read_page(struct kunit *test)
{
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_read_page *rpage;
	struct rbt_buffer *buf;
	u64 i, expect = 1;
	const u64 n = 200;
	int ret, rounds = 0;

	buf = rg_attach(test, &r, 0);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);
	buf = rg_attach(test, &r, 0);

	rpage = rbt_alloc_read_page(buf, cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rpage));
	while ((ret = rbt_read_page(buf, rpage, PAGE_SIZE, cpu, false)) > 0 &&
	       ++rounds < 100) {
		struct rb_data_page *data = rbt_read_page_data(rpage);
		unsigned int pos = 0;

		while (pos < (unsigned int)ret) {
			struct rbt_event *ev = (void *)data->data + pos;

			if (rb_null_event(ev))
				break;
			if (ev->type_len <= RB_TYPE_DATA_MAX) {
				const struct rg_rec *rec = rbt_event_data(ev);

				KUNIT_ASSERT_TRUE(test, rg_whole(rec));
				KUNIT_EXPECT_EQ(test, rec->seq, expect);
				expect = rec->seq + 1;
			}
			pos += rb_event_length(ev);
		}
	}
	KUNIT_EXPECT_EQ(test, expect, n + 1);
	rbt_free_read_page(buf, cpu, rpage);
	rbt_free(buf);
}

static void rbtrace_range_wrapped(struct kunit *test)
{
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_buffer *buf;
	u64 first = 0, last = 0, i;
	unsigned long got;
	const u64 n = 20000;

	buf = rg_attach(test, &r, 0);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);

	buf = rg_attach(test, &r, 0);
	KUNIT_EXPECT_EQ(test, rg_info(test, buf, cpu).pages_bad, 0UL);
	got = rg_drain(test, buf, cpu, true, &first, &last);
	KUNIT_EXPECT_GT(test, got, 100UL);
	KUNIT_EXPECT_EQ(test, last, n);
	KUNIT_EXPECT_EQ(test, (u64)got, last - first + 1);
	rbt_free(buf);
}

static void rbtrace_range_corrupt(struct kunit *test)
{
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_range_info info;
	struct rbt_buffer *buf;
	u64 first = 0, last = 0, i;
	unsigned long before, got;
	const u64 n = 20000;

	buf = rg_attach(test, &r, 0);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);
	buf = rg_attach(test, &r, 0);
	before = rg_info(test, buf, cpu).pages_data;
	/* Three ways, newest pages first (each call skips pages it broke). */
	KUNIT_EXPECT_EQ(test, rbt_range_corrupt(buf, cpu, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, rbt_range_corrupt(buf, cpu, 1, 0), 1);
	KUNIT_EXPECT_EQ(test, rbt_range_corrupt(buf, cpu, 1, 2), 1);
	rbt_free(buf);

	buf = rg_attach(test, &r, 0);
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_TRUE(test, info.restored);
	/* Random events could decode by chance: at least the two others. */
	KUNIT_EXPECT_GE(test, info.pages_bad, 2UL);
	KUNIT_EXPECT_LE(test, info.pages_bad, 3UL);
	KUNIT_EXPECT_EQ(test, info.pages_data + info.pages_bad, before);
	got = rg_drain(test, buf, cpu, false, &first, &last);
	KUNIT_EXPECT_EQ(test, got, info.events);
	KUNIT_EXPECT_GT(test, got, 100UL);
	rbt_free(buf);
}

static void rbtrace_range_fresh(struct kunit *test)
{
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_buffer *buf;
	u64 i;

	/* Too small: not three sub-buffers per CPU. */
	KUNIT_EXPECT_NULL(test, rbt_alloc_in(r.start, 2 * PAGE_SIZE, 0, 0));
	KUNIT_EXPECT_NULL(test, rbt_alloc_in(r.start + 1, r.size - PAGE_SIZE, 0, 0));

	buf = rg_attach(test, &r, 0);
	for (i = 1; i <= 50; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);
	/* Another sub-buffer size: not this buffer any more. */
	buf = rg_attach(test, &r, 1);
	KUNIT_EXPECT_FALSE(test, rg_info(test, buf, cpu).restored);
	KUNIT_EXPECT_EQ(test, rbt_entries(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, rg_write(buf, 1), 0);
	rbt_free(buf);
	/* Garbage over the header. */
	memset(page_address(r.pages), 0x5a, PAGE_SIZE);
	buf = rg_attach(test, &r, 1);
	KUNIT_EXPECT_FALSE(test, rg_info(test, buf, cpu).restored);
	rbt_free(buf);
	/* Not a range buffer. */
	buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	KUNIT_EXPECT_FALSE(test, rbt_in_range(buf));
	{
		struct rbt_range_info info;

		KUNIT_EXPECT_EQ(test, rbt_range_info(buf, cpu, &info), -EINVAL);
	}
}

/* The client's metadata area: written, re-attached, a torn update. */
static void rbtrace_range_meta(struct kunit *test)
{
	static const char v1[] = "v1 boot one", v2[] = "v2 boot one, later";
	struct rg_range r = rg_range(test);
	char got[64];
	struct rbt_buffer *buf;
	size_t room;

	buf = rg_attach(test, &r, 0);
	room = rbt_range_meta_size(buf);
	KUNIT_EXPECT_GE(test, room, (size_t)4096);
	/* A fresh range has no previous boot's metadata. */
	KUNIT_EXPECT_EQ(test, rbt_range_meta_read(buf, got, sizeof(got)), (ssize_t)-ENOENT);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_write(buf, v1, room + 1), -E2BIG);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_write(buf, v1, sizeof(v1)), 0);
	rbt_free(buf);

	/* The next boot reads it; the old data's metadata is not rewritten. */
	buf = rg_attach(test, &r, 0);
	memset(got, 0, sizeof(got));
	KUNIT_EXPECT_EQ(test, rbt_range_meta_read(buf, got, sizeof(got)), (ssize_t)sizeof(v1));
	KUNIT_EXPECT_STREQ(test, got, v1);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_write(buf, v2, sizeof(v2)), -EBUSY);
	rbt_reset(buf);
	/* Two writes: the second's half is current, the first's the other. */
	KUNIT_EXPECT_EQ(test, rbt_range_meta_write(buf, v1, sizeof(v1)), 0);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_write(buf, v2, sizeof(v2)), 0);
	/* The read is still the previous boot's, a copy taken at attach. */
	KUNIT_EXPECT_EQ(test, rbt_range_meta_read(buf, got, sizeof(got)), (ssize_t)sizeof(v1));
#ifdef RBTRACE_TEST_HOOKS
	/* A crash inside a third write: the other half torn, index not flipped. */
	KUNIT_EXPECT_EQ(test, rbt_range_corrupt(buf, 0, 0, 3), 1);
#endif
	rbt_free(buf);

	buf = rg_attach(test, &r, 0);
	memset(got, 0, sizeof(got));
	KUNIT_EXPECT_EQ(test, rbt_range_meta_read(buf, got, sizeof(got)), (ssize_t)sizeof(v2));
	KUNIT_EXPECT_STREQ(test, got, v2);
	/* A short room: the length is told, what fits is copied. */
	memset(got, 0, sizeof(got));
	KUNIT_EXPECT_EQ(test, rbt_range_meta_read(buf, got, 2), (ssize_t)sizeof(v2));
	KUNIT_EXPECT_STREQ(test, got, "v2");
	rbt_free(buf);

	/* Not a range buffer. */
	buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_size(buf), (size_t)0);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_write(buf, v1, sizeof(v1)), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_range_meta_read(buf, got, sizeof(got)), (ssize_t)-EINVAL);
}

/*
 * Pages no writer commits, forged over the newest sub-buffer of a
 * previous boot (its commit word kept, or set just past the forgery):
 *
 *  - null: [0x1d][0][0] after the first event. A null padding ends a
 *    page only past its commit (rb_reset_tail() moves write back over
 *    it); inside, the bytes after it are never checked, and a reader
 *    that took the page would WARN on it and decode [0][0] as a long
 *    event of length 0 - 4.
 *  - extend, stamp: a time extend or an absolute stamp as the last
 *    thing before the commit: a reader would take the bytes past the
 *    commit (past the sub-buffer, on a full one) as its event.
 *
 * The page is refused, the others read whole, no event is longer than a
 * sub-buffer, and recording works after the reset (an RB_WARN_ON would
 * have stopped it for good).
 */
enum rg_forge { RG_NULL, RG_EXTEND, RG_STAMP };

static const enum rg_forge rg_forges[] = { RG_NULL, RG_EXTEND, RG_STAMP };

static void rg_forge_desc(const enum rg_forge *f, char *desc)
{
	static const char * const names[] = {
		"null padding inside the commit", "time extend last", "absolute stamp last",
	};

	strscpy(desc, names[*f], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rg_forges, rg_forges, rg_forge_desc);

static void rbtrace_range_forged(struct kunit *test)
{
	enum rg_forge forge = *(const enum rg_forge *)test->param_value;
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	unsigned long on_page = 0, got = 0, commit;
	struct rbt_range_info info;
	struct rb_data_page *page;
	struct rbt_buffer *buf;
	struct rbt_event *ev;
	struct rbt_kev *kev;
	const u64 n = 150;	/* three sub-buffers, the newest part full */
	u64 i, stamp;
	int k, nr;
	u32 *w;

	kev = kunit_kcalloc(test, 128, sizeof(*kev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kev);
	buf = rg_attach(test, &r, 0);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	/* The range keeps the page: the next attach finds it there. */
	page = rbt_cpu(buf, cpu)->tail_page->page;
	rbt_free(buf);
	commit = local_read(&page->commit);
	nr = rbt_walk(page, commit, kev, 128);
	KUNIT_ASSERT_GE(test, nr, 3);
	for (k = 0; k < nr; k++)
		on_page += kev[k].type_len <= RB_TYPE_DATA_MAX;

	/* Behind the first event, whatever stamp the second had. */
	w = (u32 *)(page->data + kev[1].off);
	switch (forge) {
	case RG_NULL:
		w[0] = RB_TYPE_PADDING;		/* 0x1d: delta 0 */
		w[1] = 0;
		w[2] = 0;
		break;
	case RG_EXTEND:
	case RG_STAMP:
		/* Not going back: only the missing event is wrong. */
		stamp = forge == RG_EXTEND ? 1 : kev[0].ts + 1;
		w[0] = (forge == RG_EXTEND ? RB_TYPE_TIME_EXTEND : RB_TYPE_TIME_STAMP) |
		       (u32)(stamp & RB_TS_MASK) << 5;
		w[1] = stamp >> RB_TS_SHIFT;
		local_set(&page->commit, kev[1].off + RB_LEN_TIME_EXTEND);
		break;
	}

	buf = rg_attach(test, &r, 0);
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_TRUE(test, info.restored);
	KUNIT_EXPECT_EQ(test, info.pages_bad, 1UL);
	while ((ev = rbt_consume(buf, cpu, NULL, NULL)) && got < 2 * n) {
		KUNIT_ASSERT_LE(test, rbt_event_length(ev), (unsigned int)PAGE_SIZE);
		KUNIT_ASSERT_EQ(test, rbt_event_length(ev), (unsigned int)sizeof(struct rg_rec));
		KUNIT_EXPECT_TRUE(test, rg_whole(rbt_event_data(ev)));
		got++;
	}
	/* Every record of the other pages, none of the refused one. */
	KUNIT_EXPECT_EQ(test, got, info.events);
	KUNIT_EXPECT_EQ(test, got, (unsigned long)n - on_page);
	rbt_reset(buf);
	KUNIT_EXPECT_TRUE(test, rbt_record_is_on(buf));
	KUNIT_EXPECT_EQ(test, rg_write(buf, 1), 0);
	KUNIT_EXPECT_EQ(test, rbt_entries(buf), 1ULL);
	rbt_free(buf);
}

static void rg_nested_write(void *arg)
{
	struct rbt_buffer *buf = arg;
	struct rbt_event *ev;

	rbt_fake_set(150);
	ev = rbt_lock_reserve(buf, sizeof(u32));
	if (ev) {
		*(u32 *)rbt_event_data(ev) = 2;
		rbt_unlock_commit(buf);
	}
}

/*
 * Absolute stamps that writers write below the running time, kept by
 * the next attach (rb_range_check_page() refused the page for them):
 *
 *  - discard: absolute mode, the page's first event e1 (stamp 100, the
 *    page's stamp too) is discarded after an interrupt wrote e2 behind
 *    it. It cannot give its space back, so it turns into padding with
 *    delta 1, and rb_event_discard() takes the 1 from its stamp (99),
 *    keeping e2's and e3's stamps exact.
 *  - forced: a reclaimed discard leaves before_stamp != write_stamp, so
 *    the next event takes an absolute stamp (FORCE) of the clock as it
 *    reads: 1500 after an event at 2000, the clock having stepped back.
 *  - absolute: absolute mode, the clock steps back from 2000 to 1500.
 */
enum rg_back { RG_BACK_DISCARD, RG_BACK_FORCED, RG_BACK_ABS };

static const enum rg_back rg_backs[] = { RG_BACK_DISCARD, RG_BACK_FORCED, RG_BACK_ABS };

static void rg_back_desc(const enum rg_back *b, char *desc)
{
	static const char * const names[] = {
		"discarded first event, absolute mode", "forced stamp, clock back",
		"absolute mode, clock back",
	};

	strscpy(desc, names[*b], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rg_backs, rg_backs, rg_back_desc);

static void rbtrace_range_stamps_back(struct kunit *test)
{
	enum rg_back back = *(const enum rg_back *)test->param_value;
	static const u32 ids_discard[] = { 2, 3 }, ids_back[] = { 1, 3, 4 };
	static const u64 ts_discard[] = { 150, 200 }, ts_back[] = { 2000, 1500, 1600 };
	unsigned int flags = back == RG_BACK_FORCED ? 0 : RBT_FL_ABS_TS;
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_range_info info;
	struct rbt_buffer *buf;
	struct rbt_event *ev;
	struct rbt_cpu_stats st;
	int n;

	buf = rbt_alloc_in(r.start, r.size, flags, 0);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	if (back == RG_BACK_DISCARD) {
		rbt_fake_set(100);
		ev = rbt_lock_reserve(buf, sizeof(u32));
		KUNIT_ASSERT_NOT_NULL(test, ev);
		*(u32 *)rbt_event_data(ev) = 1;
		KUNIT_EXPECT_EQ(test, rbt_nest(RBT_NEST_IRQ_WORK, rg_nested_write, buf), 0);
		rbt_discard_commit(buf, ev);
		rg_write_at(test, buf, 3, 200);
		st = rbt_stats(test, buf, cpu);
		KUNIT_EXPECT_EQ(test, st.discarded, 1ULL);
		KUNIT_EXPECT_EQ(test, st.reclaimed, 0ULL);
		n = 2;
	} else {
		rg_write_at(test, buf, 1, 2000);
		if (back == RG_BACK_FORCED) {
			rbt_fake_set(2100);
			ev = rbt_lock_reserve(buf, sizeof(u32));
			KUNIT_ASSERT_NOT_NULL(test, ev);
			rbt_discard_commit(buf, ev);
			KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).reclaimed, 1ULL);
		}
		rg_write_at(test, buf, 3, 1500);
		rg_write_at(test, buf, 4, 1600);
		n = 3;
	}
	rbt_free(buf);

	buf = rbt_alloc_in(r.start, r.size, flags, 0);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_TRUE(test, info.restored);
	KUNIT_EXPECT_EQ(test, info.pages_bad, 0UL);
	KUNIT_EXPECT_EQ(test, info.events, (unsigned long)n);
	if (back == RG_BACK_DISCARD)
		rg_expect_ids(test, buf, cpu, ids_discard, ts_discard, n);
	else
		rg_expect_ids(test, buf, cpu, ids_back, ts_back, n);
	rbt_free(buf);
}

/*
 * Sub-buffers of 8 KiB (order 1) in a range: each aligned to its size,
 * as rb_event_index() and the discard paths find an event's page by
 * masking its address. A discard of the last event gives its space back
 * and recording stays on; the first event of a page too (rb_event_discard()
 * takes the 1 from the page's stamp at index 0). The next attach reads
 * every record.
 */
static void rbtrace_range_order1_discard(struct kunit *test)
{
	const unsigned long sub = PAGE_SIZE << 1;
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_range_info info;
	struct rbt_cpu_stats st;
	struct rbt_buffer *buf;
	struct rbt_event *ev;
	u64 first = 0, last = 0, i;
	unsigned long w0;

	buf = rg_attach(test, &r, 1);
	KUNIT_EXPECT_EQ(test, (unsigned long)rbt_cpu(buf, cpu)->reader_page->page & (sub - 1), 0UL);
	KUNIT_EXPECT_EQ(test, (unsigned long)rbt_cpu(buf, cpu)->tail_page->page & (sub - 1), 0UL);

	/* The first event of the page. */
	ev = rbt_lock_reserve(buf, sizeof(struct rg_rec));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	rbt_discard_commit(buf, ev);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), 0UL);
	for (i = 1; i <= 3; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	/* The last. */
	w0 = rbt_tail_write(buf, cpu);
	ev = rbt_lock_reserve(buf, sizeof(struct rg_rec));
	KUNIT_ASSERT_NOT_NULL(test, ev);
	rbt_discard_commit(buf, ev);

	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.discarded, 2ULL);
	KUNIT_EXPECT_EQ(test, st.reclaimed, 2ULL);
	KUNIT_EXPECT_EQ(test, rbt_tail_write(buf, cpu), w0);
	KUNIT_EXPECT_EQ(test, st.entries, 3ULL);
	KUNIT_EXPECT_TRUE(test, rbt_record_is_on(buf));
	KUNIT_ASSERT_EQ(test, rg_write(buf, 4), 0);
	rbt_free(buf);

	buf = rg_attach(test, &r, 1);
	info = rg_info(test, buf, cpu);
	KUNIT_EXPECT_TRUE(test, info.restored);
	KUNIT_EXPECT_EQ(test, info.pages_bad, 0UL);
	KUNIT_EXPECT_EQ(test, rg_drain(test, buf, cpu, true, &first, &last), 4UL);
	KUNIT_EXPECT_EQ(test, first, 1ULL);
	KUNIT_EXPECT_EQ(test, last, 4ULL);
	rbt_free(buf);
}

/*
 * A range laid out before sub-buffers were aligned: CPU 0's pages right
 * after the metadata (the header's hdr_size says where, its third word).
 * At order 1 that is another place than this load's: refused cleanly,
 * a fresh start, not pages read at the wrong offsets.
 */
static void rbtrace_range_old_layout(struct kunit *test)
{
	struct rg_range r = rg_range(test);
	int cpu = rbt_kunit_pin(test);
	struct rbt_buffer *buf;
	u32 *hdr = page_address(r.pages);
	u32 aligned;
	u64 i;

	buf = rg_attach(test, &r, 1);
	for (i = 1; i <= 50; i++)
		KUNIT_ASSERT_EQ(test, rg_write(buf, i), 0);
	rbt_free(buf);
	aligned = hdr[2];
	KUNIT_EXPECT_EQ(test, aligned % (PAGE_SIZE << 1), 0U);
	/*
	 * The old hdr_size: the header (72 bytes and 16 a CPU) page aligned,
	 * and the two 8 KiB metadata halves.
	 */
	hdr[2] = PAGE_ALIGN(72 + nr_cpu_ids * 16) + 2 * 8192;
	KUNIT_ASSERT_NE(test, hdr[2], aligned);

	buf = rg_attach(test, &r, 1);
	KUNIT_EXPECT_FALSE(test, rg_info(test, buf, cpu).restored);
	KUNIT_EXPECT_EQ(test, rbt_entries(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, rg_write(buf, 1), 0);
	rbt_free(buf);
}

static int rbtrace_range_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_range_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_range_cases[] = {
	KUNIT_CASE(rbtrace_range_reattach),
	KUNIT_CASE(rbtrace_range_read_page),
	KUNIT_CASE(rbtrace_range_wrapped),
	KUNIT_CASE(rbtrace_range_corrupt),
	KUNIT_CASE(rbtrace_range_fresh),
	KUNIT_CASE(rbtrace_range_meta),
	KUNIT_CASE_PARAM(rbtrace_range_forged, rg_forges_gen_params),
	KUNIT_CASE_PARAM(rbtrace_range_stamps_back, rg_backs_gen_params),
	KUNIT_CASE(rbtrace_range_order1_discard),
	KUNIT_CASE(rbtrace_range_old_layout),
	{}
};

static struct kunit_suite rbtrace_range_suite = {
	.name = "rbtrace_range",
	.suite_init = rbtrace_range_suite_init,
	.suite_exit = rbtrace_range_suite_exit,
	.test_cases = rbtrace_range_cases,
};

kunit_test_suite(rbtrace_range_suite);
