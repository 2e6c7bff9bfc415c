/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the filter files (function_filter.c) and the matching of their
 * words against the kernel's list of traceable functions
 * (function_match.c): not for the rest of the tracer.
 */
#ifndef _RBTR_FUNCTION_INTERNAL_H
#define _RBTR_FUNCTION_INTERNAL_H

#include <linux/types.h>
#include "function.h"

/* The kernel's tracefs files that list the traceable functions */
#define RBTR_AFF	"available_filter_functions"
#define RBTR_AFF_ADDRS	"available_filter_functions_addrs"

/* ftrace's enum regex_type */
enum rbtr_match {
	RBTR_MATCH_FULL,
	RBTR_MATCH_FRONT,
	RBTR_MATCH_MIDDLE,
	RBTR_MATCH_END,
	RBTR_MATCH_GLOB,
	RBTR_MATCH_INDEX,
};

/* A parsed word, as ftrace's struct ftrace_glob. */
struct rbtr_glob {
	enum rbtr_match	type;
	const char	*search;
	size_t		len;
	unsigned long	index;	/* RBTR_MATCH_INDEX: the line, from 0 */
	bool		not;
};

/* set_graph_function and set_graph_notrace: names only, ftrace_graph_write()'s rules. */
static inline bool rbtr_fn_kind_graph(enum rbtr_fn_kind kind)
{
	return kind == RBTR_FN_GRAPH || kind == RBTR_FN_GRAPH_NOTRACE;
}

/* What a word matched, as it is being resolved. */
struct rbtr_resolve {
	struct rbtr_glob	g;
	struct rbtr_glob	mod;	/* "FUNC:mod:MODULE": MODULE's glob */
	bool			by_mod;
	bool			addrs;	/* lines start with the address */
	struct rbtr_fsel	found;
};

int rbtr_fn_resolve(enum rbtr_fn_kind kind, char *word, struct rbtr_resolve *r);
int rbtr_fn_resolve_mod(char *func, char *module, struct rbtr_resolve *r);

#endif /* _RBTR_FUNCTION_INTERNAL_H */
