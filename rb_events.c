// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace events: the registry of event types, enabling them, their
 * format files, writing their records, and their text.
 *
 * A type is registered once (at module load) and stays until unload, so
 * readers that print a record may look its type up without a lock: the
 * slot of an id is published only after the type is complete. The
 * registry mutex serialises registration and enabling, which may sleep
 * (registering a tracepoint probe does).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/hardirq.h>
#include <linux/seq_file.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include <rbtrace/rbtrace.h>
#include "rb_events.h"

static DEFINE_MUTEX(rb_events_mutex);
static LIST_HEAD(rb_event_list);
static const struct rb_event_type *rb_event_ids[RB_EVENT_MAX_ID];
static unsigned short rb_next_id = RB_EVENT_FIRST_DYN_ID;

/*
 * tracing_cpumask, stored inverted: a static mask starts out empty, so
 * every CPU is traced from the first event on, with no init ordering.
 */
static struct cpumask rb_untraced_cpus;

/* The common fields, as every format file of the kernel lists them. */
static const struct rb_field rb_common_fields[] = {
	RB_FIELD(RB_REC(struct rb_entry)->type, "unsigned short", "common_type", RB_FIELD_NUM),
	RB_FIELD(RB_REC(struct rb_entry)->flags, "unsigned char", "common_flags", RB_FIELD_NUM),
	RB_FIELD(RB_REC(struct rb_entry)->preempt_count, "unsigned char",
		 "common_preempt_count", RB_FIELD_NUM),
	RB_FIELD(RB_REC(struct rb_entry)->pid, "int", "common_pid", RB_FIELD_NUM),
};

static int rb_event_assign_id(struct rb_event_type *type)
{
	if (type->id)
		return type->id < RB_EVENT_MAX_ID && !rb_event_ids[type->id] ?
			0 : -EEXIST;
	while (rb_next_id < RB_EVENT_MAX_ID && rb_event_ids[rb_next_id])
		rb_next_id++;
	if (rb_next_id >= RB_EVENT_MAX_ID)
		return -ENOSPC;
	type->id = rb_next_id++;
	return 0;
}

/**
 * rb_event_register - add an event type, with its events/ files
 * @type: the type; it must stay valid until rb_event_unregister()
 *
 * Return: 0, -EEXIST for a taken id or name, -ENOSPC when out of ids, or
 * the error of creating its files.
 */
int rb_event_register(struct rb_event_type *type)
{
	struct rb_event_type *t;
	int ret;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list) {
		if (!strcmp(t->system, type->system) && !strcmp(t->name, type->name)) {
			ret = -EEXIST;
			goto out;
		}
	}
	ret = rb_event_assign_id(type);
	if (ret)
		goto out;
	type->enabled = false;
	ret = rb_events_fs_add(type);
	if (ret)
		goto out;
	list_add_tail(&type->list, &rb_event_list);
	/* Publish the complete type: pairs with READ_ONCE in rb_event_find(). */
	smp_store_release(&rb_event_ids[type->id], type);
out:
	mutex_unlock(&rb_events_mutex);
	return ret;
}

/**
 * rb_event_unregister - disable an event type and remove its files
 * @type: a registered type
 *
 * Records of the type already in the buffer print as "Unknown type".
 */
void rb_event_unregister(struct rb_event_type *type)
{
	mutex_lock(&rb_events_mutex);
	if (type->enabled && type->unreg)
		type->unreg(type);
	type->enabled = false;
	WRITE_ONCE(rb_event_ids[type->id], NULL);
	list_del(&type->list);
	mutex_unlock(&rb_events_mutex);
	/*
	 * Outside the mutex: removing a file waits for the operations in
	 * flight on it, and its enable file's write takes the mutex.
	 */
	rb_events_fs_remove(type);
}

/**
 * rb_events_forget_dirs - the events/ tree is going away as a whole
 *
 * Types still registered must not remove their directories themselves.
 */
void rb_events_forget_dirs(void)
{
	struct rb_event_type *t;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list)
		t->dir = NULL;
	mutex_unlock(&rb_events_mutex);
}

/**
 * rb_events_add_existing - create the files of the types registered
 * before the events/ directory existed
 */
void rb_events_add_existing(void)
{
	struct rb_event_type *t;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list)
		if (!t->dir)
			rb_events_fs_add(t);
	mutex_unlock(&rb_events_mutex);
}

/**
 * rb_event_find - the type of a record's id
 * @id: the record's common_type
 *
 * Return: the type, or NULL for an unknown id.
 */
const struct rb_event_type *rb_event_find(unsigned int id)
{
	if (id >= RB_EVENT_MAX_ID)
		return NULL;
	/* Pairs with the release in rb_event_register(). */
	return smp_load_acquire(&rb_event_ids[id]);
}

static int rb_event_set_locked(struct rb_event_type *type, bool on)
{
	int ret;

	if (!type->reg || type->enabled == on)
		return 0;
	if (on) {
		ret = type->reg(type);
		if (ret)
			return ret;
	} else {
		type->unreg(type);
	}
	type->enabled = on;
	return 0;
}

/**
 * rb_event_set_one - enable or disable one event type
 * @type: the type
 * @on: the new state
 *
 * Return: 0, or the error of its @reg (state unchanged then).
 */
int rb_event_set_one(struct rb_event_type *type, bool on)
{
	int ret;

	mutex_lock(&rb_events_mutex);
	ret = rb_event_set_locked(type, on);
	mutex_unlock(&rb_events_mutex);
	return ret;
}

/**
 * rb_event_parse_match - parse one set_event word, as ftrace does
 * @word: "sys:event", "sys:", ":event", "*:*", or "name" (a system or an
 *        event of any system); modified in place
 * @m: filled in; NULL members match anything
 */
void rb_event_parse_match(char *word, struct rb_event_match *m)
{
	char *colon = strchr(word, ':');

	m->match = NULL;
	m->system = NULL;
	m->event = NULL;
	if (!colon) {
		m->match = word;
		return;
	}
	*colon = '\0';
	m->system = word;
	m->event = colon + 1;
	if (!*m->system || !strcmp(m->system, "*"))
		m->system = NULL;
	if (!*m->event || !strcmp(m->event, "*"))
		m->event = NULL;
}

static bool rb_event_matches(const struct rb_event_type *t,
			     const struct rb_event_match *m)
{
	/* Only events that can be switched take part: ftrace's rule. */
	if (!t->reg)
		return false;
	if (m->match && strcmp(m->match, t->name) && strcmp(m->match, t->system))
		return false;
	if (m->system && strcmp(m->system, t->system))
		return false;
	if (m->event && strcmp(m->event, t->name))
		return false;
	return true;
}

/* Undo the switches this call made, after one of them failed. */
static void rb_event_set_rollback(bool on, struct rb_event_type *failed)
{
	struct rb_event_type *t;

	list_for_each_entry(t, &rb_event_list, list) {
		if (t == failed)
			break;
		if (t->toggled)
			rb_event_set_locked(t, !on);
	}
}

/**
 * rb_event_set_match - enable or disable every event type @m matches
 * @m: from rb_event_parse_match()
 * @on: the new state
 * @dry_run: only check that something matches
 *
 * All or nothing: if enabling one type fails, the ones switched by this
 * call are switched back.
 *
 * Return: 0, -EINVAL when nothing matches, or the error of a @reg.
 */
int rb_event_set_match(const struct rb_event_match *m, bool on, bool dry_run)
{
	struct rb_event_type *t;
	int ret = -EINVAL, err;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list)
		t->toggled = false;
	list_for_each_entry(t, &rb_event_list, list) {
		if (!rb_event_matches(t, m))
			continue;
		ret = 0;
		if (dry_run || t->enabled == on)
			continue;
		err = rb_event_set_locked(t, on);
		if (err) {
			rb_event_set_rollback(on, t);
			ret = err;
			break;
		}
		t->toggled = true;
	}
	mutex_unlock(&rb_events_mutex);
	return ret;
}

/**
 * rb_event_state - are the types @m matches on?
 * @m: what to look at (see rb_event_parse_match())
 *
 * Return: '0' all off (or none), '1' all on, 'X' some on, as tracefs's
 * events/enable shows.
 */
char rb_event_state(const struct rb_event_match *m)
{
	struct rb_event_type *t;
	bool on = false, off = false;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list) {
		if (!rb_event_matches(t, m))
			continue;
		if (t->enabled)
			on = true;
		else
			off = true;
	}
	mutex_unlock(&rb_events_mutex);
	if (on && off)
		return 'X';
	return on ? '1' : '0';
}

/**
 * rb_event_show_list - list event types, one "system:name" a line
 * @m: the seq_file of set_event or available_events
 * @enabled: only the enabled ones (set_event); else every type that can
 *           be enabled (available_events)
 */
void rb_event_show_list(struct seq_file *m, bool enabled)
{
	struct rb_event_type *t;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list)
		if (enabled ? t->enabled : !!t->reg)
			seq_printf(m, "%s:%s\n", t->system, t->name);
	mutex_unlock(&rb_events_mutex);
}

/**
 * rb_event_disable_all - disable every event type (set_event opened O_TRUNC)
 */
void rb_event_disable_all(void)
{
	struct rb_event_type *t;

	mutex_lock(&rb_events_mutex);
	list_for_each_entry(t, &rb_event_list, list)
		rb_event_set_locked(t, false);
	mutex_unlock(&rb_events_mutex);
}

static void rb_show_field(struct seq_file *m, const struct rb_field *f)
{
	seq_printf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
		   f->type, f->name, f->offset, f->size, f->is_signed);
}

/**
 * rb_events_show_format - the text of events/<system>/<name>/format
 * @m: the seq_file
 * @type: the type
 *
 * Byte for byte what tracefs prints (trace_events.c, f_show()): common
 * fields, a blank line, the type's fields, a blank line, the print fmt.
 */
void rb_events_show_format(struct seq_file *m, const struct rb_event_type *type)
{
	unsigned int i;

	seq_printf(m, "name: %s\nID: %d\nformat:\n", type->name, type->id);
	for (i = 0; i < ARRAY_SIZE(rb_common_fields); i++)
		rb_show_field(m, &rb_common_fields[i]);
	seq_putc(m, '\n');
	for (i = 0; i < type->nr_fields; i++)
		rb_show_field(m, &type->fields[i]);
	seq_printf(m, "\nprint fmt: %s\n", type->print_fmt);
}

/**
 * rb_trace_ctx - ftrace's tracing_gen_ctx(), which modules cannot call
 *
 * Return: the RB_FLAG_* bits << 16, the migrate-disable depth << 4 and the
 * preempt depth, both depths capped at 15.
 */
unsigned int rb_trace_ctx(void)
{
	unsigned int pc = preempt_count(), flags = 0, migrate = 0;

	if (irqs_disabled())
		flags |= RB_FLAG_IRQS_OFF;
	if (pc & NMI_MASK)
		flags |= RB_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= RB_FLAG_HARDIRQ;
	if (in_serving_softirq())
		flags |= RB_FLAG_SOFTIRQ;
	if (softirq_count() >> (SOFTIRQ_SHIFT + 1))
		flags |= RB_FLAG_BH_OFF;
	if (tif_need_resched())
		flags |= RB_FLAG_NEED_RESCHED;
	if (test_preempt_need_resched())
		flags |= RB_FLAG_PREEMPT_RESCHED;
#ifdef CONFIG_SMP
	migrate = current->migration_disabled;
#endif
	return (flags << 16) | min(pc & 0xff, 0xfU) | min(migrate, 0xfU) << 4;
}

/**
 * rb_cpu_traced - is @cpu in tracing_cpumask?
 * @cpu: the CPU
 *
 * Return: true if events of @cpu are recorded.
 */
bool rb_cpu_traced(int cpu)
{
	return !cpumask_test_cpu(cpu, &rb_untraced_cpus);
}

/**
 * rb_set_traced_cpus - set tracing_cpumask
 * @mask: the CPUs whose events are recorded
 *
 * Writers read the mask without a lock: an event racing with the change
 * may be recorded or not, as in ftrace.
 */
void rb_set_traced_cpus(const struct cpumask *mask)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (cpumask_test_cpu(cpu, mask))
			cpumask_clear_cpu(cpu, &rb_untraced_cpus);
		else
			cpumask_set_cpu(cpu, &rb_untraced_cpus);
	}
}

/**
 * rb_get_traced_cpus - read tracing_cpumask
 * @mask: set to the traced possible CPUs
 */
void rb_get_traced_cpus(struct cpumask *mask)
{
	cpumask_andnot(mask, cpu_possible_mask, &rb_untraced_cpus);
}

/**
 * rb_event_reserve - reserve a record of @type on this CPU
 * @buffer: the buffer
 * @type: the record's type
 * @size: bytes of the record, struct rb_entry included
 * @ctx: rb_trace_ctx() of the context the event describes
 *
 * Fills the common header. On success preemption stays disabled until
 * rb_event_commit(). Also remembers the current task's comm for
 * saved_cmdlines.
 *
 * Return: the record, or NULL if the CPU is not traced or the buffer
 * refused the event (recording off, too big, full, recursion).
 */
void *rb_event_reserve(struct rbt_buffer *buffer, const struct rb_event_type *type,
		       unsigned int size, unsigned int ctx)
{
	struct rbt_event *event;
	struct rb_entry *ent;

	preempt_disable_notrace();
	if (!rb_cpu_traced(smp_processor_id())) {
		preempt_enable_notrace();
		return NULL;
	}
	rb_cmdline_save();
	/* rbt_lock_reserve() disables preemption again, until the commit. */
	event = rbt_lock_reserve(buffer, size);
	preempt_enable_notrace();
	if (!event)
		return NULL;
	ent = rbt_event_data(event);
	ent->type = type->id;
	ent->flags = ctx >> 16;
	ent->preempt_count = ctx & 0xff;
	ent->pid = current->pid;
	return ent;
}

/**
 * rb_event_commit - commit the record reserved by rb_event_reserve()
 * @buffer: the buffer
 */
void rb_event_commit(struct rbt_buffer *buffer)
{
	rbt_unlock_commit(buffer);
}

/*
 * Read an integer field of 1, 2, 4 or 8 bytes, sign-extended if signed.
 * memcpy: a record in the buffer is only four-byte aligned.
 */
static u64 rb_field_int(const struct rb_field *f, const void *p)
{
	union { u8 b; u16 h; u32 w; u64 d; } v = { .d = 0 };

	memcpy(&v, p, min_t(unsigned int, f->size, sizeof(v)));
	switch (f->size) {
	case 1:
		return f->is_signed ? (u64)(s64)(s8)v.b : v.b;
	case 2:
		return f->is_signed ? (u64)(s64)(s16)v.h : v.h;
	case 4:
		return f->is_signed ? (u64)(s64)(s32)v.w : v.w;
	default:
		return v.d;
	}
}

static void rb_print_strloc(struct seq_buf *s, const void *rec, unsigned int len,
			    const void *p)
{
	unsigned int off, n;
	u32 loc;

	memcpy(&loc, p, sizeof(loc));
	off = loc & 0xffff;
	n = loc >> 16;

	if (off + n > len) {
		seq_buf_printf(s, "(bad __data_loc %#x)", loc);
		return;
	}
	seq_buf_printf(s, "%.*s", (int)strnlen(rec + off, n), (const char *)rec + off);
}

static void rb_print_field(struct seq_buf *s, const struct rb_field *f,
			   const void *rec, unsigned int len)
{
	const void *p = rec + f->offset;
	unsigned int i, size = f->size ? f->size : len - min(len, f->offset);

	if (f->offset + size > len) {
		seq_buf_printf(s, "?");
		return;
	}
	switch (f->kind) {
	case RB_FIELD_NUM:
		if (f->is_signed)
			seq_buf_printf(s, "%lld", (s64)rb_field_int(f, p));
		else
			seq_buf_printf(s, "%llu", rb_field_int(f, p));
		break;
	case RB_FIELD_HEX:
		seq_buf_printf(s, "0x%llx", rb_field_int(f, p));
		break;
	case RB_FIELD_CHARS:
		seq_buf_printf(s, "%.*s", (int)strnlen(p, size), (const char *)p);
		break;
	case RB_FIELD_STRLOC:
		rb_print_strloc(s, rec, len, p);
		break;
	default:
		for (i = 0; i < size; i++)
			seq_buf_printf(s, "%s%02x", i ? " " : "", ((u8 *)p)[i]);
		break;
	}
}

/* "name: a=1 b=2": for types without a print function of their own. */
static void rb_print_generic(struct seq_buf *s, const struct rb_event_type *type,
			     const void *rec, unsigned int len)
{
	const struct rb_field *f;
	unsigned int i;

	seq_buf_printf(s, "%s:", type->name);
	for (i = 0; i < type->nr_fields; i++) {
		f = &type->fields[i];
		/* The name without its array size. */
		seq_buf_printf(s, " %.*s=", (int)strcspn(f->name, "["), f->name);
		rb_print_field(s, f, rec, len);
	}
	seq_buf_printf(s, "\n");
}

/**
 * rb_event_print - the text of a record after its context columns
 * @s: where to print; ends with a newline
 * @rec: the record
 * @len: its size in the buffer
 */
void rb_event_print(struct seq_buf *s, const void *rec, unsigned int len)
{
	const struct rb_entry *ent = rec;
	const struct rb_event_type *type = NULL;

	if (len >= sizeof(*ent))
		type = rb_event_find(ent->type);
	if (!type) {
		seq_buf_printf(s, "Unknown type %d\n",
			       len >= sizeof(*ent) ? ent->type : -1);
		return;
	}
	if (type->print)
		type->print(s, type, rec, len);
	else
		rb_print_generic(s, type, rec, len);
}
