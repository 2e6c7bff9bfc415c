// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's native route for the kernel's syscalls events
 * (syscalls:sys_enter_<name>, syscalls:sys_exit_<name>).
 *
 * They are not TRACE_EVENT()s: ftrace records them all from one probe
 * on each of raw_syscalls' tracepoints, sys_enter and sys_exit
 * (kernel/trace/trace_syscalls.c, ftrace_syscall_enter() and
 * ftrace_syscall_exit()), which looks the syscall's number up in a
 * per-number table of the enabled events' files, and describes each
 * event with the syscall's metadata (struct syscall_metadata: its
 * number, its arguments' names). rbtrace does the same, in place of a
 * perf counter per CPU per event (kevents.c):
 *
 *  - The table. At load, for each syscalls event of the kernel's
 *    available_events, trace_get_event_file() gives the kernel's
 *    struct trace_event_file and through it the event's
 *    trace_event_call, whose ->data is its syscall_metadata: the
 *    syscall's number and number of arguments, and whether the event is
 *    the syscall's enter or exit event. (There is no other exported
 *    way: ftrace's syscalls_metadata table, syscall_nr_to_meta() and
 *    the event list are private to kernel/trace/.) The file is put
 *    back at once; the metadata is vmlinux's, and lives for good.
 *  - The route. An event of that table whose format is what the probe
 *    writes (rbtr_ksys_layout_ok()) is given this route
 *    (rbtr_ksys_route(), asked by kevents_route.c once per event before
 *    it is registered), and prints as ftrace prints it
 *    (print_syscall_enter(), print_syscall_exit()). Attaching it
 *    publishes the event in its direction's slot of its number
 *    (rbtr_ksys.on[dir][nr], the per-syscall enable map); the first
 *    event of a direction registers that direction's probe on the
 *    raw_syscalls tracepoint, the last one unregisters it.
 *  - The probe. It runs in the task making the syscall, takes
 *    preemption off itself (ftrace's guard(preempt_notrace)(): the
 *    tracepoint may call it preemptible on later kernels), reads the
 *    number as ftrace does (none for a compat syscall, none out of
 *    range), the event of its slot and that event's file set
 *    (kev->files, one file per tracer that has it on), and writes one
 *    record per file under that file's conditions (filter, triggers,
 *    soft disable, pid lists, tracing_cpumask), as a tracepoint's
 *    probe of tp_probes.c does.
 *
 * The record is ftrace's byte for byte: struct trace_entry, int nr,
 * then the arguments as unsigned long (enter: syscall_get_arguments(),
 * as many as the syscall has) or long ret (exit:
 * syscall_get_return_value(), not the tracepoint's argument, as
 * ftrace); the four bytes of padding after nr, which ftrace leaves as
 * the buffer had them, are zero. Its context is ftrace's: read under
 * the probe's own preemption level, less one (tracing_gen_ctx_dec()
 * under the guard), so that common_preempt_count reads as ftrace's
 * (1 where the tracepoint disabled preemption too, as on
 * 6.1 and 6.12, whose ftrace_syscall_enter() has the guard: stable
 * 6.1.120 and 6.12.5 on; the module of a kernel before those writes one
 * more than its ftrace).
 *
 * Locking: attach and detach run under kevents.c's mutex (and the
 * registry's), which serialises the slots and the probes' counts. The
 * probe reads a slot and the set under sched-RCU (its own preemption
 * off). A slot emptied while the probe reads it leaves the probe with
 * the event, whose set and files are freed only a grace period after
 * they are unpublished (rbtr_file_set_del(), rbtr_events_files_free()),
 * and which is freed itself only at unload, after the last detach of
 * its direction, whose tracepoint_synchronize_unregister() waits for
 * the probes in flight: a detach that leaves the probe registered has
 * nothing to wait for.
 */
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <trace/syscall.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "kevents.h"
#include "kevents_syscalls.h"
#include "tp_internal.h"
#include "trace.h"

enum { RBTR_KSYS_ENTER, RBTR_KSYS_EXIT, RBTR_KSYS_DIRS };

/* ftrace's struct syscall_trace_enter (kernel/trace/trace.h) */
struct rbtr_ksys_enter_rec {
	struct rbtr_entry	ent;
	int			nr;
	unsigned long		args[];
};

/* ftrace's struct syscall_trace_exit */
struct rbtr_ksys_exit_rec {
	struct rbtr_entry	ent;
	int			nr;
	long			ret;
};

/*
 * The bytes after nr up to the next field, in both records (four on
 * 64-bit): ftrace leaves them as the buffer had them, rbtrace zeroes them.
 */
#define RBTR_KSYS_NR_END	offsetofend(struct rbtr_ksys_enter_rec, nr)
#define RBTR_KSYS_ARGS		offsetof(struct rbtr_ksys_enter_rec, args)
static_assert(offsetof(struct rbtr_ksys_exit_rec, ret) == RBTR_KSYS_ARGS);

static __always_inline void rbtr_ksys_pad(void *rec)
{
	memset(rec + RBTR_KSYS_NR_END, 0, RBTR_KSYS_ARGS - RBTR_KSYS_NR_END);
}

/* The format files' offsets (syscall_enter_define_fields(), ..._exit's fields). */
static_assert(offsetof(struct rbtr_ksys_enter_rec, nr) == 8);
static_assert(offsetof(struct rbtr_ksys_enter_rec, args) == 8 + sizeof(long));
static_assert(offsetof(struct rbtr_ksys_exit_rec, ret) == 8 + sizeof(long));
static_assert(RBTR_KSYS_ARG_AT(1) == offsetof(struct rbtr_ksys_enter_rec, args[1]));

/* ftrace's syscall_get_arguments() reads six (SYSCALL_DEFINE_MAXARGS). */
#define RBTR_KSYS_MAX_ARGS	6

/**
 * struct rbtr_ksys_table - the syscalls events by number
 * @on: per direction and number, the event while it is attached (its
 *      file set published), else NULL: what the probes read, under
 *      sched-RCU
 * @id: per direction and number, the kernel's id of the event, 0 if the
 *      kernel has none (no metadata, or not mapped to a number)
 * @nargs: per number, the syscall's arguments (syscall_metadata.nb_args)
 * @user: per number, its user arguments if its enter event records them
 *        (kevents_sysuser.c), else NULL: set before the event is
 *        registered, constant after
 * @nr_on: per direction, the events attached: its probe is registered
 *         while not 0
 * @built: the table was read (at the first syscalls event asked for)
 */
struct rbtr_ksys_table {
	struct rbtr_kevent __rcu *on[RBTR_KSYS_DIRS][NR_syscalls];
	unsigned short		id[RBTR_KSYS_DIRS][NR_syscalls];
	u8			nargs[NR_syscalls];
	const struct rbtr_ksys_user *user[NR_syscalls];
	unsigned int		nr_on[RBTR_KSYS_DIRS];
	bool			built;
};

static struct rbtr_ksys_table rbtr_ksys;

#ifdef RBTRACE_TEST_HOOKS
/* Test builds: the route is seen from the guest (a normal load says nothing). */
static unsigned int ksys_native;
module_param(ksys_native, uint, 0400);
MODULE_PARM_DESC(ksys_native, "test builds: syscalls events given the native route at load");
#endif

/* ---- recording ----------------------------------------------------------- */

/*
 * ftrace's trace_get_syscall_nr() and its range check: a compat
 * syscall's number indexes another table (x86's ia32 and x32 entries),
 * so those are not traced, as in ftrace.
 */
static __always_inline int rbtr_ksys_nr(struct pt_regs *regs)
{
	int nr;

#ifdef ARCH_TRACE_IGNORE_COMPAT_SYSCALLS
	if (unlikely(arch_trace_is_compat_syscall(regs)))
		return -1;
#endif
	nr = syscall_get_nr(current, regs);
	if (unlikely(nr < 0 || nr >= NR_syscalls))
		return -1;
	return nr;
}

/* The enabled files of the event of @nr in @dir, or NULL. Preemption off. */
static __always_inline const struct rbtr_file_set *rbtr_ksys_files(int dir, int nr)
{
	struct rbtr_kevent *kev = rcu_dereference_sched(rbtr_ksys.on[dir][nr]);

	return kev ? rcu_dereference_sched(kev->files) : NULL;
}

/*
 * A record's context is ftrace's for these events: ftrace_syscall_enter()
 * and _exit() keep preemption off themselves (guard(preempt_notrace)())
 * and count that level (tracing_gen_ctx_dec() takes off the tracepoint's
 * only), as this probe's own level is counted here. So the reservation
 * is rbtr_event_reserve()'s, with that context, and not the tracepoint
 * events' rbtr_tp_reserve(), whose context leaves their probe's level
 * out.
 */
static __always_inline void *rbtr_ksys_reserve(struct rbt_buffer **buf,
					       struct rbtr_event_file *file, unsigned int size)
{
	*buf = rbtr_live_buffer(file->tr);
	return rbtr_event_reserve(*buf, file, size, rbtr_ctx_tp(rbtr_trace_ctx()));
}

/*
 * @size: the record's bytes up to its last argument. With @ud (a syscall
 * of user arguments, @u), the user memory follows, as much as this
 * file's tracer keeps (its syscall_user_buf_size, read once: a write to
 * it meanwhile changes the next record).
 */
static __always_inline void rbtr_ksys_write_enter(struct rbtr_event_file *file, int nr,
						  const unsigned long *args, unsigned int size,
						  const struct rbtr_ksys_user *u,
						  const struct rbtr_ksys_udata *ud)
{
	unsigned int max = 0, total = size;
	struct rbtr_ksys_enter_rec *r;
	struct rbt_buffer *buf;

	if (ud) {
		max = READ_ONCE(file->tr->syscall_buf_sz);
		total += rbtr_ksys_user_size(u, ud, max);
	}
	r = rbtr_ksys_reserve(&buf, file, total);
	if (!r)
		return;
	r->nr = nr;
	rbtr_ksys_pad(r);
	memcpy(r->args, args, size - RBTR_KSYS_ARGS);
	if (ud)
		rbtr_ksys_user_put(r, size, u, ud, max);
	rbtr_event_commit(buf, file, r, total);
}

static void notrace rbtr_ksys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[RBTR_KSYS_MAX_ARGS];
	const struct rbtr_ksys_udata *ud = NULL;
	const struct rbtr_file_set *set;
	const struct rbtr_ksys_user *u;
	unsigned int i, size;
	int nr;

	/* ftrace's guard(preempt_notrace)(): the records' context counts it. */
	preempt_disable_notrace();
	nr = rbtr_ksys_nr(regs);
	if (nr < 0)
		goto out;
	set = rbtr_ksys_files(RBTR_KSYS_ENTER, nr);
	if (!set)
		goto out;
	syscall_get_arguments(current, regs, args);
	size = RBTR_KSYS_ARGS + rbtr_ksys.nargs[nr] * sizeof(long);
	/* The user memory once, for every file (kevents_sysuser.c). */
	u = rbtr_ksys.user[nr];
	if (u)
		ud = rbtr_ksys_user_read(u, args);
	for (i = 0; i < set->nr; i++)
		rbtr_ksys_write_enter(set->file[i], nr, args, size, u, ud);
out:
	preempt_enable_notrace();
}

static __always_inline void rbtr_ksys_write_exit(struct rbtr_event_file *file, int nr, long ret)
{
	struct rbtr_ksys_exit_rec *r;
	struct rbt_buffer *buf;

	r = rbtr_ksys_reserve(&buf, file, sizeof(*r));
	if (!r)
		return;
	r->nr = nr;
	rbtr_ksys_pad(r);
	r->ret = ret;
	rbtr_event_commit(buf, file, r, sizeof(*r));
}

static void notrace rbtr_ksys_exit(void *data, struct pt_regs *regs, long ret)
{
	const struct rbtr_file_set *set;
	unsigned int i;
	int nr;

	preempt_disable_notrace();
	nr = rbtr_ksys_nr(regs);
	if (nr < 0)
		goto out;
	set = rbtr_ksys_files(RBTR_KSYS_EXIT, nr);
	if (!set)
		goto out;
	/* ftrace's value, which the tracepoint's @ret is on x86, not everywhere. */
	ret = syscall_get_return_value(current, regs);
	for (i = 0; i < set->nr; i++)
		rbtr_ksys_write_exit(set->file[i], nr, ret);
out:
	preempt_enable_notrace();
}

/* ---- attaching ------------------------------------------------------------ */

/* raw_syscalls' tracepoints, found by name at load by tp_attach.c. */
static struct tracepoint *rbtr_ksys_tp(int dir)
{
	return rbtr_tp_events[dir == RBTR_KSYS_ENTER ? RBTR_TP_sys_enter : RBTR_TP_sys_exit].tp;
}

static void *rbtr_ksys_probe(int dir)
{
	return dir == RBTR_KSYS_ENTER ? (void *)rbtr_ksys_enter : (void *)rbtr_ksys_exit;
}

/* The number of the event of id @id in @dir, or -1. */
static int rbtr_ksys_nr_of(int dir, unsigned short id)
{
	int nr;

	for (nr = 0; nr < NR_syscalls; nr++)
		if (rbtr_ksys.id[dir][nr] == id)
			return nr;
	return -1;
}

/* Under kevents.c's mutex. */
static int rbtr_ksys_attach(struct rbtr_kevent *kev, int dir)
{
	int nr = rbtr_ksys_nr_of(dir, kev->type.id);
	int ret;

	if (WARN_ON_ONCE(nr < 0))
		return -ENOENT;
	if (!rbtr_ksys.nr_on[dir]) {
		/* The enter probe's buffers for user memory, before it can run. */
		ret = dir == RBTR_KSYS_ENTER ? rbtr_ksys_user_buf_get() : 0;
		if (!ret)
			ret = tracepoint_probe_register(rbtr_ksys_tp(dir), rbtr_ksys_probe(dir),
							NULL);
		if (ret) {
			if (dir == RBTR_KSYS_ENTER)
				rbtr_ksys_user_buf_put();
			return ret;
		}
	}
	rbtr_ksys.nr_on[dir]++;
	/* kev->files is published: the probe finds the set through the slot. */
	rcu_assign_pointer(rbtr_ksys.on[dir][nr], kev);
	return 0;
}

/* Under kevents.c's mutex. Why only the last detach waits: see the top. */
static void rbtr_ksys_detach(struct rbtr_kevent *kev, int dir)
{
	int nr = rbtr_ksys_nr_of(dir, kev->type.id);
	int ret;

	if (WARN_ON_ONCE(nr < 0))
		return;
	RCU_INIT_POINTER(rbtr_ksys.on[dir][nr], NULL);
	if (--rbtr_ksys.nr_on[dir])
		return;
	ret = tracepoint_probe_unregister(rbtr_ksys_tp(dir), rbtr_ksys_probe(dir), NULL);
	if (ret)
		pr_warn("rbtrace: syscalls: cannot unregister the probe (%d)\n", ret);
	tracepoint_synchronize_unregister();
	/* No probe runs any more (unless unregistering failed: keep them). */
	if (dir == RBTR_KSYS_ENTER && !ret)
		rbtr_ksys_user_buf_put();
}

static int rbtr_ksys_attach_enter(struct rbtr_kevent *kev)
{
	return rbtr_ksys_attach(kev, RBTR_KSYS_ENTER);
}

static void rbtr_ksys_detach_enter(struct rbtr_kevent *kev)
{
	rbtr_ksys_detach(kev, RBTR_KSYS_ENTER);
}

static int rbtr_ksys_attach_exit(struct rbtr_kevent *kev)
{
	return rbtr_ksys_attach(kev, RBTR_KSYS_EXIT);
}

static void rbtr_ksys_detach_exit(struct rbtr_kevent *kev)
{
	rbtr_ksys_detach(kev, RBTR_KSYS_EXIT);
}

static const struct rbtr_kev_route rbtr_ksys_routes[RBTR_KSYS_DIRS] = {
	[RBTR_KSYS_ENTER] = {
		.name	= "syscalls",
		.attach	= rbtr_ksys_attach_enter,
		.detach	= rbtr_ksys_detach_enter,
	},
	[RBTR_KSYS_EXIT] = {
		.name	= "syscalls",
		.attach	= rbtr_ksys_attach_exit,
		.detach	= rbtr_ksys_detach_exit,
	},
};

#define RBTR_KSYS_ENTER_PFX	"sys_enter"
#define RBTR_KSYS_EXIT_PFX	"sys_exit"

/* ---- the table --------------------------------------------------------------- */

/*
 * Is @call one of the syscalls events, whose ->data is its metadata?
 * Those are ftrace's syscall events, of flags TRACE_EVENT_FL_CAP_ANY
 * alone (SYSCALL_TRACE_ENTER_EVENT()); a dynamic event made in a group
 * named "syscalls" has other flags (kprobe, uprobe, synthetic, user
 * events), and a TRACE_EVENT() has TRACE_EVENT_FL_TRACEPOINT.
 */
static bool rbtr_ksys_is_syscall(struct trace_event_call *call)
{
	const int other = TRACE_EVENT_FL_TRACEPOINT | TRACE_EVENT_FL_KPROBE |
			  TRACE_EVENT_FL_UPROBE | TRACE_EVENT_FL_DYNAMIC;

	return (call->flags & TRACE_EVENT_FL_CAP_ANY) && !(call->flags & other) &&
	       !call->module && call->data;
}

/* The table entry of syscalls:@name, if the kernel maps it to a number. */
static void rbtr_ksys_learn(const char *name)
{
	struct trace_event_file *file;
	struct syscall_metadata *meta;
	struct trace_event_call *call;
	int dir = -1;

	file = trace_get_event_file(NULL, "syscalls", name);
	if (IS_ERR(file))
		return;
	call = file->event_call;
	if (!rbtr_ksys_is_syscall(call))
		goto put;
	meta = call->data;
	if (meta->syscall_nr < 0 || meta->syscall_nr >= NR_syscalls ||
	    meta->nb_args < 0 || meta->nb_args > RBTR_KSYS_MAX_ARGS)
		goto put;
	if (call == meta->enter_event)
		dir = RBTR_KSYS_ENTER;
	else if (call == meta->exit_event)
		dir = RBTR_KSYS_EXIT;
	if (dir < 0 || !call->event.type)
		goto put;
	rbtr_ksys.id[dir][meta->syscall_nr] = call->event.type;
	rbtr_ksys.nargs[meta->syscall_nr] = meta->nb_args;
put:
	trace_put_event_file(file);
}

/* Read the table from the kernel's syscalls events, once. */
static void rbtr_ksys_build(void)
{
	size_t cap = 64 << 10;
	char *list = NULL, *line, *next;
	ssize_t n;

	rbtr_ksys.built = true;
	if (!rbtr_ksys_tp(RBTR_KSYS_ENTER) || !rbtr_ksys_tp(RBTR_KSYS_EXIT) ||
	    IS_ERR_OR_NULL(rbtr_kfs()))
		return;
	n = rbtr_kfs_read(rbtr_kfs(), "available_events", &list, &cap);
	for (line = n < 0 ? NULL : list; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (str_has_prefix(line, "syscalls:"))
			rbtr_ksys_learn(line + strlen("syscalls:"));
	}
	kvfree(list);
}

/*
 * The fields the probe writes: __syscall_nr, then the arguments (enter)
 * or ret (exit), each at ftrace's offset with ftrace's size.
 */
static bool rbtr_ksys_layout_ok(const struct rbtr_kevent *kev, int dir, unsigned int nargs)
{
	const struct rbtr_field *f = kev->type.fields;
	unsigned int i, n = dir == RBTR_KSYS_ENTER ? nargs : 1;

	if (kev->type.nr_fields != 1 + n || strcmp(f[0].name, "__syscall_nr") ||
	    f[0].offset != offsetof(struct rbtr_ksys_enter_rec, nr) || f[0].size != sizeof(int))
		return false;
	for (i = 0; i < n; i++)
		if (f[1 + i].offset != RBTR_KSYS_ARGS + i * sizeof(long) ||
		    f[1 + i].size != sizeof(long))
			return false;
	return dir == RBTR_KSYS_ENTER || !strcmp(f[1].name, "ret");
}

/**
 * rbtr_ksys_route - the native route of a syscalls event
 * @kev: a kernel event, parsed, not registered
 *
 * Builds the table of syscalls events at the first one asked for. An
 * event of the table whose format is the probe's record is given its
 * text (ftrace's, not the fields') with the route.
 *
 * Return: the route, or NULL (not a syscalls event, or one the kernel
 * has no number or metadata for: perf's route).
 */
const struct rbtr_kev_route *rbtr_ksys_route(struct rbtr_kevent *kev)
{
	int dir, nr;

	if (strcmp(kev->type.system, "syscalls"))
		return NULL;
	if (!rbtr_ksys.built)
		rbtr_ksys_build();
	if (str_has_prefix(kev->type.name, RBTR_KSYS_ENTER_PFX "_"))
		dir = RBTR_KSYS_ENTER;
	else if (str_has_prefix(kev->type.name, RBTR_KSYS_EXIT_PFX "_"))
		dir = RBTR_KSYS_EXIT;
	else
		return NULL;
	nr = rbtr_ksys_nr_of(dir, kev->type.id);
	if (nr < 0)
		return NULL;
	if (!rbtr_ksys_layout_ok(kev, dir, rbtr_ksys.nargs[nr])) {
		pr_info("rbtrace: syscalls:%s: not the record of ftrace's probe: on perf\n",
			kev->type.name);
		rbtr_ksys.id[dir][nr] = 0;
		return NULL;
	}
	/*
	 * Its text is ftrace's: the kernel's own printer (kevents_text.c);
	 * a syscall of user arguments records and prints them as 6.19 does.
	 */
	if (dir == RBTR_KSYS_ENTER && rbtr_ksys_user_of(nr) &&
	    !rbtr_ksys_user_event(kev, rbtr_ksys.nargs[nr], rbtr_ksys_user_of(nr)))
		rbtr_ksys.user[nr] = rbtr_ksys_user_of(nr);
#ifdef RBTRACE_TEST_HOOKS
	ksys_native++;
#endif
	return &rbtr_ksys_routes[dir];
}
