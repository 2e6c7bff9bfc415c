/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function graph tracer's records, shared by its recording
 * (function_graph.c) and its text (function_graph_text.c).
 */
#ifndef _RBTR_FUNCTION_GRAPH_H
#define _RBTR_FUNCTION_GRAPH_H

#include <linux/types.h>
#include "event.h"
#include "function.h"

/* ftrace's FTRACE_RETFUNC_DEPTH: the depths the text remembers. */
#define RBTR_GRAPH_MAX_DEPTH	50

/* ftrace's struct ftrace_graph_ent_entry */
struct rbtr_graph_ent_entry {
	struct rbtr_entry	ent;
	unsigned long		func;
	int			depth;
} __packed;

/* ftrace's struct ftrace_graph_ret_entry */
struct rbtr_graph_ret_entry {
	struct rbtr_entry	ent;
	unsigned long		func;
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	unsigned long		retval;
#endif
	int			depth;
	unsigned int		overrun;
	unsigned long long	calltime;
	unsigned long long	rettime;
} __packed;

#endif /* _RBTR_FUNCTION_GRAPH_H */
