/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The top tracer's buffer in memory reserved at boot (persist.c).
 */
#ifndef _RBTR_PERSIST_H
#define _RBTR_PERSIST_H

#include <rbtrace/rbtrace.h>

bool rbtr_persist_wanted(void);
struct rbt_buffer *rbtr_persist_alloc(unsigned int flags, unsigned int order);
void rbtr_persist_free(struct rbt_buffer *buffer);

struct rbtr_trace;
struct rbtr_event_file;
int rbtr_persist_meta_init(struct rbtr_trace *tr, struct rbt_buffer *buffer);
void rbtr_persist_meta_exit(void);
void rbtr_persist_event_enabled(struct rbtr_event_file *file);
void rbtr_persist_reset(struct rbt_buffer *buffer);
void rbtr_persist_fix_rec(struct rbtr_trace *tr, void *rec, unsigned int len);
void rbtr_persist_types_changed(void);
void rbtr_persist_files(struct rbtr_trace *tr);

#endif /* _RBTR_PERSIST_H */
