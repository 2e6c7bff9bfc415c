/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event triggers (trigger.c): ftrace's events/<sys>/<event>/trigger
 * commands, run when their event hits.
 */
#ifndef _RBTR_TRIGGER_H
#define _RBTR_TRIGGER_H

#include <linux/fs.h>
#include <linux/types.h>

struct rbt_buffer;
struct rbtr_event_file;
struct seq_file;

unsigned long rbtr_triggers_call(struct rbt_buffer *buffer, struct rbtr_event_file *file,
				 void *rec, unsigned int size);
void rbtr_triggers_post(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			unsigned long post);
void rbtr_triggers_file_gone(struct rbtr_event_file *file);
void rbtr_triggers_show_all(struct seq_file *m, struct rbtr_event_file *file);

/* events/<sys>/<event>/trigger (event_fs.c creates it; i_private: the file) */
extern const struct file_operations rbtr_trigger_fops;

#endif /* _RBTR_TRIGGER_H */
