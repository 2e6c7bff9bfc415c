/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's file interface under /sys/kernel/debug/rbtrace/: the root of
 * the tree and the buffer's control files (rb_debugfs.c). The tracer's
 * own files and state are in tracer/trace.h.
 */
#ifndef _RB_DEBUGFS_H
#define _RB_DEBUGFS_H

struct rbtr_trace;

int rb_debugfs_init(struct rbtr_trace *tr);
void rb_debugfs_exit(struct rbtr_trace *tr);

#endif /* _RB_DEBUGFS_H */
