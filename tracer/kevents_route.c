// SPDX-License-Identifier: GPL-2.0
/*
 * Which route records a kernel event that rbtrace has no hand-written
 * probe for (kevents.c): by default a perf counter per CPU, whose
 * handler copies the record the kernel's perf probe made; an event that
 * another route can record at less cost (a probe of rbtrace's own on its
 * tracepoint, writing the same bytes) is given that route here, once,
 * before it is registered. The route of an event never changes while it
 * is registered.
 */
#include "kevents.h"

/**
 * rbtr_kev_route_find - the route of a kernel event
 * @kev: the event, parsed from the kernel's format file, not registered
 *
 * Return: the route, or NULL for perf's.
 */
const struct rbtr_kev_route *rbtr_kev_route_find(struct rbtr_kevent *kev)
{
	const struct rbtr_kev_route *route;

	route = rbtr_ksys_route(kev);
	if (route)
		return route;
	return NULL;
}
