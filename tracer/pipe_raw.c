// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace per_cpu/cpuN/trace_pipe_raw: the CPU's sub-buffers in ftrace's
 * page format, consumed, as trace-cmd and libtracefs read them:
 *
 *  - read() hands out one sub-buffer at a time, the partly written one
 *    too (trace-cmd's final flush needs it); a read shorter than a
 *    sub-buffer gets the rest of it on the next reads;
 *  - splice() moves whole sub-buffers only, from a sub-buffer aligned
 *    position, and only those the writer has left; a full page the
 *    writer has left is swapped out of the ring and given to the pipe
 *    without a copy;
 *  - poll() waits for buffer_percent; ioctl(fd, 0) wakes the readers
 *    blocked on this file, which then return 0 (end of data);
 *  - mmap() maps the CPU's ring read-only, in tracefs's layout, and
 *    ioctl(fd, RBT_MMAP_IOCTL_GET_READER) hands out its next reader page
 *    (rb_mmap.c, rbtrace_mmap.h). The mapping is then the CPU's only
 *    consumer: read() and splice() fail with -EBUSY on every descriptor
 *    (rbt_read_page()) until the last munmap().
 *
 * Pages given to a pipe hold only a page reference: the pipe frees them
 * with put_page() through the kernel's own pipe_buf_operations, so no
 * rbtrace code runs when the pipe lets go, even after rmmod.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>
#include <rbtrace/rbtrace_mmap.h>
#include "trace.h"

/*
 * struct rbtr_raw_iter - one open trace_pipe_raw
 * @tr: the tracer
 * @buffer: the buffer read (rbtr_reader_open()): for trace_pipe_raw the
 *          live one, followed across swaps (rbtr_raw_follow()); for
 *          snapshot_raw the snapshot of the open
 * @polled: the buffers it polled, pinned (rbtr_reader_poll_pin())
 * @snapshot: snapshot_raw: nothing records into it, an empty one is
 *            the end of the data, not a reason to wait
 * @lock: one reader of this file at a time; not held while sleeping
 * @cpu: the CPU
 * @spare: the page read() hands out, allocated at the first read; of
 *         @buffer, given back to it before the reader follows another
 * @read: bytes of @spare already read; rbtr_raw_size() means none left
 * @wait_index: bumped by ioctl(0) and flush, to end a wait
 * @stopped: ioctl(0) or close was seen: a non-blocking read with nothing
 *           to hand out is the end of data, not -EAGAIN (trace-cmd 3.1.6
 *           stops reading on -EAGAIN before its final flush)
 */
struct rbtr_raw_iter {
	struct rbtr_trace	*tr;
	struct rbt_buffer	*buffer;
	unsigned int		polled;
	bool			snapshot;
	struct mutex		lock;		/* see above */
	int			cpu;
	struct rbt_read_page	*spare;
	size_t			read;
	atomic_t		wait_index;
	bool			stopped;
};

/* Bytes of one sub-buffer as user space sees it: header and data. */
static size_t rbtr_raw_size(struct rbtr_raw_iter *it)
{
	return rbt_read_page_size(it->buffer);
}

/*
 * trace_pipe_raw reads the live buffer, as ftrace's reads tr->array_buffer:
 * after a snapshot, the pages recorded since. The read page is of the
 * buffer it was allocated from: given back to it first. A page still
 * partly unread is handed out first (its rest is of the old buffer, and
 * consumed): the reader follows at its next page. it->lock held.
 * Return: true when the reader moved to another buffer.
 */
static bool rbtr_raw_follow(struct rbtr_raw_iter *it)
{
	if (it->snapshot || likely(READ_ONCE(it->tr->buffer) == it->buffer))
		return false;
	if (it->spare && it->read < rbtr_raw_size(it))
		return false;
	if (it->spare) {
		rbt_free_read_page(it->buffer, it->cpu, it->spare);
		it->spare = NULL;
	}
	it->buffer = rbtr_reader_follow(it->tr, it->buffer);
	return true;
}

/*
 * Sleep until the CPU has data (@full: buffer_percent) or ioctl(0) wakes
 * us. Called and returns with it->lock held. Return: 1 to try again, 0
 * when woken by ioctl(0) or close, -EINTR.
 */
static int rbtr_raw_wait(struct rbtr_raw_iter *it, int full)
{
	int idx = atomic_read(&it->wait_index), ret;
	struct rbt_buffer *buffer = it->buffer;

	/* Another thread of this file may follow meanwhile: our own pin. */
	rbtr_reader_pin(it->tr, buffer);
	mutex_unlock(&it->lock);
	ret = rbt_wait(buffer, it->cpu, full);
	rbtr_reader_unpin(it->tr, buffer);
	mutex_lock(&it->lock);
	if (ret)
		return ret;
	return atomic_read(&it->wait_index) == idx;
}

/* Put the next sub-buffer into it->spare. Return: 1, 0 (end), -errno. */
static int rbtr_raw_fill(struct rbtr_raw_iter *it, struct file *file)
{
	struct rbt_read_page *page;
	int ret;

	for (;;) {
		/* Another reader of this file may have filled it meanwhile. */
		if (it->spare && it->read < rbtr_raw_size(it))
			return 1;
		rbtr_raw_follow(it);
		if (!it->spare) {
			page = rbt_alloc_read_page(it->buffer, it->cpu);
			if (IS_ERR(page))
				return PTR_ERR(page);
			it->spare = page;
		}
		rbtr_access_lock(it->tr, it->cpu);
		ret = rbt_read_page(it->buffer, it->spare, rbtr_raw_size(it), it->cpu, false);
		rbtr_access_unlock(it->tr, it->cpu);
		if (ret > 0) {
			it->read = 0;
			return 1;
		}
		if (ret != -EAGAIN)
			return ret;
		if (it->snapshot)
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return it->stopped ? 0 : -EAGAIN;
		ret = rbtr_raw_wait(it, 0);
		if (ret <= 0)
			return ret;
	}
}

static ssize_t rbtr_raw_read(struct file *file, char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	struct rbtr_raw_iter *it = file->private_data;
	ssize_t ret;
	size_t n;

	if (!cnt)
		return 0;
	mutex_lock(&it->lock);
	ret = rbtr_raw_fill(it, file);
	if (ret <= 0)
		goto out;
	n = min(rbtr_raw_size(it) - it->read, cnt);
	if (copy_to_user(ubuf, rbt_read_page_data(it->spare) + it->read, n)) {
		ret = -EFAULT;
		goto out;
	}
	it->read += n;
	*ppos += n;
	ret = n;
out:
	mutex_unlock(&it->lock);
	return ret;
}

static void rbtr_raw_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

/*
 * Move whole sub-buffers the writer has left into @spd, while @len
 * allows. Return: how many, or -errno if none.
 */
static int rbtr_raw_splice_pages(struct rbtr_raw_iter *it, struct splice_pipe_desc *spd,
				 size_t len)
{
	size_t size = rbtr_raw_size(it);
	struct rbt_read_page *rpage;
	struct page *page;
	int i, r = 0;

	for (i = 0; i < spd->nr_pages_max && len >= size; i++, len -= size) {
		rpage = rbt_alloc_read_page(it->buffer, it->cpu);
		if (IS_ERR(rpage)) {
			r = PTR_ERR(rpage);
			break;
		}
		rbtr_access_lock(it->tr, it->cpu);
		r = rbt_read_page(it->buffer, rpage, size, it->cpu, true);
		rbtr_access_unlock(it->tr, it->cpu);
		if (r < 0) {
			rbt_free_read_page(it->buffer, it->cpu, rpage);
			break;
		}
		/*
		 * The pipe's reference keeps the page; rbt_free_read_page()
		 * sees it and frees only ours instead of recycling the page.
		 */
		page = rbt_read_page_page(rpage);
		get_page(page);
		rbt_free_read_page(it->buffer, it->cpu, rpage);
		spd->pages[i] = page;
		spd->partial[i].offset = 0;
		spd->partial[i].len = size;
		spd->partial[i].private = 0;
	}
	return i ? i : r;
}

static ssize_t rbtr_raw_splice_read(struct file *file, loff_t *ppos,
				    struct pipe_inode_info *pipe, size_t len,
				    unsigned int flags)
{
	struct rbtr_raw_iter *it = file->private_data;
	struct partial_page partial[PIPE_DEF_BUFFERS];
	struct page *pages[PIPE_DEF_BUFFERS];
	struct splice_pipe_desc spd = {
		.pages		= pages,
		.partial	= partial,
		.nr_pages_max	= PIPE_DEF_BUFFERS,
		.ops		= &nosteal_pipe_buf_ops,
		.spd_release	= rbtr_raw_spd_release,
	};
	bool woken = false;
	ssize_t ret;
	int n;

	/* tracefs's contract: whole sub-buffers from an aligned position. */
	if (!IS_ALIGNED(*ppos, rbtr_raw_size(it)) || len < rbtr_raw_size(it))
		return -EINVAL;
	mutex_lock(&it->lock);
	for (;;) {
		/* Woken by a swap: wait on the new live buffer, not return 0. */
		if (rbtr_raw_follow(it))
			woken = false;
		n = rbtr_raw_splice_pages(it, &spd, len);
		if (n > 0)
			break;
		ret = n == -EAGAIN ? 0 : n;
		/* Woken once already, or tracing off: nothing more will come. */
		if (ret || woken || it->snapshot)
			goto out;
		if ((file->f_flags & O_NONBLOCK) || (flags & SPLICE_F_NONBLOCK)) {
			ret = it->stopped ? 0 : -EAGAIN;
			goto out;
		}
		/*
		 * Woken: by data, by ioctl(0) or close (0), or by tracing_on
		 * going to 0. Then try once more, and splice what is there
		 * or return 0: never the wait's 1, which would read as one
		 * byte spliced.
		 */
		ret = rbtr_raw_wait(it, rbtr_buffer_percent(it->tr));
		if (ret <= 0)
			goto out;
		woken = true;
	}
	spd.nr_pages = n;
	*ppos += (loff_t)n * rbtr_raw_size(it);
	ret = splice_to_pipe(pipe, &spd);
out:
	mutex_unlock(&it->lock);
	return ret;
}

static __poll_t rbtr_raw_poll(struct file *file, struct poll_table_struct *pt)
{
	struct rbtr_raw_iter *it = file->private_data;
	__poll_t ret;

	mutex_lock(&it->lock);
	rbtr_raw_follow(it);
	/* An epoll entry outlives this call: the buffer stays pinned. */
	rbtr_reader_poll_pin(it->tr, it->buffer, &it->polled);
	ret = rbt_poll_wait(it->buffer, it->cpu, file, pt, rbtr_buffer_percent(it->tr));
	mutex_unlock(&it->lock);
	return ret;
}

/*
 * End the waits of this file's readers (they return 0). Under it->lock,
 * which a sleeper does not hold, so that @buffer is not dropped by a
 * follow meanwhile; a sleeper on the buffer before a swap was woken by
 * the swap (rbtr_snap_wake()) and sees wait_index.
 */
static void rbtr_raw_wake(struct rbtr_raw_iter *it)
{
	WRITE_ONCE(it->stopped, true);
	atomic_inc(&it->wait_index);
	mutex_lock(&it->lock);
	rbt_wake_waiters(it->buffer, it->cpu);
	mutex_unlock(&it->lock);
}

/*
 * GET_READER on a mapping: wait for buffer_percent as a read does (not
 * with O_NONBLOCK), then hand the next sub-buffer to user space.
 *
 * A CPU not mapped is refused at once with -ENODEV, before any wait, as
 * ftrace's rb_get_mapped_buffer(): such a descriptor may be bound to a
 * buffer a swap made the snapshot, which nothing wakes and which
 * "echo 0 > snapshot" frees once the file follows the live one. A mapped
 * buffer is the live one (no swap while mapped: rbtr_raw_mmap()).
 *
 * The mapping may go while we sleep: the wait (rbtr_raw_wait()) holds
 * its own pin on the buffer it sleeps on, so "echo 0 > snapshot" refuses
 * with -EBUSY until it returns, whoever else follows meanwhile (munmap,
 * a swap, a read of this file on another thread: the file's pin moves,
 * ours stays). Back under it->lock, it->buffer is the file's, pinned by
 * the file, maybe another buffer than the one slept on;
 * rbt_map_get_reader() checks its mapping again under mapping_lock and
 * returns -ENODEV if it is gone. Left to a signal: a munmap() and a swap
 * between the check and the sleep, the swap's wake (rbtr_snap_wake())
 * run before it, leave us asleep on what is now the snapshot, where no
 * data comes; a signal, ioctl(0) or close ends that wait, and until then
 * "echo 0 > snapshot" refuses (-EBUSY): never a freed buffer.
 */
static long rbtr_raw_get_reader(struct file *file, struct rbtr_raw_iter *it)
{
	long ret;

	mutex_lock(&it->lock);
	if (!rbt_cpu_mapped(it->buffer, it->cpu)) {
		ret = -ENODEV;
		goto out;
	}
	if (!(file->f_flags & O_NONBLOCK)) {
		/* 1 (data or a swap) and 0 (ioctl(0), close): hand out what is there. */
		ret = rbtr_raw_wait(it, rbtr_buffer_percent(it->tr));
		if (ret < 0)
			goto out;
	}
	/* A consuming reader of another file must not swap meanwhile. */
	rbtr_access_lock(it->tr, it->cpu);
	ret = rbt_map_get_reader(it->buffer, it->cpu);
	rbtr_access_unlock(it->tr, it->cpu);
out:
	mutex_unlock(&it->lock);
	return ret;
}

/*
 * ioctl(fd, 0): wake the blocked readers, as tracefs's;
 * RBT_MMAP_IOCTL_GET_READER: the next reader page of a mapping.
 */
static long rbtr_raw_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == RBT_MMAP_IOCTL_GET_READER)
		return rbtr_raw_get_reader(file, file->private_data);
	if (cmd)
		return -ENOTTY;
	rbtr_raw_wake(file->private_data);
	return 0;
}

/* A VMA copied from ours (mremap()) is one more mapping to count. */
static void rbtr_raw_vm_open(struct vm_area_struct *vma)
{
	struct rbtr_raw_iter *it = vma->vm_file->private_data;

	rbtr_snapshot_map_get(it->tr);
	rbt_map_dup(it->buffer, it->cpu);
}

/*
 * The ptes hold no page references (VM_PFNMAP, rb_mmap.c): they go first,
 * then the last rbt_unmap() may let the pages go. munmap() and exit zap
 * them before ->close already, the error path of an older mmap_region()
 * after ->mmap did not: this makes the order certain.
 */
static void rbtr_raw_vm_close(struct vm_area_struct *vma)
{
	struct rbtr_raw_iter *it = vma->vm_file->private_data;

	zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
	WARN_ON_ONCE(rbt_unmap(it->buffer, it->cpu));
	rbtr_snapshot_map_put(it->tr);
}

/* The mapping is the meta page and the ring as one: no partial munmap(). */
static int rbtr_raw_vm_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct rbtr_raw_vm_ops = {
	.open		= rbtr_raw_vm_open,
	.close		= rbtr_raw_vm_close,
	.may_split	= rbtr_raw_vm_may_split,
};

/* mmap(): the meta page and the sub-buffers, read-only (rbtrace_mmap.h). */
static int rbtr_raw_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct rbtr_raw_iter *it = file->private_data;
	int ret;

	/* No snapshot swaps the buffer away while it is mapped. */
	rbtr_snapshot_map_get(it->tr);
	/*
	 * Then it stays live. One made the snapshot by a swap since this
	 * file's last read is not mapped: following takes it->lock, which
	 * a read holds across copy_to_user() (mmap_lock), and mmap() runs
	 * under mmap_lock. A read (or a new open) follows first.
	 */
	if (READ_ONCE(it->tr->buffer) != it->buffer) {
		rbtr_snapshot_map_put(it->tr);
		return -EBUSY;
	}
	ret = rbt_map(it->buffer, it->cpu, vma);
	if (ret) {
		rbtr_snapshot_map_put(it->tr);
		return ret;
	}
	vma->vm_ops = &rbtr_raw_vm_ops;
	return 0;
}

/* A close from another thread must not leave a reader blocked forever. */
static int rbtr_raw_flush(struct file *file, fl_owner_t id)
{
	rbtr_raw_wake(file->private_data);
	return 0;
}

static int rbtr_raw_open_buffer(struct inode *inode, struct file *file, bool snapshot)
{
	struct rbtr_raw_iter *it;
	int ret;

	ret = rbtr_check_open();
	if (ret)
		return ret;
	ret = rbtr_trace_get(rbtr_file_trace(inode));
	if (ret)
		return ret;
	it = kzalloc(sizeof(*it), GFP_KERNEL);
	if (!it) {
		rbtr_trace_put(rbtr_file_trace(inode));
		return -ENOMEM;
	}
	/* Its spare page and positions are of the present sub-buffer size. */
	it->tr = rbtr_file_trace(inode);
	it->snapshot = snapshot;
	it->buffer = rbtr_reader_open(it->tr, snapshot);
	if (!it->buffer) {
		/* snapshot_raw with no snapshot allocated */
		rbtr_reader_close(it->tr, NULL);
		rbtr_trace_put(it->tr);
		kfree(it);
		return -ENODEV;
	}
	mutex_init(&it->lock);
	it->cpu = rbtr_file_cpu(inode);
	it->read = rbtr_raw_size(it);
	atomic_set(&it->wait_index, 0);
	file->private_data = it;
	return nonseekable_open(inode, file);
}

static int rbtr_raw_release(struct inode *inode, struct file *file)
{
	struct rbtr_raw_iter *it = file->private_data;

	if (it->spare)
		rbt_free_read_page(it->buffer, it->cpu, it->spare);
	mutex_destroy(&it->lock);
	rbtr_reader_poll_unpin(it->tr, it->polled);
	rbtr_reader_close(it->tr, it->buffer);
	rbtr_trace_put(it->tr);
	kfree(it);
	return 0;
}

static int rbtr_raw_open(struct inode *inode, struct file *file)
{
	return rbtr_raw_open_buffer(inode, file, false);
}

static int rbtr_snapshot_raw_open(struct inode *inode, struct file *file)
{
	return rbtr_raw_open_buffer(inode, file, true);
}

/*
 * Created with debugfs_create_file_unsafe(): debugfs's proxy would drop
 * .splice_read and .flush. The module reference open takes (.owner)
 * keeps rmmod away while the file is open.
 */
const struct file_operations rbtr_pipe_raw_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_raw_open,
	.read		= rbtr_raw_read,
	.splice_read	= rbtr_raw_splice_read,
	.poll		= rbtr_raw_poll,
	.unlocked_ioctl	= rbtr_raw_ioctl,
	.mmap		= rbtr_raw_mmap,
	.flush		= rbtr_raw_flush,
	.release	= rbtr_raw_release,
};

/*
 * per_cpu/cpuN/snapshot_raw: the snapshot's sub-buffers, consumed as
 * trace_pipe_raw's are; no mmap (ftrace's snapshot_raw has none either).
 */
const struct file_operations rbtr_snapshot_raw_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_snapshot_raw_open,
	.read		= rbtr_raw_read,
	.splice_read	= rbtr_raw_splice_read,
	.poll		= rbtr_raw_poll,
	.unlocked_ioctl	= rbtr_raw_ioctl,
	.flush		= rbtr_raw_flush,
	.release	= rbtr_raw_release,
};
