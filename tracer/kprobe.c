// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace dynamic probes: kprobe_events (and dynamic_events, the same
 * file under ftrace's name for every kind), with ftrace's syntax, errnos and
 * read-back text, making events/<GRP>/<NAME>/ (default group "kprobes")
 * whose records are laid out as the kernel's own kprobe events:
 * struct trace_entry, then __probe_ip (kprobe) or __probe_func and
 * __probe_ret_ip (kretprobe), then the fetched arguments (kprobe_args.c).
 *
 *	p[:[GRP/]NAME] SYM[+OFF] [ARGS]		a kprobe
 *	r[MAXACTIVE][:[GRP/]NAME] SYM [ARGS]	a kretprobe (also p ... SYM%return)
 *	-:[GRP/]NAME				remove one
 *
 * A probe is registered with the kernel (register_kprobe(),
 * register_kretprobe()) when it is defined, disabled, so that a bad
 * symbol or offset is refused then, as ftrace does; enabling its event
 * enables the kprobe. Its event type is registered at run time in the
 * event registry with an id of its own.
 *
 * Tracers: the event has a file in every tracer (the top one and each
 * instance), the probe is one. Its enabled files are a struct
 * rbtr_file_set (tk->files), copied on each update under the registry
 * mutex; the first enabling arms the kprobe, the last disabling disarms
 * it. The handler reads the set once per hit (kprobe handlers run with
 * preemption off: sched-RCU), fetches the arguments once into its
 * scratch area, then reserves, copies and commits one record per file,
 * each under that file's condition into its tracer's buffer.
 *
 * Removal: a probe enabled in any tracer is refused with -EBUSY. Then,
 * under rbtr_kp_mutex, what may still use it goes, each user waited for:
 *
 *  R1 its kprobe is unregistered: unregister_kprobe() and
 *     unregister_kretprobe() end with synchronize_rcu(), after which no
 *     handler runs (kprobe handlers run with interrupts or preemption
 *     off; a kretprobe's return handler is called by the rethook with
 *     preemption off, and only while its handler is set, which
 *     rethook_free() clears before that grace period). No record of it
 *     is written after R1;
 *  R2 its event type is unregistered: its files are removed, which waits
 *     for the operations in flight on them (debugfs; a file opened before
 *     fails its later reads and writes with EIO, its release touches
 *     nothing of the probe) and its id is erased: no new lookup finds it
 *     (no trigger holds it: that is busy);
 *  R3 the tracers it was ever enabled in are emptied, their live buffer
 *     and their snapshot, as ftrace does (dyn_event_release() and
 *     event_remove(): clear_trace where EVENT_FILE_FL_WAS_ENABLED). Its
 *     records are gone with them, so that none is decoded later with
 *     the format of another event given its id; a tracer it was never
 *     enabled in has none of its records and is left alone;
 *  R4 it is freed after an RCU grace period (call_rcu()): the text
 *     output looks a record's type up by id under rcu_read_lock()
 *     (rbtr_event_print(), rbtr_persist_fix_rec()) and may be printing
 *     with this one. rbtr_kprobes_exit() waits for those callbacks.
 *
 * Its id may then be given again (event.c gives ids round the range,
 * the one freed last given last): a reader that took one of its records
 * out of a buffer before R3 and prints it only after some 16,000 other
 * events have been defined would print it as the event holding the id.
 *
 * The parts: this file keeps the probes' definition and lifetime (the
 * parser, creation, removal, kprobe_events); kprobe_event.c what runs
 * while a probe is in use: its handlers and its event type (fields,
 * text, enabling in a tracer); kprobe_args.c its fetch arguments. What
 * the first two share is in kprobe_internal.h.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86_KERNEL_IBT
#include <asm/ibt.h>
#endif
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "kprobe.h"
#include "kprobe_internal.h"
#include "trace.h"

#define RBTR_KP_GROUP		"kprobes"
/* ftrace's WRITE_BUFSIZE: a longer write is taken up to its last line. */
#define RBTR_KP_WRITE_MAX	4096
/* An unknown symbol is ftrace's -EINVAL since 6.6, -ENOENT before (Kbuild) */
#ifdef RBT_KPROBE_NOSYM_EINVAL
#define RBTR_KP_NOSYM_EINVAL	true
#else
#define RBTR_KP_NOSYM_EINVAL	false
#endif

/* Serialises kprobe_events: its probe list, creation and removal. */
static DEFINE_MUTEX(rbtr_kp_mutex);
static LIST_HEAD(rbtr_kprobes);
/*
 * Where a handler builds its record before reserving it at its exact
 * size. One per CPU is enough: kprobe handlers never nest on a CPU (a
 * probe hit while one runs is missed, kprobe_running()), kretprobe
 * handlers included. Allocated with the first probe, freed at unload.
 */
void __percpu *rbtr_kp_scratch;

/* ---- freeing --------------------------------------------------------------- */

static void rbtr_kp_free(struct rbtr_kprobe *tk)
{
	unsigned int i;

	for (i = 0; i < tk->nr_args; i++)
		rbtr_kp_free_arg(&tk->args[i]);
	kfree(tk->args);
	kfree(tk->fields);
	kfree(tk->print_fmt);
	kfree(tk->group);
	kfree(tk->name);
	kfree(tk->symbol);
	kfree(tk->was_in);
	kfree(tk);
}

static void rbtr_kp_free_rcu(struct rcu_head *rcu)
{
	rbtr_kp_free(container_of(rcu, struct rbtr_kprobe, rcu));
}

/* ---- parsing a definition --------------------------------------------------- */

/* "SYM", "SYM+OFF", "SYM%return"; not an address. */
static int rbtr_kp_parse_target(struct rbtr_kprobe *tk, const char *target)
{
	unsigned long off = 0;
	char *plus, *pct;

	tk->symbol = kstrdup(target, GFP_KERNEL);
	if (!tk->symbol)
		return -ENOMEM;
	pct = strchr(tk->symbol, '%');
	if (pct) {
		if (strcmp(pct, "%return"))
			return -EINVAL;
		*pct = '\0';
		tk->is_return = true;
	}
	plus = strpbrk(tk->symbol, "+-");
	if (plus) {
		if (*plus == '-' || kstrtoul(plus + 1, 0, &off) || off > UINT_MAX)
			return -EINVAL;
		*plus = '\0';
	}
	if (!*tk->symbol || isdigit(*tk->symbol))
		return -EINVAL;
	tk->rp.kp.symbol_name = tk->symbol;
	tk->rp.kp.offset = off;
	if (!tk->group)
		tk->group = kstrdup(RBTR_KP_GROUP, GFP_KERNEL);
	if (!tk->name) {
		tk->name = rbtr_kp_default_name(tk->is_return, tk->symbol, off);
		if (!tk->name)
			return -ENOMEM;
	}
	return tk->group ? 0 : -ENOMEM;
}

/*
 * kprobe_on_func_entry() (not exported), for a registered probe: at
 * offset 0, or at 4 after an ENDBR that the kprobe skipped (x86's
 * arch_adjust_kprobe_addr()).
 */
static bool rbtr_kp_at_entry(const struct kprobe *kp)
{
	u32 insn __maybe_unused;

	if (!kp->offset)
		return true;
#ifdef CONFIG_X86_KERNEL_IBT
	if (kp->offset == 4 &&
	    !copy_from_kernel_nofault(&insn, (void *)kp->addr - 4, sizeof(insn)))
		return is_endbr(insn);
#endif
	return false;
}

/* The arguments of a registered probe: $argN depends on where it is. */
static int rbtr_kp_parse_args(struct rbtr_kprobe *tk, int argc, char **argv)
{
	bool at_entry = rbtr_kp_at_entry(&tk->rp.kp);
	unsigned int i, j;
	int ret;

	tk->at_entry = at_entry;
	if (argc > RBTR_KP_MAX_ARGS)
		return -E2BIG;
	tk->args = kcalloc(argc, sizeof(*tk->args), GFP_KERNEL);
	if (argc && !tk->args)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		ret = rbtr_kp_parse_arg(&tk->args[i], argv[i], i, tk->is_return, at_entry);
		if (ret)
			return ret;
		tk->nr_args++;
		for (j = 0; j < i; j++)
			if (!strcmp(tk->args[j].name, tk->args[i].name))
				return -EINVAL;
	}
	return 0;
}

static struct rbtr_kprobe *rbtr_kp_parse(int argc, char **argv)
{
	struct rbtr_kprobe *tk;
	int ret;

	if (argc < 2)
		return ERR_PTR(-EINVAL);
	tk = kzalloc(sizeof(*tk), GFP_KERNEL);
	if (!tk)
		return ERR_PTR(-ENOMEM);
	ret = rbtr_kp_parse_head(argv[0], &tk->is_return, &tk->rp.maxactive, &tk->group,
				 &tk->name);
	if (!ret)
		ret = rbtr_kp_parse_target(tk, argv[1]);
	if (ret) {
		rbtr_kp_free(tk);
		return ERR_PTR(ret);
	}
	tk->rp.kp.pre_handler = rbtr_kp_handler;
	tk->rp.handler = rbtr_kretp_handler;
	tk->rp.kp.flags = KPROBE_FLAG_DISABLED;
	return tk;
}

/* ---- creating and removing ------------------------------------------------- */

static struct rbtr_kprobe *rbtr_kp_find(const char *group, const char *name)
{
	struct rbtr_kprobe *tk;

	list_for_each_entry(tk, &rbtr_kprobes, list)
		if (!strcmp(tk->name, name) && (!group || !strcmp(tk->group, group)))
			return tk;
	return NULL;
}

/*
 * Does @symbol exist? Only asked after register_kprobe() said -ENOENT
 * for it at an offset (kallsyms_lookup_name() is not exported): a
 * disabled probe at its start, removed at once, patches nothing.
 */
static bool rbtr_kp_symbol_exists(const char *symbol)
{
	struct kprobe kp = { .symbol_name = symbol, .flags = KPROBE_FLAG_DISABLED };

	if (register_kprobe(&kp))
		return false;
	unregister_kprobe(&kp);
	return true;
}

static int rbtr_kp_register(struct rbtr_kprobe *tk)
{
	int ret;

	if (tk->is_return)
		ret = register_kretprobe(&tk->rp);
	else
		ret = register_kprobe(&tk->rp.kp);
	/*
	 * Since 6.6 (validate_probe_symbol()) ftrace refuses an unknown
	 * symbol when parsing, -EINVAL; before, with register_kprobe()'s
	 * -ENOENT, which is still what an offset past its end gets.
	 */
	if (RBTR_KP_NOSYM_EINVAL && ret == -ENOENT &&
	    (!tk->rp.kp.offset || !rbtr_kp_symbol_exists(tk->symbol)))
		return -EINVAL;
	return ret;
}

static void rbtr_kp_unregister(struct rbtr_kprobe *tk)
{
	if (tk->is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
}

static int rbtr_kp_create(int argc, char **argv)
{
	struct rbtr_kprobe *tk = rbtr_kp_parse(argc, argv);
	bool registered = false;
	int ret;

	if (IS_ERR(tk))
		return PTR_ERR(tk);
	mutex_lock(&rbtr_kp_mutex);
	ret = -EEXIST;
	if (rbtr_kp_find(tk->group, tk->name))
		goto fail;
	ret = -ENOMEM;
	if (!rbtr_kp_scratch)
		rbtr_kp_scratch = __alloc_percpu(RBTR_KP_SCRATCH, sizeof(long));
	if (!rbtr_kp_scratch)
		goto fail;
	/* Disabled: nothing is patched in before its event is enabled. */
	ret = rbtr_kp_register(tk);
	if (ret)
		goto fail;
	registered = true;
	ret = rbtr_kp_parse_args(tk, argc - 2, argv + 2);
	if (!ret)
		ret = rbtr_kp_make_fields(tk);
	if (!ret)
		ret = rbtr_event_register(&tk->type);
	if (ret)
		goto fail;
	list_add_tail(&tk->list, &rbtr_kprobes);
	mutex_unlock(&rbtr_kp_mutex);
	return 0;
fail:
	if (registered)
		rbtr_kp_unregister(tk);
	mutex_unlock(&rbtr_kp_mutex);
	rbtr_kp_free(tk);
	return ret;
}

/*
 * Is @tk's event on in a tracer (enabled, or held by an enable_event
 * trigger)? Set @dying first: the registry mutex taken here orders it
 * with every enabling, which then sees it and refuses.
 */
static bool rbtr_kp_busy(struct rbtr_kprobe *tk)
{
	bool busy;

	WRITE_ONCE(tk->dying, true);
	rbtr_events_lock();
	busy = rcu_access_pointer(tk->files);
	rbtr_events_unlock();
	if (!busy)
		return false;
	WRITE_ONCE(tk->dying, false);
	return true;
}

/*
 * Under rbtr_kp_mutex, @tk not busy: steps R1 and R2 (see the top of the
 * file); @tk goes to @gone, for rbtr_kp_release().
 */
static void rbtr_kp_remove(struct rbtr_kprobe *tk, struct list_head *gone)
{
	rbtr_kp_unregister(tk);
	rbtr_event_unregister(&tk->type);
	list_move_tail(&tk->list, gone);
}

/* Was a probe of @gone ever enabled in @tr? */
static bool rbtr_kp_was_in(struct list_head *gone, struct rbtr_trace *tr)
{
	struct rbtr_kprobe *tk;
	unsigned int i;

	list_for_each_entry(tk, gone, list) {
		if (tk->was_anywhere)
			return true;
		for (i = 0; i < tk->nr_was_in; i++)
			if (tk->was_in[i] == tr)
				return true;
	}
	return false;
}

/*
 * R3 for one tracer: both of its buffers, whatever their roles (a
 * snapshot trigger may swap them meanwhile; under files_mutex neither
 * goes away), as ftrace empties array_buffer and max_buffer.
 */
static void rbtr_kp_reset_tracer(struct rbtr_trace *tr, void *data)
{
	unsigned int i;

	if (!rbtr_kp_was_in(data, tr))
		return;
	mutex_lock(&tr->files_mutex);
	for (i = 0; i < ARRAY_SIZE(tr->snap.bufs); i++)
		if (tr->snap.bufs[i])
			rbtr_reset_buffer(tr, tr->snap.bufs[i], RBT_ALL_CPUS);
	mutex_unlock(&tr->files_mutex);
}

/* Steps R3 and R4 for the probes rbtr_kp_remove() put on @gone. */
static void rbtr_kp_release(struct list_head *gone)
{
	struct rbtr_kprobe *tk, *tmp;

	if (list_empty(gone))
		return;
	rbtr_events_each_tracer(rbtr_kp_reset_tracer, gone);
	list_for_each_entry_safe(tk, tmp, gone, list) {
		list_del(&tk->list);
		call_rcu(&tk->rcu, rbtr_kp_free_rcu);
	}
}

static int rbtr_kp_delete(int argc, char **argv)
{
	struct rbtr_kprobe *tk;
	char *name = argv[0] + 2, *group = NULL, *slash;
	int ret = -ENOENT;
	LIST_HEAD(gone);

	if (argv[0][1] != ':' || !*name)
		return -EINVAL;
	slash = strchr(name, '/');
	if (slash) {
		*slash = '\0';
		group = name;
		name = slash + 1;
	}
	mutex_lock(&rbtr_kp_mutex);
	tk = rbtr_kp_find(group, name);
	if (tk) {
		ret = -EBUSY;
		if (!rbtr_kp_busy(tk)) {
			rbtr_kp_remove(tk, &gone);
			ret = 0;
		}
	}
	/* Under the mutex: no probe is defined before the tracers are emptied. */
	rbtr_kp_release(&gone);
	mutex_unlock(&rbtr_kp_mutex);
	return ret;
}

/* "> kprobe_events": all or nothing, -EBUSY if one is enabled. */
static int rbtr_kp_delete_all(void)
{
	struct rbtr_kprobe *tk, *tmp;
	LIST_HEAD(gone);
	int ret = 0;

	mutex_lock(&rbtr_kp_mutex);
	list_for_each_entry(tk, &rbtr_kprobes, list)
		if (rbtr_kp_busy(tk))
			ret = -EBUSY;
	list_for_each_entry_safe(tk, tmp, &rbtr_kprobes, list) {
		if (ret)
			WRITE_ONCE(tk->dying, false);
		else
			rbtr_kp_remove(tk, &gone);
	}
	rbtr_kp_release(&gone);
	mutex_unlock(&rbtr_kp_mutex);
	return ret;
}

/* One line of kprobe_events; comments and blank lines are skipped. */
static int rbtr_kp_command(char *line)
{
	char *hash = strchr(line, '#'), **argv;
	int argc, ret;

	if (hash)
		*hash = '\0';
	argv = argv_split(GFP_KERNEL, line, &argc);
	if (!argv)
		return -ENOMEM;
	ret = 0;
	if (!argc)
		goto out;
	switch (argv[0][0]) {
	case '-':
		ret = argc == 1 ? rbtr_kp_delete(argc, argv) : -EINVAL;
		break;
	case 'p':
	case 'r':
		ret = rbtr_kp_create(argc, argv);
		break;
	default:
		ret = -EINVAL;
	}
out:
	argv_free(argv);
	return ret;
}

/* ---- kprobe_events -------------------------------------------------------- */

static int rbtr_kp_show(struct seq_file *m, void *v)
{
	struct rbtr_kprobe *tk;
	unsigned int i;

	mutex_lock(&rbtr_kp_mutex);
	list_for_each_entry(tk, &rbtr_kprobes, list) {
		seq_putc(m, tk->is_return ? 'r' : 'p');
		if (tk->is_return && tk->rp.maxactive)
			seq_printf(m, "%d", tk->rp.maxactive);
		seq_printf(m, ":%s/%s %s", tk->group, tk->name, tk->symbol);
		if (tk->rp.kp.offset)
			seq_printf(m, "+%u", tk->rp.kp.offset);
		for (i = 0; i < tk->nr_args; i++)
			seq_printf(m, " %s=%s", tk->args[i].name, tk->args[i].comm);
		seq_putc(m, '\n');
	}
	mutex_unlock(&rbtr_kp_mutex);
	return 0;
}

static int rbtr_kp_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = rbtr_kp_delete_all();
		if (ret)
			return ret;
	}
	return single_open(file, rbtr_kp_show, NULL);
}

/*
 * Each line is a command, run in order; the first that fails stops the
 * write with its errno, the lines before it done (as ftrace's
 * trace_parse_run_command()).
 */
static ssize_t rbtr_kp_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	char *buf, *line, *next;
	int ret = 0;
	size_t len;

	if (!cnt)
		return 0;
	/* Whole lines: a long write up to its last newline. */
	buf = rbtr_write_cut(ubuf, cnt, RBTR_KP_WRITE_MAX, "\n", &len);
	if (IS_ERR(buf)) {
		ret = PTR_ERR(buf);
		goto refused;
	}
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = rbtr_kp_command(line);
		if (ret)
			break;
	}
	kfree(buf);
refused:
	if (ret) {
		pr_warn_ratelimited("rbtrace: %pD: definition refused (%d)\n", file, ret);
		return ret;
	}
	*ppos += len;
	return len;
}

static const struct file_operations rbtr_kp_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_kp_open,
	.read		= seq_read,
	.write		= rbtr_kp_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * rbtr_kprobes_files - create kprobe_events and dynamic_events in a
 * tracer's directory
 * @tr: the tracer
 *
 * dynamic_events is ftrace's one file for every kind of dynamic event:
 * rbtrace's only kind is the kprobe (p:, r:), so it reads and takes what
 * kprobe_events does, and "> dynamic_events" removes them all alike.
 * The kinds rbtrace does not have (f:, t:, e:, u:, s:) are -EINVAL, as
 * ftrace's for a kind no dyn_event_operations take.
 */
void rbtr_kprobes_files(struct rbtr_trace *tr)
{
	debugfs_create_file("kprobe_events", 0600, tr->dir, NULL, &rbtr_kp_fops);
	debugfs_create_file("dynamic_events", 0600, tr->dir, NULL, &rbtr_kp_fops);
}

/**
 * rbtr_kprobes_exit - remove every probe, enabled or not, and free them
 *
 * At unload, before the buffer and the events/ tree go: no file is open,
 * so nothing can look at the removed types any more, and the buffers are
 * not worth emptying. The probes removed before are freed by RCU
 * callbacks of this module: rcu_barrier() waits for them.
 */
void rbtr_kprobes_exit(void)
{
	struct rbtr_kprobe *tk, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&rbtr_kp_mutex);
	list_for_each_entry_safe(tk, tmp, &rbtr_kprobes, list)
		rbtr_kp_remove(tk, &gone);
	list_for_each_entry_safe(tk, tmp, &gone, list) {
		list_del(&tk->list);
		rbtr_kp_free(tk);
	}
	rcu_barrier();
	free_percpu(rbtr_kp_scratch);
	rbtr_kp_scratch = NULL;
	mutex_unlock(&rbtr_kp_mutex);
}
