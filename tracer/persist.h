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

#endif /* _RBTR_PERSIST_H */
