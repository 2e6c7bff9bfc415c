/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer's file tree under /sys/kernel/debug/rbtrace/ (tree.c): made
 * by the module's init, removed by its exit.
 */
#ifndef _RBTR_TREE_H
#define _RBTR_TREE_H

struct rbtr_trace;

int rbtr_tree_init(struct rbtr_trace *tr);
void rbtr_tree_exit(struct rbtr_trace *tr);

#endif /* _RBTR_TREE_H */
