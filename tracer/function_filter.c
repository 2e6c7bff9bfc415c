// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's function filter files: available_filter_functions,
 * set_ftrace_filter, set_ftrace_notrace, set_graph_function and the stack
 * tracer's stack_trace_filter (programming rbtr_stack_ops as
 * set_ftrace_filter programs its tracer's function ops). Every tracer
 * (the top and each instance) has set_ftrace_filter and
 * set_ftrace_notrace of its own, as ftrace's; the rest are the top's.
 *
 * available_filter_functions (and available_filter_functions_addrs where
 * the kernel has it, 6.5 on) is the kernel's own tracefs file, opened
 * through rbtrace's mount of tracefs (rbtr_kfs(), kevents_fmt.c) and read
 * through its own read handler: byte for byte the kernel's, streamed,
 * nothing copied in rbtrace.
 *
 * The selection is rbtrace's own record, not ftrace's hash (ftrace exports
 * no reader of it): each word written is resolved here, against the
 * kernel's list of traceable functions read line by line, with ftrace's
 * rules (filter_parse_regex(), ftrace_match()): "name", "foo*", "*foo",
 * "*foo*", a glob with '?', '[' or a '*' inside, an index N (the Nth line
 * of available_filter_functions; not in set_graph_function, as ftrace's),
 * "!" before any of them to take out (in set_graph_function, a "!" that
 * takes nothing out is -EINVAL, as ftrace's).
 * The matches are kept in a list ordered as the kernel's list, which is
 * the order of ftrace's own read back (its record order), and read back
 * as ftrace prints them. A word that matches nothing is -EINVAL, the
 * selection unchanged. set_ftrace_filter and set_ftrace_notrace then
 * program the tracer's ops with the same word through ftrace_set_filter() and
 * ftrace_set_notrace(), which match it with the same rules against the
 * same records (ftrace has no notrace interface by address, so both go
 * by the word); set_graph_function only keeps the list, for fprobe
 * (function_graph.c). The ips come from available_filter_functions_addrs;
 * without it (before 6.5) they are unknown (0), which only the graph
 * tracer needs, and that has no fprobe on Debian's 6.1.
 *
 * An open with O_TRUNC (">") empties the selection with the first word
 * accepted, or at release if none was: the end state of ftrace's, whose
 * write goes to a copy applied at release, after an error too (for
 * set_graph_function as well: ftrace_graph_release()).
 *
 * ftrace's commands ("func:traceoff", ...) are function_cmd.c's.
 * "FUNC:mod:MODULE" (set_ftrace_filter and set_ftrace_notrace) selects
 * the functions of the loaded modules MODULE matches
 * (rbtr_fn_program_found()); ftrace keeps such a word for a module not
 * loaded yet, rbtrace refuses it. A module unloaded leaves its functions
 * in the list.
 */
#include <linux/debugfs.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include "function.h"
#include "function_internal.h"
#include "kevents.h"
#include "trace.h"

/* One open of a filter file for writing. */
struct rbtr_fn_file {
	struct rbtr_fn_tracer	*ft;
	enum rbtr_fn_kind	kind;
	bool			trunc;	/* ">": empty it before the first word */
};

/* Serialises every change and read of every tracer's selections. */
static DEFINE_MUTEX(rbtr_fsel_mutex);

/* ---- selections ---------------------------------------------------------- */

/*
 * @s with @add merged in (both in increasing idx), or with @add's taken
 * out (@remove), into @ent, room for @s->nr + @add->nr entries: it cannot
 * fail, so it is done once ftrace took the word. @add's entries are
 * moved or freed; @s is replaced.
 */
static void rbtr_fsel_merge(struct rbtr_fsel *s, struct rbtr_fsel *add, bool remove,
			    struct rbtr_fsel_ent *ent)
{
	struct rbtr_fsel out = { .ent = ent, .cap = s->nr + add->nr };
	unsigned int i = 0, j = 0;
	struct rbtr_fsel_ent *e;

	while (i < s->nr || j < add->nr) {
		if (j == add->nr || (i < s->nr && s->ent[i].idx < add->ent[j].idx)) {
			out.ent[out.nr++] = s->ent[i++];
			continue;
		}
		e = &add->ent[j++];
		if (i < s->nr && s->ent[i].idx == e->idx) {
			/* Already there: kept unless removed. */
			if (!remove)
				out.ent[out.nr++] = s->ent[i];
			else
				kfree(s->ent[i].name);
			i++;
			kfree(e->name);
		} else if (!remove) {
			out.ent[out.nr++] = *e;
		} else {
			kfree(e->name);
		}
	}
	kvfree(s->ent);
	kvfree(add->ent);
	memset(add, 0, sizeof(*add));
	*s = out;
}

/* Is an entry of @b (in increasing idx) in @a? */
static bool rbtr_fsel_any(const struct rbtr_fsel *a, const struct rbtr_fsel *b)
{
	unsigned int i = 0, j = 0;

	while (i < a->nr && j < b->nr) {
		if (a->ent[i].idx == b->ent[j].idx)
			return true;
		if (a->ent[i].idx < b->ent[j].idx)
			i++;
		else
			j++;
	}
	return false;
}

/* Program @ft's ops as the selection: @word, or NULL to empty it. */
static int rbtr_fn_program(struct rbtr_fn_tracer *ft, enum rbtr_fn_kind kind, char *word,
			   bool reset)
{
	int len = word ? strlen(word) : 0;

	if (kind == RBTR_FN_NOTRACE)
		return ftrace_set_notrace(&ft->ops, word, len, reset);
	if (kind == RBTR_FN_FILTER)
		return ftrace_set_filter(&ft->ops, word, len, reset);
	if (kind == RBTR_FN_STACK)
		return ftrace_set_filter(&rbtr_stack_ops, word, len, reset);
	return 0;
}

/* Is an entry of @s (increasing idx) at @idx? */
static bool rbtr_fsel_has(const struct rbtr_fsel *s, unsigned int idx)
{
	unsigned int lo = 0, hi = s->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->ent[mid].idx == idx)
			return true;
		if (s->ent[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Program @ft's ops with what "FUNC:mod:MODULE" matched (@r; in @s
 * already, what a "!" can take out). ftrace_set_filter() does not take
 * ftrace's mod command: set_ftrace_filter goes by the addresses where
 * the kernel lists them (6.5 on), else, as set_ftrace_notrace always
 * (ftrace exports no notrace by address), by each function's name,
 * which also takes a function of that name in another module.
 */
static int rbtr_fn_program_found(struct rbtr_fn_tracer *ft, enum rbtr_fn_kind kind,
				 const struct rbtr_resolve *r, const struct rbtr_fsel *s,
				 bool reset)
{
	const struct rbtr_fsel *f = &r->found;
	char name[KSYM_NAME_LEN + 2];
	unsigned int i, n = 0;
	unsigned long *ips;
	int ret = 0;

	if (kind == RBTR_FN_FILTER && r->addrs) {
		ips = kvmalloc_array(f->nr, sizeof(*ips), GFP_KERNEL);
		if (!ips)
			return -ENOMEM;
		if (reset)
			ret = ftrace_set_filter(&ft->ops, NULL, 0, 1);
		/* A removal names only what is there: ftrace's is -ENOENT else. */
		for (i = 0; i < f->nr; i++)
			if (!r->g.not || (!reset && rbtr_fsel_has(s, f->ent[i].idx)))
				ips[n++] = f->ent[i].ip;
		if (!ret && n)
			ret = ftrace_set_filter_ips(&ft->ops, ips, n, r->g.not, 0);
		kvfree(ips);
		return ret;
	}
	for (i = 0; !ret && i < f->nr; i++) {
		snprintf(name, sizeof(name), "%s%.*s", r->g.not ? "!" : "",
			 (int)strcspn(f->ent[i].name, " "), f->ent[i].name);
		ret = rbtr_fn_program(ft, kind, name, reset && !i);
	}
	return ret;
}

/*
 * "FUNC:mod:MODULE" (ftrace's mod command): @copy cut into @func and
 * @module. Return: false for another word.
 */
static bool rbtr_fn_word_mod(char *copy, char **func, char **module)
{
	char *p = strchr(copy, ':');

	if (!p || strncmp(p, ":mod:", 5))
		return false;
	*p = '\0';
	*func = copy;
	*module = p + 5;
	return true;
}

/* One word, or NULL to empty the selection. Under rbtr_fsel_mutex. */
static int rbtr_fn_apply(struct rbtr_fn_tracer *ft, enum rbtr_fn_kind kind, char *word,
			 bool reset)
{
	struct rbtr_fsel *s = &ft->sel[kind];
	struct rbtr_fsel_ent *ent = NULL;
	char *copy, *func, *module;
	struct rbtr_resolve r = {};
	bool mod;
	int ret;

	if (!word) {
		ret = rbtr_fn_program(ft, kind, NULL, true);
		if (!ret)
			rbtr_fsel_free(s);
		return ret;
	}
	copy = kstrdup(word, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	mod = rbtr_fn_word_mod(copy, &func, &module);
	/*
	 * ftrace's other commands ("func:cmd[:arg]"), set_ftrace_filter's
	 * only (function_cmd.c). A ">" open empties the functions as for a
	 * name.
	 */
	if (!mod && strchr(word, ':')) {
		kfree(copy);
		/* stack_trace_filter's: ftrace's commands find no tracer there. */
		if (kind == RBTR_FN_STACK && rbtr_fn_cmd_known(word))
			return -ENODEV;
		if (kind != RBTR_FN_FILTER)
			return -EINVAL;
		ret = rbtr_fn_cmd_write(ft->tr, word);
		if (!ret && reset)
			ret = rbtr_fn_apply(ft, kind, NULL, true);
		return ret;
	}
	/*
	 * mod: in set_ftrace_filter and set_ftrace_notrace, as ftrace's;
	 * stack_trace_filter's has no tracer (ftrace_mod_callback()'s
	 * -ENODEV), set_graph_function's no commands.
	 */
	if (mod && kind == RBTR_FN_STACK)
		ret = -ENODEV;
	else if (mod && kind != RBTR_FN_FILTER && kind != RBTR_FN_NOTRACE)
		ret = -EINVAL;
	else if (mod)
		ret = rbtr_fn_resolve_mod(func, module, &r);
	else
		ret = rbtr_fn_resolve(kind, copy, &r);
	/*
	 * ftrace keeps a mod: word of a module not loaded for its load;
	 * rbtrace does not: nothing matched is -EINVAL either way.
	 */
	if (!ret && !r.found.nr) {
		if (mod)
			pr_warn_ratelimited("rbtrace: no function of a loaded module matches '%.64s:mod:%.64s'\n",
					    func, module);
		ret = -EINVAL;
	}
	/*
	 * ftrace_graph_set_hash(): a "!" that takes nothing out of the
	 * selection (a ">" open starts from an empty one) is -EINVAL.
	 */
	if (!ret && rbtr_fn_kind_graph(kind) && r.g.not &&
	    (reset || !rbtr_fsel_any(s, &r.found)))
		ret = -EINVAL;
	/* All that can fail before ftrace is told: the list follows it. */
	if (!ret) {
		ent = kvmalloc_array(s->nr + r.found.nr, sizeof(*ent), GFP_KERNEL);
		if (!ent)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = mod ? rbtr_fn_program_found(ft, kind, &r, s, reset) :
			    rbtr_fn_program(ft, kind, word, reset);
	if (!ret) {
		if (reset)
			rbtr_fsel_free(s);
		rbtr_fsel_merge(s, &r.found, r.g.not, ent);
		ent = NULL;
	}
	kvfree(ent);
	rbtr_fsel_free(&r.found);
	kfree(copy);
	return ret;
}

static int rbtr_ip_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/**
 * rbtr_fn_sel_ips - the addresses of the functions a filter file selects
 * @ft: the function state of the file's tracer
 * @kind: which file
 * @ips: set to a kvmalloc()ed array in increasing address (NULL when
 *       empty), for kvfree()
 * @nr: set to their number
 *
 * Return: 0, -ENOMEM, or -EOPNOTSUPP if the kernel does not say the
 * addresses (no available_filter_functions_addrs: before 6.5).
 */
int rbtr_fn_sel_ips(struct rbtr_fn_tracer *ft, enum rbtr_fn_kind kind,
		    unsigned long **ips, unsigned int *nr)
{
	struct rbtr_fsel *s = &ft->sel[kind];
	unsigned long *a = NULL;
	unsigned int i;
	int ret = 0;

	mutex_lock(&rbtr_fsel_mutex);
	if (s->nr)
		a = kvmalloc_array(s->nr, sizeof(*a), GFP_KERNEL);
	if (s->nr && !a)
		ret = -ENOMEM;
	for (i = 0; a && i < s->nr; i++) {
		a[i] = s->ent[i].ip;
		if (!a[i])
			ret = -EOPNOTSUPP;
	}
	*nr = ret ? 0 : s->nr;
	mutex_unlock(&rbtr_fsel_mutex);
	if (ret) {
		kvfree(a);
		a = NULL;
	}
	if (a)
		sort(a, *nr, sizeof(*a), rbtr_ip_cmp, NULL);
	*ips = a;
	return ret;
}

/* ---- the files ----------------------------------------------------------- */

/*
 * The read back, as ftrace's t_start()/t_show(): the banner when empty,
 * else a line per function. rbtr_fsel_mutex is held around the whole
 * seq_read() or seq_lseek() (rbtr_fn_filter_read()), taken before the
 * seq_file's own lock: a write holds it while it reads the kernel's
 * available_filter_functions, another seq_file whose lock is of the
 * same class, and lockdep saw the two orders as a cycle (on the debug
 * kernel, function/filter-files).
 */
/* set_ftrace_filter's commands follow its functions (or its banner). */
static char rbtr_fsel_cmd_token;

/* A tracer's commands are its set_ftrace_filter's. */
static bool rbtr_fsel_has_cmds(const struct rbtr_fn_file_id *id)
{
	return id->kind == RBTR_FN_FILTER;
}

static void *rbtr_fsel_at(struct seq_file *m, loff_t pos)
{
	const struct rbtr_fn_file_id *id = m->private;
	struct rbtr_fsel *s = &id->ft->sel[id->kind];
	loff_t base = s->nr ?: 1;

	if (pos < s->nr)
		return &s->ent[pos];
	if (!s->nr && !pos)
		return SEQ_START_TOKEN;
	if (rbtr_fsel_has_cmds(id) && pos - base < rbtr_fn_cmd_count(id->ft->tr))
		return &rbtr_fsel_cmd_token;
	return NULL;
}

static void *rbtr_fsel_start(struct seq_file *m, loff_t *pos)
{
	lockdep_assert_held(&rbtr_fsel_mutex);
	return rbtr_fsel_at(m, *pos);
}

static void *rbtr_fsel_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return rbtr_fsel_at(m, *pos);
}

static void rbtr_fsel_stop(struct seq_file *m, void *v)
{
}

static int rbtr_fsel_show(struct seq_file *m, void *v)
{
	const struct rbtr_fn_file_id *id = m->private;
	const struct rbtr_fsel_ent *e = v;
	unsigned int nr = id->ft->sel[id->kind].nr;

	if (v == &rbtr_fsel_cmd_token) {
		/* A command gone since start() (its event removed) prints nothing. */
		rbtr_fn_cmd_show(m, id->ft->tr, m->index - (nr ?: 1));
		return 0;
	}
	if (v == SEQ_START_TOKEN) {
		seq_puts(m, id->kind == RBTR_FN_NOTRACE || id->kind == RBTR_FN_GRAPH_NOTRACE ?
			 "#### no functions disabled ####\n" :
			 "#### all functions enabled ####\n");
		return 0;
	}
	seq_printf(m, "%s\n", e->name);
	return 0;
}

static const struct seq_operations rbtr_fsel_seq_ops = {
	.start	= rbtr_fsel_start,
	.next	= rbtr_fsel_next,
	.stop	= rbtr_fsel_stop,
	.show	= rbtr_fsel_show,
};

/*
 * i_private is a struct rbtr_fn_file_id of the tracer's function state,
 * which lives as long as the file (freed after the instance's tree is
 * removed, which waits for the opens in flight): the open holds the
 * tracer (rmdir -EBUSY) until the release.
 */
static int rbtr_fn_filter_open(struct inode *inode, struct file *file)
{
	struct rbtr_fn_file_id *id = inode->i_private;
	struct rbtr_fn_file *f;
	int ret = rbtr_check_open_tr(id->ft->tr);

	if (ret)
		return ret;
	if (!(file->f_mode & FMODE_WRITE)) {
		ret = seq_open(file, &rbtr_fsel_seq_ops);
		if (!ret)
			((struct seq_file *)file->private_data)->private = id;
		goto out;
	}
	/* Writers do not read: ftrace's write-only open shows nothing either. */
	ret = -ENOMEM;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		goto out;
	f->ft = id->ft;
	f->kind = id->kind;
	f->trunc = file->f_flags & O_TRUNC;
	file->private_data = f;
	ret = nonseekable_open(inode, file);
out:
	if (ret)
		rbtr_trace_put(id->ft->tr);
	return ret;
}

/*
 * Each word is a pass over the kernel's list, and one of ftrace's over its
 * records (ftrace_set_filter()), under rbtr_fsel_mutex: a page of words
 * is thousands of passes. ftrace's write takes one word a call
 * (trace_get_user()), so that a signal ends it between two words; here
 * a signal ends the write between two words too, the words before it
 * taken, their bytes counted (a short write), and a fatal one also ends
 * a word's pass over the list (-EINTR, the word not taken).
 */
static ssize_t rbtr_fn_filter_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct rbtr_fn_file *f = file->private_data;
	char *buf, *p, *word;
	bool done = false;
	int ret = 0;
	size_t len;

	if (!cnt)
		return 0;
	/* A page at a time, no word cut; a word as long is no function's. */
	buf = rbtr_write_cut(ubuf, cnt, PAGE_SIZE, " \t\n", &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = buf;
	mutex_lock(&rbtr_fsel_mutex);
	while ((word = strsep(&p, " \t\n")) != NULL) {
		if (!*word)
			continue;
		/* Not before the first word: a write always makes progress. */
		if (done && signal_pending(current)) {
			len = word - buf;
			break;
		}
		ret = rbtr_fn_apply(f->ft, f->kind, word, f->trunc);
		if (ret == -EINTR && done) {
			ret = 0;
			len = word - buf;
			break;
		}
		if (ret) {
			if (ret != -EINTR)
				pr_warn_ratelimited("rbtrace: no traceable function matches '%.64s'\n",
						    word);
			break;
		}
		f->trunc = false;
		done = true;
	}
	mutex_unlock(&rbtr_fsel_mutex);
	kfree(buf);
	return ret ?: len;
}

static int rbtr_fn_filter_release(struct inode *inode, struct file *file)
{
	struct rbtr_fn_file_id *id = inode->i_private;
	struct rbtr_fn_file *f;

	if (!(file->f_mode & FMODE_WRITE)) {
		seq_release(inode, file);
		goto out;
	}
	f = file->private_data;
	if (f->trunc) {
		mutex_lock(&rbtr_fsel_mutex);
		rbtr_fn_apply(f->ft, f->kind, NULL, true);
		mutex_unlock(&rbtr_fsel_mutex);
	}
	kfree(f);
out:
	rbtr_trace_put(id->ft->tr);
	return 0;
}

/* Readers are seq_files; an open for writing does not read. */
static ssize_t rbtr_fn_filter_read(struct file *file, char __user *ubuf, size_t cnt,
				   loff_t *ppos)
{
	ssize_t ret;

	if (file->f_mode & FMODE_WRITE)
		return -EINVAL;
	mutex_lock(&rbtr_fsel_mutex);
	ret = seq_read(file, ubuf, cnt, ppos);
	mutex_unlock(&rbtr_fsel_mutex);
	return ret;
}

/* Writers are not seekable. */
static loff_t rbtr_fn_filter_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t ret;

	if (file->f_mode & FMODE_WRITE)
		return -ESPIPE;
	mutex_lock(&rbtr_fsel_mutex);
	ret = seq_lseek(file, offset, whence);
	mutex_unlock(&rbtr_fsel_mutex);
	return ret;
}

static const struct file_operations rbtr_fn_filter_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_fn_filter_open,
	.read		= rbtr_fn_filter_read,
	.write		= rbtr_fn_filter_write,
	.llseek		= rbtr_fn_filter_llseek,
	.release	= rbtr_fn_filter_release,
};

/*
 * available_filter_functions[_addrs]: the kernel's file, opened at our
 * open and read through its own handlers (a seq_file's seq_read(), which
 * takes the position from ours: lseek and pread work as on the kernel's).
 */
static int rbtr_kfile_open(struct inode *inode, struct file *file)
{
	struct vfsmount *mnt = rbtr_kfs();
	struct file *kf;
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	kf = file_open_root_mnt(mnt, inode->i_private, O_RDONLY, 0);
	if (IS_ERR(kf))
		return PTR_ERR(kf);
	if (!kf->f_op->read) {
		fput(kf);
		return -EINVAL;
	}
	file->private_data = kf;
	return 0;
}

static ssize_t rbtr_kfile_read(struct file *file, char __user *ubuf, size_t cnt,
			       loff_t *ppos)
{
	struct file *kf = file->private_data;

	return kf->f_op->read(kf, ubuf, cnt, ppos);
}

static int rbtr_kfile_release(struct inode *inode, struct file *file)
{
	fput(file->private_data);
	return 0;
}

static const struct file_operations rbtr_kfile_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_kfile_open,
	.read		= rbtr_kfile_read,
	.llseek		= default_llseek,
	.release	= rbtr_kfile_release,
};

/* Does the kernel's tracefs have @path? */
static bool rbtr_kfile_exists(const char *path)
{
	struct vfsmount *mnt = rbtr_kfs();
	struct file *f;

	if (IS_ERR(mnt))
		return false;
	f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
	if (IS_ERR(f))
		return false;
	fput(f);
	return true;
}

static void rbtr_fn_filter_file(struct rbtr_trace *tr, const char *name,
				enum rbtr_fn_kind kind)
{
	debugfs_create_file(name, 0600, tr->dir, &tr->fn->files[kind], &rbtr_fn_filter_fops);
}

/**
 * rbtr_fn_filter_files - the filter files of a tracer
 * @tr: the tracer, its function state made: the top has them all, an
 *      instance set_ftrace_filter and set_ftrace_notrace (its function
 *      tracers'; set_graph_function, set_graph_notrace and
 *      stack_trace_filter are top-level files, as ftrace's)
 */
void rbtr_fn_filter_files(struct rbtr_trace *tr)
{
	static const char *const kfiles[] = { RBTR_AFF, RBTR_AFF_ADDRS };
	unsigned int i;

	rbtr_fn_filter_file(tr, "set_ftrace_filter", RBTR_FN_FILTER);
	rbtr_fn_filter_file(tr, "set_ftrace_notrace", RBTR_FN_NOTRACE);
	if (tr != &rbtr_global_trace)
		return;
	for (i = 0; i < ARRAY_SIZE(kfiles); i++)
		if (rbtr_kfile_exists(kfiles[i]))
			debugfs_create_file(kfiles[i], 0400, tr->dir, (void *)kfiles[i],
					    &rbtr_kfile_fops);
	if (rbtr_graph_supported()) {
		rbtr_fn_filter_file(tr, "set_graph_function", RBTR_FN_GRAPH);
		rbtr_fn_filter_file(tr, "set_graph_notrace", RBTR_FN_GRAPH_NOTRACE);
	}
	rbtr_fn_filter_file(tr, "stack_trace_filter", RBTR_FN_STACK);
}

/**
 * rbtr_fn_filter_free - free a tracer's selections
 * @ft: its function state (rbtr_fn_tr_exit()): its tracer stopped, no
 *      file of it open (each holds the tracer), and for the top's, the
 *      graph tracer and the stack tracer stopped (the unload)
 */
void rbtr_fn_filter_free(struct rbtr_fn_tracer *ft)
{
	unsigned int k;

	for (k = 0; k < RBTR_FN_NR_KINDS; k++)
		rbtr_fsel_free(&ft->sel[k]);
}
