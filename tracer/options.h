/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracer's options/ directory and trace_options (options.c): the top's
 * and each instance's.
 */
#ifndef _RBTR_OPTIONS_H
#define _RBTR_OPTIONS_H

struct dentry;
struct rbtr_trace;

void rbtr_options_files(struct rbtr_trace *tr);

#endif /* _RBTR_OPTIONS_H */
