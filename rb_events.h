/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace events: the registry of event types recorded into the global
 * buffer, and the record layout libtraceevent expects.
 *
 * Every record starts with ftrace's common header (struct rb_entry), whose
 * type field is the id printed in the event's format file. Tools find the
 * rest of the record from the field list in that file, so the field list
 * of a type must describe its C struct exactly.
 */
#ifndef _RB_EVENTS_H
#define _RB_EVENTS_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <linux/compiler.h>

struct seq_buf;
struct seq_file;
struct dentry;
struct rbt_buffer;
struct rbt_event;
struct cpumask;

/* ftrace's struct trace_entry: the first eight bytes of every record. */
struct rb_entry {
	unsigned short	type;
	unsigned char	flags;
	unsigned char	preempt_count;
	int		pid;
};

/* ftrace's enum trace_flag_type: the bits of rb_entry.flags. */
#define RB_FLAG_IRQS_OFF	0x01
#define RB_FLAG_IRQS_NOSUPPORT	0x02
#define RB_FLAG_NEED_RESCHED	0x04
#define RB_FLAG_HARDIRQ		0x08
#define RB_FLAG_SOFTIRQ		0x10
#define RB_FLAG_PREEMPT_RESCHED	0x20
#define RB_FLAG_NMI		0x40
#define RB_FLAG_BH_OFF		0x80

/*
 * Ids of the ftrace system's events are ftrace's own (enum trace_type),
 * so that a record reads the same to tools that know them. Other types
 * get ids from RB_EVENT_FIRST_DYN_ID up.
 */
#define RB_EVENT_PRINT_ID	5
#define RB_EVENT_RAW_DATA_ID	18
#define RB_EVENT_FIRST_DYN_ID	32
#define RB_EVENT_MAX_ID		1024

/* How the generic text printer shows a field. */
enum rb_field_kind {
	RB_FIELD_NUM,		/* integer, signed or not */
	RB_FIELD_HEX,		/* integer shown as 0x... */
	RB_FIELD_CHARS,		/* fixed char array holding a string */
	RB_FIELD_STRLOC,	/* __data_loc char[]: (len << 16) | offset */
	RB_FIELD_BYTES,		/* anything else: hex bytes */
};

/**
 * struct rb_field - one field of an event's record, as in its format file
 * @type: C type as tracefs prints it ("unsigned long", "char", "__data_loc char[]")
 * @name: field name, with the array size if any ("comm[16]", "buf[]")
 * @offset: byte offset in the record
 * @size: bytes (0 for a trailing flexible array)
 * @is_signed: the "signed:" value
 * @kind: how the generic printer shows it
 */
struct rb_field {
	const char	*type;
	const char	*name;
	unsigned short	offset;
	unsigned short	size;
	bool		is_signed;
	enum rb_field_kind kind;
};

/*
 * RB_FIELD - describe the record member @e, written RB_REC(struct x)->m.
 * @t and @n are the type and name strings of the format file; offset,
 * size and sign come from the member itself, so they cannot drift.
 */
#define RB_REC(st)	((typeof(st) *)0)
#define RB_FIELD(e, t, n, k) {						\
	.type = (t), .name = (n), .offset = (size_t)&(e),		\
	.size = sizeof(e), .is_signed = is_signed_type(typeof(e)),	\
	.kind = (k) }

/*
 * A trailing flexible array: size 0, as tracefs prints it; signed as its
 * element (char is signed on 6.1, unsigned since 6.2's -funsigned-char).
 */
#define RB_FIELD_FLEX(e, t, n, k) {					\
	.type = (t), .name = (n), .offset = (size_t)&(e), .size = 0,	\
	.is_signed = is_signed_type(typeof((e)[0])), .kind = (k) }

struct rb_event_type;

/*
 * rb_print_fn - write the text of one record for the trace files: what
 * follows "TIMESTAMP: " up to and including the newline. @len is the
 * record's size in the buffer (rounded up to four bytes).
 */
typedef void (*rb_print_fn)(struct seq_buf *s, const struct rb_event_type *type,
			    const void *rec, unsigned int len);

/**
 * struct rb_event_type - one kind of record
 * @system: events/<system>/ directory
 * @name: events/<system>/<name>/ directory, and the name in text output
 * @id: fixed id, or 0 to be given one at registration
 * @fields: the record's fields after struct rb_entry
 * @nr_fields: their number
 * @print_fmt: the "print fmt:" line's value (format string and arguments)
 * @print: text output; NULL for "name: field=value ..."
 * @reg: called to enable the event (register its probe); NULL: the event
 *       is always on and has no enable file (as ftrace's own events)
 * @unreg: called to disable it
 * @enabled: (private) on or off, under the registry mutex
 * @toggled: (private) switched by the current rb_event_set_match()
 * @list: (private) registry list
 * @dir: (private) its debugfs directory
 */
struct rb_event_type {
	const char		*system;
	const char		*name;
	unsigned short		id;
	const struct rb_field	*fields;
	unsigned int		nr_fields;
	const char		*print_fmt;
	rb_print_fn		print;
	int			(*reg)(struct rb_event_type *type);
	void			(*unreg)(struct rb_event_type *type);
	bool			enabled;
	bool			toggled;
	struct list_head	list;
	struct dentry		*dir;
};

/*
 * struct rb_event_match - which event types a set_event word names; NULL
 * members match anything. @match is a word without ':', which names a
 * system or an event of any system.
 */
struct rb_event_match {
	const char	*match;
	const char	*system;
	const char	*event;
};

/* Registry (rb_events.c) */
int rb_event_register(struct rb_event_type *type);
void rb_event_unregister(struct rb_event_type *type);
const struct rb_event_type *rb_event_find(unsigned int id);
int rb_event_set_one(struct rb_event_type *type, bool on);
void rb_event_parse_match(char *word, struct rb_event_match *m);
int rb_event_set_match(const struct rb_event_match *m, bool on, bool dry_run);
char rb_event_state(const struct rb_event_match *m);
void rb_event_show_list(struct seq_file *m, bool enabled);
void rb_event_disable_all(void);
void rb_events_add_existing(void);
void rb_events_forget_dirs(void);
void rb_events_show_format(struct seq_file *m, const struct rb_event_type *type);
void rb_event_print(struct seq_buf *s, const void *rec, unsigned int len);

/* Writing records (rb_events.c) */
unsigned int rb_trace_ctx(void);
void *rb_event_reserve(struct rbt_buffer *buffer, const struct rb_event_type *type,
		       unsigned int size, unsigned int ctx);
void rb_event_commit(struct rbt_buffer *buffer);
bool rb_cpu_traced(int cpu);
void rb_set_traced_cpus(const struct cpumask *mask);
void rb_get_traced_cpus(struct cpumask *mask);

/* The events/ directory and set_event (rb_events_fs.c) */
int rb_events_fs_init(struct dentry *top, struct rbt_buffer *buffer);
void rb_events_fs_exit(void);
int rb_events_fs_add(struct rb_event_type *type);
void rb_events_fs_remove(struct rb_event_type *type);

/* trace_marker, trace_marker_raw (rb_marker.c) */
int rb_marker_init(struct dentry *top, struct rbt_buffer *buffer);
void rb_marker_exit(void);

/* saved_cmdlines (rb_cmdlines.c) */
int rb_cmdlines_init(struct dentry *top);
void rb_cmdlines_exit(void);
void rb_cmdline_save(void);
void rb_cmdline_find(int pid, char comm[16]);

#endif /* _RB_EVENTS_H */
