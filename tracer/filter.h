/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event filters (filter.c): ftrace's filter grammar over an
 * event's fields, parsed once when written, matched against each record
 * in the event's context.
 */
#ifndef _RBTR_FILTER_H
#define _RBTR_FILTER_H

#include <linux/types.h>

struct rbtr_filter;

/*
 * rbtr_filter_match - does the record @rec (@size bytes, struct
 * rbtr_entry first) pass @filter? Any context, NMI included: no lock,
 * no allocation. Placeholder until filter.c: nothing can set a filter.
 */
static inline bool rbtr_filter_match(const struct rbtr_filter *filter, const void *rec,
				     unsigned int size)
{
	return true;
}

#endif /* _RBTR_FILTER_H */
