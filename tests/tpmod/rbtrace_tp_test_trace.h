/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints of rbtrace_tp_test.ko: a module's own events, for the
 * scenarios of events/kevents-module.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rbtrace_tp_test

#if !defined(_RBTRACE_TP_TEST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RBTRACE_TP_TEST_TRACE_H

#include <linux/tracepoint.h>

/*
 * __assign_str() takes the field alone since 6.10 (RBTT_ASSIGN_STR_ONE:
 * Kbuild), the field and its source before: rbtt_fire's msg, from its
 * argument msg.
 */
#ifdef RBTT_ASSIGN_STR_ONE
#define rbtt_assign_msg()	__assign_str(msg)
#else
#define rbtt_assign_msg()	__assign_str(msg, msg)
#endif

TRACE_EVENT(rbtt_fire,
	    TP_PROTO(int seq, unsigned long val, const char *msg),
	    TP_ARGS(seq, val, msg),
	    TP_STRUCT__entry(__field(int, seq)
			     __field(unsigned long, val)
			     __string(msg, msg)),
	    TP_fast_assign(__entry->seq = seq;
			   __entry->val = val;
			   rbtt_assign_msg();),
	    TP_printk("seq=%d val=%lu msg=%s", __entry->seq, __entry->val, __get_str(msg))
);

TRACE_EVENT(rbtt_count,
	    TP_PROTO(unsigned int total),
	    TP_ARGS(total),
	    TP_STRUCT__entry(__field(unsigned int, total)),
	    TP_fast_assign(__entry->total = total;),
	    TP_printk("total=%u", __entry->total)
);

#endif /* _RBTRACE_TP_TEST_TRACE_H */

/* Out of the kernel tree: the header is found beside the module's source. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rbtrace_tp_test_trace
#include <trace/define_trace.h>
