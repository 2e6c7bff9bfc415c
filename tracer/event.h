/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace events: the registry of event types recorded into the global
 * buffer, and the record layout libtraceevent expects.
 *
 * Every record starts with ftrace's common header (struct rbtr_entry), whose
 * type field is the id printed in the event's format file. Tools find the
 * rest of the record from the field list in that file, so the field list
 * of a type must describe its C struct exactly.
 */
#ifndef _RBTR_EVENT_H
#define _RBTR_EVENT_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <linux/compiler.h>

struct seq_buf;
struct seq_file;
struct dentry;
struct rbt_buffer;
struct rbtr_trace;
struct rbt_event;
struct rbtr_event_file;
struct rbtr_event_system;

/* ftrace's struct trace_entry: the first eight bytes of every record. */
struct rbtr_entry {
	unsigned short	type;
	unsigned char	flags;
	unsigned char	preempt_count;
	int		pid;
};

/* ftrace's enum trace_flag_type: the bits of rbtr_entry.flags. */
#define RBTR_FLAG_IRQS_OFF	0x01
#define RBTR_FLAG_IRQS_NOSUPPORT	0x02
#define RBTR_FLAG_NEED_RESCHED	0x04
#define RBTR_FLAG_HARDIRQ		0x08
#define RBTR_FLAG_SOFTIRQ		0x10
#define RBTR_FLAG_PREEMPT_RESCHED	0x20
#define RBTR_FLAG_NMI		0x40
#define RBTR_FLAG_BH_OFF		0x80

/*
 * Event ids: one namespace with the running kernel's (event.c owns the
 * allocator, see "Event ids" there).
 *  - the ftrace system's events keep ftrace's fixed ids (enum trace_type,
 *    all below RBTR_EVENT_FIRST_DYN_ID), as the kernel's own do;
 *  - an event the kernel has (the 16 native ones, every generic one) is
 *    registered with the kernel's id, read from its tracefs format file;
 *  - a type registered with id 0 is rbtrace's own: it gets a free id of
 *    RBTR_EVENT_DYN_TOP down to RBTR_EVENT_DYN_BOTTOM, round the range
 *    (a freed one is given again after all the others), where the
 *    kernel, which counts up from its last fixed type, never reaches in
 *    practice; a kernel id met there later is refused (-EEXIST), never
 *    shared.
 */
#define RBTR_EVENT_PRINT_ID	5
#define RBTR_EVENT_RAW_DATA_ID	18
#define RBTR_EVENT_FIRST_DYN_ID	32
#define RBTR_EVENT_DYN_TOP	65535
#define RBTR_EVENT_DYN_BOTTOM	49152
#define RBTR_EVENT_MAX_ID	65536

/* How the generic text printer shows a field. */
enum rbtr_field_kind {
	RBTR_FIELD_NUM,		/* integer, signed or not */
	RBTR_FIELD_HEX,		/* integer shown as 0x... */
	RBTR_FIELD_CHARS,		/* fixed char array holding a string */
	RBTR_FIELD_STRLOC,	/* __data_loc char[]: (len << 16) | offset */
	RBTR_FIELD_BYTES,		/* anything else: hex bytes */
	/* The kinds of the kernel's events (kevents_fmt.c), as ftrace's filter types. */
	RBTR_FIELD_K_INT,		/* integer: "0x%x (%d)", a char "'c'(99)" */
	RBTR_FIELD_K_STR,		/* char array holding a string */
	RBTR_FIELD_K_DYNSTR,	/* __data_loc char[] */
	RBTR_FIELD_K_RELSTR,	/* __rel_loc char[]: offset from the field's end */
	RBTR_FIELD_K_DYNARR,	/* __data_loc other[]: hex bytes */
	RBTR_FIELD_K_RELARR,	/* __rel_loc other[] */
	RBTR_FIELD_K_PTRSTR,	/* const char *: the pointer and its string */
	RBTR_FIELD_K_ARRAY,	/* fixed array of integers: [a,b,...] */
};

/**
 * struct rbtr_field - one field of an event's record, as in its format file
 * @type: C type as tracefs prints it ("unsigned long", "char", "__data_loc char[]")
 * @name: field name, with the array size if any ("comm[16]", "buf[]")
 * @offset: byte offset in the record
 * @size: bytes (0 for a trailing flexible array)
 * @is_signed: the "signed:" value
 * @kind: how the generic printer shows it
 */
struct rbtr_field {
	const char	*type;
	const char	*name;
	unsigned short	offset;
	unsigned short	size;
	bool		is_signed;
	enum rbtr_field_kind kind;
};

/*
 * RBTR_FIELD - describe the record member @e, written RBTR_REC(struct x)->m.
 * @t and @n are the type and name strings of the format file; offset,
 * size and sign come from the member itself, so they cannot drift.
 */
#define RBTR_REC(st)	((typeof(st) *)0)
#define RBTR_FIELD(e, t, n, k) {						\
	.type = (t), .name = (n), .offset = (size_t)&(e),		\
	.size = sizeof(e), .is_signed = is_signed_type(typeof(e)),	\
	.kind = (k) }

/*
 * A trailing flexible array: size 0, as tracefs prints it; signed as its
 * element (char is signed on 6.1, unsigned since 6.2's -funsigned-char).
 */
#define RBTR_FIELD_FLEX(e, t, n, k) {					\
	.type = (t), .name = (n), .offset = (size_t)&(e), .size = 0,	\
	.is_signed = is_signed_type(typeof((e)[0])), .kind = (k) }

struct rbtr_event_type;

/*
 * rbtr_print_fn - write the text of one record for the trace files: what
 * follows "TIMESTAMP: " up to and including the newline. @len is the
 * record's size in the buffer (rounded up to four bytes).
 */
typedef void (*rbtr_print_fn)(struct seq_buf *s, const struct rbtr_event_type *type,
			    const void *rec, unsigned int len);

/* rbtr_fix_ip_fn - an address of the previous boot, in this boot's terms. */
typedef unsigned long (*rbtr_fix_ip_fn)(unsigned long ip);

/* rbtr_print_field_fn - write the value of field @f of record @rec (@len bytes). */
typedef void (*rbtr_print_field_fn)(struct seq_buf *s, const struct rbtr_field *f,
				   const void *rec, unsigned int len);

/**
 * struct rbtr_event_type - one kind of record
 * @system: events/<system>/ directory
 * @name: events/<system>/<name>/ directory, and the name in text output
 * @id: fixed id, or 0 to be given one at registration
 * @fields: the record's fields after struct rbtr_entry
 * @nr_fields: their number
 * @print_fmt: the "print fmt:" line's value (format string and arguments)
 * @print: text output; NULL for "name: field=value ..."
 * @print_fields: the text with options/fields set; NULL for the generic
 *                "name: field=value ..."
 * @fix_addrs: NULL, or rewrite the code addresses of a copy of a record
 *             of the previous boot (@fix maps each; persist_meta.c)
 * @reg: called to enable the event in one tracer (register its probe,
 *       with @file as its data): the probe records into @file->tr under
 *       @file->cond. NULL: the event is always on and has no enable file
 *       (as ftrace's own events)
 * @unreg: called to disable it in that tracer
 * @format: the whole text of its format file, verbatim (the kernel's
 *          events); NULL: made from @id, @fields and @print_fmt
 * @files: (private) its files, one per tracer (struct rbtr_event_file),
 *         under the registry mutex
 * @list: (private) registry list
 */
struct rbtr_event_type {
	const char		*system;
	const char		*name;
	unsigned short		id;
	const struct rbtr_field	*fields;
	unsigned int		nr_fields;
	const char		*print_fmt;
	rbtr_print_fn		print;
	rbtr_print_fn		print_fields;
	void			(*fix_addrs)(void *rec, unsigned int len, rbtr_fix_ip_fn fix);
	int			(*reg)(struct rbtr_event_file *file);
	void			(*unreg)(struct rbtr_event_file *file);
	const char		*format;
	struct list_head	files;
	struct list_head	list;
};

/**
 * struct rbtr_event_file - one event type in one tracer, as ftrace's
 * struct trace_event_file is one trace_event_call in one trace_array
 * @cond: what decides whether a hit is recorded besides @enabled: the
 *        RBTR_EVC_* bits (event_cond.c), read by writers with READ_ONCE(),
 *        changed under the registry mutex (rbtr_event_cond_update())
 * @id: @type's id, next to @cond for the writer
 * @tr: the tracer its records go to (the live buffer of it)
 * @type: the event type
 * @filter: the filter its records must pass, or NULL (filter.c); RCU
 * @triggers: its triggers (trigger.c), an RCU list
 * @enabled: (private) its probe is registered, under the registry mutex
 * @dead: (private) being removed: its files' writes fail with -ENODEV
 * @soft_ref: (private) holds of enable_event/disable_event triggers
 *            (rbtr_event_soft_get()): while non-zero, the probe stays and
 *            the enable files switch RBTR_EVC_SOFT_OFF (ftrace's SOFT_MODE)
 * @toggled: (private) switched by the current rbtr_event_set_match()
 * @enabled_now: (private) enabled by the current rbtr_event_set_list()
 * @dir: (private) its events/<system>/<name>/ directory in @tr
 * @sys: (private) the events/<system>/ it is in (event_fs.c)
 * @tr_list: (private) in the tracer's list of files
 * @type_list: (private) in @type->files
 * @rcu: (private) frees it after the writers that may hold it
 *
 * Writers reach it as the data of their probe and never take a lock: it
 * is freed only after its probe is gone and a grace period has passed
 * (rbtr_events_instance_remove(), rbtr_event_unregister()).
 */
struct rbtr_event_file {
	unsigned long		cond;
	unsigned short		id;
	struct rbtr_trace	*tr;
	struct rbtr_event_type	*type;
	struct rbtr_filter __rcu *filter;
	struct list_head	triggers;
	bool			enabled;
	bool			dead;
	unsigned int		soft_ref;
	bool			toggled;
	bool			enabled_now;
	struct dentry		*dir;
	struct rbtr_event_system *sys;
	struct list_head	tr_list;
	struct list_head	type_list;
	struct rcu_head		rcu;
};

/**
 * struct rbtr_trace_events - the events side of one tracer
 * @tr: the tracer
 * @list: (private) in the list of tracers, under the registry mutex
 * @files: (private) its event files, in the registry's order
 * @systems: (private) its events/<system>/ directories (event_fs.c)
 * @root: (private) events/ itself, as a system without a name
 * @set_event: (private) its set_event file
 */
struct rbtr_trace_events {
	struct rbtr_trace	*tr;
	struct list_head	list;
	struct list_head	files;
	struct list_head	systems;
	struct rbtr_event_system *root;
	struct dentry		*set_event;
	struct dentry		*show_filters;
	struct dentry		*show_triggers;
};

/**
 * struct rbtr_file_set - the files an event's one probe records into
 * @rcu: frees a replaced set after the probes that may be reading it
 * @nr: number of @file, never 0 (an empty set is NULL)
 * @file: the enabled files of the event, one per tracer, in the order
 *        they were enabled
 *
 * For the events whose probe the kernel calls once per hit whatever the
 * number of tracers (a kprobe, a generic event's perf counter): each
 * type's @reg adds its file, @unreg takes it out (rbtr_file_set_add(),
 * rbtr_file_set_del()), under the registry mutex. The set is
 * copy-on-update: a new one is published with rcu_assign_pointer(), the
 * old one freed with kfree_rcu(); the probe, which runs with preemption
 * off, reads it once per hit with rcu_dereference_sched() and writes one
 * record per file.
 */
struct rbtr_file_set {
	struct rcu_head		rcu;
	unsigned int		nr;
	struct rbtr_event_file	*file[];
};

int rbtr_file_set_add(struct rbtr_file_set __rcu **set, struct rbtr_event_file *file);
unsigned int rbtr_file_set_del(struct rbtr_file_set __rcu **set, struct rbtr_event_file *file);

/*
 * struct rbtr_event_match - which event types a set_event word names; NULL
 * members match anything. @match is a word without ':', which names a
 * system or an event of any system.
 */
struct rbtr_event_match {
	const char	*match;
	const char	*system;
	const char	*event;
};

/* Registry (event.c) */
int rbtr_event_register(struct rbtr_event_type *type);
void rbtr_event_unregister(struct rbtr_event_type *type);
const struct rbtr_event_type *rbtr_event_find(unsigned int id);
int rbtr_event_set_one(struct rbtr_event_file *file, bool on);
void rbtr_event_parse_match(char *word, struct rbtr_event_match *m);
int rbtr_event_set_match(struct rbtr_trace *tr, const struct rbtr_event_match *m, bool on,
			 bool dry_run);
char rbtr_event_state(struct rbtr_trace *tr, const struct rbtr_event_match *m);
void rbtr_event_show_list(struct rbtr_trace *tr, struct seq_file *m, bool enabled);
void rbtr_event_disable_all(struct rbtr_trace *tr);
void rbtr_events_show_format(struct seq_file *m, const struct rbtr_event_type *type);
void rbtr_event_print(struct seq_buf *s, const void *rec, unsigned int len);
void rbtr_event_print_as(struct seq_buf *s, const void *rec, unsigned int len, bool fields);
void rbtr_event_print_fields(struct seq_buf *s, const struct rbtr_event_type *type,
			     const void *rec, unsigned int len, rbtr_print_field_fn print_field);

int rbtr_event_for_each(int (*fn)(struct rbtr_event_type *type, void *data), void *data);

/* Tracers and their files (event_file.c): the join point with the instances */
int rbtr_events_instance_add(struct rbtr_trace *tr, struct dentry *parent);
void rbtr_events_instance_remove(struct rbtr_trace *tr);
struct rbtr_event_file *rbtr_event_file_of(struct rbtr_trace *tr,
					   const struct rbtr_event_type *type);
void rbtr_event_tree_lock(void);
void rbtr_event_tree_unlock(void);
int rbtr_events_files_register(struct rbtr_event_type *type, struct list_head *gone);
void rbtr_events_files_detach(struct rbtr_event_type *type, struct list_head *gone);
void rbtr_events_files_free(struct list_head *gone);
struct rbtr_trace_events *rbtr_trace_events_of(struct rbtr_trace *tr);
void rbtr_events_each_tracer(void (*fn)(struct rbtr_trace *tr, void *data), void *data);
bool rbtr_event_on(const struct rbtr_event_file *file);
int rbtr_event_set_locked(struct rbtr_event_file *file, bool on);

/*
 * What decides, past @enabled, whether a hit of an event becomes a record
 * (file->cond), as ftrace's EVENT_FILE_FL_* flags of a trace_event_file:
 *  RBTR_EVC_FILTER	a filter: a record that fails it is discarded
 *  RBTR_EVC_TRIGGER	triggers, none with a condition: they run when the
 *			event hits, before anything is reserved
 *  RBTR_EVC_TRIGGER_COND	triggers, one at least with "if FILTER": all of
 *			them run on the written record, before its commit
 *  RBTR_EVC_SOFT_OFF	enabled for its triggers only (enable_event's
 *			target): records are not kept
 *  RBTR_EVC_PID		set_event_pid or set_event_notrace_pid of the
 *			file's tracer is in force: the task of the hit
 *			decides, by the tracer's per-CPU flag (pid.c)
 *  RBTR_EVC_SCRATCH	set with RBTR_EVC_FILTER or RBTR_EVC_TRIGGER_COND,
 *			never cleared while the file exists: a
 *			record may be in this CPU's scratch slot rather
 *			than in the buffer (event_cond.c), so the commit
 *			must take the slow path to find out
 *  RBTR_EVC_FAST	set with RBTR_EVC_FILTER when the filter is one
 *			number compare on the event's own fields
 *			(rbtr_filter_match_fast()): a tracepoint's probe
 *			reserves through rbtr_event_reserve_fast()
 */
#define RBTR_EVC_FILTER		BIT(0)
#define RBTR_EVC_TRIGGER	BIT(1)
#define RBTR_EVC_TRIGGER_COND	BIT(2)
#define RBTR_EVC_SOFT_OFF	BIT(3)
#define RBTR_EVC_PID		BIT(4)
#define RBTR_EVC_SCRATCH	BIT(5)
#define RBTR_EVC_FAST		BIT(6)
/* Written into a scratch slot first, tested, then copied if kept. */
#define RBTR_EVC_BUFFERED	(RBTR_EVC_FILTER | RBTR_EVC_TRIGGER_COND)
/* Looked at before the reservation, and at the commit. */
#define RBTR_EVC_AT_RESERVE	(RBTR_EVC_TRIGGER | RBTR_EVC_SOFT_OFF | RBTR_EVC_PID)
/* Any of them: the probes of tracepoints leave their plain path. */
#define RBTR_EVC_AT_RESERVE_ALL	(RBTR_EVC_AT_RESERVE | RBTR_EVC_BUFFERED | RBTR_EVC_FAST)
#define RBTR_EVC_AT_COMMIT	(RBTR_EVC_FILTER | RBTR_EVC_TRIGGER_COND |	\
				 RBTR_EVC_SOFT_OFF | RBTR_EVC_PID | RBTR_EVC_SCRATCH)

/* Writing records (event.c) */
unsigned int rbtr_trace_ctx(void);
unsigned int rbtr_trace_ctx_skip(unsigned int skip);

/**
 * rbtr_ctx_tp - a context of rbtr_trace_ctx() as a tracepoint's event tells it
 * @ctx: the context read in the probe, less the levels the probe took
 *       itself (rbtr_trace_ctx_skip())
 *
 * Without the preemption level the tracepoint disabled around its probes,
 * as ftrace's tracing_gen_ctx_dec() for its own events, so that
 * common_preempt_count reads as the kernel's: the traced code's. From
 * Linux 7.0 a tracepoint calls its probes under SRCU, without a level of
 * its own, and there is none to take off (RBT_TP_PREEMPTIBLE, Kbuild).
 *
 * Return: the context for the record's header.
 */
static __always_inline unsigned int rbtr_ctx_tp(unsigned int ctx)
{
#ifndef RBT_TP_PREEMPTIBLE
	if (IS_ENABLED(CONFIG_PREEMPTION) && (ctx & 0xf))
		ctx--;
#endif
	return ctx;
}

void *rbtr_event_reserve(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			 unsigned int size, unsigned int ctx);
void *rbtr_event_reserve_plain(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			       unsigned int size, unsigned int ctx);
void rbtr_event_commit(struct rbt_buffer *buffer, struct rbtr_event_file *file,
		       void *rec, unsigned int size);
bool rbtr_event_finish(struct rbt_buffer *buffer, struct rbtr_event_file *file,
		       void *rec, unsigned int size, unsigned long *post);
/*
 * The same for a type with no condition (the ftrace system's own, no
 * file), for @tr's tracing_cpumask; NULL for a stack after a record.
 */
void *rbtr_event_reserve_type(const struct rbtr_trace *tr, struct rbt_buffer *buffer,
			      const struct rbtr_event_type *type, unsigned int size,
			      unsigned int ctx);
void rbtr_event_commit_type(struct rbt_buffer *buffer, void *rec);

/* The slow paths of a file with a condition (event_cond.c) */
bool rbtr_event_cond_skip(struct rbt_buffer *buffer, struct rbtr_event_file *file);
bool rbtr_event_cond_commit(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			    void *rec, unsigned int size, unsigned long *post);
void rbtr_event_cond_post(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			  unsigned long post);
void *rbtr_event_scratch_get(unsigned int size);
void *rbtr_event_reserve_fast(struct rbt_buffer *buffer, struct rbtr_event_file *file,
			      unsigned int size);
int rbtr_event_cond_init(void);
unsigned long rbtr_event_cond_filtered(int cpu);
void rbtr_event_cond_exit(void);
void rbtr_event_cond_update(struct rbtr_event_file *file, unsigned long set,
			    unsigned long clear);
void rbtr_events_lock(void);
void rbtr_events_unlock(void);
bool rbtr_events_lock_held(void);
struct rbtr_event_file *rbtr_event_file_lookup(struct rbtr_trace *tr, const char *system,
					       const char *name);
bool rbtr_event_file_live(const struct rbtr_event_file *file);
int rbtr_event_file_for_each(struct rbtr_trace *tr,
			     int (*fn)(struct rbtr_event_file *file, void *data), void *data);
bool rbtr_event_is_ftrace(const struct rbtr_event_type *type);
const struct rbtr_field *rbtr_event_common_fields(unsigned int *nr);
int rbtr_event_soft_get(struct rbtr_event_file *file);
void rbtr_event_soft_put(struct rbtr_event_file *file);

/* The events/ directory and set_event (event_fs.c) */
int rbtr_events_fs_init(struct rbtr_trace *tr);
void rbtr_event_show_files(struct rbtr_trace_events *ev, struct dentry *parent);
void rbtr_event_show_files_remove(struct rbtr_trace_events *ev);
void rbtr_events_fs_exit(void);
int rbtr_events_fs_tree(struct rbtr_trace_events *ev, struct dentry *parent);
void rbtr_events_fs_untree(struct rbtr_trace_events *ev);
int rbtr_events_fs_add(struct rbtr_trace_events *ev, struct rbtr_event_file *file);
void rbtr_events_fs_remove(struct rbtr_event_file *file);

/* A set_event write, all or nothing (event.c) */
int rbtr_event_set_list(struct rbtr_trace *tr, char *buf, bool *truncate, bool *written);

/*
 * Files made with the tree, after the state behind them (the *_init()
 * below) exists: the tree is the last step of the load that can fail
 * (tree.c).
 */
void rbtr_marker_files(struct rbtr_trace *tr);
void rbtr_cmdlines_files(struct rbtr_trace *tr);

/* trace_marker, trace_marker_raw (marker.c) */
int rbtr_marker_init(struct rbtr_trace *tr);
void rbtr_marker_copy_set(struct rbtr_trace *tr, bool on);
void rbtr_marker_exit(void);
bool rbtr_marker_print_msg(struct seq_buf *s, const void *rec, unsigned int len);

/* saved_cmdlines (cmdlines.c) */
int rbtr_cmdlines_init(struct rbtr_trace *tr);
void rbtr_cmdlines_exit(void);
void rbtr_cmdline_save(void);
void rbtr_cmdline_find(int pid, char comm[16]);

#endif /* _RBTR_EVENT_H */
