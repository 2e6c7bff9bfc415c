/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace stack traces: ftrace's kernel_stack record (ftrace:kernel_stack,
 * id TRACE_STACK), written after each event while options/stacktrace is
 * 1, and by whoever else wants one (the stacktrace trigger).
 */
#ifndef _RBTR_STACK_H
#define _RBTR_STACK_H

#include <linux/jump_label.h>

struct ftrace_ops;
struct rbt_buffer;
struct rbtr_trace;
struct dentry;
struct pt_regs;
struct seq_file;

/* On while options/stacktrace is 1: tested by rbtr_event_commit(). */
DECLARE_STATIC_KEY_FALSE(rbtr_stacktrace_key);

void rbtr_stack_write(struct rbt_buffer *buffer, unsigned int ctx, unsigned int skip);
void rbtr_stack_write_fn(struct rbt_buffer *buffer, unsigned int ctx, unsigned long ret,
			 const struct ftrace_ops *ops);
void rbtr_stack_write_probe(struct rbt_buffer *buffer, unsigned int ctx, unsigned long ret);
void rbtr_stack_write_regs(struct rbt_buffer *buffer, unsigned int ctx,
			   struct pt_regs *regs, unsigned long caller);
void rbtr_stack_after_event(struct rbt_buffer *buffer);
void rbtr_stack_options_show(struct seq_file *m);
int rbtr_stack_option_set(const char *name, bool on);
int rbtr_stack_init(void);
void rbtr_stack_files(struct rbtr_trace *tr);
void rbtr_stack_exit(void);

#endif /* _RBTR_STACK_H */
