/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's native kernel events: the kernel's own event definitions
 * (include/trace/events/<header>.h) compiled into probes of rbtrace by a
 * stage of its own over the kernel's stage macros (kn_stage.h, one unit
 * per header, kept or left on perf at build time by
 * scripts/kn-select.sh). Such a probe records an event with the kernel's
 * own assignment code, the bytes ftrace writes, at a tracepoint probe's
 * cost instead of a perf counter's. kevents_route.c gives an event of
 * kevents.c this route when the compiled record agrees with the running
 * kernel's format file.
 */
#ifndef _RBTR_KN_H
#define _RBTR_KN_H

#include <linux/types.h>

struct rbtr_kn_check;

/**
 * struct rbtr_kn_event - one event of a header compiled into a probe
 * @name: the event's (and its tracepoint's) name
 * @class: the name of its class (the probe's), for the route's list
 * @probe: rbtr_kn_probe_<class>(), of the tracepoint's type (checked at
 *         build time with check_trace_callback_type_<name>()); its data
 *         is the struct rbtr_kevent
 * @fields: walks the compiled record's fields after the common ones, in
 *          their order, through rbtr_kn_field()
 * @size: sizeof(struct trace_event_raw_<class>), the fixed part
 */
struct rbtr_kn_event {
	const char	*name;
	const char	*class;
	void		*probe;
	void		(*fields)(struct rbtr_kn_check *c);
	unsigned short	size;
};

/**
 * struct rbtr_kn_system - the compiled events of one header
 * @system: its TRACE_SYSTEM
 * @find: its event of that name, or NULL
 */
struct rbtr_kn_system {
	const char			*system;
	const struct rbtr_kn_event	*(*find)(const char *name);
};

/* The headers the build kept (kn/list.c, written by scripts/kn-select.sh). */
extern const struct rbtr_kn_system *const rbtr_kn_systems[];
extern const unsigned int rbtr_kn_nr_systems;

/* kevents_route.c: one compiled field against the kernel's format file. */
void rbtr_kn_field(struct rbtr_kn_check *c, const char *name, size_t offset, size_t size);

#endif /* _RBTR_KN_H */
