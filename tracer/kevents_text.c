// SPDX-License-Identifier: GPL-2.0
/*
 * The text of the kernel's events as ftrace prints it: by the kernel's
 * own printer of the event (its TP_printk() compiled into
 * trace_raw_output_<class>(), or the syscalls' print_syscall_enter()),
 * called on rbtrace's record, which is byte for byte ftrace's. A user's
 * scripts that parse ftrace's text then parse rbtrace's: "pid=83
 * runtime=618457 [ns]", not the raw numbers of the generic printer
 * (kevents_fmt.c), which stays for what the kernel's printer cannot be
 * given safely.
 *
 * The printer takes a struct trace_iterator: rbtrace keeps one, with
 * its own seq buffers and format buffer, under a spinlock (the readers
 * print under rcu_read_lock(), and a print is a few microseconds), and
 * points its tr at the kernel's top trace array, as ftrace's own
 * iterators do (trace_event_format() reads its options; 6.1 does not
 * accept a NULL one).
 *
 * The events of modules too: the printer is the module's code, and the
 * module's memory goes after its MODULE_STATE_GOING notifier, in which
 * rbtrace removes the module's events and waits for the readers that
 * found one (tracepoint_synchronize_unregister(), an RCU grace period
 * among its waits: the readers print under rcu_read_lock()) before it
 * frees them (kevents_mod.c); a record left in a buffer then has no event
 * to print it. And only records the printer can be trusted with, as
 * ftrace trusts its own
 * buffer: the id is the event's, every __data_loc/__rel_loc lies inside
 * the record (the kernel's __get_str() does not check), and no const
 * char * field comes from the previous boot (rbtr_kev_fix_ptrs() marks
 * those; the kernel's printer would follow them).
 */
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/trace_events.h>
#include <linux/trace_seq.h>
#include "kevents.h"

/* trace_event_format()'s buffer: larger than any print fmt, so never grown. */
#define RBTR_KT_FMT_SIZE	4096

static struct trace_iterator *rbtr_kt_iter;
static struct trace_array *rbtr_kt_tr;
static DEFINE_SPINLOCK(rbtr_kt_lock);

/**
 * rbtr_kev_text_attach - find the kernel's printer of an event
 * @kev: the event, parsed, not yet registered
 * @call: the kernel's event, of vmlinux or of a module that stays until
 *	@kev is freed (held by rbtrace's load, or at its MODULE_STATE_LIVE)
 * @tr: the trace array of the kernel's event file, at load; NULL after
 *
 * Process context: at load, or in the module notifier. Leaves @kev->call
 * NULL for a dynamic event, one without a printer, one whose id is not
 * the kernel's, or when no trace array is known yet.
 */
void rbtr_kev_text_attach(struct rbtr_kevent *kev, struct trace_event_call *call,
			  struct trace_array *tr)
{
	/* The kernel's top trace array: every event file at load has it. */
	if (tr && !rbtr_kt_tr)
		rbtr_kt_tr = tr;
	if (rbtr_kt_tr && !(call->flags & TRACE_EVENT_FL_DYNAMIC) &&
	    call->event.type == kev->type.id && call->event.funcs &&
	    call->event.funcs->trace)
		kev->call = call;
}

/**
 * rbtr_kev_text_init - the iterator the kernel's printers are given
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_kev_text_init(void)
{
	struct trace_iterator *iter = kzalloc(sizeof(*iter), GFP_KERNEL);

	if (!iter)
		return -ENOMEM;
	iter->fmt = kmalloc(RBTR_KT_FMT_SIZE, GFP_KERNEL);
	if (!iter->fmt) {
		kfree(iter);
		return -ENOMEM;
	}
	iter->fmt_size = RBTR_KT_FMT_SIZE;
	trace_seq_init(&iter->seq);
	trace_seq_init(&iter->tmp_seq);
	rbtr_kt_iter = iter;
	return 0;
}

/**
 * rbtr_kev_text_exit - free the iterator
 *
 * After the last print: the events are unregistered, and every reader of
 * the files is gone (module unload).
 */
void rbtr_kev_text_exit(void)
{
	if (!rbtr_kt_iter)
		return;
	kfree(rbtr_kt_iter->fmt);
	kfree(rbtr_kt_iter);
	rbtr_kt_iter = NULL;
}

/* Can the kernel's printer be given @rec? See the top of the file. */
static bool rbtr_kev_text_safe(const struct rbtr_kevent *kev, const void *rec,
			       unsigned int len)
{
	const struct trace_entry *ent = rec;
	unsigned int i, off, at;
	u32 loc;
	u64 v;

	if (len < kev->fixed_size || ent->type != kev->call->event.type)
		return false;
	for (i = 0; i < kev->nr_locs; i++) {
		at = kev->locs[i] & ~RBTR_KEV_LOC_REL;
		memcpy(&loc, rec + at, sizeof(loc));
		off = (loc & 0xffff) + (kev->locs[i] & RBTR_KEV_LOC_REL ? at + 4 : 0);
		if (off + (loc >> 16) > len)
			return false;
	}
	for (i = 0; i < kev->type.nr_fields; i++) {
		if (kev->fields[i].kind != RBTR_FIELD_K_PTRSTR)
			continue;
		memcpy(&v, rec + kev->fields[i].offset, sizeof(v));
		if (rbtr_kev_ptr_marked(v))
			return false;
	}
	return true;
}

/**
 * rbtr_kev_text - print a record with the kernel's printer of its event
 * @s: where to print: "name: text\n", as rbtr_print_fn
 * @kev: the record's event
 * @rec: the record
 * @len: its size in the buffer
 *
 * Under rcu_read_lock() (rbtr_event_print()).
 *
 * Return: true if printed; false if the caller prints it its own way.
 */
bool rbtr_kev_text(struct seq_buf *s, const struct rbtr_kevent *kev, const void *rec,
		   unsigned int len)
{
	struct trace_iterator *iter = rbtr_kt_iter;
	enum print_line_t ret;
	bool done = false;

	if (!kev->call || !iter || !rbtr_kev_text_safe(kev, rec, len))
		return false;
	spin_lock(&rbtr_kt_lock);
	trace_seq_init(&iter->seq);
	iter->tr = rbtr_kt_tr;
	/* The printers only read the record. */
	iter->ent = (struct trace_entry *)rec;
	iter->ent_size = len;
	ret = kev->call->event.funcs->trace(iter, 0, &kev->call->event);
	if (ret == TRACE_TYPE_HANDLED && !trace_seq_has_overflowed(&iter->seq)) {
		seq_buf_printf(s, "%.*s", trace_seq_used(&iter->seq), iter->seq.buffer);
		done = true;
	}
	iter->ent = NULL;
	spin_unlock(&rbtr_kt_lock);
	return done;
}
