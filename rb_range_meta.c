// SPDX-License-Identifier: GPL-2.0
/*
 * The client's metadata area of a buffer in a memory range: up to
 * RB_RANGE_META_MAX bytes of its own beside the data (what a later boot
 * needs to decode it), in two halves of which one is current, so that a
 * crash inside a write leaves the previous one whole. Opaque here.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "rb_range.h"

/*
 * Keep a copy of the previous boot's metadata, the current half as its
 * last completed rbt_range_meta_write() left it: the partner of that
 * write's smp_wmb() and cleans is this read, a boot later (through
 * memory: see rb_range_clean()). A half whose length does not fit is no
 * metadata (never trusted, as a bad page is not).
 */
void rb_range_take_meta(struct rb_range *range)
{
	u32 cur = READ_ONCE(range->hdr->meta_cur);
	struct rb_range_meta *meta;

	if (cur > 1)
		return;
	meta = rb_range_meta(range, cur);
	if (!meta->len || meta->len > RB_RANGE_META_MAX)
		return;
	range->old_meta = kmemdup(meta->data, meta->len, GFP_KERNEL);
	if (range->old_meta)
		range->old_meta_len = meta->len;
}

/**
 * rbt_range_meta_size - room for the client's metadata in a range buffer
 * @buffer: the buffer
 *
 * A range keeps a few KiB of the client's own bytes beside the data (what
 * a later boot needs to decode it: addresses, names of event types...),
 * opaque to the ring buffer: rbt_range_meta_write() stores them,
 * rbt_range_meta_read() gives a later boot the last complete write.
 *
 * Return: the most bytes rbt_range_meta_write() takes; 0 for a buffer not
 * from rbt_alloc_in().
 */
size_t rbt_range_meta_size(struct rbt_buffer *buffer)
{
	return buffer->range ? RB_RANGE_META_MAX : 0;
}
EXPORT_SYMBOL_GPL(rbt_range_meta_size);

/**
 * rbt_range_meta_write - store the client's metadata for a later boot
 * @buffer: a buffer of rbt_alloc_in()
 * @data: the bytes
 * @len: how many, at most rbt_range_meta_size()
 *
 * Crash-consistent: the bytes go to the half of the area that is not
 * current, then the index flips to it after an smp_wmb(). A crash or a
 * panic at any point leaves the current half whole, the previous write's
 * or this one's. While the previous boot's data is shown (until
 * rbt_reset()) its metadata is kept: the area describes the data in the
 * range, and a reboot before the reset must find the two together.
 * Sleeps (a mutex serializes writers).
 *
 * Return: 0; -EINVAL for a buffer not from rbt_alloc_in(), -E2BIG for
 * @len too long, -EBUSY while the previous boot's data is shown.
 */
int rbt_range_meta_write(struct rbt_buffer *buffer, const void *data, size_t len)
{
	struct rb_range *range = buffer->range;
	struct rb_range_meta *cur, *next;
	u32 idx;

	if (!range)
		return -EINVAL;
	if (len > RB_RANGE_META_MAX)
		return -E2BIG;
	mutex_lock(&range->meta_lock);
	if (atomic_read(&range->old)) {
		mutex_unlock(&range->meta_lock);
		return -EBUSY;
	}
	idx = READ_ONCE(range->hdr->meta_cur) & 1;
	cur = rb_range_meta(range, idx);
	next = rb_range_meta(range, !idx);
	/*A: the half nobody trusts now */
	memcpy(next->data, data, len);
	next->len = len;
	next->seq = cur->seq + 1;
	rb_range_clean(next, sizeof(*next) + len);
	/*
	 *B: then the index. Its partner is no reader of this boot but the
	 * next boot's read of the index before the half
	 * (rb_range_take_meta()), through memory: the smp_wmb() orders the
	 * two in the caches, the cleans (elsewhere than x86, see
	 * rb_range_clean()) put the half in memory before the index. A
	 * crash before this store leaves the old half current, never the
	 * index on a half-written one.
	 */
	smp_wmb();
	WRITE_ONCE(range->hdr->meta_cur, !idx);
	rb_range_clean(&range->hdr->meta_cur, sizeof(range->hdr->meta_cur));
	mutex_unlock(&range->meta_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_range_meta_write);

/**
 * rbt_range_meta_read - the previous boot's metadata
 * @buffer: a buffer of rbt_alloc_in()
 * @data: where to copy it
 * @len: room at @data
 *
 * What the last complete rbt_range_meta_write() of the boot whose data
 * the range held stored, as found when @buffer was allocated (a copy:
 * this boot's writes do not change it).
 *
 * Return: its length (min() of it and @len is copied); -EINVAL for a
 * buffer not from rbt_alloc_in(), -ENOENT if the range held no data of a
 * previous boot or no metadata.
 */
ssize_t rbt_range_meta_read(struct rbt_buffer *buffer, void *data, size_t len)
{
	struct rb_range *range = buffer->range;

	if (!range)
		return -EINVAL;
	if (!range->old_meta)
		return -ENOENT;
	memcpy(data, range->old_meta, min(len, range->old_meta_len));
	return range->old_meta_len;
}
EXPORT_SYMBOL_GPL(rbt_range_meta_read);
