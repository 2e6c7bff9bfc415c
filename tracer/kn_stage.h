/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's stage over the kernel's event headers: one compile unit per
 * header of include/trace/events/ (kn/<header>.c in the build directory,
 * written by scripts/kn-select.sh) defines RBTR_KN_HEADER (the header,
 * <trace/events/<header>.h>), RBTR_KN_SYSTEM (its TRACE_SYSTEM, as a
 * string: a header may define it only for CREATE_TRACE_POINTS) and
 * RBTR_KN_SYM (the name of its struct rbtr_kn_system) and includes
 * this file, which reads the header again
 * and again as the kernel's include/trace/trace_events.h does, with the
 * stage macros of the kernel built against (include/trace/stages/), and
 * as include/trace/perf.h adds a consumer of its own:
 *
 *  1 (stage 1)	struct trace_event_raw_<class>, the record
 *  2 (stage 2)	struct trace_event_data_offsets_<class>
 *  3 (stage 5)	trace_event_get_offsets_<class>(), the dynamic size
 *  4 (stage 6)	rbtr_kn_probe_<class>(), the probe (below)
 *  5 (stage 1)	rbtr_kn_fields_<class>(): the record's fields, offset
 *		and size, for the check against the kernel's format file
 *  6		per event, its struct rbtr_kn_event, and its probe checked
 *		against the tracepoint's type (check_trace_callback_type_<name>())
 *  7		the header's find function, then its struct rbtr_kn_system
 *
 * A class or an event the build found wanting (its assignment code calls
 * a helper the kernel defines only under CREATE_TRACE_POINTS, or one
 * that is not exported) is left out by name: the unit defines
 * RBTR_KN_SKIP_<name> and every pass below passes it over, so that the
 * header's other events stay native (scripts/kn-select.sh).
 *
 * Nothing of the kernel's event machinery is defined: no tracepoint, no
 * trace_event_call, nothing in the _ftrace_events or _ftrace_eval_map
 * sections, which would have the kernel register the module's own events.
 * The header is first included as any user of its tracepoints does,
 * which declares them (their prototypes and callback types).
 */
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include "event.h"
#include "kevents.h"
#include "kn.h"
#include "trace.h"

#include RBTR_KN_HEADER

/* From here the header is read for its events' definitions only. */
#define TRACE_HEADER_MULTI_READ

/* What a pass leaves out of a definition of the kernel's: nothing. */
#define RBTR_KN_UNUSED(...)

/*
 * RBTR_KN_IF_CLASS(name, code...): code, unless the unit defined
 * RBTR_KN_SKIP_<name> (to 1). The code is passed on through variadic
 * macros only: a macro with named parameters would split it again at
 * the commas its expansion bared (a TP_PROTO()'s).
 * RBTR_KN_IF_KEPT(name, what): what(name), unless left out;
 * RBTR_KN_IF_KEPT2(template, name, what): what(template, name) unless
 * either is. __is_defined() is the test of IS_ENABLED()
 * (<linux/kconfig.h>).
 */
#define RBTR_KN_IF_CLASS(name, ...)					\
	__RBTR_KN_IF(__is_defined(RBTR_KN_SKIP_##name), __VA_ARGS__)
#define RBTR_KN_IF_KEPT(name, what)					\
	__RBTR_KN_IF(__is_defined(RBTR_KN_SKIP_##name), what(name))
#define RBTR_KN_IF_KEPT2(template, name, what)				\
	__RBTR_KN_IF(__is_defined(RBTR_KN_SKIP_##template),		\
		     __RBTR_KN_IF(__is_defined(RBTR_KN_SKIP_##name),	\
				  what(template, name)))
#define __RBTR_KN_IF(skip, ...)		___RBTR_KN_IF(skip, __VA_ARGS__)
#define ___RBTR_KN_IF(skip, ...)	RBTR_KN_IF_##skip(__VA_ARGS__)
#define RBTR_KN_IF_0(...)		__VA_ARGS__
#define RBTR_KN_IF_1(...)

#undef DECLARE_TRACE
#define DECLARE_TRACE(...)
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(...)
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, ...)	\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, ...) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args) RBTR_KN_UNUSED(cond), \
		    PARAMS(tstruct), PARAMS(assign), PARAMS(print))
/* The condition is the tracepoint's: a probe is called only when it holds. */
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args) RBTR_KN_UNUSED(cond), \
		    PARAMS(tstruct), PARAMS(assign), PARAMS(print))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, name, proto, args, ...)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
/* Another text, the same record. */
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, ...)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, ...)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(call, proto, args, tstruct, assign, print) \
	DECLARE_EVENT_CLASS(call, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(...)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(...)
#undef DECLARE_EVENT_CLASS_NOP
#define DECLARE_EVENT_CLASS_NOP(...)
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(...)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(...)
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(...)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(...)

/*
 * Passes 1 to 5 are about classes: a TRACE_EVENT() is its own class
 * there, and DEFINE_EVENT() nothing; each pass's DECLARE_EVENT_CLASS()
 * is its code for the class inside RBTR_KN_IF_CLASS(). Passes 6 and 7
 * are about events. The header's statements end in a semicolon of its own: the
 * macros below leave it out.
 */
#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print))
#undef DEFINE_EVENT
#define DEFINE_EVENT(...)

/* ---- 1: the record ------------------------------------------------------- */

#include <trace/stages/stage1_struct_define.h>

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, ...)		\
	RBTR_KN_IF_CLASS(call,						\
	struct trace_event_raw_##call {					\
		struct trace_entry	ent;				\
		tstruct							\
		char			__data[];			\
	} RBTR_KN_UNUSED(proto, args))

#include RBTR_KN_HEADER

/* ---- 2: where the dynamic data go ----------------------------------------- */

#include <trace/stages/stage2_data_offsets.h>

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, ...)		\
	RBTR_KN_IF_CLASS(call,						\
	struct trace_event_data_offsets_##call {			\
		tstruct;						\
	} RBTR_KN_UNUSED(proto, args))

#include RBTR_KN_HEADER

/* ---- 3: their size, as the kernel computes it ------------------------------ */

#include <trace/stages/stage5_get_offsets.h>

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, ...)		\
	RBTR_KN_IF_CLASS(call,						\
static inline notrace int trace_event_get_offsets_##call(		\
	struct trace_event_data_offsets_##call *__data_offsets, proto)	\
{									\
	int __data_size = 0;						\
	int __maybe_unused __item_length;				\
	struct trace_event_raw_##call __maybe_unused *entry;		\
									\
	tstruct;							\
									\
	return __data_size;						\
} RBTR_KN_UNUSED(args))

#include RBTR_KN_HEADER

/* ---- 4: the probe ------------------------------------------------------------ */

/*
 * One hit: the record of each file of the event (one per tracer that has
 * it on), each under that file's condition, as the perf route's handler
 * writes them (rbtr_kev_overflow()); the kernel's assignment code runs
 * once per file, into that file's record, and the stack of
 * options/stacktrace and the triggers follow its commit
 * (rbtr_event_commit()). The context is the traced code's:
 * rbtr_trace_ctx_skip(1) leaves out the probe's own preemption level,
 * rbtr_ctx_tp() the tracepoint's, as ftrace's tracing_gen_ctx_dec().
 *
 * From Linux 7.0 a tracepoint may call its probes preemptible (under
 * SRCU): the probe takes preemption off itself, for the file set (a
 * sched-RCU reader: the files are freed a grace period after they left
 * it) and for the write path, which runs on one CPU from the reservation
 * to the commit. The kernel's assignment code never returns early (it
 * would leave ftrace's own reservation open), so the probe reaches its
 * preempt_enable_notrace().
 */
static __always_inline void *rbtr_kn_reserve(struct rbt_buffer **buf,
					     struct rbtr_event_file *file,
					     unsigned int size, unsigned int ctx)
{
	*buf = rbtr_live_buffer(file->tr);
	return rbtr_event_reserve(*buf, file, size, ctx);
}

#include <trace/stages/stage3_trace_output.h>
#include <trace/stages/stage6_event_callback.h>

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, ...)	\
	RBTR_KN_IF_CLASS(call,						\
static notrace void __maybe_unused					\
rbtr_kn_probe_##call(void *__data, proto)				\
{									\
	struct trace_event_data_offsets_##call __maybe_unused __data_offsets;\
	struct rbtr_kevent *__kev = __data;				\
	const struct rbtr_file_set *__set;				\
	struct trace_event_raw_##call *entry;				\
	struct rbt_buffer *__buf;					\
	unsigned int __i, __size, __ctx;				\
									\
	preempt_disable_notrace();					\
	/* NULL: a hit racing with the last file's disable. */		\
	__set = rcu_dereference_sched(__kev->files);			\
	__size = sizeof(*entry) +					\
		 trace_event_get_offsets_##call(&__data_offsets, args);	\
	__ctx = rbtr_ctx_tp(rbtr_trace_ctx_skip(1));			\
	for (__i = 0; __set && __i < __set->nr; __i++) {		\
		entry = rbtr_kn_reserve(&__buf, __set->file[__i],	\
					__size, __ctx);			\
		if (!entry)						\
			continue;					\
		tstruct							\
		{ assign; }						\
		rbtr_event_commit(__buf, __set->file[__i], entry, __size); \
	}								\
	preempt_enable_notrace();					\
})

#include RBTR_KN_HEADER

/* ---- 5: the record's fields, for the check at load ---------------------------- */

/*
 * Each field is an operand of a comma expression: a class's fields are
 * written one after the other, without a separator of their own.
 */
#define RBTR_KN_FIELD(name, member)					\
	rbtr_kn_field(__c, name, (size_t)&(member), sizeof(member)),

#include <trace/stages/stage1_struct_define.h>

#define RBTR_KN_REC	(*(typeof(__rec))NULL)
#undef __field
#define __field(type, item)	RBTR_KN_FIELD(#item, RBTR_KN_REC.item)
#undef __field_ext
#define __field_ext(type, item, ...)	__field(type, item)
#undef __field_struct
#define __field_struct(type, item)	__field(type, item)
#undef __field_struct_ext
#define __field_struct_ext(type, item, ...) __field(type, item)
#undef __array
#define __array(type, item, ...)	__field(type, item)
#undef __dynamic_array
#define __dynamic_array(type, item, ...)				\
	RBTR_KN_FIELD(#item, RBTR_KN_REC.__data_loc_##item)
#undef __rel_dynamic_array
#define __rel_dynamic_array(type, item, ...)				\
	RBTR_KN_FIELD(#item, RBTR_KN_REC.__rel_loc_##item)

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, ...)		\
	RBTR_KN_IF_CLASS(call,						\
static void __maybe_unused rbtr_kn_fields_##call(struct rbtr_kn_check *__c) \
{									\
	struct trace_event_raw_##call *__rec __maybe_unused = NULL;	\
									\
	(void)(tstruct 0);						\
} RBTR_KN_UNUSED(proto, args))

#include RBTR_KN_HEADER

/* ---- 6: the events --------------------------------------------------------------- */

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(...)

/*
 * An event is kept when it and its class are: RBTR_KN_EVENT() is what
 * passes 6 and 7 make of one that is, RBTR_KN_EVENT_OWN() of one that
 * is its own class.
 */
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, call, ...)				\
	RBTR_KN_IF_KEPT2(template, call, RBTR_KN_EVENT)
#undef TRACE_EVENT
#define TRACE_EVENT(call, ...)						\
	RBTR_KN_IF_KEPT(call, RBTR_KN_EVENT_OWN)

/* A struct rbtr_kn_event, and its probe checked against the tracepoint's type. */
#define RBTR_KN_EVENT(template, call)					\
static const struct rbtr_kn_event rbtr_kn_ev_##call = {			\
	.name	= #call,						\
	.class	= #template,						\
	.probe	= rbtr_kn_probe_##template,				\
	.fields	= rbtr_kn_fields_##template,				\
	.size	= sizeof(struct trace_event_raw_##template),		\
};									\
static inline void rbtr_kn_test_##call(void)				\
{									\
	check_trace_callback_type_##call(rbtr_kn_probe_##template);	\
}

#define RBTR_KN_EVENT_OWN(call)						\
static const struct rbtr_kn_event rbtr_kn_ev_##call = {			\
	.name	= #call,						\
	.class	= #call,						\
	.probe	= rbtr_kn_probe_##call,					\
	.fields	= rbtr_kn_fields_##call,				\
	.size	= sizeof(struct trace_event_raw_##call),		\
};									\
static inline void rbtr_kn_test_##call(void)				\
{									\
	check_trace_callback_type_##call(rbtr_kn_probe_##call);	\
}

#include RBTR_KN_HEADER

/* ---- 7: the header's table --------------------------------------------------------- */

/*
 * The header's statements read in a function's body: their semicolons
 * end the statements below, which an array initializer would not take.
 */
#undef RBTR_KN_EVENT
#define RBTR_KN_EVENT(template, call)					\
	({								\
		RBTR_KN_UNUSED(template)				\
		if (!strcmp(want, #call))				\
			return &rbtr_kn_ev_##call;			\
	})
#undef RBTR_KN_EVENT_OWN
#define RBTR_KN_EVENT_OWN(call)						\
	({								\
		if (!strcmp(want, #call))				\
			return &rbtr_kn_ev_##call;			\
	})

static const struct rbtr_kn_event *rbtr_kn_find(const char *want)
{
#include RBTR_KN_HEADER
	return NULL;
}

extern const struct rbtr_kn_system RBTR_KN_SYM;
const struct rbtr_kn_system RBTR_KN_SYM = {
	.system	= RBTR_KN_SYSTEM,
	.find	= rbtr_kn_find,
};
