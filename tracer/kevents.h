/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's generic events: every tracepoint event of the running kernel
 * that rbtrace has no native probe for, recorded through a kernel perf
 * counter per CPU (kevents.c) and described by the kernel's own tracefs
 * format files (kevents_fmt.c).
 */
#ifndef _RBTR_KEVENTS_H
#define _RBTR_KEVENTS_H

#include <linux/list.h>
#include <linux/types.h>
#include "event.h"

struct module;
struct seq_buf;
struct trace_event_call;
struct perf_event;
struct rbtr_kn_event;
struct seq_file;
struct dentry;
struct tracepoint;
struct vfsmount;

/* __data_loc / __rel_loc fields whose data give a record's length. */
#define RBTR_KEV_MAX_LOCS	8
#define RBTR_KEV_LOC_REL	0x8000	/* in locs[]: a __rel_loc */

struct rbtr_kevent;

/**
 * struct rbtr_kev_route - a way to record a kernel event other than perf's
 * @name: what the route is called in messages and lists ("native", ...)
 * @attach: called under the kevents mutex when the event's first file
 *          is enabled, the set with that file already published
 *          (kev->files): make the event's records reach the files;
 *          return 0 or a negative errno (the file is taken out again)
 * @detach: called under the kevents mutex when its last file is
 *          disabled (kev->files NULL): stop, and return only once no
 *          probe of the event runs any more (the files are freed after)
 *
 * A route writes one record per file of kev->files, read under
 * sched-RCU, each under its file's condition, as the perf route's
 * handler does (rbtr_kev_overflow()).
 */
struct rbtr_kev_route {
	const char	*name;
	int		(*attach)(struct rbtr_kevent *kev);
	void		(*detach)(struct rbtr_kevent *kev);
};

/**
 * struct rbtr_kevent - one event of the kernel, recorded generically
 * @type: the registry's type; type.id is the kernel's id, type.format
 *        the kernel's format file text
 * @text: that text (owned)
 * @fields: the fields after the common ones (one allocation with their
 *          type and name strings)
 * @fixed_size: the bytes ftrace writes before the dynamic data: the
 *              kernel's struct trace_event_raw_<class>, tail padding and all
 * @nr_locs: number of @locs
 * @locs: offsets of the __data_loc/__rel_loc fields (| RBTR_KEV_LOC_REL)
 * @pe: while enabled in a tracer at least, the counter of each CPU
 *      (NULL: none), under the kevents mutex; one set for every tracer
 * @mod: the module of the kernel's event (NULL: built in), known from its
 *       first counter (see rbtr_kev_owner())
 * @node: in the list of all generic events
 * @on: in the list of enabled ones (in a tracer at least), under the
 *      kevents mutex
 * @files: the enabled files, one per tracer that has it on, which the
 *         overflow handler records into, each under its own condition,
 *         into its own tracer's buffer: published under the registry
 *         mutex (rbtr_file_set_add(), rbtr_file_set_del()), read by the
 *         handler under sched-RCU; NULL while enabled nowhere
 * @call: the kernel's event, whose printer prints its records
 *        (kevents_text.c); NULL for an event of a module
 * @route: how it records when not through perf (NULL: perf's counters,
 *         @pe); set once before it is registered (rbtr_kev_route_find())
 * @kn: the native route's compiled event (kevents_route.c), or NULL
 * @kn_tp: the native route's tracepoint, the core kernel's or a module's
 *         (the event is freed before that module goes: kevents_mod.c)
 * @registered: in the registry
 * @was_enabled: enabled once: its records may be in the buffers
 *
 * It has a file in every tracer; the tracers that enable it share its
 * perf counters (one per CPU, made at the first enabling, released at
 * the last), whose handler writes one record per enabled file.
 */
struct rbtr_kevent {
	struct rbtr_event_type	type;
	char			*text;
	struct rbtr_field	*fields;
	unsigned short		fixed_size;
	unsigned short		nr_locs;
	unsigned short		locs[RBTR_KEV_MAX_LOCS];
	struct perf_event	**pe;
	struct module		*mod;
	struct list_head	node;
	struct list_head	on;
	struct rbtr_file_set __rcu *files;
	const struct rbtr_kev_route *route;
	struct trace_event_call	*call;
	const struct rbtr_kn_event *kn;
	struct tracepoint	*kn_tp;
	bool			registered;
	bool			was_enabled;
};

/*
 * Exported (kernel/rcu/update.c) but declared only in kernel/rcu/rcu.h;
 * Tree RCU (every SMP kernel) has them, Tiny RCU has no expediting.
 */
#ifdef CONFIG_TREE_RCU
void rcu_expedite_gp(void);
void rcu_unexpedite_gp(void);
#else
static inline void rcu_expedite_gp(void) { }
static inline void rcu_unexpedite_gp(void) { }
#endif

/* kevents_fmt.c: the kernel's tracefs, read from inside */
struct vfsmount *rbtr_kfs_mount(void);
struct vfsmount *rbtr_kfs(void);
void rbtr_kfs_umount(struct vfsmount *mnt);
ssize_t rbtr_kfs_read(struct vfsmount *mnt, const char *path, char **buf, size_t *cap);
struct rbtr_kevent *rbtr_kev_parse(const char *system, const char *name, const char *text,
				   size_t len);
void rbtr_kev_free(struct rbtr_kevent *kev);
int rbtr_kev_reformat(struct rbtr_kevent *kev, const char *text);
unsigned int rbtr_kev_len(const struct rbtr_kevent *kev, const void *rec, unsigned int raw);

/*
 * A previous boot's const char * field, in the copy of its record that is
 * printed (rbtr_kev_fix_ptrs(), through rbtr_persist_fix_rec()): it points
 * into that boot's memory, and what this boot has mapped there (if
 * anything) is not its string. The copy holds it marked: bit 62 flipped,
 * which turns every canonical x86-64 address (bits 63 down to 47, or to
 * 56 with 5-level paging, all equal), NULL included, into a non-canonical
 * one, which no pointer of this boot is: the printer shows the address
 * unmarked and does not follow it. A record of this boot holding a
 * non-canonical value (a bug of its event, not an address) would print
 * with that bit flipped; it is never followed either.
 */
#define RBTR_KEV_OLD_PTR	BIT_ULL(62)

static_assert(sizeof(char *) == sizeof(u64));

static inline bool rbtr_kev_ptr_marked(u64 v)
{
	return !(v & BIT_ULL(63)) != !(v & RBTR_KEV_OLD_PTR);
}

/* kevents_text.c: the text of an event by the kernel's own printer */
struct trace_array;
void rbtr_kev_text_attach(struct rbtr_kevent *kev, struct trace_event_call *call,
			  struct trace_array *tr);
int rbtr_kev_text_init(void);
void rbtr_kev_text_exit(void);
bool rbtr_kev_text(struct seq_buf *s, const struct rbtr_kevent *kev, const void *rec,
		   unsigned int len);

/* kevents_route.c: the route of an event, asked once before it is registered */
struct module;
const struct rbtr_kev_route *rbtr_kev_route_find(struct rbtr_kevent *kev, struct module *mod);
bool rbtr_kn_module_pin(struct module *mod);
void rbtr_kn_modules_unpin(void);
void rbtr_kev_route_report(unsigned int native, unsigned int all);

/* kevents_syscalls.c: the syscalls events' route, or NULL */
const struct rbtr_kev_route *rbtr_ksys_route(struct rbtr_kevent *kev);

/* kevents.c: called by tp_attach.c at load and unload */
int rbtr_kevents_load(void);
unsigned short rbtr_kevents_id(const char *system, const char *name);
int rbtr_kevents_register(void);
void rbtr_kevents_exit(void);
/* kevents.c: event_routes, each kernel event's route (tree.c) */
void rbtr_kevents_files(struct dentry *top);

/* kevents.c: for kevents_mod.c, under its mutex, once registered */
int rbtr_kevents_add(struct rbtr_kevent *kev);
struct rbtr_kevent *rbtr_kevents_find(const char *system, const char *name,
				      unsigned short id);
void rbtr_kevents_remove(struct rbtr_kevent *kev, struct list_head *gone);

/* kevents_mod.c: the events of modules loaded and unloaded later */
#ifdef CONFIG_EVENT_TRACING
int rbtr_kevents_mod_init(void);
void rbtr_kevents_mod_exit(void (*teardown)(void));
#else
static inline int rbtr_kevents_mod_init(void)
{
	return 0;
}

static inline void rbtr_kevents_mod_exit(void (*teardown)(void))
{
	teardown();
}
#endif

#endif /* _RBTR_KEVENTS_H */
