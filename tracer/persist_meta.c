// SPDX-License-Identifier: GPL-2.0
/*
 * What a later boot needs to decode the persistent buffer's data
 * (persist.c), as ftrace keeps it in the scratch area of its boot-mapped
 * instances: kept in the range's metadata area (rbt_range_meta_write(),
 * crash-consistent), read back by the next load (rbt_range_meta_read()).
 *
 * The bytes are text, one item a line:
 *
 *   rbtrace-meta 1
 *   anchor ADDR            &_printk: its move between two boots is the
 *                          KASLR delta of the kernel
 *   text ADDR              _text, 0 if it was not found
 *   mod BASE SIZE NAME     the text of each module loaded in this boot
 *                          (its latest load; one that went stays listed:
 *                          its addresses may be in the data)
 *   event ID SYSTEM:NAME   each event enabled in the top tracer at some
 *                          time in this boot (kept when it is disabled,
 *                          and through rbtrace's unload: its records are
 *                          still in the data), and rbtrace's always-on
 *                          types whose ids are not ftrace's fixed ones
 *                          (the duration pairs); an id given to two
 *                          events in the boot is listed with each
 *
 * It is rewritten (by a work item, coalescing bursts) when a module comes,
 * when an event of the top tracer is enabled for the first time, and
 * when the previous boot's data is cleared; never while that data is
 * shown, since it describes the data in the range (rbt_range_meta_write()
 * refuses then). On the next boot it shows in last_boot_info, and the
 * text output of the old data shifts its function addresses
 * (rbtr_persist_fix_rec()): kernel addresses by the delta, a module's
 * through the module table where that module is loaded again.
 *
 * The old data's event ids are the previous boot's: the kernel numbers
 * its events in the order they come (modules, kprobe events), rbtrace
 * its own. A record is decoded only through the old boot's event lines:
 * its id to SYSTEM:NAME, and that name to the event of this boot that
 * has it, whatever its id now; ftrace's fixed ids (function, print,
 * stack...) mean the same in every boot. A record whose id is not
 * listed, was given to two events, or names an event this boot does not
 * have (yet) prints as "Unknown type 0", never with the format of the
 * event that has its id now. Pointers to strings (const char * fields)
 * point into the old boot's memory: the event's fix_addrs() marks them,
 * and they print as addresses (kevents_fmt.c).
 */
#include <linux/bsearch.h>
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "persist.h"
#include "trace.h"

#define RBTR_PM_MAX_MODS	512
#define RBTR_PM_EVENT_NAME	64	/* a system's or event's name, at most */

/* A module's text, in this boot or the previous one. */
struct rbtr_pm_mod {
	unsigned long	base;
	unsigned long	size;
	char		name[MODULE_NAME_LEN];
};

/* An event enabled in this boot: "ID SYSTEM:NAME". */
struct rbtr_pm_event {
	struct list_head	list;
	unsigned short		id;
	char			line[];
};

/* An event line of the previous boot: what one of its ids meant. */
struct rbtr_pm_oldev {
	const char	*sys;		/* in the blob, not NUL-terminated */
	const char	*name;
	unsigned char	sys_len;
	unsigned char	name_len;
	bool		ambiguous;	/* the id was two events' in that boot */
	unsigned short	id;		/* the previous boot's */
	unsigned short	now;		/* this boot's id of the event; 0: none found */
};

/* The previous boot's metadata, while its data is shown. */
struct rbtr_pm_old {
	bool			shown;		/* the old data is in the buffer */
	bool			valid;		/* its metadata was found */
	unsigned long		anchor;
	unsigned long		text;
	long			delta;		/* this boot's anchor - the old */
	unsigned int		nr_mods;
	struct rbtr_pm_mod	*mods;
	unsigned int		nr_evs;
	struct rbtr_pm_oldev	*evs;		/* by id */
	unsigned long		resolve_next;	/* jiffies: no search before */
	char			*blob;		/* the text, for its event lines */
};

/*
 * rbtr_pm_lock: the module and event tables, the old metadata and the
 * buffer pointer. Always the innermost of rbtrace's locks but the
 * range's own: it is taken under the access locks (printing), under
 * rbtr_events_lock() (an event enabled), and nothing is locked under it
 * but the metadata write.
 */
static DEFINE_MUTEX(rbtr_pm_lock);
static struct rbtr_pm_mod *rbtr_pm_mods;	/* this boot's, RBTR_PM_MAX_MODS */
static unsigned int rbtr_pm_nr_mods;
static LIST_HEAD(rbtr_pm_events);
static struct rbtr_pm_old rbtr_pm_old;
static struct rbt_buffer *rbtr_pm_buffer;
static struct rbtr_trace *rbtr_pm_tr;
static unsigned long rbtr_pm_text;		/* this boot's _text, or 0 */
static bool rbtr_pm_notifier_on;

static void rbtr_pm_work_fn(struct work_struct *work);
static DECLARE_WORK(rbtr_pm_work, rbtr_pm_work_fn);
static void rbtr_pm_resolve_fn(struct work_struct *work);
static DECLARE_WORK(rbtr_pm_resolve_work, rbtr_pm_resolve_fn);
static void rbtr_pm_resolve(void);

/*
 * _text cannot be linked from a module. On x86 it is _stext, the lowest
 * address kallsyms knows of the kernel, 2 MiB aligned (the KASLR step,
 * CONFIG_PHYSICAL_ALIGN), below _printk: step down from _printk by 2 MiB
 * while kallsyms names the address; the last one named is _text if it
 * is a symbol's start ("+0x0/"), whatever name of the three it is given.
 * 64 steps cover 128 MiB of kernel text.
 */
static unsigned long rbtr_pm_find_text(void)
{
	unsigned long a = ALIGN_DOWN((unsigned long)_printk, SZ_2M), found = 0;
	char sym[KSYM_SYMBOL_LEN];
	int i;

	for (i = 0; i < 64; i++, a -= SZ_2M) {
		sprint_symbol(sym, a);
		if (str_has_prefix(sym, "0x"))
			break;
		found = strstr(sym, "+0x0/") ? a : 0;
	}
	return found;
}

static void rbtr_pm_mod_text(struct module *mod, struct rbtr_pm_mod *m)
{
#ifdef RBT_HAVE_MODULE_MEM
	m->base = (unsigned long)mod->mem[MOD_TEXT].base;
	m->size = mod->mem[MOD_TEXT].size;
#else
	m->base = (unsigned long)mod->core_layout.base;
	m->size = mod->core_layout.text_size;
#endif
	strscpy(m->name, mod->name, sizeof(m->name));
}

/* Under rbtr_pm_lock. */
static void rbtr_pm_remove(const char *name)
{
	unsigned int i;

	for (i = 0; i < rbtr_pm_nr_mods; i++) {
		if (strcmp(rbtr_pm_mods[i].name, name))
			continue;
		rbtr_pm_mods[i] = rbtr_pm_mods[--rbtr_pm_nr_mods];
		return;
	}
}

/* Under rbtr_pm_lock; once per name. */
static void rbtr_pm_add(struct module *mod)
{
	rbtr_pm_remove(mod->name);
	/* Past the table's end a module's addresses stay raw when printed. */
	if (rbtr_pm_nr_mods >= RBTR_PM_MAX_MODS)
		return;
	rbtr_pm_mod_text(mod, &rbtr_pm_mods[rbtr_pm_nr_mods++]);
}

/*
 * The modules loaded before rbtrace. The kernel's list is not exported:
 * it is walked from this module's own node, the way the kernel walks it
 * (RCU, preemption off, modules freed after a grace period), and the one
 * node that is not a module (the list head, in the kernel's data) is
 * told apart by its address outside the module area.
 */
static void rbtr_pm_scan_modules(void)
{
	struct list_head *p;
	struct module *mod;

	mutex_lock(&rbtr_pm_lock);
	preempt_disable();
	for (p = THIS_MODULE->list.next; p != &THIS_MODULE->list; p = READ_ONCE(p->next)) {
		if ((unsigned long)p < MODULES_VADDR || (unsigned long)p >= MODULES_END)
			continue;
		mod = list_entry(p, struct module, list);
		if (mod->state == MODULE_STATE_LIVE || mod->state == MODULE_STATE_COMING)
			rbtr_pm_add(mod);
	}
	rbtr_pm_add(THIS_MODULE);
	preempt_enable();
	mutex_unlock(&rbtr_pm_lock);
}

static int rbtr_pm_module_cb(struct notifier_block *nb, unsigned long val, void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_COMING)
		return NOTIFY_DONE;
	mutex_lock(&rbtr_pm_lock);
	rbtr_pm_add(mod);
	mutex_unlock(&rbtr_pm_lock);
	schedule_work(&rbtr_pm_work);
	return NOTIFY_DONE;
}

static struct notifier_block rbtr_pm_module_nb = {
	.notifier_call = rbtr_pm_module_cb,
};

/*
 * One line into @s, or none: a line that does not fit is left out (the
 * metadata ends with the last whole line). Return: false if it did not
 * fit.
 */
static bool rbtr_pm_line(struct seq_buf *s, const char *line)
{
	if (strlen(line) >= seq_buf_buffer_left(s))
		return false;
	seq_buf_printf(s, "%s", line);
	return true;
}

/* This boot's metadata; under rbtr_pm_lock. */
static void rbtr_pm_compose(struct seq_buf *s)
{
	char line[32 + MODULE_NAME_LEN + 2 * RBTR_PM_EVENT_NAME];
	struct rbtr_pm_event *e;
	unsigned int i;

	snprintf(line, sizeof(line), "rbtrace-meta 1\nanchor %lx\ntext %lx\n",
		 (unsigned long)_printk, rbtr_pm_text);
	rbtr_pm_line(s, line);
	for (i = 0; i < rbtr_pm_nr_mods; i++) {
		snprintf(line, sizeof(line), "mod %lx %lx %s\n", rbtr_pm_mods[i].base,
			 rbtr_pm_mods[i].size, rbtr_pm_mods[i].name);
		if (!rbtr_pm_line(s, line))
			return;
	}
	list_for_each_entry(e, &rbtr_pm_events, list) {
		snprintf(line, sizeof(line), "event %s\n", e->line);
		if (!rbtr_pm_line(s, line))
			return;
	}
}

/* Rewrite the metadata: the work item behind every change. */
static void rbtr_pm_work_fn(struct work_struct *work)
{
	struct seq_buf s;
	size_t size;
	char *buf;
	int ret;

	mutex_lock(&rbtr_pm_lock);
	size = rbtr_pm_buffer && !rbtr_pm_old.shown ? rbt_range_meta_size(rbtr_pm_buffer) : 0;
	mutex_unlock(&rbtr_pm_lock);
	if (!size)
		return;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return;
	seq_buf_init(&s, buf, size);
	mutex_lock(&rbtr_pm_lock);
	if (rbtr_pm_buffer && !rbtr_pm_old.shown) {
		rbtr_pm_compose(&s);
		ret = rbt_range_meta_write(rbtr_pm_buffer, buf, seq_buf_used(&s));
		if (ret)
			pr_warn_ratelimited("rbtrace: the persistent buffer's metadata not written (%d)\n",
					    ret);
	}
	mutex_unlock(&rbtr_pm_lock);
	kvfree(buf);
}

#define RBTR_PM_EVENT_LINE	(2 * RBTR_PM_EVENT_NAME + 8)

/*
 * "ID SYSTEM:NAME" of @type into the event list, once: an id the kernel
 * gave to another event meanwhile (a module's, after the module went) is
 * listed again with the other name, and the next boot knows not to
 * decode it. Under rbtr_pm_lock.
 */
static void rbtr_pm_event_add(const struct rbtr_event_type *type)
{
	char line[RBTR_PM_EVENT_LINE];
	struct rbtr_pm_event *e;

	snprintf(line, sizeof(line), "%u %.*s:%.*s", type->id,
		 RBTR_PM_EVENT_NAME - 1, type->system, RBTR_PM_EVENT_NAME - 1, type->name);
	list_for_each_entry(e, &rbtr_pm_events, list)
		if (e->id == type->id && !strcmp(e->line, line))
			return;
	/* At worst the metadata lacks the event's name: nothing to warn of. */
	e = kmalloc(sizeof(*e) + strlen(line) + 1, GFP_KERNEL);
	if (!e)
		return;
	e->id = type->id;
	strscpy(e->line, line, strlen(line) + 1);
	list_add_tail(&e->list, &rbtr_pm_events);
	schedule_work(&rbtr_pm_work);
}

/**
 * rbtr_persist_event_enabled - an event was enabled in a tracer
 * @file: its file; only the top tracer's events are in the metadata
 *
 * Under rbtr_events_lock(): the type cannot go meanwhile.
 */
void rbtr_persist_event_enabled(struct rbtr_event_file *file)
{
	if (file->tr != READ_ONCE(rbtr_pm_tr))
		return;
	mutex_lock(&rbtr_pm_lock);
	rbtr_pm_event_add(file->type);
	mutex_unlock(&rbtr_pm_lock);
}

/*
 * rbtrace's always-on types (no enable file: they record whenever their
 * tracer or filter is on) whose ids rbtrace gave at load: listed from the
 * start, as the enabled events are. ftrace's fixed ids need no line.
 * Under rbtr_events_lock().
 */
static int rbtr_pm_add_builtin(struct rbtr_event_type *type, void *data)
{
	if (rbtr_event_is_ftrace(type) && type->id >= RBTR_EVENT_FIRST_DYN_ID) {
		mutex_lock(&rbtr_pm_lock);
		rbtr_pm_event_add(type);
		mutex_unlock(&rbtr_pm_lock);
	}
	return 0;
}

/* The line after @line, or NULL at the end. */
static char *rbtr_pm_next_line(char *line)
{
	char *nl = strchr(line, '\n');

	return nl && nl[1] ? nl + 1 : NULL;
}

static int rbtr_pm_oldev_cmp(const void *a, const void *b)
{
	const struct rbtr_pm_oldev *x = a, *y = b;

	return (int)x->id - (int)y->id;
}

static bool rbtr_pm_oldev_same(const struct rbtr_pm_oldev *a, const struct rbtr_pm_oldev *b)
{
	return a->sys_len == b->sys_len && a->name_len == b->name_len &&
		!memcmp(a->sys, b->sys, a->sys_len) && !memcmp(a->name, b->name, a->name_len);
}

/* "event ID SYSTEM:NAME" into @e; false for a line that is not one. */
static bool rbtr_pm_parse_event(const char *line, struct rbtr_pm_oldev *e)
{
	const char *p, *end, *colon;
	unsigned int id;
	int n = 0;

	if (sscanf(line, "event %u %n", &id, &n) != 1 || !n || !id ||
	    id >= RBTR_EVENT_MAX_ID)
		return false;
	p = line + n;
	end = strchrnul(p, '\n');
	colon = memchr(p, ':', end - p);
	if (!colon || colon == p || colon - p >= RBTR_PM_EVENT_NAME ||
	    end - colon - 1 <= 0 || end - colon - 1 >= RBTR_PM_EVENT_NAME)
		return false;
	e->id = id;
	e->sys = p;
	e->sys_len = colon - p;
	e->name = colon + 1;
	e->name_len = end - colon - 1;
	return true;
}

/*
 * The event lines, sorted by id; an id listed with two names is
 * ambiguous (its records may be either's).
 */
static void rbtr_pm_parse_events(struct rbtr_pm_old *old, unsigned int n)
{
	struct rbtr_pm_oldev *evs;
	unsigned int i, j, k;
	bool amb;
	char *line;

	evs = kcalloc(n ? n : 1, sizeof(*evs), GFP_KERNEL);
	if (!evs)
		return;
	for (line = old->blob; line && old->nr_evs < n; line = rbtr_pm_next_line(line))
		if (rbtr_pm_parse_event(line, &evs[old->nr_evs]))
			old->nr_evs++;
	sort(evs, old->nr_evs, sizeof(*evs), rbtr_pm_oldev_cmp, NULL);
	for (i = 0; i < old->nr_evs; i = j) {
		amb = false;
		for (j = i + 1; j < old->nr_evs && evs[j].id == evs[i].id; j++)
			amb |= !rbtr_pm_oldev_same(&evs[j], &evs[i]);
		for (k = i; k < j; k++)
			evs[k].ambiguous = amb;
	}
	old->evs = evs;
}

/* Count "mod " lines, then read them; then the event lines. */
static void rbtr_pm_parse(struct rbtr_pm_old *old)
{
	char name[MODULE_NAME_LEN];
	unsigned long base, size;
	unsigned int n = 0, nev = 0;
	char *line, *p;

	if (!str_has_prefix(old->blob, "rbtrace-meta 1\n"))
		return;
	for (p = old->blob; (p = strstr(p, "\nmod ")); p++)
		n++;
	for (p = old->blob; (p = strstr(p, "\nevent ")); p++)
		nev++;
	rbtr_pm_parse_events(old, nev);
	old->mods = kcalloc(n ? n : 1, sizeof(*old->mods), GFP_KERNEL);
	if (!old->mods)
		return;
	for (line = old->blob; line; line = rbtr_pm_next_line(line)) {
		if (sscanf(line, "anchor %lx", &base) == 1) {
			old->anchor = base;
		} else if (sscanf(line, "text %lx", &base) == 1) {
			old->text = base;
		} else if (old->nr_mods < n &&
			   sscanf(line, "mod %lx %lx %55s", &base, &size, name) == 3) {
			old->mods[old->nr_mods].base = base;
			old->mods[old->nr_mods].size = size;
			strscpy(old->mods[old->nr_mods].name, name, MODULE_NAME_LEN);
			old->nr_mods++;
		}
	}
	old->valid = old->anchor != 0;
	old->delta = (unsigned long)_printk - old->anchor;
}

/* The previous boot's metadata, if the buffer holds its data. */
static void rbtr_pm_take_old(struct rbt_buffer *buffer)
{
	struct rbtr_pm_old *old = &rbtr_pm_old;
	struct rbt_range_info info;
	size_t size = rbt_range_meta_size(buffer);
	ssize_t len;

	if (rbt_range_info(buffer, 0, &info) || !info.old)
		return;
	old->shown = true;
	old->resolve_next = jiffies;
	old->blob = kzalloc(size + 1, GFP_KERNEL);
	if (!old->blob)
		return;
	len = rbt_range_meta_read(buffer, old->blob, size);
	if (len <= 0 || len > size)
		return;
	old->blob[len] = '\0';
	rbtr_pm_parse(old);
	if (old->valid)
		pr_info("rbtrace: the previous boot's text was %lx (%s), %u modules; its function addresses are shifted when printed\n",
			old->text ? old->text : old->anchor, old->text ? "_text" : "_printk",
			old->nr_mods);
}

static void rbtr_pm_forget_old(void)
{
	kfree(rbtr_pm_old.mods);
	kfree(rbtr_pm_old.evs);
	kfree(rbtr_pm_old.blob);
	memset(&rbtr_pm_old, 0, sizeof(rbtr_pm_old));
}

/**
 * rbtr_persist_meta_init - keep what a later boot needs beside the buffer
 * @tr: the top tracer
 * @buffer: its persistent buffer
 *
 * Reads the previous boot's metadata if the buffer shows its data,
 * builds this boot's module table and follows it (a module notifier),
 * and writes this boot's metadata unless the old data is shown.
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_persist_meta_init(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	rbtr_pm_mods = kcalloc(RBTR_PM_MAX_MODS, sizeof(*rbtr_pm_mods), GFP_KERNEL);
	if (!rbtr_pm_mods)
		return -ENOMEM;
	rbtr_pm_text = rbtr_pm_find_text();
	rbtr_pm_take_old(buffer);
	rbtr_events_lock();
	rbtr_event_for_each(rbtr_pm_add_builtin, NULL);
	rbtr_events_unlock();
	/* The old ids to the events of this boot that rbtrace has at load. */
	rbtr_pm_resolve();
	/* The notifier first: a module that comes meanwhile is added by both, once. */
	if (!register_module_notifier(&rbtr_pm_module_nb))
		rbtr_pm_notifier_on = true;
	rbtr_pm_scan_modules();
	mutex_lock(&rbtr_pm_lock);
	rbtr_pm_buffer = buffer;
	WRITE_ONCE(rbtr_pm_tr, tr);
	mutex_unlock(&rbtr_pm_lock);
	schedule_work(&rbtr_pm_work);
	return 0;
}

/**
 * rbtr_persist_meta_exit - undo rbtr_persist_meta_init()
 *
 * Before the buffer is freed.
 */
void rbtr_persist_meta_exit(void)
{
	if (rbtr_pm_notifier_on)
		unregister_module_notifier(&rbtr_pm_module_nb);
	rbtr_pm_notifier_on = false;
	mutex_lock(&rbtr_pm_lock);
	rbtr_pm_buffer = NULL;
	WRITE_ONCE(rbtr_pm_tr, NULL);
	mutex_unlock(&rbtr_pm_lock);
	cancel_work_sync(&rbtr_pm_work);
	cancel_work_sync(&rbtr_pm_resolve_work);
	while (!list_empty(&rbtr_pm_events)) {
		struct rbtr_pm_event *e = list_first_entry(&rbtr_pm_events,
							   struct rbtr_pm_event, list);

		list_del(&e->list);
		kfree(e);
	}
	rbtr_pm_forget_old();
	kfree(rbtr_pm_mods);
	rbtr_pm_mods = NULL;
	rbtr_pm_nr_mods = 0;
}

/**
 * rbtr_persist_reset - a buffer of the top tracer was emptied on all CPUs
 * @buffer: the buffer
 *
 * If it was the persistent buffer showing the previous boot's data, that
 * data is gone: its metadata is dropped (last_boot_info says "# Current")
 * and this boot's is written.
 */
void rbtr_persist_reset(struct rbt_buffer *buffer)
{
	struct rbt_range_info info;

	mutex_lock(&rbtr_pm_lock);
	if (buffer == rbtr_pm_buffer && rbtr_pm_old.shown &&
	    !rbt_range_info(buffer, 0, &info) && !info.old) {
		rbtr_pm_forget_old();
		schedule_work(&rbtr_pm_work);
	}
	mutex_unlock(&rbtr_pm_lock);
}

/* An address of the previous boot in this one's terms; under rbtr_pm_lock. */
static unsigned long rbtr_pm_fix_ip(unsigned long ip)
{
	const struct rbtr_pm_mod *m;
	unsigned int i, j;

	if (!ip)
		return 0;
	for (i = 0; i < rbtr_pm_old.nr_mods; i++) {
		m = &rbtr_pm_old.mods[i];
		if (ip - m->base >= m->size)
			continue;
		/* The module loaded again: the same offset in its text. */
		for (j = 0; j < rbtr_pm_nr_mods; j++)
			if (!strcmp(rbtr_pm_mods[j].name, m->name) &&
			    ip - m->base < rbtr_pm_mods[j].size)
				return rbtr_pm_mods[j].base + (ip - m->base);
		return ip;
	}
	/* The kernel's text, as ftrace's text_delta shifts any other address. */
	return ip + rbtr_pm_old.delta;
}

/* Without the old metadata: no delta, no module table to shift by. */
static unsigned long rbtr_pm_keep_ip(unsigned long ip)
{
	return ip;
}

/* Is @t (or NULL) the event of @e? */
static bool rbtr_pm_is(const struct rbtr_event_type *t, const struct rbtr_pm_oldev *e)
{
	return t && strlen(t->system) == e->sys_len && strlen(t->name) == e->name_len &&
		!memcmp(t->system, e->sys, e->sys_len) && !memcmp(t->name, e->name, e->name_len);
}

/* rbtr_event_for_each(): @type is this boot's event of the old lines that name it. */
static int rbtr_pm_resolve_one(struct rbtr_event_type *type, void *data)
{
	unsigned int i;

	for (i = 0; i < rbtr_pm_old.nr_evs; i++)
		if (rbtr_pm_is(type, &rbtr_pm_old.evs[i]))
			rbtr_pm_old.evs[i].now = type->id;
	return 0;
}

/*
 * The old event lines to this boot's ids, by name, over the whole
 * registry: under rbtr_events_lock(), which is taken before
 * rbtr_pm_lock, never under it (and never where a reader prints: the
 * registry's writers empty buffers under it, which takes the readers'
 * access locks).
 */
static void rbtr_pm_resolve(void)
{
	unsigned int i;

	rbtr_events_lock();
	mutex_lock(&rbtr_pm_lock);
	if (rbtr_pm_old.shown) {
		for (i = 0; i < rbtr_pm_old.nr_evs; i++)
			rbtr_pm_old.evs[i].now = 0;
		rbtr_event_for_each(rbtr_pm_resolve_one, NULL);
	}
	mutex_unlock(&rbtr_pm_lock);
	rbtr_events_unlock();
}

static void rbtr_pm_resolve_fn(struct work_struct *work)
{
	rbtr_pm_resolve();
}

/**
 * rbtr_persist_types_changed - events came or went: map the old ids again
 *
 * Called after a module's events are registered, so that the old data's
 * records of them decode as soon as the module is up. Events that come
 * otherwise (rbtrace's kprobe events) are found by the next search a
 * record that cannot be decoded starts (rbtr_pm_map_id()). Takes
 * rbtr_events_lock(): not under it.
 */
void rbtr_persist_types_changed(void)
{
	if (READ_ONCE(rbtr_pm_old.shown))
		rbtr_pm_resolve();
}

/*
 * This boot's id of a record of the previous boot whose id was @id, or 0
 * if it cannot be decoded (rbtr_event_find(0) is no type: it prints as
 * "Unknown type 0"). Under rbtr_pm_lock; not under rcu_read_lock().
 */
static unsigned short rbtr_pm_map_id(unsigned short id)
{
	struct rbtr_pm_old *old = &rbtr_pm_old;
	const struct rbtr_event_type *t;
	struct rbtr_pm_oldev key = { .id = id }, *e;
	unsigned short now = 0;

	e = bsearch(&key, old->evs, old->nr_evs, sizeof(*e), rbtr_pm_oldev_cmp);
	rcu_read_lock();
	if (!e) {
		/* Unlisted: ftrace's fixed ids alone mean the same in every boot. */
		t = rbtr_event_find(id);
		if (id < RBTR_EVENT_FIRST_DYN_ID && t && rbtr_event_is_ftrace(t))
			now = id;
	} else if (!e->ambiguous) {
		/* Checked at each use: the event found may have gone since. */
		if (rbtr_pm_is(rbtr_event_find(e->now), e))
			now = e->now;
		else if (rbtr_pm_is(rbtr_event_find(id), e))
			now = id;
	}
	rcu_read_unlock();
	/*
	 * Not found: search again, later and off this path (the search
	 * takes the registry's lock), at most once a second.
	 */
	if (e && !e->ambiguous && !now && time_after_eq(jiffies, old->resolve_next)) {
		old->resolve_next = jiffies + HZ;
		schedule_work(&rbtr_pm_resolve_work);
	}
	return now;
}

/**
 * rbtr_persist_fix_rec - a copied record's addresses, in this boot's terms
 * @tr: the tracer it was read from
 * @rec: the copy (changed in place)
 * @len: its length
 *
 * For the previous boot's data only: its id becomes this boot's id of
 * the same event, through the old boot's event lines, or 0 where that
 * cannot be known (rbtr_pm_map_id()); then the type says where its
 * addresses are (&struct rbtr_event_type.fix_addrs), shifted with the
 * old boot's module table and KASLR delta, and marks the pointers that
 * cannot be shifted. A no-op for any other tracer and after the old data
 * is cleared; without the old metadata only ftrace's fixed ids decode.
 * Process context (it may sleep).
 */
void rbtr_persist_fix_rec(struct rbtr_trace *tr, void *rec, unsigned int len)
{
	struct rbtr_entry *ent = rec;
	const struct rbtr_event_type *type;
	rbtr_fix_ip_fn fix;

	/* An unlocked peek for the common case (no old data), checked again under the lock. */
	if (tr != READ_ONCE(rbtr_pm_tr) || !READ_ONCE(rbtr_pm_old.shown) ||
	    len < sizeof(*ent))
		return;
	mutex_lock(&rbtr_pm_lock);
	if (rbtr_pm_old.shown) {
		ent->type = rbtr_pm_map_id(ent->type);
		fix = rbtr_pm_old.valid ? rbtr_pm_fix_ip : rbtr_pm_keep_ip;
		rcu_read_lock();
		type = rbtr_event_find(ent->type);
		if (type && type->fix_addrs)
			type->fix_addrs(rec, len, fix);
		rcu_read_unlock();
	}
	mutex_unlock(&rbtr_pm_lock);
}

/*
 * last_boot_info, in ftrace's layout: the previous boot's kernel text
 * and module text addresses while its data is shown, "# Current" after.
 * Then, as comments, the clock and the events that were enabled.
 */
static int rbtr_pm_last_boot_show(struct seq_file *m, void *v)
{
	const struct rbtr_pm_old *old = &rbtr_pm_old;
	struct rbt_range_info info;
	unsigned int i;
	char *line;
	int n;

	mutex_lock(&rbtr_pm_lock);
	if (!old->shown) {
		seq_puts(m, "# Current\n");
	} else if (!old->valid) {
		seq_puts(m, "# no metadata of the previous boot\n");
	} else {
		seq_printf(m, "%lx\t[kernel]\n", old->text ? old->text : old->anchor);
		for (i = 0; i < old->nr_mods; i++)
			seq_printf(m, "%lx\t%s\n", old->mods[i].base, old->mods[i].name);
		if (rbtr_pm_buffer && !rbt_range_info(rbtr_pm_buffer, 0, &info))
			seq_printf(m, "# clock: %s\n", info.clock);
		for (line = old->blob; line; line = rbtr_pm_next_line(line)) {
			if (!str_has_prefix(line, "event "))
				continue;
			n = strchrnul(line, '\n') - line;
			seq_printf(m, "# %.*s\n", n, line);
		}
	}
	mutex_unlock(&rbtr_pm_lock);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_pm_last_boot);

/**
 * rbtr_persist_files - last_boot_info in the top directory
 * @tr: the top tracer
 *
 * Only with a persistent buffer, as ftrace has it only in its boot-mapped
 * instances.
 */
void rbtr_persist_files(struct rbtr_trace *tr)
{
	if (rbtr_pm_tr == tr)
		debugfs_create_file("last_boot_info", 0444, tr->dir, tr, &rbtr_pm_last_boot_fops);
}
