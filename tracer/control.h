/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control files of a tracer's buffer (control.c), made by the tree
 * (tree.c) for the top tracer and each instance.
 */
#ifndef _RBTR_CONTROL_H
#define _RBTR_CONTROL_H

struct dentry;
struct rbtr_trace;

void rbtr_control_files(struct rbtr_trace *tr);
void rbtr_control_cpu_files(struct rbtr_trace *tr, struct dentry *dir, int cpu);

#endif /* _RBTR_CONTROL_H */
