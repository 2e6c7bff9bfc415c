// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace event triggers: events/<system>/<event>/trigger, with ftrace's
 * commands, syntax, text and errnos (kernel/trace/trace_events_trigger.c):
 *
 *   traceon[:N] [if FILTER]      traceoff[:N] [if FILTER]
 *   snapshot[:N] [if FILTER]     stacktrace[:N] [if FILTER]
 *   enable_event:SYS:EV[:N] [if FILTER]   disable_event:SYS:EV[:N] [if FILTER]
 *
 * "!CMD..." removes the trigger of CMD's class (traceon and traceoff are
 * one class, as are enable_event and disable_event of one target), and
 * succeeds when there is none, as ftrace's. snapshot allocates the
 * tracer's spare buffer when it is set (snapshot.c, sleeping) and swaps
 * it with the live one when it fires, from any context: the swap waits
 * for nothing (ftrace refuses a snapshot in NMI; rbtrace takes it).
 *
 * When they run (the three steps of event_cond.c, ftrace's rules):
 *  - while no trigger of the event has a condition or acts after the
 *    record (RBTR_EVC_TRIGGER alone), all run at the hit, before
 *    anything is reserved;
 *  - else (RBTR_EVC_TRIGGER_COND) they run on the written record: those
 *    whose FILTER fails are skipped; traceoff and stacktrace, ftrace's
 *    "post triggers", are only noted, and run after the commit.
 *
 * Contexts: a trigger runs in the context of its event, NMI included. It
 * takes no lock and allocates nothing: the list is walked under
 * sched-RCU (the callers run with preemption disabled), a count is taken
 * with a cmpxchg, enable_event flips one bit of its target's condition
 * word atomically. A trigger is freed only after synchronize_rcu(), which
 * waits for preemption-disabled sections and NMI handlers.
 *
 * Soft mode (ftrace's SOFT_MODE): an event with triggers is held in soft
 * mode (rbtr_event_soft_get()) by its first trigger, so that the triggers
 * see its hits while it is not enabled; enable_event and disable_event
 * hold their target too. A held event's probe is registered, and it
 * records nothing while RBTR_EVC_SOFT_OFF is set, so that enable_event's
 * firing is a bit flip. Removing the trigger releases the holds
 * (rbtr_event_soft_put()), which leaves the event as ftrace does.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "filter.h"
#include "function.h"
#include "snapshot.h"
#include "stack.h"
#include "trace.h"
#include "trigger.h"

/*
 * ftrace's enum event_trigger_type: the class of a command. Two triggers
 * of one class (and, for enable_event, one target) cannot coexist on an
 * event; the bits of a class are what rbtr_triggers_call() returns.
 */
enum rbtr_trigger_class {
	RBTR_TT_ONOFF,
	RBTR_TT_SNAPSHOT,
	RBTR_TT_STACK,
	RBTR_TT_ENABLE,
};

/**
 * struct rbtr_trigger_cmd - one command of the trigger file
 * @name: its name, as written
 * @class: its class (enum rbtr_trigger_class)
 * @post: runs after the record is committed (ftrace's POST_TRIGGER)
 * @target: takes SYS:EV, the event it switches
 * @enable: enable_event (else disable_event), for @target commands
 */
struct rbtr_trigger_cmd {
	const char	*name;
	unsigned int	class;
	bool		post;
	bool		target;
	bool		enable;
};

enum {
	RBTR_CMD_TRACEON,
	RBTR_CMD_TRACEOFF,
	RBTR_CMD_SNAPSHOT,
	RBTR_CMD_STACKTRACE,
	RBTR_CMD_ENABLE,
	RBTR_CMD_DISABLE,
	RBTR_NR_CMDS,
};

/* In ftrace's order of registration, which its "# Available triggers:" line follows. */
static const struct rbtr_trigger_cmd rbtr_trigger_cmds[RBTR_NR_CMDS] = {
	[RBTR_CMD_TRACEON]	= { "traceon", RBTR_TT_ONOFF, false, false, false },
	[RBTR_CMD_TRACEOFF]	= { "traceoff", RBTR_TT_ONOFF, true, false, false },
	[RBTR_CMD_SNAPSHOT]	= { "snapshot", RBTR_TT_SNAPSHOT, false, false, false },
	[RBTR_CMD_STACKTRACE]	= { "stacktrace", RBTR_TT_STACK, true, false, false },
	[RBTR_CMD_ENABLE]	= { "enable_event", RBTR_TT_ENABLE, false, true, true },
	[RBTR_CMD_DISABLE]	= { "disable_event", RBTR_TT_ENABLE, false, true, false },
};

/* The count of a trigger without ":N" (ftrace's -1). */
#define RBTR_TRIGGER_UNLIMITED	(~0UL)

/**
 * struct rbtr_trigger - one trigger of an event
 * @list: on its event's triggers (RCU)
 * @gone: on a list of triggers to free after a grace period
 * @cmd: its command
 * @count: times it may still fire, or RBTR_TRIGGER_UNLIMITED
 * @filter: its "if" condition, or NULL
 * @target: the event enable_event/disable_event switches, in the same
 *          tracer (held in soft mode)
 * @tr: the tracer of its event, whose snapshot a snapshot trigger holds
 *      (rbtr_snapshot_get()) until it is freed
 */
struct rbtr_trigger {
	struct list_head		list;
	struct list_head		gone;
	const struct rbtr_trigger_cmd	*cmd;
	atomic_long_t			count;
	struct rbtr_filter		*filter;
	struct rbtr_event_file		*target;
	struct rbtr_trace		*tr;
};

/*
 * Take one firing from @t's count: false when it is used up. The count
 * only goes down, so each failed cmpxchg means another context took one:
 * the loop ends after at most as many retries as contexts racing for it.
 */
static bool notrace rbtr_trigger_take(struct rbtr_trigger *t)
{
	long c = atomic_long_read(&t->count);

	do {
		if ((unsigned long)c == RBTR_TRIGGER_UNLIMITED)
			return true;
		if (!c)
			return false;
	} while (!atomic_long_try_cmpxchg(&t->count, &c, c - 1));
	return true;
}

/*
 * The context of the event, for the stack record: without the preemption
 * rbtr_event_cond_post() disabled and, as ftrace's tracing_gen_ctx_dec()
 * for its events, without the one of the event's probe.
 */
static unsigned int notrace rbtr_trigger_ctx(void)
{
	unsigned int ctx = rbtr_trace_ctx(), dec = 0;

	if (IS_ENABLED(CONFIG_PREEMPT_COUNT))
		dec++;
	if (IS_ENABLED(CONFIG_PREEMPTION))
		dec++;
	return ctx - min(ctx & 0xf, dec);
}

/*
 * Run one trigger. traceon/traceoff count only a firing that changes the
 * state, enable_event/disable_event only one that switches their target,
 * as ftrace's count functions do. Two contexts may both see the old state
 * and both take a count for one change: ftrace's counts race the same way.
 */
static void notrace rbtr_trigger_fire(struct rbtr_trigger *t, struct rbt_buffer *buffer,
				      struct rbtr_event_file *file)
{
	bool off;

	switch (t->cmd - rbtr_trigger_cmds) {
	case RBTR_CMD_TRACEON:
		if (!rbt_record_is_on(buffer) && rbtr_trigger_take(t))
			rbt_record_on(buffer);
		break;
	case RBTR_CMD_TRACEOFF:
		if (rbt_record_is_on(buffer) && rbtr_trigger_take(t))
			rbt_record_off(buffer);
		break;
	case RBTR_CMD_SNAPSHOT:
		/* -EBUSY (another swap, a mapping) or -ENODEV (echo 0 > snapshot): none. */
		if (rbtr_trigger_take(t))
			rbtr_snapshot_take(file->tr);
		break;
	case RBTR_CMD_STACKTRACE:
		/* A stack record tests no tracing_cpumask (stack.c): here, the tracer's. */
		if (rbtr_cpu_traced(file->tr, smp_processor_id()) && rbtr_trigger_take(t))
			rbtr_stack_write(buffer, rbtr_trigger_ctx(), 0);
		break;
	default:
		/* The target's own state is kept by the hold; this is the switch. */
		off = READ_ONCE(t->target->cond) & RBTR_EVC_SOFT_OFF;
		if (t->cmd->enable != off || !rbtr_trigger_take(t))
			break;
		if (t->cmd->enable)
			set_mask_bits(&t->target->cond, RBTR_EVC_SOFT_OFF, 0);
		else
			set_mask_bits(&t->target->cond, 0, RBTR_EVC_SOFT_OFF);
		break;
	}
}

/**
 * rbtr_triggers_call - run the triggers of @file for one hit
 * @buffer: the buffer the event is recorded into (@file->tr's live one)
 * @file: the event in its tracer
 * @rec: the written record, or NULL before the reservation (no trigger
 *       has a condition or runs after the record)
 * @size: the size of @rec
 *
 * Any context, preemption disabled (sched-RCU, see the top of the file).
 *
 * Return: the classes of the triggers left for rbtr_triggers_post(), as
 * bits; 0 for none.
 */
unsigned long notrace rbtr_triggers_call(struct rbt_buffer *buffer,
					 struct rbtr_event_file *file,
					 void *rec, unsigned int size)
{
	struct rbtr_trigger *t;
	unsigned long post = 0;

	list_for_each_entry_rcu(t, &file->triggers, list) {
		if (!rec) {
			rbtr_trigger_fire(t, buffer, file);
			continue;
		}
		if (t->filter && !rbtr_filter_match(t->filter, rec, size))
			continue;
		if (t->cmd->post) {
			post |= BIT(t->cmd->class);
			continue;
		}
		rbtr_trigger_fire(t, buffer, file);
	}
	return post;
}

/**
 * rbtr_triggers_post - run the triggers rbtr_triggers_call() left for after the commit
 * @buffer: the buffer the event was recorded into
 * @file: the event in its tracer
 * @post: what rbtr_triggers_call() returned
 *
 * Any context, preemption disabled.
 */
void notrace rbtr_triggers_post(struct rbt_buffer *buffer, struct rbtr_event_file *file,
				unsigned long post)
{
	struct rbtr_trigger *t;

	list_for_each_entry_rcu(t, &file->triggers, list)
		if (post & BIT(t->cmd->class))
			rbtr_trigger_fire(t, buffer, file);
}

/*
 * "if FILTER": filter.c's parser, over the fields of the trigger's own
 * event (not of enable_event's target), as ftrace's. A text that does not
 * parse goes to error_log and is refused with ftrace's errno.
 */
static int rbtr_trigger_filter_parse(const struct rbtr_event_type *type, const char *text,
				     struct rbtr_filter **filter)
{
	struct rbtr_filter *f = rbtr_filter_parse(type, text);

	if (IS_ERR(f))
		return PTR_ERR(f);
	*filter = f;
	return 0;
}

/* ---- changing the triggers (under rbtr_events_lock()) ------------------- */

/* The bits of @file's condition word its triggers need, as ftrace's update_cond_flag(). */
static void rbtr_triggers_update_cond(struct rbtr_event_file *file)
{
	unsigned long set = 0, all = RBTR_EVC_TRIGGER | RBTR_EVC_TRIGGER_COND;
	struct rbtr_trigger *t;

	list_for_each_entry(t, &file->triggers, list) {
		set |= RBTR_EVC_TRIGGER;
		if (t->filter || t->cmd->post)
			set |= RBTR_EVC_TRIGGER_COND;
	}
	rbtr_event_cond_update(file, set, all & ~set);
}

/*
 * Take @t off its event @file and drop its hold on its target; it goes on
 * @gone, to be freed by rbtr_triggers_free() after a grace period (a hit
 * may still be walking past it).
 */
static void rbtr_trigger_detach(struct rbtr_event_file *file, struct rbtr_trigger *t,
				struct list_head *gone)
{
	list_del_rcu(&t->list);
	rbtr_triggers_update_cond(file);
	if (t->target)
		rbtr_event_soft_put(t->target);
	if (list_empty(&file->triggers))
		rbtr_event_soft_put(file);
	list_add_tail(&t->gone, gone);
}

static void rbtr_trigger_free(struct rbtr_trigger *t)
{
	if (t->cmd == &rbtr_trigger_cmds[RBTR_CMD_SNAPSHOT])
		rbtr_snapshot_put(t->tr);
	rbtr_filter_free(t->filter);
	kfree(t);
}

/* Free the detached triggers on @gone, once no hit can see them. */
static void rbtr_triggers_free(struct list_head *gone)
{
	struct rbtr_trigger *t, *tmp;

	if (list_empty(gone))
		return;
	synchronize_rcu();
	list_for_each_entry_safe(t, tmp, gone, gone)
		rbtr_trigger_free(t);
}

/* The trigger of @file in @cmd's class (and with @target), as ftrace matches them. */
static struct rbtr_trigger *rbtr_trigger_find(struct rbtr_event_file *file,
					      const struct rbtr_trigger_cmd *cmd,
					      const struct rbtr_event_file *target)
{
	struct rbtr_trigger *t;

	list_for_each_entry(t, &file->triggers, list)
		if (t->cmd->class == cmd->class && t->target == target)
			return t;
	return NULL;
}

/* The file rbtr_triggers_file_gone() removes; under rbtr_events_lock(). */
static struct rbtr_event_file *gone_target;

/* Another event's enable_event on gone_target: a trigger left without its target. */
static int rbtr_triggers_target_gone(struct rbtr_event_file *file, void *gone)
{
	struct rbtr_trigger *t, *tmp;

	list_for_each_entry_safe(t, tmp, &file->triggers, list)
		if (t->target == gone_target)
			rbtr_trigger_detach(file, t, gone);
	return 0;
}

/**
 * rbtr_triggers_file_gone - @file is being removed: remove its triggers,
 * and the triggers of the other events of its tracer that switch it
 * @file: the file, still on its tracer's list
 *
 * Under rbtr_events_lock(), from the removal of a type or of a tracer
 * (event_file.c); waits for a grace period when it removed anything.
 */
void rbtr_triggers_file_gone(struct rbtr_event_file *file)
{
	struct rbtr_trigger *t, *tmp;
	LIST_HEAD(gone);

	list_for_each_entry_safe(t, tmp, &file->triggers, list)
		rbtr_trigger_detach(file, t, &gone);
	gone_target = file;
	rbtr_event_file_for_each(file->tr, rbtr_triggers_target_gone, &gone);
	gone_target = NULL;
	rbtr_triggers_free(&gone);
	/* set_ftrace_filter's enable_event/disable_event commands too. */
	rbtr_fn_cmd_file_gone(file);
}

/* ---- the trigger file --------------------------------------------------- */

/**
 * struct rbtr_trigger_req - one write of the trigger file, parsed
 * @cmd: its command
 * @remove: "!CMD"
 * @count: its ":N", or RBTR_TRIGGER_UNLIMITED
 * @filter: the text after the command and its parameters ("if ..."), or NULL
 * @system: enable_event's SYS
 * @event: enable_event's EV
 */
struct rbtr_trigger_req {
	const struct rbtr_trigger_cmd	*cmd;
	bool				remove;
	unsigned long			count;
	char				*filter;
	char				*system;
	char				*event;
};

/* ftrace's event_trigger_parse_num(): N of ":N[:...]", "" refused. */
static int rbtr_trigger_parse_count(char *param, unsigned long *count)
{
	char *number;

	*count = RBTR_TRIGGER_UNLIMITED;
	if (!param)
		return 0;
	number = strsep(&param, ":");
	if (!*number)
		return -EINVAL;
	return kstrtoul(number, 0, count);
}

/*
 * Split a write as ftrace's trigger_process_regex() and its commands'
 * parse functions do: "CMD[:| ]PARAM [FILTER]". For the commands without
 * SYS:EV, what follows the command is a count only if it starts with a
 * digit, else it is all filter. A removal does not look at the count.
 */
static int rbtr_trigger_parse(char *buf, struct rbtr_trigger_req *req)
{
	char *command, *next, *param = NULL;
	unsigned int i;

	memset(req, 0, sizeof(*req));
	req->count = RBTR_TRIGGER_UNLIMITED;
	next = skip_spaces(buf);
	command = strsep(&next, ": \t");
	if (next) {
		next = skip_spaces(next);
		if (!*next)
			next = NULL;
	}
	req->remove = *command == '!';
	if (req->remove)
		command++;
	for (i = 0; i < RBTR_NR_CMDS; i++)
		if (!strcmp(command, rbtr_trigger_cmds[i].name))
			req->cmd = &rbtr_trigger_cmds[i];
	if (!req->cmd)
		return -EINVAL;
	if (req->cmd->target || (next && isdigit(*next))) {
		if (!next)
			return -EINVAL;
		param = strsep(&next, " \t");
		if (next) {
			next = skip_spaces(next);
			if (!*next)
				next = NULL;
		}
	}
	req->filter = next;
	if (req->cmd->target) {
		req->system = strsep(&param, ":");
		if (!param)
			return -EINVAL;
		req->event = strsep(&param, ":");
	}
	if (req->remove)
		return 0;
	return rbtr_trigger_parse_count(param, &req->count);
}

/*
 * The "if FILTER" part, as ftrace's set_trigger_filter(): the first word
 * must be "if", and a filter must follow.
 */
static int rbtr_trigger_parse_filter(const struct rbtr_event_type *type, char *text,
				     struct rbtr_filter **filter)
{
	char *word;

	*filter = NULL;
	if (!text)
		return 0;
	word = strsep(&text, " \t");
	if (strcmp(word, "if") || !text)
		return -EINVAL;
	return rbtr_trigger_filter_parse(type, text, filter);
}

/* Add the trigger of @req to @file, under rbtr_events_lock(). */
static int rbtr_trigger_add(struct rbtr_event_file *file, const struct rbtr_trigger_req *req,
			    struct rbtr_event_file *target, struct rbtr_filter *filter)
{
	struct rbtr_trigger *t;
	int ret;

	if (rbtr_trigger_find(file, req->cmd, target))
		return -EEXIST;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* The first trigger holds its own event too, so that hits come while it is off. */
	ret = list_empty(&file->triggers) ? rbtr_event_soft_get(file) : 0;
	if (ret)
		goto free;
	ret = target ? rbtr_event_soft_get(target) : 0;
	if (ret)
		goto put;
	t->cmd = req->cmd;
	t->target = target;
	t->filter = filter;
	t->tr = file->tr;
	atomic_long_set(&t->count, req->count);
	/* Complete before it is visible: list_add_rcu() is a release. Newest first, as ftrace. */
	list_add_rcu(&t->list, &file->triggers);
	rbtr_triggers_update_cond(file);
	return 0;
put:
	if (list_empty(&file->triggers))
		rbtr_event_soft_put(file);
free:
	kfree(t);
	return ret;
}

/*
 * Apply one write to @file: all or nothing. The target is looked up in
 * the same tracer (as ftrace's), and @file checked to be still live (it
 * may be written while it is being removed), under the registry lock.
 */
static int rbtr_trigger_apply(struct rbtr_event_file *file, char *buf)
{
	struct rbtr_event_type *type = file->type;
	struct rbtr_event_file *target = NULL;
	struct rbtr_filter *filter = NULL;
	struct rbtr_trigger_req req;
	struct rbtr_trigger *t;
	LIST_HEAD(gone);
	int ret;

	ret = rbtr_trigger_parse(buf, &req);
	if (ret)
		return ret;
	/*
	 * As ftrace's tracing_arm_snapshot(): the spare exists before the
	 * trigger can fire, and is not freed while it exists (given back by
	 * rbtr_trigger_free(), or below if not added). Before the registry
	 * lock: the snapshot's allocation takes the tracer's files_mutex.
	 */
	if (!req.remove && req.cmd == &rbtr_trigger_cmds[RBTR_CMD_SNAPSHOT]) {
		ret = rbtr_snapshot_get(file->tr);
		if (ret)
			return ret;
	}
	rbtr_events_lock();
	ret = -ENODEV;
	if (!rbtr_event_file_live(file))
		goto out;
	ret = -EINVAL;
	if (req.cmd->target) {
		target = rbtr_event_file_lookup(file->tr, req.system, req.event);
		if (!target || rbtr_event_is_ftrace(target->type))
			goto out;
	}
	if (req.remove) {
		t = rbtr_trigger_find(file, req.cmd, target);
		if (t)
			rbtr_trigger_detach(file, t, &gone);
		ret = 0;
		goto out;
	}
	ret = rbtr_trigger_parse_filter(type, req.filter, &filter);
	if (ret)
		goto out;
	ret = rbtr_trigger_add(file, &req, target, filter);
	if (ret)
		rbtr_filter_free(filter);
out:
	rbtr_events_unlock();
	rbtr_triggers_free(&gone);
	if (ret && !req.remove && req.cmd == &rbtr_trigger_cmds[RBTR_CMD_SNAPSHOT])
		rbtr_snapshot_put(file->tr);
	return ret;
}

static void rbtr_trigger_print(struct seq_file *m, const struct rbtr_trigger *t)
{
	unsigned long count = atomic_long_read(&t->count);

	seq_puts(m, t->cmd->name);
	if (t->target)
		seq_printf(m, ":%s:%s", t->target->type->system, t->target->type->name);
	if (count == RBTR_TRIGGER_UNLIMITED)
		seq_puts(m, ":unlimited");
	else
		seq_printf(m, ":count=%ld", (long)count);
	if (t->filter)
		seq_printf(m, " if %s", rbtr_filter_text(t->filter));
	seq_putc(m, '\n');
}

/**
 * rbtr_triggers_show_all - one line per trigger of @file, for show_event_triggers
 * @m: where to print: "system:event<TAB>trigger", as ftrace 7.0 does
 * @file: an event's file
 *
 * Under rbtr_events_lock(), which every change of the list holds.
 */
void rbtr_triggers_show_all(struct seq_file *m, struct rbtr_event_file *file)
{
	struct rbtr_trigger *t;

	list_for_each_entry(t, &file->triggers, list) {
		seq_printf(m, "%s:%s\t", file->type->system, file->type->name);
		rbtr_trigger_print(m, t);
	}
}

static int rbtr_trigger_show(struct seq_file *m, void *v)
{
	struct rbtr_event_file *file = rbtr_seq_data(m);
	struct rbtr_trigger *t;
	unsigned int i;

	rbtr_events_lock();
	list_for_each_entry(t, &file->triggers, list)
		rbtr_trigger_print(m, t);
	if (list_empty(&file->triggers)) {
		seq_puts(m, "# Available triggers:\n#");
		for (i = 0; i < RBTR_NR_CMDS; i++)
			seq_printf(m, " %s", rbtr_trigger_cmds[i].name);
		seq_putc(m, '\n');
	}
	rbtr_events_unlock();
	return 0;
}

static int rbtr_trigger_open(struct inode *inode, struct file *file)
{
	struct rbtr_event_file *ef = inode->i_private;
	int ret;

	/*
	 * A truncating open ("echo cmd > trigger") removes nothing: in
	 * tracefs only the hist commands clear at open.
	 */
	if (file->f_mode & FMODE_READ)
		return rbtr_single_open_tr(file, ef->tr, rbtr_trigger_show, ef);
	/* Write only: no seq_file, the tracer held in private_data. */
	ret = rbtr_check_open_tr(ef->tr);
	if (!ret)
		file->private_data = ef->tr;
	return ret;
}

/* Not through the event's file: it may be gone with its module. */
static int rbtr_trigger_release(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return rbtr_single_release_tr(inode, file);
	rbtr_trace_put(file->private_data);
	return 0;
}

static ssize_t rbtr_trigger_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rbtr_event_file *ef = file_inode(file)->i_private;
	char *buf;
	int ret;

	if (!cnt)
		return 0;
	if (cnt >= PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* One command a write, its white space trimmed, as ftrace's. */
	ret = rbtr_trigger_apply(ef, strim(buf));
	kfree(buf);
	if (ret) {
		pr_warn_ratelimited("rbtrace: %s:%s: trigger refused (%d)\n",
				    ef->type->system, ef->type->name, ret);
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

const struct file_operations rbtr_trigger_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_trigger_open,
	.read		= seq_read,
	.write		= rbtr_trigger_write,
	.llseek		= rbtr_seq_llseek_rw,
	.release	= rbtr_trigger_release,
};
