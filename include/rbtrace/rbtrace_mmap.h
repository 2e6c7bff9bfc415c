/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rbtrace: mapping a CPU's ring into user space, through
 * per_cpu/cpuN/trace_pipe_raw. The ABI is Linux 6.10's
 * include/uapi/linux/trace_mmap.h, so that a program written for
 * tracefs's mapping works on rbtrace's file unchanged; it is spelled out
 * here because kernels before 6.10 (Debian 12's 6.1) lack that header.
 *
 * The mapping, read-only and shared:
 *
 *	offset 0			the meta page (struct rbt_buffer_meta)
 *	meta_page_size			sub-buffer 0
 *	meta_page_size + subbuf_size	sub-buffer 1
 *	...				up to nr_subbufs - 1
 *
 * ioctl(fd, RBT_MMAP_IOCTL_GET_READER) makes the next sub-buffer with
 * unread data the reader's (reader.id) and counts its events as read;
 * without O_NONBLOCK it first waits for buffer_percent as a read does.
 */
#ifndef _RBTRACE_MMAP_H
#define _RBTRACE_MMAP_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * struct rbt_buffer_meta - the meta page, laid out as struct trace_buffer_meta
 * @meta_page_size: bytes before sub-buffer 0 (a sub-buffer's size)
 * @meta_struct_len: sizeof(struct rbt_buffer_meta)
 * @subbuf_size: bytes of one sub-buffer, header included
 * @nr_subbufs: sub-buffers in the mapping, the reader's included
 * @reader: the reader's sub-buffer
 * @reader.lost_events: events lost before it, at the last GET_READER
 * @reader.id: its index in the mapping, 0 to nr_subbufs - 1
 * @reader.read: bytes of it counted as read
 * @flags: 0
 * @entries: events in the ring
 * @overrun: events overwritten
 * @read: events counted as read
 * @reserved1: 0 (Reserved1 in trace_mmap.h)
 * @reserved2: 0 (Reserved2 in trace_mmap.h)
 */
struct rbt_buffer_meta {
	__u32		meta_page_size;
	__u32		meta_struct_len;

	__u32		subbuf_size;
	__u32		nr_subbufs;

	struct {
		__u64	lost_events;
		__u32	id;
		__u32	read;
	} reader;

	__u64	flags;

	__u64	entries;
	__u64	overrun;
	__u64	read;

	__u64	reserved1;
	__u64	reserved2;
};

/* TRACE_MMAP_IOCTL_GET_READER */
#define RBT_MMAP_IOCTL_GET_READER	_IO('R', 0x20)

#endif /* _RBTRACE_MMAP_H */
