// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace page and event format as other modules and tools see it: the
 * payload length of an event, and the text of tracefs's header_page and
 * header_event files, which libtraceevent reads to decode pages. The
 * layout and its inline helpers are in rb_format.h.
 */
#include <linux/seq_file.h>
#include "rb_internal.h"

/**
 * rbt_event_length - payload bytes of a data event
 * @event: an event returned by rbt_lock_reserve(), rbt_peek() or rbt_consume()
 *
 * The payload may be longer than what the writer asked for: it is rounded
 * up to a multiple of four bytes.
 *
 * Return: the payload bytes.
 */
unsigned int rbt_event_length(struct rbt_event *event)
{
	unsigned int length;

	event = rb_event_skip_stamp(event);

	length = rb_event_length(event) - RB_EVNT_HDR_SIZE;
	if (event->type_len == RB_TYPE_DATA_LONG)
		length -= sizeof(event->array[0]);
	return length;
}
EXPORT_SYMBOL_GPL(rbt_event_length);

/**
 * rbt_print_page_header - describe a sub-buffer's header, as header_page
 * @buffer: the buffer (for the size of a sub-buffer's data)
 * @m: where to print
 *
 * The text of ftrace's ring_buffer_print_page_header(), field by field.
 */
void rbt_print_page_header(struct rbt_buffer *buffer, struct seq_file *m)
{
	seq_printf(m, "\tfield: u64 timestamp;\toffset:0;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)sizeof(u64), (unsigned int)is_signed_type(u64));
	seq_printf(m, "\tfield: local_t commit;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct rb_data_page, commit),
		   (unsigned int)sizeof(local_t), (unsigned int)is_signed_type(long));
	seq_printf(m, "\tfield: int overwrite;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct rb_data_page, commit), 1,
		   (unsigned int)is_signed_type(long));
	seq_printf(m, "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct rb_data_page, data),
		   buffer->subbuf_size, (unsigned int)is_signed_type(char));
}
EXPORT_SYMBOL_GPL(rbt_print_page_header);

/**
 * rbt_print_entry_header - describe an event's header, as header_event
 * @m: where to print
 *
 * The text of ftrace's ring_buffer_print_entry_header().
 */
void rbt_print_entry_header(struct seq_file *m)
{
	seq_puts(m, "# compressed entry header\n"
		 "\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n"
		 "\tarray       :   32 bits\n"
		 "\n");
	seq_printf(m, "\tpadding     : type == %d\n", RB_TYPE_PADDING);
	seq_printf(m, "\ttime_extend : type == %d\n", RB_TYPE_TIME_EXTEND);
	seq_printf(m, "\ttime_stamp : type == %d\n", RB_TYPE_TIME_STAMP);
	seq_printf(m, "\tdata max type_len  == %d\n", RB_TYPE_DATA_MAX);
}
EXPORT_SYMBOL_GPL(rbt_print_entry_header);
