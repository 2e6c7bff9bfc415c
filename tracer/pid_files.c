// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace pid filters: the files. set_event_pid, set_event_notrace_pid,
 * set_ftrace_pid, set_ftrace_notrace_pid (each tracer's),
 * their parser, and options/event-fork, options/function-fork with their
 * lines of trace_options: ftrace's syntax, errnos and text (see the top
 * of pid.c). A write builds a new list and hands it to pid.c, which
 * replaces the old one; nothing here runs in the probes' context.
 */
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>
#include "pid.h"
#include "pid_internal.h"
#include "trace.h"

/* ftrace's MAX_PID (pid_list.h): a pid at or above it is refused, -EPERM. */
#define RBTR_PID_MAX		BIT(30)
/* ftrace's PID_BUF_SIZE: a longer word does not fit its parser, -EINVAL. */
#define RBTR_PID_WORD_MAX	127
/* Taken at once from a write; the rest is written again (rbtr_write_cut()). */
#define RBTR_PID_WRITE_MAX	4096
#define RBTR_PID_SEPS		" \t\n\v\f\r"

static const char *const rbtr_pid_file_names[RBTR_PID_NR_KINDS] = {
	[RBTR_PID_EV]		= "set_event_pid",
	[RBTR_PID_EV_NO]	= "set_event_notrace_pid",
	[RBTR_PID_FN]		= "set_ftrace_pid",
	[RBTR_PID_FN_NO]	= "set_ftrace_notrace_pid",
};

/* The fork options' names, as options/ and trace_options spell them. */
static const char *const rbtr_pid_opt_names[RBTR_PID_NR_OPTS] = {
	"event-fork", "function-fork",
};

/* Count the words of @buf; -EINVAL if one is too long for ftrace's parser. */
static int rbtr_pid_count_words(const char *buf, unsigned int *nr)
{
	size_t len;

	*nr = 0;
	for (;;) {
		buf += strspn(buf, RBTR_PID_SEPS);
		len = strcspn(buf, RBTR_PID_SEPS);
		if (!len)
			return 0;
		if (len > RBTR_PID_WORD_MAX)
			return -EINVAL;
		(*nr)++;
		buf += len;
	}
}

/* ftrace's trace_pid_write(): every word a pid, or the write fails. */
static int rbtr_pid_parse(char *buf, struct rbtr_pid_list *l)
{
	unsigned long v;
	char *word;
	u32 pid;

	while ((word = strsep(&buf, RBTR_PID_SEPS)) != NULL) {
		if (!*word)
			continue;
		if (kstrtoul(word, 0, &v))
			return -EINVAL;
		/* As ftrace: the value taken as a pid_t, then checked against MAX_PID. */
		pid = (u32)(pid_t)v;
		if (pid >= (u32)RBTR_PID_MAX)
			return -EPERM;
		rbtr_pid_list_add(l, pid);
	}
	return 0;
}

static int rbtr_pid_write_locked(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind, char *buf)
{
	struct rbtr_pid_list *new;
	unsigned int nr;
	int ret;

	ret = rbtr_pid_count_words(buf, &nr);
	if (ret)
		return ret;
	new = rbtr_pid_list_dup(rbtr_pid_get(p, kind), nr);
	if (!new)
		return -ENOMEM;
	ret = rbtr_pid_parse(buf, new);
	if (ret) {
		rbtr_pid_list_free(new);
		return ret;
	}
	/* No pid at all, old or new: the list is removed, as ftrace's. */
	if (rbtr_pid_list_empty(new)) {
		rbtr_pid_list_free(new);
		new = NULL;
	}
	return rbtr_pid_replace(p, kind, new);
}

/* ---- the files ------------------------------------------------------------- */

static int rbtr_pid_show(struct seq_file *m, void *v)
{
	const struct rbtr_pid_file *pf = rbtr_seq_data(m);
	enum rbtr_pid_kind kind = pf->idx;
	const struct rbtr_pid_list *l;
	unsigned long pid;
	unsigned int i;

	mutex_lock(&rbtr_pid_mutex);
	l = rbtr_pid_get(pf->p, kind);
	if (l) {
		for_each_set_bit(pid, l->bits, PID_MAX_LIMIT)
			seq_printf(m, "%lu\n", pid);
		for (i = 0; i < l->nr_high; i++)
			seq_printf(m, "%u\n", l->high[i]);
	} else if (kind == RBTR_PID_FN || kind == RBTR_PID_FN_NO) {
		/* ftrace's fpid_show(); its event files show nothing. */
		seq_puts(m, "no pid\n");
	}
	mutex_unlock(&rbtr_pid_mutex);
	return 0;
}

/*
 * i_private is a struct rbtr_pid_file of the tracer's state, which lives
 * as long as the file (freed after the tracer's tree is removed, and
 * debugfs's removal waits for the opens in flight): the open holds the
 * tracer (rmdir -EBUSY) until the release.
 */
static int rbtr_pid_open(struct inode *inode, struct file *file)
{
	struct rbtr_pid_file *pf = inode->i_private;
	int ret = rbtr_single_open_tr(file, pf->p->tr, rbtr_pid_show, pf);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rbtr_pid_mutex);
		rbtr_pid_replace(pf->p, pf->idx, NULL);
		mutex_unlock(&rbtr_pid_mutex);
	}
	return 0;
}

static ssize_t rbtr_pid_write(struct file *file, const char __user *ubuf, size_t cnt,
			      loff_t *ppos)
{
	struct rbtr_pid_file *pf = file_inode(file)->i_private;
	size_t len;
	char *buf;
	int ret;

	if (!cnt)
		return 0;
	buf = rbtr_write_cut(ubuf, cnt, RBTR_PID_WRITE_MAX, RBTR_PID_SEPS, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&rbtr_pid_mutex);
	ret = rbtr_pid_write_locked(pf->p, pf->idx, buf);
	mutex_unlock(&rbtr_pid_mutex);
	if (ret)
		pr_warn_ratelimited("rbtrace: %s: not a list of pids (%d)\n",
				    rbtr_pid_file_names[pf->idx], ret);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += len;
	return len;
}

static const struct file_operations rbtr_pid_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_pid_open,
	.read		= seq_read,
	.write		= rbtr_pid_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/* As rbtr_pid_open(): the option's file holds its tracer while open. */
static int rbtr_pid_opt_open(struct inode *inode, struct file *file)
{
	struct rbtr_pid_file *pf = inode->i_private;
	int ret = rbtr_check_open_tr(pf->p->tr);

	return ret ?: simple_open(inode, file);
}

static int rbtr_pid_opt_release(struct inode *inode, struct file *file)
{
	struct rbtr_pid_file *pf = inode->i_private;

	rbtr_trace_put(pf->p->tr);
	return 0;
}

static ssize_t rbtr_pid_opt_read(struct file *file, char __user *ubuf, size_t cnt,
				 loff_t *ppos)
{
	struct rbtr_pid_file *pf = file_inode(file)->i_private;

	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(pf->p->fork_opt[pf->idx]));
}

/* Switch @p's fork option @opt; its fork probes follow. */
static int rbtr_pid_opt_set(struct rbtr_pid_tr *p, int opt, bool on)
{
	int ret;

	mutex_lock(&rbtr_pid_mutex);
	WRITE_ONCE(p->fork_opt[opt], on);
	/* Kept registered while either option is on, as ftrace's per option. */
	ret = rbtr_pid_probes_set(p, &p->fork_probes,
				  p->fork_opt[RBTR_PID_OPT_EVENT] ||
				  p->fork_opt[RBTR_PID_OPT_FUNC]);
	if (ret)
		WRITE_ONCE(p->fork_opt[opt], false);
	mutex_unlock(&rbtr_pid_mutex);
	return ret;
}

/* ftrace's trace_options_core_write(): 0 or 1, else -EINVAL. */
static ssize_t rbtr_pid_opt_write(struct file *file, const char __user *ubuf, size_t cnt,
				  loff_t *ppos)
{
	struct rbtr_pid_file *pf = file_inode(file)->i_private;
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	ret = rbtr_pid_opt_set(pf->p, pf->idx, on);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

void rbtr_pid_options_show(struct rbtr_trace *tr, struct seq_file *m)
{
	struct rbtr_pid_tr *p = tr->pid;
	int i;

	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		seq_printf(m, "%s%s\n", READ_ONCE(p->fork_opt[i]) ? "" : "no",
			   rbtr_pid_opt_names[i]);
}

int rbtr_pid_option_set(struct rbtr_trace *tr, const char *name, bool on)
{
	struct rbtr_pid_tr *p = tr->pid;
	int i;

	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		if (!strcmp(name, rbtr_pid_opt_names[i]))
			return rbtr_pid_opt_set(p, i, on);
	return -ENOENT;
}

static const struct file_operations rbtr_pid_opt_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_pid_opt_open,
	.release	= rbtr_pid_opt_release,
	.read		= rbtr_pid_opt_read,
	.write		= rbtr_pid_opt_write,
	.llseek		= generic_file_llseek,
};

/* The files of kinds [@first, @first + 2) and of option @opt. */
static void rbtr_pid_make_files(struct rbtr_trace *tr, int first, int opt)
{
	struct dentry *opts = rbtr_options_dir(tr);
	struct rbtr_pid_tr *p = tr->pid;
	int i;

	for (i = first; i < first + 2; i++)
		debugfs_create_file(rbtr_pid_file_names[i], 0600, tr->dir, &p->files[i],
				    &rbtr_pid_fops);
	if (!IS_ERR(opts))
		debugfs_create_file(rbtr_pid_opt_names[opt], 0600, opts, &p->opt_files[opt],
				    &rbtr_pid_opt_fops);
}

void rbtr_pid_files(struct rbtr_trace *tr)
{
	rbtr_pid_make_files(tr, RBTR_PID_EV, RBTR_PID_OPT_EVENT);
}

void rbtr_pid_fn_files(struct rbtr_trace *tr)
{
	rbtr_pid_make_files(tr, RBTR_PID_FN, RBTR_PID_OPT_FUNC);
}
